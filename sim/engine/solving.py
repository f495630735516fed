"""Deals with solving players (``pimc``, ``dd``) at the table: their cards are chosen here,
between calls of the compiled kernel.

The solvers are not compiled into the kernels (each game's kernel would take a minute longer
to compile, for every run, with or without a solving player). Instead a solving seat is
``SOLVING`` to the kernel (``sim.engine.kernel``): its decisions before the card play are the
heuristic's, and at each of its cards the deal stops (``E_SOLVE``) and leaves the seat's
observation and the card-play state. ``choose`` chooses the card (``pimc`` from the
observation alone, ``dd`` from the state: it sees every card); ``sim.engine.outside`` adds it
to the deal's script and plays the batch again, until every deal is over.

Each decision draws from its own stream, keyed by the seed, the deal and the decision's
number in the deal, so a deal plays the same whatever the shard, the workers or the
backend; the other seats draw from their own streams as always, so replaying a deal from
its start reproduces it.
"""

from __future__ import annotations

import importlib
import threading
from types import ModuleType
from typing import Any

import numpy as np

from sim.engine.game import Game
from sim.engine.seats import DD, HEURISTIC, KIND_MASK, PIMC, option_of

MEMO_SIZE = 4096
"""Decisions remembered, so that a table replaying its deal after each of a person's
decisions does not solve the solving seats' cards again."""

_LOCAL = threading.local()
_MEMO: dict[tuple[Any, ...], int] = {}


def hooks(game: Game) -> ModuleType:
    """The entry points of the game's solver (``Game.solver``), imported on first use: the
    solvers compile only when a solving player sits down."""
    if game.solver is None:
        raise ValueError(f"game {game.name} has no solver")
    return importlib.import_module(game.solver.module)


def workspace(module: ModuleType) -> tuple[np.ndarray, ...]:
    """This thread's solver workspace for the game's states, with the table of the game's
    solve (``TT_BITS``: 4 MiB in the Skat family, 64 MiB in the Doppelkopf games), for
    ``dd`` and ``pimc`` alike: each decision searches under generations of its own, so
    nothing a decision leaves in the table counts for the next. The Skat family's ``pimc``
    was 5 % faster on the bench with its 16 worlds in this 4 MiB table than in one of
    64 MiB (less waiting for memory; both workers' tables fit in the shared cache)."""
    spaces: dict[str, tuple[np.ndarray, ...]] = _LOCAL.__dict__.setdefault("spaces", {})
    ws = spaces.get(module.__name__)
    if ws is None:
        ws = spaces[module.__name__] = module.new_workspace(module.TT_BITS)
    return ws


def choose(game: Game, pol: int, view: np.ndarray, state: np.ndarray, key: int) -> int:
    """The card a solving player (kernel id ``pol``) plays: ``pimc`` from the seat's
    observation ``view`` alone, ``dd`` from the card-play ``state``; ``key`` starts the
    decision's stream. The heuristic's card breaks a tie."""
    assert game.card_play is not None
    memo = (game.name, pol, key, view.tobytes(), state.tobytes() if pol & KIND_MASK == DD else b"")
    if memo in _MEMO:
        return _MEMO[memo]
    module = hooks(game)
    rng = np.array([key], np.uint64)
    prefer = int(game.card_play.decide(HEURISTIC, view, rng.copy()))
    if pol & KIND_MASK == PIMC:
        card = int(module.pimc_card(view, rng, option_of(pol), prefer, workspace(module)))
    else:
        card = int(module.dd_card(state, prefer, workspace(module)))
    if len(_MEMO) >= MEMO_SIZE:
        _MEMO.clear()
    _MEMO[memo] = card
    return card

"""Playing a batch of deals of a game: ``play``, the one call for policy names.

Seats of the kernel's own policies play in one call of its compiled kernel
(``sim.engine.batch.run_kernel``); seats of a solving player (``pimc``, ``dd``) choose their
cards, and players written in Python every decision, between calls (``sim.engine.outside``).
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

import numpy as np

from sim.engine.batch import Batch, run_kernel
from sim.engine.game import Game
from sim.engine.net import NO_NET, Net, NetError, load, stack
from sim.engine.outside import play_outside
from sim.engine.python_player import check as check_pythons
from sim.engine.restricted_player import check as check_restricted
from sim.engine.restricted_player import seat_games
from sim.engine.seats import (
    KIND_BITS,
    PERSON,
    SCRIPTED,
    SEATED,
    is_python,
    is_restricted,
    is_solving,
    net_weights,
    policy_ids,
)


def play(game: Game, seed: int, first: int, count: int, rules: dict[str, Any],
         policies: list[str], record: bool = False, script: list[np.ndarray] | None = None,
         preset: np.ndarray | None = None) -> Batch:
    """Play deals ``first .. first + count - 1`` of ``game`` under ``seed``, one policy name
    per seat (each one the game supports).

    ``record`` keeps every deal's actions; ``script`` (one action array per
    deal) replays recorded actions instead of asking the policies: for every seat,
    or, where seats are named ``person``, for those only (the others play their
    policies), and a deal stops at a person's decision its script lacks
    (``Batch.views``). ``preset`` deals every deal from that order of the cards
    instead of shuffling (a deal given by hand). Solving players (``pimc``, ``dd``)
    and players restricted in their cards (``restricted:heuristic:RESTRICTION``) choose their
    cards, and
    players written in Python (``python:FILE.py:FUNCTION``) every decision, outside the kernel
    (``sim.engine.outside``).
    """
    pols = np.array(policy_ids(policies, game, SEATED), np.int64)
    net = seat_nets(game, policies, pols)
    seat_games(game, policies, pols)
    if script is None and PERSON in pols:
        raise ValueError("a person's seat needs a script (his decisions so far)")
    if script is not None and PERSON not in pols:
        pols[:] = SCRIPTED
    elif any(is_solving(int(p)) or is_python(int(p)) or is_restricted(int(p)) for p in pols):
        return play_outside(game, seed, first, count, rules, pols, list(policies), record, script,
                            preset, net)
    return run_kernel(game, seed, first, count, rules, pols, record, script, preset, net)


def seat_nets(game: Game, policies: list[str], pols: np.ndarray) -> Net:
    """The networks the ``net`` seats play (the game's shipped weights for ``net``, the file
    of ``net:PATH``), one slot per weights file, each seat's slot set in its kernel id
    ``pols``; ``NO_NET`` if no seat plays one. A file that does not fit is a ``NetError``."""
    sources = [net_weights(name) for name in policies]
    files = list(dict.fromkeys(s for s in sources if s is not None))
    if not files:
        return NO_NET
    if game.net is None:
        raise NetError(f"game {game.name} has no learned player")
    for seat, source in enumerate(sources):
        if source is not None:
            pols[seat] |= files.index(source) << KIND_BITS
    return stack([load(f or shipped(game), game.name, game.net.features) for f in files])


def check_seats(game: Game, policies: list[str]) -> None:
    """Refuse (``NetError``, one line) a ``net`` policy whose weights are missing or do not fit
    ``game``, a Python player that is not there or does not import (``PlayerError``), and a
    restriction the game does not know: before any work is handed out."""
    seat_nets(game, policies, np.zeros(len(policies), np.int64))
    check_pythons(policies)
    check_restricted(game, policies)


def shipped(game: Game) -> str:
    """The path of the game's shipped weights (``Game.net.weights``)."""
    assert game.net is not None
    package, _, name = game.net.weights.partition(":")
    return str(files(package) / name)

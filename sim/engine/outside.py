"""Deals with seats that decide outside the compiled kernel: solving players (``pimc``,
``dd``: their cards, ``sim.engine.solving``), restricted players (their cards,
``sim.engine.restricted_player``), players written in Python (every decision,
``sim.engine.python_player``) and a person at the table (``stichsim play``: his script).

The kernel stops a deal at such a seat's decision (``E_SOLVE`` for a solving or restricted
player's card, ``E_ASK`` for a person's or a Python player's decision) and leaves the seat's observation.
``play_outside`` decides there, adds the decision to the deal's script and plays the batch
again, until every deal is over (or waits for a person whose script has run out).

Each decision outside the kernel draws from its own stream, keyed by the seed, the deal and
the decision's number in the deal (a stream for the solving players' cards, one for the
Python players' decisions), so a deal plays the same whatever the shard, the workers or the
backend; the other seats draw from their own streams as always, so replaying a deal from its
start reproduces it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.actions import ROW
from sim.engine.batch import Batch, run_kernel
from sim.engine.cardplay import HEADER
from sim.engine.game import Game
from sim.engine.kernel import E_ASK, E_SOLVE
from sim.engine.net import NO_NET, Net
from sim.engine.python_player import PythonSeat
from sim.engine.restricted_player import RestrictedSeat
from sim.engine.seats import PERSON, SOLVING, is_python, is_restricted, is_solving, python_source
from sim.engine.solving import choose, hooks
from sim.rng import stream_key

SOLVING_STREAM = 1 << 20
"""Stream numbers of the solving players' decisions: ``SOLVING_STREAM + k`` for a deal's k-th,
far above the seats' streams (``sim.rng``)."""
PYTHON_STREAM = 1 << 21
"""Stream numbers of the Python players' decisions: ``PYTHON_STREAM + k`` for a deal's k-th."""


def kernel_ids(pols: np.ndarray) -> np.ndarray:
    """The seats' ids as the kernel takes them: a solving or restricted seat ``SOLVING`` (the
    kernel stops at its cards), a Python player's ``PERSON`` (at each of its decisions), the
    others as they are."""
    return np.array([SOLVING if is_solving(int(p)) or is_restricted(int(p)) else PERSON
                     if is_python(int(p)) else int(p) for p in pols], np.int64)


def play_outside(game: Game, seed: int, first: int, count: int, rules: dict[str, Any],
                 pols: np.ndarray, policies: list[str], record: bool,
                 script: list[np.ndarray] | None, preset: np.ndarray | None,
                 net: Net = NO_NET) -> Batch:
    """``sim.engine.play.play`` with seats deciding outside the kernel (kernel ids ``pols``,
    named ``policies``; a ``PERSON`` seat plays ``script``, one array of his rows per deal;
    ``net`` seats their networks). See the module text."""
    kernel_pols = kernel_ids(pols)
    pythons = {seat: PythonSeat(game, rules, seat, str(python_source(name)))
               for seat, name in enumerate(policies) if is_python(int(pols[seat]))}
    restricted = {seat: RestrictedSeat(game, rules, seat, name)
                  for seat, name in enumerate(policies) if is_restricted(int(pols[seat]))}
    person = [[tuple(int(v) for v in r) for r in s] for s in script] if script else [[]] * count
    used = [0] * count
    rows: list[list[tuple[int, ...]]] = [[] for _ in range(count)]
    solved = [0] * count
    answered = [0] * count
    while True:
        batch = run_kernel(game, seed, first, count, rules, kernel_pols, True,
                           [np.array(r, np.int64).reshape(-1, ROW) for r in rows], preset, net)
        assert batch.views is not None and batch.askers is not None
        errors = batch.columns["replay_error"]
        moved = False
        for i in np.flatnonzero((errors == E_SOLVE) | (errors == E_ASK)):
            view = batch.views[i]
            assert view is not None
            if errors[i] == E_ASK:
                seat = batch.askers[i]
                if seat in pythons:
                    key = int(stream_key(seed, first + i, PYTHON_STREAM + answered[i]))
                    rows[i].append(pythons[seat].decide(view, key))
                    answered[i] += 1
                    moved = True
                elif used[i] < len(person[i]):  # a person's decision: his next row, if made
                    rows[i].append(person[i][used[i]])
                    used[i] += 1
                    moved = True
                continue
            assert batch.states is not None
            state = batch.states[i]
            assert state is not None
            player = int(state[HEADER.PLAYER])
            key = int(stream_key(seed, first + i, SOLVING_STREAM + solved[i]))
            if player in restricted:
                rows[i].append(restricted[player].decide(view, key))
            else:
                card = choose(game, int(pols[player]), view, state, key)
                kind, a, b = hooks(game).card_row(state, card)
                rows[i].append((int(kind), player, int(a), int(b)))
            solved[i] += 1
            moved = True
        if not moved:
            break
    if not record:
        return Batch(batch.columns)
    return Batch(batch.columns, batch.actions, batch.views, None, batch.askers)

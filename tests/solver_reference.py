"""Slow references the double-dummy solver is checked against (``test_solver.py``): a plain
minimax that visits every line of play, and a plain alpha-beta (no table, no equivalent
cards, cards in index order). Both are written without the solver's code: they play the
game's own ``legal`` and ``step`` over its card-play state and count with its ``tally`` (the
Skat family, whose solver searches a state of its own, with ``skat_family_count`` here)."""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import lsb
from sim.engine.cardplay import HEADER
from sim.games.doko_duell import solver as solve_doko_duell
from sim.games.doko_skat import solver as solve_doko_skat
from sim.games.skat_family import solver as solve_skat_family
from sim.games.skat_family.cardplay import TRICKS, S
from sim.games.skat_family.search_state import Q_CONSTANT, Q_LAST_TRICK, Q_TOTAL
from sim.games.skat_family.values import NULL
from sim.search.solver import POINTS, Q_COUNTED, Q_KIND, Q_MAXIMIZERS

BIG = 1 << 20


@numba.njit(cache=True, inline="always")
def _minimax(root, q, legal, step, tally):
    """The count under best play, every line of play visited."""
    states = np.empty((64, root.shape[0]), np.int64)
    rest = np.zeros(64, np.uint64)
    best = np.zeros(64, np.int64)
    maxing = np.zeros(64, np.bool_)
    states[0, :] = root
    rest[0] = legal(root)
    if rest[0] == 0:
        return tally(root, q)[0]
    maxing[0] = (q[Q_MAXIMIZERS] >> root[HEADER.TO_MOVE]) & 1
    best[0] = -BIG if maxing[0] else BIG
    d = 0
    while True:
        if rest[d]:
            c = lsb(rest[d])
            rest[d] &= rest[d] - np.uint64(1)
            states[d + 1, :] = states[d, :]
            step(states[d + 1], c)
            m = np.uint64(legal(states[d + 1]))
            if m:
                d += 1
                rest[d] = m
                maxing[d] = (q[Q_MAXIMIZERS] >> states[d, HEADER.TO_MOVE]) & 1
                best[d] = -BIG if maxing[d] else BIG
                continue
            v = tally(states[d + 1], q)[0]
        else:
            v = best[d]
            if d == 0:
                return v
            d -= 1
        best[d] = max(best[d], v) if maxing[d] else min(best[d], v)


@numba.njit(cache=True, inline="always")
def _alphabeta(root, q, legal, step, tally):
    """The count under best play by plain alpha-beta (fail-hard, cards in index order)."""
    states = np.empty((64, root.shape[0]), np.int64)
    rest = np.zeros(64, np.uint64)
    best = np.zeros(64, np.int64)
    alpha = np.zeros(64, np.int64)
    beta = np.zeros(64, np.int64)
    maxing = np.zeros(64, np.bool_)
    states[0, :] = root
    rest[0] = legal(root)
    if rest[0] == 0:
        return tally(root, q)[0]
    maxing[0] = (q[Q_MAXIMIZERS] >> root[HEADER.TO_MOVE]) & 1
    alpha[0] = -BIG
    beta[0] = BIG
    best[0] = -BIG if maxing[0] else BIG
    d = 0
    while True:
        cut = best[d] >= beta[d] if maxing[d] else best[d] <= alpha[d]
        if rest[d] and not cut:
            c = lsb(rest[d])
            rest[d] &= rest[d] - np.uint64(1)
            states[d + 1, :] = states[d, :]
            step(states[d + 1], c)
            m = np.uint64(legal(states[d + 1]))
            if m:
                lo = max(alpha[d], best[d]) if maxing[d] else alpha[d]
                hi = beta[d] if maxing[d] else min(beta[d], best[d])
                d += 1
                rest[d] = m
                maxing[d] = (q[Q_MAXIMIZERS] >> states[d, HEADER.TO_MOVE]) & 1
                alpha[d] = lo
                beta[d] = hi
                best[d] = -BIG if maxing[d] else BIG
                continue
            v = tally(states[d + 1], q)[0]
        else:
            v = best[d]
            if d == 0:
                return v
            d -= 1
        best[d] = max(best[d], v) if maxing[d] else min(best[d], v)


@numba.njit(cache=True, inline="always")
def skat_family_count(state, q):
    """``(count, open)`` of a Skat-family card-play state: the counted places' card points
    (and the question's constant; the last trick's skat in Skat's ramsch) or tricks, and the
    most the rest can add."""
    counted = q[Q_COUNTED]
    done = state[S.DONE] != 0
    if q[Q_KIND] != POINTS:
        tricks = 0
        for p in range(3):
            if (counted >> p) & 1:
                tricks += state[S.TRICKS + p]
        if done:
            return tricks, 0
        return tricks, 1 - tricks if state[S.GAME] == NULL else TRICKS - state[S.TRICK_NO]
    count = q[Q_CONSTANT]
    taken = 0
    for p in range(3):
        taken += state[S.POINTS + p]
        if (counted >> p) & 1:
            count += state[S.POINTS + p]
    if done:
        if (counted >> state[S.LEADER]) & 1:
            count += q[Q_LAST_TRICK]
        return count, 0
    return count, q[Q_TOTAL] - taken


@numba.njit(cache=True)
def minimax_skat_family(root, q):
    return _minimax(root, q, solve_skat_family.legal, solve_skat_family.step, skat_family_count)


@numba.njit(cache=True)
def minimax_doko_duell(root, q):
    return _minimax(root, q, solve_doko_duell.legal, solve_doko_duell.step, solve_doko_duell.tally)


@numba.njit(cache=True)
def minimax_doko_skat(root, q):
    return _minimax(root, q, solve_doko_skat.legal, solve_doko_skat.step, solve_doko_skat.tally)


@numba.njit(cache=True)
def alphabeta_skat_family(root, q):
    return _alphabeta(root, q, solve_skat_family.legal, solve_skat_family.step, skat_family_count)


@numba.njit(cache=True)
def alphabeta_doko_skat(root, q):
    return _alphabeta(root, q, solve_doko_skat.legal, solve_doko_skat.step, solve_doko_skat.tally)

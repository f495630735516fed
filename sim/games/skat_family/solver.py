"""The Skat family's double-dummy solver (``skat``, ``skat_en_deux``): the question a
card-play state asks, and the compiled entry points the solve command, the solver bench, the
solving players and the tests call. They take card-play states; the one search
(``sim.search.solver``) runs over the family's search state
(``sim.games.skat_family.search_state``), made from the card-play state at each search's root.

The question a state asks (``question``):

* a suit game or grand: the declarer's card points, the two cards that count for him
  included (31, 61 and 90 are the thresholds the scoring sees);
* a null game: whether the declarer can be forced to take a trick (his tricks, 0 or 1,
  with the defenders maximizing);
* a ramsch: the card points of the place to move, with the others taking them as one side
  (each plays for himself; the search reads them as allied against him). Skat's skat goes
  to the taker of the last trick under ``ramsch_skat`` ``last_trick``; under ``loser`` (and
  in Skat-en-deux's ramsch) it is left out of the count.

Skat-en-deux's offers, Contra and Re are no part of a solved card play (``prepare`` turns
the offers off): the solver answers how the cards fall under best play, and a played-out
game is what an offer is weighed against.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.engine.cardplay import HEADER
from sim.games.skat_family import search_state as family
from sim.games.skat_family.cardplay import LENGTH, S, legal, step
from sim.games.skat_family.search_state import Q_CONSTANT, Q_LAST_TRICK, Q_TOTAL, from_play, play_moves
from sim.games.skat_family.skat_en_deux import card_row
from sim.games.skat_family.values import JIT, JIT_NRT, NULL, RAMSCH, card_points
from sim.games.skat_family.worlds import world
from sim.search import pimc, solver
from sim.search.solver import Q_COUNTED, Q_KIND, Q_MAXIMIZERS, Q_SUM, W_ROOT

ALL_POINTS = 120
TT_BITS = 18
SAME_NAME_SAME_MOVE = True
"""Every card is single: its name is its move."""
"""Transposition-table slots (as bits) of a solve: 2 ** 18 slots, 4 MiB. Larger tables
(2 ** 20, 2 ** 22) gave the same medians from trick 1."""


@numba.njit(**JIT)
def prepare(state):
    """A state made ready for solving: no more offers (the defender plays on)."""
    state[S.OFFERS] = 0
    state[S.CONTRA_RE] = 0


@numba.njit(**JIT)
def question(state, q):
    """The question the state's game asks (see the module text) into ``q``."""
    q[:] = 0
    game = state[S.GAME]
    skat = card_points(np.uint64(state[S.SKAT]))
    everyone = (1 << state[S.PLACES]) - 1
    if game == RAMSCH:
        solo = state[HEADER.TO_MOVE]
        q[Q_COUNTED] = 1 << solo
        q[Q_MAXIMIZERS] = everyone & ~(1 << solo)
        q[Q_KIND] = solver.POINTS
        last_trick = state[S.PLACES] == 3 and not state[S.SKAT_TO_LOSER]
        q[Q_TOTAL] = ALL_POINTS if last_trick else ALL_POINTS - skat
        q[Q_LAST_TRICK] = skat if last_trick else 0
        q[Q_SUM] = q[Q_TOTAL]
        return
    declarer = state[S.DECLARER]
    if game == NULL:
        q[Q_COUNTED] = 1 << declarer
        q[Q_MAXIMIZERS] = everyone & ~(1 << declarer)
        q[Q_KIND] = solver.TRICKS
        return
    q[Q_COUNTED] = q[Q_MAXIMIZERS] = 1 << declarer
    q[Q_KIND] = solver.POINTS
    q[Q_CONSTANT] = skat
    q[Q_TOTAL] = ALL_POINTS - skat
    q[Q_SUM] = ALL_POINTS


# --- entry points ---------------------------------------------------------------------------

@numba.njit(**JIT_NRT)
def new_workspace(tt_bits=TT_BITS):
    """A solver's workspace for this family's search states."""
    return solver.workspace(family.LENGTH, tt_bits)


# The searches allocate nothing: compiled without reference counting, which would cost an
# atomic count on every array view a node takes.

@numba.njit(**JIT)
def bound(state, q, target, ws):
    """The question's null-window search at ``target`` (``solver.probe``) from the card-play
    ``state``, over its search state (``sim.games.skat_family.search_state``)."""
    root = ws[W_ROOT]
    from_play(state, root)
    return solver.probe(root, target, q, ws, family.step, family.tally, family.key,
                        family.next_key, family.moves, family.bounds)


@numba.njit(**JIT)
def count(state, q, ws):
    """The question's count under best play from the card-play ``state``."""
    root = ws[W_ROOT]
    from_play(state, root)
    return solver.exact(state, root, q, ws, family.tally, bound)



@numba.njit(**JIT_NRT)
def counts_after(state, q, ws, out):
    """The count under best play after each legal card (``out[card]``); the legal cards."""
    return solver.root_counts(state, q, ws, out, legal, step, play_moves, count)


# --- the solving players (``sim.search.pimc``) -------------------------------------------------

@numba.njit(inline="always", **JIT)
def bands(state, q, thresholds, weights):
    """Where the score changes with the count: a suit game's or grand's declarer points 31, 61,
    90, 120 (out of Schneider, the win, Schneider, all the points: weights 2, 6, 1, 1, one
    game level each, a lost game counting double); a null game's first declarer trick; in a
    ramsch the mover's points 31, 41, 51, 61 (the more he takes, the likelier he loses)."""
    game = state[S.GAME]
    if game == NULL:
        thresholds[0] = 1
        weights[0] = 1
        return 1, 0
    if game == RAMSCH:
        for k in range(4):
            thresholds[k] = 31 + 10 * k
            weights[k] = 1
        return 4, 3
    thresholds[0], thresholds[1], thresholds[2], thresholds[3] = 31, 61, 90, ALL_POINTS
    weights[0], weights[1], weights[2], weights[3] = 2, 6, 1, 1
    return 4, 1


@numba.njit(**JIT_NRT)
def decide(states, count, order, prefer, ws):
    """The solving players' card over the worlds ``states[:count]`` (``pimc.decide``),
    compiled once for both players."""
    return pimc.decide(states, count, order, prefer, ws, prepare, question, bands, legal, step,
                       play_moves, bound)


@numba.njit(**JIT_NRT)
def card_totals(states, count, ws):
    """Every legal card's mean utility over the worlds ``states[:count]`` (``pimc.totals``)."""
    return pimc.totals(states, count, ws, prepare, question, bands, legal, step, play_moves, bound)


@numba.njit(**JIT_NRT)
def pimc_values(obs, rng, worlds, ws):
    """The legal cards and the mean utility of each over ``worlds`` worlds dealt from the
    seat's observation: the ``pimc:N`` teacher of a learned player (``pimc.values``)."""
    return pimc.values(obs, rng, worlds, ws, LENGTH, world, card_totals)


@numba.njit(**JIT_NRT)
def pimc_card(obs, rng, worlds, prefer, ws):
    """The ``pimc`` player's card from the seat's observation (``sim.search.pimc``), its
    searches chosen as the best bets on ending the race."""
    return pimc.pimc(obs, rng, worlds, pimc.BEST_BET, prefer, ws, LENGTH, world, legal, decide)


@numba.njit(**JIT_NRT)
def dd_card(state, prefer, ws):
    """The ``dd`` player's card: the deal itself solved (it sees every card)."""
    return pimc.dd(state, prefer, ws, legal, decide)


@numba.njit(**JIT_NRT)
def outcome_line(state, q):
    """``(count, open, win)``: the question's count so far from the card-play ``state``, the
    most still to come, and the count at which its side wins (``pimc.win_line``): how
    ``sim.quality`` reads a deal's course trick by trick."""
    root = np.zeros(family.LENGTH, np.int64)
    from_play(state, root)
    count, open_ = family.tally(root, q)
    return count, open_, pimc.win_line(state, q, bands)


__all__ = ["card_row"]

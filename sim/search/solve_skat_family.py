"""The Skat family's double-dummy solver (``skat``, ``skat_en_deux``): the hooks the one
search (``sim.search.solver``) needs over the card-play state, and the compiled entry points
the solve command, the solver bench and the tests call.

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

from sim.cards import bit
from sim.games.cardplay import HEADER, PLAY
from sim.games.skat_cardplay import LENGTH, TRICKS, S, legal, step
from sim.games.skat_en_deux import card_row
from sim.games.skat_values import EFF, JIT, JIT_NRT, NULL, POINTS, RAMSCH, STRENGTH, card_points
from sim.search import pimc, solver
from sim.search.skat_family import world
from sim.search.solver import Q_COUNTED, Q_GAME, Q_KIND, Q_MAXIMIZERS, Q_SUM
from sim.search.sure_points import hands_in_order, order_masks, sure_bounds
from sim.tricks import trick_winner

ORDER, PERM, SPAN = solver.card_order(EFF, STRENGTH)
"""Each game type's cards by effective suit and strength (``solver.equivalent``)."""
SUITS, CLASSES, TWINS = order_masks(ORDER, EFF, STRENGTH, POINTS)
"""The same order space's suits, cards by value and equal cards (``sim.search.sure_points``)."""
ALL_POINTS = 120
Q_CONSTANT, Q_TOTAL, Q_LAST_TRICK = Q_GAME, Q_GAME + 1, Q_GAME + 2
"""The question's own constants: points counted from the start (the declarer's skat),
points in play from the start, points the taker of the last trick adds (Skat's ramsch)."""
TT_BITS = 18
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


@numba.njit(inline="always", **JIT)
def tally(state, q):
    """``(count, open)``: what the question counts so far, and the most still to come."""
    counted = q[Q_COUNTED]
    done = state[S.DONE] != 0
    if q[Q_KIND] == solver.TRICKS:
        tricks = 0
        for p in range(3):
            if (counted >> p) & 1:
                tricks += state[S.TRICKS + p]
        if done:
            return tricks, 0
        # a null game ends at the declarer's first trick
        return tricks, 1 - tricks if state[S.GAME] == NULL else TRICKS - state[S.TRICK_NO]
    count = q[Q_CONSTANT]
    taken = 0
    for p in range(3):
        points = state[S.POINTS + p]
        taken += points
        if (counted >> p) & 1:
            count += points
    if done:
        if (counted >> state[S.LEADER]) & 1:
            count += q[Q_LAST_TRICK]
        return count, 0
    return count, q[Q_TOTAL] - taken


@numba.njit(inline="always", **JIT)
def bounds(state, q):
    """At a trick's start, ``(low, high)``: the least and the most the remaining tricks add
    to the count, from the points each side takes for sure (``sim.search.sure_points``): the
    tricks its trumps above the other side's must win, and the leader's quick tricks where his
    side wants its own points (not in a ramsch, where the count's player and the two others
    against him both shun them). A null game's tricks have none."""
    open_ = tally(state, q)[1]
    if q[Q_KIND] == solver.TRICKS:
        return 0, open_
    game = state[S.GAME]
    places = state[S.PLACES]
    ours = q[Q_COUNTED] & ((1 << places) - 1)
    leader = state[S.LEADER]
    hands = hands_in_order(state[S.HANDS], state[S.HANDS + 1],
                           state[S.HANDS + 2] if places == 3 else 0, PERM[game])
    # a ramsch: the leader's side does not want its quick tricks
    wants = ((ours >> leader) & 1) == ((q[Q_MAXIMIZERS] >> leader) & 1)
    return sure_bounds(hands, places, leader, ours, open_, SUITS[game], CLASSES[game],
                       TWINS[game], wants)


@numba.njit(inline="always", **JIT)
def key(state):
    """At a trick's start, the cards left and the leader; else 0."""
    if state[S.TRICK_N] or state[HEADER.PHASE] != PLAY:
        return np.uint64(0)
    live = np.uint64(state[S.HANDS] | state[S.HANDS + 1] | state[S.HANDS + 2])
    return live | (np.uint64(state[S.LEADER] + 1) << np.uint64(58))


@numba.njit(inline="always", **JIT)
def moves(state, q, out, rep, scores):
    """The cards to search for the place to move, one of each equivalent run, likely best
    first (``solver.equivalent``, ``solver.ordered``)."""
    place = state[HEADER.TO_MOVE]
    game = state[S.GAME]
    eff = EFF[game]
    strength = STRENGTH[game]
    order, perm = ORDER[game], PERM[game]
    n = state[S.TRICK_N]
    live = np.uint64(state[S.HANDS] | state[S.HANDS + 1] | state[S.HANDS + 2])
    for k in range(n):
        live |= bit(state[S.TRICK + k])
    mask = np.uint64(legal(state))
    reps = solver.equivalent(mask, mask, np.uint64(state[S.HANDS + place]), live, order, perm,
                             eff, strength, POINTS, q[Q_KIND] == solver.POINTS, rep)
    if n == 0:
        return solver.ordered(reps, -1, -1, False, solver.tops(live, order, perm, SPAN[game]), eff, strength,
                              POINTS, out, scores)
    pos = trick_winner(state[S.TRICK:S.TRICK + n], n, eff, strength)
    winner = (state[S.LEADER] + pos) % state[S.PLACES]
    side = q[Q_MAXIMIZERS]
    partner = ((side >> winner) & 1) == ((side >> place) & 1)
    return solver.ordered(reps, state[S.TRICK], state[S.TRICK + pos], partner, np.uint64(0), eff,
                          strength, POINTS, out, scores)



# --- entry points ---------------------------------------------------------------------------

@numba.njit(**JIT_NRT)
def new_workspace(tt_bits=TT_BITS):
    """A solver's workspace for this game's states."""
    return solver.workspace(LENGTH, tt_bits)


# The searches allocate nothing: compiled without reference counting, which would cost an
# atomic count on every array view a node takes.

@numba.njit(**JIT)
def bound(state, q, target, ws):
    """The question's null-window search at ``target`` (``solver.probe``)."""
    return solver.probe(state, target, q, ws, step, tally, key, moves, bounds)


@numba.njit(**JIT)
def count(state, q, ws):
    """The question's count under best play."""
    return solver.exact(state, q, ws, step, tally, key, moves, bounds)



@numba.njit(**JIT_NRT)
def counts_after(state, q, ws, out):
    """The count under best play after each legal card (``out[card]``); the legal cards."""
    return solver.root_counts(state, q, ws, out, legal, step, moves, count)


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
def pimc_card(obs, rng, worlds, prefer, ws):
    """The ``pimc`` player's card from the seat's observation (``sim.search.pimc``)."""
    return pimc.pimc(obs, rng, worlds, prefer, ws, LENGTH, world, prepare, question, bands,
                     legal, step, moves, bound)


@numba.njit(**JIT_NRT)
def dd_card(state, prefer, ws):
    """The ``dd`` player's card: the deal itself solved (it sees every card)."""
    return pimc.dd(state, prefer, ws, prepare, question, bands, legal, step, moves, bound)


__all__ = ["card_row"]

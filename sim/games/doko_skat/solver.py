"""Doko-Skat's double-dummy solver: the hooks the one search (``sim.search.solver``) needs
over the main game's card-play state, and its compiled entry points.

The question is the lone player's card points as the settlement counts them: his
main-game tricks, his discards and, where ``first_round_points`` counts them (someone
declared), his first-round tricks; the pair takes the rest. The first round (three tricks in
the turned-up card's game) decides the teams and the special points rather than card
points: it is not solved.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import bit, mask_points
from sim.engine.cardplay import HEADER
from sim.engine.kernel import card_row
from sim.games.doko_skat.cardplay import LENGTH, S, legal, step
from sim.games.doko_skat.values import BAND_POINTS, EFF, JIT, JIT_NRT, POINTS, STRENGTH
from sim.games.doko_skat.worlds import world
from sim.search import pimc, solver
from sim.search.solver import NO_CARDS, Q_COUNTED, Q_GAME, Q_KIND, Q_MAXIMIZERS, Q_SUM
from sim.search.sure_points import hands_in_order, order_masks, sure_bounds
from sim.tricks import beats, trick_winner

ORDER, PERM, SPAN = solver.card_order(EFF, STRENGTH)
SUITS, CLASSES, TWINS = order_masks(ORDER, EFF, STRENGTH, POINTS)
"""The order space's suits, cards by value and equal cards (``sim.search.sure_points``)."""
Q_CONSTANT, Q_TOTAL = Q_GAME, Q_GAME + 1
"""The question's own constants: the lone player's points outside the main game's tricks,
and the main game's card points (taken and still out)."""
TT_BITS = 22
SAME_NAME_SAME_MOVE = True
"""Two copies of a card in one hand are one move."""
"""Transposition-table slots (as bits) of a solve: 2 ** 22 slots, 64 MiB. The 12-trick main
game fills a smaller table: at 2 ** 18 slots the exact count from trick 1 took 2.5 times as
long (6 positions); at 2 ** 23 it was slower again."""


@numba.njit(**JIT)
def prepare(state):
    """Nothing to change: the main game asks nothing but cards."""


@numba.njit(inline="always", **JIT)
def _live(state):
    """The cards in the hands and those lying in the trick."""
    live = np.uint64(state[S.HANDS] | state[S.HANDS + 1] | state[S.HANDS + 2])
    for k in range(state[S.TRICK_N]):
        live |= bit(state[S.TRICK_CARD + k])
    return live


@numba.njit(**JIT)
def question(state, q):
    """The lone player's card points, the lone player maximizing."""
    q[:] = 0
    lone = state[S.LONE]
    q[Q_COUNTED] = q[Q_MAXIMIZERS] = 1 << lone
    q[Q_KIND] = solver.POINTS
    fr = state[S.DECLARER] >= 0 and state[S.COUNT_FIRST_ROUND] != 0
    taken = 0
    outside = 0
    for s in range(3):
        taken += state[S.POINTS + s]
        extra = mask_points(np.uint64(state[S.DISCARDS + s]), POINTS)
        if fr:
            extra += state[S.FR_POINTS + s]
        outside += extra
        if s == lone:
            q[Q_CONSTANT] = extra
    q[Q_TOTAL] = taken + mask_points(_live(state), POINTS)
    q[Q_SUM] = q[Q_TOTAL] + outside


@numba.njit(inline="always", **JIT)
def tally(state, q):
    """``(count, open)``: the lone player's points so far, and the points still out."""
    count = q[Q_CONSTANT]
    taken = 0
    for s in range(3):
        taken += state[S.POINTS + s]
        if (q[Q_COUNTED] >> s) & 1:
            count += state[S.POINTS + s]
    if state[S.DONE]:
        return count, 0
    return count, q[Q_TOTAL] - taken


@numba.njit(inline="always", **JIT)
def bounds(state, q):
    """At a trick's start, ``(low, high)``: the least and the most the remaining tricks add
    to the lone player's points, from the points each side takes for sure
    (``sim.search.sure_points``: both sides want their own points)."""
    open_ = tally(state, q)[1]
    table = state[S.TABLE]
    hands = hands_in_order(state[S.HANDS], state[S.HANDS + 1], state[S.HANDS + 2], PERM[table])
    return sure_bounds(hands, 3, state[S.TRICK_LEADER], q[Q_COUNTED], open_, SUITS[table],
                       CLASSES[table], TWINS[table], True)


@numba.njit(inline="always", **JIT)
def key(state):
    """At a trick's start, the cards left and the leader; else 0."""
    if state[S.TRICK_N] or state[S.DONE]:
        return np.uint64(0)
    return _live(state) | (np.uint64(state[S.TRICK_LEADER] + 1) << np.uint64(58))


@numba.njit(inline="always", **JIT)
def next_key(state, card):
    """The key of the position that playing ``card`` leads to when it ends the trick (the
    search fetches its table entry ahead: a hint, so the play's end needs no care); else 0."""
    if state[S.TRICK_N] != 2:
        return np.uint64(0)
    table = state[S.TABLE]
    eff = EFF[table]
    strength = STRENGTH[table]
    won = trick_winner(state[S.TRICK_CARD:S.TRICK_CARD + 2], 2, eff, strength)
    if beats(card, state[S.TRICK_CARD + won], eff[state[S.TRICK_CARD]], eff, strength):
        won = 2
    live = np.uint64(state[S.HANDS] | state[S.HANDS + 1] | state[S.HANDS + 2]) & ~bit(card)
    return live | (np.uint64((state[S.TRICK_LEADER] + won) % 3 + 1) << np.uint64(58))


@numba.njit(inline="always", **JIT)
def moves(state, q, out, rep, scores):
    """The cards to search for the seat to move, likely best first."""
    seat = state[HEADER.TO_MOVE]
    table = state[S.TABLE]
    eff = EFF[table]
    strength = STRENGTH[table]
    order, perm = ORDER[table], PERM[table]
    mask = np.uint64(legal(state))
    live = _live(state)
    reps = solver.equivalent(mask, mask, np.uint64(state[S.HANDS + seat]), live, order, perm,
                             eff, strength, POINTS, True, rep)
    n = state[S.TRICK_N]
    if n == 0:
        return solver.ordered(reps, -1, -1, False, solver.tops(live, order, perm, SPAN[table]),
                              NO_CARDS, NO_CARDS, NO_CARDS, (eff, strength, POINTS), out, scores)
    pos = trick_winner(state[S.TRICK_CARD:S.TRICK_CARD + n], n, eff, strength)
    winner = (state[S.TRICK_LEADER] + pos) % 3
    partner = solver.same_side(q, winner, seat)
    return solver.ordered(reps, state[S.TRICK_CARD], state[S.TRICK_CARD + pos], partner, NO_CARDS,
                          NO_CARDS, NO_CARDS, NO_CARDS, (eff, strength, POINTS), out, scores)



# --- entry points (the searches allocate nothing: no reference counting) --------------------

@numba.njit(**JIT_NRT)
def new_workspace(tt_bits=TT_BITS):
    """A solver's workspace for Doko-Skat's states."""
    return solver.workspace(LENGTH, tt_bits)


@numba.njit(**JIT)
def bound(state, q, target, ws):
    """The question's null-window search at ``target`` (``solver.probe``)."""
    return solver.probe(state, target, q, ws, step, tally, key, next_key, moves, bounds)


@numba.njit(**JIT)
def count(state, q, ws):
    """The lone player's count under best play."""
    return solver.exact(state, state, q, ws, tally, bound)



@numba.njit(**JIT_NRT)
def counts_after(state, q, ws, out):
    """The count under best play after each legal card (``out[card]``); the legal cards."""
    return solver.root_counts(state, q, ws, out, legal, step, moves, count)


# --- the solving players (``sim.search.pimc``) -------------------------------------------------

POINT_STEPS = pimc.doko_steps(BAND_POINTS)
"""What each of ``pimc.doko_bands``' thresholds adds to the lone player's score (RULES.md:
2, 3, 4, 6 or 8 points a player for the winners by the losers' card points: the seed's
``BAND_POINTS``, the ``points_band_*`` defaults, since scoring-only options change no play;
at the tie the non-declaring side's 1 taken as even); Spitzen and special points are no part
of a solved count."""


@numba.njit(inline="always", **JIT)
def bands(state, q, thresholds, weights):
    """The score bands of the lone player's card points (``POINT_STEPS``)."""
    return pimc.doko_bands(q, thresholds, weights, POINT_STEPS)


@numba.njit(**JIT_NRT)
def decide(states, count, order, prefer, ws):
    """The solving players' card over the worlds ``states[:count]`` (``pimc.decide``),
    compiled once for both players."""
    return pimc.decide(states, count, order, prefer, ws, prepare, question, bands, legal, step,
                       moves, bound)


@numba.njit(**JIT_NRT)
def card_totals(states, count, ws):
    """Every legal card's mean utility over the worlds ``states[:count]`` (``pimc.totals``)."""
    return pimc.totals(states, count, ws, prepare, question, bands, legal, step, moves, bound)


@numba.njit(**JIT_NRT)
def pimc_values(obs, rng, worlds, ws):
    """The legal cards and the mean utility of each over ``worlds`` worlds dealt from the
    seat's observation: the ``pimc:N`` teacher of a learned player (``pimc.values``)."""
    return pimc.values(obs, rng, worlds, ws, LENGTH, world, card_totals)


@numba.njit(**JIT_NRT)
def pimc_card(obs, rng, worlds, prefer, ws):
    """The ``pimc`` player's card from the seat's observation (``sim.search.pimc``), its
    worlds searched widest interval first."""
    return pimc.pimc(obs, rng, worlds, pimc.WIDEST_FIRST, prefer, ws, LENGTH, world, legal, decide)


@numba.njit(**JIT_NRT)
def dd_card(state, prefer, ws):
    """The ``dd`` player's card: the deal itself solved (it sees every card)."""
    return pimc.dd(state, prefer, ws, legal, decide)


@numba.njit(**JIT_NRT)
def outcome_line(state, q):
    """``pimc.outcome_line`` of the game's ``tally`` and ``bands``."""
    return pimc.outcome_line(state, q, tally, bands)


__all__ = ["card_row"]

"""The Doppelkopf duel's double-dummy solver: the hooks the one search
(``sim.search.solver``) needs over the duel's card-play state, and its compiled entry points.

Every card is known, the face-down pyramid cards included. The question is player 0's card
points (player 1 takes the rest of the 240): the card points decide the winner and the band
(the scoring sees the bands' thresholds). Markers are no part of the count.

A hand card and a card of the mover's pyramid are never taken as equivalent (playing the
pyramid card may free the cards it covered); two hand cards are, as in every game.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from sim.cards import bit, lsb
from sim.engine.cardplay import HEADER
from sim.games.doko_duell.cardplay import (
    EFF,
    LENGTH,
    N_CARDS,
    POINTS,
    PYRAMID,
    STRENGTH,
    TRICKS,
    S,
    legal,
    second_beats,
    step,
)
from sim.games.doko_duell.game import card_row
from sim.games.doko_duell.values import BAND_VP
from sim.games.doko_duell.worlds import world
from sim.search import pimc, solver
from sim.search.solver import NO_CARDS, Q_COUNTED, Q_KIND, Q_MAXIMIZERS, Q_SUM
from sim.search.sure_points import hands_in_order, order_masks, sure_bounds

ORDER, PERM, SPAN = (table[0] for table in solver.card_order(EFF, STRENGTH))
SUITS, CLASSES, TWINS = (table[0] for table in order_masks(ORDER[np.newaxis], EFF, STRENGTH, POINTS))
"""The order space's suits, cards by value and equal cards (``sim.search.sure_points``)."""
ALL_POINTS = 240
ALL_CARDS = np.uint64((1 << N_CARDS) - 1)
TT_BITS = 22
SAME_NAME_SAME_MOVE = False
"""A card name may be played from the hand or the pyramid: two moves (hindsight searches
both)."""
"""Transposition-table slots (as bits) of a solve: 2 ** 22 slots, 64 MiB. The 20-trick card
play fills a smaller table: at 2 ** 18 slots the exact count from trick 1 took 2.7 times as
long (3 positions)."""
JIT: Any = {"cache": True, "_nrt": False}
JIT_NRT: Any = {"cache": True, "_nrt": True}


@numba.njit(**JIT)
def prepare(state):
    """Nothing to change: the duel's card play asks nothing but cards."""


@numba.njit(**JIT)
def question(state, q):
    """Player 0's card points, player 0 maximizing."""
    q[:] = 0
    q[Q_COUNTED] = q[Q_MAXIMIZERS] = 1
    q[Q_KIND] = solver.POINTS
    q[Q_SUM] = ALL_POINTS


@numba.njit(inline="always", **JIT)
def tally(state, q):
    """``(count, open)``: the counted player's card points, and the points still out."""
    taken = state[S.POINTS] + state[S.POINTS + 1]
    count = state[S.POINTS] if q[Q_COUNTED] & 1 else state[S.POINTS + 1]
    if state[S.DONE]:
        return count, 0
    return count, ALL_POINTS - taken


@numba.njit(inline="always", **JIT)
def _live(state):
    """The cards not played yet, and the card lying in the trick."""
    live = ALL_CARDS & ~np.uint64(state[S.PLAYED] | state[S.PLAYED + 1])
    if state[S.TRICK_N]:
        live |= bit(state[S.TRICK])
    return live


@numba.njit(inline="always", **JIT)
def key(state):
    """At a trick's start, the cards left and the leader; else 0."""
    if state[S.TRICK_N] or state[S.DONE]:
        return np.uint64(0)
    return _live(state) | (np.uint64(state[S.LEADER] + 1) << np.uint64(58))


@numba.njit(inline="always", **JIT)
def _cards_of(state, seat):
    """The cards ``seat`` still holds: his hand and the cards at his pyramid's positions
    still present (face up or not)."""
    cards = np.uint64(state[S.HANDS + seat])
    present = state[S.PRESENT + seat]
    base = S.PYRAMIDS + PYRAMID * seat
    while present:
        cards |= bit(state[base + lsb(present)])
        present &= present - 1
    return cards


@numba.njit(inline="always", **JIT)
def bounds(state, q):
    """At a trick's start, ``(low, high)``: the least and the most the remaining tricks add
    to player 0's points, from each player's trumps above every trump the other still holds
    (``sim.search.sure_points.trumps_above``: every card is played in the end, and such a
    trump wins its trick whenever it comes; an equal card of the other player blocks, so
    this holds under every ``equal_cards`` rule). The leader's quick tricks are left out: a
    pyramid card may lie covered."""
    open_ = tally(state, q)[1]
    hands = hands_in_order(_cards_of(state, 0), _cards_of(state, 1), 0, PERM)
    return sure_bounds(hands, 2, state[S.LEADER], 1, open_, SUITS, CLASSES, TWINS, False)


@numba.njit(inline="always", **JIT)
def next_key(state, card):
    """The key of the position that playing ``card`` leads to when it ends the trick (the
    search fetches its table entry ahead: a hint, so the play's end needs no care); else 0."""
    if state[S.TRICK_N] != 1:
        return np.uint64(0)
    led = state[S.TRICK]
    leader = state[S.LEADER]
    taker = 1 - leader if second_beats(led, card, state[S.EQUAL]) else leader
    live = _live(state) & ~bit(led) & ~bit(card)
    return live | (np.uint64(taker + 1) << np.uint64(58))


@numba.njit(inline="always", **JIT)
def moves(state, q, out, rep, scores):
    """The cards to search for the player to move, likely best first."""
    seat = state[HEADER.TO_MOVE]
    mask = np.uint64(legal(state))
    live = _live(state)
    hand = np.uint64(state[S.HANDS + seat])
    reps = solver.equivalent(mask, mask & hand, _cards_of(state, seat), live, ORDER, PERM,
                             EFF, STRENGTH, POINTS, True, rep)
    if state[S.TRICK_N] == 0:
        return solver.ordered(reps, -1, -1, False, solver.tops(live, ORDER, PERM, SPAN), NO_CARDS,
                              NO_CARDS, NO_CARDS, (EFF, STRENGTH, POINTS), out, scores)
    led = state[S.TRICK]
    return solver.ordered(reps, led, led, False, NO_CARDS, NO_CARDS, NO_CARDS, NO_CARDS, (EFF,
                          STRENGTH, POINTS), out, scores)



# --- entry points (the searches allocate nothing: no reference counting) --------------------

@numba.njit(**JIT_NRT)
def new_workspace(tt_bits=TT_BITS):
    """A solver's workspace for the duel's states."""
    return solver.workspace(LENGTH, tt_bits)


@numba.njit(**JIT)
def bound(state, q, target, ws):
    """The question's null-window search at ``target`` (``solver.probe``)."""
    return solver.probe(state, target, q, ws, step, tally, key, next_key, moves, bounds)


@numba.njit(**JIT)
def count(state, q, ws):
    """The count under best play."""
    return solver.exact(state, state, q, ws, tally, bound)



@numba.njit(**JIT_NRT)
def counts_after(state, q, ws, out):
    """The count under best play after each legal card (``out[card]``); the legal cards."""
    return solver.root_counts(state, q, ws, out, legal, step, moves, count)


# --- the solving players (``sim.search.pimc``) -------------------------------------------------

VP_STEPS = pimc.doko_steps(BAND_VP)
"""What each of ``pimc.doko_bands``' thresholds adds to player 0's VP (RULES.md: the loser's
10, 5, 3, 2 or 1 VP by his card points, 0 at the 120 : 120 draw, the winner's 1, 2, 3, 5 or
10: the seed's ``BAND_VP``, the ``vp_band_*`` defaults, since scoring-only options change no
play); the markers are no part of a solved count."""


@numba.njit(inline="always", **JIT)
def bands(state, q, thresholds, weights):
    """The VP bands of player 0's card points (``VP_STEPS``)."""
    return pimc.doko_bands(q, thresholds, weights, VP_STEPS)


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
    worlds searched world by world (their positions fill the table)."""
    return pimc.pimc(obs, rng, worlds, pimc.WORLD_BY_WORLD, prefer, ws, LENGTH, world, legal, decide)


@numba.njit(**JIT_NRT)
def dd_card(state, prefer, ws):
    """The ``dd`` player's card: the deal itself solved (it sees every card)."""
    return pimc.dd(state, prefer, ws, legal, decide)


@numba.njit(**JIT_NRT)
def outcome_line(state, q):
    """``pimc.outcome_line`` of the game's ``tally`` and ``bands``."""
    return pimc.outcome_line(state, q, tally, bands)


__all__ = ["TRICKS", "bound", "card_row", "count", "counts_after", "dd_card", "decide", "new_workspace",
           "outcome_line", "pimc_card", "question"]

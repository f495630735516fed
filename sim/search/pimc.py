"""Choosing a card with the double-dummy solver, written once for every game: the ``pimc`` player
(perfect-information Monte Carlo: sample the worlds the seat cannot tell apart, solve each,
take the card with the best mean) and the ``dd`` player (solve the deal itself: it sees every
card).

A card is worth, in a solved world, what the game's scoring gives the mover's side for the
count the solver proves after it: each game names the thresholds of its count where the
score changes and by how much (``bands(state, q, thresholds, weights)`` returns their number
and the index of the win threshold, where the search for a card's band starts). The
utility of a count is the sum of the weights of the thresholds it reaches, for the
question's maximizers; the other side's is its negative. So the player weighs what the
scoring weighs (a Skat declarer's 61 far above his 90) instead of card points alone. Each
threshold is at most one null-window search (``bound``), and the searches of one world share its
transposition table.

The game's functions are passed in and these are inlined into each game's compiled entry
points (``sim.search.solve_*``), as the solver is.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from sim.cards import lsb, popcount
from sim.games.cardplay import HEADER
from sim.search.solver import MAX_MOVES, Q_LENGTH, Q_MAXIMIZERS, Q_SUM, clear, shared

INLINE_NRT: Any = {"cache": True, "inline": "always", "_nrt": True}
MAX_BANDS = 16
"""The most thresholds a game's ``bands`` may name."""
DOKO_LOSER = (1, 30, 60, 90)
"""The loser's card points where a Doppelkopf game's score changes (some points, 30, 60,
90); the winner's side mirrors them from the sum in play (``doko_bands``)."""


def doko_steps(band_scores: tuple[int, ...]) -> tuple[int, ...]:
    """The ten weights of ``doko_bands`` from what a winner scores by the loser's band
    (``band_scores``: the loser at 90 or more, 60-89, 30-59, under 30, none), a tie scoring 0:
    how much the mover's score rises at each threshold, from the score at 0 points (minus the
    last band) up to the score with every point (plus it).

    >>> doko_steps((1, 2, 3, 5, 10))
    (5, 2, 1, 1, 1, 1, 1, 1, 2, 5)
    """
    ladder = [-v for v in reversed(band_scores)] + [0] + list(band_scores)
    return tuple(int(b - a) for a, b in zip(ladder, ladder[1:]))


@numba.njit(cache=True, inline="always")
def doko_bands(q, thresholds, weights, steps):
    """The bands of the two Doppelkopf games over the count ``q`` asks (one side's card
    points of ``q[Q_SUM]``): the loser's points 1, 30, 60, 90, the tie (half the sum), the
    win (one more), then the winner's side with the loser under 90, 60, 30, at 0. ``steps``
    (ten weights) says what each threshold adds to the score. Returns the count and the win
    threshold's index."""
    total = q[Q_SUM]
    half = total // 2
    at = (1, 30, 60, 90, half, half + 1, total - 89, total - 59, total - 29, total)
    for k in range(10):
        thresholds[k] = at[k]
        weights[k] = steps[k]
    return 10, 5


@numba.njit(cache=True, inline="always")
def band_utility(state, q, ws, thresholds, weights, n, pivot, bound):
    """The maximizers' utility at ``state``: the weights of the (ascending) thresholds they
    can make the count reach, searched from the win threshold up or down. Each search's
    bound (``bound``, fail-soft) settles every threshold it passes, so those are not
    searched."""
    k = pivot
    value = bound(state, q, thresholds[k], ws)
    if value >= thresholds[k]:
        while True:
            while k < n and thresholds[k] <= value:
                k += 1
            if k == n:
                break
            value = bound(state, q, thresholds[k], ws)
            if value < thresholds[k]:
                break
    else:
        while True:
            while k >= 0 and thresholds[k] > value:
                k -= 1
            if k < 0:
                break
            value = bound(state, q, thresholds[k], ws)
            if value >= thresholds[k]:
                break
        k += 1
    total = 0
    for j in range(k):
        total += weights[j]
    return total


@numba.njit(**INLINE_NRT)
def card_utilities(state, q, ws, thresholds, weights, n, pivot, out, legal, step, moves,
                   bound):
    """``out[card]``: the utility for the mover's side after each legal card (cards the
    game's ``moves`` takes as equivalent share one search); returns the legal cards."""
    rep = np.full(64, -1, np.int64)
    listed = np.empty(MAX_MOVES, np.int64)
    count = moves(state, q, listed, rep, np.empty(MAX_MOVES, np.int64))
    sign = 1 if (q[Q_MAXIMIZERS] >> state[HEADER.TO_MOVE]) & 1 else -1
    child = np.empty_like(state)
    for k in range(count):
        child[:] = state
        step(child, listed[k])
        out[listed[k]] = sign * band_utility(child, q, ws, thresholds, weights, n, pivot, bound)
    return shared(np.uint64(legal(state)), rep, out)


@numba.njit(cache=True, inline="always")
def best_card(mask, totals, prefer):
    """The card of ``mask`` with the highest total; a tie goes to ``prefer`` (the heuristic's
    card) if it is among the best, else to the lowest card."""
    best = -1
    m = mask
    while m:
        card = lsb(m)
        m &= m - np.uint64(1)
        if best < 0 or totals[card] > totals[best]:
            best = card
    if (mask >> np.uint64(prefer)) & np.uint64(1) and totals[prefer] == totals[best]:
        return prefer
    return best


@numba.njit(**INLINE_NRT)
def solved_totals(state, ws, totals, prepare, question, bands, legal, step, moves, bound):
    """Add one world's card utilities (``state``, every card known) to ``totals``; the legal
    cards."""
    q = np.zeros(Q_LENGTH, np.int64)
    thresholds = np.zeros(MAX_BANDS, np.int64)
    weights = np.zeros(MAX_BANDS, np.int64)
    out = np.zeros(64, np.int64)
    prepare(state)
    question(state, q)
    n, pivot = bands(state, q, thresholds, weights)
    clear(ws)
    mask = card_utilities(state, q, ws, thresholds, weights, n, pivot, out, legal, step, moves,
                          bound)
    m = mask
    while m:
        card = lsb(m)
        m &= m - np.uint64(1)
        totals[card] += out[card]
    return mask


@numba.njit(**INLINE_NRT)
def pimc(obs, rng, worlds, prefer, ws, length, world, prepare, question, bands, legal, step,
         moves, bound):
    """The ``pimc`` player's card from the seat's observation ``obs`` alone: ``worlds``
    worlds dealt by the game's ``world(obs, rng, state)`` (uniform among the deals the
    observation allows, ``sim.search.worlds``), each solved; the card with the best total
    utility (``prefer``, the heuristic's card, wins a tie)."""
    state = np.empty(length, np.int64)
    totals = np.zeros(64, np.int64)
    world(obs, rng, state)
    mask = np.uint64(legal(state))
    if popcount(mask) <= 1:
        return lsb(mask) if mask else prefer
    for k in range(worlds):
        if k:
            world(obs, rng, state)
        solved_totals(state, ws, totals, prepare, question, bands, legal, step, moves, bound)
    return best_card(mask, totals, prefer)


@numba.njit(**INLINE_NRT)
def dd(state, prefer, ws, prepare, question, bands, legal, step, moves, bound):
    """The ``dd`` player's card: the deal itself solved (``state``, every card known), the
    best card under the scoring's bands (``prefer`` wins a tie)."""
    world = state.copy()
    totals = np.zeros(64, np.int64)
    mask = np.uint64(legal(world))
    if popcount(mask) <= 1:
        return lsb(mask) if mask else prefer
    solved_totals(world, ws, totals, prepare, question, bands, legal, step, moves, bound)
    return best_card(mask, totals, prefer)

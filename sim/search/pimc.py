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
threshold is at most one null-window search (``bound``).

A card is searched only as far as the choice needs (``decide``): its utility in a world is
known as an interval from the searches made so far, and searching stops once one card's
lowest possible total is at least every other card's highest. The card is the one the full
totals would give, for fewer searches: a sixth fewer seconds over recorded pimc Skat deals,
where a card that falls behind in a few worlds is searched no further. Which search comes
next is a bet on its outcome: only the leader's total rising or the challenger's falling
brings the end nearer, so each search (a card, a world, any threshold still open) is
weighed by how much it would move that total and by the chance that it does, read from how
the world's other cards fared at the same threshold (``chance_up``). On 171 recorded Skat
decisions of the first three tricks of the bench's deals: 96.0 M nodes with the widest
interval first at its next threshold, 84.6 M with the best bet at that threshold, 73.0 M
with the best bet at any (the same cards chosen).

The game's functions are passed in and these are inlined into each game's compiled ``decide``
(``sim.search.solve_*``), which both players call, as the solver is into its ``bound``; the
race's step (``next_search``) knows no game and is compiled once for all of them.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from sim.cards import lsb, popcount
from sim.engine.cardplay import HEADER
from sim.search.solver import (
    GENERATION,
    MAX_MOVES,
    Q_LENGTH,
    Q_MAXIMIZERS,
    Q_SUM,
    UNKNOWN_HIGH,
    W_STATS,
    clear,
)

INLINE_NRT: Any = {"cache": True, "inline": "always", "_nrt": True}
MAX_BANDS = 16
"""The most thresholds a game's ``bands`` may name."""
BEST_BET, WIDEST_FIRST, WORLD_BY_WORLD = 0, 1, 2
"""The order in which ``decide`` searches its worlds (a game's choice, measured): in any
world, the search likeliest to end the race soonest (the Skat family: a quarter fewer nodes
than the widest interval first), or the widest interval (Doko-Skat: the best bet was slower
on its recorded decisions), or world by world (the duel, whose worlds' positions do not fit
in the table together)."""
PRIOR_WORLDS = 2.0
"""How many children of its own world the share over all worlds counts as (``chance_up``);
1, 2 and 4 measured, within 2 % of each other's nodes."""
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
def win_line(state, q, bands):
    """The count at which question ``q``'s side wins in ``state``: the win threshold of the
    game's ``bands`` (a Skat declarer's 61, a Doppelkopf side's half the points and one, a
    null declarer's first trick)."""
    thresholds = np.zeros(MAX_BANDS, np.int64)
    weights = np.zeros(MAX_BANDS, np.int64)
    return thresholds[bands(state, q, thresholds, weights)[1]]


@numba.njit(cache=True, inline="always")
def outcome_line(state, q, tally, bands):
    """``(count, open, win)``: question ``q``'s count so far in the card-play ``state`` and
    the most still to come (``tally``, read from that state), and the count at which its side
    wins (``win_line``): how ``sim.quality`` reads a deal's course trick by trick."""
    count, open_ = tally(state, q)
    return count, open_, win_line(state, q, bands)


@numba.njit(cache=True, inline="always")
def utility(count, thresholds, weights, n):
    """The maximizers' utility of ``count``: the weights of the thresholds it reaches."""
    total = 0
    for k in range(n):
        if count >= thresholds[k]:
            total += weights[k]
    return total


@numba.njit(cache=True, inline="always")
def next_target(low, high, thresholds, n, pivot):
    """The index of the threshold to search next for a count known to lie in ``low .. high``:
    the win threshold while undecided, else the undecided one farthest from it on the count's
    side (a search far from the count is cheap, and its fail-soft bound may settle the
    thresholds between; nearest first measured the same); -1 when every threshold is
    decided."""
    if low < thresholds[pivot] <= high:
        return pivot
    if low >= thresholds[pivot]:
        for k in range(n - 1, pivot, -1):
            if low < thresholds[k] <= high:
                return k
    else:
        for k in range(pivot):
            if low < thresholds[k] <= high:
                return k
    return -1


@numba.njit(cache=True, inline="always")
def reached(low, high, target):
    """``(1, 1)`` if a count known to lie in ``low .. high`` reaches ``target``, ``(0, 1)`` if
    it does not, ``(0, 0)`` if that is not known yet."""
    if low >= target:
        return 1, 1
    if high < target:
        return 0, 1
    return 0, 0


@numba.njit(cache=True, inline="always")
def chance_up(up, known, band_up, band_known):
    """The estimated chance that a search at a threshold finds the count reaching it: the
    share of its world's children known to reach it (``up`` of ``known``), drawn toward the
    share over every world's children at the same band (``band_up`` of ``band_known``) with
    the weight of ``PRIOR_WORLDS`` children. The cards of one world tend to fare alike there
    (the hidden cards lie the same for each)."""
    prior = (band_up + 1.0) / (band_known + 2.0)
    return (up + PRIOR_WORLDS * prior) / (known + PRIOR_WORLDS)


@numba.njit(cache=True, inline="always")
def band_shares(low, high, thresholds, n_bands, children, count, up, known, band_up,
                band_known):
    """For each world ``w`` and band index ``b``, how many of the world's children are known
    to reach the band's threshold (``up[w, b]``) and how many are known either way
    (``known[w, b]``); ``band_up`` and ``band_known``, the same over all ``count`` worlds."""
    band_up[:] = 0
    band_known[:] = 0
    for w in range(count):
        for b in range(n_bands[w]):
            up[w, b] = 0
            known[w, b] = 0
            for k in range(children[w]):
                u, n = reached(low[w, k], high[w, k], thresholds[w, b])
                up[w, b] += u
                known[w, b] += n
            band_up[b] += up[w, b]
            band_known[b] += known[w, b]


@numba.njit(cache=True, inline="always")
def wins_tie(card, other, prefer):
    """Whether ``card`` is chosen over ``other`` at an equal total: the heuristic's card
    (``prefer``) first, else the lower card (as ``best_card`` scans)."""
    return card == prefer or (other != prefer and card < other)


@numba.njit(cache=True, inline="always")
def best_card(mask, totals, prefer):
    """The card of ``mask`` with the highest total; a tie goes to ``prefer`` (the heuristic's
    card) if it is among the best, else to the lowest card."""
    best = -1
    m = mask
    while m:
        card = lsb(m)
        m &= m - np.uint64(1)
        if best < 0 or totals[card] > totals[best] or (
                totals[card] == totals[best] and wins_tie(card, best, prefer)):
            best = card
    return best


@numba.njit(**INLINE_NRT)
def decide(states, count, order, prefer, ws, prepare, question, bands, legal, step,
           moves, bound):
    """The card with the best total utility over the worlds ``states[:count]`` (every card
    known in each; ``prefer``, the heuristic's card, wins a tie), all searched in the
    workspace ``ws``, whose table holds each world's positions under a generation of its own.

    A card's utility in a world is known as an interval, from the null-window searches
    (``bound``, fail-soft) made after it so far (``next_target`` picks the threshold), and so
    is its total over the worlds. The card with the best lower total leads; while another
    card's upper total could still beat it, one more search narrows an interval of the leader
    or of the challenger with the best upper total, in any world, as the game's ``order``
    says: ``BEST_BET``, the search at any of its open thresholds likeliest to close the gap
    most (the leader's total rising or the challenger's falling, times its chance,
    ``chance_up``; the wider interval on a tie); ``WIDEST_FIRST``, the widest interval, at
    the threshold ``next_target`` picks. ``WORLD_BY_WORLD``: the widest
    interval of any card still in the race in the first world that has one: the duel's
    searches fill the table, so its worlds are searched one after another, each while its
    positions are still there (in any order, a world's positions are lost to the others).
    Either way the card returned is the one the full totals choose."""
    length = states.shape[1]
    mask = np.uint64(legal(states[0]))
    cards = np.empty(64, np.int64)
    n_cards = 0
    m = mask
    while m:
        cards[n_cards] = lsb(m)
        m &= m - np.uint64(1)
        n_cards += 1
    q = np.zeros((count, Q_LENGTH), np.int64)
    thresholds = np.zeros((count, MAX_BANDS), np.int64)
    weights = np.zeros((count, MAX_BANDS), np.int64)
    n_bands = np.zeros(count, np.int64)
    pivot = np.zeros(count, np.int64)
    sign = np.zeros(count, np.int64)
    generation = np.zeros(count, np.int64)
    children = np.empty((count, n_cards, length), np.int64)
    slot = np.zeros((count, 64), np.int64)  # a card's child: the one searched in its stead
    low = np.full((count, n_cards), -1, np.int64)  # what each child's count is known to lie in
    high = np.full((count, n_cards), UNKNOWN_HIGH, np.int64)
    n_children = np.zeros(count, np.int64)  # each world's cards searched
    world_up = np.zeros((count, MAX_BANDS), np.int64)  # the bets' counts (``band_shares``)
    world_known = np.zeros((count, MAX_BANDS), np.int64)
    band_up = np.zeros(MAX_BANDS, np.int64)
    band_known = np.zeros(MAX_BANDS, np.int64)
    rep = np.full(64, -1, np.int64)
    child_of = np.full(64, -1, np.int64)
    listed = np.empty(MAX_MOVES, np.int64)
    scratch = np.empty(MAX_MOVES, np.int64)
    for w in range(count):
        state = states[w]
        prepare(state)
        question(state, q[w])
        n_bands[w], pivot[w] = bands(state, q[w], thresholds[w], weights[w])
        sign[w] = 1 if (q[w, Q_MAXIMIZERS] >> state[HEADER.TO_MOVE]) & 1 else -1
        clear(ws)
        generation[w] = ws[W_STATS][GENERATION]
        listed_n = moves(state, q[w], listed, rep, scratch)
        n_children[w] = listed_n
        for k in range(listed_n):
            children[w, k] = state
            step(children[w, k], listed[k])
            child_of[listed[k]] = k
        for i in range(n_cards):
            slot[w, cards[i]] = child_of[rep[cards[i]]]
    lows = np.zeros(64, np.int64)
    highs = np.zeros(64, np.int64)
    while True:
        leader, at, target = next_search(order, mask, cards, n_cards, prefer, count, slot, low,
                                         high, thresholds, weights, n_bands, pivot, sign,
                                         n_children, world_up, world_known, band_up, band_known,
                                         lows, highs)
        if at < 0:
            ws[W_STATS][GENERATION] = generation[count - 1]  # the newest: the next clear is new
            return leader
        w, k = at // 64, at % 64
        ws[W_STATS][GENERATION] = generation[w]
        value = bound(children[w, k], q[w], target, ws)
        if value >= target:
            low[w, k] = max(low[w, k], value)
        else:
            high[w, k] = min(high[w, k], value)


@numba.njit(cache=True)
def next_search(order, mask, cards, n_cards, prefer, count, slot, low, high, thresholds, weights,
                n_bands, pivot, sign, n_children, world_up, world_known, band_up, band_known, lows,
                highs):
    """One step of ``decide``'s race: ``(leader, at, target)``, the card with the best lower
    total and the search to make next (the child ``at % 64`` of the world ``at // 64``, at
    ``target``), or ``at`` -1 when no other card can beat the leader any more. ``lows`` and
    ``highs`` are scratch for the cards' totals.

    It knows no game, so it is compiled once for all of them instead of inlined into each
    game's ``decide``: inlined, its bets had taken over a minute of each solver module's
    compile (in the Skat family the ``pimc`` card's 101.5 s against ``dd``'s 25.6 s, whose
    race has no bets), for one call a search.

    It is the one function of the project with more than 12 parameters
    (``tests/test_layers.py`` holds the rest to 12): the race's state, array by array, in the
    compiled search's hot loop, where each is read in place."""
    for i in range(n_cards):
        c = cards[i]
        lows[c] = 0
        highs[c] = 0
        for w in range(count):
            k = slot[w, c]
            a = utility(low[w, k], thresholds[w], weights[w], n_bands[w])
            b = utility(high[w, k], thresholds[w], weights[w], n_bands[w])
            lows[c] += a if sign[w] > 0 else -b
            highs[c] += b if sign[w] > 0 else -a
    leader = best_card(mask, lows, prefer)
    challenger = -1
    open_cards = np.uint64(0)  # the leader and every card that could still beat it
    for i in range(n_cards):
        c = cards[i]
        if c != leader and (highs[c] < lows[leader] or (
                highs[c] == lows[leader] and wins_tie(leader, c, prefer))):
            continue
        open_cards |= np.uint64(1) << np.uint64(c)
        if c != leader and (challenger < 0 or highs[c] > highs[challenger]):
            challenger = c
    if challenger < 0:
        return leader, -1, 0
    if order != WORLD_BY_WORLD:
        open_cards = np.uint64(1) << np.uint64(leader) | np.uint64(1) << np.uint64(challenger)
    if order == BEST_BET:
        band_shares(low, high, thresholds, n_bands, n_children, count, world_up, world_known,
                    band_up, band_known)
    best, widest, at, target = -1.0, -1, -1, -1
    for w in range(count):
        m = open_cards
        while m:
            c = lsb(m)
            m &= m - np.uint64(1)
            k = slot[w, c]
            lo, hi = low[w, k], high[w, k]
            below = utility(lo, thresholds[w], weights[w], n_bands[w])
            above = utility(hi, thresholds[w], weights[w], n_bands[w])
            if order != BEST_BET:
                b = next_target(lo, hi, thresholds[w], n_bands[w], pivot[w])
                if b >= 0 and above - below > widest:
                    best, widest, at, target = 0.0, above - below, w * 64 + k, thresholds[w, b]
                continue
            rising = (sign[w] > 0) == (c == leader)  # its count reaching a target helps
            for b in range(n_bands[w]):  # every threshold still open: the best bet
                t = thresholds[w, b]
                if not lo < t <= hi:
                    continue
                up = chance_up(world_up[w, b], world_known[w, b], band_up[b], band_known[b])
                if rising:  # the leader's low total rises by what reaching t adds
                    gain = (utility(t, thresholds[w], weights[w], n_bands[w]) - below) * up
                else:  # the challenger's high total falls by what falling short takes
                    gain = (above - utility(t - 1, thresholds[w], weights[w], n_bands[w])) * (1.0 - up)
                if gain > best or (gain == best and above - below > widest):
                    best, widest, at, target = gain, above - below, w * 64 + k, t
        if order == WORLD_BY_WORLD and widest >= 0:
            break
    return leader, at, target


@numba.njit(**INLINE_NRT)
def pimc(obs, rng, worlds, order, prefer, ws, length, world, legal, decide_card):
    """The ``pimc`` player's card from the seat's observation ``obs`` alone: ``worlds``
    worlds dealt by the game's ``world(obs, rng, state)`` (uniform among the deals the
    observation allows, ``sim.search.worlds``), each solved (the game's compiled ``decide``,
    ``decide_card(states, count, order, prefer, ws)``: the card with the best total utility;
    ``prefer``, the heuristic's card, wins a tie)."""
    states = np.empty((worlds, length), np.int64)
    world(obs, rng, states[0])
    mask = np.uint64(legal(states[0]))
    if popcount(mask) <= 1:
        return lsb(mask) if mask else prefer
    for k in range(1, worlds):
        world(obs, rng, states[k])
    return decide_card(states, worlds, order, prefer, ws)


@numba.njit(**INLINE_NRT)
def totals(states, count, ws, prepare, question, bands, legal, step, moves, bound):
    """The legal cards of the worlds ``states[:count]`` and each card's mean utility over
    them for the mover's side, every threshold of every card searched (where ``decide``
    stops once the best card is sure): the values of *every* card, which a learned player is
    taught from (``sim.learn``, teacher ``pimc:N``). The best of them is ``decide``'s card.
    The game's functions as for ``decide``; worlds are searched one after another."""
    length = states.shape[1]
    mask = np.uint64(legal(states[0]))
    n = popcount(mask)
    cards = np.empty(n, np.int64)
    m = mask
    for i in range(n):
        cards[i] = lsb(m)
        m &= m - np.uint64(1)
    means = np.zeros(n)
    q = np.zeros(Q_LENGTH, np.int64)
    thresholds = np.zeros(MAX_BANDS, np.int64)
    weights = np.zeros(MAX_BANDS, np.int64)
    rep = np.full(64, -1, np.int64)
    listed = np.empty(MAX_MOVES, np.int64)
    scratch = np.empty(MAX_MOVES, np.int64)
    child = np.empty(length, np.int64)
    worth = np.zeros(64, np.int64)  # each move's utility for the mover in this world
    for w in range(count):
        state = states[w]
        prepare(state)
        question(state, q)
        n_bands, pivot = bands(state, q, thresholds, weights)
        sign = 1 if (q[Q_MAXIMIZERS] >> state[HEADER.TO_MOVE]) & 1 else -1
        clear(ws)
        for k in range(moves(state, q, listed, rep, scratch)):
            child[:] = state
            step(child, listed[k])
            low, high = np.int64(-1), np.int64(UNKNOWN_HIGH)
            b = next_target(low, high, thresholds, n_bands, pivot)
            while b >= 0:
                target = thresholds[b]
                value = bound(child, q, target, ws)
                if value >= target:
                    low = max(low, value)
                else:
                    high = min(high, value)
                b = next_target(low, high, thresholds, n_bands, pivot)
            worth[listed[k]] = sign * utility(low, thresholds, weights, n_bands)
        for i in range(n):
            means[i] += worth[rep[cards[i]]]
    return cards, means / count


@numba.njit(**INLINE_NRT)
def values(obs, rng, worlds, ws, length, world, card_totals):
    """The legal cards at a card-play decision and each one's mean utility for the mover's
    side over ``worlds`` worlds dealt from the seat's observation ``obs`` alone, as ``pimc``
    deals them (``card_totals(states, count, ws)``: the game's ``totals``)."""
    states = np.empty((worlds, length), np.int64)
    for k in range(worlds):
        world(obs, rng, states[k])
    return card_totals(states, worlds, ws)


@numba.njit(**INLINE_NRT)
def dd(state, prefer, ws, legal, decide_card):
    """The ``dd`` player's card: the deal itself solved (``state``, every card known), the
    best card under the scoring's bands (``prefer`` wins a tie; ``decide_card`` as for
    ``pimc``)."""
    mask = np.uint64(legal(state))
    if popcount(mask) <= 1:
        return lsb(mask) if mask else prefer
    states = np.empty((1, state.shape[0]), np.int64)
    states[0] = state
    # typed as pimc's arguments (``int64``, not literals), so that one compiled ``decide``
    # serves both players
    return decide_card(states, states.shape[0], np.int64(WIDEST_FIRST), prefer, ws)

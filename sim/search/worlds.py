"""Dealing the cards a seat cannot see: one uniformly random world consistent with what it
knows, for every game.

A seat's knowledge comes down to a set of unknown cards and the places they may lie in
(the others' hands, a skat, a blind, face-down pyramid cards, stocks), each place holding a
known number of them (``counts``) and allowed only some of them (``allowed``: a hand that
failed to follow a suit holds none of that suit). ``deal_world`` deals the unknown cards
so that every consistent deal is equally likely: the posterior of a shuffled deck given
those facts. Each game's search module (``sim.search.*``) turns an observation into these
arguments and the dealt places back into a card-play state.

It first deals the cards at random and keeps the deal if every card is allowed where it
fell (exact rejection sampling: cheap while few voids are known); after ``TRIES`` misses it
samples exactly by counting: cards are grouped by the set of places that allow them, and
the number of consistent deals of each split of a group among its places (a multinomial
times the ways to deal the rest) decides the split.

>>> import numpy as np
>>> rng = np.array([7], np.uint64)
>>> out = np.zeros(2, np.uint64)
>>> ok = deal_world(np.uint64(0b1111), np.array([1, 3]), np.array([0b0011, 0b1111], np.uint64),
...                 rng, out)
>>> bool(ok), int(out[0]) in (1, 2), int(out[0] | out[1])
(True, True, 15)
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import lsb, popcount
from sim.rng import below, uniform

TRIES = 16
"""Plain random deals tried before counting."""


@numba.njit(cache=True)
def deal_world(unknown, counts, allowed, rng, out):
    """Deal the cards of the mask ``unknown`` to the places: place ``p`` gets ``counts[p]``
    of them, each one of ``allowed[p]``; every consistent deal equally likely. ``out[p]``
    receives place ``p``'s cards; ``rng`` is the caller's stream. Returns False (``out``
    unchanged) when no deal fits, which a real observation never gives."""
    n = popcount(unknown)
    places = counts.shape[0]
    total = 0
    for p in range(places):
        total += counts[p]
    if total != n:
        return False
    cards = np.empty(n, np.int64)
    m = np.uint64(unknown)
    for i in range(n):
        cards[i] = lsb(m)
        m &= m - np.uint64(1)
    for _ in range(TRIES):
        if _deal_at_random(cards, counts, allowed, rng, out):
            return True
    return _deal_by_counting(cards, counts, allowed, rng, out)


@numba.njit(cache=True, inline="always")
def _shuffle_cards(cards, rng):
    """Fisher-Yates over ``cards`` in place."""
    for i in range(cards.shape[0] - 1, 0, -1):
        j = below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@numba.njit(cache=True, inline="always")
def _mask(cards, at, count):
    """The mask of the ``count`` cards ``cards[at:at + count]``."""
    got = np.uint64(0)
    for k in range(count):
        got |= np.uint64(1) << np.uint64(cards[at + k])
    return got


@numba.njit(cache=True)
def _deal_at_random(cards, counts, allowed, rng, out):
    """Shuffle and deal ``cards`` in blocks of ``counts``; True if every card is allowed
    where it fell (then ``out`` holds the deal)."""
    _shuffle_cards(cards, rng)
    at = 0
    for p in range(counts.shape[0]):
        if _mask(cards, at, counts[p]) & ~np.uint64(allowed[p]):
            return False
        at += counts[p]
    at = 0
    for p in range(counts.shape[0]):
        out[p] = _mask(cards, at, counts[p])
        at += counts[p]
    return True


@numba.njit(cache=True)
def _deal_by_counting(cards, counts, allowed, rng, out):
    """The exact sampler: group the cards by the places that allow them, count the
    consistent deals from each group on (``_ways``), and split each group among its places
    with probability proportional to the deals each split leaves."""
    places = counts.shape[0]
    n = cards.shape[0]
    kind = np.zeros(n, np.int64)  # each card's set of places (a mask over places)
    for i in range(n):
        b = np.uint64(1) << np.uint64(cards[i])
        for p in range(places):
            if np.uint64(allowed[p]) & b:
                kind[i] |= 1 << p
        if kind[i] == 0:
            return False
    kinds = np.zeros(1 << places, np.int64)  # cards of each kind
    for i in range(n):
        kinds[kind[i]] += 1
    groups = np.empty(1 << places, np.int64)  # the kinds that occur, in order
    m = 0
    for t in range(1, 1 << places):
        if kinds[t]:
            groups[m] = t
            m += 1
    radix = np.empty(places, np.int64)
    size = 1
    for p in range(places):
        radix[p] = size
        size *= counts[p] + 1
    ways = _ways(groups[:m], kinds, counts, radix, size)
    left = counts.copy()
    if ways[0, _index(left, radix)] <= 0.0:
        return False
    split = np.zeros(places, np.int64)
    for p in range(places):
        out[p] = 0
    for j in range(m):
        t = groups[j]
        _choose_split(t, kinds[t], left, radix, ways[j + 1], rng, split)
        mine = np.empty(kinds[t], np.int64)
        k = 0
        for i in range(n):
            if kind[i] == t:
                mine[k] = cards[i]
                k += 1
        _shuffle_cards(mine, rng)
        at = 0
        for p in range(places):
            out[p] |= _mask(mine, at, split[p])
            at += split[p]
            left[p] -= split[p]
    return True


@numba.njit(cache=True, inline="always")
def _index(left, radix):
    i = 0
    for p in range(left.shape[0]):
        i += left[p] * radix[p]
    return i


@numba.njit(cache=True)
def _log_factorials(n):
    out = np.zeros(n + 1)
    for i in range(2, n + 1):
        out[i] = out[i - 1] + np.log(i)
    return out


@numba.njit(cache=True, inline="always")
def _split_weight(c, split, r, radix, logf, ways_after):
    """A split's weight: its multinomial (the ways to choose which of the ``c`` alike cards
    go where) times the deals it leaves the rest (``ways_after`` at the room ``r`` less the
    split)."""
    rest = r
    w = logf[c]
    for p in range(split.shape[0]):
        rest -= split[p] * radix[p]
        w -= logf[split[p]]
    return np.exp(w) * ways_after[rest]


@numba.njit(cache=True)
def _ways(groups, kinds, counts, radix, size):
    """``ways[j, r]``: the number of deals of groups ``j ..`` into the room left ``r`` (a
    vector of places' counts, mixed-radix indexed), every place filled exactly."""
    m = groups.shape[0]
    places = counts.shape[0]
    ways = np.zeros((m + 1, size))
    ways[m, 0] = 1.0
    left = np.zeros(places, np.int64)
    split = np.zeros(places, np.int64)
    logf = _log_factorials(64)
    for j in range(m - 1, -1, -1):
        t = groups[j]
        c = kinds[t]
        for r in range(size):
            for p in range(places):
                left[p] = (r // radix[p]) % (counts[p] + 1)
            total = 0.0
            split[:] = 0
            while _next_split(t, c, left, split):
                total += _split_weight(c, split, r, radix, logf, ways[j + 1])
            ways[j, r] = total
    return ways


@numba.njit(cache=True)
def _next_split(t, c, left, split):
    """Step ``split`` to the next way of putting ``c`` cards into the places of the mask
    ``t``, at most ``left[p]`` in place ``p``; a split of all zeros starts the count. False
    when there is none left. The last place of ``t`` takes what the others leave."""
    places = left.shape[0]
    last = -1
    for p in range(places):
        if t >> p & 1:
            last = p
    first_call = True
    for p in range(places):
        if split[p]:
            first_call = False
    while True:
        if first_call:
            first_call = False
        else:
            # odometer over the places of t before the last
            p = 0
            while p < last:
                if t >> p & 1:
                    if split[p] < min(left[p], c):
                        split[p] += 1
                        break
                    split[p] = 0
                p += 1
            if p >= last:
                return False
        rest = c
        for p in range(last):
            rest -= split[p]
        if 0 <= rest <= left[last]:
            split[last] = rest
            return True
        split[last] = 0


@numba.njit(cache=True)
def _choose_split(t, c, left, radix, ways_after, rng, split):
    """Draw a split of the ``c`` cards of kind ``t`` with probability proportional to its
    multinomial times the deals it leaves (``ways_after``); into ``split``."""
    places = left.shape[0]
    logf = _log_factorials(64)
    r = _index(left, radix)
    weights = 0.0
    split[:] = 0
    while _next_split(t, c, left, split):
        weights += _split_weight(c, split, r, radix, logf, ways_after)
    u = uniform(rng) * weights
    split[:] = 0
    chosen = np.zeros(places, np.int64)
    while _next_split(t, c, left, split):
        x = _split_weight(c, split, r, radix, logf, ways_after)
        if x > 0.0:
            chosen[:] = split
            u -= x
            if u < 0.0:
                break
    split[:] = chosen

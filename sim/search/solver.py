"""The double-dummy solver, written once for every game: the card play solved with every
card known, by null-window searches over the game's card-play state.

A *question* is ``q`` (``int64`` array, ``Q_*`` offsets): the places whose players maximize
(``Q_MAXIMIZERS``, a mask over places), the places whose takings are counted
(``Q_COUNTED``), what is counted (``Q_KIND``: ``POINTS`` card points or ``TRICKS``), the sum
of both sides' counts (``Q_SUM``) and constants of the game's own (``Q_GAME`` on). Usually
both masks are one side and the count its card points; a null game counts the declarer's
tricks with the defenders maximizing; a ramsch counts one player's points with the two
others maximizing them (each plays for himself, so the search takes the two as a side: the
"paranoid" reading).

``reach(root, target, ...)`` answers "can the maximizers make the count at least
``target``?" by an AND/OR search (Kupferschmid & Helmert 2006): a node is decided as soon
as the count reaches the target or cannot any more (the quick bounds); positions at a
trick's start are kept in a transposition table keyed by the cards left and the leader,
with the bounds on what the remaining tricks add that every search so far proved; the
moves come from the game, cards equivalent among the remaining ones searched once and the
likely best first. ``exact`` finds the count under best play by bisection over targets;
its searches share the table, so the later ones are cheap. The search is iterative (a stack of
states, one a ply), so that it can be inlined into each game's compiled entry points
(``sim.search.solve_*``) with the game's functions:

* ``finished(state)``, ``step(state, action)``: the game's card play;
* ``tally(state, q)``: ``(count, open)``: the count so far and the most the rest can add;
* ``key(state)``: at a trick's start, the position's key (nonzero), else 0;
* ``moves(state, q, out, rep, scores)``: the moves to search, best first, into ``out``;
  their number. ``rep[card]`` receives, for each legal card, the one searched in its stead;
  ``scores`` is scratch.

The table is bounded: ``TT_BITS`` bits of index, one entry a slot, the newer position
replacing the older (``workspace``: 16 bytes a slot, 4 MiB at the default ``TT_BITS``).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from sim.cards import lsb
from sim.games.cardplay import HEADER
from sim.rng import mix64
from sim.tricks import beats

POINTS, TRICKS = 0, 1
"""``Q_KIND``: what the question counts."""
Q_MAXIMIZERS, Q_COUNTED, Q_KIND, Q_SUM, Q_GAME = 0, 1, 2, 3, 4
"""Offsets into a question ``q``; ``Q_SUM``: what both sides' counts add up to at the end
(the other side's count is ``q[Q_SUM]`` less this one's; 0 for a question of tricks); the
game's constants start at ``Q_GAME``."""
Q_LENGTH = 8
DEPTH = 64
"""Plies a search may go down (every game's card play has fewer actions)."""
MAX_MOVES = 64
TT_BITS = 18
UNKNOWN_HIGH = 32767
NOT_LIVE = -1
W_STATES, W_MOVES, W_NMOVES, W_NEXT, W_MAXING, W_KEYS, W_BASE = range(7)
TT_KEYS, TT_LO, TT_HI, TT_GEN, TT_MOVE, W_REP, W_SCORES, W_STATS = range(7, 15)
"""The parts of a ``workspace``."""
NODES, GENERATION = 0, 1
"""``ws[W_STATS]``: nodes searched, and the table's generation (``clear``)."""

JIT_INLINE: Any = {"cache": True, "inline": "always"}


@numba.njit(cache=True)
def workspace(length, tt_bits):
    """The arrays one solver reuses for states ``length`` long: the stack (states, moves,
    their count, the next move, who maximizes, a node's key and count), the transposition
    table of ``2 ** tt_bits`` slots (keys, lower and upper bounds on what the remaining
    tricks add, generations, the move that decided the last search there), scratch for the
    moves (``rep``, scores) and ``W_STATS``. One per thread; ``clear`` before another deal or question."""
    size = 1 << tt_bits
    return (np.zeros((DEPTH, length), np.int64), np.zeros((DEPTH, MAX_MOVES), np.int64),
            np.zeros(DEPTH, np.int64), np.zeros(DEPTH, np.int64), np.zeros(DEPTH, np.int64),
            np.zeros(DEPTH, np.uint64), np.zeros(DEPTH, np.int64), np.zeros(size, np.uint64),
            np.zeros(size, np.int16), np.zeros(size, np.int16), np.zeros(size, np.int32),
            np.full(size, -1, np.int8), np.zeros(64, np.int64), np.zeros(MAX_MOVES, np.int64),
            np.ones(2, np.int64))


@numba.njit(**JIT_INLINE)
def clear(ws):
    """Forget every table entry (a new deal or another question): a new generation, so
    nothing needs to be wiped."""
    ws[W_STATS][GENERATION] += 1


@numba.njit(**JIT_INLINE)
def _slot(ws, key):
    return np.int64(mix64(key) & np.uint64(ws[TT_KEYS].shape[0] - 1))


@numba.njit(**JIT_INLINE)
def _store(ws, key, future, reached, move):
    """A keyed node's result: the remaining tricks add at least ``future`` (reached) or less;
    ``move`` decided it (-1: none did, every move was tried)."""
    tt_keys, tt_lo, tt_hi, gen = ws[TT_KEYS], ws[TT_LO], ws[TT_HI], ws[W_STATS][GENERATION]
    slot = _slot(ws, key)
    if tt_keys[slot] != key or ws[TT_GEN][slot] != gen:
        tt_keys[slot] = key
        ws[TT_GEN][slot] = gen
        ws[TT_MOVE][slot] = -1
        tt_lo[slot] = 0
        tt_hi[slot] = UNKNOWN_HIGH
    if move >= 0:
        ws[TT_MOVE][slot] = move
    if reached:
        if future > tt_lo[slot]:
            tt_lo[slot] = future
    elif future - 1 < tt_hi[slot]:
        tt_hi[slot] = future - 1


@numba.njit(**JIT_INLINE)
def _enter(d, target, q, ws, tally, key, moves):
    """Open the node at depth ``d``: 1 or 0 if the bounds or the table decide it, else -1
    with its moves listed."""
    states, mv, nmv, idx = ws[W_STATES], ws[W_MOVES], ws[W_NMOVES], ws[W_NEXT]
    maxing, keys, base = ws[W_MAXING], ws[W_KEYS], ws[W_BASE]
    s = states[d]
    keys[d] = 0
    count, open_ = tally(s, q)
    if count >= target:
        return 1
    if count + open_ < target:
        return 0
    k = key(s)
    slot = 0
    known = False
    if k:
        slot = _slot(ws, k)
        known = ws[TT_KEYS][slot] == k and ws[TT_GEN][slot] == ws[W_STATS][GENERATION]
        if known:
            if count + ws[TT_LO][slot] >= target:
                return 1
            if count + ws[TT_HI][slot] < target:
                return 0
        keys[d] = k
        base[d] = count
    n = moves(s, q, mv[d], ws[W_REP], ws[W_SCORES])
    nmv[d] = n
    if known:
        _first(mv[d], n, ws[TT_MOVE][slot])
    idx[d] = 0
    maxing[d] = (q[Q_MAXIMIZERS] >> s[HEADER.TO_MOVE]) & 1
    ws[W_STATS][NODES] += 1
    return -1


@numba.njit(**JIT_INLINE)
def _first(listed, n, move):
    """Put ``move`` (the one that decided the position's last search) first, if listed."""
    for k in range(1, n):
        if listed[k] == move:
            for j in range(k, 0, -1):
                listed[j] = listed[j - 1]
            listed[0] = move
            return


@numba.njit(**JIT_INLINE)
def reach(root, target, q, ws, step, tally, key, moves):
    """Whether the maximizers can make the count at least ``target`` from ``root`` against
    any defence (``root`` is not changed)."""
    states, mv, nmv, idx = ws[W_STATES], ws[W_MOVES], ws[W_NMOVES], ws[W_NEXT]
    maxing, keys, base = ws[W_MAXING], ws[W_KEYS], ws[W_BASE]
    for j in range(root.shape[0]):
        states[0, j] = root[j]
    d = 0
    decided = -1
    res = _enter(0, target, q, ws, tally, key, moves)
    while True:
        if res < 0:
            k = idx[d]
            idx[d] = k + 1
            for j in range(states.shape[1]):
                states[d + 1, j] = states[d, j]
            step(states[d + 1], mv[d, k])
            d += 1
            res = _enter(d, target, q, ws, tally, key, moves)
            continue
        if keys[d]:
            _store(ws, keys[d], target - base[d], res == 1, decided)
        decided = -1
        if d == 0:
            return res == 1
        d -= 1
        if maxing[d]:
            if res == 0 and idx[d] < nmv[d]:
                res = -1
            elif res == 1:
                decided = mv[d, idx[d] - 1]
        elif res == 1 and idx[d] < nmv[d]:
            res = -1
        elif res == 0:
            decided = mv[d, idx[d] - 1]


@numba.njit(**JIT_INLINE)
def exact(root, q, ws, step, tally, key, moves):
    """The count under best play from ``root``: bisection over targets with ``reach``."""
    count, open_ = tally(root, q)
    lo = count
    hi = count + open_
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if reach(root, mid, q, ws, step, tally, key, moves):
            lo = mid
        else:
            hi = mid - 1
    return lo



# --- the moves a game searches -------------------------------------------------------------

def card_order(eff: np.ndarray, strength: np.ndarray) -> np.ndarray:
    """The cards of one trick table ordered by effective suit, then from the strongest down
    (``equivalent``'s scan order); one row per table of a ``[table, card]`` pair."""
    eff2 = np.atleast_2d(eff)
    strength2 = np.atleast_2d(strength)
    n = eff2.shape[1]
    return np.array([sorted(range(n), key=lambda c: (int(e[c]), -int(s[c]), c))
                     for e, s in zip(eff2, strength2)], np.int64)


@numba.njit(**JIT_INLINE)
def _tied(j, c, mine, live, order, eff, strength):
    """Whether ``order[j]`` is another player's live card as strong as ``c`` in its suit."""
    if j < 0 or j >= order.shape[0]:
        return False
    o = order[j]
    ob = np.uint64(1) << np.uint64(o)
    return bool(live & ob) and not (mine & ob) and eff[o] == eff[c] and strength[o] == strength[c]


@numba.njit(**JIT_INLINE)
def equivalent(legal, collapsible, mine, live, order, eff, strength, points, use_points, rep):
    """Cards of the mover that are equivalent among the ``live`` ones: adjacent in one
    effective suit with no other player's live card between them (nor one as strong as
    either) and, when ``use_points``, equal in points; playing either comes to the same.
    Sets ``rep[card]`` for every ``legal`` card (the first of its run, or itself when not
    ``collapsible``) and returns the mask of the representatives."""
    reps = np.uint64(0)
    run = NOT_LIVE
    n = order.shape[0]
    for i in range(n):
        c = order[i]
        b = np.uint64(1) << np.uint64(c)
        if not (live & b):
            continue
        if not (mine & b):
            run = NOT_LIVE
            continue
        if not (collapsible & b):
            rep[c] = c
            reps |= b
            continue
        tied = _tied(i - 1, c, mine, live, order, eff, strength) or _tied(i + 1, c, mine, live,
                                                                       order, eff, strength)
        if tied:
            run = NOT_LIVE
        if (run != NOT_LIVE and eff[run] == eff[c]
                and (not use_points or points[run] == points[c])):
            rep[c] = run
        else:
            rep[c] = c
            reps |= b
            run = NOT_LIVE if tied else c
    return reps & legal


@numba.njit(**JIT_INLINE)
def ordered(reps, led, best, partner_wins, top, eff, strength, points, out, scores):
    """The cards of ``reps`` into ``out``, likely best first; their number. Leading
    (``led`` -1): a card that is the highest live one of its suit (``top``), the most points
    first, then the cheapest. Following: when a partner wins the trick so far (``best``),
    the most points; else a card that beats it, the most points first, then the cheapest."""
    n = 0
    m = np.uint64(reps)
    while m:
        c = lsb(m)
        m &= m - np.uint64(1)
        p = points[c]
        if led < 0:
            score = 10000 + 100 * p if (top >> np.uint64(c)) & np.uint64(1) else -100 * p - strength[c]
        elif partner_wins:
            score = 100 * p - strength[c]
        elif beats(c, best, eff[led], eff, strength):
            score = 10000 + 100 * p - strength[c]
        else:
            score = -100 * p - strength[c]
        k = n
        while k > 0 and scores[k - 1] < score:
            scores[k] = scores[k - 1]
            out[k] = out[k - 1]
            k -= 1
        scores[k] = score
        out[k] = c
        n += 1
    return n


@numba.njit(**JIT_INLINE)
def tops(live, order, eff):
    """The mask of the highest live card of each effective suit (``order``: ``card_order``)."""
    got = np.uint64(0)
    seen = 0
    for i in range(order.shape[0]):
        c = order[i]
        b = np.uint64(1) << np.uint64(c)
        if live & b and not (seen >> eff[c]) & 1:
            got |= b
            seen |= 1 << eff[c]
    return got



@numba.njit(**JIT_INLINE)
def root_counts(root, q, ws, out, legal, step, moves, count_of):
    """``out[card]``: the count under best play after each legal card of the player to move
    (cards equivalent to one searched share its count; ``count_of(state, q, ws)``, the
    game's compiled ``exact``); returns the legal cards."""
    rep = np.full(64, -1, np.int64)
    listed = np.empty(MAX_MOVES, np.int64)
    n = moves(root, q, listed, rep, np.empty(MAX_MOVES, np.int64))
    child = np.empty_like(root)
    for k in range(n):
        card = listed[k]
        child[:] = root
        step(child, card)
        out[card] = count_of(child, q, ws)
    return shared(np.uint64(legal(root)), rep, out)


@numba.njit(**JIT_INLINE)
def shared(mask, rep, out):
    """Give each card of ``mask`` the value ``out`` holds for the card searched in its stead
    (``rep``, from the game's ``moves``); returns ``mask``."""
    m = mask
    while m:
        card = lsb(m)
        m &= m - np.uint64(1)
        out[card] = out[rep[card]]
    return mask


__all__ = ["POINTS", "TRICKS", "card_order", "clear", "equivalent", "exact", "ordered", "reach",
           "root_counts", "shared", "tops", "workspace"]

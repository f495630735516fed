"""The double-dummy solver, written once for every game: the card play solved with every
card known, by null-window searches over the game's card-play state (or a state of the
game's own made for the search from it: the Skat family's, ``sim.games.skat_family.search_state``).

A *question* is ``q`` (``int64`` array, ``Q_*`` offsets): the places whose players maximize
(``Q_MAXIMIZERS``, a mask over places), the places whose takings are counted
(``Q_COUNTED``), what is counted (``Q_KIND``: ``POINTS`` card points or ``TRICKS``), the sum
of both sides' counts (``Q_SUM``) and constants of the game's own (``Q_GAME`` on). Usually
both masks are one side and the count its card points; a null game counts the declarer's
tricks with the defenders maximizing; a ramsch counts one player's points with the two
others maximizing them (each plays for himself, so the search takes the two as a side: the
"paranoid" reading).

``probe(root, target, ...)`` answers "can the maximizers make the count at least
``target``?" by a null-window fail-soft alpha-beta (``search``; after Kupferschmid & Helmert
2006), with a bound that may lie beyond the target: a node is decided as soon as the count
reaches the target or cannot any more, counting at a trick's start the points each side
takes for sure (the quick bounds, the game's ``bounds``); positions at a trick's start are
kept in a transposition table keyed by the cards left and the leader, with the bounds on
what the remaining tricks add, from the quick bounds and every search so far; the moves come from the
game, cards equivalent among the remaining ones searched once and the likely best first.
``exact`` finds the count under best play by bisection over targets; its searches share
the table, so the later ones are cheap. The search is iterative (a stack of
states, one a ply), so that it can be inlined into each game's compiled entry points
(``sim.search.solve_*``) with the game's functions:

* ``step(state, action)``: the game's card play;
* ``tally(state, q)``: ``(count, open)``: the count so far and the most the rest can add;
* ``key(state)``: at a trick's start, the position's key (nonzero), else 0;
* ``next_key(state, move)``: the key of the position ``move`` leads to when it ends the
  trick, else 0, asked without playing it: the search fetches that position's bucket of the
  table into the cache while it searches the moves before (a hint: a wrong key costs only
  the fetch). Waiting for the table's memory had taken a fifth of the Skat search's time;
* ``bounds(state, q)``: at a trick's start, ``(low, high)``: the least and the most the
  remaining tricks add to the count, from what each side takes for sure (the quick bounds;
  ``(0, open)`` where a game knows none). Asked once for a position the table does not hold:
  its entry starts from them, so they cost nothing when it is met again;
* ``moves(state, q, out, rep, scores)``: the moves to search, best first, into ``out``;
  their number. ``rep[card]`` receives, for each legal card, the one searched in its stead
  (a game may leave it unset here: the search never reads it, only the callers at the root,
  ``root_counts`` and ``sim.search.pimc``, which a game may hand a ``moves`` that sets it);
  ``scores`` is scratch.

The table is bounded: ``TT_BITS`` bits of index, 16 bytes a slot (``workspace``; 4 MiB at
2 ** 18 slots). A position may lie in any of the ``WAYS`` slots of its bucket (one cache
line); a new one takes a slot of an older generation, else the slot whose search took the
fewest nodes, so the positions that cost most to search stay (the "work" replacement of
chess programs).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from sim.cards import bit_length, lsb
from sim.engine.cardplay import HEADER
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
NO_CARDS = np.uint64(0)
"""An empty card mask (``ordered``'s masks where a game knows no such cards)."""
NOT_LIVE = -1
W_STATES, W_MOVES, W_NMOVES, W_NEXT, W_MAXING, W_KEYS, W_BASE = range(7)
W_TABLE, W_REP, W_SCORES, W_STATS, W_WINDOW, W_ROOT = range(7, 13)
"""The parts of a ``workspace``."""
TT_KEY, TT_ENTRY = 0, 1
"""A table slot's two words: the position's key, and its entry packed (``_pack``): the lower
and upper bounds on what the remaining tricks add, the move that decided its last search,
the work it took (the bit length of its nodes searched) and the table's generation when it
was written."""
BOUND_OFFSET = 32768
WORK_SHIFT, GENERATION_SHIFT = 40, 48
"""Where an entry's work (8 bits) and generation (16 bits) lie (``_pack``)."""
GENERATIONS = 1 << 16
"""Generations an entry tells apart; the table is wiped when they wrap (``clear``)."""
WAYS = 4
"""Slots of a bucket: four of 16 bytes fill a 64-byte cache line."""
LINE = 64
"""Bytes of a cache line, where the table starts (``aligned_table``)."""
ALPHA, BETA, BEST, BEST_MOVE, ALPHA0, BETA0, FUTURE_LOW, FUTURE_HIGH, OPENED = range(9)
"""``ws[W_WINDOW][depth]``: a node's window, its best value and move so far, the window
it was opened with, (a keyed node) the bounds on what its remaining tricks add that were
known when it was opened, and the nodes searched before it."""
NODES, GENERATION = 0, 1
"""``ws[W_STATS]``: nodes searched, and the table's generation (``clear``)."""


def counts_tricks(q):
    """Whether question ``q`` counts tricks (a null game: does the declarer take one?)."""
    return int(q[Q_KIND]) == TRICKS


def each_for_himself(q):
    """Whether question ``q`` counts one player's own card points against all the others, who
    maximize them (a ramsch: the counted player wants them low)."""
    return int(q[Q_KIND]) == POINTS and not int(q[Q_COUNTED]) & int(q[Q_MAXIMIZERS])

JIT_INLINE: Any = {"cache": True, "inline": "always"}


@numba.njit(cache=True)
def workspace(length, tt_bits):
    """The arrays one solver reuses for states ``length`` long: the stack (states, moves,
    their count, the next move, who maximizes, a node's key and count), the transposition
    table of ``2 ** tt_bits`` slots of two words (``TT_KEY``, ``TT_ENTRY``: one cache line
    holds a bucket), scratch for the moves (``rep``, scores), ``W_STATS``, the nodes'
    windows and a root (``W_ROOT``: where a game whose search runs over a state of its own
    puts the position it searches). One per thread; ``clear`` before another deal or
    question."""
    size = 1 << tt_bits
    return (np.zeros((DEPTH, length), np.int64), np.zeros((DEPTH, MAX_MOVES), np.int64),
            np.zeros(DEPTH, np.int64), np.zeros(DEPTH, np.int64), np.zeros(DEPTH, np.int64),
            np.zeros(DEPTH, np.uint64), np.zeros(DEPTH, np.int64),
            aligned_table(size), np.zeros(64, np.int64),
            np.zeros(MAX_MOVES, np.int64), np.ones(2, np.int64), np.zeros((DEPTH, 9), np.int64),
            np.zeros(length, np.int64))


@numba.njit(cache=True)
def aligned_table(slots):
    """A zeroed table of ``slots`` slots of two words that starts at a cache line, so that
    each bucket (``WAYS`` slots) is one line and one fetch. An array is only sure to start
    at 32 bytes: half the tables had every bucket split over two lines, which cost 4 % more
    time on 750 recorded Skat ``pimc`` decisions (15.1 to 15.3 s against 14.4 to 14.9 s)."""
    words = LINE // 8
    raw = np.zeros(2 * slots + words, np.uint64)
    skip = np.int64((LINE - raw.ctypes.data % LINE) % LINE) // 8
    return raw[skip:skip + 2 * slots].reshape((slots, 2))


@numba.njit(**JIT_INLINE)
def clear(ws):
    """Forget every table entry (a new deal or another question): a new generation, so
    nothing needs to be wiped, but when the generations wrap."""
    stats = ws[W_STATS]
    stats[GENERATION] += 1
    if stats[GENERATION] % GENERATIONS == 0:
        ws[W_TABLE][:] = 0
        stats[GENERATION] += 1


@intrinsic
def _prefetch(typingctx, table, row):
    """LLVM's prefetch of ``table[row]`` into every cache level (a hint: it never faults)."""
    def codegen(context, builder, signature, args):
        array_type, row_type = signature.args
        array = context.make_array(array_type)(context, builder, args[0])
        at = context.cast(builder, args[1], row_type, types.intp)
        pointer = cgutils.get_item_pointer(context, builder, array_type, array,
                                           [at, context.get_constant(types.intp, 0)])
        i32 = ir.IntType(32)
        fetch = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32]),
            "llvm.prefetch.p0")
        # read, the highest locality, a data cache
        builder.call(fetch, [pointer, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.none(table, row), codegen


@numba.njit(**JIT_INLINE)
def _bucket(ws, key):
    """The first slot of the bucket of the position ``key``, which depends on the table's
    generation too: worlds searched side by side, each under its own generation (the
    ``pimc`` player), spread over the table instead of competing for the buckets of the
    positions whose keys they share."""
    salt = np.uint64(ws[W_STATS][GENERATION] % GENERATIONS) << np.uint64(44)
    return np.int64(mix64(key ^ salt) & np.uint64(ws[W_TABLE].shape[0] - WAYS))


@numba.njit(**JIT_INLINE)
def _pack(low, high, move, work, generation):
    return (np.uint64(low + BOUND_OFFSET) | (np.uint64(high + BOUND_OFFSET) << np.uint64(16))
            | (np.uint64(move + 1) << np.uint64(32)) | (np.uint64(work) << np.uint64(WORK_SHIFT))
            | (np.uint64(generation) << np.uint64(GENERATION_SHIFT)))


@numba.njit(**JIT_INLINE)
def _generation(entry):
    return entry >> np.uint64(GENERATION_SHIFT)


@numba.njit(**JIT_INLINE)
def _work(entry):
    return (entry >> np.uint64(WORK_SHIFT)) & np.uint64(0xFF)


@numba.njit(**JIT_INLINE)
def _unpack(entry):
    """``(low, high, move)`` of a packed entry."""
    low = np.int64(entry & np.uint64(0xFFFF)) - BOUND_OFFSET
    high = np.int64((entry >> np.uint64(16)) & np.uint64(0xFFFF)) - BOUND_OFFSET
    return low, high, np.int64((entry >> np.uint64(32)) & np.uint64(0xFF)) - 1


@numba.njit(**JIT_INLINE)
def _lookup(ws, key):
    """The entry of the position ``key`` (0: none of this generation)."""
    table = ws[W_TABLE]
    start = _bucket(ws, key)
    for i in range(start, start + WAYS):
        if table[i, TT_KEY] == key:
            entry = table[i, TT_ENTRY]
            if _generation(entry) == np.uint64(ws[W_STATS][GENERATION] % GENERATIONS):
                return entry
            return np.uint64(0)
    return np.uint64(0)


@numba.njit(**JIT_INLINE)
def _store(ws, key, future, low, high, move, known_low, known_high, nodes):
    """A keyed node's result: the remaining tricks add ``future``, or at most that when it
    failed low (``low``), or at least that when it failed high (``high``); ``move`` decided it
    (-1: none did); its search took ``nodes``. A new entry (or one another position took
    meanwhile) starts from the bounds known when the node was opened (``known_low``,
    ``known_high``) and takes its bucket's slot of an older generation, else the one of
    least work."""
    table = ws[W_TABLE]
    generation = np.uint64(ws[W_STATS][GENERATION] % GENERATIONS)
    start = _bucket(ws, key)
    at = start
    least = np.uint64(1 << 16)
    entry = np.uint64(0)
    for i in range(start, start + WAYS):
        e = table[i, TT_ENTRY]
        if table[i, TT_KEY] == key:
            at = i
            if _generation(e) == generation:
                entry = e
            break
        if _generation(e) != generation:
            if least:
                at = i
                least = np.uint64(0)
        elif _work(e) < least:
            at = i
            least = _work(e)
    work = np.uint64(bit_length(nodes))
    if entry and _work(entry) > work:
        work = _work(entry)
    lo, hi, best = _unpack(entry) if entry else (known_low, known_high, -1)
    if move >= 0:
        best = move
    if not low and future > lo:
        lo = future
    if not high and future < hi:
        hi = future
    table[at, TT_KEY] = key
    table[at, TT_ENTRY] = _pack(lo, hi, best, work, generation)


@numba.njit(**JIT_INLINE)
def _enter(d, q, ws, tally, key, next_key, moves, bounds):
    """Open the node at depth ``d`` within its window: ``(True, value)`` if the bounds or
    the table decide it (the value a bound on the right side of the window), else
    ``(False, 0)`` with its moves listed."""
    states, mv, nmv, idx = ws[W_STATES], ws[W_MOVES], ws[W_NMOVES], ws[W_NEXT]
    maxing, keys, base, win = ws[W_MAXING], ws[W_KEYS], ws[W_BASE], ws[W_WINDOW]
    s = states[d]
    keys[d] = 0
    alpha, beta = win[d, ALPHA], win[d, BETA]
    count, open_ = tally(s, q)
    if count >= beta or open_ == 0:
        return True, count
    if count + open_ <= alpha:
        return True, count + open_
    k = key(s)
    first = -1
    if k:
        entry = _lookup(ws, k)
        if entry:
            low, high, first = _unpack(entry)
        else:
            low, high = bounds(s, q)
        if count + low >= beta:
            return True, count + low
        if count + high <= alpha:
            return True, count + high
        win[d, FUTURE_LOW] = low
        win[d, FUTURE_HIGH] = high
        keys[d] = k
        base[d] = count
    n = moves(s, q, mv[d], ws[W_REP], ws[W_SCORES])
    if n == 0:  # no card to play: only a state no deal reaches (the count stands)
        keys[d] = 0
        return True, count
    nmv[d] = n
    if first >= 0:
        _first(mv[d], n, first)
    for j in range(n):  # moves that end a trick: their positions' buckets fetched ahead
        ahead = next_key(s, mv[d, j])
        if not ahead:
            break
        _prefetch(ws[W_TABLE], _bucket(ws, ahead))  # type: ignore[call-arg]  # numba fills in typingctx
    idx[d] = 0
    maxing[d] = (q[Q_MAXIMIZERS] >> s[HEADER.TO_MOVE]) & 1
    win[d, BEST] = -UNKNOWN_HIGH if maxing[d] else UNKNOWN_HIGH
    win[d, BEST_MOVE] = -1
    win[d, ALPHA0] = alpha
    win[d, BETA0] = beta
    win[d, OPENED] = ws[W_STATS][NODES]
    ws[W_STATS][NODES] += 1
    return False, 0


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
def search(root, alpha, beta, q, ws, step, tally, key, next_key, moves, bounds):
    """The count under best play from ``root`` if it lies strictly between ``alpha`` and
    ``beta``; else a bound beyond the window on that side (fail-soft alpha-beta: at most
    ``alpha`` means at most the value returned, at least ``beta`` at least it). ``root`` is
    not changed."""
    states, mv, nmv, idx = ws[W_STATES], ws[W_MOVES], ws[W_NMOVES], ws[W_NEXT]
    maxing, keys, base, win = ws[W_MAXING], ws[W_KEYS], ws[W_BASE], ws[W_WINDOW]
    for j in range(root.shape[0]):
        states[0, j] = root[j]
    d = 0
    win[0, ALPHA] = alpha
    win[0, BETA] = beta
    done, value = _enter(0, q, ws, tally, key, next_key, moves, bounds)
    while True:
        if not done:
            k = idx[d]
            idx[d] = k + 1
            for j in range(states.shape[1]):
                states[d + 1, j] = states[d, j]
            step(states[d + 1], mv[d, k])
            win[d + 1, ALPHA] = win[d, ALPHA]
            win[d + 1, BETA] = win[d, BETA]
            d += 1
            done, value = _enter(d, q, ws, tally, key, next_key, moves, bounds)
            continue
        if keys[d]:
            _store(ws, keys[d], value - base[d], value <= win[d, ALPHA0], value >= win[d, BETA0],
                   win[d, BEST_MOVE], win[d, FUTURE_LOW], win[d, FUTURE_HIGH],
                   ws[W_STATS][NODES] - win[d, OPENED])
        if d == 0:
            return value
        d -= 1
        move = mv[d, idx[d] - 1]
        if maxing[d]:
            if value > win[d, BEST]:
                win[d, BEST] = value
                win[d, BEST_MOVE] = move
                if value > win[d, ALPHA]:
                    win[d, ALPHA] = value
        elif value < win[d, BEST]:
            win[d, BEST] = value
            win[d, BEST_MOVE] = move
            if value < win[d, BETA]:
                win[d, BETA] = value
        done = win[d, ALPHA] >= win[d, BETA] or idx[d] == nmv[d]
        value = win[d, BEST]


@numba.njit(**JIT_INLINE)
def probe(root, target, q, ws, step, tally, key, next_key, moves, bounds):
    """A null-window ``search`` at ``target``: a value of at least ``target`` means the
    maximizers can make the count at least that value against any defence, one below it
    that they can make at most that value."""
    return search(root, target - 1, target, q, ws, step, tally, key, next_key, moves, bounds)


@numba.njit(**JIT_INLINE)
def exact(state, root, q, ws, tally, bound):
    """The count under best play from ``state`` (``root``: the state the game searches for
    it, ``state`` itself where the game searches its card-play state): null-window searches
    by the game's compiled ``bound(state, q, target, ws)`` (its ``probe``), bisecting the
    range the count may still lie in, from ``tally(root, q)`` on; each search's bound
    (fail-soft) narrows it beyond its target. (Fewer nodes than one search with the whole
    range as its window: a null window cuts more, and the searches share the table.) Calling
    ``bound`` instead of inlining the search compiles the search once a game, not twice: a
    minute less of compiling for each solver module."""
    low, open_ = tally(root, q)
    high = low + open_
    while low < high:
        target = (low + high + 1) // 2
        value = bound(state, q, target, ws)
        if value >= target:
            low = value
        else:
            high = value
    return low



# --- the moves a game searches -------------------------------------------------------------

def card_order(eff: np.ndarray, strength: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cards of each trick table in *order space*, for ``equivalent`` and ``tops``: one
    row per table of a ``[table, card]`` pair.

    * ``order[i]``: the card at position ``i``, by effective suit, then from the strongest
      down;
    * ``perm[k, byte]``: where the cards of byte ``k`` of a card mask go in order space
      (``in_order`` maps a whole mask with eight lookups);
    * ``span[i]``: the positions of position ``i``'s effective suit."""
    eff2 = np.atleast_2d(eff)
    strength2 = np.atleast_2d(strength)
    n = eff2.shape[1]
    order = np.array([sorted(range(n), key=lambda c: (int(e[c]), -int(s[c]), c))
                      for e, s in zip(eff2, strength2)], np.int64)
    perm = np.zeros((len(order), 8, 256), np.uint64)
    span = np.zeros((len(order), 64), np.uint64)
    for t, row in enumerate(order):
        where = {int(c): i for i, c in enumerate(row)}
        for k in range(8):
            for byte in range(256):
                perm[t, k, byte] = sum(1 << where[8 * k + j] for j in range(8)
                                       if byte >> j & 1 and 8 * k + j in where)
        for i, c in enumerate(row):
            span[t, i] = sum(1 << j for j, o in enumerate(row) if eff2[t, o] == eff2[t, c])
    return order, perm, span


@numba.njit(**JIT_INLINE)
def in_order(mask, perm):
    """A card mask in order space (``card_order``)."""
    out = np.uint64(0)
    m = np.uint64(mask)
    for k in range(8):
        if m == 0:
            break
        out |= perm[k, m & np.uint64(255)]
        m >>= np.uint64(8)
    return out


@numba.njit(**JIT_INLINE)
def _tied(i, c, others, order, eff, strength):
    """Whether position ``i`` holds another player's live card as strong as ``c`` in its
    suit (``others``: their live cards in order space)."""
    if i < 0 or i >= order.shape[0] or not (others >> np.uint64(i)) & np.uint64(1):
        return False
    o = order[i]
    return eff[o] == eff[c] and strength[o] == strength[c]


@numba.njit(**JIT_INLINE)
def equivalent(legal, collapsible, mine, live, order, perm, eff, strength, points, use_points,
               rep):
    """Cards of the mover that are equivalent among the ``live`` ones (``equivalent_in_order``),
    for card masks: ``mine`` and the other players' live cards are mapped into order space
    (``card_order``) first, so only the mover's cards are visited."""
    mine_live = mine & live
    return equivalent_in_order(legal, collapsible, in_order(mine_live, perm),
                               in_order(live & ~mine_live, perm), order, eff, strength, points,
                               use_points, rep)


@numba.njit(**JIT_INLINE)
def equivalent_in_order(legal, collapsible, mine, others, order, eff, strength, points,
                        use_points, rep, twins=True):
    """Cards of the mover that are equivalent among the live ones: adjacent in one effective
    suit with no other player's live card between them (nor one as strong as either) and,
    when ``use_points``, equal in points; playing either comes to the same. ``mine`` (the
    mover's live cards) and ``others`` (the other players') are in order space, ``order[i]``
    the card at position ``i`` (the identity for a state that holds its cards in order
    space). Sets ``rep[card]`` for every ``legal`` card (the first of its run, or itself when
    not ``collapsible``) and returns the mask of the representatives. ``twins``: whether
    another player may hold a card as strong as one of the mover's (the Doppelkopf games'
    doubled cards); the Skat family's cards are all unequal, so it skips that check."""
    reps = np.uint64(0)
    run = NOT_LIVE
    m = mine
    before = np.uint64(0)
    while m:
        i = lsb(m)
        at = np.uint64(1) << np.uint64(i)
        m &= m - np.uint64(1)
        if others & (at - np.uint64(1)) & ~before:
            run = NOT_LIVE  # another player's card lies between
        before = at | (at - np.uint64(1))
        c = order[i]
        b = np.uint64(1) << np.uint64(c)
        if not (collapsible & b):
            rep[c] = c
            reps |= b
            continue
        tied = twins and (_tied(i - 1, c, others, order, eff, strength)
                          or _tied(i + 1, c, others, order, eff, strength))
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
def same_side(q, a, b):
    """Whether places ``a`` and ``b`` are on one side of the question ``q`` (both among its
    maximizers or both not): partners, for a game's move ordering."""
    side = q[Q_MAXIMIZERS]
    return ((side >> a) & 1) == ((side >> b) & 1)


@numba.njit(**JIT_INLINE)
def ordered(reps, led, best, partner_wins, sure, to_partner, draw, covered, tables, out, scores):
    """The cards of ``reps`` into ``out``, likely best first; their number.

    Leading (``led`` -1): first the cards of ``sure`` (likely to win the trick: the highest
    live card of a suit), then those of ``to_partner`` (a suit whose best card a partner
    holds), each the most points first, or of ``draw`` (trumps to draw the opponents'), the
    weakest first; then the cheapest. Following the card ``led``: when a partner wins the
    trick (``partner_wins``: with ``best``, its winning card so far, or surely later), the
    most points; else a card that beats ``best`` and is not ``covered`` (beaten by an
    opponent still to play), the most points first, then the cheapest. A game that knows
    no more passes empty masks. ``tables``: the game's ``(eff, strength, points)``."""
    eff, strength, points = tables
    n = 0
    m = np.uint64(reps)
    while m:
        c = lsb(m)
        m &= m - np.uint64(1)
        b = np.uint64(1) << np.uint64(c)
        p = points[c]
        if led < 0:
            if sure & b:
                score = 20000 + 100 * p
            elif to_partner & b:
                score = 10000 + 100 * p
            elif draw & b:
                score = 10000 - strength[c]
            else:
                score = -100 * p - strength[c]
        elif partner_wins:
            score = 100 * p - strength[c]
        elif beats(c, best, eff[led], eff, strength) and not covered & b:
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
def tops(live, order, perm, span):
    """The mask of the highest live card of each effective suit (``tops_in_order`` of the
    card mask ``live`` mapped into order space, ``card_order``)."""
    return tops_in_order(in_order(live, perm), order, span)


@numba.njit(**JIT_INLINE)
def tops_in_order(live, order, span):
    """The mask of the highest live card of each effective suit, from the live cards in order
    space (``order``, ``span``: ``card_order``)."""
    got = np.uint64(0)
    m = live
    while m:
        i = lsb(m)
        got |= np.uint64(1) << np.uint64(order[i])
        m &= ~span[i]
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


__all__ = ["NO_CARDS", "POINTS", "TRICKS", "card_order", "clear", "equivalent",
           "equivalent_in_order", "exact", "in_order", "ordered", "probe", "root_counts", "search",
           "shared", "tops", "tops_in_order", "workspace"]

"""The Skat family's search state: the card play of ``skat`` and ``skat_en_deux`` reduced to
what the double-dummy search needs, its cards held in *order space* (``solver.card_order``:
by effective suit, the strongest first), and the search's hooks over it (``step``, ``tally``,
``key``, ``next_key``, ``bounds``, ``moves``; ``sim.search.solver``).

Why a state of its own: the card-play state (``sim.games.skat_family.cardplay``) carries the
contract, the offers, what each place has played and shown, for the kernels and the
observations; the search copies a state at every card and asks its hooks at every node.
Here a state is 22 numbers instead of 52, and the hands lie in order space, so the
equivalent cards, the highest live cards and the quick bounds read them without mapping
each mask (in all about a sixth less time a node, the same nodes). ``from_play`` makes one
from a card-play state in play; the rules stay in one place: legal cards and the trick's
winner are ``sim.tricks``' over the same game tables in order space, and the tests check
every solved count against plain searches over the card-play state itself.

The question (``sim.games.skat_family.solver.question``) is asked of the card-play state;
its own constants (``Q_CONSTANT``, ``Q_TOTAL``, ``Q_LAST_TRICK``) are named here, where
``tally`` reads them.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from sim.cards import bit, lsb
from sim.engine.cardplay import PLAY, offsets
from sim.games.skat_family.cardplay import TRICKS, S
from sim.games.skat_family.values import EFF, JIT, JIT_NRT, NULL, POINTS, STRENGTH
from sim.search import solver
from sim.search.solver import NO_CARDS, Q_COUNTED, Q_GAME, Q_KIND, Q_MAXIMIZERS
from sim.search.sure_points import order_masks, sure_bounds
from sim.tricks import TRUMP, beats, legal_mask, trick_winner

ORDER, PERM, SPAN = solver.card_order(EFF, STRENGTH)
"""Each game type's cards by effective suit and strength: ``ORDER[game, i]`` is the card at
position ``i``."""
SUITS, CLASSES, TWINS = order_masks(ORDER, EFF, STRENGTH, POINTS)
"""The same order space's suits, cards by value and equal cards (``sim.search.sure_points``);
``SUITS[game]`` are the suit masks ``sim.tricks.legal_mask`` follows."""
POSITION = np.argsort(ORDER, axis=1).astype(np.int64)
"""Where each card lies in its game type's order space (``ORDER``'s inverse)."""
EFF_IN_ORDER = np.take_along_axis(EFF, ORDER, axis=1)
STRENGTH_IN_ORDER = np.take_along_axis(STRENGTH, ORDER, axis=1)
POINTS_IN_ORDER = POINTS[ORDER]
"""Each position's effective suit, strength and points: the game tables in order space."""
IDENTITY = np.arange(64, dtype=np.int64)
"""A position is its own card here (``solver.equivalent_in_order``'s ``order``)."""
Q_CONSTANT, Q_TOTAL, Q_LAST_TRICK = Q_GAME, Q_GAME + 1, Q_GAME + 2
"""The question's own constants: points counted from the start (the declarer's skat),
points in play from the start, points the taker of the last trick adds (Skat's ramsch)."""


def _runs(eff: np.ndarray, points: np.ndarray, null: bool) -> tuple[list[int], list[int], int]:
    """A game type's *runs* in order space: positions next to each other in one effective
    suit and equal in points (in a null game, where points do not count, every suit), at
    most four a run. Returns their starts and lengths, and the mask of the positions in
    none."""
    starts, lengths, alone = [], [], 0
    i = 0
    while i < len(eff):
        j = i + 1
        while (j < len(eff) and j - i < 4 and eff[j] == eff[i]
               and (null or points[j] == points[i])):
            j += 1
        if j == i + 1:
            alone |= 1 << i
        else:
            starts.append(i)
            lengths.append(j - i)
        i = j
    return starts, lengths, alone


def _run_tables() -> tuple[np.ndarray, ...]:
    """``RUN_OF``, ``RUN_START``, ``RUN_MASK``, ``RUN_WEIGHT``, ``N_RUNS``, ``ALONE``,
    ``RUNS_SHIFT`` and ``RUN_CODE`` (see ``key``)."""
    games = ORDER.shape[0]
    run_of = np.full((games, ORDER.shape[1]), -1, np.int64)
    start = np.zeros((games, 8), np.int64)
    mask = np.zeros((games, 8), np.int64)
    weight = np.zeros((games, 8), np.int64)
    n_runs = np.zeros(games, np.int64)
    alone = np.zeros(games, np.uint64)
    shift = np.zeros(games, np.uint64)
    for game in range(games):
        starts, lengths, alone_mask = _runs(EFF_IN_ORDER[game], POINTS_IN_ORDER[game],
                                            game == NULL)
        codes = 1
        for r, (at, length) in enumerate(zip(starts, lengths)):
            start[game, r] = at
            run_of[game, at:at + length] = r
            mask[game, r] = (1 << length) - 1
            weight[game, r] = codes
            codes *= (3 ** (length + 1) - 1) // 2  # 0 to ``length`` holders, each of three
        n_runs[game] = len(starts)
        alone[game] = alone_mask
        shift[game] = 32 if alone_mask else 0
        assert codes << int(shift[game]) <= 1 << 62, "a key needs its top two bits"
    code = np.zeros(1 << 12, np.int64)
    for bits in range(1 << 12):
        holders = [p for j in range(4) for p in range(3) if bits >> (4 * p + j) & 1]
        code[bits] = (3 ** len(holders) - 1) // 2 + sum(p * 3 ** k for k, p in enumerate(holders))
    return run_of, start, mask, weight, n_runs, alone, shift, code


RUN_OF, RUN_START, RUN_MASK, RUN_WEIGHT, N_RUNS, ALONE, RUNS_SHIFT, RUN_CODE = _run_tables()
"""The runs of each game type (``_runs``) for the table's key (``key``): ``RUN_OF[game,
position]`` the run of a position (-1: none), a run's first position, its mask (from there)
and its weight in the runs' code; how many runs a game type has, the positions in none, where
the runs' code starts in a key; ``RUN_CODE[bits]`` the code of a run whose three places' cards
are ``bits`` (four bits a place): who holds its live cards, strongest first, and how many."""


def _run_reps() -> np.ndarray:
    """``RUN_REPS[mine | others << 4]``: of one run's positions (four bits, the strongest
    first), the mover's cards ``mine`` to search when the other places hold ``others``: each
    card of his that is not next to one of his own above it (played cards between count as
    gone, another place's live card between keeps them apart)."""
    table = np.zeros(256, np.uint64)
    for index in range(256):
        mine, others = index & 15, index >> 4
        after_mine, reps = False, 0
        for j in range(4):
            if others >> j & 1:
                after_mine = False
            if mine >> j & 1:
                if not after_mine:
                    reps |= 1 << j
                after_mine = True
        table[index] = reps
    return table


RUN_REPS = _run_reps()
"""The cards to search of a run (``_run_reps``)."""


class Layout(NamedTuple):
    """The search state's fields and sizes; it starts with the card-play header."""

    TO_MOVE: int = 1
    PLAYER: int = 1
    """-1: who decides is no part of the search."""
    PHASE: int = 1
    """Always ``PLAY``."""
    DONE: int = 1
    HANDS: int = 3
    """Each place's cards, in order space."""
    TRICK: int = 3
    """The trick's positions by play (only the first ``TRICK_N`` hold one)."""
    TRICK_N: int = 1
    LEADER: int = 1
    """The place that leads the trick (after the last trick: its taker)."""
    TRICK_NO: int = 1
    POINTS: int = 3
    TRICKS: int = 3
    """Card points and tricks each place has taken."""
    GAME: int = 1
    PLACES: int = 1
    """Places in a trick: 3, or 2 in Skat-en-deux's ramsch."""
    DECLARER: int = 1
    """The declarer's place (-1 in ramsch): a null game ends at his first trick."""
    RUNS: int = 1
    """Who holds the live cards of each run (``key``), kept by ``step``."""


F, LENGTH = offsets(Layout)


@numba.njit(inline="always", **JIT)
def _place(s, offset):
    """The place ``offset`` seats after the trick's leader."""
    place = s[F.LEADER] + offset
    return place - s[F.PLACES] if place >= s[F.PLACES] else place


@numba.njit(**JIT)
def from_play(state, out):
    """Into ``out``, the search state of the card-play ``state`` (in play, or finished)."""
    game = state[S.GAME]
    perm = PERM[game]
    out[F.TO_MOVE] = state[S.TO_MOVE]
    out[F.PLAYER] = -1
    out[F.PHASE] = PLAY
    out[F.DONE] = state[S.DONE]
    n = state[S.TRICK_N]
    for p in range(3):
        out[F.HANDS + p] = np.int64(solver.in_order(np.uint64(state[S.HANDS + p]), perm))
        out[F.POINTS + p] = state[S.POINTS + p]
        out[F.TRICKS + p] = state[S.TRICKS + p]
        out[F.TRICK + p] = POSITION[game, state[S.TRICK + p]] if p < n else -1
    out[F.TRICK_N] = n
    out[F.LEADER] = state[S.LEADER]
    out[F.TRICK_NO] = state[S.TRICK_NO]
    out[F.GAME] = game
    out[F.PLACES] = state[S.PLACES]
    out[F.DECLARER] = state[S.DECLARER]
    runs = 0
    for r in range(N_RUNS[game]):
        runs += RUN_CODE[_run_bits(out, game, r)] * RUN_WEIGHT[game, r]
    out[F.RUNS] = runs


@numba.njit(inline="always", **JIT)
def _run_bits(s, game, r):
    """The cards each place holds of run ``r``, four bits a place (``RUN_CODE``'s index)."""
    at = RUN_START[game, r]
    mask = RUN_MASK[game, r]
    return (((s[F.HANDS] >> at) & mask) | (((s[F.HANDS + 1] >> at) & mask) << 4)
            | (((s[F.HANDS + 2] >> at) & mask) << 8))


@numba.njit(inline="always", **JIT)
def _runs_after(s, place, position):
    """The runs' code (``F.RUNS``) once ``place`` has played ``position``."""
    game = s[F.GAME]
    r = RUN_OF[game, position]
    if r < 0:
        return s[F.RUNS]
    bits = _run_bits(s, game, r)
    after = bits & ~(np.int64(1) << (position - RUN_START[game, r] + 4 * place))
    return s[F.RUNS] + (RUN_CODE[after] - RUN_CODE[bits]) * RUN_WEIGHT[game, r]


@numba.njit(**JIT_NRT)
def search_state(state):
    """The search state of the card-play ``state``, a new array (``from_play``)."""
    out = np.zeros(LENGTH, np.int64)
    from_play(state, out)
    return out


@numba.njit(inline="always", **JIT)
def step(s, position):
    """The place to move plays the card at ``position``; a complete trick goes to its
    winner (``sim.tricks.trick_winner``), with its points; the play ends after the tenth
    trick, or at the declarer's first trick in a null game (as ``cardplay.step``)."""
    place = s[F.TO_MOVE]
    k = s[F.TRICK_N]
    s[F.RUNS] = _runs_after(s, place, position)
    s[F.HANDS + place] &= ~(np.int64(1) << np.int64(position))
    s[F.TRICK + k] = position
    places = s[F.PLACES]
    if k + 1 < places:
        s[F.TRICK_N] = k + 1
        s[F.TO_MOVE] = _place(s, k + 1)
        return
    game = s[F.GAME]
    taker = _place(s, trick_winner(s[F.TRICK:F.TRICK + places], places, EFF_IN_ORDER[game],
                                   STRENGTH_IN_ORDER[game]))
    won = 0
    for j in range(places):
        won += POINTS_IN_ORDER[game, s[F.TRICK + j]]
    s[F.POINTS + taker] += won
    s[F.TRICKS + taker] += 1
    s[F.LEADER] = taker
    s[F.TO_MOVE] = taker
    s[F.TRICK_N] = 0
    s[F.TRICK_NO] += 1
    if s[F.TRICK_NO] == TRICKS or (game == NULL and taker == s[F.DECLARER]):
        s[F.DONE] = 1


@numba.njit(inline="always", **JIT)
def tally(s, q):
    """``(count, open)``: what the question counts so far, and the most still to come."""
    counted = q[Q_COUNTED]
    done = s[F.DONE] != 0
    if q[Q_KIND] == solver.TRICKS:
        tricks = 0
        for p in range(3):
            if (counted >> p) & 1:
                tricks += s[F.TRICKS + p]
        if done:
            return tricks, 0
        # a null game ends at the declarer's first trick
        return tricks, 1 - tricks if s[F.GAME] == NULL else TRICKS - s[F.TRICK_NO]
    count = q[Q_CONSTANT]
    taken = 0
    for p in range(3):
        points = s[F.POINTS + p]
        taken += points
        if (counted >> p) & 1:
            count += points
    if done:
        if (counted >> s[F.LEADER]) & 1:
            count += q[Q_LAST_TRICK]
        return count, 0
    return count, q[Q_TOTAL] - taken


@numba.njit(inline="always", **JIT)
def bounds(s, q):
    """At a trick's start, ``(low, high)``: the least and the most the remaining tricks add
    to the count, from the points each side takes for sure (``sim.search.sure_points``): the
    tricks its trumps above the other side's must win, and the leader's quick tricks where his
    side wants its own points (not in a ramsch, where the count's player and the two others
    against him both shun them). A null game's tricks have none."""
    open_ = tally(s, q)[1]
    if q[Q_KIND] == solver.TRICKS:
        return 0, open_
    game = s[F.GAME]
    places = s[F.PLACES]
    ours = q[Q_COUNTED] & ((1 << places) - 1)
    leader = s[F.LEADER]
    hands = (np.uint64(s[F.HANDS]), np.uint64(s[F.HANDS + 1]), np.uint64(s[F.HANDS + 2]))
    # a ramsch: the leader's side does not want its quick tricks
    wants = ((ours >> leader) & 1) == ((q[Q_MAXIMIZERS] >> leader) & 1)
    return sure_bounds(hands, places, leader, ours, open_, SUITS[game], CLASSES[game],
                       TWINS[game], wants)


@numba.njit(inline="always", **JIT)
def key(s):
    """At a trick's start, the position's key; else 0. Positions that differ only in which
    cards of a run (``_runs``: next to each other in strength, equal in points) are still
    live share one: what a run's cards can do depends only on who holds its live ones,
    strongest first (``F.RUNS``). The key is the live cards that lie in no run, the runs'
    code and the leader, so such positions met by other lines of play are found in the table
    (17 % fewer nodes on the bench's Skat positions)."""
    if s[F.TRICK_N]:
        return np.uint64(0)
    live = s[F.HANDS] | s[F.HANDS + 1] | s[F.HANDS + 2]
    return _position_key(live, s[F.RUNS], s[F.LEADER], s[F.GAME])


@numba.njit(inline="always", **JIT)
def _position_key(live, runs, leader, game):
    """The key of a trick's start with the ``live`` cards, the runs' code and the leader."""
    return ((np.uint64(live) & ALONE[game]) | (np.uint64(runs) << RUNS_SHIFT[game])
            | (np.uint64(leader + 1) << np.uint64(62)))


@numba.njit(inline="always", **JIT)
def next_key(s, position):
    """The key of the position that playing ``position`` leads to when it ends the trick (the
    search fetches its table entry ahead: a hint, so the play's end needs no care); else 0.
    Asked without playing it: the trick's winner with it, the cards left without it."""
    n = s[F.TRICK_N]
    if n + 1 < s[F.PLACES]:
        return np.uint64(0)
    game = s[F.GAME]
    eff = EFF_IN_ORDER[game]
    strength = STRENGTH_IN_ORDER[game]
    won = trick_winner(s[F.TRICK:F.TRICK + n], n, eff, strength)
    if beats(position, s[F.TRICK + won], eff[s[F.TRICK]], eff, strength):
        won = n
    live = (s[F.HANDS] | s[F.HANDS + 1] | s[F.HANDS + 2]) & ~(np.int64(1) << np.int64(position))
    return _position_key(live, _runs_after(s, s[F.TO_MOVE], position), _place(s, won), game)


@numba.njit(inline="always", **JIT)
def _lead_masks(s, q, live, mine, place, game):
    """For the leader, ``(sure, to_partner, draw)`` (``solver.ordered``): the highest live
    card of each suit that no opponent can trump (void in it, holding trumps); his cards of
    the suits whose best card among the others' a partner holds, and no opponent can trump
    (its trumps apart); trumps to lead the weakest first: a player's without a partner (the
    declarer) while an opponent holds trumps, else those toward a partner's best trump."""
    suits = SUITS[game]
    trumps = suits[TRUMP]
    trumped = np.uint64(0)
    partners = np.uint64(0)
    their_trumps = np.uint64(0)
    for p in range(s[F.PLACES]):
        if p == place:
            continue
        hand = np.uint64(s[F.HANDS + p])
        if solver.same_side(q, p, place):
            partners |= hand
        elif hand & trumps:
            their_trumps |= hand & trumps
            for e in range(TRUMP):
                if not hand & suits[e]:
                    trumped |= suits[e]
    sure = solver.tops_in_order(live, IDENTITY, SPAN[game]) & ~trumped
    theirs = solver.tops_in_order(live & ~mine, IDENTITY, SPAN[game]) & partners & ~trumped
    to_partner = np.uint64(0)
    for e in range(TRUMP + 1):
        if theirs & suits[e]:
            to_partner |= suits[e]
    draw = trumps & mine if their_trumps and not partners else to_partner & trumps & mine
    return sure, to_partner & mine & ~trumps, draw


@numba.njit(inline="always", **JIT)
def _strongest_answer(s, place, led, game):
    """The strongest card ``place`` can play to a trick led in effective suit ``led``: his
    best of that suit, else his best trump; -1: none."""
    hand = np.uint64(s[F.HANDS + place])
    cards = hand & SUITS[game][led]
    if not cards:
        cards = hand & SUITS[game][TRUMP]
    return lsb(cards) if cards else -1


@numba.njit(inline="always", **JIT)
def _equal_reps(mine, others, game):
    """The mover's cards to search when the question counts points (the same as
    ``solver.equivalent_in_order``'s, without its ``rep``): cards equal in points lie next to
    each other only within a run, so each run's are looked up (``RUN_REPS``) instead of
    visiting every card (about 6 % less time on recorded ``pimc`` decisions)."""
    reps = mine & ALONE[game]  # a card in no run is searched
    for r in range(N_RUNS[game]):
        at = np.uint64(RUN_START[game, r])
        run = np.uint64(RUN_MASK[game, r])
        reps |= RUN_REPS[((mine >> at) & run) | (((others >> at) & run) << np.uint64(4))] << at
    return reps


@numba.njit(inline="always", **JIT)
def moves(s, q, out, rep, scores):
    """``list_moves`` as the search asks them: ``rep`` left unset (the search never reads it)."""
    return list_moves(s, q, out, rep, scores, False)


@numba.njit(inline="always", **JIT)
def list_moves(s, q, out, rep, scores, with_rep):
    """The positions to search for the place to move, one of each equivalent run, likely
    best first (``solver.equivalent_in_order``, whose ``rep`` is set only ``with_rep``;
    ``solver.ordered``).
    Leading: the suits' highest cards no opponent can trump, then the suits a partner's
    card wins, or the declarer's trumps while the defenders hold some. Following with one
    place still to play: a partner there who beats the trick makes it a partner's; an
    opponent there who beats a card makes it no winner."""
    place = s[F.TO_MOVE]
    game = s[F.GAME]
    eff = EFF_IN_ORDER[game]
    strength = STRENGTH_IN_ORDER[game]
    points = POINTS_IN_ORDER[game]
    n = s[F.TRICK_N]
    mine = np.uint64(s[F.HANDS + place])
    live = np.uint64(s[F.HANDS] | s[F.HANDS + 1] | s[F.HANDS + 2])
    for k in range(n):
        live |= bit(s[F.TRICK + k])
    mask = legal_mask(mine, s[F.TRICK] if n else -1, eff, SUITS[game])
    if q[Q_KIND] == solver.POINTS and not with_rep:
        reps = _equal_reps(mine, live & ~mine, game) & mask
    else:
        reps = solver.equivalent_in_order(mask, mask, mine, live & ~mine, IDENTITY, eff,
                                          strength, points, q[Q_KIND] == solver.POINTS, rep,
                                          False)
    if n == 0:
        sure, to_partner, draw = _lead_masks(s, q, live, mine, place, game)
        return solver.ordered(reps, -1, -1, False, sure, to_partner, draw, NO_CARDS, (eff, strength,
                              points), out, scores)
    led = eff[s[F.TRICK]]
    pos = trick_winner(s[F.TRICK:F.TRICK + n], n, eff, strength)
    best = s[F.TRICK + pos]
    partner = solver.same_side(q, _place(s, pos), place)
    covered = np.uint64(0)
    if not partner and n + 2 == s[F.PLACES]:
        last = _place(s, n + 1)
        answer = _strongest_answer(s, last, led, game)
        if answer >= 0 and solver.same_side(q, last, place):
            partner = beats(answer, best, led, eff, strength)
        elif answer >= 0:
            m = reps
            while m:
                c = lsb(m)
                m &= m - np.uint64(1)
                if beats(answer, c, led, eff, strength):
                    covered |= bit(c)
    return solver.ordered(reps, s[F.TRICK], best, partner, NO_CARDS, NO_CARDS, NO_CARDS, covered, (eff,
                          strength, points), out, scores)


@numba.njit(inline="always", **JIT_NRT)
def play_moves(state, q, out, rep, scores):
    """``moves`` of the card-play ``state``, as cards: ``out`` the cards to search, best first
    (their number returned), ``rep[card]`` the card searched in each legal card's stead (for
    the root of ``solver.root_counts`` and the ``pimc`` player, which step the card-play
    state)."""
    game = state[S.GAME]
    s = search_state(state)
    at = np.full(64, -1, np.int64)
    n = list_moves(s, q, out, at, scores, True)
    for k in range(n):
        out[k] = ORDER[game, out[k]]
    for i in range(ORDER.shape[1]):
        if at[i] >= 0:
            rep[ORDER[game, i]] = ORDER[game, at[i]]
    return n


__all__ = ["LENGTH", "bounds", "from_play", "key", "moves", "play_moves", "search_state", "step",
           "tally"]

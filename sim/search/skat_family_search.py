"""The Skat family's search state: the card play of ``skat`` and ``skat_en_deux`` reduced to
what the double-dummy search needs, its cards held in *order space* (``solver.card_order``:
by effective suit, the strongest first), and the search's hooks over it (``step``, ``tally``,
``key``, ``next_key``, ``bounds``, ``moves``; ``sim.search.solver``).

Why a state of its own: the card-play state (``sim.games.skat_cardplay``) carries the
contract, the offers, what each place has played and shown, for the kernels and the
observations; the search copies a state at every card and asks its hooks at every node.
Here a state is 22 numbers instead of 52, and the hands lie in order space, so the
equivalent cards, the highest live cards and the quick bounds read them without mapping
each mask (in all about a sixth less time a node, the same nodes). ``from_play`` makes one
from a card-play state in play; the rules stay in one place: legal cards and the trick's
winner are ``sim.tricks``' over the same game tables in order space, and the tests check
every solved count against plain searches over the card-play state itself.

The question (``sim.search.solve_skat_family.question``) is asked of the card-play state;
its own constants (``Q_CONSTANT``, ``Q_TOTAL``, ``Q_LAST_TRICK``) are named here, where
``tally`` reads them.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from sim.cards import bit
from sim.games.cardplay import PLAY, offsets
from sim.games.skat_cardplay import TRICKS, S
from sim.games.skat_values import EFF, JIT, JIT_NRT, NULL, POINTS, STRENGTH
from sim.search import solver
from sim.search.solver import Q_COUNTED, Q_GAME, Q_KIND, Q_MAXIMIZERS
from sim.search.sure_points import order_masks, sure_bounds
from sim.tricks import beats, legal_mask, trick_winner

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
    trick, or at the declarer's first trick in a null game (as ``skat_cardplay.step``)."""
    place = s[F.TO_MOVE]
    k = s[F.TRICK_N]
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
    """At a trick's start, the cards left and the leader; else 0."""
    if s[F.TRICK_N]:
        return np.uint64(0)
    live = np.uint64(s[F.HANDS] | s[F.HANDS + 1] | s[F.HANDS + 2])
    return live | (np.uint64(s[F.LEADER] + 1) << np.uint64(58))


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
    live = np.uint64(s[F.HANDS] | s[F.HANDS + 1] | s[F.HANDS + 2]) & ~bit(position)
    return live | (np.uint64(_place(s, won) + 1) << np.uint64(58))


@numba.njit(inline="always", **JIT)
def moves(s, q, out, rep, scores):
    """The positions to search for the place to move, one of each equivalent run, likely
    best first (``solver.equivalent_in_order``, ``solver.ordered``)."""
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
    reps = solver.equivalent_in_order(mask, mask, mine, live & ~mine, IDENTITY, eff, strength,
                                      points, q[Q_KIND] == solver.POINTS, rep)
    if n == 0:
        return solver.ordered(reps, -1, -1, False, solver.tops_in_order(live, IDENTITY, SPAN[game]),
                              eff, strength, points, out, scores)
    pos = trick_winner(s[F.TRICK:F.TRICK + n], n, eff, strength)
    winner = _place(s, pos)
    side = q[Q_MAXIMIZERS]
    partner = ((side >> winner) & 1) == ((side >> place) & 1)
    return solver.ordered(reps, s[F.TRICK], s[F.TRICK + pos], partner, np.uint64(0), eff,
                          strength, points, out, scores)


@numba.njit(inline="always", **JIT_NRT)
def play_moves(state, q, out, rep, scores):
    """``moves`` of the card-play ``state``, as cards: ``out`` the cards to search, best first
    (their number returned), ``rep[card]`` the card searched in each legal card's stead (for
    the root of ``solver.root_counts`` and the ``pimc`` player, which step the card-play
    state)."""
    game = state[S.GAME]
    s = search_state(state)
    at = np.full(64, -1, np.int64)
    n = moves(s, q, out, at, scores)
    for k in range(n):
        out[k] = ORDER[game, out[k]]
    for i in range(ORDER.shape[1]):
        if at[i] >= 0:
            rep[ORDER[game, i]] = ORDER[game, at[i]]
    return n


__all__ = ["LENGTH", "bounds", "from_play", "key", "moves", "play_moves", "search_state", "step",
           "tally"]

"""The toy game's card play as a state and pure functions (``sim.engine.cardplay``): six
two-card tricks, no trumps, follow suit if you can, the higher card of the suit led wins.

* ``legal``, ``step``, ``observe``, ``finished`` and ``start``: the rules, in one place for
  the kernel (``toygame.game``), the lookahead's rollouts and the tests;
* ``decide``: the random and the heuristic player, from the observation alone (the
  lookahead player is ``toygame.lookahead``, which plays out with these two);
* ``playout``: a state played to its end by those players.

A seat sees its hand, the card led, the cards each player has played, the points and the
tricks each has taken. With every card dealt, six to each player, the hand it cannot see
is the rest of the deck (``toygame.worlds``).
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from sim.cards import Deck, bit, lsb
from sim.engine import loops
from sim.engine.cardplay import PLAY, offsets
from sim.engine.net import NO_FEATURES
from sim.engine.seats import HEURISTIC
from sim.policies.random import random_card
from sim.tricks import build_table, legal_mask, trick_winner

N_PLAYERS = 2
DECK = Deck("toy", "AKQ", 1)
TRICKS = 6
HAND = 6
N_CARDS = DECK.n_cards

_TABLE = build_table(DECK, (), "AKQ")
EFF, STRENGTH, SUIT_MASKS = _TABLE.eff, _TABLE.strength, _TABLE.suit_masks
POINTS = DECK.points.astype(np.int64)


# --- what a seat sees ----------------------------------------------------------------------

class Observation(NamedTuple):
    """A seat's observation: field sizes (``offsets`` makes them offsets). Per-player
    fields by absolute seat."""

    SEAT: int = 1
    PHASE: int = 1
    HAND: int = 1
    LEGAL: int = 1
    LED: int = 1
    """The card led to the trick in play, -1 before its lead."""
    PLAYED: int = 2
    POINTS: int = 2
    TRICK_NO: int = 1
    TRICKS: int = 2
    """The tricks each player has taken (every trick is won in view of both)."""
    LENGTH: int = 0


OB, _ = offsets(Observation)


# --- the state -----------------------------------------------------------------------------

class State(NamedTuple):
    """The card-play state: field sizes, ``Header`` first."""

    TO_MOVE: int = 1
    PLAYER: int = 1
    PHASE: int = 1
    DONE: int = 1
    HANDS: int = 2
    LED: int = 1
    LEADER: int = 1
    TRICK_NO: int = 1
    POINTS: int = 2
    TRICKS: int = 2
    PLAYED: int = 2
    LAST: int = 1


S, STATE_LENGTH = offsets(State)


@numba.njit(cache=True)
def start(state, hands, leader):
    """The position before the first trick."""
    state[:] = 0
    state[S.HANDS] = np.int64(hands[0])
    state[S.HANDS + 1] = np.int64(hands[1])
    state[S.LED] = -1
    state[S.LEADER] = leader
    state[S.TO_MOVE] = leader
    state[S.PLAYER] = leader
    state[S.PHASE] = PLAY
    state[S.LAST] = -1


@numba.njit(cache=True)
def legal(state):
    """The cards the player to move may play."""
    hand = np.uint64(state[S.HANDS + state[S.TO_MOVE]])
    return legal_mask(hand, state[S.LED], EFF, SUIT_MASKS)


@numba.njit(cache=True)
def finished(state):
    """Whether all six tricks are played."""
    return state[S.DONE] == 1


@numba.njit(cache=True)
def step(state, card):
    """Play ``card`` for the player to move; the second card of a trick settles it."""
    if state[S.DONE]:
        return
    seat = state[S.TO_MOVE]
    state[S.HANDS + seat] &= ~np.int64(bit(card))
    state[S.PLAYED + seat] |= np.int64(bit(card))
    if state[S.LED] < 0:
        state[S.LED] = card
        state[S.TO_MOVE] = 1 - seat
    else:
        trick = np.array([state[S.LED], card], np.int64)
        winner = (state[S.LEADER] + trick_winner(trick, 2, EFF, STRENGTH)) % 2
        state[S.POINTS + winner] += POINTS[trick[0]] + POINTS[trick[1]]
        state[S.TRICKS + winner] += 1
        state[S.LED] = -1
        state[S.LEADER] = winner
        state[S.TO_MOVE] = winner
        state[S.TRICK_NO] += 1
        if state[S.TRICK_NO] == TRICKS:
            state[S.DONE] = 1
            state[S.LAST] = winner
    state[S.PLAYER] = state[S.TO_MOVE]


@numba.njit(cache=True)
def observe(state, seat, obs):
    """What ``seat`` sees: its hand, the card led, what both have played, the points and
    tricks taken."""
    obs[OB.SEAT] = seat
    obs[OB.PHASE] = state[S.PHASE]
    obs[OB.HAND] = state[S.HANDS + seat]
    obs[OB.LEGAL] = np.int64(legal(state)) if seat == state[S.TO_MOVE] else 0
    obs[OB.LED] = state[S.LED]
    obs[OB.TRICK_NO] = state[S.TRICK_NO]
    for s in range(N_PLAYERS):
        obs[OB.PLAYED + s] = state[S.PLAYED + s]
        obs[OB.POINTS + s] = state[S.POINTS + s]
        obs[OB.TRICKS + s] = state[S.TRICKS + s]


# --- who decides ---------------------------------------------------------------------------

@numba.njit(cache=True)
def decide(pol, obs, rng):
    """The card: ``heuristic`` plays its strongest legal card, ``random`` any legal card."""
    legal_cards = np.uint64(obs[OB.LEGAL])
    if pol == HEURISTIC:
        best = lsb(legal_cards)
        rest = legal_cards
        while rest:
            c = lsb(rest)
            if STRENGTH[c] > STRENGTH[best]:
                best = c
            rest &= rest - np.uint64(1)
        return best
    return random_card(legal_cards, rng)


@numba.njit(cache=True)
def playout(state, pols, rngs, net):
    """Play ``state`` to its end with the policies (random or heuristic, one per player,
    own streams; ``net`` is ``NO_NET``: the toy game has no learned player)."""
    loops.playout(state, pols, rngs, net, OB.LENGTH, finished, observe, step, decide, NO_FEATURES)

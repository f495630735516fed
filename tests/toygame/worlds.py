"""The toy game's worlds for the lookahead: the card-play state a seat cannot tell from the
true one, and what a finished state is worth.

Every card is dealt, six to each player, so the hand a seat cannot see is the rest of the
deck: the cards neither in its own hand nor played. Its observation therefore allows one
deal only, and ``world`` rebuilds the true position from it. (A game that leaves unseen
cards more than one place, a skat or face-down cards, deals them with
``sim.search.worlds.deal_world``; the toy has no such place.)
"""

from __future__ import annotations

import numba
import numpy as np

from sim.engine.cardplay import PLAY
from toygame.cardplay import DECK, OB, S

FULL = np.int64(DECK.full)
"""The mask of the whole deck."""


@numba.njit(cache=True)
def world(obs, rng, state):
    """Fill ``state`` with the position of the decision ``obs`` shows (the observing seat
    to move): the opponent holds every card neither seen in the seat's hand nor played, the
    only deal the observation allows, so ``rng`` is not drawn from."""
    seat = obs[OB.SEAT]
    opp = 1 - seat
    seen = obs[OB.HAND] | obs[OB.PLAYED] | obs[OB.PLAYED + 1]
    state[:] = 0
    state[S.TO_MOVE] = seat
    state[S.PLAYER] = seat
    state[S.PHASE] = PLAY
    state[S.HANDS + seat] = obs[OB.HAND]
    state[S.HANDS + opp] = FULL & ~seen
    state[S.LED] = obs[OB.LED]
    state[S.LEADER] = seat if obs[OB.LED] < 0 else opp
    state[S.TRICK_NO] = obs[OB.TRICK_NO]
    for p in range(2):
        state[S.POINTS + p] = obs[OB.POINTS + p]
        state[S.TRICKS + p] = obs[OB.TRICKS + p]
        state[S.PLAYED + p] = obs[OB.PLAYED + p]
    state[S.LAST] = -1


@numba.njit(cache=True)
def value(state, player):
    """A finished state's worth for ``player``: his card points minus the opponent's, his
    score minus the other's under the default rules. The bonus for the last trick is a
    scoring-only option, left out so that no option changes how the lookahead plays."""
    return float(state[S.POINTS + player] - state[S.POINTS + 1 - player])

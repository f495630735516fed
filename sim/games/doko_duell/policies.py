"""Which policy decides at a seat of the Doppelkopf duel: the one place where the kernel's
question goes to the heuristic or the random player (observation and own stream only)."""

from __future__ import annotations

import numba
import numpy as np

from sim.engine.seats import HEURISTIC
from sim.games.doko_duell import heuristic as H
from sim.games.doko_duell.observation import FIELDS as O
from sim.policies.random import random_card


@numba.njit(cache=True)
def decide_card(pol, obs, state):
    """The card to play, one of ``obs[LEGAL]``."""
    if pol == HEURISTIC:
        return H.play(obs)
    return random_card(np.uint64(obs[O.LEGAL]), state)


@numba.njit(cache=True)
def decide(pol, obs, state):
    """Policy ``pol``'s action at a card-play decision (``CardPlay.decide``): the duel's card
    play asks nothing but cards (``obs[PHASE]`` is always ``PH_PLAY``)."""
    return decide_card(pol, obs, state)

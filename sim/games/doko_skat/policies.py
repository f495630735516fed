"""Which policy decides at a Doko-Skat seat: the one place where the kernel's questions go
to the heuristic or the random player (observation and own stream only)."""

from __future__ import annotations

import numba
import numpy as np

from sim.engine.seats import HEURISTIC, KIND_BITS, KIND_MASK
from sim.games.doko_skat import heuristic as H
from sim.games.doko_skat.observation import FIELDS as O
from sim.games.doko_skat.values import JIT, N_GAMES
from sim.policies.random import random_card, random_cards
from sim.rng import below


@numba.njit(**JIT)
def decide_card(pol, obs, state):
    """The card to play, one of ``obs[LEGAL]``."""
    if (pol & KIND_MASK) == HEURISTIC:
        return H.play(obs)
    return random_card(np.uint64(obs[O.LEGAL]), state)


decide = decide_card
"""The card play's decision (``CardPlay.decide``): every card-play action is a card."""


@numba.njit(**JIT)
def decide_declaration(pol, obs, state):
    """A game code (0-8) or -1 to pass; ``random`` picks among the 10 uniformly. The
    heuristic's option bits are the games it may not declare (a restricted heuristic)."""
    if (pol & KIND_MASK) == HEURISTIC:
        return H.declare(obs, pol >> KIND_BITS)
    c = below(state, N_GAMES + 1)
    return -1 if c == N_GAMES else c


@numba.njit(**JIT)
def decide_discard(pol, obs, state):
    """The ``obs[N_DISCARD]`` cards to put away (a mask)."""
    if (pol & KIND_MASK) == HEURISTIC:
        return H.discard(obs)
    return random_cards(np.uint64(obs[O.HAND]), obs[O.N_DISCARD], state)

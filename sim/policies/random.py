"""The uniform random policy's building blocks: every choice offered is equally likely.

These kernels draw only from the deciding seat's own stream.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import nth_bit, popcount
from sim.rng import below


@numba.njit(cache=True, inline="always")
def random_card(legal, state):
    """A uniformly chosen card of the non-empty mask ``legal``."""
    return nth_bit(legal, below(state, popcount(legal)))


@numba.njit(cache=True, inline="always")
def coin(state):
    """True or False with equal chance."""
    return below(state, 2) == 1


@numba.njit(cache=True, inline="always")
def random_cards(cards, n, state):
    """A uniformly chosen set of ``n`` cards from ``cards`` (a mask), drawn one by one."""
    rest = np.uint64(cards)
    chosen = np.uint64(0)
    for k in range(n):
        c = np.uint64(1) << np.uint64(nth_bit(rest, below(state, popcount(rest))))
        chosen |= c
        rest &= ~c
    return chosen

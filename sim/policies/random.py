"""The uniform random policy's building blocks: every choice offered is equally likely.

These kernels draw only from the deciding seat's own stream.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import nth_bit, popcount
from sim.rng import below


@numba.njit(cache=True, inline="always")
def random_card(legal, state):  # type: ignore[no-untyped-def]
    """A uniformly chosen card of the non-empty mask ``legal``."""
    return nth_bit(legal, below(state, popcount(legal)))


@numba.njit(cache=True, inline="always")
def coin(state):  # type: ignore[no-untyped-def]
    """True or False with equal chance."""
    return below(state, 2) == 1


@numba.njit(cache=True, inline="always")
def random_pair(cards, state):  # type: ignore[no-untyped-def]
    """A uniformly chosen pair of cards from ``cards`` (as a mask)."""
    n = popcount(cards)
    i = below(state, n)
    j = below(state, n - 1)
    if j >= i:
        j += 1
    return (np.uint64(1) << np.uint64(nth_bit(cards, i))) | (np.uint64(1) << np.uint64(nth_bit(cards, j)))

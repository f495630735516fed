"""Counter-based random streams keyed by ``(seed, deal, stream)``.

Every random draw of a deal comes from a SplitMix64 sequence whose starting
point is a hash of the root seed, the deal's index and a stream number. A deal
therefore never depends on shard size, worker count, order or backend, and the
dealing stream is separate from each seat's policy stream, so rule variants
that change the play still see the *same* cards (common random numbers).

A stream's state is one ``uint64`` kept in a 1-element array, so compiled
kernels can advance it in place.
"""

from __future__ import annotations

import numba
import numpy as np

GOLDEN = np.uint64(0x9E3779B97F4A7C15)

STREAM_DEAL = 0
"""Stream for dealing and reshuffles; policies never draw from it."""
STREAM_SEAT0 = 1
"""Stream of seat 0's policy; seat ``s`` uses ``STREAM_SEAT0 + s``."""


@numba.njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64's finaliser: a bijective avalanche of a 64-bit word."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True, inline="always")
def stream_key(seed, deal, stream):
    """Starting state of stream ``stream`` of deal ``deal`` under root ``seed``."""
    k = mix64(np.uint64(seed) + GOLDEN)
    k = mix64(k ^ (np.uint64(deal) * np.uint64(0xD1B54A32D192ED03)))
    return mix64(k ^ (np.uint64(stream) * np.uint64(0xAEF17502108EF2D9) + GOLDEN))


@numba.njit(cache=True, inline="always")
def next_u64(state):
    """Next 64 random bits of the stream held in ``state[0]``."""
    state[0] += GOLDEN
    return mix64(state[0])


@numba.njit(cache=True, inline="always")
def below(state, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` (Lemire's multiply-shift).

    The bias is at most ``n / 2**32``, far below any Monte Carlo error here.
    """
    return np.int64(((next_u64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@numba.njit(cache=True, inline="always")
def uniform(state):
    """A uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True, inline="always")
def shuffle(state, perm):
    """Fill ``perm`` with a uniformly random permutation of ``0 .. len(perm)-1`` (Fisher-Yates)."""
    n = perm.shape[0]
    for i in range(n):
        perm[i] = i
    for i in range(n - 1, 0, -1):
        j = below(state, i + 1)
        perm[i], perm[j] = perm[j], perm[i]

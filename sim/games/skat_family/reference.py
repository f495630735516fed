"""A bare reference kernel: what the machine does for dealing plus 30 follow-suit plays.

``stichsim bench`` times it beside the games so their deals per second can be read as
a ratio to the machine rather than to last week's figure. Per deal it deals Skat's 32
cards to three hands of 10 (two to the skat) from the same counter-based stream as
``skat`` (``sim.rng``), then plays 10 tricks under the grand table: each seat plays the
lowest card of its legal set (``sim.tricks.legal_mask``), the trick goes to
``sim.tricks.trick_winner``. No bidding, no policy, no scoring. The seat that takes the
last trick is written per deal, so the compiler cannot drop the work.

The bench finds it through ``sim.registry.PACE_REFERENCE``.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import bit, lsb
from sim.engine.kernel import SHUFFLED
from sim.games.skat_family.bidding import deal_three_hands
from sim.games.skat_family.values import EFF, GRAND, STRENGTH, SUIT_MASKS
from sim.rng import STREAM_DEAL, stream_key
from sim.tricks import legal_mask, trick_winner

TRICKS = 10
PLAYS = 3 * TRICKS


@numba.njit(cache=True)
def reference_deal(seed, deal, state, perm, hands, trick, plays):
    """Deal ``deal`` and play it out; the 30 cards go to ``plays`` (in play order) and
    the seat that took the last trick is returned. Forehand (``(deal + 1) % 3``) leads."""
    eff = EFF[GRAND]
    strength = STRENGTH[GRAND]
    masks = SUIT_MASKS[GRAND]
    state[0] = stream_key(seed, deal, STREAM_DEAL)
    deal_three_hands(state, perm, hands, SHUFFLED)
    leader = (deal + 1) % 3
    for t in range(TRICKS):
        for k in range(3):
            seat = (leader + k) % 3
            card = lsb(legal_mask(hands[seat], trick[0] if k else -1, eff, masks))
            trick[k] = card
            plays[3 * t + k] = card
            hands[seat] &= ~bit(card)
        leader = (leader + trick_winner(trick, 3, eff, strength)) % 3
    return leader


@numba.njit(cache=True)
def reference_shard(seed, first, count, out):
    """Play deals ``first .. first + count - 1``; ``out[i]`` is deal ``first + i``'s last
    trick's winner. The scratch arrays are made once per shard, as the games do."""
    state = np.zeros(1, np.uint64)
    perm = np.zeros(32, np.int64)
    hands = np.zeros(3, np.uint64)
    trick = np.zeros(3, np.int64)
    plays = np.zeros(PLAYS, np.int64)
    for i in range(count):
        out[i] = reference_deal(seed, first + i, state, perm, hands, trick, plays)


def play_reference(seed: int, first: int, count: int) -> np.ndarray:
    """Each deal's last-trick winner (``int8``) for deals ``first .. first + count - 1``."""
    out = np.empty(count, np.int8)
    reference_shard(np.uint64(seed), first, count, out)
    return out


def reference_plays(seed: int, deal: int) -> tuple[np.ndarray, np.ndarray, int]:
    """One deal's dealt hands (``uint64`` masks), its 30 plays and last-trick winner,
    for checking the kernel against a plain re-implementation."""
    state = np.zeros(1, np.uint64)
    perm = np.zeros(32, np.int64)
    dealt = np.zeros(3, np.uint64)
    state[0] = stream_key(np.uint64(seed), deal, STREAM_DEAL)
    deal_three_hands(state, perm, dealt, SHUFFLED)
    hands = np.zeros(3, np.uint64)
    plays = np.zeros(PLAYS, np.int64)
    winner = reference_deal(np.uint64(seed), deal, state, perm, hands, np.zeros(3, np.int64), plays)
    return dealt, plays, int(winner)

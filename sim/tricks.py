"""Shared trick kernels: effective suit, legal moves and the trick's winner.

Every game type of every game here is described by one ``TrickTable``: for each
card (bit index) its *effective* suit (0-3 a plain suit, ``TRUMP`` = 4 for every
trump) and its strength inside that suit (higher beats lower), plus the mask of
each effective suit. Legal play is then one expression,
``follow = hand & suit_mask[eff[led]]; legal = follow if follow else hand``,
and the trick's winner is the strongest trump, else the strongest card of the
led suit; of two equally strong cards the one played first wins (a game that
wants otherwise passes ``second_wins`` for those cards).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np

from sim.cards import Deck

TRUMP = 4
"""Effective suit of every trump."""


@dataclass(frozen=True)
class TrickTable:
    """Effective suit, strength and suit masks of one game type, as kernel arrays."""

    eff: np.ndarray  # int8 [n_cards]
    strength: np.ndarray  # int16 [n_cards]
    suit_masks: np.ndarray  # uint64 [5]


def build_table(deck: Deck, trumps: Sequence[str], plain_order: str,
                plain_suit_of: dict[str, int] | None = None) -> TrickTable:
    """Tables for a game type.

    ``trumps`` lists the trump card names from the highest down; every other card
    belongs to its printed suit (or ``plain_suit_of[name]``) and ranks by its
    position in ``plain_order`` (highest first).
    """
    n = deck.n_cards
    eff = np.zeros(n, np.int8)
    strength = np.zeros(n, np.int16)
    masks = np.zeros(5, np.uint64)
    for i in range(n):
        name = deck.names[i]
        if name in trumps:
            eff[i] = TRUMP
            strength[i] = 100 + len(trumps) - trumps.index(name)
        else:
            eff[i] = (plain_suit_of or {}).get(name, deck.suit[i])
            strength[i] = len(plain_order) - plain_order.index(name[1])
        masks[eff[i]] |= np.uint64(1) << np.uint64(i)
    return TrickTable(eff, strength, masks)


def stack_tables(tables: Sequence[TrickTable]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Stack the tables of several game types into ``[game_type, ...]`` arrays."""
    return (np.stack([t.eff for t in tables]), np.stack([t.strength for t in tables]),
            np.stack([t.suit_masks for t in tables]))


@numba.njit(cache=True, inline="always")
def legal_mask(hand, led, eff, suit_masks):
    """Cards of ``hand`` that may be played when card ``led`` opened the trick (-1: none)."""
    if led < 0:
        return hand
    follow = hand & suit_masks[eff[led]]
    return follow if follow else hand


@numba.njit(cache=True, inline="always")
def beats(card, best, led_eff, eff, strength):
    """Whether ``card`` played later beats ``best`` (the trick's current winner)."""
    ec = eff[card]
    eb = eff[best]
    if ec == TRUMP:
        return eb != TRUMP or strength[card] > strength[best]
    return eb != TRUMP and ec == led_eff and strength[card] > strength[best]


@numba.njit(cache=True, inline="always")
def trick_winner(cards, n, eff, strength):
    """Position (0 .. n-1, in play order) of the card that wins the trick ``cards[:n]``."""
    led_eff = eff[cards[0]]
    best = 0
    for k in range(1, n):
        if beats(cards[k], cards[best], led_eff, eff, strength):
            best = k
    return best

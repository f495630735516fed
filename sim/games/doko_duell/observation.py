"""What one player of the Doppelkopf duel may see: the observation handed to policies.

An ``int64`` array; ``FIELDS`` names its fields (``Fields`` gives their sizes,
``cardplay.offsets`` makes them offsets). Card sets are masks over the 40-card deck (one
bit per physical card). A player sees his hand, the face-up cards of both pyramids (with
their positions) and every card played; never the other hand and never a face-down card,
his own included. What the play so far showed is public too: the suits each player failed
to follow (``VOIDS``), the A markers by where they came from, and the rules of the play.

>>> FIELDS.OWN_PYRAMID, FIELDS.OPP_PYRAMID, FIELDS.LENGTH
(22, 34, 56)
"""

from __future__ import annotations

from typing import NamedTuple

from sim.engine.cardplay import offsets


class Fields(NamedTuple):
    """The observation's fields and their sizes, in order (per-seat fields: one a seat,
    by absolute seat number)."""

    SEAT: int = 1
    """The observing player."""
    PHASE: int = 1
    """What is asked (``PH_PLAY``)."""
    HAND: int = 1
    """The player's hand."""
    LEGAL: int = 1
    """The cards he may play now."""
    TRICK_NO: int = 1
    """The trick in play (0 first)."""
    TRICK_N: int = 1
    """How many cards lie in it."""
    TRICK_LEADER: int = 1
    """Who led it."""
    TRICK_CARD: int = 1
    """The card led (-1: none yet)."""
    PLAYED: int = 2
    """The cards each player has played."""
    POINTS: int = 2
    """The card points each player has taken."""
    TRICKS: int = 2
    """The tricks each player has taken."""
    A_MARKERS: int = 2
    """The A markers each player holds."""
    B_MARKERS: int = 2
    """The B markers each player holds."""
    B_SUPPLY: int = 1
    """The B markers left in the box (-1: unlimited)."""
    STARTER: int = 1
    """Who led the first trick."""
    OWN_PRESENT: int = 1
    """The 12-bit mask of the player's pyramid positions still holding a card."""
    OPP_PRESENT: int = 1
    """The same for the opponent's pyramid."""
    OWN_PYRAMID: int = 12
    """The card at each position of the player's pyramid if it lies face up, else -1."""
    OPP_PYRAMID: int = 12
    """The same for the opponent's pyramid."""
    EQUAL_CARDS: int = 1
    """The ``equal_cards`` rule: 0 first wins, 1 second wins, 2 second heart ten."""
    FACE_UP_CARDS: int = 1
    """The mask of every face-up pyramid card (both pyramids)."""
    OPP_FREE: int = 1
    """The mask of the opponent's free cards (the same cards as the per-position fields)."""
    ONE_PER_TRICK: int = 1
    """The ``b_one_per_trick`` rule: 1 awards only a trick's first B event."""
    VOIDS: int = 2
    """Per player, the effective suits he failed to follow (bit ``1 << suit``, ``TRUMP`` = 4
    for trump): his hand holds none of them (his face-down pyramid cards may)."""
    A_SETUP: int = 2
    """Per player, his top trumps that lay face up at the deal (whether or not
    ``a_marker_on_setup`` awards them)."""
    A_PLAY: int = 2
    """Per player, his A markers for top trumps turned up or played from the hand."""
    LENGTH: int = 0
    """Where the observation ends: its length."""


FIELDS, _ = offsets(Fields)
"""The field offsets (``FIELDS.POINTS + seat``, ``FIELDS.OWN_PYRAMID + k``)."""
CARD_SETS = ("HAND", "PLAYED", "FACE_UP_CARDS", "OPP_FREE")
"""The fields that are card masks (a Python player reads them as card names)."""
CARD_CODES = ("TRICK_CARD", "OWN_PYRAMID", "OPP_PYRAMID")
"""The fields that hold single cards by their code, -1 for none."""

PH_PLAY = 0
"""The one decision phase: play a card."""

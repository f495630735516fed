"""What one seat of a Skat table may see: the observation layout handed to policies.

An observation is a flat ``int64`` array; ``FIELDS`` names its fields (``Fields`` gives
their sizes, ``cardplay.offsets`` makes them offsets). Card sets are masks. A policy
receives this array and its own random stream, never the deal: the engine fills only what
the seat may know (its hand, the bidding, the cards played so far, the skat only if it
picked it up, an open declarer's hand, in ``skat_en_deux`` the blind once it is face up
and, for the defender, the other hand he plays).

Seats are places at the table: in ``skat`` the three players; in ``skat_en_deux``
forehand 0, the blind 1 and rearhand 2 (in its ramsch, forehand 0 and rearhand 1).

>>> FIELDS.SEAT, FIELDS.PLAYED + 2, FIELDS.LENGTH
(0, 17, 53)
"""

from __future__ import annotations

from typing import NamedTuple

from sim.engine.cardplay import offsets


class Fields(NamedTuple):
    """The observation's fields and their sizes, in order (per-seat fields: one a seat)."""

    SEAT: int = 1
    """The observing seat."""
    POSITION: int = 1
    """Its position: 0 forehand, 1 middlehand, 2 rearhand."""
    PHASE: int = 1
    """What is asked (``PH_*``)."""
    HAND: int = 1
    """The seat's cards."""
    LEGAL: int = 1
    """The cards it may play now."""
    BID: int = 1
    """The highest bid so far (0: none)."""
    NEXT_BID: int = 1
    """The value the bidder would name next."""
    DECLARER: int = 1
    """The declarer's seat (-1: none yet, or ramsch)."""
    GAME: int = 1
    """The game declared (-1: not yet)."""
    HAND_GAME: int = 1
    """1 when the declarer plays from the hand (did not pick up the skat)."""
    OUVERT: int = 1
    """1 in an open game."""
    SCHNEIDER_ANN: int = 1
    """1 when Schneider is announced."""
    SCHWARZ_ANN: int = 1
    """1 when Schwarz is announced."""
    SKAT: int = 1
    """The skat, if this seat has seen it (0 otherwise)."""
    OPEN_HAND: int = 1
    """An open declarer's cards still in his hand (0 otherwise)."""
    PLAYED: int = 3
    """The cards each seat has played."""
    TRICK_NO: int = 1
    """The trick in play (0 first)."""
    TRICK_N: int = 1
    """How many cards lie in it."""
    TRICK_LEADER: int = 1
    """Who led it."""
    TRICK_CARD: int = 3
    """Its cards in the order played (-1: not yet)."""
    VOIDS: int = 1
    """Bit ``5 * seat + eff`` set when ``seat`` has shown it cannot follow effective suit
    ``eff``."""
    POINTS: int = 3
    """The card points each seat has taken."""
    TRICKS: int = 3
    """The tricks each seat has taken."""
    FOREHAND: int = 1
    """The forehand's seat."""
    RAMSCH: int = 1
    """1 when the deal is played as a ramsch."""
    PASSED: int = 1
    """Bit ``seat`` set for each seat that passed in the bidding."""
    SEAT_BID: int = 3
    """The highest value each seat has bid or held (0: none)."""
    TRICK_SIZE: int = 1
    """The number of cards in a trick."""
    BLIND: int = 1
    """``skat_en_deux``: the blind's face-up cards (0 while face down)."""
    BLIND_SEAT: int = 1
    """``skat_en_deux``: the blind's seat."""
    OPEN_LEVEL: int = 1
    """``skat_en_deux``: how open the declarer plays (0 closed, 1 half, 2 open)."""
    MAX_OPEN: int = 1
    """The highest open level the rules allow a pickup game."""
    KNOWN: int = 1
    """Further cards whose place the deciding player knows (the defender's other hand in
    ``skat_en_deux``)."""
    OFFER: int = 1
    """The latest shortcut offer (``OFFER_*``): the one to answer in ``PH_ACCEPT``."""
    REJECTED: int = 1
    """1 once the first offer was rejected."""
    OFFERS_LEFT: int = 1
    """The offers the defender may still make (a mask over ``OFFER_RAUS``, ``OFFER_STICH``;
    no offer is always open); at Skat-en-deux's declaration those the rules allow."""
    CONTRA: int = 1
    """1 once Contra is said."""
    RE: int = 1
    """1 once Re is said."""
    GIVE_UP_GAMES: int = 1
    """``skat_en_deux``, ``PH_GIVE_UP`` after the pickup: the games the declarer may name to
    give up (a mask over game codes; 0: a give-up at 18, which names none)."""
    SKAT_TO_LOSER: int = 1
    """``skat``'s ramsch: 1 when the skat's points go to the loser (``ramsch_skat`` ``loser``),
    0 when they go to the taker of the last trick (shown from the deal on, and in a ramsch's
    card play)."""
    CONTRA_RE: int = 1
    """``skat_en_deux``: 1 when a rejected first offer raises the value and Contra and Re
    follow (``contra_re``)."""
    NEXT_LEADER: int = 1
    """The place that leads the next trick (between tricks, the last trick's taker)."""
    ALL_PASS_RAMSCH: int = 1
    """1 when the rules play a ramsch after every seat passed (``all_pass`` ``ramsch``),
    shown from the deal on with ``SKAT_TO_LOSER``: what passing risks."""
    LENGTH: int = 0
    """Where the observation ends: its length."""


FIELDS, _ = offsets(Fields)
"""The field offsets (``FIELDS.PLAYED + seat``, ``FIELDS.TRICK_CARD + k``)."""
CARD_SETS = ("HAND", "SKAT", "OPEN_HAND", "PLAYED", "BLIND", "KNOWN")
"""The fields that are card masks (a Python player reads them as card names)."""
CARD_CODES = ("TRICK_CARD",)
"""The fields that hold single cards by their code, -1 for none."""

PH_BID, PH_ANSWER, PH_FH18, PH_PICKUP, PH_DISCARD, PH_DECLARE, PH_PLAY, PH_GIVE_UP, PH_OFFER, \
    PH_ACCEPT, PH_CONTRA, PH_RE = range(12)
"""Decision phases."""

DECL_OUVERT = 8
DECL_SCHNEIDER = 16
DECL_SCHWARZ = 32
DECL_OPEN_SHIFT = 6
"""A declaration is ``game | flags``: bits for ouvert and the announcements; in
``skat_en_deux`` the open level (0-2) sits at ``DECL_OPEN_SHIFT`` (bits 6-7)."""

OFFER_NONE, OFFER_RAUS, OFFER_STICH = range(3)
"""Shortcut offers: none, "raus", "Stich"."""
BOTH_OFFERS = (1 << OFFER_RAUS) | (1 << OFFER_STICH)
"""``OFFERS_LEFT`` before any offer: both kinds still open."""

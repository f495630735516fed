"""What one player of Doko-Skat may see: the observation handed to policies.

An ``int64`` array; ``FIELDS`` names its fields (``Fields`` gives their sizes,
``cardplay.offsets`` makes them offsets). Card sets are masks over the 48-card deck (one
bit per physical card). Before the first round a player sees his three first-round cards
and the turned-up card; every card played (with who played it) as it is played, and who
took the turned-up card's copies; after the first round his stock, the teams (``LONE``)
and, the lone player, the skat; every declaration and pass; in a redeal the second
turned-up card and the cards he was given. Never another player's cards, stock, skat or
discards.

>>> FIELDS.PLAYED + 1, FIELDS.VOIDS, FIELDS.LENGTH
(15, 29, 57)
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
    """What is asked (``PH_*``)."""
    HAND: int = 1
    """The cards the player may play or discard now (his first-round cards in the first
    round)."""
    LEGAL: int = 1
    """The cards he may play now."""
    FOREHAND: int = 1
    """The forehand's seat."""
    TRICK_NO: int = 1
    """The trick in play (0 first)."""
    TRICK_N: int = 1
    """How many cards lie in it."""
    TRICK_LEADER: int = 1
    """Who led it."""
    TRICK_CARD: int = 3
    """Its cards in the order played (-1: not yet)."""
    FR_PLAYED: int = 3
    """The first-round cards each seat played."""
    PLAYED: int = 3
    """The main-game cards each seat played."""
    POINTS: int = 3
    """The main-game card points each seat took."""
    TRICKS: int = 3
    """The main-game tricks each seat took."""
    FR_TRICKS: int = 3
    """The first-round tricks each seat took."""
    FR_POINTS: int = 3
    """Their card points."""
    VOIDS: int = 3
    """The effective suits each seat has shown it lacks in the main game (bit 0-3 plain,
    bit 4 trump)."""
    FR_VOIDS: int = 3
    """The same for the first round, under its trick table: what a failure to follow there
    shows of the seat's first-round cards left."""
    FR_COPIES: int = 3
    """The copies of the turned-up card each seat took in first-round tricks (the teams
    under ``team_cards = won``)."""
    FR_LAST: int = 1
    """Who took the first round's last trick (-1 while it is in play)."""
    TURNED_UP: int = 1
    """The turned-up card."""
    FR_GAME: int = 1
    """The first round's game code (``values``; -1 while undecided)."""
    FR_TABLE: int = 1
    """Its trick table."""
    GAME: int = 1
    """The main game's code (-1 while undecided)."""
    TABLE: int = 1
    """Its trick table."""
    LONE: int = 1
    """The lone seat once the first round is over (-1 before)."""
    DECLARER: int = 1
    """Who named a game (-1: nobody yet)."""
    NEXT_SPEAKER: int = 1
    """Who names a game after the deciding seat if it passes (-1: nobody, a pass then
    means the redeal)."""
    REDEAL: int = 1
    """1 when nobody declared."""
    SECOND_TURNED_UP: int = 1
    """The redeal's turned-up card."""
    OUT: int = 1
    """Cards out of the main game for everyone (the first-round tricks; none in a
    redeal)."""
    DISCARDED: int = 1
    """The player's own discards."""
    SKAT: int = 1
    """The skat, for the lone player after the first round (0 for the others)."""
    N_DISCARD: int = 1
    """Cards to discard now."""
    TEAM_CARDS: int = 1
    """The rule ``team_cards`` (its code: 0 first_round, 1 all, 2 won)."""
    COUNT_FIRST_ROUND: int = 1
    """The rule ``first_round_points``."""
    BRIDGE_SKAT: int = 1
    """The rule ``bridge_order`` (1: skat)."""
    MAIN_LEAD: int = 1
    """The rule ``main_lead`` (its code: 0 forehand, 1 first_round_winner, 2 declarer)."""
    LENGTH: int = 0
    """Where the observation ends: its length."""


FIELDS, _ = offsets(Fields)
"""The field offsets (``FIELDS.PLAYED + seat``, ``FIELDS.TRICK_CARD + k``)."""
CARD_SETS = ("HAND", "FR_PLAYED", "PLAYED", "OUT", "DISCARDED", "SKAT")
"""The fields that are card masks (a Python player reads them as card names)."""
CARD_CODES = ("TRICK_CARD", "TURNED_UP", "SECOND_TURNED_UP")
"""The fields that hold single cards by their code, -1 for none."""

PH_FIRST_ROUND, PH_DECLARE, PH_DISCARD, PH_PLAY = range(4)
"""Decision phases."""

"""What one seat of a Skat table may see: the observation layout handed to policies.

An observation is a flat ``int64`` array; these constants name its fields.
Card sets are masks. A policy receives this array and its own random stream,
never the deal: the engine fills only what the seat may know (its hand, the
bidding, the cards played so far, the skat only if it picked it up, an open
declarer's hand, in ``skat_en_deux`` the blind once it is face up and, for the
defender, the other hand he plays).

Seats are places at the table: in ``skat`` the three players; in ``skat_en_deux``
forehand 0, the blind 1 and rearhand 2 (in its ramsch, forehand 0 and rearhand 1).
"""

from __future__ import annotations

(SEAT, POSITION, PHASE, HAND, LEGAL, BID, NEXT_BID, DECLARER, GAME, HAND_GAME, OUVERT,
 SCHNEIDER_ANN, SCHWARZ_ANN, SKAT, OPEN_HAND, PLAYED, _P1, _P2, TRICK_NO, TRICK_N,
 TRICK_LEADER, TRICK_CARD, _T1, _T2, VOIDS, POINTS, _Q1, _Q2, TRICKS, _K1, _K2, FOREHAND,
 RAMSCH, PASSED, SEAT_BID, _B1, _B2, TRICK_SIZE, BLIND, BLIND_SEAT, OPEN_LEVEL, MAX_OPEN,
 KNOWN, OFFER, REJECTED, CONTRA, RE, LENGTH) = range(48)
"""Field offsets. ``PLAYED + s``, ``TRICK_CARD + k``, ``POINTS + s``, ``TRICKS + s``,
``SEAT_BID + s`` are per seat / per trick position; ``VOIDS`` has bit ``5 * seat + eff``
set when ``seat`` has shown it cannot follow effective suit ``eff``. ``TRICK_SIZE`` is
the number of cards in a trick, ``MAX_OPEN`` the highest open level the rules allow a
pickup game, ``KNOWN`` further cards whose place the deciding player knows (the
defender's other hand in ``skat_en_deux``), ``OFFER`` 0/1/2 for no offer, "raus",
"Stich"."""

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

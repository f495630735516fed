"""What one player of the Doppelkopf duel may see: the observation handed to policies.

An ``int64`` array; these constants name its fields. Card sets are masks over the
40-card deck (one bit per physical card). A player sees his hand, the face-up cards
of both pyramids (with their positions) and every card played; never the other
hand and never a face-down card, his own included.
"""

from __future__ import annotations

(SEAT, PHASE, HAND, LEGAL, TRICK_NO, TRICK_N, TRICK_LEADER, TRICK_CARD, PLAYED, _P1, POINTS,
 _Q1, TRICKS, _K1, A_MARKERS, _A1, B_MARKERS, _B1, B_SUPPLY, STARTER, OWN_PRESENT,
 OPP_PRESENT, OWN_PYRAMID) = range(23)
OPP_PYRAMID = OWN_PYRAMID + 12
EQUAL_CARDS = OPP_PYRAMID + 12
FACE_UP_CARDS = EQUAL_CARDS + 1
OPP_FREE = FACE_UP_CARDS + 1
LENGTH = OPP_FREE + 1
"""Field offsets. ``PLAYED + s``, ``POINTS + s``, ``TRICKS + s``, ``A_MARKERS + s``,
``B_MARKERS + s`` per seat (0/1, absolute); ``OWN_PRESENT`` / ``OPP_PRESENT`` the
12-bit masks of pyramid positions still holding a card; ``OWN_PYRAMID + k`` /
``OPP_PYRAMID + k`` the card at position ``k`` if it lies face up, else -1;
``B_SUPPLY`` the B markers left in the box (-1: unlimited); ``EQUAL_CARDS`` the
``equal_cards`` rule (0 first wins, 1 second wins, 2 second heart ten);
``FACE_UP_CARDS`` the mask of every face-up pyramid card (both pyramids) and ``OPP_FREE``
the mask of the opponent's free ones (the same cards as the per-position fields)."""

PH_PLAY = 0

"""The learned player's input in the Doppelkopf duel: the observation read as feature bits
(``sim.engine.net``), the players counted from the one to move.

His hand and legal cards, the cards each player played, the card led, every face-up pyramid
card and the opponent's free ones, the pyramid positions still holding a card on both sides;
the trick's leader, number and size, who started, each player's card points, tricks and A and
B markers, the B markers left, the suits each failed to follow, and the rules of the play.
"""

from __future__ import annotations

from sim.engine.net import BUCKET, MASK, ONE_HOT, SEAT, spec
from sim.games.doko_duell.observation import FIELDS as O
from sim.games.doko_duell.observation import PH_PLAY, Fields

CARDS = 40

FEATURES = spec(
    (O.SEAT, 2, O.PHASE, 1 << PH_PLAY, O.LEGAL),
    [(MASK, O.HAND, CARDS, 0, 0), (MASK, O.LEGAL, CARDS, 0, 0), (MASK, O.PLAYED, CARDS, 0, 1),
     (ONE_HOT, O.TRICK_CARD, CARDS, 0, 0), (MASK, O.FACE_UP_CARDS, CARDS, 0, 0),
     (MASK, O.OPP_FREE, CARDS, 0, 0), (MASK, O.OWN_PRESENT, 12, 0, 0), (MASK, O.OPP_PRESENT, 12, 0, 0),
     (SEAT, O.TRICK_LEADER, 2, 0, 0), (ONE_HOT, O.TRICK_N, 2, 0, 0), (ONE_HOT, O.TRICK_NO, 20, 0, 0),
     (SEAT, O.STARTER, 2, 0, 0), (BUCKET, O.POINTS, 49, 5, 1), (ONE_HOT, O.TRICKS, 21, 0, 1),
     (ONE_HOT, O.A_MARKERS, 8, 0, 1), (ONE_HOT, O.B_MARKERS, 8, 0, 1), (ONE_HOT, O.B_SUPPLY, 14, -1, 0),
     (MASK, O.VOIDS, 5, 0, 1), (ONE_HOT, O.A_SETUP, 5, 0, 1), (ONE_HOT, O.A_PLAY, 5, 0, 1),
     (ONE_HOT, O.EQUAL_CARDS, 3, 0, 0), (MASK, O.ONE_PER_TRICK, 1, 0, 0)],
    CARDS, Fields)
"""The duel's feature spec."""
ROWS = FEATURES.rows
"""The spec's rows, as the kernel reads them (a global array is a constant to numba)."""

"""The learned player's input in Skat and Skat-en-deux: the observation read as feature bits
(``sim.engine.net``), seats counted from the seat to move.

Every card the seat can place: its hand and legal cards, the skat it saw, an open declarer's
hand, the blind's face-up cards and the defender's other hand (Skat-en-deux), the cards each
seat played, the trick's cards in order; then the contract (declarer, game, hand, ouvert,
announcements, open level, ramsch, Contra and Re), the trick's leader and size, the trick
number, the suits each seat failed to follow, and each seat's card points and tricks.
The network plays the cards (``PH_PLAY``); offers, their answers, Contra and Re stay the
heuristic's. The bidding's fields are left out: the card-play state does not show them
(``cardplay.observe``), so the decisions it is taught from (``sim.learn.decisions``) could not.
"""

from __future__ import annotations

from sim.engine.net import BUCKET, MASK, ONE_HOT, SEAT, SEAT_BITS, spec
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.observation import PH_PLAY, Fields

CARDS = 32

FEATURES = spec(
    (O.SEAT, 3, O.PHASE, 1 << PH_PLAY, O.LEGAL),
    [(MASK, O.HAND, CARDS, 0, 0), (MASK, O.LEGAL, CARDS, 0, 0), (MASK, O.SKAT, CARDS, 0, 0),
     (MASK, O.OPEN_HAND, CARDS, 0, 0), (MASK, O.BLIND, CARDS, 0, 0), (MASK, O.KNOWN, CARDS, 0, 0),
     (MASK, O.PLAYED, CARDS, 0, 1),
     *[(ONE_HOT, O.TRICK_CARD + k, CARDS, 0, 0) for k in range(3)],
     (SEAT, O.TRICK_LEADER, 3, 0, 0), (ONE_HOT, O.TRICK_N, 3, 0, 0), (ONE_HOT, O.TRICK_NO, 10, 0, 0),
     (SEAT, O.DECLARER, 3, 0, 0), (SEAT, O.FOREHAND, 3, 0, 0), (SEAT, O.BLIND_SEAT, 3, 0, 0),
     (ONE_HOT, O.GAME, 7, 0, 0), (MASK, O.HAND_GAME, 1, 0, 0), (MASK, O.OUVERT, 1, 0, 0),
     (MASK, O.SCHNEIDER_ANN, 1, 0, 0), (MASK, O.SCHWARZ_ANN, 1, 0, 0), (MASK, O.RAMSCH, 1, 0, 0),
     (MASK, O.SKAT_TO_LOSER, 1, 0, 0), (ONE_HOT, O.OPEN_LEVEL, 3, 0, 0), (MASK, O.CONTRA, 1, 0, 0),
     (MASK, O.RE, 1, 0, 0),
     (SEAT_BITS, O.VOIDS, 5, 5, 1), (BUCKET, O.POINTS, 25, 5, 1), (ONE_HOT, O.TRICKS, 11, 0, 1)],
    CARDS, Fields)
"""The Skat family's feature spec (both games; each trains its own weights)."""
ROWS = FEATURES.rows
"""The spec's rows, as the kernel reads them (a global array is a constant to numba)."""

"""The learned player's input in Doko-Skat: the observation read as feature bits
(``sim.engine.net``), seats counted from the seat to move.

His cards and legal cards, the cards each seat played in each round, the trick's cards in
order, the turned-up card, the cards out of the main game, his discards and (the lone
player) the skat; the games and trick tables of both rounds, the
lone player, the declarer and the forehand; the trick's leader, size and number, each seat's
card points and tricks in both rounds, the suits each failed to follow, the copies of the
turned-up card each took in the first round and who took its last trick, the rules of the
play, and which round is in play. The network plays the cards of both rounds: the first
round's, which decide the teams, and the main game's (it is taught from both:
``CardPlay.opening`` and ``CardPlay.start``, ``sim.learn.decisions``).
"""

from __future__ import annotations

from sim.engine.net import BUCKET, MASK, ONE_HOT, SEAT, spec
from sim.games.doko_skat.observation import FIELDS as O
from sim.games.doko_skat.observation import PH_FIRST_ROUND, PH_PLAY, Fields

CARDS = 48

FEATURES = spec(
    (O.SEAT, 3, O.PHASE, 1 << PH_FIRST_ROUND | 1 << PH_PLAY, O.LEGAL),
    [(ONE_HOT, O.PHASE, PH_PLAY + 1, 0, 0), (MASK, O.HAND, CARDS, 0, 0), (MASK, O.LEGAL, CARDS, 0, 0),
     (MASK, O.PLAYED, CARDS, 0, 1), (MASK, O.FR_PLAYED, CARDS, 0, 1),
     *[(ONE_HOT, O.TRICK_CARD + k, CARDS, 0, 0) for k in range(3)],
     (ONE_HOT, O.TURNED_UP, CARDS, 0, 0), (MASK, O.OUT, CARDS, 0, 0), (MASK, O.DISCARDED, CARDS, 0, 0),
     (MASK, O.SKAT, CARDS, 0, 0), (ONE_HOT, O.FR_GAME, 10, -1, 0), (ONE_HOT, O.GAME, 10, -1, 0),
     (ONE_HOT, O.FR_TABLE, 12, 0, 0), (ONE_HOT, O.TABLE, 12, 0, 0), (SEAT, O.LONE, 3, 0, 0),
     (SEAT, O.DECLARER, 3, 0, 0), (SEAT, O.FOREHAND, 3, 0, 0), (MASK, O.REDEAL, 1, 0, 0),
     (SEAT, O.TRICK_LEADER, 3, 0, 0), (ONE_HOT, O.TRICK_N, 3, 0, 0), (ONE_HOT, O.TRICK_NO, 16, 0, 0),
     (BUCKET, O.POINTS, 49, 5, 1), (ONE_HOT, O.TRICKS, 17, 0, 1), (BUCKET, O.FR_POINTS, 20, 5, 1),
     (ONE_HOT, O.FR_TRICKS, 4, 0, 1), (MASK, O.VOIDS, 5, 0, 1), (MASK, O.FR_VOIDS, 5, 0, 1),
     (ONE_HOT, O.FR_COPIES, 3, 0, 1), (SEAT, O.FR_LAST, 3, 0, 0),
     (ONE_HOT, O.TEAM_CARDS, 3, 0, 0), (MASK, O.COUNT_FIRST_ROUND, 1, 0, 0), (MASK, O.BRIDGE_SKAT, 1, 0, 0),
     (ONE_HOT, O.MAIN_LEAD, 3, 0, 0)],
    CARDS, Fields)
"""Doko-Skat's feature spec."""
ROWS = FEATURES.rows
"""The spec's rows, as the kernel reads them (a global array is a constant to numba)."""

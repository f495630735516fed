"""The learned player's input in Skat and Skat-en-deux: the observation read as feature bits
(``sim.engine.net``), seats counted from the seat to move.

Every card the seat can place: its hand and legal cards, the skat it saw, an open declarer's
hand, the blind's face-up cards and the defender's other hand (Skat-en-deux), the cards each
seat played, the trick's cards in order; then the contract (declarer, game, hand, ouvert,
announcements, open level, ramsch, Contra and Re), the trick's leader and size, the trick
number, the suits each seat failed to follow, and each seat's card points and tricks.
Skat's network plays the cards (``PH_PLAY``); Skat-en-deux's (``EN_DEUX``) reads the same
bits and more, the decision asked and the offers' state, and plays its offers, their answers,
Contra and Re besides, where its weights say so (``sim.engine.net``'s ``plays``). The
bidding's fields are left out: the card-play state does not show them (``cardplay.observe``),
so the decisions it is taught from (``sim.learn.decisions``) could not.
"""

from __future__ import annotations

from sim.engine.net import BUCKET, MASK, ONE_HOT, SEAT, SEAT_BITS, spec
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.observation import PH_ACCEPT, PH_CONTRA, PH_OFFER, PH_PLAY, PH_RE, Fields

CARDS = 32

CARD_ROWS = [
    (MASK, O.HAND, CARDS, 0, 0), (MASK, O.LEGAL, CARDS, 0, 0), (MASK, O.SKAT, CARDS, 0, 0),
    (MASK, O.OPEN_HAND, CARDS, 0, 0), (MASK, O.BLIND, CARDS, 0, 0), (MASK, O.KNOWN, CARDS, 0, 0),
    (MASK, O.PLAYED, CARDS, 0, 1),
    *[(ONE_HOT, O.TRICK_CARD + k, CARDS, 0, 0) for k in range(3)],
    (SEAT, O.TRICK_LEADER, 3, 0, 0), (ONE_HOT, O.TRICK_N, 3, 0, 0), (ONE_HOT, O.TRICK_NO, 10, 0, 0),
    (SEAT, O.DECLARER, 3, 0, 0), (SEAT, O.FOREHAND, 3, 0, 0), (SEAT, O.BLIND_SEAT, 3, 0, 0),
    (ONE_HOT, O.GAME, 7, 0, 0), (MASK, O.HAND_GAME, 1, 0, 0), (MASK, O.OUVERT, 1, 0, 0),
    (MASK, O.SCHNEIDER_ANN, 1, 0, 0), (MASK, O.SCHWARZ_ANN, 1, 0, 0), (MASK, O.RAMSCH, 1, 0, 0),
    (MASK, O.SKAT_TO_LOSER, 1, 0, 0), (ONE_HOT, O.OPEN_LEVEL, 3, 0, 0), (MASK, O.CONTRA, 1, 0, 0),
    (MASK, O.RE, 1, 0, 0),
    (SEAT_BITS, O.VOIDS, 5, 5, 1), (BUCKET, O.POINTS, 25, 5, 1), (ONE_HOT, O.TRICKS, 11, 0, 1)]
"""What a seat knows of the card play, as feature rows (both games)."""

FEATURES = spec((O.SEAT, 3, O.PHASE, 1 << PH_PLAY, O.LEGAL), CARD_ROWS, CARDS, Fields)
"""Skat's feature spec: the cards."""
ROWS = FEATURES.rows
"""The spec's rows, as the kernel reads them (a global array is a constant to numba)."""

BETWEEN_TRICKS = 1 << PH_OFFER | 1 << PH_ACCEPT | 1 << PH_CONTRA | 1 << PH_RE
"""Skat-en-deux's decisions between tricks: the defender's offer, its answer, Contra, Re
(their actions are the codes 0-2 and no/yes, ``cardplay.legal``)."""
EN_DEUX = spec(
    (O.SEAT, 3, O.PHASE, 1 << PH_PLAY | BETWEEN_TRICKS, O.LEGAL),
    [*CARD_ROWS, (ONE_HOT, O.PHASE, PH_RE + 1 - PH_PLAY, PH_PLAY, 0), (ONE_HOT, O.OFFER, 3, 0, 0),
     (MASK, O.OFFERS_LEFT, 3, 0, 0), (MASK, O.REJECTED, 1, 0, 0), (MASK, O.CONTRA_RE, 1, 0, 0),
     (SEAT, O.NEXT_LEADER, 3, 0, 0)],
    CARDS, Fields)
"""Skat-en-deux's feature spec: the cards, and the decision asked between tricks."""
EN_DEUX_ROWS = EN_DEUX.rows
"""``EN_DEUX``'s rows, as the kernel reads them."""

"""The learned player's input in Skat and Skat-en-deux: the observation read as feature bits
(``sim.engine.net``), seats counted from the seat to move.

Every card the seat can place: its hand and legal cards, the skat it saw, an open declarer's
hand, the blind's face-up cards and the defender's other hand (Skat-en-deux), the cards each
seat played, the trick's cards in order; then the contract (declarer, game, hand, ouvert,
announcements, open level, ramsch, Contra and Re), the trick's leader and size, the trick
number, the suits each seat failed to follow, and each seat's card points and tricks.
Both games' networks read besides the decision asked, the seat's position and the bid, and
may play, where their weights say so (``sim.engine.net``'s ``plays``), the cards and the
yes-or-no questions before the card play (bid or pass, hold, pick up; in Skat-en-deux also
take 18 and give up at 18: the answers 0 and 1 in ``LEGAL``, ``bidding``); Skat-en-deux's
(``EN_DEUX``) reads the offers' state too and may play its offers, their answers, Contra and
Re between tricks.
The bidding's other fields (``NEXT_BID``, ``PASSED``, ``SEAT_BID``, ``ALL_PASS_RAMSCH``) are
left out: the card-play state does not show them (``cardplay.observe`` leaves them as they
are), so a card decision taught from it (``sim.learn.decisions``) would read them otherwise
than the kernel shows them. The bid so far and the phase tell the value in question.
"""

from __future__ import annotations

import numba

from sim.engine.net import BUCKET, MASK, ONE_HOT, SEAT, SEAT_BITS, spec
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.observation import (
    PH_ACCEPT,
    PH_ANSWER,
    PH_BID,
    PH_CONTRA,
    PH_FH18,
    PH_GIVE_UP,
    PH_OFFER,
    PH_PICKUP,
    PH_PLAY,
    PH_RE,
    Fields,
)
from sim.games.skat_family.values import JIT

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

BETWEEN_TRICKS = 1 << PH_OFFER | 1 << PH_ACCEPT | 1 << PH_CONTRA | 1 << PH_RE
"""Skat-en-deux's decisions between tricks: the defender's offer, its answer, Contra, Re
(their actions are the codes 0-2 and no/yes, ``cardplay.legal``)."""
YES_OR_NO = 1 << PH_BID | 1 << PH_ANSWER | 1 << PH_FH18 | 1 << PH_PICKUP | 1 << PH_GIVE_UP
"""The yes-or-no questions before the card play (``bidding.YES_NO``): bid the next value or
pass, hold, take 18, pick the skat up, give up at 18 (the give-up naming a game after the
pickup shares ``PH_GIVE_UP`` but is no yes or no: the heuristic answers it)."""
QUESTION = (ONE_HOT, O.PHASE, PH_RE + 1, 0, 0)
"""The decision asked, one of every phase (both games)."""
SEAT_AND_BID = [(ONE_HOT, O.POSITION, 3, 0, 0), (BUCKET, O.BID, 24, 3, 0)]
"""The seat's position in the bidding and the bid so far (both games)."""
FEATURES = spec((O.SEAT, 3, O.PHASE, 1 << PH_PLAY | YES_OR_NO, O.LEGAL),
                [*CARD_ROWS, QUESTION, *SEAT_AND_BID], CARDS, Fields)
"""Skat's feature spec: the cards, the decision asked, the position and the bid."""
ROWS = FEATURES.rows
"""The spec's rows, as the kernel reads them (a global array is a constant to numba)."""
EN_DEUX = spec(
    (O.SEAT, 3, O.PHASE, 1 << PH_PLAY | BETWEEN_TRICKS | YES_OR_NO, O.LEGAL),
    [*CARD_ROWS, QUESTION, (ONE_HOT, O.OFFER, 3, 0, 0), (MASK, O.OFFERS_LEFT, 3, 0, 0),
     (MASK, O.REJECTED, 1, 0, 0), (MASK, O.CONTRA_RE, 1, 0, 0), (SEAT, O.NEXT_LEADER, 3, 0, 0),
     *SEAT_AND_BID],
    CARDS, Fields)
"""Skat-en-deux's feature spec: the cards, the decision asked (before the card play and
between tricks), the position and the bid."""
EN_DEUX_ROWS = EN_DEUX.rows
"""``EN_DEUX``'s rows, as the kernel reads them."""


@numba.njit(inline="always", **JIT)
def rows_of(obs):
    """The feature rows a network reads at a question before the card play: Skat-en-deux's
    (a blind at the table) or Skat's."""
    return EN_DEUX_ROWS if obs[O.BLIND_SEAT] >= 0 else ROWS

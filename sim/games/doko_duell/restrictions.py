"""The Doppelkopf duel's restrictions of the ``restricted`` player
(``sim.engine.restricted_player``): kinds of card a strategy question may forbid the
heuristic, each whenever another card is legal."""

from __future__ import annotations

from sim.engine.python_player import Decision
from sim.engine.restricted_player import Restriction, card_of, keep_aces, leads, no_trump_lead
from sim.games.doko_duell.cardplay import DECK, EFF
from sim.tricks import TRUMP


def _trump(d: Decision, card: str) -> bool:
    return bool(EFF[DECK.index(card_of(card))] == TRUMP)


def _from_pyramid(card: str) -> bool:
    return " (p" in card


RESTRICTIONS = {
    "no_trump_lead": no_trump_lead(_trump),
    "keep_heart_tens": Restriction("never play a heart ten", lambda d, c: card_of(c) == "HT"),
    "keep_aces": keep_aces(_trump),
    "hand_first": Restriction(
        "never play from the pyramid while a hand card is legal", lambda d, c: _from_pyramid(c)),
    "pyramid_first": Restriction(
        "never play from the hand while a pyramid card is legal",
        lambda d, c: not _from_pyramid(c)),
    "no_fat_follow": Restriction(
        "never play an ace or a ten to the other's lead",
        lambda d, c: not leads(d) and card_of(c)[1] in "AT"),
}
"""The restrictions by name."""

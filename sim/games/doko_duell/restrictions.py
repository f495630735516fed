"""The Doppelkopf duel's restrictions of the ``restricted`` player
(``sim.engine.restricted_player``): kinds of card a strategy question may forbid the
heuristic, each whenever another card is legal."""

from __future__ import annotations

from sim.engine.python_player import Decision
from sim.engine.restricted_player import Restriction
from sim.games.doko_duell.cardplay import DECK, EFF
from sim.tricks import TRUMP


def _card(name: str) -> str:
    """The card a legal name plays (``HT (p3)``: ``HT``)."""
    return name.split(" (")[0]


def _trump(card: str) -> bool:
    return bool(EFF[DECK.index(_card(card))] == TRUMP)


def _leads(d: Decision) -> bool:
    return bool(d.observation["trick_n"] == 0)


def _from_pyramid(card: str) -> bool:
    return " (p" in card


RESTRICTIONS = {
    "no_trump_lead": Restriction(
        "never lead a trump", lambda d, c: _leads(d) and _trump(c)),
    "keep_heart_tens": Restriction(
        "never play a heart ten", lambda d, c: _card(c) == "HT"),
    "keep_aces": Restriction(
        "never play an ace that is not a trump", lambda d, c: _card(c)[1] == "A" and not _trump(c)),
    "hand_first": Restriction(
        "never play from the pyramid while a hand card is legal", lambda d, c: _from_pyramid(c)),
    "pyramid_first": Restriction(
        "never play from the hand while a pyramid card is legal",
        lambda d, c: not _from_pyramid(c)),
    "no_fat_follow": Restriction(
        "never play an ace or a ten to the other's lead",
        lambda d, c: not _leads(d) and _card(c)[1] in "AT"),
}
"""The restrictions by name."""

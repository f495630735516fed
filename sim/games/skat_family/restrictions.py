"""The Skat family's restrictions of the ``restricted`` player (``sim.engine.restricted_player``):
kinds of game the heuristic may not bid for and declare, and kinds of card a strategy question
may forbid it, each whenever another card is legal. Trumps are those of the game in play (in a
ramsch the jacks; in null none)."""

from __future__ import annotations

from sim.cards import SKAT_DECK
from sim.engine.python_player import Decision
from sim.engine.restricted_player import Restriction, keep_aces, leads, no_trump_lead
from sim.games.skat_family.heuristic import NO_HAND
from sim.games.skat_family.values import EFF, GRAND, NULL, RAMSCH
from sim.tricks import TRUMP


def _game(d: Decision) -> int:
    return RAMSCH if d.observation["ramsch"] else int(d.observation["game"]) & 7


def _trump(d: Decision, card: str) -> bool:
    return bool(EFF[_game(d), SKAT_DECK.index(card)] == TRUMP)


RESTRICTIONS = {
    "no_trump_lead": no_trump_lead(_trump),
    "no_jack_lead": Restriction("never lead a jack", lambda d, c: leads(d) and c[1] == "J"),
    "keep_aces": keep_aces(_trump),
    "no_smear": Restriction(
        "never put an ace or a ten on a trick another seat led",
        lambda d, c: not leads(d) and c[1] in "AT"),
    "no_grand": Restriction("never bid for or declare a grand", banned=1 << GRAND),
    "no_null": Restriction("never bid for or declare a null game", banned=1 << NULL),
    "no_hand": Restriction("never play a hand game: always pick up the skat", banned=NO_HAND),
}
"""The restrictions by name."""

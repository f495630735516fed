"""The Skat family's restrictions of the ``restricted`` player (``sim.engine.restricted_player``):
kinds of card a strategy question may forbid the heuristic, each whenever another card is
legal. Trumps are those of the game in play (in a ramsch the jacks; in null none)."""

from __future__ import annotations

from sim.cards import SKAT_DECK
from sim.engine.python_player import Decision
from sim.engine.restricted_player import Restriction
from sim.games.skat_family.values import EFF, RAMSCH
from sim.tricks import TRUMP


def _game(d: Decision) -> int:
    return RAMSCH if d.observation["ramsch"] else int(d.observation["game"]) & 7


def _trump(d: Decision, card: str) -> bool:
    return bool(EFF[_game(d), SKAT_DECK.index(card)] == TRUMP)


def _leads(d: Decision) -> bool:
    return bool(d.observation["trick_n"] == 0)


RESTRICTIONS = {
    "no_trump_lead": Restriction(
        "never lead a trump", lambda d, c: _leads(d) and _trump(d, c)),
    "no_jack_lead": Restriction(
        "never lead a jack", lambda d, c: _leads(d) and c[1] == "J"),
    "keep_aces": Restriction(
        "never play an ace that is not a trump", lambda d, c: c[1] == "A" and not _trump(d, c)),
    "no_smear": Restriction(
        "never put an ace or a ten on a trick another seat led",
        lambda d, c: not _leads(d) and c[1] in "AT"),
}
"""The restrictions by name."""

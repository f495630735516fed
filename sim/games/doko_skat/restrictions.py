"""Doko-Skat's restrictions of the ``restricted`` player (``sim.engine.restricted_player``):
kinds of card a strategy question may forbid the heuristic in the main card play, each
whenever another card is legal (the first round is the heuristic's own). Trumps are those of
the game in play."""

from __future__ import annotations

from sim.engine.python_player import Decision
from sim.engine.restricted_player import Restriction
from sim.games.doko_skat.values import DECK, EFF
from sim.tricks import TRUMP


def _trump(d: Decision, card: str) -> bool:
    return bool(EFF[int(d.observation["table"]), DECK.index(card)] == TRUMP)


def _leads(d: Decision) -> bool:
    return bool(d.observation["trick_n"] == 0)


RESTRICTIONS = {
    "no_trump_lead": Restriction(
        "never lead a trump", lambda d, c: _leads(d) and _trump(d, c)),
    "keep_heart_tens": Restriction(
        "never play a heart ten", lambda d, c: c == "HT"),
    "keep_aces": Restriction(
        "never play an ace that is not a trump", lambda d, c: c[1] == "A" and not _trump(d, c)),
}
"""The restrictions by name."""

"""Doko-Skat's restrictions of the ``restricted`` player (``sim.engine.restricted_player``):
kinds of card a strategy question may forbid the heuristic in the main card play, each
whenever another card is legal (the first round is the heuristic's own). Trumps are those of
the game in play."""

from __future__ import annotations

from sim.engine.python_player import Decision
from sim.engine.restricted_player import Restriction, keep_aces, no_trump_lead
from sim.games.doko_skat.values import DECK, EFF
from sim.tricks import TRUMP


def _trump(d: Decision, card: str) -> bool:
    return bool(EFF[int(d.observation["table"]), DECK.index(card)] == TRUMP)


RESTRICTIONS = {
    "no_trump_lead": no_trump_lead(_trump),
    "keep_heart_tens": Restriction("never play a heart ten", lambda d, c: c == "HT"),
    "keep_aces": keep_aces(_trump),
}
"""The restrictions by name."""

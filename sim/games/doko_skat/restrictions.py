"""Doko-Skat's restrictions of the ``restricted`` player (``sim.engine.restricted_player``):
kinds of game the heuristic may not name, and kinds of card a strategy question may forbid it
in the main card play, each whenever another card is legal (the first round is the
heuristic's own). Trumps are those of the game in play."""

from __future__ import annotations

from sim.engine.python_player import Decision
from sim.engine.restricted_player import Restriction, keep_aces, no_trump_lead
from sim.games.doko_skat.values import BRIDGE_BASE, DECK, EFF, GRAND_CODE, N_GAMES
from sim.tricks import TRUMP


def _trump(d: Decision, card: str) -> bool:
    return bool(EFF[int(d.observation["table"]), DECK.index(card)] == TRUMP)


RESTRICTIONS = {
    "no_trump_lead": no_trump_lead(_trump),
    "keep_heart_tens": Restriction("never play a heart ten", lambda d, c: c == "HT"),
    "keep_aces": keep_aces(_trump),
    "no_grand": Restriction("never name a grand", banned=1 << GRAND_CODE),
    "no_bridge": Restriction("never name a bridge game",
                             banned=sum(1 << g for g in range(BRIDGE_BASE, N_GAMES))),
}
"""The restrictions by name."""

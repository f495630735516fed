"""Playing a deal against the simulator's players (``stichsim play``).

``table`` drives the engine for a person's seat, ``common`` holds the questions and
card display every game shares, one screen module per game family says what a seat
sees, asks and is told, and ``session`` is the terminal loop.
"""

from __future__ import annotations

from typing import Any

from sim.games import Game
from sim.play.doko_duell import DokoDuellScreen
from sim.play.doko_skat import DokoSkatScreen
from sim.play.session import Screen
from sim.play.skat_family import SkatFamilyScreen

SCREENS: dict[str, type] = {"skat": SkatFamilyScreen, "skat_en_deux": SkatFamilyScreen,
                            "doko_duell": DokoDuellScreen, "doko_skat": DokoSkatScreen}
"""The screen class of each game, made with ``(game, rules, seat, number)``."""


def screen_for(game: Game, rules: dict[str, Any], seat: int, number: int) -> Screen:
    """The screen of a person at ``seat`` in deal ``number`` of ``game`` under ``rules``."""
    return SCREENS[game.name](game, rules, seat, number)  # type: ignore[no-any-return]


__all__ = ["SCREENS", "Screen", "screen_for"]

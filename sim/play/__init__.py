"""Playing a deal against the simulator's players (``stichsim play``).

``table`` drives the engine for a person's seat, ``common`` holds the questions and
card display every game shares, one screen module per game family says what a seat
sees, asks and is told, and ``session`` is the terminal loop. Which screen a game uses
is its declaration's ``screen`` (``sim.engine.game.Game``).
"""

from __future__ import annotations

from typing import Any

from sim.engine.game import Game
from sim.play.session import Screen


def screen_for(game: Game, rules: dict[str, Any], seat: int, number: int) -> Screen:
    """The screen of a person at ``seat`` in deal ``number`` of ``game`` under ``rules``."""
    screen: Screen = game.table_screen(rules, seat, number)
    return screen


__all__ = ["Screen", "screen_for"]

"""The toy game's table screen (``stichsim play``): the hand, the card led, the points, and
the cards that may be played."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim import actions as A
from sim.games.base import Game
from sim.play.common import Question, card_choices, held_refusals, show_cards
from toygame.game import DECK, EFF, OB, STRENGTH


class ToyScreen:
    """A person at ``seat`` in deal ``number`` of the toy game."""

    def __init__(self, game: Game, rules: dict[str, Any], seat: int, number: int) -> None:
        self.seat = seat

    def view_lines(self, view: np.ndarray) -> list[str]:
        led = int(view[OB.LED])
        return [f"Your hand: {show_cards(int(view[OB.HAND]), EFF, STRENGTH, DECK)}",
                f"Led: {DECK.names[led] if led >= 0 else '-'}",
                f"Points: you {int(view[OB.POINTS + self.seat])}, "
                f"the other {int(view[OB.POINTS + 1 - self.seat])}"]

    def question(self, view: np.ndarray) -> Question:
        legal = int(view[OB.LEGAL])
        return Question("Your card", tuple(card_choices(legal, A.PLAY, self.seat, EFF, STRENGTH, DECK)),
                        refusals=held_refusals(int(view[OB.HAND]), legal, DECK, "follow suit"))

    def narrate(self, actions: np.ndarray) -> list[str]:
        return [f"player {seat}: plays {DECK.names[a]}" for kind, seat, a, _ in actions.tolist()
                if kind == A.PLAY]

    def result_lines(self, columns: dict[str, np.ndarray]) -> list[str]:
        return [f"player {s}: {int(columns[f'score_{s}'][0])} points" for s in range(2)]

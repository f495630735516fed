"""The toy game's table screen (``stichsim play``, ``stichsim serve``): the hand, the card
led, the points, and the cards that may be played; the table built from the shared pieces
of ``sim.screen.board``."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim import actions as A
from sim.engine.game import Game
from sim.screen.board import (
    Board,
    Cards,
    FinalBoard,
    Place,
    Trick,
    cards_left,
    dealt_cards,
    group_tricks,
    seat_place_name,
)
from sim.screen.questions import Question, card_choices, card_groups, held_refusals, show_cards
from sim.tricks import trick_winner
from toygame.game import DECK, EFF, OB, STRENGTH


class ToyScreen:
    """A person at ``seat`` in deal ``number`` of the toy game."""

    def __init__(self, game: Game, rules: dict[str, Any], seat: int, number: int) -> None:
        self.game = game
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

    def tricks(self, actions: np.ndarray) -> list[Trick]:
        plays = [(seat, a, "") for kind, seat, a, _ in actions.tolist() if kind == A.PLAY]
        return group_tricks(plays, 2, DECK, lambda cards, _: int(trick_winner(cards, 2, EFF, STRENGTH)))

    def places(self) -> list[Place]:
        return [Place(seat_place_name(s, self.seat, "Player"), you=s == self.seat) for s in range(2)]

    def groups(self, mask: int) -> list[list[str]]:
        return card_groups(mask, EFF, STRENGTH, DECK)

    def board(self, view: np.ndarray, actions: np.ndarray) -> Board:
        places, tricks = self.places(), self.tricks(actions)
        held = int(view[OB.HAND]).bit_count()
        for s, place in enumerate(places):
            place.cards = cards_left(held, tricks, s)
            place.points = int(view[OB.POINTS + s])
        return Board(places, self.seat, [("Trumps", "none")], tricks,
                     Cards("Your hand", self.groups(int(view[OB.HAND]))))

    def final_board(self, columns: dict[str, np.ndarray], actions: np.ndarray,
                    cards: dict[str, Any]) -> FinalBoard:
        places, tricks = self.places(), self.tricks(actions)
        for s, place in enumerate(places):
            place.tricks = sum(t.winner == s for t in tricks)
            place.points = sum(t.points for t in tricks if t.winner == s)
        dealt = dealt_cards(self.game, cards, self.seat, lambda names: self.groups(DECK.parse(names)))
        sheet = [(places[s].name, f"{int(columns[f'score_{s}'][0])}") for s in range(2)]
        return FinalBoard(places, dealt, tricks, sheet)

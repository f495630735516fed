"""The card table as data: what a seat sees laid out by places rather than in lines, for
the browser's table (``sim.serve``). Each game's screen fills it from the seat's
observation and the public actions (``board``) and, once the deal is over, from the
trace's dealt cards and the result columns (``final_board``); nothing here looks at the
deal itself.

A board's places are the seats around the table in play order (Skat-en-deux adds the
blind between its two players); a trick's cards name the place that played them, so the
page can put each card in front of its player.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from sim.cards import Deck
from sim.engine.game import Game


@dataclass
class Place:
    """One place at the table: who sits there and what anybody can see of it."""

    name: str
    """``You``, ``Seat 2``, ``Player 1``, ``The blind``."""
    position: str = ""
    """``forehand``, ``middlehand``, ``rearhand`` (the duel: ``started`` or empty)."""
    dealer: bool = False
    you: bool = False
    role: str = ""
    """``declarer``, ``defender``, ``alone``, ``pair``, or empty while nobody knows."""
    cards: int | None = None
    """Cards left in the hand (None where the seat cannot tell)."""
    tricks: int | None = None
    points: int | None = None
    """Card points taken (None before they are shown)."""
    said: str = ""
    """The place's last word in the bidding or naming (``18``, ``pass``), while it lasts."""
    markers: str = ""
    """The duel's markers, ``A 1 · B 2``."""


@dataclass
class Played:
    """One card of a trick and the place that played it (``where``: the duel's pyramid
    position, ``p3``, empty from the hand)."""

    place: int
    card: str
    where: str = ""


@dataclass
class Trick:
    """A trick so far: its cards in the order played, the place that took it once complete
    (None while open, or where its order is not known yet) and its card points."""

    label: str
    number: int
    """The card play's trick number from 1 (Doko-Skat's first round counts apart)."""
    cards: list[Played] = field(default_factory=list)
    winner: int | None = None
    points: int = 0
    complete: bool = False
    first_round: bool = False

    def taker_index(self) -> int:
        """Which of the trick's cards took it (the trick is complete, its taker known)."""
        assert self.winner is not None
        return [c.place for c in self.cards].index(self.winner)


@dataclass
class Cards:
    """A titled set of cards in display order, in groups (trumps, then suits)."""

    title: str
    groups: list[list[str]]


@dataclass
class Slot:
    """One position of a duel pyramid: its card (``??`` face down, ``--`` gone) and whether
    it is free (may be played now)."""

    position: int
    card: str
    free: bool = False


@dataclass
class Pyramid:
    """A duel player's pyramid, rows from the back (4, 3, two stacks, 1)."""

    owner: int
    title: str
    rows: list[list[list[Slot]]]
    """Each row a list of stacks, each stack the slots from the bottom card up."""


@dataclass
class Board:
    """The table at the person's decision: the places, whose turn, the contract's facts,
    the tricks (the last maybe open), the cards he picks from, the cards shown besides
    (the skat, the blind, an open hand) and the duel's pyramids."""

    places: list[Place]
    turn: int | None
    facts: list[tuple[str, str]]
    tricks: list[Trick]
    hand: Cards | None
    shown: list[Cards] = field(default_factory=list)
    pyramids: list[Pyramid] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class FinalBoard:
    """The table at the end: every dealt hand and the rest of the deal, every trick, and
    the deal's row of the score sheet (``[label, value]`` pairs)."""

    places: list[Place]
    dealt: list[Cards]
    tricks: list[Trick]
    sheet: list[tuple[str, str]]

    def json(self) -> dict[str, Any]:
        return asdict(self)


def seat_place_name(seat: int, you: int, word: str = "Seat") -> str:
    """``You`` or ``Seat 2``."""
    return "You" if seat == you else f"{word} {seat}"


OWNER = re.compile(r"\b(seat|player) (\d)\b")
"""A seat named in a deal layout's group (``hand of seat 1``)."""


def dealt_cards(game: Game, cards: Mapping[str, Any], you: int,
                order: Callable[[list[str]], list[list[str]]]) -> list[Cards]:
    """The trace's dealt cards (its ``cards`` block) as the deal layout names its groups
    (the person's marked ``(you)``), each shown in ``order`` (names in, display groups out)."""
    layout = game.deal_layout
    out = []
    for group, names in zip(layout.groups, layout.from_cards(cards), strict=True):
        title = group.name[0].upper() + group.name[1:]
        owner = OWNER.search(title)
        if owner and int(owner[2]) == you:
            title = f"{title} (you)"
        out.append(Cards(title, order(names)))
    return out


def cards_left(held: int, tricks: list[Trick], place: int) -> int:
    """The cards ``place`` holds in the card play when the mover holds ``held``: as many,
    less one where it has played to the open trick (the mover has not)."""
    open_trick = tricks[-1].cards if tricks and not tricks[-1].complete else []
    return held - sum(c.place == place for c in open_trick)


def trick_label(number: int, first_round: bool = False) -> str:
    """``Trick 3``, ``First-round trick 2``."""
    return f"First-round trick {number}" if first_round else f"Trick {number}"


def group_tricks(plays: Sequence[tuple[int, int, str]], size: int, deck: Deck,
                 taker: Callable[[np.ndarray, int], int | None], number: int = 1,
                 first_round: bool = False) -> list[Trick]:
    """Plays ``(place, card, where)`` in order cut into tricks of ``size``, numbered from
    ``number``: each complete trick's card points and taker (``taker(cards, k)``: which of
    the trick's cards, a bit index each, took trick ``k`` of these; None where unknown)."""
    out = []
    for k in range(0, len(plays), size):
        part = plays[k:k + size]
        trick = Trick(trick_label(number + k // size, first_round), number + k // size,
                      [Played(place, deck.names[card], where) for place, card, where in part],
                      first_round=first_round)
        if len(part) == size:
            codes = np.array([card for _, card, _ in part], np.int64)
            won = taker(codes, k // size)
            trick.complete = True
            trick.winner = None if won is None else part[won][0]
            trick.points = int(deck.points[codes].sum())
        out.append(trick)
    return out

"""Restricted play (Jaffe et al. 2012): ``restricted:heuristic:RESTRICTION`` is the heuristic
forbidden a kind of move whenever another is legal: a kind of card, or a kind of game to
declare. What a player loses by the restriction, on the same deals, is what that kind of move
is worth to it; a strategy that costs nothing to forbid does not matter to the game.

A restriction of the games (``no_grand``, ``no_hand`` ...) is a mask of the game codes the
heuristic may not declare (``Restriction.banned``). It plays in the kernel: the heuristic's
bidding, its pickup, its discard and its declaration leave those games out, as a player who
may not play them bids and declares (the mask rides in its kernel id's option bits,
``seat_games``); every card it plays is the heuristic's own.

A restriction of the cards says, at a card-play decision, which legal cards it forbids: a predicate
``forbids(d, card)`` over the seat's decision (``sim.engine.python_player.Decision``: the
observation by field, the legal names) and one legal card's name. It is one of the game's own
(``Game.restrictions`` names the module whose ``RESTRICTIONS`` lists them, each with what it
forbids: ``stichsim rules GAME`` does not show them, ``docs/players.md`` does) or a Python
predicate, ``python:FILE.py:FUNCTION``.

At each of the seat's cards the forbidden cards (every copy of them) are taken out of the
legal cards and the hand of its observation, where another card is left, and the heuristic
chooses among the rest from that observation as it always does (``CardPlay.decide``). Each
game's heuristic chooses from those fields (none named a forbidden card in 300 deals of every
restriction of the Doppelkopf games); were one to, a card left would be taken at random from
the decision's stream. Its other decisions (bids, the skat,
declarations, offers) are the heuristic's own, in the kernel: to the kernel the seat is a
solving player's, whose cards are chosen outside it (``sim.engine.outside``), so the cards it
plays where the game cannot be solved (Doko-Skat's first round) are the heuristic's too.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.engine.game import Game
from sim.engine.python_player import Asked, Decision, PlayerError, Row, load
from sim.engine.seats import HEURISTIC, KIND_BITS, PolicyError, restriction_of


@dataclass(frozen=True)
class Restriction:
    """One of a game's restrictions: what it forbids, in a few words, and either the cards it
    forbids (``forbids``) or the games (``banned``)."""

    doc: str
    forbids: Callable[[Decision, str], bool] | None = None
    """Whether a legal card (by its name) is forbidden at a card-play decision."""
    banned: int = 0
    """The games the heuristic may not declare: bits of the game's codes as its heuristic
    reads them (the Skat family's hand games too, ``heuristic.NO_HAND``)."""


def card_of(name: str) -> str:
    """The card a legal name plays (the duel's ``HT (p3)``: ``HT``)."""
    return name.split(" (")[0]


def leads(d: Decision) -> bool:
    """Whether the seat leads the trick (no card lies in it yet)."""
    return bool(d.observation["trick_n"] == 0)


def no_trump_lead(trump: Callable[[Decision, str], bool]) -> Restriction:
    """Never lead a trump, the game's trumps read by ``trump(d, card)``."""
    return Restriction("never lead a trump", lambda d, c: leads(d) and trump(d, c))


def keep_aces(trump: Callable[[Decision, str], bool]) -> Restriction:
    """Never play an ace that is not a trump."""
    return Restriction("never play an ace that is not a trump",
                       lambda d, c: card_of(c)[1] == "A" and not trump(d, c))


def restrictions(game: Game) -> Mapping[str, Restriction]:
    """The game's own restrictions by name (none where it declares none)."""
    if game.restrictions is None:
        return {}
    found: Mapping[str, Restriction] = importlib.import_module(game.restrictions).RESTRICTIONS
    return found


def restriction(game: Game, name: str) -> Restriction:
    """The restriction ``name`` names: the game's own, or a predicate of the cards,
    ``python:FILE.py:FUNCTION``; any other name is a ``PolicyError`` naming the game's."""
    if name.startswith("python:"):
        return Restriction(name, load(name.removeprefix("python:")))  # type: ignore[arg-type]
    own = restrictions(game)
    if name not in own:
        raise PolicyError(f"game {game.name} has no restriction {name!r} (its restrictions: "
                          f"{', '.join(own) or 'none'}; or python:FILE.py:FUNCTION)")
    return own[name]


def check(game: Game, policies: Sequence[str]) -> None:
    """Refuse a restricted policy whose restriction ``game`` does not know, before any deal."""
    for name in policies:
        found = restriction_of(name)
        if found is not None:
            restriction(game, found)


def seat_games(game: Game, policies: Sequence[str], pols: np.ndarray) -> None:
    """Set the kernel id of each seat in ``pols`` whose restriction is of the games: the
    heuristic's, its option bits the games it may not declare (``Restriction.banned``); such a
    seat plays wholly in the kernel. A seat restricted in its cards stays ``RESTRICTED``."""
    for seat, name in enumerate(policies):
        found = restriction_of(name)
        banned = restriction(game, found).banned if found is not None else 0
        if banned:
            pols[seat] = HEURISTIC | banned << KIND_BITS


class RestrictedSeat(Asked):
    """The restricted heuristic ``name`` (``restricted:heuristic:RESTRICTION``) at one seat."""

    def __init__(self, game: Game, rules: dict[str, Any], seat: int, name: str) -> None:
        super().__init__(game, rules, seat)
        given = restriction_of(name)
        assert given is not None and game.card_play is not None
        self.name = name
        forbids = restriction(game, given).forbids
        assert forbids is not None  # a restriction of the games plays in the kernel
        self.forbids = forbids
        self.decide_card = game.card_play.decide

    def decide(self, view: np.ndarray, key: int) -> Row:
        """The row of the seat's card at observation ``view`` (``key`` keys the stream of the
        decision and of the heuristic's choice)."""
        question, names, decision = self.decision(view, key)
        rows = [c.row for c in question.choices]
        try:
            kept = [r for r, n in zip(rows, names) if not self.forbids(decision, n)]
        except Exception as e:
            raise PlayerError(f"restriction of {self.name} raised {type(e).__name__}: {e}") from None
        shown = view.copy()
        deck = self.game.deck.names
        if kept and len(kept) < len(rows):
            layout = self.game.observation
            names_out = {deck[r[2]] for r in rows if r not in kept}
            forbidden = sum(1 << c for c, name in enumerate(deck) if name in names_out)
            for r in kept:  # a copy of a forbidden card's name that may be played (the duel's
                forbidden &= ~(1 << r[2])  # hand card where its pyramid copy is forbidden)
            for field in (getattr(layout, "LEGAL"), getattr(layout, "HAND")):
                shown[field] = int(shown[field]) & ~forbidden
        else:
            kept = rows
        card = int(self.decide_card(HEURISTIC, shown, np.array([key], np.uint64)))
        for r in kept:  # the copy the heuristic chose, else the choice of that card's name
            if r[2] == card:
                return r
        named = [r for r in kept if deck[r[2]] == deck[card]]
        return named[0] if named else kept[int(decision.rng.integers(len(kept)))]

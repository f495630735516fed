"""An example Python player for every game: ``python:examples/players/thrifty.py:decide``.

It plays thrift, not skill: it never bids, names a game or offers where it may pass, puts
away its fattest cards, and in the card play throws its cheapest legal card (the stream the
decision hands it breaks ties). Any other question it answers at random. A first opponent
for your own player, and a floor for it to beat:

    stichsim arena skat --policies python:examples/players/thrifty.py:decide,heuristic

``decide`` receives a ``Decision`` (``sim.engine.python_player``) and returns one of
``d.legal`` (a discard: ``d.pick`` card names).
"""

from __future__ import annotations

from typing import Any

POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
"""Card points by rank letter (the same in Skat's and Doppelkopf's decks); the rest count 0."""
NO = ("pass", "play on", "no offer", "reject", "no Contra", "no Re")
"""The answers that decline, in the order it prefers them."""


def points(card: str) -> int:
    """A card's points from its name (``HT``: 10; the duel's ``HT (p3)`` too)."""
    return POINTS.get(card[1], 0)


def decide(d: Any) -> Any:
    """Pass where it may; else put away the fattest cards, or play the cheapest card."""
    for word in NO:
        if word in d.legal:
            return word
    if d.kind == "discard":
        return sorted(d.legal, key=points, reverse=True)[:d.pick]
    if d.kind != "play":
        return d.legal[int(d.rng.integers(len(d.legal)))]
    cards = sorted(d.legal, key=points)
    cheapest = [c for c in cards if points(c) == points(cards[0])]
    return cheapest[int(d.rng.integers(len(cheapest)))]

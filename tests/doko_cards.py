"""Doppelkopf cards named by hand in the card-play tests: each name's next copy in turn."""

from __future__ import annotations

from sim.cards import Deck


class Cards:
    """Names to bit indices of ``deck``, each name's next copy in turn (two of each card)."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.taken = 0

    def __call__(self, names: str) -> list[int]:
        out = []
        for name in names.split():
            c = self.deck.index(name, self.taken)
            assert not self.taken >> c & 1, f"a third {name}"
            self.taken |= 1 << c
            out.append(c)
        return out

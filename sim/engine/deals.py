"""Deals given by hand: the ``--deal`` notation and the order of the cards it lays.

A deal is written as its card groups separated by ``/``, in the order of the trace's
``cards`` block (``TRACE.md``), each group's cards in card notation::

    skat          hand of seat 0 / seat 1 / seat 2 / skat                   (10 10 10 2)
    skat_en_deux  hand of player 0 / player 1 / blind / skat                (10 10 10 2)
    doko_duell    hand of player 0 / player 1 / pyramid 0 / pyramid 1       (8 8 12 12)
    doko_skat     stock 0 / 1 / 2 / skat / first-round cards 0 / 1 / 2 / turned-up card
                                                                  (12 12 12 3 3 3 3 1)

(a pyramid's cards in position order ``p0 ... p11``; the turned-up card is one of the
first-round cards). The kernels deal from an order of the deck (``order_deck``): each
game declares a ``Layout`` (``Game.deal_layout``, beside the kernel's dealing) that turns
the groups into the order that deals them, so a deal given by hand is
played by the engine's own dealing, and everything after the deal (a redeal's draws,
a random policy's choices) still comes from the seed's streams.

>>> from sim.registry import find_game
>>> text = "CJ SJ HJ DJ CA CT CK CQ C9 C8 / SA ST SK SQ S9 S8 S7 HA HT HK / " \\
...        "HQ H9 H8 H7 DA DT DK DQ D9 D8 / C7 D7"
>>> skat = find_game("skat")
>>> order = deck_order(skat, text, dealer=0)
>>> skat.deck.names[order[0]], skat.deck.names[order[31]]
('CJ', 'D7')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from sim.cards import CardError, Deck, card_word
from sim.errors import StichsimError


class DealError(StichsimError):
    """A deal that cannot be read or is no valid deal of its game (one line)."""


@dataclass(frozen=True)
class Group:
    """One group of a written deal: what it is, how many cards; a group ``among`` earlier
    groups names one of their cards (doko_skat's turned-up card) instead of new cards."""

    name: str
    size: int
    among: tuple[int, ...] = ()


@dataclass(frozen=True)
class Layout:
    """How a game's deal is written and dealt.

    ``order(cards, dealer)`` turns the groups' cards (bit indices, physical copies told
    apart) into the order the kernel deals them from; ``from_cards`` reads the groups'
    card names out of a trace's ``cards`` block."""

    groups: tuple[Group, ...]
    order: Callable[[list[list[int]], int], list[int]]
    from_cards: Callable[[Mapping[str, Any]], list[list[str]]]


class Dealt(Protocol):
    """What writing and reading a deal by hand needs of a game (its declaration,
    ``sim.engine.game.Game``, has it)."""

    @property
    def name(self) -> str: ...

    @property
    def n_players(self) -> int: ...

    @property
    def deck(self) -> Deck: ...

    @property
    def deal_layout(self) -> Layout: ...


def notation(game: Dealt) -> str:
    """How ``game``'s deal is written, for help and error messages."""
    return " / ".join(f"{g.name} ({g.size})" for g in game.deal_layout.groups)


def _allocate(groups: Sequence[Sequence[str]], spec: Sequence[Group], deck: Deck) -> list[list[int]]:
    """Card names per group -> bit indices, each copy of a card given once (a named group
    points at a copy given before)."""
    taken = 0
    out: list[list[int]] = []
    for names, group in zip(groups, spec):
        if len(names) != group.size:
            raise DealError(f"the {group.name} has {len(names)} card(s), it needs {group.size}")
        cards = []
        for name in names:
            if group.among:
                kind = deck.index(name)
                copies = [kind + c * deck.n_kinds for c in range(deck.copies)]
                given = [c for k in group.among for c in out[k] if c in copies]
                if not given:
                    raise DealError(f"the {group.name} {name} must be one of the "
                                    + " or ".join(spec[k].name for k in group.among))
                cards.append(given[0])
                continue
            i = deck.index(name, taken)
            taken |= 1 << i
            cards.append(i)
        out.append(cards)
    return out


def order_of(game: Dealt, groups: Sequence[Sequence[str]], dealer: int) -> np.ndarray:
    """The deck order that deals ``groups`` (card names per group of ``game``'s layout)
    when ``dealer`` deals; ``DealError`` if they are no valid deal."""
    spec = game.deal_layout
    if len(groups) != len(spec.groups):
        raise DealError(f"a {game.name} deal has {len(spec.groups)} groups separated by '/' "
                        f"({notation(game)}), got {len(groups)}")
    try:
        cards = _allocate(groups, spec.groups, game.deck)
    except CardError as e:
        raise DealError(str(e)) from None
    order = spec.order(cards, dealer)
    n = game.deck.n_cards
    if sorted(order[:n]) != list(range(n)):  # the group sizes add up to the deck
        raise DealError(f"not a whole {game.name} deck")
    return np.array(order, np.int64)


def parse_groups(text: str) -> list[list[str]]:
    """``"CJ SJ / HA, HT / ..."`` -> ``[["CJ", "SJ"], ["HA", "HT"], ...]`` (``10`` may be
    written for the ten: ``H10`` is ``HT``)."""
    return [[card_word(w) for w in part.replace(",", " ").split()] for part in text.split("/")]


def deck_order(game: Dealt, text: str, dealer: int) -> np.ndarray:
    """The deck order of the deal written ``text`` (``DealError`` if it is none)."""
    return order_of(game, parse_groups(text), dealer)


def trace_order(game: Dealt, cards: Mapping[str, Any], dealer: int) -> np.ndarray:
    """The deck order of a trace's ``cards`` block (a deal given by hand, replayed)."""
    try:
        groups = game.deal_layout.from_cards(cards)
    except (KeyError, TypeError):
        raise DealError("the cards block lacks a group of the deal") from None
    return order_of(game, groups, dealer)


__all__ = ["DealError", "Group", "Layout", "deck_order", "notation", "order_of", "parse_groups",
           "trace_order"]

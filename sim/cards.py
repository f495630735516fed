"""Card codes, decks, parsing and formatting, and bit helpers.

A card is a bit (as in python-chess, where a square is a bit of a ``Bitboard``).
A Skat hand is a ``uint32`` with one bit per card; a Doppelkopf hand is a
``uint64`` with one bit per *physical copy* (both copies of a card print the
same). Card ``i`` of a deck is ``suit * n_ranks + rank`` for its first copy and
``n_kinds + suit * n_ranks + rank`` for its second.

>>> d = SKAT_DECK
>>> d.format(d.parse("CJ SJ HA"))
'CJ SJ HA'
>>> int(d.points[d.index("HA")])
11
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numba
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

SUITS = "CSHD"
"""Suit letters in their Skat order: clubs, spades, hearts, diamonds."""

RANK_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
"""Card points of each rank (the same in every game here)."""


TEN = re.compile(r"^([CSHD])10$")
"""A card written with ``10`` for its ten."""


def card_word(word: str) -> str:
    """A typed card name in the deck's notation: upper case, ``10`` for a ten read as
    ``T`` (``h10`` -> ``HT``); other words only upper-cased (``10`` stays ``10``)."""
    return TEN.sub(r"\1T", word.strip().upper())


class CardError(ValueError):
    """A card or set of cards could not be parsed."""


@dataclass(frozen=True)
class Deck:
    """A deck: its ranks (in printing order), the number of copies of each card.

    Attributes hold one entry per physical card, indexed by bit position.
    """

    name: str
    ranks: str
    copies: int
    n_kinds: int = field(init=False)
    n_cards: int = field(init=False)
    suit: np.ndarray = field(init=False, repr=False)
    rank: np.ndarray = field(init=False, repr=False)
    points: np.ndarray = field(init=False, repr=False)
    names: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        n_kinds = len(SUITS) * len(self.ranks)
        n_cards = n_kinds * self.copies
        suit = np.array([(i % n_kinds) // len(self.ranks) for i in range(n_cards)], np.int8)
        rank = np.array([(i % n_kinds) % len(self.ranks) for i in range(n_cards)], np.int8)
        names = tuple(SUITS[s] + self.ranks[r] for s, r in zip(suit, rank))
        points = np.array([RANK_POINTS[n[1]] for n in names], np.int16)
        for key, value in dict(n_kinds=n_kinds, n_cards=n_cards, suit=suit, rank=rank,
                               names=names, points=points).items():
            object.__setattr__(self, key, value)

    @property
    def full(self) -> int:
        """Mask of every card of the deck."""
        return (1 << self.n_cards) - 1

    @property
    def mask_dtype(self) -> type:
        """The numpy integer type that holds a set of this deck's cards."""
        return np.uint32 if self.n_cards <= 32 else np.uint64

    def index(self, name: str, taken: int = 0) -> int:
        """Bit index of card ``name``: its first copy not already in ``taken``."""
        name = name.strip().upper()
        for copy in range(self.copies):
            try:
                kind = self.names.index(name)
            except ValueError:
                raise CardError(f"unknown card {name!r} "
                                f"(cards are suit {SUITS} + rank {self.ranks})") from None
            i = copy * self.n_kinds + kind
            if not taken >> i & 1:
                return i
        raise CardError(f"card {name!r} appears more than {self.copies} time(s)")

    def parse(self, text: str | list[str]) -> int:
        """Parse ``"CJ SJ HA"`` (or a list of names) into a mask."""
        words = text.split() if isinstance(text, str) else list(text)
        mask = 0
        for word in words:
            mask |= 1 << self.index(word, mask)
        return mask

    def cards(self, mask: int) -> list[int]:
        """Bit indices of the cards in ``mask``, lowest first."""
        return [i for i in range(self.n_cards) if int(mask) >> i & 1]

    def format(self, mask: int) -> str:
        """Print a set of cards as ``"CJ SJ HA"`` in deck order."""
        return " ".join(self.names[i] for i in self.cards(mask))

    def name_list(self, mask: int) -> list[str]:
        """Card names of a mask, in deck order (one entry per physical card)."""
        return [self.names[i] for i in self.cards(mask)]

    def suit_mask(self, suit: int) -> int:
        """Mask of every card of one printed suit."""
        return sum(1 << i for i in range(self.n_cards) if self.suit[i] == suit)

    def rank_mask(self, rank: str) -> int:
        """Mask of every card of one rank letter."""
        r = self.ranks.index(rank)
        return sum(1 << i for i in range(self.n_cards) if self.rank[i] == r)


SKAT_DECK = Deck("skat32", "ATKQJ987", 1)
"""32 cards: A T K Q J 9 8 7 in four suits (120 points)."""
DOKO_DECK_40 = Deck("doko40", "ATKQJ", 2)
"""40 Doppelkopf cards without nines (240 points)."""
DOKO_DECK_48 = Deck("doko48", "ATKQJ9", 2)
"""48 Doppelkopf cards with nines (240 points)."""


# --- bit helpers usable inside compiled kernels --------------------------------------------

@intrinsic
def _ctpop(typingctx, x):
    """LLVM's population count of a 64-bit word (one instruction on x86-64)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@intrinsic
def _cttz(typingctx, x):
    """LLVM's count of trailing zero bits of a 64-bit word."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.uint64(types.uint64), codegen


@intrinsic
def _ctlz(typingctx, x):
    """LLVM's count of leading zero bits of a 64-bit word (64 for zero)."""
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.uint64(types.uint64), codegen


@numba.njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits (cards) in a mask."""
    return np.int64(_ctpop(np.uint64(x)))  # type: ignore[call-arg]  # numba fills in typingctx


@numba.njit(cache=True, inline="always")
def lsb(x):
    """Index of the lowest set bit of a non-zero mask."""
    return np.int64(_cttz(np.uint64(x)))  # type: ignore[call-arg]  # numba fills in typingctx


@numba.njit(cache=True, inline="always")
def bit_length(x):
    """Bits needed to write ``x`` (0 for 0): the index of its highest set bit, plus one."""
    return 64 - np.int64(_ctlz(np.uint64(x)))  # type: ignore[call-arg]  # numba fills in typingctx


# plain Python (tests that spy on kernels): no LLVM intrinsics (numba sets its config's
# attributes at run time, where mypy cannot see them)
if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
    def popcount(x):  # type: ignore[misc]  # noqa: F811
        """Number of set bits (cards) in a mask."""
        return np.int64(int(x).bit_count())

    def lsb(x):  # type: ignore[misc]  # noqa: F811
        """Index of the lowest set bit of a non-zero mask."""
        return np.int64((int(x) & -int(x)).bit_length() - 1)

    def bit_length(x):  # type: ignore[misc]  # noqa: F811
        """Bits needed to write ``x`` (0 for 0)."""
        return np.int64(int(x).bit_length())


@numba.njit(cache=True, inline="always")
def msb(x):
    """Index of the highest set bit of a non-zero mask."""
    return bit_length(x) - 1


def _select_in_byte() -> np.ndarray:
    """``table[byte | k << 8]``: position of the ``k``-th set bit of ``byte`` (8: none)."""
    table = np.full(256 * 8, 8, np.uint8)
    for byte in range(256):
        bits = [i for i in range(8) if byte >> i & 1]
        for k, i in enumerate(bits):
            table[byte | k << 8] = i
    return table


SELECT_IN_BYTE = _select_in_byte()
_ONES = np.uint64(0x0101010101010101)
_HIGHS = np.uint64(0x8080808080808080)


@numba.njit(cache=True, inline="always")
def nth_bit(x, n):
    """Index of the ``n``-th (from 0, lowest first) set bit of ``x``.

    Branch-free broadword select (Vigna, "Broadword implementation of rank/select
    queries"): a loop clearing ``n`` bits costs a mispredicted branch per call, and
    the random player calls this for every card it plays.
    """
    x = np.uint64(x)
    k = np.uint64(n)
    s = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    s = (s & np.uint64(0x3333333333333333)) + ((s >> np.uint64(2)) & np.uint64(0x3333333333333333))
    s = (s + (s >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    sums = s * _ONES  # byte i: set bits in bytes 0..i
    steps = ((k * _ONES) | _HIGHS) - sums
    place = np.uint64(popcount(steps & _HIGHS) * 8)  # bytes whose running count is <= k
    before = ((sums << np.uint64(8)) >> place) & np.uint64(0xFF)
    byte = (x >> place) & np.uint64(0xFF)
    return np.int64(place) + SELECT_IN_BYTE[byte | ((k - before) << np.uint64(8))]


@numba.njit(cache=True, inline="always")
def mask_points(mask, points):
    """Card points of the set ``mask``, ``points[i]`` being card ``i``'s (a deck's ``points``)."""
    total = 0
    m = np.uint64(mask)
    while m:
        total += points[lsb(m)]
        m &= m - np.uint64(1)
    return total


@numba.njit(cache=True, inline="always")
def bit(i):
    """Mask with only card ``i``."""
    return np.uint64(1) << np.uint64(i)

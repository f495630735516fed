"""Cards as bits: decks, parsing and printing, and the bit helpers the kernels use."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.cards import DOKO_DECK_40, DOKO_DECK_48, SKAT_DECK, CardError, lsb, msb, nth_bit, popcount


def test_decks_and_points() -> None:
    assert (SKAT_DECK.n_cards, int(SKAT_DECK.points.sum())) == (32, 120)
    assert (DOKO_DECK_40.n_cards, int(DOKO_DECK_40.points.sum())) == (40, 240)
    assert (DOKO_DECK_48.n_cards, int(DOKO_DECK_48.points.sum())) == (48, 240)
    assert SKAT_DECK.mask_dtype is np.uint32 and DOKO_DECK_48.mask_dtype is np.uint64


def test_parse_and_format_round_trip() -> None:
    mask = SKAT_DECK.parse("HT D7 CJ HA SJ")
    assert SKAT_DECK.format(mask) == "CJ SJ HA HT D7"  # deck order: C S H D, A T K Q J 9 8 7
    assert SKAT_DECK.parse(SKAT_DECK.format(mask)) == mask
    # Doppelkopf: both copies print the same, the second parse takes the second copy
    both = DOKO_DECK_40.parse("HT HT CQ")
    assert bin(both).count("1") == 3 and DOKO_DECK_40.format(both).split().count("HT") == 2
    with pytest.raises(CardError, match="more than 2"):
        DOKO_DECK_40.parse("HT HT HT")
    with pytest.raises(CardError, match="unknown card"):
        SKAT_DECK.parse("C9 X1")
    with pytest.raises(CardError, match="unknown card"):
        DOKO_DECK_40.parse("C9")  # no nines in the 40-card deck


@settings(deadline=None)  # the first call compiles the kernels
@given(st.integers(min_value=1, max_value=2**64 - 1), st.data())
def test_bit_helpers(x: int, data: st.DataObject) -> None:
    bits = [i for i in range(64) if x >> i & 1]
    n = data.draw(st.integers(min_value=0, max_value=len(bits) - 1))
    assert popcount(np.uint64(x)) == len(bits)
    assert lsb(np.uint64(x)) == bits[0]
    assert msb(np.uint64(x)) == bits[-1]
    assert nth_bit(np.uint64(x), n) == bits[n]

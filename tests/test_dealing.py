"""Dealing checked against exact probabilities, within Monte Carlo error."""

from __future__ import annotations

from math import comb, sqrt

import numpy as np
import pytest

from sim.cards import SKAT_DECK
from sim.engine.play import play
from sim.registry import find_game

N = 300_000


@pytest.fixture(scope="module")
def deals() -> dict[str, np.ndarray]:
    game = find_game("skat")
    return play(game, 20261130, 0, N, game.rules(), ["random"] * 3).columns


def within(observed: float, p: float, n: int, z: float = 4.5) -> bool:
    return abs(observed - p) <= z * sqrt(p * (1 - p) / n)


def test_a_seat_holds_all_four_jacks(deals: dict[str, np.ndarray]) -> None:
    p = comb(28, 6) / comb(32, 10)
    assert abs(p - 0.00584) < 1e-5
    jacks = SKAT_DECK.rank_mask("J")
    for seat in range(3):
        hits = (deals[f"hand_{seat}"].astype(np.int64) & jacks) == jacks
        assert within(hits.mean(), p, N), (seat, hits.mean(), p)


def test_each_card_lies_anywhere_with_equal_chance(deals: dict[str, np.ndarray]) -> None:
    for card in range(32):
        bit = 1 << card
        for seat in range(3):
            assert within(((deals[f"hand_{seat}"].astype(np.int64) & bit) != 0).mean(), 10 / 32, N)
        assert within(((deals["skat"].astype(np.int64) & bit) != 0).mean(), 2 / 32, N)


def test_the_skat_holds_both_black_jacks() -> None:
    # a rarer event through a second seed: P = 1 / C(32, 2)
    game = find_game("skat")
    skat = play(game, 7, 0, N, game.rules(), ["random"] * 3).columns["skat"].astype(np.int64)
    black = SKAT_DECK.parse("CJ SJ")
    assert within((skat == black).mean(), 1 / comb(32, 2), N)


def test_the_dealer_rotates(deals: dict[str, np.ndarray]) -> None:
    assert np.array_equal(deals["dealer"][:6], [0, 1, 2, 0, 1, 2])
    assert np.array_equal(deals["deal"], np.arange(N))

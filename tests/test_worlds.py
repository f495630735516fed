"""``sim.search.worlds.deal_world``, the exact deal of unseen cards every game's search uses,
against brute force: every deal within the places' counts and allowed cards is equally
likely, through plain rejection (few constraints) as through the counting path (so many
constraints that rejection fails its ``TRIES``), and nothing is dealt when nothing fits.
"""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import numpy as np
from scipy.stats import chisquare

from sim.search import worlds as W


def mask(cards: list[int] | range) -> int:
    return sum(1 << c for c in cards)


def enumerate_deals(unknown: int, counts: list[int], allowed: list[int]) -> list[tuple[int, ...]]:
    """Every deal of the cards of ``unknown``: place ``p`` gets ``counts[p]`` of them, all
    within ``allowed[p]``."""
    out: list[tuple[int, ...]] = []

    def deal(rest: list[int], p: int, got: tuple[int, ...]) -> None:
        if p == len(counts):
            out.append(got)
            return
        for chosen in itertools.combinations(rest, counts[p]):
            part = mask(list(chosen))
            if not part & ~allowed[p]:
                deal([c for c in rest if c not in chosen], p + 1, (*got, part))

    deal([c for c in range(64) if unknown >> c & 1], 0, ())
    return out


def draw(unknown: int, counts: list[int], allowed: list[int], rng: np.ndarray,
         counting: bool = False) -> tuple[int, ...]:
    """One deal by ``deal_world`` (or its counting path alone)."""
    out = np.zeros(len(counts), np.uint64)
    c = np.array(counts, np.int64)
    a = np.array(allowed, np.uint64)
    if counting:
        cards = np.array([i for i in range(64) if unknown >> i & 1], np.int64)
        assert W._deal_by_counting(cards, c, a, rng, out)
    else:
        assert W.deal_world(np.uint64(unknown), c, a, rng, out)
    return tuple(int(x) for x in out)


def uniform(unknown: int, counts: list[int], allowed: list[int], counting: bool,
            seed: int) -> tuple[list[tuple[int, ...]], Counter[tuple[int, ...]]]:
    deals = enumerate_deals(unknown, counts, allowed)
    rng = np.array([seed], np.uint64)
    got = Counter(draw(unknown, counts, allowed, rng, counting) for _ in range(200 * len(deals)))
    assert set(got) <= set(deals), "a deal outside the allowed ones"
    assert chisquare([got[d] for d in deals]).pvalue > 0.001
    return deals, got


TIGHT = (mask(range(9)), [3, 3, 3], [mask([0, 1, 2, 3]), mask([3, 4, 5, 6]), mask(range(9))])
"""Nine cards, three places: the first two allow four cards each, so 7 of the 1680 deals
fit (plain rejection keeps one of its 16 tries about 6 % of the time)."""


def test_without_constraints_every_deal_is_equally_likely() -> None:
    deals, _ = uniform(mask([1, 4, 9, 17, 30, 31]), [2, 1, 3], [mask(range(32))] * 3, False, 1)
    assert len(deals) == comb(6, 2) * comb(4, 1)


def test_tight_constraints_deal_uniformly_by_counting() -> None:
    unknown, counts, allowed = TIGHT
    deals = enumerate_deals(unknown, counts, allowed)
    assert len(deals) == 7
    assert (1 - 7 / 1680) ** W.TRIES > 0.9  # the counting path deals most of these
    uniform(*TIGHT, False, 2)
    uniform(*TIGHT, True, 3)


def test_the_counting_path_alone_is_uniform_with_loose_constraints_too() -> None:
    # one place void in two of the cards: kinds of one, two and three places
    uniform(mask(range(7)), [2, 3, 2], [mask(range(2, 7)), mask(range(7)), mask([0, 1, 5, 6])],
            True, 4)


def test_a_skat_sized_deal_with_a_void_by_counting() -> None:
    """22 cards to 10 + 10 + 2 (two hands and the skat), the first hand void in six of them
    (it keeps none of them in about 1 % of plain deals): how many of the six lie in the skat
    follows the count of deals, C(6, k) C(16, 2 - k) C(14 + k, 4 + k)."""
    suit = list(range(6))
    unknown = mask(range(22))
    counts = [10, 10, 2]
    allowed = [mask(range(6, 22)), unknown, unknown]
    ways = [comb(6, k) * comb(16, 2 - k) * comb(14 + k, 4 + k) for k in range(3)]
    rng = np.array([5], np.uint64)
    n = 3000
    got: Counter[int] = Counter()
    for _ in range(n):
        deal = draw(unknown, counts, allowed, rng)
        assert [bin(p).count("1") for p in deal] == counts
        assert deal[0] | deal[1] | deal[2] == unknown and not deal[0] & mask(suit)
        got[bin(deal[2] & mask(suit)).count("1")] += 1
    assert chisquare([got[k] for k in range(3)], [n * w / sum(ways) for w in ways]).pvalue > 0.001


def test_nothing_fits_nothing_is_dealt() -> None:
    rng = np.array([6], np.uint64)
    out = np.full(2, 99, np.uint64)
    everything = np.uint64(mask(range(4)))
    # a card no place allows
    assert not W.deal_world(everything, np.array([2, 2]), np.array([mask([0, 1, 2])] * 2, np.uint64),
                            rng, out)
    # counts that do not add up to the cards
    assert not W.deal_world(everything, np.array([2, 1]), np.array([mask(range(4))] * 2, np.uint64),
                            rng, out)
    # allowed everywhere, but not in these numbers: three cards only the first place takes
    assert not W.deal_world(everything, np.array([2, 2]),
                            np.array([mask(range(4)), mask([3])], np.uint64), rng, out)
    assert out.tolist() == [99, 99]

"""analysis.stats against values worked out independently: textbook Wilson and Student-t
intervals, scipy's own tests, closed-form sample sizes and statsmodels' power functions."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps
from statsmodels.stats.power import NormalIndPower, TTestPower

from analysis import stats

Z = sps.norm.ppf(0.975)
"""The two-sided 95 % normal quantile (1.959964...)."""


def wilson_by_hand(k: float, n: float, z: float = Z) -> tuple[float, float]:
    """Wilson's score interval from its formula (centre and half-width over 1 + z^2/n)."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def t_by_hand(x: list[float]) -> tuple[float, float]:
    """Student-t interval of the mean of ``x``: mean +- t(n-1) s / sqrt(n)."""
    a = np.asarray(x, float)
    half = sps.t.ppf(0.975, a.size - 1) * a.std(ddof=1) / np.sqrt(a.size)
    return a.mean() - half, a.mean() + half


# --- proportions ----------------------------------------------------------------------------

@pytest.mark.parametrize("k, n, lo, hi", [
    (50, 100, 0.403832, 0.596168),  # symmetric about 1/2
    (0, 10, 0.0, 0.277533),  # z^2/n / (1 + z^2/n)
    (10, 10, 0.722467, 1.0),  # 1 / (1 + z^2/n)
    (1, 20, 0.008881, 0.236131),
])
def test_wilson_textbook_values(k: int, n: int, lo: float, hi: float) -> None:
    got = stats.wilson(k, n)
    assert got == pytest.approx((lo, hi), abs=1e-6)
    assert got == pytest.approx(wilson_by_hand(k, n), abs=1e-12)


def test_wilson_is_vectorised_and_levels_widen() -> None:
    k, n = np.array([50, 0, 10, 3]), np.array([100, 10, 10, 7])
    lo, hi = stats.wilson(k, n)
    assert lo.shape == hi.shape == (4,)
    for j in range(4):
        assert (lo[j], hi[j]) == pytest.approx(wilson_by_hand(k[j], n[j]), abs=1e-12)
    lo99, hi99 = stats.wilson(k, n, alpha=0.01)
    assert np.all(lo99 <= lo) and np.all(hi99 >= hi) and np.any(hi99 > hi)
    assert (lo99[0], hi99[0]) == pytest.approx(wilson_by_hand(50, 100, sps.norm.ppf(0.995)))


def test_rate_estimate() -> None:
    hits = np.array([True] * 3 + [False] * 7)
    est = stats.rate_estimate(hits)
    assert est.value == pytest.approx(0.3) and est.n == 10
    assert (est.lo, est.hi) == pytest.approx(wilson_by_hand(3, 10))
    with np.errstate(divide="ignore", invalid="ignore"):
        assert np.isnan(stats.rate_estimate(np.array([], bool)).value)


# --- means ------------------------------------------------------------------------------------

def test_t_interval_textbook_value() -> None:
    # 1..5: mean 3, s = sqrt(2.5), t(0.975, 4) = 2.776445: 3 -+ 1.963243
    lo, hi = stats.mean_interval(3.0, np.sqrt(2.5), 5)
    assert (lo, hi) == pytest.approx((1.036757, 4.963243), abs=1e-6)
    est = stats.mean_estimate(np.arange(1.0, 6.0))
    assert est == pytest.approx((3.0, 1.036757, 4.963243, 5), abs=1e-6)


@pytest.mark.parametrize("x", [[2.0, 4.0], [0.5, -1.5, 2.0], [10.0, 12.0, 9.0, 11.0, 30.0, 7.0]])
def test_mean_estimate_matches_scipy(x: list[float]) -> None:
    est = stats.mean_estimate(np.array(x))
    ci = sps.ttest_1samp(x, 0.0).confidence_interval()
    assert (est.lo, est.hi) == pytest.approx((ci.low, ci.high))
    assert (est.lo, est.hi) == pytest.approx(t_by_hand(x))


def test_mean_interval_is_vectorised() -> None:
    samples = [[2.0, 4.0], [0.5, -1.5, 2.0], [1.0, 2.0, 3.0, 4.0, 5.0]]
    lo, hi = stats.mean_interval([np.mean(x) for x in samples], [np.std(x, ddof=1) for x in samples],
                                 [len(x) for x in samples])
    assert lo.shape == (3,)
    for j, x in enumerate(samples):
        assert (lo[j], hi[j]) == pytest.approx(t_by_hand(x))


def test_mcse() -> None:
    assert stats.mcse(2.0, 100) == pytest.approx(0.2)
    assert stats.mcse(np.array([1.0, 3.0]), np.array([4, 9])) == pytest.approx([0.5, 1.0])


# --- paired and unpaired differences --------------------------------------------------------

SHIFT = 0.05
"""The scoring difference the paired comparison must find."""


def same_deals(n: int = 2000, seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """Two variants' scores on the same deals: a large per-deal component both share (sd 5),
    small own noise (sd 0.2) and a constant shift of ``SHIFT`` in the first."""
    rng = np.random.default_rng(seed)
    deal = rng.normal(0.0, 5.0, n)
    return deal + SHIFT + rng.normal(0.0, 0.2, n), deal + rng.normal(0.0, 0.2, n)


def test_paired_sees_a_difference_the_unpaired_cannot() -> None:
    a, b = same_deals()
    paired = stats.paired_difference(a, b)
    unpaired = stats.unpaired_difference(a, b)
    assert paired.value == pytest.approx(unpaired.value)
    assert paired.lo < SHIFT < paired.hi
    assert paired.lo > 0, "the paired interval must exclude 0"
    assert unpaired.lo < 0 < unpaired.hi, "the unpaired interval must include 0"
    assert (unpaired.hi - unpaired.lo) > 10 * (paired.hi - paired.lo)
    assert paired.n == unpaired.n == a.size


def test_differences_match_scipy() -> None:
    a, b = same_deals(n=50, seed=3)
    rel = sps.ttest_rel(a, b).confidence_interval()
    ind = sps.ttest_ind(a, b[:40], equal_var=False).confidence_interval()
    assert stats.paired_difference(a, b)[1:3] == pytest.approx((rel.low, rel.high))
    unpaired = stats.unpaired_difference(a, b[:40])
    assert (unpaired.lo, unpaired.hi) == pytest.approx((ind.low, ind.high))
    assert unpaired.value == pytest.approx(a.mean() - b[:40].mean()) and unpaired.n == 40


def test_paired_samples_must_match() -> None:
    with pytest.raises(ValueError, match="differ in size"):
        stats.paired_difference(np.zeros(5), np.zeros(4))


# --- deals needed ---------------------------------------------------------------------------

def test_deals_needed_closed_form() -> None:
    # two independent samples of n each: n = 2 ((z_a + z_b) sd / effect)^2, z_b = z(0.8)
    zz = Z + sps.norm.ppf(0.8)
    assert stats.deals_needed(0.1, 1.0, paired=False) == int(np.ceil(2 * (zz / 0.1) ** 2)) == 1570
    # paired: one t test on the differences; the normal formula (zz/d)^2 plus a little
    normal = (zz / 0.1) ** 2
    assert normal < stats.deals_needed(0.1, 1.0) <= normal + 3


@pytest.mark.parametrize("paired, solver", [(True, TTestPower()), (False, NormalIndPower())])
@pytest.mark.parametrize("effect, std", [(0.05, 1.0), (-2.0, 35.0), (0.3, 0.9)])
def test_deals_needed_is_the_smallest_n_with_the_power(paired: bool, solver: TTestPower,
                                                       effect: float, std: float) -> None:
    n = stats.deals_needed(effect, std, paired=paired)
    d = abs(effect) / std
    assert solver.power(d, n, 0.05) >= 0.8 > solver.power(d, n - 1, 0.05)


def test_paired_needs_fewer_deals_for_the_same_sd() -> None:
    assert stats.deals_needed(0.1, 1.0, paired=True) < stats.deals_needed(0.1, 1.0, paired=False) / 1.9


def test_deals_needed_rate_closed_form() -> None:
    # Cohen's h = 2 asin(sqrt p1) - 2 asin(sqrt p0), each arcsine with variance 1/n:
    # n = 2 ((z_a + z_b) / h)^2 per sample (Cohen's table: h = 0.2 needs 392)
    h = 2 * np.arcsin(np.sqrt(0.54)) - 2 * np.arcsin(np.sqrt(0.5))
    n = stats.deals_needed_rate(0.5, 0.54)
    assert n == int(np.ceil(2 * ((Z + sps.norm.ppf(0.8)) / h) ** 2))
    assert stats.deals_needed_rate(0.54, 0.5) == n
    assert NormalIndPower().power(effect_size=h, nobs1=n, alpha=0.05) >= 0.8 > \
        NormalIndPower().power(effect_size=h, nobs1=n - 1, alpha=0.05)


@pytest.mark.parametrize("needed", [
    lambda e: stats.deals_needed(e, 1.0),
    lambda e: stats.deals_needed(e, 1.0, paired=False),
    lambda e: stats.deals_needed_rate(0.5, 0.5 + e),
])
def test_halving_the_effect_quadruples_the_deals(needed) -> None:
    ratio = needed(0.02) / needed(0.04)
    assert 3.9 < ratio < 4.1


def test_more_power_or_a_stricter_level_needs_more_deals() -> None:
    n = stats.deals_needed(0.1, 1.0)
    assert stats.deals_needed(0.1, 1.0, power=0.9) > n
    assert stats.deals_needed(0.1, 1.0, alpha=0.01) > n


@pytest.mark.filterwarnings("ignore:Warning. Effect size of 0")
@pytest.mark.parametrize("call", [
    lambda: stats.deals_needed(0.0, 1.0),
    lambda: stats.deals_needed(0.1, 0.0),
    lambda: stats.deals_needed(0.1, -1.0),
    lambda: stats.deals_needed_rate(0.5, 0.5),
])
def test_deals_needed_refuses_no_effect(call) -> None:
    with pytest.raises(ValueError):
        call()

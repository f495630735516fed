"""Statistics on arrays: intervals, paired comparisons, Monte Carlo error, sample sizes.

Pure functions (as arviz-stats keeps its numerical base apart from what draws it): they
take numbers or numpy arrays and return numbers or arrays, leaning on statsmodels and
scipy for the formulas. Every rate or mean a report shows comes with an interval from
here; the default level is 95 %.

>>> lo, hi = wilson(50, 100)
>>> round(float(lo), 4), round(float(hi), 4)
(0.4038, 0.5962)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import stats as sps
from statsmodels.stats.power import NormalIndPower, TTestPower
from statsmodels.stats.proportion import proportion_confint, proportion_effectsize
from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

ALPHA = 0.05
"""1 - the confidence level of every interval (95 %)."""


class Estimate(NamedTuple):
    """A point estimate with its interval and the number of deals behind it."""

    value: float
    lo: float
    hi: float
    n: int


def wilson(k: np.ndarray | int, n: np.ndarray | int, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of the proportion ``k / n`` (elementwise)."""
    lo, hi = proportion_confint(np.asarray(k), np.asarray(n), alpha=alpha, method="wilson")
    return np.asarray(lo, float), np.asarray(hi, float)


def mean_interval(mean: np.ndarray | float, std: np.ndarray | float, n: np.ndarray | int,
                  alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Student-t interval of a mean from its sample standard deviation (elementwise)."""
    n = np.asarray(n, float)
    half = sps.t.ppf(1 - alpha / 2, np.maximum(n - 1, 1)) * np.asarray(std, float) / np.sqrt(n)
    return np.asarray(mean, float) - half, np.asarray(mean, float) + half


def mcse(std: np.ndarray | float, n: np.ndarray | int) -> np.ndarray:
    """Monte Carlo standard error of a mean of ``n`` independent deals."""
    se: np.ndarray = np.asarray(std, float) / np.sqrt(np.asarray(n, float))
    return se


def mean_estimate(x: np.ndarray, alpha: float = ALPHA) -> Estimate:
    """Mean of ``x`` with its t interval."""
    d = DescrStatsW(np.asarray(x, float))
    lo, hi = d.tconfint_mean(alpha=alpha)
    return Estimate(float(d.mean), float(lo), float(hi), int(d.nobs))


def rate_estimate(hits: np.ndarray, alpha: float = ALPHA) -> Estimate:
    """Share of true values in ``hits`` with its Wilson interval."""
    hits = np.asarray(hits, bool)
    k, n = int(hits.sum()), int(hits.size)
    lo, hi = wilson(k, n, alpha)
    return Estimate(k / n if n else float("nan"), float(lo), float(hi), n)


def paired_difference(a: np.ndarray, b: np.ndarray, alpha: float = ALPHA) -> Estimate:
    """Mean of ``a - b`` over the same deals (common random numbers) with its interval:
    what the deals share cancels, so the interval is far narrower than ``unpaired``'s."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.shape != b.shape:
        raise ValueError(f"paired samples differ in size: {a.shape} and {b.shape}")
    return mean_estimate(a - b, alpha)


def paired_ratio_difference(y_a: np.ndarray, m_a: np.ndarray, y_b: np.ndarray, m_b: np.ndarray,
                            alpha: float = ALPHA) -> Estimate:
    """``R_a - R_b`` over the same deals, each ``R = sum(y) / sum(m)`` a mean over the deals
    it counts (``m`` 1 where a deal counts, ``y`` 0 where it does not: a rate among some
    deals), with its t interval by the delta method: each deal's influence on ``R_a`` less its
    influence on ``R_b``. Where every deal counts it is ``paired_difference``.

    >>> one = np.ones(4)
    >>> paired_ratio_difference(np.array([1., 2, 3, 4]), one, np.array([0., 2, 2, 4]), one).value
    0.5
    """
    y_a, m_a, y_b, m_b = (np.asarray(x, float) for x in (y_a, m_a, y_b, m_b))
    n = y_a.size
    if not (n > 1 and m_a.sum() > 0 and m_b.sum() > 0):
        return Estimate(float("nan"), float("nan"), float("nan"), n)
    r_a, r_b = y_a.sum() / m_a.sum(), y_b.sum() / m_b.sum()
    influence = (y_a - r_a * m_a) / m_a.mean() - (y_b - r_b * m_b) / m_b.mean()
    lo, hi = mean_interval(r_a - r_b, influence.std(ddof=1), n, alpha)
    return Estimate(float(r_a - r_b), float(lo), float(hi), n)


def unpaired_difference(a: np.ndarray, b: np.ndarray, alpha: float = ALPHA) -> Estimate:
    """Mean of ``a`` less mean of ``b`` as if the samples were independent (Welch)."""
    compare = CompareMeans(DescrStatsW(np.asarray(a, float)), DescrStatsW(np.asarray(b, float)))
    lo, hi = compare.tconfint_diff(alpha=alpha, usevar="unequal")
    return Estimate(float(np.mean(a) - np.mean(b)), float(lo), float(hi), int(min(len(a), len(b))))


def deals_needed(effect: float, std: float, alpha: float = ALPHA, power: float = 0.8,
                 paired: bool = True) -> int:
    """Deals needed to see a mean difference ``effect`` (in the measure's units) with the
    given ``power`` at level ``alpha``: ``std`` is the standard deviation of the per-deal
    difference when ``paired`` (variants on the same deals), else of one variant's values
    (two independent samples of that many deals each)."""
    if effect == 0 or std <= 0:
        raise ValueError("effect must be non-zero and std positive")
    size = abs(effect) / std
    if paired:
        n = TTestPower().solve_power(effect_size=size, alpha=alpha, power=power)
    else:
        n = NormalIndPower().solve_power(effect_size=size, alpha=alpha, power=power)
    return int(np.ceil(n))


def deals_needed_rate(p0: float, p1: float, alpha: float = ALPHA, power: float = 0.8) -> int:
    """Deals (in each of two independent samples) needed to tell rate ``p1`` from ``p0``."""
    size = abs(proportion_effectsize(p1, p0))
    return int(np.ceil(NormalIndPower().solve_power(effect_size=size, alpha=alpha, power=power)))

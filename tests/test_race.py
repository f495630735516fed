"""The race's statistics (``analysis.race``): estimates from moments against direct ones,
the distance bounds against a brute-force search of the box, and the elimination rule's
coverage over many simulated races."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.race import (
    Constraint,
    Estimates,
    Moments,
    Objective,
    family_size,
    gap_bounds,
    judge,
    pareto_front,
    quantile,
)


def block(*columns: np.ndarray) -> np.ndarray:
    return np.column_stack([np.ones(len(columns[0])), *columns])


def test_means_and_paired_errors_match_the_direct_formulas() -> None:
    rng = np.random.default_rng(1)
    shared = rng.normal(size=5000)
    a = shared + rng.normal(scale=0.3, size=5000) + 0.1
    b = shared + rng.normal(scale=0.3, size=5000)
    halves = np.array_split(block(a, b), 3)
    moments = Moments.total(halves, 3)
    est = Estimates.of(moments, [1, 2], [0, 0])
    assert est.value == pytest.approx([a.mean(), b.mean()])
    assert est.se() == pytest.approx([a.std(ddof=1) / np.sqrt(a.size), b.std(ddof=1) / np.sqrt(b.size)])
    assert est.pair_se()[0, 1] == pytest.approx((a - b).std(ddof=1) / np.sqrt(a.size))
    # pairing: the difference's error is far below the independent samples' one
    assert est.pair_se()[0, 1] < 0.5 * np.hypot(*est.se())


def test_a_rate_among_some_deals_is_a_ratio_with_the_delta_method_error() -> None:
    rng = np.random.default_rng(2)
    z = (rng.random(20000) < 0.4).astype(float)  # the deals the rate counts
    y = z * (rng.random(20000) < 0.6)
    est = Estimates.of(Moments.of(block(y, z)), [1], [2])
    p, counted = y.sum() / z.sum(), z.sum()
    assert est.value[0] == pytest.approx(p)
    # the linearised error of a ratio of sums is the binomial error among the counted deals
    assert est.se()[0] == pytest.approx(np.sqrt(p * (1 - p) / counted), rel=0.01)


finite = st.floats(-3, 3, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(finite, st.floats(0, 2), finite, st.floats(0, 2), st.floats(-2, 2))
def test_the_distance_bounds_are_the_extremes_over_the_box(b0, bw, d0, dw, target) -> None:
    lo_b, hi_b, lo_d, hi_d = b0, b0 + bw, d0, d0 + dw
    low, high = gap_bounds(np.array([lo_b]), np.array([hi_b]), np.array([lo_d]), np.array([hi_d]),
                           target)
    rb, d = np.meshgrid(np.linspace(lo_b, hi_b, 201), np.linspace(lo_d, hi_d, 201))
    gap = np.abs(rb + d - target) - np.abs(rb - target)
    assert low[0] <= gap.min() + 1e-9 and high[0] >= gap.max() - 1e-9
    # and tight: within the grid's step of the true extremes
    step = (bw + dw) / 200 * 2 + 1e-9
    assert gap.min() - low[0] <= step and high[0] - gap.max() <= step


def _race(means: np.ndarray, n: int, rng: np.random.Generator, delta: float, rounds: int = 4,
          target: float = 0.0):
    """One round of a race on simulated deals: the candidates share a deal effect."""
    shared = rng.normal(size=n)
    cols = [shared + rng.normal(scale=0.5, size=n) + m for m in means]
    est = Estimates.of(Moments.of(block(*cols)), list(range(1, len(means) + 1)), [0] * len(means))
    return judge([est], [Objective("x", target, delta)], [], rounds, n)


def test_a_clearly_worse_candidate_leaves_and_equal_ones_stay() -> None:
    rng = np.random.default_rng(3)
    verdict = _race(np.array([0.0, 0.0, 0.5, -0.02]), 4000, rng, delta=0.1)
    assert verdict.leaves.tolist() == [False, False, True, False]
    assert verdict.z == pytest.approx(quantile(0.05 / (4 * family_size(4, 1))))


def test_no_split_is_possible_when_the_budget_is_spent_and_the_gaps_are_small() -> None:
    rng = np.random.default_rng(4)
    verdict = _race(np.array([0.0, 0.001, -0.001]), 4000, rng, delta=0.5)
    assert not verdict.leaves.any() and not verdict.split_possible
    verdict = _race(np.array([0.0, 0.15, -0.001]), 4000, rng, delta=0.1)
    assert verdict.split_possible  # 0.15 might still prove to be more than 0.1 with more deals


def test_coverage_no_candidate_within_delta_of_the_best_leaves() -> None:
    """Ten candidates just within delta (0.1) of the best (their distances from a far
    target differ by their paired differences, 0.099) on 400 simulated races: none may leave
    in more than 5 % of them. Intervals at z = 2 instead of the race's let one leave in
    about a fifth of the races."""
    rng = np.random.default_rng(5)
    means = np.array([0.0] + [0.099] * 10)
    wrong = sum(_race(means, 800, rng, delta=0.1, target=-10).leaves.any() for _ in range(400))
    assert wrong <= 20


def test_a_constraint_is_broken_only_when_its_interval_is_wholly_on_the_wrong_side() -> None:
    c = Constraint("tie_rate", "<=", 0.01)
    assert c.broken(np.array([0.011, 0.009]), np.array([0.02, 0.02])).tolist() == [True, False]
    c = Constraint("declarer_win_rate", ">", 0.5)
    assert c.broken(np.array([0.4, 0.45]), np.array([0.5, 0.51])).tolist() == [True, False]
    assert str(c) == "declarer_win_rate > 0.5"


def test_pareto_front_keeps_every_candidate_no_other_beats() -> None:
    d = np.array([[0.1, 0.9], [0.5, 0.5], [0.9, 0.1], [0.6, 0.6], [0.1, 0.9]])
    assert pareto_front(d).tolist() == [True, True, True, False, True]


def test_a_standard_deviation_is_raced_by_the_delta_method() -> None:
    """``Estimates.sd_of``: a seat's score spread, pooled over deals and seats, from each
    deal's mean square and mean, with the delta-method error of its linearised per-deal
    values; two candidates on the same deals get a paired error far below the unpaired."""
    rng = np.random.default_rng(3)
    cards = rng.normal(size=(20000, 3))  # the deal's cards: the same for both candidates
    a = 10 * cards + 2.0
    b = 12 * cards + rng.normal(size=(20000, 3)) + 2.0
    cols = [x for s in (a, b) for x in ((s ** 2).mean(axis=1), s.mean(axis=1))]
    est = Estimates.sd_of(Moments.of(block(*cols)), [1, 3], [2, 4])
    assert est.value == pytest.approx([a.std(), b.std()])
    for k, s in enumerate((a, b)):
        sd, m = s.std(), s.mean()
        psi = ((s ** 2).mean(axis=1) - (s ** 2).mean()) / (2 * sd) - m * (s.mean(axis=1) - m) / sd
        assert est.se()[k] == pytest.approx(psi.std(ddof=1) / np.sqrt(psi.size), rel=1e-6)
    assert est.pair_se()[0, 1] < 0.3 * np.hypot(*est.se())

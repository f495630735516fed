"""Racing rule candidates on common deals: who may leave after a round, and when to stop.

Every candidate plays the same deal indices, so two candidates' measures are compared on
the same deals (paired). A measure is a ratio of per-deal sums, ``sum(y) / sum(z)``: a mean
has ``z = 1`` on every deal, a rate among some deals (a declarer's win rate among the
declared games) has ``z = 1`` on those and ``y = z = 0`` elsewhere. Its variance, and the
covariance of two candidates' measures, come from the linearised values
``(y - R z) / mean(z)`` (the delta method), so a ratio and a mean are treated alike.

What is compared is each candidate's *distance* from the measure's target (0 for an edge),
``|R - target|``. The distance of ``c`` less that of ``b`` is bounded from two intervals: ``b``'s
measure and the paired difference of ``c`` and ``b`` (``gap_bounds``), so pairing narrows the
comparison while the distance's kink at the target is respected.

The coverage: in a round the intervals are every candidate's own and every pair's paired
difference, for every objective; each is taken at level ``alpha / (rounds * count)`` with
``count`` their number in that round (Bonferroni over the round and over the planned
rounds). So with probability at least ``1 - alpha`` every interval of the race covers its
true value at once, and then every candidate that leaves is worse than another by more than
``delta`` on some objective while no better than it by ``delta`` on any (with one objective:
the truly best candidate, and every one within ``delta`` of it, stays). The pairs' family is
complete, not only the pairs with the current best: the best is picked from the same deals,
so a family of its comparisons alone would not hold its level.

>>> import numpy as np
>>> w = np.array([[1.0, 1.0, 3.0], [1.0, -1.0, 1.0], [1.0, 1.0, 2.0]])
>>> moments = Moments.of(w)
>>> moments.n, moments.cross[0].tolist()
(3, [3.0, 1.0, 6.0])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from analysis.stats import ALPHA

ONES = 0
"""The column of ones every moments matrix starts with: its cross sums are the columns'
sums and the number of deals."""


@dataclass(frozen=True)
class Moments:
    """The cross sums ``W.T @ W`` of per-deal columns (column ``ONES`` all ones) over ``n``
    deals: every candidate's sums and every pair's products, all a round needs."""

    n: int
    cross: np.ndarray

    @classmethod
    def of(cls, block: np.ndarray) -> Moments:
        """The moments of one block of deals (rows) and columns (``ONES`` first)."""
        block = np.asarray(block, float)
        return cls(block.shape[0], block.T @ block)

    def __add__(self, other: Moments) -> Moments:
        return Moments(self.n + other.n, self.cross + other.cross)

    @classmethod
    def total(cls, blocks: Iterable[np.ndarray], width: int) -> Moments:
        """The moments of every block (``width`` columns each) together."""
        found = cls(0, np.zeros((width, width)))
        for block in blocks:
            found = found + cls.of(block)
        return found


@dataclass(frozen=True)
class Estimates:
    """Every candidate's measure on one objective, with the covariance of the linearised
    per-deal values (``cov[c, b]``; the mean's variance is ``cov / n``)."""

    value: np.ndarray
    cov: np.ndarray
    n: int

    @classmethod
    def of(cls, moments: Moments, y: Sequence[int], z: Sequence[int]) -> Estimates:
        """The measures ``sum(y) / sum(z)`` of the candidates whose per-deal ``y`` and ``z``
        lie in the columns ``y[k]`` and ``z[k]`` (``ONES`` for a mean)."""
        c, n = moments.cross, moments.n
        yi, zi = np.asarray(y), np.asarray(z)
        sum_y, sum_z = c[ONES, yi], c[ONES, zi]
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(sum_z > 0, sum_y / sum_z, np.nan)
            zbar = sum_z / n
            cyz = c[np.ix_(yi, zi)]
            second = (c[np.ix_(yi, yi)] - cyz * ratio[None, :] - cyz.T * ratio[:, None]
                      + c[np.ix_(zi, zi)] * ratio[:, None] * ratio[None, :])
            cov = second / (n * zbar[:, None] * zbar[None, :]) * (n / max(n - 1, 1))
        return cls(ratio, cov, n)

    @classmethod
    def sd_of(cls, moments: Moments, y: Sequence[int], z: Sequence[int]) -> Estimates:
        """The standard deviations ``sqrt(mean(y) - mean(z)^2)`` of the candidates whose
        per-deal mean square ``y`` and mean ``z`` (over a deal's seats) lie in the columns
        ``y[k]`` and ``z[k]``, linearised by the delta method: a deal's value is
        ``(y - ybar) / (2 sd) - zbar (z - zbar) / sd``."""
        c, n = moments.cross, moments.n
        cols = np.concatenate([np.asarray(y), np.asarray(z)])
        means = c[ONES, cols] / n
        k = len(y)
        ybar, zbar = means[:k], means[k:]
        sd = np.sqrt(np.maximum(ybar - zbar ** 2, 0.0))
        centred = c[np.ix_(cols, cols)] / n - np.outer(means, means)
        with np.errstate(invalid="ignore", divide="ignore"):
            grad = np.concatenate([np.diag(1 / (2 * sd)), np.diag(-zbar / sd)], axis=1)
            cov = grad @ centred @ grad.T * (n / max(n - 1, 1))
        return cls(sd, cov, n)

    def se(self) -> np.ndarray:
        """Each measure's standard error."""
        found: np.ndarray = np.sqrt(np.maximum(np.diag(self.cov), 0.0) / self.n)
        return found

    def pair_se(self) -> np.ndarray:
        """``[c, b]``: the standard error of the paired difference of ``c`` and ``b``."""
        var = np.diag(self.cov)
        found: np.ndarray = np.sqrt(np.maximum(var[:, None] + var[None, :] - 2 * self.cov, 0.0) / self.n)
        return found

    def interval(self, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
        """Each measure's interval at level ``1 - alpha`` (normal: a race's deals are many)."""
        half = quantile(alpha) * self.se()
        return self.value - half, self.value + half


def quantile(alpha: float) -> float:
    """The two-sided normal quantile of level ``1 - alpha``."""
    return float(sps.norm.ppf(1 - alpha / 2))


def family_size(candidates: int, objectives: int) -> int:
    """Intervals one round uses: every candidate's own and every pair's difference, for each
    objective."""
    return objectives * (candidates + candidates * (candidates - 1) // 2)


def gap_bounds(lo_b: np.ndarray, hi_b: np.ndarray, lo_d: np.ndarray, hi_d: np.ndarray,
               target: float) -> tuple[np.ndarray, np.ndarray]:
    """Bounds on ``|R_c - t| - |R_b - t|`` (``c``'s distance from the target less ``b``'s)
    over every ``R_b`` in ``[lo_b, hi_b]`` and paired difference ``R_c - R_b`` in
    ``[lo_d, hi_d]`` (arrays that broadcast). The difference is piecewise linear in ``R_b``
    with kinks where ``R_b``, ``R_b + lo_d`` or ``R_b + hi_d`` meets the target, so its extremes
    lie at the ends of ``[lo_b, hi_b]`` or at those kinks.

    >>> [float(x[0]) for x in gap_bounds(np.array([-0.1]), np.array([0.1]), np.array([0.5]),
    ...                                  np.array([0.7]), 0.0)]
    [0.30000000000000004, 0.7]
    """
    t = target
    points = [lo_b, hi_b, np.clip(t, lo_b, hi_b), np.clip(t - lo_d, lo_b, hi_b),
              np.clip(t - hi_d, lo_b, hi_b)]
    low = high = None
    for r in points:
        base = np.abs(r - t)
        a, b = np.abs(r + lo_d - t), np.abs(r + hi_d - t)
        inside = (t - r >= lo_d) & (t - r <= hi_d)
        least = np.where(inside, 0.0, np.minimum(a, b)) - base
        most = np.maximum(a, b) - base
        low = least if low is None else np.minimum(low, least)
        high = most if high is None else np.maximum(high, most)
    assert low is not None and high is not None
    return low, high


@dataclass(frozen=True)
class Objective:
    """What candidates are raced on: a measure (on one rung of players), its target and the
    smallest difference that matters."""

    name: str
    target: float
    delta: float


@dataclass(frozen=True)
class Verdict:
    """One round's outcome over the candidates that entered it (in their order)."""

    leaves: np.ndarray
    """Whether each candidate leaves the race now (worse than another by more than delta)."""
    violates: np.ndarray
    """Whether each candidate leaves because a constraint is surely broken."""
    split_possible: bool
    """Whether more deals within the budget could still make a candidate leave."""
    z: float
    """The normal quantile each interval of the round was taken at."""


@dataclass(frozen=True)
class Constraint:
    """A bound a measure must keep (``tie_rate <= 0.01``)."""

    measure: str
    op: str
    bound: float

    def broken(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """Where the interval ``[lo, hi]`` lies wholly on the wrong side of the bound."""
        if self.op in ("<=", "<"):
            return lo > self.bound if self.op == "<=" else lo >= self.bound
        return hi < self.bound if self.op == ">=" else hi <= self.bound

    def __str__(self) -> str:
        return f"{self.measure} {self.op} {self.bound:g}"


def judge(estimates: Sequence[Estimates], objectives: Sequence[Objective],
          limits: Sequence[tuple[Constraint, Estimates]], rounds: int, n_budget: int,
          alpha: float = ALPHA) -> Verdict:
    """Who leaves after a round: ``estimates[m]`` the candidates' measures on objective
    ``m``, ``limits`` the constraints with their measures' estimates, over the same deals.
    A candidate leaves when another is better by more than ``delta`` on some objective and
    not worse by more than ``delta`` on any (one objective: its gap to some other candidate
    exceeds ``delta``), or when a constraint is surely broken. More deals (up to
    ``n_budget``) could split the field while some pair's gap could still exceed ``delta``
    once the intervals have shrunk to the budget's width."""
    k = len(estimates[0].value)
    n = estimates[0].n
    count = family_size(k, len(objectives)) + k * len(limits)
    z = quantile(alpha / (rounds * count))
    beaten = np.zeros((k, k), bool)  # [c, b]: b beats c by more than delta somewhere
    close = np.ones((k, k), bool)  # [c, b]: c is nowhere better than b by delta
    reachable = np.zeros((k, k), bool)  # [c, b]: the budget's deals could still show that
    shrink = np.sqrt(n / max(n_budget, n))
    for est, obj in zip(estimates, objectives, strict=True):
        se, pair = est.se(), est.pair_se()
        value = est.value
        diff = value[:, None] - value[None, :]
        lo_b, hi_b = (value - z * se)[None, :], (value + z * se)[None, :]
        low, high = gap_bounds(lo_b, hi_b, diff - z * pair, diff + z * pair, obj.target)
        np.fill_diagonal(low, 0.0)
        np.fill_diagonal(high, 0.0)
        beaten |= low > obj.delta
        close &= low > -obj.delta
        # the largest gap the deals allow, less the half width the budget's deals would leave
        reachable |= high - (high - low) / 2 * shrink > obj.delta
    leaves = np.any(beaten & close, axis=1)
    violates = np.zeros(k, bool)
    undecided = np.zeros(k, bool)
    for constraint, est in limits:
        se = est.se()
        lo, hi = est.value - z * se, est.value + z * se
        violates |= constraint.broken(lo, hi)
        half = z * se * shrink
        undecided |= constraint.broken(hi - half, lo + half) & ~constraint.broken(lo, hi)
    stay = ~(leaves | violates)
    split = bool(np.any(reachable[np.ix_(stay, stay)]) or np.any(undecided & stay))
    return Verdict(leaves | violates, violates & ~leaves, split, z)


def pareto_front(distances: np.ndarray) -> np.ndarray:
    """Which rows of ``distances`` (candidates by objectives, smaller better) no other row
    beats: at least as close on every objective and closer on one.

    >>> pareto_front(np.array([[0.1, 0.5], [0.2, 0.2], [0.3, 0.3]])).tolist()
    [True, True, False]
    """
    d = np.asarray(distances, float)
    at_most = np.all(d[None, :, :] <= d[:, None, :], axis=2)
    less = np.any(d[None, :, :] < d[:, None, :], axis=2)
    beaten: np.ndarray = np.any(at_most & less, axis=1)
    return ~beaten


__all__ = ["Constraint", "Estimates", "Moments", "Objective", "Verdict", "family_size", "gap_bounds",
           "judge", "pareto_front", "quantile"]

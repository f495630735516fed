"""The quality of a game beyond its fairness: skill, the value of information, decisiveness,
tension, spread and variety, one function each, every value with its 95 % interval and, where
the frame holds ``base`` and other variants, its paired difference from ``base`` on the same
deals (``docs/quality.md`` defines each measure and names its source).

The per-deal columns come from ``sim.quality`` (an experiment's ``[quality]``): the skill
pairs' score differences, the course of the card play (lead changes, a comeback, the trick
after which the perfect-play verdict stopped changing); spread and variety read the game's
own result columns. Each function returns a long table like ``analysis.balance``'s: one row
per variant and ``metric``, with ``value``, ``lo``, ``hi``, ``n``, and ``diff``, ``diff_lo``,
``diff_hi`` against ``base``.

>>> round(entropy_bits(np.array([0.5, 0.5])), 3)
1.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl
from scipy import sparse
from scipy import stats as sps

from analysis.balance import Metric, _with_order, ahead, compare, measured
from analysis.load import Outcome
from analysis.stats import ALPHA, mean_interval, wilson

EVENING = 36
"""Deals of an evening (a Skat list is often 36 games: 12 rounds of three)."""
HOLE_SHARE = 0.05
"""A game type whose win rate lies within this of 0 or 1 is a rule hole..."""
HOLE_GAMES = 100
"""... once it was declared at least this often."""
COURSE = ("lead_changes", "behind_at_half", "settled_after", "swings")


def pair_label(column: str) -> str:
    """A skill column's pair as people read it.

    >>> pair_label("skill_lookahead_16_vs_heuristic")
    'lookahead_16 over heuristic'
    """
    return column.removeprefix("skill_").replace("_vs_", " over ")


RESTRICTED = "skill_heuristic_vs_restricted_heuristic_"
"""The prefix of a restriction's skill column (``sim.quality``: the heuristic over the heuristic
forbidden a kind of move); the rest of the name is the restriction's."""


def skill_columns(columns: Sequence[str]) -> list[str]:
    """The skill pairs' score columns a frame holds, in order (the restrictions' apart:
    ``restricted``)."""
    return [c for c in columns if c.startswith("skill_") and not c.startswith("skill_won_")
            and not c.startswith(RESTRICTED)]


def restricted(frame: pl.LazyFrame, variants: list[str] | None = None) -> pl.DataFrame:
    """Per restriction R (restricted play): what forbidding the heuristic that kind of move
    costs it on the same cards, a deal (``R: cost``, its score less the restricted player's,
    duplicate play), the share of deals it costs something (``R: ahead``, level deals half)
    and in won seat-slots (``R: won share``); each with its interval and, for other
    variants, its paired difference from base."""
    names = frame.collect_schema().names()
    metrics: dict[str, Metric] = {}
    for column in (c for c in names if c.startswith(RESTRICTED)):
        name = column.removeprefix(RESTRICTED)
        metrics[f"{name}: cost"] = ("mean", measured(column))
        metrics[f"{name}: ahead"] = ("mean", ahead(measured(column)))
        metrics[f"{name}: won share"] = ("mean", measured(column.replace("skill_", "skill_won_", 1)))
    if not metrics:
        raise ValueError("no restricted play in these results (an experiment's [quality] restricted)")
    return _with_order(compare(frame, ["variant"], metrics), variants)


def ranked(table: pl.DataFrame, variant: str = "base") -> list[dict[str, Any]]:
    """A ``restricted`` table's restrictions in ``variant``, the costliest first: each row's
    ``restriction``, ``value``, ``lo``, ``hi`` (cost a deal) and ``ahead`` (the share of deals
    it costs something).

    >>> t = pl.DataFrame({"variant": ["base"] * 4, "metric": ["a: cost", "a: ahead", "b: cost",
    ...                   "b: ahead"], "value": [0.1, 0.5, 0.4, 0.6], "lo": [0.0, 0.4, 0.3, 0.5],
    ...                   "hi": [0.2, 0.6, 0.5, 0.7]})
    >>> [(r["restriction"], r["value"]) for r in ranked(t)]
    [('b', 0.4), ('a', 0.1)]
    """
    rows = table.filter(pl.col("variant") == variant)
    ahead_of = {m.removesuffix(": ahead"): v for m, v in zip(rows["metric"], rows["value"])
                if m.endswith(": ahead")}
    out = [{"restriction": m.removesuffix(": cost"), "value": v, "lo": lo, "hi": hi,
            "ahead": ahead_of.get(m.removesuffix(": cost"))}
           for m, v, lo, hi in zip(rows["metric"], rows["value"], rows["lo"], rows["hi"])
           if m.endswith(": cost")]
    return sorted(out, key=lambda r: -r["value"])


# --- skill and information -------------------------------------------------------------------

def skill(frame: pl.LazyFrame, outcome: Outcome, variants: list[str] | None = None) -> pl.DataFrame:
    """Per skill pair (better over weaker): the score the better player gains a deal on the
    same cards, the share of deals he does better (level deals half), his side's won share
    less the weaker's, and the skill-to-luck ratio (``skill_to_luck``); with ``information``
    the same for the omniscient player over the fair one."""
    names = frame.collect_schema().names()
    metrics: dict[str, Metric] = {}
    pairs = [(c, pair_label(c)) for c in skill_columns(names)]
    if "information" in names:
        pairs.append(("information", "information"))
    for column, label in pairs:
        won = "information_won" if column == "information" else column.replace("skill_", "skill_won_", 1)
        metrics[f"{label}: score"] = ("mean", measured(column))
        metrics[f"{label}: ahead"] = ("mean", ahead(measured(column)))
        metrics[f"{label}: won share"] = ("mean", measured(won))
    if not metrics:
        raise ValueError("no skill columns in these results (an experiment's [quality] skill)")
    table = compare(frame, ["variant"], metrics)
    ratios = skill_to_luck(frame, outcome, [c for c, _ in pairs])
    return _with_order(pl.concat([table, ratios], how="diagonal_relaxed"), variants)


def _luck_parts(frame: pl.LazyFrame, outcome: Outcome, column: str) -> pl.DataFrame:
    """Per variant and deal: the pair's score difference, and the seats' squared deviation
    from the variant's mean score (the spread the cards make among equal players)."""
    scores = [outcome.score_of(s) for s in range(outcome.players)]
    mean = pl.mean_horizontal(scores)
    wide = frame.select("variant", "deal", d=measured(column), m=mean,
                        **{f"s{s}": x for s, x in enumerate(scores)})
    centre = pl.col("m").mean().over("variant")
    squares = pl.mean_horizontal([(pl.col(f"s{s}") - centre) ** 2 for s in range(outcome.players)])
    return wide.select("variant", "deal", "d", x=squares).collect()


def skill_to_luck(frame: pl.LazyFrame, outcome: Outcome, columns: Sequence[str]) -> pl.DataFrame:
    """Each pair's skill against luck: its mean score difference over the standard deviation
    of one seat's score a deal when every seat plays the experiment's own policy (the
    spread the cards alone make), on the deals the pair played; the interval and the paired
    difference from ``base`` by the delta method (each deal's influence on the ratio)."""
    rows = []
    for column in columns:
        parts = _luck_parts(frame, outcome, column).drop_nulls("d")
        label = "information" if column == "information" else pair_label(column)
        influence: dict[str, tuple[np.ndarray, np.ndarray, float]] = {}
        for (variant,), part in parts.group_by(["variant"], maintain_order=True):
            part = part.sort("deal")
            d, x = part["d"].to_numpy(), part["x"].to_numpy()
            if d.size < 2 or x.mean() <= 0:
                continue
            sigma = math.sqrt(x.mean())
            ratio = d.mean() / sigma
            psi = (d - d.mean()) / sigma - ratio * (x - x.mean()) / (2 * x.mean())
            influence[str(variant)] = (part["deal"].to_numpy(), psi, ratio)
            lo, hi = mean_interval(ratio, psi.std(ddof=1), d.size)
            rows.append({"variant": str(variant), "metric": f"{label}: skill to luck",
                         "value": ratio, "lo": float(lo), "hi": float(hi), "n": int(d.size)})
        if "base" in influence:
            deals, base, r_base = influence["base"]
            for row in rows:
                if row["metric"] != f"{label}: skill to luck" or row["variant"] not in influence:
                    continue
                other, psi, ratio = influence[row["variant"]]
                if not np.array_equal(other, deals):
                    continue
                diff = psi - base
                lo, hi = mean_interval(ratio - r_base, diff.std(ddof=1) if diff.size > 1 else 0.0, diff.size)
                row |= {"diff": ratio - r_base, "diff_lo": float(lo), "diff_hi": float(hi)}
    return pl.DataFrame(rows)


# --- the course of the card play ---------------------------------------------------------------

def decisiveness(frame: pl.LazyFrame, variants: list[str] | None = None) -> pl.DataFrame:
    """The share of solved deals whose perfect-play verdict was settled after ``k`` tricks, for
    every ``k`` (``settled by trick k``: a curve), the mean trick it settled after, and how often
    the verdict changed a deal (``swings``)."""
    top = frame.select(pl.col("settled_after").max()).collect().item()
    if top is None or top < 0:
        raise ValueError("no solved deals in these results (an experiment's [quality] solver_deals)")
    settled = measured("settled_after")
    metrics: dict[str, Metric] = {f"settled by trick {k}": ("rate", settled <= k)
                                  for k in range(int(top) + 1)}
    metrics["trick it settled after"] = ("mean", settled)
    metrics["swings"] = ("mean", measured("swings"))
    return _with_order(compare(frame, ["variant"], metrics), variants)


def tension(frame: pl.LazyFrame, variants: list[str] | None = None) -> pl.DataFrame:
    """Lead changes of the running card points a deal, and how often the side that won was
    behind after half the tricks (a comeback)."""
    return _with_order(compare(frame, ["variant"], {
        "lead changes": ("mean", measured("lead_changes")),
        "comeback": ("rate", measured("behind_at_half") == 1),
    }), variants)


# --- spread --------------------------------------------------------------------------------------

Estimated = tuple[float, float, float]
"""A value and its interval."""


def _quantile_interval(x: np.ndarray, p: float, units: int, alpha: float = ALPHA) -> Estimated:
    """The ``p`` quantile of ``x`` with a distribution-free interval: the order statistics
    whose ranks bound the quantile's by the binomial over ``units`` independent units (the
    deals or evenings; a unit's seats are not independent, so their ranks are scaled up from
    the units', which widens the interval)."""
    s = np.sort(x)
    scale = s.size / units
    lo_rank = int(sps.binom.ppf(alpha / 2, units, p) * scale)
    hi_rank = int(np.ceil(sps.binom.ppf(1 - alpha / 2, units, p) * scale))
    return float(np.quantile(s, p)), float(s[max(lo_rank - 1, 0)]), float(s[min(hi_rank, s.size - 1)])


def _sd_influence(x: np.ndarray) -> tuple[float, np.ndarray]:
    """The standard deviation of ``x`` (``[unit, seat]``: the seats of a deal or an evening
    pooled) and each unit's influence on it (the delta method: its seats' mean of
    ((x - mean)^2 - variance) / (2 sd)), so that the unit is what varies independently."""
    flat = x.ravel()
    var = flat.var(ddof=1)
    sd = math.sqrt(var)
    psi = (((x - flat.mean()) ** 2 - var) / (2 * sd)).mean(axis=1) if sd > 0 else np.zeros(x.shape[0])
    return sd, psi


def evenings(scores: np.ndarray, evening: int = EVENING) -> tuple[np.ndarray, np.ndarray]:
    """Each whole evening's total per seat (``scores``: ``[deal, seat]`` in deal order), and
    whether one deal decided it: leaving out a single deal of the evening (for every seat)
    changes who finishes first.

    >>> totals, decided = evenings(np.array([[5, 0], [0, 1], [0, 1]]), evening=3)
    >>> totals.tolist(), decided.tolist()
    ([[5, 2]], [True])
    """
    k = scores.shape[0] // evening
    blocks = scores[:k * evening].reshape(k, evening, scores.shape[1]).astype(np.int64)
    totals = blocks.sum(axis=1)
    first = totals.argmax(axis=1)
    without = totals[:, None, :] - blocks  # [evening, deal left out, seat]
    decided = (without.argmax(axis=2) != first[:, None]).any(axis=1)
    return totals, decided


Influenced = dict[str, tuple[float, np.ndarray]]
"""Per metric: a variant's value and each unit's influence on it (mean, 0 for a rate's own)."""
Quantiles = dict[str, tuple[np.ndarray, float]]
"""Per quantile metric: the values it is read from (``[unit, seat]``) and its ``p``."""
DRAWS = 400
"""Bootstrap draws of a paired quantile difference."""
CHUNK = 50
"""Draws weighed at once (a ``[draw, unit]`` block of weights)."""


def value_counts(x: np.ndarray) -> tuple[np.ndarray, sparse.csr_matrix]:
    """The distinct values of ``x`` (``[unit, seat]``) in order, and how often each unit holds
    each (a sparse ``[unit, value]`` matrix): a card game's scores take few values, so a
    draw's weights per value are one sparse product.

    >>> values, held = value_counts(np.array([[1, 3], [3, 3]]))
    >>> values.tolist(), held.toarray().tolist()
    ([1, 3], [[1.0, 1.0], [0.0, 2.0]])
    """
    values, index = np.unique(x.ravel(), return_inverse=True)
    units, seats = x.shape
    held = sparse.csr_matrix((np.ones(x.size), (np.repeat(np.arange(units), seats), index.ravel())),
                             shape=(units, values.size))
    return values, held


def weighted_quantiles(values: np.ndarray, weights: np.ndarray, p: float) -> np.ndarray:
    """Per row of ``weights`` (``[draw, value]``), the ``p`` quantile of ``values`` counted
    so often: the lowest value whose cumulative weight reaches ``p`` of the row's whole.

    >>> weighted_quantiles(np.array([1.0, 2.0, 3.0]), np.array([[1, 0, 3], [3, 0, 1]]), 0.5).tolist()
    [3.0, 1.0]
    """
    cum = np.cumsum(weights, axis=1)
    found: np.ndarray = values[np.argmax(cum >= p * cum[:, -1:], axis=1)]
    return found


def paired_quantile_difference(x: np.ndarray, y: np.ndarray, p: float, draws: int = DRAWS,
                               alpha: float = ALPHA) -> tuple[float, float, float]:
    """The ``p`` quantile of ``x`` less that of ``y`` (each ``[unit, seat]``, unit k of one
    the same deal or evening as of the other), with a paired bootstrap interval: each draw
    weighs every unit by a Poisson(1) count (the Poisson bootstrap), the same weights for both
    (percentile interval, ``draws`` draws, seeded so that a report is the same every time). A
    quantile has no per-unit influence where the scores are as lumped as card games' are, so
    it is resampled. Units alike in both (the same scores at every seat) are weighed together,
    by one Poisson count of their number: the same draw, and far fewer numbers to draw.

    >>> d, lo, hi = paired_quantile_difference(np.arange(200.0)[:, None] + 5, np.arange(200.0)[:, None], 0.9)
    >>> d, lo, hi
    (5.0, 5.0, 5.0)
    """
    rng = np.random.default_rng(20261207)
    alike, many = np.unique(np.concatenate([x, y], axis=1), axis=0, return_counts=True)
    (vx, hx), (vy, hy) = value_counts(alike[:, :x.shape[1]]), value_counts(alike[:, x.shape[1]:])
    diffs = []
    for first in range(0, draws, CHUNK):
        w = rng.poisson(many, (min(CHUNK, draws - first), many.size)).astype(float)
        diffs.append(weighted_quantiles(vx, (hx.T @ w.T).T, p) - weighted_quantiles(vy, (hy.T @ w.T).T, p))
    lo, hi = np.quantile(np.concatenate(diffs), [alpha / 2, 1 - alpha / 2])
    value = float(np.quantile(x.ravel(), p) - np.quantile(y.ravel(), p))
    return value, float(lo), float(hi)


def _estimated(value: float, lo: Any, hi: Any) -> Estimated:
    return float(value), float(lo), float(hi)


def _spread_of(scores: np.ndarray, evening: int) -> tuple[list[tuple[str, Estimated, int]],
                                                         Influenced, Quantiles]:
    """One variant's spread rows (metric, estimate, units), the influences the paired
    differences are taken from, and the values of its quantiles."""
    deals = scores.shape[0]
    sd, psi = _sd_influence(scores)
    rows = [("score a deal: standard deviation", _estimated(sd, *mean_interval(sd, psi.std(ddof=1), deals)),
             deals),
            ("score a deal: 5 % quantile", _quantile_interval(scores.ravel(), 0.05, deals), deals),
            ("score a deal: 95 % quantile", _quantile_interval(scores.ravel(), 0.95, deals), deals)]
    influenced: Influenced = {rows[0][0]: (sd, psi)}
    quantiles: Quantiles = {rows[1][0]: (scores, 0.05), rows[2][0]: (scores, 0.95)}
    totals, decided = evenings(scores, evening)
    k = totals.shape[0]
    if k >= 2:
        tsd, tpsi = _sd_influence(totals.astype(float))
        rows += [(f"evening of {evening}: standard deviation",
                  _estimated(tsd, *mean_interval(tsd, tpsi.std(ddof=1), k)), k),
                 (f"evening of {evening}: 5 % quantile", _quantile_interval(totals.ravel(), 0.05, k), k),
                 (f"evening of {evening}: 95 % quantile", _quantile_interval(totals.ravel(), 0.95, k), k)]
        influenced[rows[-3][0]] = (tsd, tpsi)
        quantiles |= {rows[-2][0]: (totals, 0.05), rows[-1][0]: (totals, 0.95)}
    if k:
        share = float(decided.mean())
        rows.append((f"evening of {evening}: decided by one deal",
                     _estimated(share, *wilson(int(decided.sum()), k)), k))
        influenced[rows[-1][0]] = (share, decided - share)
    return rows, influenced, quantiles


def spread(frame: pl.LazyFrame, outcome: Outcome, evening: int = EVENING,
           variants: list[str] | None = None) -> pl.DataFrame:
    """How wild the scores are: a seat's score a deal (standard deviation, the 5 % and 95 %
    quantiles, the mean absolute score) and over an evening of ``evening`` deals (the same of
    a seat's total, and the share of evenings that one deal decided); the standard
    deviations and the share with their paired differences from ``base`` (the same deals
    and evenings, by each unit's influence), the quantiles with theirs by a paired
    bootstrap (``paired_quantile_difference``)."""
    names = [f"s{s}" for s in range(outcome.players)]
    wide = frame.select("variant", "deal", **{n: outcome.score_of(s) for s, n in enumerate(names)}) \
        .collect().sort("variant", "deal")
    rows: list[dict[str, Any]] = []
    influences: dict[str, Influenced] = {}
    quantiles: dict[str, Quantiles] = {}
    for (variant,), part in wide.group_by(["variant"], maintain_order=True):
        found, influences[str(variant)], quantiles[str(variant)] = _spread_of(
            part.select(names).to_numpy(), evening)
        rows += [{"variant": str(variant), "metric": m, "value": v, "lo": lo, "hi": hi, "n": n}
                 for m, (v, lo, hi), n in found]
    base = influences.get("base")
    for row in rows:
        drawn = quantiles[row["variant"]].get(row["metric"])
        b_drawn = quantiles.get("base", {}).get(row["metric"])
        if drawn is not None and b_drawn is not None and drawn[0].shape == b_drawn[0].shape:
            row |= dict(zip(("diff", "diff_lo", "diff_hi"), (0.0, 0.0, 0.0) if row["variant"] == "base"
                            else paired_quantile_difference(drawn[0], b_drawn[0], drawn[1])))
            continue
        own = influences[row["variant"]].get(row["metric"])
        theirs = None if base is None else base.get(row["metric"])
        if own is None or theirs is None or own[1].shape != theirs[1].shape:
            continue
        (value, psi), (b_value, b_psi) = own, theirs
        diff = psi - b_psi
        lo, hi = mean_interval(value - b_value, diff.std(ddof=1) if diff.size > 1 else 0.0, diff.size)
        row |= {"diff": value - b_value, "diff_lo": float(lo), "diff_hi": float(hi)}
    size = compare(frame, ["variant"], {"score a deal: mean absolute": (
        "mean", pl.mean_horizontal([outcome.score_of(s).abs() for s in range(outcome.players)]))})
    return _with_order(pl.concat([pl.DataFrame(rows), size], how="diagonal_relaxed"), variants)


# --- variety -------------------------------------------------------------------------------------

def entropy_bits(p: np.ndarray) -> float:
    """The entropy of shares ``p`` in bits (0: one kind only; log2 of the kinds: all equal)."""
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


def game_type(names: Sequence[str]) -> pl.Expr | None:
    """The game type a declared deal's columns name (the Skat family's game with hand and
    ouvert; Doko-Skat's game and trump), null for a deal without one; None for results that
    name none (the duel)."""
    if "game" not in names:
        return None
    kind = pl.col("game").cast(pl.String)
    if "hand" in names and "ouvert" in names:
        kind = kind + pl.when(pl.col("hand")).then(pl.lit(" hand")).otherwise(pl.lit("")) \
            + pl.when(pl.col("ouvert")).then(pl.lit(" ouvert")).otherwise(pl.lit(""))
    if "declarer" in names:
        declared = pl.col("declarer") >= 0
    else:
        declared = pl.col("declaring_side").is_not_null()
    if "ramsch" in names:
        declared = declared & ~pl.col("ramsch")
    return pl.when(declared).then(kind)


def won_expr(names: Sequence[str]) -> pl.Expr:
    """Whether the declaring side won a declared deal."""
    if "won" in names:
        return pl.col("won").cast(pl.Boolean)
    return pl.col("winner_side").cast(pl.String) == pl.col("declaring_side").cast(pl.String)


def variety(frame: pl.LazyFrame, variants: list[str] | None = None) -> pl.DataFrame:
    """The game types declared (each one's share of the declared games and its win rate) and
    the entropy of their shares in bits with its delta-method interval; where the game bids,
    the win rate of each bid declared at least ``HOLE_GAMES`` times (``holes`` names the rule
    holes among both). ValueError for results without game types."""
    names = frame.collect_schema().names()
    kind = game_type(names)
    if kind is None:
        raise ValueError("these results name no game types (the duel has none)")
    bid = pl.col("bid") if "bid" in names else pl.lit(None, pl.Int64)
    typed = frame.select("variant", "deal", kind=kind, won=won_expr(names), bid=bid).collect()
    declared = typed.drop_nulls("kind")
    rows = []
    for (variant,), part in declared.group_by(["variant"], maintain_order=True):
        n = part.height
        counts = part.group_by("kind").agg(k=pl.len(), w=pl.col("won").sum()).sort("k", descending=True)
        p = counts["k"].to_numpy() / n
        h = entropy_bits(p)
        share_of = dict(zip(counts["kind"].to_list(), p, strict=True))
        psi = -np.log2(np.array([share_of[k] for k in part["kind"].to_list()]))
        lo, hi = mean_interval(h, psi.std(ddof=1) if n > 1 else 0.0, n)
        rows.append({"variant": str(variant), "metric": "game types: entropy (bits)", "value": h,
                     "lo": float(lo), "hi": float(hi), "n": n})
        for kind_name, k, w in counts.iter_rows():
            slo, shi = wilson(k, n)
            wlo, whi = wilson(w, k)
            rows.append({"variant": str(variant), "metric": f"{kind_name}: share", "value": k / n,
                         "lo": float(slo), "hi": float(shi), "n": n})
            rows.append({"variant": str(variant), "metric": f"{kind_name}: won", "value": w / k,
                         "lo": float(wlo), "hi": float(whi), "n": int(k)})
        by_bid = part.drop_nulls("bid").group_by("bid").agg(k=pl.len(), w=pl.col("won").sum()) \
            .filter(pl.col("k") >= HOLE_GAMES).sort("bid")
        for value, k, w in by_bid.iter_rows():
            wlo, whi = wilson(w, k)
            rows.append({"variant": str(variant), "metric": f"bid {value}: won", "value": w / k,
                         "lo": float(wlo), "hi": float(whi), "n": int(k)})
    return _with_order(pl.DataFrame(rows), variants)


def holes(table: pl.DataFrame, variant: str = "base") -> list[tuple[str, float, int]]:
    """A ``variety`` table's rule holes in ``variant``: the game types (and bids) declared at
    least ``HOLE_GAMES`` times whose declaring side wins within ``HOLE_SHARE`` of always or
    never, as (type or ``bid N``, win rate, games).

    >>> t = pl.DataFrame({"variant": ["base"] * 2, "metric": ["grand hand: won", "null: won"],
    ...                   "value": [0.97, 0.6], "lo": [0.9] * 2, "hi": [1.0] * 2, "n": [500, 500]})
    >>> holes(t)
    [('grand hand', 0.97, 500)]
    """
    won = table.filter(pl.col("variant") == variant, pl.col("metric").str.ends_with(": won"),
                       pl.col("n") >= HOLE_GAMES)
    return [(r["metric"].removesuffix(": won"), r["value"], r["n"]) for r in won.iter_rows(named=True)
            if r["value"] >= 1 - HOLE_SHARE or r["value"] <= HOLE_SHARE]

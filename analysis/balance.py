"""The balance questions, one function each, every answer a tidy table with intervals.

Each function takes the lazy frame ``load.scan`` gives (any number of variants), and
those that read how the deals came out the ``load.Outcome`` its shards say
(``load.read_outcome``), and returns a ``polars.DataFrame`` in long form: one row per
variant (and group, where the question has groups) and ``metric``, with ``value``, ``lo``,
``hi`` (the 95 % interval) and ``n`` (the deals behind it). A ``rate`` metric's interval
is Wilson's, a mean's is Student's t. ``sweep`` compares variants on the same deals (paired
differences against ``base``) and ``fairest_paired`` names the variant whose measure lies
closest to its fair value and those the same deals cannot tell from it; ``compare`` adds
each row's paired difference from ``base`` to a table, so that variants are judged on the
same deals, never by whether their intervals overlap.

A function reads the columns it names and applies to any game whose results have them;
where games differ in how a deal ends (a ramsch, a tie) the columns say which rule to read.

>>> import polars as pl
>>> frame = pl.LazyFrame({"variant": ["base"] * 4, "x": [1.0, 2.0, 3.0, 4.0]})
>>> summarise(frame, ["variant"], {"mean x": ("mean", pl.col("x"))})["value"][0]
2.5
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from analysis.load import POSITIONS, Outcome, seats
from analysis.race import gap_bounds
from analysis.stats import (
    mean_estimate,
    mean_interval,
    paired_difference,
    paired_ratio_difference,
    unpaired_difference,
    wilson,
)

Metric = tuple[str, pl.Expr]
"""``("rate", boolean expression)`` (nulls left out) or ``("mean", numeric expression)``."""


def summarise(frame: pl.LazyFrame, by: list[str], metrics: Mapping[str, Metric]) -> pl.DataFrame:
    """Aggregate ``metrics`` per group ``by`` into long rows: ``by``, metric, value, lo, hi, n."""
    aggs = []
    for k, (name, (kind, expr)) in enumerate(metrics.items()):
        if kind == "rate":
            e = expr.cast(pl.Float64)
            aggs += [e.sum().alias(f"k{k}"), e.count().alias(f"n{k}")]
        elif kind == "mean":
            e = expr.cast(pl.Float64)
            aggs += [e.mean().alias(f"m{k}"), e.std().alias(f"s{k}"), e.count().alias(f"n{k}")]
        else:
            raise ValueError(f"metric {name!r}: kind must be rate or mean, got {kind!r}")
    wide = frame.group_by(by).agg(aggs).sort(by).collect()
    parts = []
    for k, (name, (kind, _)) in enumerate(metrics.items()):
        n = wide[f"n{k}"].to_numpy().astype(float)
        safe = np.maximum(n, 1)
        if kind == "rate":
            hits = wide[f"k{k}"].to_numpy().astype(float)
            value = np.where(n > 0, hits / safe, np.nan)
            lo, hi = wilson(hits, safe)
        else:
            value = wide[f"m{k}"].fill_null(np.nan).to_numpy().astype(float)
            std = wide[f"s{k}"].fill_null(0.0).to_numpy().astype(float)
            lo, hi = mean_interval(value, std, safe)
        lo, hi = np.where(n > 0, lo, np.nan), np.where(n > 0, hi, np.nan)
        parts.append(wide.select(by).with_columns(
            metric=pl.lit(name), value=pl.Series(value), lo=pl.Series(lo), hi=pl.Series(hi),
            n=pl.Series(n.astype(np.int64))))
    return pl.concat(parts)


PAIRED = ("diff", "diff_lo", "diff_hi")
"""The columns of a variant's paired difference from ``base`` (on the same deals) that
``compare`` adds."""


def paired(frame: pl.LazyFrame, by: list[str], metrics: Mapping[str, Metric],
           variants: Iterable[str]) -> pl.DataFrame:
    """Each metric's difference of every variant from ``base`` on the same deals (deal ``d``
    of every variant is the same deal): ``by``, metric and ``PAIRED``, per group ``by``
    (``variant`` and any other), by the delta method for a metric over some deals only
    (``stats.paired_ratio_difference``)."""
    groups = [c for c in by if c != "variant"]
    names = list(variants)
    values = {f"m{k}": expr.cast(pl.Float64) for k, (_, expr) in enumerate(metrics.values())}
    wide = frame.select("variant", "deal", *groups, **values).collect()
    rows = []
    for key, part in wide.group_by(groups, maintain_order=True) if groups else [((), wide)]:
        for k, metric in enumerate(metrics):
            table = part.pivot(on="variant", index="deal", values=f"m{k}").sort("deal")
            base = table["base"].fill_null(np.nan).to_numpy()
            for name in names:
                x = table[name].fill_null(np.nan).to_numpy()
                est = paired_ratio_difference(np.nan_to_num(x), ~np.isnan(x), np.nan_to_num(base),
                                              ~np.isnan(base))
                rows.append({**dict(zip(groups, key, strict=True)), "variant": name, "metric": metric,
                             "diff": est.value, "diff_lo": est.lo, "diff_hi": est.hi})
    return pl.DataFrame(rows)


def compare(frame: pl.LazyFrame, by: list[str], metrics: Mapping[str, Metric],
            variants: list[str] | None = None) -> pl.DataFrame:
    """``summarise``, and where the frame holds ``base`` and another variant, each row's paired
    difference from base (``PAIRED``): how variants differ is judged on the same deals, never
    by whether two intervals overlap."""
    table = summarise(frame, by, metrics)
    present = table["variant"].unique(maintain_order=True).to_list()
    if "base" not in present or len(present) < 2:
        return table
    return table.join(paired(frame, by, metrics, present), on=[*by, "metric"], how="left",
                      maintain_order="left")


def _with_order(table: pl.DataFrame, variants: list[str] | None) -> pl.DataFrame:
    """Rows in the experiment's variant order (``base`` first) when it is given."""
    if not variants:
        return table
    rank = {v: i for i, v in enumerate(variants)}
    return (table.with_columns(_rank=pl.col("variant").replace_strict(rank, default=len(rank)))
            .sort("_rank", maintain_order=True).drop("_rank"))


# --- the start player ------------------------------------------------------------------------

def start_player(frame: pl.LazyFrame, outcome: Outcome, variants: list[str] | None = None) -> pl.DataFrame:
    """Win rate (deals with a winner) and mean score of each seat position, per variant:
    ``position`` 0 is the start player (forehand, or the duel's starter)."""
    names = POSITIONS[outcome.players]
    table = compare(seats(frame, outcome), ["variant", "position"], {
        "win rate": ("rate", pl.col("won")), "score": ("mean", pl.col("score"))})
    table = table.with_columns(position=pl.col("position").replace_strict(
        dict(enumerate(names)), return_dtype=pl.String))
    return _with_order(table, variants)


def _start_scores(frame: pl.LazyFrame, outcome: Outcome) -> pl.LazyFrame:
    """Per deal: the start player's score less the others' mean (``start_edge``) and his win
    less the others' mean win, no winner counting 0 for all (``start_win_edge``)."""
    n = outcome.players
    start = outcome.start_seat()
    score = [outcome.score_of(s) for s in range(n)]
    won = [outcome.won_by(s).cast(pl.Float64).fill_null(0.0) for s in range(n)]

    def edge(values: list[pl.Expr]) -> pl.Expr:
        mine = pl.coalesce([pl.when(start == s).then(values[s]) for s in range(n)])
        return mine - (pl.sum_horizontal(values) - mine) / (n - 1)

    return frame.select("variant", "deal", start_edge=edge(score), start_win_edge=edge(won))


def start_edge(frame: pl.LazyFrame, outcome: Outcome, variants: list[str] | None = None) -> pl.DataFrame:
    """The start player's edge per variant: his mean score less the others' (per deal) and
    his win rate less theirs."""
    table = compare(_start_scores(frame, outcome), ["variant"], {
        "score edge": ("mean", pl.col("start_edge")),
        "win rate edge": ("mean", pl.col("start_win_edge"))})
    return _with_order(table, variants)


def payout(frame: pl.LazyFrame, outcome: Outcome, variant: str = "base") -> dict[str, float]:
    """What an average deal pays the start player, won or lost: the mean of his absolute score
    per deal in ``variant`` with its interval (``value``, ``lo``, ``hi``, ``n``), the scale
    his edge is felt against."""
    start = outcome.start_seat()
    score = pl.coalesce([pl.when(start == s).then(outcome.score_of(s)) for s in range(outcome.players)])
    x = frame.filter(pl.col("variant") == variant).select(score.abs()).collect().to_series().to_numpy()
    found = mean_estimate(x)
    return {"value": found.value, "lo": found.lo, "hi": found.hi, "n": found.n}


DECLARER_COLUMNS = ("declarer", "declarer_position", "won")
"""What ``declarer_positions`` reads (besides the scores): the declarer's seat (-1: none), his
position, whether he won."""


def declarer_positions(frame: pl.LazyFrame, outcome: Outcome,
                       variants: list[str] | None = None) -> pl.DataFrame:
    """Declarers by seat position: share of the declared games, win rate and mean declarer
    score (``declarer_position`` forehand, middlehand, rearhand; with two players there is
    no middlehand)."""
    n = outcome.players
    declared = frame.filter(pl.col("declarer") >= 0)
    score = pl.coalesce([pl.when(pl.col("declarer") == s).then(pl.col(outcome.score[s]))
                         for s in range(n)])
    rows = []
    for position in ("forehand", "middlehand", "rearhand") if n == 3 else ("forehand", "rearhand"):
        at = pl.col("declarer_position").cast(pl.String) == position
        part = summarise(declared, ["variant"], {
            "share of games": ("rate", at),
            "win rate": ("rate", pl.when(at).then(pl.col("won"))),
            "declarer score": ("mean", pl.when(at).then(score))})
        rows.append(part.with_columns(position=pl.lit(position)))
    table = pl.concat(rows).select("variant", "position", "metric", "value", "lo", "hi", "n")
    return _with_order(table, variants)


# --- markers (doko_duell) --------------------------------------------------------------------

B_EVENTS = ("fox", "karlchen", "identical", "twenty_two", "pin")
MARKER_COLUMNS = ("a_markers_0", "a_markers_1", "b_markers_0", "b_markers_1",
                  *(f"{e}_{s}" for e in B_EVENTS for s in (0, 1)),
                  "supply_exhausted", "winner", "vp_raw", "vp_0", "vp_1")
"""What ``markers`` and ``vp_distribution`` read: two players' A and B markers and B events,
the box running out, the winner and his victory points before and after ``b_marker_mode``."""


def markers(frame: pl.LazyFrame, variants: list[str] | None = None) -> pl.DataFrame:
    """A and B markers per player and per deal, B events by kind, how often the box of 12
    runs out, and how often ``b_marker_mode`` acts: v1 raising a winner's total to 1, v2
    giving the victory points to the loser (a negative total) or to nobody (zero)."""
    def both(name: str) -> pl.Expr:
        return pl.col(f"{name}_0").cast(pl.Float64) + pl.col(f"{name}_1")

    won = pl.col("winner") >= 0
    metrics: dict[str, Metric] = {
        "A markers per deal": ("mean", both("a_markers")),
        "A markers per player": ("mean", both("a_markers") / 2),
        "B markers per deal": ("mean", both("b_markers")),
        "B markers per player": ("mean", both("b_markers") / 2),
        **{f"B events: {e}": ("mean", both(e)) for e in B_EVENTS},
        "box of 12 runs out": ("rate", pl.col("supply_exhausted")),
        "total below 1 (v1 raises it)": ("rate", pl.when(won).then(pl.col("vp_raw") < 1)),
        "total negative (v2: loser scores)": ("rate", pl.when(won).then(pl.col("vp_raw") < 0)),
        "total zero (v2: nobody scores)": ("rate", pl.when(won).then(pl.col("vp_raw") == 0)),
        "VP per deal": ("mean", both("vp")),
    }
    return _with_order(compare(frame, ["variant"], metrics), variants)


def vp_distribution(frame: pl.LazyFrame, variants: list[str] | None = None) -> pl.DataFrame:
    """Share of deals by the victory points they hand out (``vp_0 + vp_1``), per variant,
    with Wilson intervals."""
    counts = (frame.select("variant", vp=pl.col("vp_0").cast(pl.Int16) + pl.col("vp_1"))
              .group_by("variant", "vp").agg(deals=pl.len())
              .with_columns(n=pl.col("deals").sum().over("variant")).sort("variant", "vp").collect())
    lo, hi = wilson(counts["deals"].to_numpy(), counts["n"].to_numpy())
    table = counts.with_columns(share=pl.col("deals") / pl.col("n"), lo=pl.Series(lo),
                                hi=pl.Series(hi))
    return _with_order(table, variants)


# --- ramsch (skat_en_deux; skat with all_pass = ramsch) ---------------------------------------

RAMSCH_COLUMNS = ("ramsch", "ramsch_points_0", "ramsch_skat_points")
"""What ``ramsch`` reads in every game that plays it (besides the scores): whether the deal
was a ramsch, each seat's card points, the skat's; then how its loser is found (``ramsch``)."""


def ramsch(frame: pl.LazyFrame, outcome: Outcome, variants: list[str] | None = None) -> pl.DataFrame:
    """How often ramsch is played, the loser's card points, the skat's share of them, ties
    (decided by the last trick where the results name one loser, ``ramsch_loser``; else all
    tied players lose), the Durchmarsch (where there is a ``durchmarsch`` column), a Jungfrau
    (where the tricks per seat are there) and how often forehand loses."""
    columns = set(frame.collect_schema().names())
    n = outcome.players
    forehand = outcome.start_seat()
    points = [pl.col(f"ramsch_points_{s}").cast(pl.Float64) for s in range(n)]
    skat = pl.col("ramsch_skat_points").cast(pl.Float64)
    most = pl.max_horizontal(points)
    forehand_score = pl.coalesce([pl.when(forehand == s).then(pl.col(outcome.score[s])) for s in range(n)])
    if "ramsch_loser" in columns:
        # one loser named, a tie decided by the last trick; the skat is added to his points
        loser = pl.col("ramsch_loser")
        lost = pl.coalesce([pl.when(loser == s).then(points[s]) for s in range(n)]) + skat
        skat_share = skat / lost
        extra: dict[str, Metric] = {
            "tie decided by the last trick": ("rate", pl.col("ramsch_tie_last_trick"))}
    else:
        # the most points lose, every seat tied for them too; the skat is in the points of
        # the last trick's taker (``ramsch_last_trick``), or of every loser where the rule
        # column ``ramsch_skat`` says ``loser``
        losers = pl.sum_horizontal([(p == most).cast(pl.Int8) for p in points])
        loser_took_skat = pl.coalesce([pl.when(pl.col("ramsch_last_trick") == s)
                                       .then(points[s] == most) for s in range(n)])
        if "ramsch_skat" in columns:
            loser_took_skat = loser_took_skat | (pl.col("ramsch_skat") == "loser")
        lost = most
        skat_share = pl.when(loser_took_skat).then(skat / most).otherwise(0.0)
        extra = {"tie for most points (all tied lose)": ("rate", losers > 1)}
        if "ramsch_tricks_0" in columns:  # a player without a trick: a Jungfrau
            extra["a Jungfrau (a player without a trick; no Durchmarsch)"] = (
                "rate", pl.any_horizontal([pl.col(f"ramsch_tricks_{s}") == 0 for s in range(n)])
                & ~pl.col("durchmarsch"))
    lost_by_one = pl.col("ramsch")
    if "durchmarsch" in columns:  # one player took every trick: he wins, nobody loses
        extra["Durchmarsch"] = ("rate", pl.col("durchmarsch"))
        lost_by_one = pl.col("ramsch") & ~pl.col("durchmarsch")
    in_ramsch = frame.with_columns(
        _lost=pl.when(lost_by_one).then(lost),
        _share=pl.when(lost_by_one & (lost > 0)).then(skat_share),
        _fh_loses=pl.when(lost_by_one).then(forehand_score < 0))
    metrics: dict[str, Metric] = {
        "ramsch played": ("rate", pl.col("ramsch")),
        "loser's card points": ("mean", pl.col("_lost")),
        "skat's share of the loser's points": ("mean", pl.col("_share")),
        **{k: ("rate", pl.when(pl.col("ramsch")).then(e)) for k, (_, e) in extra.items()},
        "forehand loses": ("rate", pl.col("_fh_loses")),
    }
    return _with_order(compare(in_ramsch, ["variant"], metrics), variants)


# --- the 120 : 120 tie ----------------------------------------------------------------------

SIDES = ("lone", "declaring_side")
"""Columns of a game of a lone player against a pair, in which a side may declare (and a
tie then goes to the other side): ``lone`` the lone player's seat, ``declaring_side``
``lone`` or ``pair`` (null: nobody declared). ``tie_of_sides`` reads them."""
WINNER = "winner"
"""The column of a game of players each on his own: the winner's seat (-1: nobody, a tie left
drawn). ``tie_of_players`` reads it."""


def tie_of_players(frame: pl.LazyFrame, outcome: Outcome, variants: list[str] | None = None) -> pl.DataFrame:
    """A tie between players each on his own (``tie``, ``winner``): how often it comes, how
    often a tie rule names a winner, the start player's edge and the score a deal hands out
    (what the tie rule moves)."""
    metrics: dict[str, Metric] = {
        "120 : 120 tie": ("rate", pl.col("tie")),
        "tie with a winner named": ("rate", pl.when(pl.col("tie")).then(pl.col(WINNER) >= 0)),
        outcome.per_deal: ("mean", pl.sum_horizontal([outcome.score_of(s) for s in range(outcome.players)])),
    }
    table = compare(frame, ["variant"], metrics)
    return _with_order(pl.concat([table, start_edge(frame, outcome)]), variants)


def tie_of_sides(frame: pl.LazyFrame, outcome: Outcome, variants: list[str] | None = None) -> pl.DataFrame:
    """A tie between a lone player and a pair (``tie``, ``lone``, ``declaring_side``): how
    often the sides tie, the ties with a declaring side (the other side scores) and which
    side that is, and the mean score of the lone player and of a pair member in a tie."""
    side = pl.col("declaring_side").cast(pl.String)
    n = outcome.players
    lone_score = pl.coalesce([pl.when(pl.col("lone") == s).then(pl.col(outcome.score[s])) for s in range(n)])
    pair_score = pl.coalesce([pl.when(pl.col("lone") != s).then(pl.col(outcome.score[s])) for s in range(n)])
    in_tie = pl.col("tie")
    metrics: dict[str, Metric] = {
        "tie": ("rate", in_tie),
        "tie: a side declared (the other side scores)": ("rate", pl.when(in_tie).then(side.is_not_null())),
        "tie: the lone player scores (the pair declared)": ("rate", pl.when(in_tie).then(side == "pair")),
        "tie: the pair scores (the lone player declared)": ("rate", pl.when(in_tie).then(side == "lone")),
        "tie: lone player's score": ("mean", pl.when(in_tie).then(lone_score)),
        "tie: a pair member's score": ("mean", pl.when(in_tie).then(pair_score)),
        "tie among declared games": ("rate", pl.when(side.is_not_null()).then(in_tie)),
    }
    return _with_order(compare(frame, ["variant"], metrics), variants)


def tie_between_sides(columns: Iterable[str]) -> bool:
    """Whether results with these columns tie a lone player against a pair (``SIDES``)
    rather than players each on his own."""
    return set(SIDES) <= set(columns)


def tie(frame: pl.LazyFrame, outcome: Outcome, variants: list[str] | None = None) -> pl.DataFrame:
    """The tie's frequency and whom it favours, as the results' columns say: between a lone
    player and a pair (``tie_of_sides``) or between players each on his own
    (``tie_of_players``). ValueError for results without a ``tie`` column."""
    columns = frame.collect_schema().names()
    if "tie" in columns and tie_between_sides(columns):
        return tie_of_sides(frame, outcome, variants)
    if "tie" in columns and WINNER in columns:
        return tie_of_players(frame, outcome, variants)
    raise ValueError("no 120 : 120 tie question for these results (they have no tie column, or "
                     f"neither {' and '.join(SIDES)} nor {WINNER})")


# --- any option against any other --------------------------------------------------------------

@dataclass(frozen=True)
class Measure:
    """A per-deal balance measure a sweep compares or a tune races, with its fair value."""

    label: str
    unit: str
    fair: float | None
    """Where the measure is fair (an edge of 0); None: no value is fair by itself (a tune
    names its target)."""
    per_deal: Callable[[pl.LazyFrame, Outcome], pl.LazyFrame]
    """``(frame, outcome) ->`` frame of ``variant``, ``deal``, ``value`` (null: a deal the
    measure leaves out, for a rate ``among`` some deals)."""
    needs: tuple[str, ...] = ()
    """Result columns it reads besides the outcome's."""
    among: bool = False
    """A rate among some deals only (the declared games): its value is a ratio of sums."""
    centre: Callable[[pl.LazyFrame, Outcome], pl.LazyFrame] | None = None
    """A standard deviation's per-deal mean (``per_deal`` then gives the per-deal mean
    square): the measure is ``sqrt(mean(per_deal) - mean(centre)^2)``
    (``analysis.race.Estimates.sd_of``)."""

    @property
    def fair_value(self) -> float:
        """The fair value of a measure that has one (ValueError for one that has none)."""
        if self.fair is None:
            raise ValueError(f"the {self.label} has no fair value: name its target")
        return self.fair

    @property
    def sweepable(self) -> bool:
        """Whether a sweep may compare it: it has a fair value and counts every deal."""
        return self.fair is not None and not self.among and self.centre is None


def _column_of(name: str) -> Callable[[pl.LazyFrame, Outcome], pl.LazyFrame]:
    def per_deal(frame: pl.LazyFrame, outcome: Outcome) -> pl.LazyFrame:
        return _start_scores(frame, outcome).select("variant", "deal", value=pl.col(name))
    return per_deal


def _of_deal(expr: pl.Expr) -> Callable[[pl.LazyFrame, Outcome], pl.LazyFrame]:
    """A measure read off each deal's row by ``expr`` (null: the deal is left out)."""
    def per_deal(frame: pl.LazyFrame, outcome: Outcome) -> pl.LazyFrame:
        return frame.select("variant", "deal", value=expr.cast(pl.Float64))
    return per_deal


def _both(name: str) -> pl.Expr:
    return pl.col(f"{name}_0").cast(pl.Float64) + pl.col(f"{name}_1")


MEASURES = {
    "start_edge": Measure("start player's score edge", "points per deal", 0.0, _column_of("start_edge")),
    "start_win_edge": Measure("start player's win-rate edge", "share of deals", 0.0,
                              _column_of("start_win_edge")),
    "tie_rate": Measure("120 : 120 tie", "share of deals", 0.0, _of_deal(pl.col("tie")), ("tie",)),
    "declarer_win_rate": Measure("declarer's win rate (declared games)", "share of games", None,
                                 _of_deal(pl.when(pl.col("declarer") >= 0).then(pl.col("won"))),
                                 ("declarer", "won"), among=True),
    "ramsch_rate": Measure("ramsch played", "share of deals", None, _of_deal(pl.col("ramsch")),
                           ("ramsch",)),
    "a_markers_per_deal": Measure("A markers per deal", "markers per deal", None,
                                  _of_deal(_both("a_markers")), ("a_markers_0", "a_markers_1")),
    "b_markers_per_deal": Measure("B markers per deal", "markers per deal", None,
                                  _of_deal(_both("b_markers")), ("b_markers_0", "b_markers_1")),
}
"""The balance measures by name: a sweep compares the ``sweepable`` ones (the experiment's
``[report] measure``), a tune races any (``[tune] measure``)."""


def measured(name: str) -> pl.Expr:
    """A quality column (``sim.quality``) where it was measured: -1 and NaN are null (a
    skill or information score may be below 0; only NaN marks it unmeasured)."""
    col = pl.col(name).cast(pl.Float64)
    return pl.when(col.is_not_nan() & (col >= 0) if not name.startswith(("skill", "information"))
                   else col.is_not_nan()).then(col)


def ahead(d: pl.Expr) -> pl.Expr:
    """1 where a pair's better side scored more on the deal (``d`` its gain), 0.5 level, 0
    less; null where it was not played."""
    return pl.when(d > 0).then(1.0).when(d == 0).then(0.5).when(d < 0).then(0.0)


def has_column(need: str, columns: Iterable[str]) -> bool:
    """Whether ``columns`` hold what a measure or a table ``need``s: the column itself, or with
    ``name_*`` any column whose name starts so."""
    return any(c.startswith(need[:-1]) for c in columns) if need.endswith("*") else need in columns


def _first_pair(won: bool = False, better: bool = False) -> Callable[[pl.LazyFrame, Outcome], pl.LazyFrame]:
    """A measure of the experiment's first skill pair (``[quality] skill``): its gain, its
    won share less the weaker's (``won``), or the share of deals it does better (``better``,
    a level deal half)."""
    def per_deal(frame: pl.LazyFrame, outcome: Outcome) -> pl.LazyFrame:
        names = frame.collect_schema().names()
        d = measured(next(c for c in names if c.startswith("skill_won_")) if won else
                      next(c for c in names if c.startswith("skill_") and not c.startswith("skill_won_")))
        if better:
            d = ahead(d)
        return frame.select("variant", "deal", value=d)
    return per_deal


def _spread(frame: pl.LazyFrame, outcome: Outcome) -> pl.LazyFrame:
    return frame.select("variant", "deal", value=pl.mean_horizontal(
        [outcome.score_of(s).abs() for s in range(outcome.players)]))


def _seats_mean(power: int) -> Callable[[pl.LazyFrame, Outcome], pl.LazyFrame]:
    """A deal's mean over its seats of the score (``power`` 1) or its square (2)."""
    def per_deal(frame: pl.LazyFrame, outcome: Outcome) -> pl.LazyFrame:
        return frame.select("variant", "deal", value=pl.mean_horizontal(
            [outcome.score_of(s).cast(pl.Float64) ** power for s in range(outcome.players)]))
    return per_deal


DECIDED_TRICKS = 21
"""``decided_by_trick_K`` is a measure for every K below this (the duel has 20 tricks)."""
MEASURES |= {
    "skill": Measure("better player's gain on the same cards (first skill pair)", "score per deal",
                     None, _first_pair(), ("skill_*",), among=True),
    "skill_share": Measure("share of deals the better player does better (first skill pair)",
                           "share of deals", None, _first_pair(better=True), ("skill_*",), among=True),
    "skill_won": Measure("better player's won share less the weaker's (first skill pair)",
                         "share of deals", None, _first_pair(won=True), ("skill_won_*",), among=True),
    "information": Measure("omniscient player's gain over the fair one", "score per deal", None,
                           _of_deal(measured("information")), ("information",), among=True),
    "lead_changes": Measure("lead changes a deal", "changes per deal", None,
                            _of_deal(measured("lead_changes")), ("lead_changes",), among=True),
    "comeback_rate": Measure("comebacks (the winner behind at half time)", "share of deals", None,
                             _of_deal(measured("behind_at_half") == 1), ("behind_at_half",), among=True),
    "settled_after": Measure("trick after which the result under perfect play is settled",
                             "tricks", None, _of_deal(measured("settled_after")), ("settled_after",),
                             among=True),
    "swings": Measure("changes of the result under perfect play a deal", "changes per deal", None,
                      _of_deal(measured("swings")), ("swings",), among=True),
    **{f"decided_by_trick_{k}": Measure(f"deals settled under perfect play after {k} tricks",
                                        "share of deals", None,
                                        _of_deal(measured("settled_after") <= k), ("settled_after",),
                                        among=True) for k in range(DECIDED_TRICKS)},
    "score_spread": Measure("a seat's mean absolute score a deal", "score per deal", None, _spread),
    "score_sd": Measure("standard deviation of a seat's score a deal", "score per deal", None,
                        _seats_mean(2), centre=_seats_mean(1)),
}
"""The quality measures (``docs/quality.md``) a tune races or constrains: those that read the
columns of an experiment's ``[quality]`` table need it (``sim.quality``)."""
SWEEPABLE = tuple(name for name, m in MEASURES.items() if m.sweepable)
"""The measures a sweep may compare (a report's ``[report] measure``)."""


def sweep(frame: pl.LazyFrame, outcome: Outcome, measure: str = "start_edge",
          variants: list[str] | None = None) -> pl.DataFrame:
    """Every variant's measure with its interval, its paired difference from ``base`` on the
    same deals, and the unpaired interval the same difference would get from independent
    deals (for contrast)."""
    m = MEASURES[measure]
    if not m.sweepable:
        raise ValueError(f"measure {measure!r} cannot be swept (measures: "
                         f"{', '.join(k for k, v in MEASURES.items() if v.sweepable)})")
    values = m.per_deal(frame, outcome).collect().pivot(on="variant", index="deal", values="value") \
        .sort("deal")
    names = variants or [c for c in values.columns if c != "deal"]
    base = values["base"].to_numpy() if "base" in values.columns else None
    rows: list[dict[str, Any]] = []
    for name in names:
        x = values[name].drop_nulls().to_numpy()
        lo, hi = mean_interval(x.mean(), x.std(ddof=1), x.size)
        row = {"variant": name, "value": float(x.mean()), "lo": float(lo), "hi": float(hi),
               "n": int(x.size), "distance": abs(float(x.mean()) - m.fair_value)}
        if base is not None:
            paired = paired_difference(values[name].to_numpy(), base)
            unpaired = unpaired_difference(values[name].to_numpy(), base)
            row |= {"diff": paired.value, "diff_lo": paired.lo, "diff_hi": paired.hi,
                    "unpaired_lo": unpaired.lo, "unpaired_hi": unpaired.hi}
        rows.append(row)
    best = min(rows, key=lambda r: r["distance"])
    for r in rows:  # how much farther from fair than the fairest, from the same deals
        against = paired_difference(values[r["variant"]].to_numpy(), values[best["variant"]].to_numpy())
        low, high = gap_bounds(np.array(best["lo"]), np.array(best["hi"]), np.array(against.lo),
                               np.array(against.hi), m.fair_value)
        r |= {"gap_lo": float(low), "gap_hi": float(high)}
    return pl.DataFrame(rows).with_columns(measure=pl.lit(measure), fair=pl.lit(m.fair_value))


def fairest_paired(table: pl.DataFrame) -> tuple[str, list[str]]:
    """The variant of a ``sweep`` whose measure lies closest to the fair value, and those not
    surely farther from it on the same deals (``gap_lo``, the least by which a variant's
    distance from the fair value exceeds the fairest's, is not above 0)."""
    best = table.sort("distance").row(0, named=True)
    tied = [r["variant"] for r in table.iter_rows(named=True)
            if r["variant"] != best["variant"] and r["gap_lo"] <= 0]
    return best["variant"], tied

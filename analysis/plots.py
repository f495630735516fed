"""Figures of the balance tables: one function per table kind of ``analysis.balance``.

Every function draws a table it is given and computes nothing of its own (as arviz keeps
its plots apart from its statistics): estimates are dots with whiskers from ``lo`` to
``hi`` (the 95 % interval), categories run down the y axis so long variant names stay
readable, shares are shown in %, and every figure is a ``matplotlib.figure.Figure`` made
without pyplot and drawn by Agg (no display, no global state).

>>> import polars as pl
>>> table = pl.DataFrame({"variant": ["base"] * 2, "metric": ["score edge", "win rate edge"],
...                       "value": [0.4, 0.05], "lo": [0.3, 0.04], "hi": [0.5, 0.06], "n": [10, 10]})
>>> start_edge(table).axes[0].get_xlabel()
'points per deal'
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from typing import TYPE_CHECKING, Any, NamedTuple, ParamSpec

import matplotlib as mpl
import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from analysis import quality
from analysis.balance import MEASURES, fairest_paired

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

STYLE: dict[RcKeyType, Any] = {
    "font.size": 9.5, "axes.titlesize": 10.5, "axes.titleweight": "bold", "axes.titlelocation": "left",
    "figure.titlesize": 13, "figure.titleweight": "bold", "axes.grid": True, "grid.alpha": 0.35,
    "axes.spines.top": False, "axes.spines.right": False, "legend.frameon": False,
    "errorbar.capsize": 2.5, "lines.markersize": 4.5,
}
"""The one look of every figure (applied while a figure is drawn)."""

WIDTH = 10.0
"""Figure width in inches."""

P = ParamSpec("P")

_QUANTITY = re.compile(r"\bscore\b|card points|\bper\b|\bVP\b|^B events|to luck|lead changes|swings|"
                       r"settled after|entropy|deviation|quantile|: cost$")


def is_share(metric: str) -> bool:
    """Whether a balance metric is a share (shown in %) rather than a count, points or a
    score; the metric names of ``analysis.balance`` say which."""
    return "share" in metric or "rate" in metric or not _QUANTITY.search(metric)


def scale_of(unit: str) -> tuple[float, str]:
    """How a measure in ``unit`` is shown: a share of deals as percentage points."""
    return (100, "percentage points") if unit == "share of deals" else (1, unit)


def styled(draw: Callable[P, Figure]) -> Callable[P, Figure]:
    """Draw in ``STYLE``, and give the figure an Agg canvas."""
    @wraps(draw)
    def styled_draw(*args: P.args, **kwargs: P.kwargs) -> Figure:
        with mpl.rc_context(STYLE):
            fig = draw(*args, **kwargs)
        FigureCanvasAgg(fig)
        return fig
    return styled_draw


# --- drawing helpers -------------------------------------------------------------------------

class Panel(NamedTuple):
    """One axes of a figure: the table rows whose ``metric`` it shows, in which unit."""

    title: str
    unit: str
    select: Callable[[str], bool]
    scale: float = 1.0


def _wrap(label: object, width: int = 28) -> str:
    return textwrap.fill(str(label), width)


def _whiskers(ax: Axes, pos: np.ndarray, value: np.ndarray, lo: np.ndarray, hi: np.ndarray,
              **style: Any) -> None:
    """Estimates at y positions ``pos`` with horizontal whiskers from ``lo`` to ``hi``."""
    err = np.clip([value - lo, hi - value], 0, None)
    ax.errorbar(value, pos, xerr=err, **({"fmt": "o"} | style))


def _categories(ax: Axes, labels: Sequence[object]) -> None:
    """The y axis as a list of categories, the first at the top."""
    ax.set_yticks(range(len(labels)), [_wrap(c) for c in labels])
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.grid(False, axis="y")


def _levels(table: pl.DataFrame, column: str | None) -> list[object]:
    return [None] if column is None else table[column].unique(maintain_order=True).to_list()


def _dots(ax: Axes, table: pl.DataFrame, y: str, hue: str | None, scale: float,
          cats: Sequence[object], hues: Sequence[object]) -> None:
    """One row per ``y`` category of ``cats`` and a dodged dot per ``hue`` level; a hue
    keeps its colour across panels because ``hues`` lists them all."""
    step = 0.7 / len(hues)
    for k, level in enumerate(hues):
        part = table if hue is None else table.filter(pl.col(hue) == level)
        if part.is_empty():
            continue
        pos = np.array([list(cats).index(c) for c in part[y]]) + (k - (len(hues) - 1) / 2) * step
        value, lo, hi = (part[c].to_numpy() * scale for c in ("value", "lo", "hi"))
        _whiskers(ax, pos, value, lo, hi, color=f"C{k % 10}", label=level)
    _categories(ax, cats)


def _rows(table: pl.DataFrame) -> pl.DataFrame:
    """The rows with an estimate (a metric over no deals has none)."""
    return table.filter(pl.col("value").is_not_nan() & (pl.col("n") > 0))


def _legend(fig: Figure, title: str) -> None:
    """One legend below the figure for what its axes label (each label once)."""
    entries = {label: handle for ax in fig.axes
               for handle, label in zip(*ax.get_legend_handles_labels(), strict=True)}
    if len(entries) > 1:
        fits = max(1, 110 // max(len(str(label)) + 8 for label in entries))  # columns the width holds
        fig.legend(list(entries.values()), list(entries), title=title, loc="outside lower center",
                   ncols=min(len(entries), 4, fits))


def _panels(table: pl.DataFrame, title: str, panels: Sequence[Panel], y: str, hue: str | None,
            zero: bool = False) -> Figure:
    """A figure of ``panels`` of one table: side by side when every panel lists the same
    ``y`` categories (variants), else one above the other; ``zero`` draws the fair line."""
    table = _rows(table)
    names = table["metric"].unique(maintain_order=True).to_list()
    parts = [(p, table.filter(pl.col("metric").is_in([m for m in names if p.select(m)])))
             for p in panels]
    parts = [(p, t) for p, t in parts if not t.is_empty()]
    hues = _levels(table, hue)
    per_row = max(0.38, 0.085 * len(hues))
    sizes = [t[y].n_unique() for _, t in parts]
    fig = Figure(layout="constrained")
    if y == "variant":
        fig.set_size_inches(WIDTH, 1.6 + per_row * max(sizes))
        axes = fig.subplots(1, len(parts), sharey=True, squeeze=False)[0]
    else:
        fig.set_size_inches(WIDTH, sum(1.1 + per_row * s for s in sizes) + 0.6)
        axes = fig.subplots(len(parts), 1, height_ratios=[1.1 + per_row * s for s in sizes],
                            squeeze=False)[:, 0]
    for ax, (panel, part) in zip(axes, parts, strict=True):
        cats = _levels(table if y == "variant" else part, y)  # side by side, the rows line up
        _dots(ax, part, y, hue, panel.scale, cats, hues)
        ax.set_title(panel.title)
        ax.set_xlabel(panel.unit)
        if zero:
            ax.axvline(0, color="0.3", lw=1, ls="--")
    axes[0].set_ylabel(y)
    fig.suptitle(title)
    _legend(fig, hue or "")
    return fig


def _metric(name: str) -> Callable[[str], bool]:
    return lambda metric: metric == name


# --- one function per table kind ---------------------------------------------------------------

@styled
def start_player(table: pl.DataFrame, score_unit: str = "points per deal") -> Figure:
    """``balance.start_player``: win rate and mean score by seat position, per variant."""
    return _panels(table, "Win rate and score by seat position", [
        Panel("Win rate (deals with a winner)", "share of deals won in %", _metric("win rate"), 100),
        Panel("Mean score", score_unit, _metric("score"))], y="variant", hue="position")


@styled
def start_edge(table: pl.DataFrame, score_unit: str = "points per deal") -> Figure:
    """``balance.start_edge``: the start player's score and win-rate edge per variant."""
    return _panels(table, "The start player's edge over the others (0 = fair)", [
        Panel("Score edge", score_unit, _metric("score edge")),
        Panel("Win-rate edge", "percentage points", _metric("win rate edge"), 100)],
        y="variant", hue=None, zero=True)


@styled
def declarer_positions(table: pl.DataFrame) -> Figure:
    """``balance.declarer_positions``: the declarer's share, win rate and score by position."""
    return _panels(table, "Declarers by seat position", [
        Panel("Share of the declared games", "share of games in %", _metric("share of games"), 100),
        Panel("Declarer's win rate", "share of his games won in %", _metric("win rate"), 100),
        Panel("Declarer's mean score", "points per game", _metric("declarer score"))],
        y="variant", hue="position")


@styled
def markers(table: pl.DataFrame) -> Figure:
    """``balance.markers``: markers, B events by kind, how often the rules act, VP."""
    return _panels(table, "Markers in the duel", [
        Panel("A and B markers", "markers per deal or per player", lambda m: "markers per" in m),
        Panel("B events by kind", "events per deal", lambda m: m.startswith("B events")),
        Panel("How often", "share of deals in %", is_share, 100),
        Panel("Victory points", "VP per deal", _metric("VP per deal"))], y="metric", hue="variant")


@styled
def ramsch(table: pl.DataFrame) -> Figure:
    """``balance.ramsch``: how often ramsch comes and how it ends, per variant."""
    return _panels(table, "Ramsch outcomes", [
        Panel("How often (ramsch played: of all deals; the rest: of ramsch games)", "share in %",
              is_share, 100),
        Panel("The loser's card points", "card points", lambda m: not is_share(m))],
        y="metric", hue="variant")


@styled
def tie(table: pl.DataFrame, score_unit: str = "points per deal") -> Figure:
    """``balance.tie``: how often 120 : 120 comes and whom it favours, per variant."""
    return _panels(table, "The 120 : 120 tie", [
        Panel("How often, and whom it favours", "share in %", is_share, 100),
        Panel("Scores", score_unit, lambda m: not is_share(m))], y="metric", hue="variant", zero=True)


@styled
def vp_distribution(table: pl.DataFrame) -> Figure:
    """``balance.vp_distribution``: share of deals by the victory points they hand out."""
    fig = Figure(figsize=(WIDTH, 4.6), layout="constrained")
    ax = fig.subplots()
    hues = _levels(table, "variant")
    step = 0.8 / len(hues)
    for k, name in enumerate(hues):
        part = table.filter(pl.col("variant") == name)
        x = part["vp"].to_numpy() + (k - (len(hues) - 1) / 2) * step
        share, lo, hi = (part[c].to_numpy() * 100 for c in ("share", "lo", "hi"))
        ax.bar(x, share, width=step, yerr=np.clip([share - lo, hi - share], 0, None),
               color=f"C{k % 10}", label=name, error_kw={"elinewidth": 0.8, "capsize": 1.5})
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(False, axis="x")
    ax.set_xlabel("victory points handed out in the deal (VP, both players)")
    ax.set_ylabel("share of deals in %")
    ax.set_title("How many victory points a deal hands out")
    _legend(fig, "variant")
    return fig


@styled
def race(rounds: Sequence[Mapping[str, Any]], objective: str, target: float, best: Sequence[int],
         unit: str = "") -> Figure:
    """A tune's race on one objective: each candidate's measure after each round it played
    (grey until it left), the best group's with their 95 % intervals in colour, the target
    dashed. ``rounds`` as ``sim.tune.outcome`` gives them."""
    fig = Figure(figsize=(WIDTH, 5.2), layout="constrained")
    ax = fig.subplots()
    tracks: dict[int, list[tuple[int, float, float, float]]] = {}
    for r in rounds:
        for cand, (value, lo, hi) in zip(r["entered"], r["values"][objective], strict=True):
            tracks.setdefault(cand, []).append((r["deals"], value, lo, hi))
    kept = list(best)[:10]
    for cand, track in tracks.items():
        if cand not in kept:
            x, y = zip(*[(t[0], t[1]) for t in track], strict=True)
            ax.plot(x, y, "-", color="0.75", lw=0.7, marker=".", ms=2.5, zorder=1)
    for k, cand in enumerate(kept):
        deals, value, lo, hi = (np.array(c) for c in zip(*tracks[cand], strict=True))
        shift = 1 + (k - (len(kept) - 1) / 2) * 0.02
        ax.errorbar(deals * shift, value, yerr=np.clip([value - lo, hi - value], 0, None), fmt="o-",
                    color=f"C{k % 10}", lw=1.2, label=f"candidate {cand}", zorder=3)
    ax.axhline(target, color="0.3", lw=1, ls="--", label=f"target ({target:g})")
    ax.set_xscale("log")
    ax.set(xlabel="deals per candidate (log scale)", ylabel=unit or objective,
           title=f"{objective}: every candidate by round (grey: left the race; colour: the best group)")
    _legend(fig, "")
    return fig


@styled
def front(points: Sequence[Mapping[str, Any]], x: str, y: str, on_front: Sequence[bool]) -> Figure:
    """Two objectives of the candidates left at the end, with their 95 % intervals: the
    Pareto front (no other candidate closer to both targets) in colour. ``points``: each
    candidate's ``measures`` as ``sim.tune.outcome`` gives them, plus ``candidate``."""
    fig = Figure(figsize=(WIDTH * 0.7, 5.6), layout="constrained")
    ax = fig.subplots()
    for p, on in zip(points, on_front, strict=True):
        vx, vy = p["measures"][x], p["measures"][y]
        ax.errorbar(vx["value"], vy["value"],
                    xerr=[[max(vx["value"] - vx["lo"], 0)], [max(vx["hi"] - vx["value"], 0)]],
                    yerr=[[max(vy["value"] - vy["lo"], 0)], [max(vy["hi"] - vy["value"], 0)]],
                    fmt="o", color="C3" if on else "0.6", zorder=3 if on else 2)
        ax.annotate(str(p["candidate"]), (vx["value"], vy["value"]), fontsize=7,
                    xytext=(3, 3), textcoords="offset points")
    ax.set(xlabel=x, ylabel=y, title="The candidates left: the Pareto front in red")
    return fig


def _compared(table: pl.DataFrame, unit: str | None, names: str, against: str, title: str,
              star: bool) -> Figure:
    """Each row's measure with its interval against the fair value (the fairest starred where
    ``star``, with those the same deals cannot tell from it), and its difference from
    ``against`` with the paired interval (same deals) beside the far wider one independent
    deals would give; ``names`` labels the rows."""
    measure = MEASURES[table["measure"][0]]
    scale, unit = scale_of(unit or measure.unit)
    fig = Figure(figsize=(WIDTH, 1.8 + 0.42 * table.height), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    pos = np.arange(table.height)
    value, lo, hi = (table[c].to_numpy() * scale for c in ("value", "lo", "hi"))
    _whiskers(left, pos, value, lo, hi, color="C0", label="measure with 95 % interval")
    if star:
        best, tied = fairest_paired(table)
        at = table["variant"].to_list().index(best)
        also = f" (as fair on the same deals: {', '.join(tied)})" if tied else ""
        left.plot(value[at], at, "*", ms=14, color="C2", zorder=3, label=f"fairest: {best}{also}")
    fair = measure.fair_value
    left.axvline(fair * scale, color="0.3", lw=1, ls="--", label=f"fair value ({fair:g})")
    left.set(title=measure.label, xlabel=unit, ylabel=names)
    _categories(left, table[names].to_list())
    if "diff" in table.columns:
        diff, dlo, dhi, ulo, uhi = (table[c].to_numpy() * scale for c in
                                    ("diff", "diff_lo", "diff_hi", "unpaired_lo", "unpaired_hi"))
        _whiskers(right, pos - 0.12, diff, dlo, dhi, color="C3", elinewidth=2.2,
                  label="paired interval (same deals)")
        _whiskers(right, pos + 0.12, diff, ulo, uhi, fmt="none", color="0.6",
                  label="unpaired interval (as if independent deals)")
        right.axvline(0, color="0.3", lw=1, ls="--")
        right.set(title=f"Difference from {against}", xlabel=unit)
    fig.suptitle(f"{title}: {measure.label}")
    _legend(fig, "")
    return fig


@styled
def sweep(table: pl.DataFrame, unit: str | None = None) -> Figure:
    """``balance.sweep``: each variant's measure with its interval against the fair value
    (the fairest starred), and its difference from ``base`` with the paired interval (same
    deals) beside the far wider one independent deals would give."""
    return _compared(table, unit, "variant", "base", "Rule variants compared on the same deals", star=True)


@styled
def rungs(table: pl.DataFrame, unit: str | None = None) -> Figure:
    """``robustness.rungs``: the measure on each player rung with its interval against the
    fair value, and its paired difference from the reference rung (its first row)."""
    return _compared(table, unit, "rung", table["rung"][0], "The answer on every player rung", star=False)


def _bars(ax: Axes, table: pl.DataFrame, scale: float) -> None:
    """Each row's paired difference as a bar from 0 with its interval, coloured where it excludes 0."""
    pos = np.arange(table.height)
    diff, lo, hi = (table[c].to_numpy() * scale for c in ("diff", "diff_lo", "diff_hi"))
    clear = (lo > 0) | (hi < 0)
    ax.barh(pos, diff, height=0.6, color=np.where(clear, "C3", "0.75"))
    _whiskers(ax, pos, diff, lo, hi, fmt="none", color="0.2", label="paired 95 % interval (same deals)")
    ax.axvline(0, color="0.3", lw=1)
    _categories(ax, [f"{o} = {v}" for o, v in zip(table["option"], table["setting"], strict=True)])


@styled
def tornado(table: pl.DataFrame, unit: str | None = None) -> Figure:
    """``robustness.one_at_a_time``: each option value's paired difference from the
    experiment's rules as a bar from 0 with its 95 % interval, the largest at the top; bars
    whose interval excludes 0 in colour. Where the table has ``integer`` options (numbers a
    house rule turns) beside rule readings, they get a panel and a scale of their own, so
    that the readings stay readable."""
    measure = MEASURES[table["measure"][0]]
    scale, unit = scale_of(unit or measure.unit)
    integer = table["integer"] if "integer" in table.columns else pl.Series([False] * table.height)
    parts = [(title, part) for title, part in (
        ("Rule readings", table.filter(~integer)),
        ("Integer options, one unit and a typical step (a scale of its own)", table.filter(integer)))
        if part.height]
    title = "difference from the experiment's rules (coloured: the interval excludes 0)"
    fig = Figure(figsize=(WIDTH, 1.6 + 0.3 * table.height + 0.8 * (len(parts) - 1)), layout="constrained")
    axes = fig.subplots(len(parts), 1, height_ratios=[1 + 0.3 * p.height for _, p in parts], squeeze=False)
    for ax, (name, part) in zip(axes[:, 0], parts, strict=True):
        _bars(ax, part, scale)
        ax.set(title=name if len(parts) > 1 else title[0].upper() + title[1:], xlabel=unit,
               ylabel="option changed")
    fig.suptitle(f"One rule option changed at a time: {measure.label}" + f"\n{title}" * (len(parts) > 1))
    return fig


# --- the quality question (``analysis.quality``) ------------------------------------------------

@styled
def skill(table: pl.DataFrame, score_unit: str = "points per deal") -> Figure:
    """``quality.skill``: what each better player gains over the weaker on the same cards,
    how often he does better, his won share, and skill against luck, per variant."""
    return _panels(table, "Skill: the better player against the weaker on the same cards", [
        Panel("Score gained a deal", score_unit, lambda m: m.endswith(": score")),
        Panel("Deals he does better (level: half)", "share of deals in %",
              lambda m: m.endswith(": ahead"), 100),
        Panel("Won share less the weaker's", "percentage points", lambda m: m.endswith(": won share"), 100),
        Panel("Skill to luck", "gain / a seat's score spread", lambda m: m.endswith(": skill to luck"))],
        y="metric", hue="variant", zero=True)


@styled
def restricted(table: pl.DataFrame, score_unit: str = "points per deal") -> Figure:
    """``quality.restricted``: what forbidding each kind of move costs the heuristic on the
    same cards, and how often it costs something, per variant (the costliest first)."""
    order = [r["restriction"] for r in quality.ranked(table, str(_levels(table, "variant")[0]))]
    rank = {f"{name}: {what}": k for k, name in enumerate(order) for what in ("cost", "ahead", "won share")}
    table = table.sort(pl.col("metric").replace_strict(rank, default=len(rank)), maintain_order=True)
    return _panels(table, "Restricted play: the heuristic forbidden a kind of move, on the same cards", [
        Panel("What it costs a deal", score_unit, lambda m: m.endswith(": cost")),
        Panel("Deals it costs something (level: half)", "share of deals in %",
              lambda m: m.endswith(": ahead"), 100)],
        y="metric", hue="variant", zero=True)


@styled
def decisiveness(table: pl.DataFrame) -> Figure:
    """``quality.decisiveness``: the share of deals whose perfect-play verdict was settled
    after each trick, a line per variant with its 95 % band."""
    fig = Figure(figsize=(WIDTH, 4.6), layout="constrained")
    ax = fig.subplots()
    curve = table.filter(pl.col("metric").str.starts_with("settled by trick "))
    for k, name in enumerate(_levels(curve, "variant")):
        part = curve.filter(pl.col("variant") == name)
        tricks = part["metric"].str.strip_prefix("settled by trick ").cast(pl.Int64).to_numpy()
        value, lo, hi = (part[c].to_numpy() * 100 for c in ("value", "lo", "hi"))
        ax.step(tricks, value, where="post", color=f"C{k % 10}", label=name)
        ax.fill_between(tricks, lo, hi, step="post", color=f"C{k % 10}", alpha=0.2, lw=0)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set(xlabel="tricks played (0: before the first card)", ylabel="deals settled in %", ylim=(0, 100),
           title="Decisiveness: deals whose result under perfect play no longer changes after k tricks")
    _legend(fig, "variant")
    return fig


@styled
def tension(table: pl.DataFrame) -> Figure:
    """``quality.tension``: lead changes a deal and the comeback rate, per variant."""
    return _panels(table, "Tension: the lead in card points, trick by trick", [
        Panel("Lead changes", "changes a deal", _metric("lead changes")),
        Panel("Comebacks", "share of deals won from behind at half time in %", _metric("comeback"), 100)],
        y="variant", hue=None)


@styled
def spread(table: pl.DataFrame, score_unit: str = "points") -> Figure:
    """``quality.spread``: a seat's score a deal and over an evening, and how often one deal
    decides an evening, per variant."""
    return _panels(table, "Spread: how wild the scores are", [
        Panel("A seat's score a deal", score_unit, lambda m: m.startswith("score a deal")),
        Panel("A seat's total over an evening", score_unit,
              lambda m: m.startswith("evening") and "decided" not in m),
        Panel("Evenings one deal decides", "share of evenings in %", lambda m: "decided" in m, 100)],
        y="metric", hue="variant")


@styled
def variety(table: pl.DataFrame) -> Figure:
    """``quality.variety``: each game type's share of the declared games and its win rate,
    the win rate of each common bid (the headline names the rule holes: a type or bid that
    nearly always or never wins), and the entropy of the types."""
    panels = [
        Panel("Share of the declared games", "share in %", lambda m: m.endswith(": share"), 100),
        Panel("Won by the declaring side", "share in %",
              lambda m: m.endswith(": won") and not m.startswith("bid "), 100),
        Panel("Entropy of the game types", "bits", lambda m: "entropy" in m)]
    if table["metric"].str.starts_with("bid ").any():
        panels.insert(2, Panel("Won by the bid it reached", "share in %",
                               lambda m: m.startswith("bid ") and m.endswith(": won"), 100))
    return _panels(table, "Variety: the game types declared and won", panels, y="metric", hue="variant")

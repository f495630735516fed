"""``analysis.plots``: every figure, drawn from a small hand-made table of its kind, has a
title, labelled axes with units and interval bars; the sweep shows the paired interval
beside the wider unpaired one."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import polars as pl
import pytest
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure

from analysis import plots

VARIANTS = ["base", "a-rather-long-variant-name-for-the-ticks"]


def long(rows: list[tuple[object, ...]], keys: tuple[str, ...]) -> pl.DataFrame:
    """A balance table in long form from ``(*keys, value)`` rows: interval value ± 0.02."""
    frame = pl.DataFrame(rows, schema=[*keys, "value"], orient="row")
    return frame.with_columns(lo=pl.col("value") - 0.02, hi=pl.col("value") + 0.02, n=pl.lit(1000))


def start_player() -> pl.DataFrame:
    return long([(v, p, m, x) for v in VARIANTS for p in ("start player", "other")
                 for m, x in (("win rate", 0.54 if p == "start player" else 0.46), ("score", 2.1))],
                ("variant", "position", "metric"))


def start_edge() -> pl.DataFrame:
    return long([(v, m, x) for v in VARIANTS for m, x in (("score edge", 0.4), ("win rate edge", 0.05))],
                ("variant", "metric"))


def declarer_positions() -> pl.DataFrame:
    return long([(v, p, m, x) for v in VARIANTS for p in ("forehand", "middlehand", "rearhand")
                 for m, x in (("share of games", 0.33), ("win rate", 0.77), ("declarer score", 21.0))],
                ("variant", "position", "metric"))


def markers() -> pl.DataFrame:
    metrics = [("A markers per deal", 4.0), ("B markers per player", 1.8), ("B events: fox", 0.4),
               ("box of 12 runs out", 0.001), ("total below 1 (v1 raises it)", 0.07), ("VP per deal", 4.1)]
    return long([(v, m, x) for v in VARIANTS for m, x in metrics], ("variant", "metric"))


def ramsch() -> pl.DataFrame:
    table = long([(v, m, x) for v in VARIANTS for m, x in
                  (("ramsch played", 0.2), ("loser's card points", 60.0), ("forehand loses", 0.5))],
                 ("variant", "metric"))
    # a variant that never plays ramsch has no estimate for what happens in one
    none = (pl.col("variant") == "base") & (pl.col("metric") != "ramsch played")
    return table.with_columns(n=pl.when(none).then(0).otherwise(pl.col("n")),
                              value=pl.when(none).then(float("nan")).otherwise(pl.col("value")))


def tie() -> pl.DataFrame:
    metrics = (("120 : 120 tie", 0.012), ("score edge", 0.45), ("VP per deal", 4.1))
    return long([(v, m, x) for v in VARIANTS for m, x in metrics], ("variant", "metric"))


def vp_distribution() -> pl.DataFrame:
    shares = [0.1, 0.3, 0.4, 0.2]
    return pl.DataFrame([(v, vp, int(s * 1000), 1000, s, s - 0.03, s + 0.03)
                         for v in VARIANTS for vp, s in enumerate(shares)],
                        schema=["variant", "vp", "deals", "n", "share", "lo", "hi"], orient="row")


def sweep() -> pl.DataFrame:
    rows = [("base", 0.46, 0.45, 0.47, 0.0, 0.0, 0.0, -0.013, 0.013),
            ("second-wins", -0.29, -0.30, -0.28, -0.75, -0.76, -0.74, -0.77, -0.73),
            ("starter-loses", 0.42, 0.41, 0.43, -0.037, -0.038, -0.036, -0.05, -0.024)]
    table = pl.DataFrame(rows, schema=["variant", "value", "lo", "hi", "diff", "diff_lo", "diff_hi",
                                       "unpaired_lo", "unpaired_hi"], orient="row")
    return table.with_columns(n=pl.lit(1000), distance=pl.col("value").abs(), measure=pl.lit("start_edge"),
                              fair=pl.lit(0.0), gap_lo=pl.Series([0.1, 0.0, 0.09]),
                              gap_hi=pl.Series([0.2, 0.0, 0.16]))


CASES: dict[str, tuple[Callable[..., Figure], Callable[[], pl.DataFrame]]] = {
    "start_player": (plots.start_player, start_player),
    "start_edge": (plots.start_edge, start_edge),
    "declarer_positions": (plots.declarer_positions, declarer_positions),
    "markers": (plots.markers, markers),
    "ramsch": (plots.ramsch, ramsch),
    "tie": (plots.tie, tie),
    "vp_distribution": (plots.vp_distribution, vp_distribution),
    "sweep": (plots.sweep, sweep),
}


def title(ax) -> str:
    return ax.get_title("left") or ax.get_title()


def error_bars(ax) -> list[ErrorbarContainer]:
    return [c for c in ax.containers if isinstance(c, ErrorbarContainer)]


@pytest.mark.parametrize("name", CASES)
def test_every_figure_is_titled_labelled_and_has_interval_bars(name: str) -> None:
    draw, make = CASES[name]
    fig = draw(make())
    assert isinstance(fig, Figure)
    axes = fig.axes
    assert axes and (fig.get_suptitle() or all(title(ax) for ax in axes))
    for ax in axes:
        assert title(ax), f"{name}: an axes without a title"
        assert ax.get_xlabel(), f"{name}: an axes without an x label"
        assert error_bars(ax), f"{name}: an axes without interval bars"
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert all(len(line) <= 28 for label in labels for line in label.split("\n")), labels
    assert axes[0].get_ylabel()
    fig.savefig(__import__("io").BytesIO(), format="png")  # draws under Agg without a display


def test_units_and_shares_in_percent() -> None:
    fig = plots.start_player(start_player(), "VP per deal")
    win, score = fig.axes
    assert "%" in win.get_xlabel() and score.get_xlabel() == "VP per deal"
    # the win rate 0.54 is drawn at 54 (%), its interval at 52 .. 56
    start = error_bars(win)[0]
    assert start.lines[0].get_xdata()[0] == pytest.approx(54.0)
    assert plots.vp_distribution(vp_distribution()).axes[0].get_ylabel() == "share of deals in %"


def test_a_metric_over_no_deals_is_left_out() -> None:
    fig = plots.ramsch(ramsch())
    # the card-points panel holds only the variant that plays ramsch
    points = fig.axes[1]
    assert [t.get_text() for t in points.get_yticklabels()] == ["loser's card points"]
    xs = np.concatenate([c.lines[0].get_xdata() for c in error_bars(points)])
    assert np.isfinite(xs).all() and len(xs) == 1


def test_variants_keep_their_colour_across_panels() -> None:
    fig = plots.markers(markers())
    colours = [[c.lines[0].get_color() for c in error_bars(ax)] for ax in fig.axes]
    assert all(c == colours[0] for c in colours) and len(set(colours[0])) == len(VARIANTS)


def test_sweep_shows_paired_beside_unpaired_and_the_fair_line() -> None:
    fig = plots.sweep(sweep(), "VP per deal")
    left, right = fig.axes[:2]
    assert left.get_xlabel() == "VP per deal"
    assert any(list(line.get_xdata()) == [0, 0] for line in left.get_lines())  # the fair value
    paired, unpaired = error_bars(right)
    assert "paired" in paired.get_label() and "unpaired" in unpaired.get_label()

    def widths(bars: ErrorbarContainer) -> np.ndarray:
        segments = bars.lines[2][0].get_segments()
        return np.array([s[1][0] - s[0][0] for s in segments])

    assert (widths(unpaired) > widths(paired)).all()
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any(t.startswith("fairest: second-wins") for t in legend), legend


def test_a_share_measure_is_drawn_in_percentage_points() -> None:
    table = sweep().with_columns(measure=pl.lit("start_win_edge"))
    assert plots.sweep(table).axes[0].get_xlabel() == "percentage points"
    assert plots.scale_of("share of deals") == (100, "percentage points")
    assert plots.scale_of("VP per deal") == (1, "VP per deal")


@pytest.mark.parametrize("metric, share", [
    ("win rate", True), ("win rate edge", True), ("share of games", True), ("ramsch played", True),
    ("tie for most points (all tied lose)", True), ("total negative (v2: loser scores)", True),
    ("skat's share of the loser's points", True), ("tie: the lone player scores (the pair declared)", True),
    ("score", False), ("score edge", False), ("declarer score", False), ("loser's card points", False),
    ("VP per deal", False), ("A markers per player", False), ("B events: pin", False),
    ("tie: a pair member's score", False),
])
def test_is_share(metric: str, share: bool) -> None:
    assert plots.is_share(metric) is share

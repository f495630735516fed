"""Balance reports: the questions an experiment answers, written up as HTML and Markdown.

``QUESTIONS`` lists every balance question once: its title, the ``analysis.balance``
tables it computes, each with the columns it reads and its ``analysis.plots`` figure, and
a function writing its headline sentences from those tables' numbers. A table is drawn
for results that have the columns it reads besides how the deals came out (which every
results folder's shards say: ``load.Outcome``), and a question applies to results one of
its tables is drawn for: no question names a game. ``build`` reads one results folder and
writes ``index.html`` (self-contained: figures as base64 PNG data URIs, inline CSS,
nothing fetched), ``summary.md`` (headlines and tables) and the PNGs.

>>> applicable(["deal", "start_seat", "won_0", "won_1", "score_0", "score_1", "ramsch",
...             "ramsch_points_0", "ramsch_points_1", "ramsch_skat_points", "ramsch_loser"])
['start_player', 'ramsch', 'sweep']
"""

from __future__ import annotations

import base64
import html
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from analysis import balance, load, plots, quality, robustness

DPI = 110
"""Resolution of the PNGs (the figures are 10 inches wide)."""

OPEN_ROWS = 16
"""Tables up to this long show open in the HTML; longer ones open on a click."""

Row = dict[str, Any]
TextTable = tuple[list[str], list[list[str]]]
"""A table as text: its header and rows."""


# --- what a question reads ---------------------------------------------------------------------

@dataclass(frozen=True)
class Run:
    """One experiment's results as the questions read them."""

    frame: pl.LazyFrame
    info: dict[str, Any]
    """``load.experiment_info``: game, deals, seed, policies, rules, ``variant_list``."""
    variants: list[str]
    """The variants with results, in the experiment's order (``base`` first)."""
    measure: str
    outcome: load.Outcome
    """How the deals came out, as the shards say (``load.read_outcome``)."""
    columns: frozenset[str]
    """The results' columns."""

    @property
    def game(self) -> str:
        return str(self.info["game"])

    @property
    def unit(self) -> str:
        """What a mean score is counted in (``points per deal``, ``VP per deal``)."""
        return self.outcome.per_deal

    @property
    def sweep_unit(self) -> str:
        """What the sweep's measure is counted in (a score edge in the game's score unit)."""
        unit = balance.MEASURES[self.measure].unit
        return unit if unit == "share of deals" else self.unit

    @property
    def restrictions(self) -> dict[str, str]:
        """What each restriction of the results' restricted play forbids, by name."""
        return dict(self.info.get("restrictions", {}))

    def config(self, name: str) -> Row:
        return next(v for v in self.info["variant_list"] if v["name"] == name)

    def rules_changed(self, name: str) -> dict[str, Any]:
        """A variant's rules that differ from ``base``'s; for ``base``, its values of the
        rules some variant changes."""
        base = self.config("base")["rules"]
        if name == "base":
            changed = {k for v in self.info["variant_list"] for k, x in v["rules"].items()
                       if base.get(k) != x}
            return {k: base[k] for k in sorted(changed)}
        return {k: x for k, x in self.config(name)["rules"].items() if base.get(k) != x}

    def settings(self, name: str) -> list[str]:
        """``option = value`` for what a variant changes: its rules, and its policies where
        they differ from ``base``'s."""
        found = [f"{k} = {toml_value(x)}" for k, x in self.rules_changed(name).items()]
        policies = self.config(name)["policies"]
        if policies != self.config("base")["policies"]:
            found.append(f"policies = {', '.join(map(policy_label, policies))}")
        return found

    def describe(self, name: str) -> str:
        """``name (`option = value`, ...)``, for sentences."""
        settings = ", ".join(f"`{s}`" for s in self.settings(name))
        return f"{name} ({settings})" if settings else name


def toml_value(value: object) -> str:
    """An option's value as TOML writes it (``true``, ``second_wins``, ``30``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


# --- numbers as words ----------------------------------------------------------------------------

PRECISION = ("Every number shows the decimals its 95 % interval's half width needs (one "
             "significant digit, two where it starts with 1 or 2; at least one decimal), the same for the "
             "estimate and both bounds; a number known exactly (the same on every deal) says so; a number "
             "that rounds to 0 shows as 0.")
"""The one precision rule of every number a report shows (``decimals``, ``estimate``)."""


def decimals(lo: float, hi: float) -> int | None:
    """Decimals that show the interval's half width to one significant digit, two when it
    starts with 1 or 2 (1 to 4); None for an interval of no width (an exact number).

    >>> decimals(0.36, 0.49), decimals(40.0, 60.0), decimals(0.5, 0.5)
    (2, 1, None)
    """
    half = (hi - lo) / 2
    if not half > 0:
        return None
    exponent = int(np.floor(np.log10(half)))
    return int(np.clip(-exponent + (half / 10.0**exponent < 3), 1, 4))


def _exact(value: float) -> int:
    """Decimals of a number known exactly: none for a whole number, else three significant digits."""
    if not np.isfinite(value) or value == round(value):
        return 0
    return int(np.clip(2 - np.floor(np.log10(abs(value))), 0, 4))


def fixed(x: float, places: int, sign: bool = False) -> str:
    """``x`` to ``places`` decimals, ``+`` before a positive one where ``sign``; a number that
    rounds to 0 is 0, never -0 or +0.

    >>> fixed(-0.0004, 3), fixed(0.25, 1, sign=True), fixed(-1.5, 0)
    ('0.000', '+0.2', '-2')
    """
    text = f"{x:.{places}f}"
    if float(text) == 0:
        return f"{0:.{places}f}"
    return f"+{text}" if sign and x > 0 else text


def estimate(row: Row, unit: str = "", scale: float = 1.0, sign: bool = False,
             cols: tuple[str, str, str] = ("value", "lo", "hi")) -> str:
    """``52.99 % [52.89, 53.09]``: a table row's estimate with its 95 % interval, to the
    decimals ``PRECISION`` gives; ``-3 (exact)`` for one the same on every deal.

    >>> estimate({"value": 0.006, "lo": -0.0001, "hi": 0.012}, sign=True)
    '+0.006 [0.000, 0.012]'
    >>> estimate({"value": -3.0, "lo": -3.0, "hi": -3.0}, " VP", sign=True)
    '-3 VP (exact)'
    """
    value, lo, hi = (row[c] * scale for c in cols)
    d = decimals(lo, hi)
    if d is None and np.isfinite(value):
        return f"{fixed(value, _exact(value), sign)}{unit} (exact)"
    d = 1 if d is None else d
    return f"{fixed(value, d, sign)}{unit} [{fixed(lo, d)}, {fixed(hi, d)}]"


def pct(row: Row) -> str:
    return estimate(row, " %", 100)


def _has(row: Row) -> bool:
    return row["n"] > 0 and not np.isnan(row["value"])


def _pick(table: pl.DataFrame, **where: object) -> Row:
    """The table's row with these values (the tables have one per variant, group and metric)."""
    rows = table.filter(*(pl.col(k) == v for k, v in where.items()))
    if not rows.height:
        raise ValueError(f"no row with {where} in the table")
    return rows.row(0, named=True)


def _moves(row: Row, text: str, unit: str = "", scale: float = 1.0) -> str:
    """``is`` for base (or a table without paired differences); else ``rises to`` / ``falls
    to`` where the row's paired difference from base on the same deals excludes 0, and
    ``is ...`` with that difference where it holds 0: never judged by overlapping intervals."""
    if row["variant"] == "base" or row.get("diff") is None or np.isnan(row["diff"]):
        return f"is {text}"
    change = estimate(row, unit, scale, sign=True, cols=balance.PAIRED)
    if row["diff_lo"] > 0:
        return f"rises to {text} (by {change} on the same deals)"
    if row["diff_hi"] < 0:
        return f"falls to {text} (by {change} on the same deals)"
    return f"is {text} (the same deals cannot tell it from base: {change})"


def _others(run: Run) -> list[str]:
    return [v for v in run.variants if v != "base"]


def _display_long(table: pl.DataFrame, run: Run) -> TextTable:
    """A long table as text: its keys, each estimate with its interval (shares in %), its paired
    difference from base where the table has them, n."""
    value = "value" if "value" in table.columns else "share"
    paired = "diff" in table.columns
    keys = [c for c in table.columns if c not in (value, "lo", "hi", *balance.PAIRED, "n", "deals")]
    rows = []
    for r in table.iter_rows(named=True):
        share = value == "share" or plots.is_share(r["metric"])
        unit = " pp" if share and "edge" in str(r.get("metric", "")) else " %" if share else ""
        scale = 100 if share else 1
        shown = estimate(r, unit, scale, cols=(value, "lo", "hi")) if _has_in(r, value) else "–"
        moved = paired and r["variant"] != "base" and not np.isnan(r["diff"] or np.nan)
        change = [estimate(r, " pp" if share else "", scale, sign=True, cols=balance.PAIRED)
                  if moved else "–"]
        rows.append([str(r[k]) for k in keys] + [shown, *change * paired, f"{r['n']:,}"])
    header = ["estimate [95 % interval]", *["difference from base, paired [95 %]"] * paired, "n"]
    return keys + header, rows


def _has_in(row: Row, value: str) -> bool:
    return row["n"] > 0 and not np.isnan(row[value])


def _column(rows: list[Row], scale: float, cols: tuple[str, str, str]) -> list[str]:
    """One column of signed estimates."""
    return [estimate(r, scale=scale, sign=True, cols=cols) for r in rows]


def _display_sweep(table: pl.DataFrame, run: Run) -> TextTable:
    """The sweep as text: each setting's measure, its paired and its unpaired difference from base."""
    scale, unit = plots.scale_of(run.sweep_unit)
    rows = list(table.iter_rows(named=True))
    columns = [_column(rows, scale, c) for c in (("value", "lo", "hi"), ("diff", "diff_lo", "diff_hi"),
                                                  ("diff", "unpaired_lo", "unpaired_hi"))]
    body = [[r["variant"], ", ".join(run.settings(r["variant"])), *cells, f"{r['n']:,}"]
            for r, *cells in zip(rows, *columns, strict=True)]
    return ["variant", "setting", f"measure in {unit} [95 %]", "difference from base, paired [95 %]",
            "the same, unpaired (as if independent deals)", "n"], body


# --- questions -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Table:
    """One table of a question: how ``balance`` computes it and how ``plots`` draws it."""

    name: str
    title: str
    compute: Callable[[Run], pl.DataFrame]
    draw: Callable[[pl.DataFrame, Run], Figure]
    display: Callable[[pl.DataFrame, Run], TextTable] = _display_long
    """The table as text for the HTML and Markdown."""
    needs: tuple[str, ...] = ()
    """The columns it reads besides the outcome's: it is drawn for results that have them
    (``name_*``: any column whose name starts so; ``a|b``: either)."""

    def applies(self, columns: Iterable[str]) -> bool:
        columns = set(columns)
        return all(any(balance.has_column(n, columns) for n in need.split("|")) for need in self.needs)


@dataclass(frozen=True)
class Question:
    """A balance question: its tables and the sentences written from them. Tables of one
    name are alternatives for results of different columns: the first that applies is drawn."""

    title: str
    tables: tuple[Table, ...]
    headline: Callable[[dict[str, pl.DataFrame], Run], list[str]]
    answer: Callable[[dict[str, pl.DataFrame], Run], str]
    """The question answered in one plain sentence with a scale a player feels (the answer box)."""
    by_default: bool = True
    """Whether a report answers it unasked (the quality question needs an experiment's
    ``[quality]`` measures and is asked by name)."""

    def tables_for(self, columns: Iterable[str]) -> list[Table]:
        """The tables drawn for results with ``columns``, one of each name."""
        columns = set(columns)
        drawn: dict[str, Table] = {}
        for t in self.tables:
            if t.applies(columns):
                drawn.setdefault(t.name, t)
        return list(drawn.values())


# --- headlines, one function per question ---------------------------------------------------------

def _start_headline(tables: dict[str, pl.DataFrame], run: Run) -> list[str]:
    """The start player's win rate, score and edge in base, then per variant; the declarers."""
    players, edges = tables["start_player"], tables["start_edge"]
    names = load.POSITIONS[run.outcome.players]
    who = "The start player" if names[0] == "start player" else f"{names[0].capitalize()} (the start player)"
    win = _pick(players, variant="base", position=names[0], metric="win rate")
    score = _pick(players, variant="base", position=names[0], metric="score")
    edge = _pick(edges, variant="base", metric="score edge")
    against = " and ".join(f"{estimate(_pick(players, variant='base', position=p, metric='score'))} for "
                           f"{'the other' if p == 'other' else p}" for p in names[1:])
    lines = [f"{who} wins {pct(win)} of the deals with a winner and scores "
             f"{estimate(score, ' ' + run.unit)} against {against}: an edge of "
             f"{estimate(edge, ' ' + run.unit, sign=True)} over the others (0 is fair)."]
    for name in _others(run):
        w = _pick(players, variant=name, position=names[0], metric="win rate")
        e = _pick(edges, variant=name, metric="score edge")
        lines.append(f"With {run.describe(name)} his win rate {_moves(w, pct(w), ' pp', 100)} and his edge "
                     f"{_moves(e, estimate(e, ' ' + run.unit, sign=True), ' ' + run.unit)}.")
    if _others(run):
        lines += _edge_lines(edges, run)
    if "declarer_positions" in tables:
        lines.append(_declarer_sentence(tables["declarer_positions"]))
    return lines


def _edge_lines(edges: pl.DataFrame, run: Run) -> list[str]:
    """The start player's edge under every variant side by side, each named by what it sets
    (base by its values of what the variants change), and, where some intervals lie above 0
    and others below, which variants favour whom."""
    rows = {name: _pick(edges, variant=name, metric="score edge") for name in run.variants}
    each = [f"{estimate(r, ' ' + run.unit, sign=True)} in {run.describe(name)}" for name, r in rows.items()]
    lines = [f"The start player's edge, variant by variant: {'; '.join(each)}."]
    ahead = [name for name, r in rows.items() if r["lo"] > 0]
    behind = [name for name, r in rows.items() if r["hi"] < 0]
    if ahead and behind:
        even = [name for name in rows if name not in ahead and name not in behind]
        others = "the other player" if run.outcome.players == 2 else "the others"
        lines.append(f"The variant decides the sign of the edge: it favours the start player in "
                     f"{', '.join(ahead)} and {others} in {', '.join(behind)}"
                     + (f"; its interval holds 0 in {', '.join(even)}" if even else "") + ".")
    return lines


def _declarer_sentence(table: pl.DataFrame) -> str:
    parts = []
    for position in table["position"].unique(maintain_order=True):
        share = _pick(table, variant="base", position=position, metric="share of games")
        won = _pick(table, variant="base", position=position, metric="win rate")
        parts.append(f"{position} declares {pct(share)} of the games and wins {pct(won)} of them")
    return f"Declarers in base: {'; '.join(parts)}."


def _markers_headline(tables: dict[str, pl.DataFrame], run: Run) -> list[str]:
    """Markers per player, the commonest B event, the box, what v1 and v2 do, VP per deal."""
    t = tables["markers"]

    def base(metric: str) -> Row:
        return _pick(t, variant="base", metric=metric)

    events = t.filter(pl.col("variant") == "base", pl.col("metric").str.starts_with("B events: "))
    top = events.sort("value", descending=True).row(0, named=True)
    vp = base("VP per deal")
    lines = [
        f"In base each player earns {estimate(base('A markers per player'))} A markers and "
        f"{estimate(base('B markers per player'))} B markers per deal; the commonest B event is "
        f"{top['metric'].removeprefix('B events: ')}, {estimate(top)} per deal.",
        f"The box of 12 runs out in {pct(base('box of 12 runs out'))} of deals.",
        f"In {pct(base('total below 1 (v1 raises it)'))} of the deals with a winner the winner's total is "
        f"below 1: v1 raises it to 1, v2 hands the VP to the loser in "
        f"{pct(base('total negative (v2: loser scores)'))} and to nobody in "
        f"{pct(base('total zero (v2: nobody scores)'))} of them.",
        f"A deal hands out {estimate(vp, ' VP')} in base"
        + "".join(f"; with {run.describe(n)} that {_moves(r, estimate(r, ' VP'), ' VP')}"
                  for n in _others(run) for r in [_pick(t, variant=n, metric="VP per deal")]) + "."]
    dist = tables["vp_distribution"].filter(pl.col("variant") == "base").sort("share", descending=True)
    if dist.height:
        mode = dist.row(0, named=True)
        lines.append(f"The commonest total in base is {mode['vp']} VP, in "
                     f"{estimate(mode, ' %', 100, cols=('share', 'lo', 'hi'))} of deals.")
    return lines


def _ramsch_headline(tables: dict[str, pl.DataFrame], run: Run) -> list[str]:
    """Per variant: how often ramsch comes, the loser's points, the skat's share, the rest."""
    t = tables["ramsch"]
    main = ("ramsch played", "loser's card points", "skat's share of the loser's points")
    lines = []
    for name in run.variants:
        played = _pick(t, variant=name, metric="ramsch played")
        if not _has(played) or played["value"] == 0:
            lines.append(f"In {run.describe(name)} ramsch is never played.")
            continue
        lost = _pick(t, variant=name, metric="loser's card points")
        skat = _pick(t, variant=name, metric="skat's share of the loser's points")
        rest = [f"{r['metric']} {pct(r)}" for r in t.filter(pl.col("variant") == name).iter_rows(named=True)
                if r["metric"] not in main and _has(r)]
        lines.append(f"In {run.describe(name)} ramsch is played in {pct(played)} of deals; the loser takes "
                     f"{estimate(lost, ' card points')}, {pct(skat)} of them from the skat. Of the ramsch "
                     f"games: {', '.join(rest)}.")
    return lines


def _tie_headline(tables: dict[str, pl.DataFrame], run: Run) -> list[str]:
    between_sides = TIE_OF_SIDES in QUESTIONS["tie"].tables_for(run.columns)
    return (_tie_of_sides_lines if between_sides else _tie_of_players_lines)(tables["tie"], run)


def _tie_of_players_lines(t: pl.DataFrame, run: Run) -> list[str]:
    """How often 120 : 120 comes, and what each tie rule does to the edge and the score a
    deal hands out."""
    unit, handed_out = run.outcome.unit, run.outcome.per_deal
    tie = _pick(t, variant="base", metric="120 : 120 tie")
    lines = [f"120 : 120 comes in {pct(tie)} of duels in base."]
    for name in run.variants:
        r = {m: _pick(t, variant=name, metric=m) for m in ("score edge", "win rate edge", handed_out)}
        score = estimate(r["score edge"], " " + run.unit, sign=True)
        win = estimate(r["win rate edge"], " percentage points", 100, sign=True)
        total = estimate(r[handed_out], " " + unit)
        lines.append(f"With {run.describe(name)} the start player's score edge "
                     f"{_moves(r['score edge'], score, ' ' + run.unit)}, his win-rate edge "
                     f"{_moves(r['win rate edge'], win, ' percentage points', 100)}, and the {unit} a deal "
                     f"hands out {_moves(r[handed_out], total, ' ' + unit)}.")
    return lines


def _tie_of_sides_lines(t: pl.DataFrame, run: Run) -> list[str]:
    """How often the sides tie, and who scores in a tie, per variant."""
    lines = []
    for name in run.variants:
        tie = _pick(t, variant=name, metric="tie")
        declared = _pick(t, variant=name, metric="tie: a side declared (the other side scores)")
        lone = _pick(t, variant=name, metric="tie: the lone player scores (the pair declared)")
        pair = _pick(t, variant=name, metric="tie: the pair scores (the lone player declared)")
        if not _has(declared):
            lines.append(f"In {run.describe(name)} the sides tie at 120 : 120 in {pct(tie)} of deals.")
            continue
        lines.append(f"In {run.describe(name)} the sides tie at 120 : 120 in {pct(tie)} of deals; in "
                     f"{pct(declared)} of ties a side had declared, so the other side scores (1, plus its "
                     f"first-round special points where tie_special_points counts them): the lone "
                     f"player in {pct(lone)} of ties, the pair in {pct(pair)}.")
    return lines


def _sweep_headline(tables: dict[str, pl.DataFrame], run: Run) -> list[str]:
    """The fairest setting and those tied with it; which differences from base are clear;
    how much narrower the paired intervals are."""
    t = tables["sweep"]
    measure = balance.MEASURES[run.measure]
    scale, unit = plots.scale_of(run.sweep_unit)
    unit = " " + unit
    best, tied = balance.fairest_paired(t)
    row = _pick(t, variant=best)
    lines = [f"The fairest setting by the {measure.label} (fair value {measure.fair_value:g}) is "
             f"{run.describe(best)}: {estimate(row, unit, scale, sign=True)}; as fair as far as the same "
             f"deals can tell (paired): {', '.join(tied) if tied else 'none'}."]
    others = t.filter(pl.col("variant") != "base")
    if "diff" in t.columns and others.height:
        clear = [f"{r['variant']} {estimate(r, unit, scale, sign=True, cols=('diff', 'diff_lo', 'diff_hi'))}"
                 for r in others.iter_rows(named=True) if r["diff_lo"] > 0 or r["diff_hi"] < 0]
        lines.append("Against base on the same deals, the paired interval excludes 0 for: "
                     + (", ".join(clear) if clear else "no variant") + ".")
        moved = others.filter(pl.col("diff_hi") > pl.col("diff_lo"))  # a variant equal to base has width 0
        if moved.height:
            ratio = cast(float, moved.select((pl.col("unpaired_hi") - pl.col("unpaired_lo"))
                                             / (pl.col("diff_hi") - pl.col("diff_lo"))).to_series().median())
            lines.append(f"Paired intervals are {ratio:.1f} times narrower (median) than the same "
                         "comparison on independent deals would give.")
    return lines


# --- the answer box: each question answered in one sentence with a scale a player feels ----------

EVENING = quality.EVENING
"""Deals in an evening at the table: the scale a player feels beside the single deal."""


def _start(run: Run) -> str:
    names = load.POSITIONS[run.outcome.players]
    return "the start player" if names[0] == "start player" else f"{names[0]} (the start player)"


def _negated(row: Row) -> Row:
    """A loss as a positive size: the estimate and interval of ``-row``."""
    return row | {"value": -row["value"], "lo": -row["hi"], "hi": -row["lo"]}


def _scale(row: Row, unit: str, payout: Row | None = None, sign: bool = True) -> str:
    """``row`` over an evening of ``EVENING`` deals, and as a share of ``payout`` (what an
    average deal pays the player, won or lost), each with its interval."""
    evening = f"{estimate(row, ' ' + unit, EVENING, sign=sign)} over an evening of {EVENING} deals"
    if payout is None or not payout["value"] > 0:
        return evening
    places = decimals(payout["lo"], payout["hi"])
    size = fixed(payout["value"], _exact(payout["value"]) if places is None else places)
    return (f"{evening}, or {estimate(row, ' %', 100 / payout['value'], sign=sign)} of what an average "
            f"deal pays him ({size} {unit}, won or lost)")


def _start_answer(tables: dict[str, pl.DataFrame], run: Run) -> str:
    """Whether the start player gains or loses in base, by how much a deal, an evening and
    against what a deal pays him; or that the deals cannot tell."""
    row = _pick(tables["start_edge"], variant="base", metric="score edge")
    who, unit = _start(run), run.outcome.unit
    against = "the other player" if run.outcome.players == 2 else "the others"
    payout = balance.payout(run.frame, run.outcome)
    if row["lo"] > 0 or row["hi"] < 0:
        verb, size = ("gains", row) if row["lo"] > 0 else ("loses", _negated(row))
        return (f"{who[0].upper()}{who[1:]} {verb} {estimate(size, ' ' + unit)} a deal against {against}: "
                f"{_scale(size, unit, payout, sign=False)}.")
    return (f"These deals cannot tell whether {who} gains or loses: his edge is "
            f"{estimate(row, ' ' + unit, sign=True)} a deal against {against} (the interval holds 0, "
            f"which is fair), {_scale(row, unit, payout)}.")


def _markers_answer(tables: dict[str, pl.DataFrame], run: Run) -> str:
    t = tables["markers"]
    a, b, vp = (_pick(t, variant="base", metric=m)
                for m in ("A markers per player", "B markers per player", "VP per deal"))
    return (f"Each player earns {estimate(a)} A markers and {estimate(b)} B markers a deal, "
            f"{estimate(a, scale=EVENING)} and {estimate(b, scale=EVENING)} over an evening of {EVENING} "
            f"deals; a deal hands out {estimate(vp, ' VP')} in all.")


def _ramsch_answer(tables: dict[str, pl.DataFrame], run: Run) -> str:
    t = tables["ramsch"]
    played = [(name, row) for name in run.variants
              for row in [_pick(t, variant=name, metric="ramsch played")] if _has(row) and row["value"] > 0]
    if not played:
        return "Ramsch is never played in these deals."
    name, row = played[0]
    lost = _pick(t, variant=name, metric="loser's card points")
    return (f"Ramsch comes in {pct(row)} of the deals in {run.describe(name)}, "
            f"{estimate(row, scale=EVENING)} deals of an evening of {EVENING}; its loser takes "
            f"{estimate(lost, ' card points')}.")


def _tie_answer(tables: dict[str, pl.DataFrame], run: Run) -> str:
    t = tables["tie"]
    metric = "tie" if "tie" in t["metric"].to_list() else "120 : 120 tie"
    tie = _pick(t, variant="base", metric=metric)
    return (f"A deal ends 120 : 120 in {pct(tie)} of the deals, {estimate(tie, scale=EVENING)} deals of an "
            f"evening of {EVENING}.")


def _sweep_answer(tables: dict[str, pl.DataFrame], run: Run) -> str:
    t = tables["sweep"]
    measure = balance.MEASURES[run.measure]
    scale, unit = plots.scale_of(run.sweep_unit)
    best, tied = balance.fairest_paired(t)
    row = _pick(t, variant=best)
    share = measure.unit == "share of deals"
    sized = (f"{estimate(row, ' deals won', EVENING, sign=True)} over an evening of {EVENING} deals" if share
             else _scale(row, run.outcome.unit, balance.payout(run.frame, run.outcome, best)))
    moved = ("" if best == "base" or "diff" not in row else
             f"; against base it moves the {measure.label} by "
             f"{estimate(row, ' ' + unit, scale, sign=True, cols=balance.PAIRED)} on the same deals")
    return (f"The fairest setting is {run.describe(best)}: the {measure.label} is "
            f"{estimate(row, ' ' + unit, scale, sign=True)} a deal, {sized}{moved}; the same deals cannot "
            f"tell from it: {', '.join(tied) if tied else 'no other setting'}.")


def _pairs(table: pl.DataFrame) -> list[str]:
    """The skill pairs of a ``quality.skill`` table, in order (``information`` last)."""
    return [m.removesuffix(": score") for m in table["metric"].unique(maintain_order=True).to_list()
            if m.endswith(": score")]


def _skill_lines(t: pl.DataFrame, run: Run) -> list[str]:
    lines = []
    for pair in _pairs(t):
        score = _pick(t, variant="base", metric=f"{pair}: score")
        ahead = _pick(t, variant="base", metric=f"{pair}: ahead")
        ratio = _pick(t, variant="base", metric=f"{pair}: skill to luck")
        better, _, weaker = pair.partition(" over ")
        who = ("Seeing every card (the omniscient player over the fair one of the same search) gains"
               if pair == "information" else f"On the same cards {better} gains over {weaker}")
        lines.append(f"{who} {estimate(score, ' ' + run.unit, sign=True)}, is ahead in {pct(ahead)} of "
                     f"the deals (level ones half), {estimate(ratio, sign=True)} of the spread a seat's "
                     f"score has from the cards alone.")
    return lines


def _course_lines(tables: dict[str, pl.DataFrame], run: Run) -> list[str]:
    lines = []
    if "decisiveness" in tables:
        t = tables["decisiveness"]
        before = _pick(t, variant="base", metric="settled by trick 0")
        mean = _pick(t, variant="base", metric="trick it settled after")
        swings = _pick(t, variant="base", metric="swings")
        half = f"settled by trick {max(1, int(mean['value'] + 0.5))}"
        at = _pick(t, variant="base", metric=half) if half in t["metric"].to_list() else None
        lines.append(f"With every card known, the result is settled before the first card in {pct(before)} "
                     f"of the solved deals{f', by {half[11:]} in {pct(at)}' if at else ''}; it stops "
                     f"changing after trick {estimate(mean)} on average, and changes "
                     f"{estimate(swings)} times a deal (each change a mistake that hands it over).")
    if "tension" in tables:
        t = tables["tension"]
        changes = _pick(t, variant="base", metric="lead changes")
        back = _pick(t, variant="base", metric="comeback")
        lines.append(f"The lead in card points changes {estimate(changes)} times a deal; the side that "
                     f"won was behind at half time in {pct(back)} of the deals.")
    return lines


def _spread_line(t: pl.DataFrame, run: Run) -> str:
    unit = " " + run.outcome.unit
    sd = _pick(t, variant="base", metric="score a deal: standard deviation")
    q05 = _pick(t, variant="base", metric="score a deal: 5 % quantile")
    q95 = _pick(t, variant="base", metric="score a deal: 95 % quantile")
    line = (f"A seat's score a deal spreads by {estimate(sd, unit)} (standard deviation; 90 % of the "
            f"scores lie from {q05['value']:g} to {q95['value']:g})")
    evening = f"evening of {EVENING}"
    if f"{evening}: standard deviation" in t["metric"].to_list():
        total = _pick(t, variant="base", metric=f"{evening}: standard deviation")
        decided = _pick(t, variant="base", metric=f"{evening}: decided by one deal")
        line += (f"; over an {evening} deals a seat's total by {estimate(total, unit)}, and one deal "
                 f"decides who finishes first in {pct(decided)} of the evenings")
    return line + "."


def _variety_line(t: pl.DataFrame) -> str:
    h = _pick(t, variant="base", metric="game types: entropy (bits)")
    shares = t.filter(pl.col("variant") == "base", pl.col("metric").str.ends_with(": share"))
    top = ", ".join(f"{r['metric'].removesuffix(': share')} {r['value'] * 100:.1f} %"
                    for r in shares.sort("value", descending=True).head(4).iter_rows(named=True))
    holes = quality.holes(t)
    listed = ", ".join(f"{k} won {w * 100:.1f} % of {n:,}" for k, w, n in holes)
    hole_text = (f"; rule holes (game types or bids declared at least {quality.HOLE_GAMES} times, "
                 f"won within {quality.HOLE_SHARE * 100:.0f} % of always or never): {listed}" if holes
                 else "; no game type or bid wins nearly always or never (no rule hole)")
    return (f"{shares.height} game types are declared, entropy {estimate(h, ' bits')} (of "
            f"{np.log2(max(shares.height, 1)):.2f} if all were equally common); the commonest {top}"
            f"{hole_text}.")


QUALITY_MOVES = (("skill", None, ": score"), ("decisiveness", "trick it settled after", ""),
                 ("tension", "comeback", ""), ("tension", "lead changes", ""),
                 ("spread", "score a deal: standard deviation", ""))
"""What the quality headline compares between variants: the table, the metric (None: the
first skill pair's) and its suffix."""


def _quality_headline(tables: dict[str, pl.DataFrame], run: Run) -> list[str]:
    """Skill (and information), decisiveness, tension, spread and variety in base, then what
    each variant moves on the same deals."""
    lines = _skill_lines(tables["skill"], run) if "skill" in tables else []
    lines += _course_lines(tables, run)
    lines.append(_spread_line(tables["spread"], run))
    if "variety" in tables:
        lines.append(_variety_line(tables["variety"]))
    for name in _others(run):
        moves: list[str] = []
        same: list[str] = []
        for table, metric, suffix in QUALITY_MOVES:
            if table not in tables:
                continue
            t = tables[table]
            metric = metric or (_pairs(t)[0] + suffix if _pairs(t) else None)
            if metric is None or metric not in t["metric"].to_list():
                continue
            r = _pick(t, variant=name, metric=metric)
            if r.get("diff") == 0 and r.get("diff_lo") == 0 and r.get("diff_hi") == 0:
                same.append(metric)  # the same on every deal (a scoring-only change plays alike)
                continue
            share = plots.is_share(metric)
            text = pct(r) if share else estimate(r)
            moves.append(f"{metric} {_moves(r, text, ' pp' if share else '', 100 if share else 1)}")
        if same:
            moves.append(f"{', '.join(same)} the same as base's on every deal")
        if moves:
            lines.append(f"With {run.describe(name)}: " + "; ".join(moves) + ".")
    return lines


def _quality_answer(tables: dict[str, pl.DataFrame], run: Run) -> str:
    parts = []
    if "skill" in tables and _pairs(tables["skill"]):
        t = tables["skill"]
        pair = _pairs(t)[0]
        score = _pick(t, variant="base", metric=f"{pair}: score")
        ratio = _pick(t, variant="base", metric=f"{pair}: skill to luck")
        better, _, weaker = pair.partition(" over ")
        parts.append(f"seeing every card is worth {estimate(score, ' ' + run.unit, sign=True)}, "
                     f"{estimate(ratio)} of the spread the cards alone make" if pair == "information" else
                     f"on the same cards {better} gains {estimate(score, ' ' + run.unit, sign=True)} over "
                     f"{weaker}, {estimate(ratio)} of the spread the cards alone make")
    if "decisiveness" in tables:
        before = _pick(tables["decisiveness"], variant="base", metric="settled by trick 0")
        parts.append(f"the cards settle the result before the first card in {pct(before)} of the deals")
    if "tension" in tables:
        back = _pick(tables["tension"], variant="base", metric="comeback")
        parts.append(f"the winner comes from behind at half time in {pct(back)}")
    sd = _pick(tables["spread"], variant="base", metric="score a deal: standard deviation")
    parts.append(f"a seat's score spreads by {estimate(sd, ' ' + run.outcome.unit)} a deal")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def _restricted_headline(tables: dict[str, pl.DataFrame], run: Run) -> list[str]:
    """Each restriction's cost in base, the costliest first (a ranking), then what each variant
    moves."""
    t = tables["restricted"]
    lines = []
    for r in quality.ranked(t):
        row = _pick(t, variant="base", metric=f"{r['restriction']}: cost")
        ahead = _pick(t, variant="base", metric=f"{r['restriction']}: ahead")
        doc = run.restrictions.get(r["restriction"], "")
        lines.append(f"{r['restriction']}{f' ({doc})' if doc else ''}: costs the heuristic "
                     f"{estimate(row, ' ' + run.unit, sign=True)} on the same cards; it does worse in "
                     f"{pct(ahead)} of the deals (level ones half).")
    for name in _others(run):
        moved = []
        for r in quality.ranked(t, name):
            row = _pick(t, variant=name, metric=f"{r['restriction']}: cost")
            moved.append(f"{r['restriction']} {_moves(row, estimate(row), '', 1)}")
        lines.append(f"With {run.describe(name)}: " + "; ".join(moved) + ".")
    return lines


def _restricted_answer(tables: dict[str, pl.DataFrame], run: Run) -> str:
    ranked = quality.ranked(tables["restricted"])
    matter = [r for r in ranked if r["lo"] > 0]
    free = [r for r in ranked if r["lo"] <= 0]
    t = tables["restricted"]
    rows = [(r["restriction"], _pick(t, variant="base", metric=f"{r['restriction']}: cost"))
            for r in matter[:3]]
    costs = [f"{name} costs it {estimate(row, ' ' + run.unit, sign=True)}" for name, row in rows]
    text = ("The strategies that matter most to the heuristic: forbidding " + ", ".join(costs)
            if matter else "No restriction costs the heuristic measurably")
    if free:
        text += (f"; forbidding {', '.join(r['restriction'] for r in free)} costs nothing the "
                 f"deals can tell (its interval reaches zero or below)")
    return text + "."


# --- the registry ------------------------------------------------------------------------------

START_PLAYER = Table("start_player", "Win rate and mean score by seat position",
                     lambda r: balance.start_player(r.frame, r.outcome, r.variants),
                     lambda t, r: plots.start_player(t, r.unit))
START_EDGE = Table("start_edge", "The start player's edge",
                   lambda r: balance.start_edge(r.frame, r.outcome, r.variants),
                   lambda t, r: plots.start_edge(t, r.unit))
DECLARERS = Table("declarer_positions", "Declarers by seat position",
                  lambda r: balance.declarer_positions(r.frame, r.outcome, r.variants),
                  lambda t, r: plots.declarer_positions(t), needs=balance.DECLARER_COLUMNS)
MARKERS = Table("markers", "Markers per deal and player, B events, the box, v1 and v2",
                lambda r: balance.markers(r.frame, r.variants), lambda t, r: plots.markers(t),
                needs=balance.MARKER_COLUMNS)
VP = Table("vp_distribution", "Victory points per deal",
           lambda r: balance.vp_distribution(r.frame, r.variants), lambda t, r: plots.vp_distribution(t),
           needs=balance.MARKER_COLUMNS)
RAMSCH = Table("ramsch", "Ramsch outcomes", lambda r: balance.ramsch(r.frame, r.outcome, r.variants),
               lambda t, r: plots.ramsch(t), needs=balance.RAMSCH_COLUMNS)
TIE_OF_SIDES = Table("tie", "The 120 : 120 tie",
                     lambda r: balance.tie_of_sides(r.frame, r.outcome, r.variants),
                     lambda t, r: plots.tie(t, r.unit), needs=("tie", *balance.SIDES))
"""The tie between a lone player and a pair."""
TIE_OF_PLAYERS = Table("tie", "The 120 : 120 tie",
                       lambda r: balance.tie_of_players(r.frame, r.outcome, r.variants),
                       lambda t, r: plots.tie(t, r.unit), needs=("tie", balance.WINNER))
"""The tie between players each on his own (a tie rule may name the winner)."""
SKILL = Table("skill", "Skill: the better player against the weaker on the same cards",
              lambda r: quality.skill(r.frame, r.outcome, r.variants), lambda t, r: plots.skill(t, r.unit),
              needs=("skill_*|information",))
DECISIVENESS = Table("decisiveness", "Decisiveness: when the result under perfect play is settled",
                     lambda r: quality.decisiveness(r.frame, r.variants),
                     lambda t, r: plots.decisiveness(t), needs=("settled_after",))
TENSION = Table("tension", "Tension: lead changes and comebacks",
                lambda r: quality.tension(r.frame, r.variants), lambda t, r: plots.tension(t),
                needs=("lead_changes",))
SPREAD = Table("spread", "Spread: a deal and an evening",
               lambda r: quality.spread(r.frame, r.outcome, EVENING, r.variants),
               lambda t, r: plots.spread(t, r.outcome.unit))
VARIETY = Table("variety", "Variety: game types declared and won",
                lambda r: quality.variety(r.frame, r.variants), lambda t, r: plots.variety(t),
                needs=("game",))
RESTRICTED = Table("restricted", "Restricted play: what each kind of move is worth",
                   lambda r: quality.restricted(r.frame, r.variants),
                   lambda t, r: plots.restricted(t, r.unit), needs=(quality.RESTRICTED + "*",))
SWEEP = Table("sweep", "Rule variants on the same deals",
              lambda r: balance.sweep(r.frame, r.outcome, r.measure, r.variants),
              lambda t, r: plots.sweep(t, r.sweep_unit), display=_display_sweep)

QUESTIONS: dict[str, Question] = {
    "start_player": Question("Start-player advantage", (START_PLAYER, START_EDGE, DECLARERS),
                             _start_headline, _start_answer),
    "markers": Question("Marker frequency", (MARKERS, VP), _markers_headline, _markers_answer),
    "ramsch": Question("Ramsch outcomes", (RAMSCH,), _ramsch_headline, _ramsch_answer),
    "tie": Question("The 120 : 120 tie", (TIE_OF_SIDES, TIE_OF_PLAYERS), _tie_headline, _tie_answer),
    "sweep": Question("Rule options compared", (SWEEP,), _sweep_headline, _sweep_answer),
    "quality": Question("Skill, luck, tension and decisiveness",
                        (SKILL, DECISIVENESS, TENSION, SPREAD, VARIETY), _quality_headline,
                        _quality_answer, by_default=False),
    "restricted": Question("Restricted play: the strategies that matter", (RESTRICTED,),
                           _restricted_headline, _restricted_answer),
}
"""Every balance question by name, in report order."""


def applicable(columns: Iterable[str], asked: bool = False) -> list[str]:
    """The questions a report on results with ``columns`` answers unasked, in report order
    (with ``asked`` also those it answers when asked by name)."""
    columns = set(columns)
    return [name for name, q in QUESTIONS.items() if q.tables_for(columns) and (asked or q.by_default)]


def _check(columns: Iterable[str], questions: list[str] | None, measure: str, game: str) -> list[str]:
    """The questions to answer; ValueError for an unknown one, one the results of ``game``
    (with ``columns``) cannot answer, or an unknown measure."""
    found = applicable(columns, asked=True)
    names = list(questions) if questions is not None else applicable(columns)
    for name in names:
        if name not in QUESTIONS:
            raise ValueError(f"unknown question {name!r} (questions: {', '.join(QUESTIONS)})")
        if name not in found:
            raise ValueError(f"question {name!r} not available for {game} "
                             f"(questions: {', '.join(found)})")
    if measure not in balance.MEASURES or not balance.MEASURES[measure].sweepable:
        raise ValueError(f"unknown measure {measure!r} (measures: {', '.join(balance.SWEEPABLE)})")
    return names


# --- sections: tables, figures and headlines in memory ---------------------------------------------

@dataclass(frozen=True)
class Part:
    """A computed table of a section (its name and title), its figure as PNG bytes and its
    display rows."""

    name: str
    title: str
    png: bytes
    header: list[str]
    rows: list[list[str]]

    @property
    def file(self) -> str:
        return f"{self.name}.png"


@dataclass(frozen=True)
class Section:
    name: str
    title: str
    headlines: list[str]
    parts: list[Part]
    answer: str = ""
    """The section's question answered in one sentence (none for the robustness section)."""
    rests: str = ""
    """What the section rests on beyond the experiment's own deals (the robustness runs)."""


def png_bytes(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def _section(name: str, run: Run) -> Section:
    question = QUESTIONS[name]
    tables = question.tables_for(run.columns)
    computed = {t.name: t.compute(run) for t in tables}
    parts = [Part(t.name, t.title, png_bytes(t.draw(computed[t.name], run)),
                  *t.display(computed[t.name], run)) for t in tables]
    return Section(name, question.title, question.headline(computed, run), parts,
                   question.answer(computed, run))


# --- what moves the answer: one option at a time, the player rungs ----------------------------------

def _answer(run: Run) -> Row:
    """The report's answer: its measure under the experiment's own rules, on all its deals."""
    return _pick(balance.sweep(run.frame, run.outcome, run.measure, ["base"]), variant="base")


def _one_at_a_time(run: Run) -> pl.DataFrame:
    """``robustness.one_at_a_time`` of a run whose variants each change one rule of base's; an
    option tried at several whole numbers (steps either side of base's, ``sim.robustness``)
    is marked ``integer`` (one of two whole-number readings, such as 0 or 1, is a reading)."""
    changed, numbers = {}, []
    for name in _others(run):
        (option, value), = run.rules_changed(name).items()
        changed[name] = (option, toml_value(value))
        if isinstance(value, int) and not isinstance(value, bool):
            numbers.append(option)
    integer = {option for option in numbers if numbers.count(option) > 1}
    return robustness.one_at_a_time(run.frame, run.outcome, run.measure, changed, integer)


def _rung(run: Run, name: str) -> str:
    """A rung by its players: the policy at every seat (or the policies seat by seat)."""
    policies = [policy_label(p) for p in run.config(name)["policies"]]
    return policies[0] if len(set(policies)) == 1 else ", ".join(policies)


def _rungs(runs: list[Run]) -> pl.DataFrame:
    return robustness.rungs([(r.frame, r.outcome, {v: _rung(r, v) for v in r.variants}) for r in runs],
                            runs[0].measure)


def _display_one_at_a_time(table: pl.DataFrame, run: Run) -> TextTable:
    scale, unit = plots.scale_of(run.sweep_unit)
    rows = list(table.iter_rows(named=True))
    value, diff = (_column(rows, scale, c) for c in (("value", "lo", "hi"), ("diff", "diff_lo", "diff_hi")))
    body = [[r["option"], r["setting"], v, d, f"{r['n']:,}"]
            for r, v, d in zip(rows, value, diff, strict=True)]
    return ["option", "value", f"measure in {unit} [95 %]",
            "difference from the experiment's rules, paired [95 %]", "n"], body


def _display_rungs(table: pl.DataFrame, run: Run) -> TextTable:
    scale, unit = plots.scale_of(run.sweep_unit)
    rows = list(table.iter_rows(named=True))
    value, diff = (_column(rows, scale, c) for c in (("value", "lo", "hi"), ("diff", "diff_lo", "diff_hi")))
    body = [[r["rung"], v, d, f"{r['n']:,}"] for r, v, d in zip(rows, value, diff, strict=True)]
    return ["players (every seat)", f"measure in {unit} [95 %]",
            f"difference from {table['rung'][0]} on the same deals, paired [95 %]", "deals"], body


SIGN = {1: "positive", -1: "negative", 0: "not clear (its interval holds 0)"}


def too_few(row: Row, answer: Row) -> bool:
    """Whether a reading's or rung's interval holds 0 only for want of deals: it holds 0 and is
    wider (its half width) than the answer itself, so its deals cannot tell its sign."""
    return bool(row["lo"] <= 0 <= row["hi"] and (row["hi"] - row["lo"]) / 2 >= abs(answer["value"]))


def _rung_list(rungs: pl.DataFrame) -> str:
    """``heuristic, random: 300 deals each``, or each rung with its own deals."""
    names, deals = rungs["rung"].to_list(), rungs["n"].to_list()
    if len(set(deals)) == 1:
        return f"{', '.join(names)}: {deals[0]:,} deals each"
    return ", ".join(f"{r}: {n:,} deals" for r, n in zip(names, deals, strict=True))


def _robustness_headline(run: Run, answer: Row, options: pl.DataFrame | None,
                         rungs: pl.DataFrame | None) -> list[str]:
    """Whether the answer's sign holds under every setting tried and on every rung (each with
    its deals), or which flip it, which hold 0 and which had too few deals to tell; then what
    moves it most, rule readings and integer options apart, and what was left out."""
    measure = balance.MEASURES[run.measure]
    scale, unit = plots.scale_of(run.sweep_unit)

    def shown(row: Row, cols: tuple[str, str, str] = ("value", "lo", "hi")) -> str:
        return estimate(row, " " + unit, scale, sign=True, cols=cols)

    readings = {} if options is None else {f"under `{r['option']} = {r['setting']}`": r
                                           for r in options.iter_rows(named=True)}
    steps = {} if rungs is None else {f"on the {r['rung']} rung": r for r in rungs.iter_rows(named=True)}
    rows = readings | steps

    def named(name: str) -> str:
        deals = f"{rows[name]['n']:,} deals: " if name in steps else ""
        return f"{name} ({deals}{shown(rows[name])})"

    found = robustness.verdict(answer, rows)
    few = [n for n in found.zero if too_few(rows[n], answer)]
    zero = [n for n in found.zero if n not in few]
    tried = [f"under every one of the {len(readings)} rule settings changed one at a time"] * bool(readings) \
        + ([f"on every rung ({_rung_list(rungs)})"] if rungs is not None else [])
    first = (f"The answer is the {measure.label} (fair value {measure.fair_value:g}), {shown(answer)} "
             f"under the experiment's rules ({answer['n']:,} deals): {SIGN[found.sign]}")
    if found.sign == 0:
        above, below = (", ".join(names) or "nowhere" for names in (found.above, found.below))
        lines = [f"{first}, so there is no sign to hold; it is positive {above} and negative {below}."]
    elif not found.flipped and not zero:
        lines = [f"{first}, and {SIGN[found.sign]} {' and '.join(tried)}"
                 + (f" wherever the deals can tell; too few deals to tell {', '.join(map(named, few))}"
                    if few else "") + "."]
    else:
        flipped = ", ".join(map(named, found.flipped))
        flips = f"its sign flips {flipped}" if flipped else "nothing flips its sign"
        lines = [f"{first}; {flips}"
                 + (f"; the interval holds 0 {', '.join(map(named, zero))}, whose sign those deals cannot "
                    f"tell" if zero else "")
                 + (f"; too few deals to tell {', '.join(map(named, few))}" if few else "") + "."]
    if options is not None:
        lines.append(_options_line(options, shown))
    if rungs is None:
        lines.append("No player rungs were played (`rung_deals = 0` in the experiment's `[report]`).")
    elif not any(r.startswith("pimc") for r in rungs["rung"]):
        lines.append("The pimc rung was left out: the solving player is too slow for the report's "
                     "budget (`pimc_deals` in the experiment's `[report]` adds it on a subsample).")
    return lines


def _options_line(options: pl.DataFrame, shown: Callable[[Row, tuple[str, str, str]], str]) -> str:
    """Which rule reading moves the answer most, and which integer option's step, each by its
    paired difference; how many settings move it clearly."""
    integer = options["integer"]
    most = [f"{kind}`{top['option']} = {top['setting']}` moves it most, by {shown(top, balance.PAIRED)}"
            for kind, part in (("", options.filter(~integer)),
                               ("of the integer options (one unit and a typical step from the experiment's "
                                "value), ", options.filter(integer)))
            if part.height for top in [part.row(0, named=True)]]
    clear = options.filter((pl.col("diff_lo") > 0) | (pl.col("diff_hi") < 0)).height
    return (f"One option at a time (the experiment's first {options['n'][0]:,} deals): {'; '.join(most)}; "
            f"{clear} of the {options.height} settings move it clearly (the paired interval excludes 0).")


def _robustness(run: Run, one_at_a_time: Run | None, rungs: list[Run]) -> Section:
    """The section on what moves the report's answer (``run``'s measure under its rules):
    one rule option changed at a time (a tornado of paired differences), the player rungs."""
    options = _one_at_a_time(one_at_a_time) if one_at_a_time is not None else None
    ladder = _rungs(rungs) if rungs else None
    parts = []
    if options is not None:
        parts.append(Part("one_at_a_time", "One rule option changed at a time (every other value; an "
                          "integer option one unit and a typical step either side of the experiment's "
                          "value)", png_bytes(plots.tornado(
            options, run.sweep_unit)), *_display_one_at_a_time(options, run)))
    if ladder is not None:
        parts.append(Part("rungs", "The answer on every player rung",
                          png_bytes(plots.rungs(ladder, run.sweep_unit)), *_display_rungs(ladder, run)))
    rests = ([] if options is None else [f"its first {options['n'][0]:,} deals with one rule option changed "
                                         f"at a time"]) \
        + ([] if ladder is None else [f"the player rungs ({_rung_list(ladder)})"])
    return Section("robustness", "What moves the answer",
                   _robustness_headline(run, _answer(run), options, ladder), parts, rests="; ".join(rests))


# --- writing -----------------------------------------------------------------------------------

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem 0; padding: 0 1rem;
       color: #222; line-height: 1.45; }
body > *, section > *, details > summary { max-width: 70rem; margin-left: auto; margin-right: auto; }
body > section, section > details { max-width: none; }
h1 { font-size: 1.6rem; } h2 { border-bottom: 2px solid #ddd; padding-bottom: .2rem; margin-top: 2.5rem; }
ul.headline li { margin: .35rem 0; } code { background: #f2f2f2; padding: 0 .25rem; border-radius: 3px; }
figure { margin-top: 1rem; margin-bottom: 1rem; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
.scroll { width: fit-content; max-width: 100%; margin: .5rem auto 1.5rem; overflow-x: auto; }
table { border-collapse: collapse; font-size: .85rem; }
th, td { border: 1px solid #ddd; padding: .2rem .5rem; text-align: left; white-space: nowrap; }
th { white-space: normal; vertical-align: bottom; }
td.long { white-space: normal; min-width: 14rem; }
details summary { cursor: pointer; color: #555; margin-top: .3rem; }
th { background: #f6f6f6; } tr:nth-child(even) td { background: #fbfbfb; }
aside.answer { border: 2px solid #2a6f97; border-radius: 6px; background: #eef6fb; padding: .3rem 1rem;
               margin-top: 1rem; margin-bottom: 1.5rem; font-size: 1.05rem; }
aside.answer p { margin: .5rem 0; } aside.answer p.rests { font-size: .9rem; color: #444; }
ul.glossary { font-size: .9rem; } ul.glossary li { margin: .2rem 0; }
"""


def policy_label(name: str) -> str:
    """A policy as a report names it: ``dd``, which sees every card, says so (as the
    simulator's ``sim.policies.label`` does; ``analysis`` reads results, never ``sim``).

    >>> policy_label("dd"), policy_label("heuristic")
    ('dd (sees every card)', 'heuristic')
    """
    return f"{name} (sees every card)" if name.partition(":")[0] == "dd" else name


def _runs_table(run: Run) -> TextTable:
    """What was run, per variant: its policies, and its rules (``base``: all of them)."""
    rows = []
    for name in run.variants:
        v = run.config(name)
        rules = ([f"{k} = {toml_value(x)}" for k, x in v["rules"].items()] if name == "base"
                 else [f"{k} = {toml_value(x)}" for k, x in run.rules_changed(name).items()] or ["as base"])
        rows.append([name, ", ".join(map(policy_label, v["policies"])), ", ".join(rules)])
    return ["variant", "policies", "rules (variants: what differs from base)"], rows


def _intro(run: Run) -> str:
    i = run.info
    return (f"Game `{run.game}`, {i['deals']:,} deals per variant (seed {i['seed']}, shards of "
            f"{i['shard_size']:,}); every variant plays the same deals, so their differences are paired. "
            f"Intervals are 95 % (Wilson for shares, Student's t for means).")


def _players(policies: list[str]) -> str:
    """``heuristic at every seat``, or the policies seat by seat."""
    labels = list(map(policy_label, policies))
    return f"{labels[0]} at every seat" if len(set(labels)) == 1 else f"seats {', '.join(labels)}"


def _rests_on(run: Run, sections: list[Section]) -> str:
    """What the answers rest on: the players, the rule readings compared, the deals."""
    base = run.config("base")["policies"]
    others = [_players(list(p)) for p in dict.fromkeys(tuple(run.config(v)["policies"]) for v in _others(run))
              if list(p) != base]
    players = _players(base) + (f" (variants also: {'; '.join(others)})" if others else "")
    readings = run.settings("base")
    compared = (f"`{'`, `'.join(readings)}` in base against {len(_others(run))} other setting"
                f"{'s' * (len(_others(run)) != 1)}" if readings else "the experiment's rules")
    deals = (f"{run.info['deals']:,} deals per variant, the same deals in every variant (seed "
             f"{run.info['seed']})" + "".join(f"; {s.rests}" for s in sections if s.rests))
    return (f"players: {players}; rule readings: {compared} (every other option as listed under What was "
            f"run); {deals}.")


GLOSSARY = {
    "VP": (r"\bVP\b", "victory points, the duel's score: what the winner of a deal scores"),
    "marker": (r"(?i)\bmarkers?\b", "the duel's counters: A markers for a top trump shown or played, B "
                                     "markers for feats such as a fox or a Karlchen taken; each is worth VP "
                                     "at the settlement"),
    "start player": (r"(?i)\bstart(er| player)\b", "the player who leads the first trick (forehand)"),
    "edge": (r"(?i)\bedge\b", "the start player's mean score per deal less the others' (0 is fair)"),
    "evening": (r"(?i)\bevening\b", f"{EVENING} deals at the table, the scale a player feels"),
    "what a deal pays": (r"\bpays\b", "the mean of the absolute value of a player's score per deal, won or "
                                       "lost: the stake an edge is measured against"),
    "interval": (r"\[", "the 95 % confidence interval [low, high] after an estimate"),
    "paired difference": (r"(?i)\bpaired\b|same deals", "one variant less another deal by deal on the same "
                                                          "deals, so the luck of the cards cancels; variants "
                                                          "are judged by it, never by whether two intervals "
                                                          "overlap"),
    "rung": (r"(?i)\brungs?\b", "one kind of player at every seat, from random to pimc, to see whether the "
                                 "answer depends on how well the game is played"),
    "random": (r"\brandom\b", "a player that picks any legal move"),
    "heuristic": (r"(?i)\bheuristic\b", "stichsim's hand-tuned player, one per game"),
    "lookahead": (r"(?i)\blookahead\b", "a player that plays each choice out on sampled deals with the "
                                         "heuristic and takes the best"),
    "pimc": (r"(?i)\bpimc\b", "perfect-information Monte Carlo: a player that deals the hidden cards many "
                               "ways and solves each with every card known"),
    "net": (r"\bnet\b", "stichsim's learned player: a small network trained on the lookahead's judgement "
                          "of every card, as fast as the heuristic's order of magnitude"),
    "rule reading": (r"(?i)\breadings?\b", "one value of a rule option the rule book leaves open"),
    "integer option": (r"(?i)\binteger option", "a number a house rule turns (a payment, a band's VP), "
                                                "tried one unit and a typical step from the experiment's "
                                                "value"),
    "ramsch": (r"(?i)\bramsch\b", "when everybody passes, the deal is played with the most card points "
                                   "losing"),
    "too few deals to tell": (r"too few deals", "an interval that holds 0 and is wider than the answer "
                                               "itself: more deals are needed before it says anything"),
    "pp": (r"\bpp\b|percentage points", "percentage points: the difference of two percentages"),
    "delta": (r"\bdelta\b", "the smallest difference of the measure that matters to the tune"),
    "best group": (r"best group", "the rule sets the tune could not tell apart from the best within delta"),
}
"""Every term a page may use: the pattern that finds it and a short meaning; a page lists
those it uses (``glossary``)."""


def glossary(text: str) -> list[tuple[str, str]]:
    """The ``GLOSSARY`` terms ``text`` uses, and how its numbers are rounded (``PRECISION``)."""
    used = [(term, meaning) for term, (pattern, meaning) in GLOSSARY.items() if re.search(pattern, text)]
    return [*used, ("numbers", PRECISION)]


def answer_markdown(sentences: list[str], rests: str) -> list[str]:
    """The answer box in Markdown: a block quote, the first thing after the title."""
    box = [f"> **The answer.** {sentences[0]}", *(f"> {s}" for s in sentences[1:]), f"> *Rests on:* {rests}"]
    return [line for k, b in enumerate(box) for line in ((">", b) if k else (b,))]


def answer_html(sentences: list[str], rests: str) -> str:
    """The answer box in HTML: a framed aside before anything else on the page."""
    first, *more = sentences
    return (f'<aside class="answer"><p><strong>The answer.</strong> {inline(first)}</p>'
            + "".join(f"<p>{inline(s)}</p>" for s in more)
            + f'<p class="rests"><strong>Rests on:</strong> {inline(rests)}</p></aside>')


def glossary_markdown(text: str) -> list[str]:
    return ["## Glossary", "", *(f"- **{term}**: {meaning}" for term, meaning in glossary(text))]


def glossary_html(text: str) -> str:
    items = "".join(f"<li><strong>{html.escape(t)}</strong>: {inline(m)}</li>" for t, m in glossary(text))
    return f'<section id="glossary"><h2>Glossary</h2><ul class="glossary">{items}</ul></section>'


def md_table(header: list[str], rows: list[list[str]]) -> str:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
    return "\n".join([line(header), line(["---"] * len(header)), *map(line, rows)])


def _answers(sections: list[Section]) -> list[str]:
    return [s.answer for s in sections if s.answer]


def _markdown(run: Run, sections: list[Section]) -> str:
    out = [f"# Balance report: {run.info['name']}", "",
           *answer_markdown(_answers(sections), _rests_on(run, sections)),
           "", "## What was run", "", _intro(run), "", md_table(*_runs_table(run))]
    for s in sections:
        out += ["", f"## {s.title}", "", *(f"- {h}" for h in s.headlines)]
        for p in s.parts:
            out += ["", f"### {p.title}", "", f"![{p.title}]({p.file})", "",
                    md_table(p.header, p.rows)]
    out += ["", *glossary_markdown("\n".join(out))]
    return "\n".join(out) + "\n"


def inline(text: str) -> str:
    """Escaped text with `code` spans."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


LONG = 40
"""Cells longer than this (lists of settings, not numbers) wrap; the others stay on one line."""


def html_table(header: list[str], rows: list[list[str]]) -> str:
    """A table in a box of its own, centred on the page: it may be as wide as the page (the
    text is narrower), and one wider still scrolls inside its box (``CSS``: ``.scroll``)."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)

    def cell(text: str) -> str:
        return ('<td class="long">' if len(text) > LONG else "<td>") + f"{html.escape(text)}</td>"

    body = "".join("<tr>" + "".join(map(cell, r)) + "</tr>" for r in rows)
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _html(run: Run, sections: list[Section]) -> str:
    title = html.escape(f"Balance report: {run.info['name']}")
    out = [f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>"
           f"<style>{CSS}</style></head><body><h1>{title}</h1>",
           answer_html(_answers(sections), _rests_on(run, sections)),
           f"<section><h2>What was run</h2><p>{inline(_intro(run))}</p>"
           f"{html_table(*_runs_table(run))}</section>"]
    for s in sections:
        items = "".join(f"<li>{inline(h)}</li>" for h in s.headlines)
        out.append(f'<section id="{s.name}"><h2>{html.escape(s.title)}</h2><ul class="headline">{items}</ul>')
        for p in s.parts:
            data = base64.b64encode(p.png).decode("ascii")
            alt = html.escape(p.title)
            out.append(f"<h3>{alt}</h3><figure><img src=\"data:image/png;base64,{data}\" alt=\"{alt}\">"
                       f"</figure><details{' open' * (len(p.rows) <= OPEN_ROWS)}><summary>the table "
                       f"({len(p.rows)} rows)</summary>{html_table(p.header, p.rows)}</details>")
        out.append("</section>")
    out.append(glossary_html(_markdown(run, sections)))
    return "".join(out) + "</body></html>\n"


def write_whole(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a temporary name, then an atomic rename."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _files(run: Run, sections: list[Section]) -> Iterator[tuple[str, bytes]]:
    """The report's files, ``index.html`` last (it names a report complete)."""
    for s in sections:
        for p in s.parts:
            yield p.file, p.png
    yield "summary.md", _markdown(run, sections).encode()
    yield "index.html", _html(run, sections).encode()


def _load(root: str | Path, measure: str, questions: list[str] | None = None) -> tuple[Run, list[str]]:
    """The results in ``root`` as the questions read them, and the questions to answer
    (``_check``: raised before anything else is read)."""
    info = load.experiment_info(root)
    frame = load.scan(root)
    columns = frozenset(frame.collect_schema().names())
    names = _check(columns, questions, measure, info["game"])
    outcome = load.read_outcome(root)
    present = set(frame.select(pl.col("variant").unique()).collect()["variant"])
    run = Run(frame, info, [v["name"] for v in info["variant_list"] if v["name"] in present], measure,
              outcome, columns)
    return run, names


def build(root: str | Path, out: str | Path, questions: list[str] | None = None,
          measure: str = "start_edge", one_at_a_time: str | Path | None = None,
          rungs: Sequence[str | Path] = ()) -> Path:
    """Write the balance report on the results in ``root`` to ``out``: the ``questions``
    asked (default: every one its columns answer), ``measure`` its answer (and the sweep's);
    with the results of ``one_at_a_time`` (the experiment's rules with one option changed
    at a time) or of ``rungs`` (the same deals with every seat one player, base every seat
    ``heuristic``), a section on what moves the answer. Everything is computed before the
    first file is written. Returns ``out/index.html``."""
    run, names = _load(root, measure, questions)
    sections = [_section(name, run) for name in names]
    if one_at_a_time is not None or rungs:
        sections.append(_robustness(run, None if one_at_a_time is None else _load(one_at_a_time, measure)[0],
                                    [_load(r, measure)[0] for r in rungs]))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, data in _files(run, sections):
        write_whole(out / name, data)
    return out / "index.html"

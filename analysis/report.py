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

from analysis import balance, load, plots, robustness

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
        found = [f"{k} = {_toml(x)}" for k, x in self.rules_changed(name).items()]
        policies = self.config(name)["policies"]
        if policies != self.config("base")["policies"]:
            found.append(f"policies = {', '.join(map(policy_label, policies))}")
        return found

    def describe(self, name: str) -> str:
        """``name (`option = value`, ...)``, for sentences."""
        settings = ", ".join(f"`{s}`" for s in self.settings(name))
        return f"{name} ({settings})" if settings else name


def _toml(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# --- numbers as words ----------------------------------------------------------------------------

def _decimals(lo: float, hi: float) -> int:
    """Decimals that show the interval's half width to one significant digit, two when it
    starts with 1 or 2 (at least 1, at most 4)."""
    half = (hi - lo) / 2
    if not half > 0:
        return 1
    exponent = int(np.floor(np.log10(half)))
    return int(np.clip(-exponent + (half / 10.0**exponent < 3), 1, 4))


def estimate(row: Row, unit: str = "", scale: float = 1.0, sign: bool = False,
             cols: tuple[str, str, str] = ("value", "lo", "hi")) -> str:
    """``52.99 % [52.89, 53.09]``: a table row's estimate with its 95 % interval."""
    value, lo, hi = (row[c] * scale for c in cols)
    d = _decimals(lo, hi)
    return f"{value:{'+' if sign else ''}.{d}f}{unit} [{lo:.{d}f}, {hi:.{d}f}]"


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


def _moves(base: Row, other: Row, text: str) -> str:
    """``is`` for base itself; ``rises to`` / ``falls to`` when the intervals part, else
    ``is ... (the intervals overlap)``."""
    if other is base:
        return f"is {text}"
    if other["lo"] > base["hi"]:
        return f"rises to {text}"
    if other["hi"] < base["lo"]:
        return f"falls to {text}"
    return f"is {text} (the intervals overlap)"


def _others(run: Run) -> list[str]:
    return [v for v in run.variants if v != "base"]


def _display_long(table: pl.DataFrame, run: Run) -> TextTable:
    """A long table as text: its keys, each estimate with its interval (shares in %), n."""
    value = "value" if "value" in table.columns else "share"
    keys = [c for c in table.columns if c not in (value, "lo", "hi", "n", "deals")]
    rows = []
    for r in table.iter_rows(named=True):
        share = value == "share" or plots.is_share(r["metric"])
        unit = " pp" if share and "edge" in str(r.get("metric", "")) else " %" if share else ""
        shown = (estimate(r, unit, 100 if share else 1, cols=(value, "lo", "hi"))
                 if r["n"] > 0 and not np.isnan(r[value]) else "–")
        rows.append([str(r[k]) for k in keys] + [shown, f"{r['n']:,}"])
    return keys + ["estimate [95 % interval]", "n"], rows


def _display_sweep(table: pl.DataFrame, run: Run) -> TextTable:
    """The sweep as text: each setting's measure, its paired and its unpaired difference from base."""
    scale, unit = plots.scale_of(run.sweep_unit)
    rows = [[r["variant"], ", ".join(run.settings(r["variant"])), estimate(r, scale=scale, sign=True),
             estimate(r, scale=scale, sign=True, cols=("diff", "diff_lo", "diff_hi")),
             estimate(r, scale=scale, sign=True, cols=("diff", "unpaired_lo", "unpaired_hi")), f"{r['n']:,}"]
            for r in table.iter_rows(named=True)]
    return ["variant", "setting", f"measure in {unit} [95 %]", "difference from base, paired [95 %]",
            "the same, unpaired (as if independent deals)", "n"], rows


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
    """The columns it reads besides the outcome's: it is drawn for results that have them."""

    def applies(self, columns: Iterable[str]) -> bool:
        return set(self.needs) <= set(columns)


@dataclass(frozen=True)
class Question:
    """A balance question: its tables and the sentences written from them. Tables of one
    name are alternatives for results of different columns: the first that applies is drawn."""

    title: str
    tables: tuple[Table, ...]
    headline: Callable[[dict[str, pl.DataFrame], Run], list[str]]

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
        lines.append(f"With {run.describe(name)} his win rate {_moves(win, w, pct(w))} and his edge "
                     f"{_moves(edge, e, estimate(e, ' ' + run.unit, sign=True))}.")
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
        + "".join(f"; with {run.describe(n)} that {_moves(vp, r, estimate(r, ' VP'))}"
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
    base = {m: _pick(t, variant="base", metric=m) for m in ("score edge", "win rate edge", handed_out)}
    for name in run.variants:
        r = {m: r if name == "base" else _pick(t, variant=name, metric=m) for m, r in base.items()}
        score = estimate(r["score edge"], " " + run.unit, sign=True)
        win = estimate(r["win rate edge"], " percentage points", 100, sign=True)
        total = estimate(r[handed_out], " " + unit)
        lines.append(f"With {run.describe(name)} the start player's score edge "
                     f"{_moves(base['score edge'], r['score edge'], score)}, his win-rate edge "
                     f"{_moves(base['win rate edge'], r['win rate edge'], win)}, and the {unit} a deal hands "
                     f"out {_moves(base[handed_out], r[handed_out], total)}.")
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
    best, tied = balance.fairest(t)
    row = _pick(t, variant=best)
    lines = [f"The fairest setting by the {measure.label} (fair value {measure.fair_value:g}) is "
             f"{run.describe(best)}: {estimate(row, unit, scale, sign=True)}; tied with it (overlapping "
             f"intervals): {', '.join(tied) if tied else 'none'}."]
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
SWEEP = Table("sweep", "Rule variants on the same deals",
              lambda r: balance.sweep(r.frame, r.outcome, r.measure, r.variants),
              lambda t, r: plots.sweep(t, r.sweep_unit), display=_display_sweep)

QUESTIONS: dict[str, Question] = {
    "start_player": Question("Start-player advantage", (START_PLAYER, START_EDGE, DECLARERS),
                             _start_headline),
    "markers": Question("Marker frequency", (MARKERS, VP), _markers_headline),
    "ramsch": Question("Ramsch outcomes", (RAMSCH,), _ramsch_headline),
    "tie": Question("The 120 : 120 tie", (TIE_OF_SIDES, TIE_OF_PLAYERS), _tie_headline),
    "sweep": Question("Rule options compared", (SWEEP,), _sweep_headline),
}
"""Every balance question by name, in report order."""


def applicable(columns: Iterable[str]) -> list[str]:
    """The questions a report on results with ``columns`` can answer, in report order."""
    columns = set(columns)
    return [name for name, q in QUESTIONS.items() if q.tables_for(columns)]


def _check(columns: Iterable[str], questions: list[str] | None, measure: str, game: str) -> list[str]:
    """The questions to answer; ValueError for an unknown one, one the results of ``game``
    (with ``columns``) cannot answer, or an unknown measure."""
    found = applicable(columns)
    names = list(questions) if questions is not None else found
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
    return Section(name, question.title, question.headline(computed, run), parts)


# --- what moves the answer: one option at a time, the player rungs ----------------------------------

def _answer(run: Run) -> Row:
    """The report's answer: its measure under the experiment's own rules, on all its deals."""
    return _pick(balance.sweep(run.frame, run.outcome, run.measure, ["base"]), variant="base")


def _one_at_a_time(run: Run) -> pl.DataFrame:
    """``robustness.one_at_a_time`` of a run whose variants each change one rule of base's."""
    changed = {}
    for name in _others(run):
        (option, value), = run.rules_changed(name).items()
        changed[name] = (option, _toml(value))
    return robustness.one_at_a_time(run.frame, run.outcome, run.measure, changed)


def _rung(run: Run, name: str) -> str:
    """A rung by its players: the policy at every seat (or the policies seat by seat)."""
    policies = [policy_label(p) for p in run.config(name)["policies"]]
    return policies[0] if len(set(policies)) == 1 else ", ".join(policies)


def _rungs(runs: list[Run]) -> pl.DataFrame:
    return robustness.rungs([(r.frame, r.outcome, {v: _rung(r, v) for v in r.variants}) for r in runs],
                            runs[0].measure)


def _display_one_at_a_time(table: pl.DataFrame, run: Run) -> TextTable:
    scale, unit = plots.scale_of(run.sweep_unit)
    rows = [[r["option"], r["setting"], estimate(r, scale=scale, sign=True),
             estimate(r, scale=scale, sign=True, cols=("diff", "diff_lo", "diff_hi")), f"{r['n']:,}"]
            for r in table.iter_rows(named=True)]
    return ["option", "value", f"measure in {unit} [95 %]",
            "difference from the experiment's rules, paired [95 %]", "n"], rows


def _display_rungs(table: pl.DataFrame, run: Run) -> TextTable:
    scale, unit = plots.scale_of(run.sweep_unit)
    rows = [[r["rung"], estimate(r, scale=scale, sign=True),
             estimate(r, scale=scale, sign=True, cols=("diff", "diff_lo", "diff_hi")), f"{r['n']:,}"]
            for r in table.iter_rows(named=True)]
    return ["players (every seat)", f"measure in {unit} [95 %]",
            f"difference from {table['rung'][0]} on the same deals, paired [95 %]", "n"], rows


SIGN = {1: "positive", -1: "negative", 0: "not clear (its interval holds 0)"}


def _robustness_headline(run: Run, answer: Row, options: pl.DataFrame | None,
                         rungs: pl.DataFrame | None) -> list[str]:
    """Whether the answer's sign holds under every setting tried and on every rung, or which
    flip it and which cannot tell; then what moves it most, and what was left out."""
    measure = balance.MEASURES[run.measure]
    scale, unit = plots.scale_of(run.sweep_unit)

    def shown(row: Row, cols: tuple[str, str, str] = ("value", "lo", "hi")) -> str:
        return estimate(row, " " + unit, scale, sign=True, cols=cols)

    readings = {} if options is None else {f"under `{r['option']} = {r['setting']}`": r
                                           for r in options.iter_rows(named=True)}
    steps = {} if rungs is None else {f"on the {r['rung']} rung": r for r in rungs.iter_rows(named=True)}
    rows = readings | steps
    found = robustness.verdict(answer, rows)
    tried = [f"under every one of the {len(readings)} rule settings changed one at a time"] * bool(readings) \
        + [f"on every rung ({', '.join(r['rung'] for r in steps.values())})"] * bool(steps)
    first = (f"The answer is the {measure.label} (fair value {measure.fair_value:g}), {shown(answer)} "
             f"under the experiment's rules: {SIGN[found.sign]}")
    if found.holds:
        lines = [f"{first}, and {SIGN[found.sign]} {' and '.join(tried)}."]
    elif found.sign == 0:
        above, below = (", ".join(names) or "nowhere" for names in (found.above, found.below))
        lines = [f"{first}, so there is no sign to hold; it is positive {above} and negative {below}."]
    else:
        flipped = ", ".join(f"{name} ({shown(rows[name])})" for name in found.flipped)
        flips = f"its sign flips {flipped}" if flipped else "nothing flips its sign"
        lines = [f"{first}; {flips}" + (f"; the interval holds 0 {', '.join(found.zero)}, whose sign "
                                       f"those deals cannot tell" if found.zero else "") + "."]
    if options is not None:
        top = options.row(0, named=True)
        clear = options.filter((pl.col("diff_lo") > 0) | (pl.col("diff_hi") < 0)).height
        lines.append(f"One option at a time (the experiment's first {top['n']:,} deals): "
                     f"`{top['option']} = {top['setting']}` moves it most, by "
                     f"{shown(top, ('diff', 'diff_lo', 'diff_hi'))}; {clear} of the {options.height} "
                     f"settings move it clearly (the paired interval excludes 0).")
    if rungs is None:
        lines.append("No player rungs were played (`rung_deals = 0` in the experiment's `[report]`).")
    elif not any(r.startswith("pimc") for r in rungs["rung"]):
        lines.append("The pimc rung was left out: the solving player is too slow for the report's "
                     "budget (`pimc_deals` in the experiment's `[report]` adds it on a subsample).")
    return lines


def _robustness(run: Run, one_at_a_time: Run | None, rungs: list[Run]) -> Section:
    """The section on what moves the report's answer (``run``'s measure under its rules):
    one rule option changed at a time (a tornado of paired differences), the player rungs."""
    options = _one_at_a_time(one_at_a_time) if one_at_a_time is not None else None
    ladder = _rungs(rungs) if rungs else None
    parts = []
    if options is not None:
        parts.append(Part("one_at_a_time", "One rule option changed at a time (every other value; an "
                          "integer option at the ends of its range)", png_bytes(plots.tornado(
            options, run.sweep_unit)), *_display_one_at_a_time(options, run)))
    if ladder is not None:
        parts.append(Part("rungs", "The answer on every player rung",
                          png_bytes(plots.rungs(ladder, run.sweep_unit)), *_display_rungs(ladder, run)))
    return Section("robustness", "What moves the answer",
                   _robustness_headline(run, _answer(run), options, ladder), parts)


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
        rules = ([f"{k} = {_toml(x)}" for k, x in v["rules"].items()] if name == "base"
                 else [f"{k} = {_toml(x)}" for k, x in run.rules_changed(name).items()] or ["as base"])
        rows.append([name, ", ".join(map(policy_label, v["policies"])), ", ".join(rules)])
    return ["variant", "policies", "rules (variants: what differs from base)"], rows


def _intro(run: Run) -> str:
    i = run.info
    return (f"Game `{run.game}`, {i['deals']:,} deals per variant (seed {i['seed']}, shards of "
            f"{i['shard_size']:,}); every variant plays the same deals, so their differences are paired. "
            f"Intervals are 95 % (Wilson for shares, Student's t for means); pp: percentage points.")


def md_table(header: list[str], rows: list[list[str]]) -> str:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
    return "\n".join([line(header), line(["---"] * len(header)), *map(line, rows)])


def _markdown(run: Run, sections: list[Section]) -> str:
    out = [f"# Balance report: {run.info['name']}", "", "## What was run", "", _intro(run), "",
           md_table(*_runs_table(run))]
    for s in sections:
        out += ["", f"## {s.title}", "", *(f"- {h}" for h in s.headlines)]
        for p in s.parts:
            out += ["", f"### {p.title}", "", f"![{p.title}]({p.file})", "",
                    md_table(p.header, p.rows)]
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

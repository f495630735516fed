"""How Skat self-play looks beside human play: the share of games the declarer wins, deals
passed out, grand and null games, Schneider, forehand declaring, with Wilson intervals,
next to the figures of 17,967,106 online tournament games.

A check on the players, not on the rules: a player far from the human figures plays a
different game than the people whose house rules the balance reports study. Run it on one
or more experiments' results (one column each)::

    python -m analysis.selfplay results/skat-baseline results/skat-lookahead

>>> frame = pl.DataFrame({"passed_out": [False, False, False, True],
...                       "ramsch": [False] * 4, "declarer": [0, 1, 2, -1],
...                       "won": [True, True, False, False],
...                       "game": ["grand", "C", "null", None],
...                       "schneider": [True, False, False, False],
...                       "declarer_position": ["forehand", "rearhand", "forehand", None]})
>>> [(f.name, f.hits, f.n) for f in skat_figures(frame)][:3]
[('declarer wins', 2, 3), ('passed out', 1, 4), ('grand (of declared)', 1, 3)]
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import polars as pl

from analysis.load import ResultsNotFound, experiment_info, scan
from analysis.stats import wilson

HUMAN = {
    "declarer wins": 0.816,
    "passed out": 0.049,
    "grand (of declared)": 0.32,
    "null (of declared)": 0.06,
    "Schneider (of declared)": 0.23,
    "forehand declares (of declared)": 0.357,
}
"""The human reference (issue 15; RULES.md's sources): online tournament games."""


class Figure(NamedTuple):
    """One figure: ``hits`` of ``n`` deals or games, with its 95 % Wilson interval."""

    name: str
    hits: int
    n: int
    lo: float
    hi: float

    @property
    def share(self) -> float:
        """``hits / n``."""
        return self.hits / self.n if self.n else float("nan")


def _figure(name: str, hits: int, n: int) -> Figure:
    lo, hi = wilson(hits, n) if n else (float("nan"), float("nan"))
    return Figure(name, int(hits), int(n), float(lo), float(hi))


def skat_figures(frame: pl.DataFrame) -> list[Figure]:
    """The figures of ``HUMAN``, in its order, from Skat results as the shards hold them (one
    row per deal; a ramsch is neither declared nor passed out)."""
    deals = frame.height
    declared = frame.filter((pl.col("declarer") >= 0) & ~pl.col("ramsch"))
    n = declared.height

    def count(df: pl.DataFrame, expr: pl.Expr) -> int:
        return int(df.select(expr.cast(pl.Int64).sum()).item() or 0)

    def text(name: str) -> pl.Expr:
        return pl.col(name).cast(pl.Utf8)

    return [
        _figure("declarer wins", count(declared, pl.col("won")), n),
        _figure("passed out", count(frame, pl.col("passed_out")), deals),
        _figure("grand (of declared)", count(declared, text("game") == "grand"), n),
        _figure("null (of declared)", count(declared, text("game") == "null"), n),
        _figure("Schneider (of declared)", count(declared, pl.col("schneider")), n),
        _figure("forehand declares (of declared)",
                count(declared, text("declarer_position") == "forehand"), n),
    ]


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def table(columns: dict[str, list[Figure]]) -> str:
    """A Markdown table: one row per figure, one column per experiment, then the human."""
    lines = ["| figure | " + " | ".join(columns) + " | human |",
             "| --- |" + " --- |" * (len(columns) + 1)]
    for k, name in enumerate(HUMAN):
        cells = [f"{_pct(f[k].share)} [{_pct(f[k].lo)}, {_pct(f[k].hi)}]"
                 for f in columns.values()]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {_pct(HUMAN[name])} |")
    deals = [f"{f[1].n:,}" for f in columns.values()]  # "passed out" counts every deal
    lines.append("| deals | " + " | ".join(deals) + " | 17,967,106 games |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m analysis.selfplay ROOT [ROOT ...]``: print the table (base variant)."""
    roots = list(sys.argv[1:] if argv is None else argv)
    if not roots:
        print("usage: python -m analysis.selfplay RESULTS_ROOT [RESULTS_ROOT ...]", file=sys.stderr)
        return 2
    columns: dict[str, list[Figure]] = {}
    try:
        for root in roots:
            info = experiment_info(root)
            if info["game"] != "skat":
                raise ResultsNotFound(f"{root}: a {info['game']} experiment, not skat")
            frame = scan(root).filter(pl.col("variant") == "base").collect()
            columns[f"{Path(root).name} ({', '.join(sorted(set(info['policies'])))})"] = (
                skat_figures(frame))
    except (ResultsNotFound, KeyError, OSError) as error:
        print(f"analysis.selfplay: {error}", file=sys.stderr)
        return 2
    print(table(columns))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

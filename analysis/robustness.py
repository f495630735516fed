"""What moves a report's answer: its measure with one rule option changed at a time, on every
player rung, and whether its sign holds under all of them.

The answer is one of ``balance.MEASURES`` (the start player's edge by default). A reading
is a rule setting; a rung is a player at every seat. Both tables come from ``balance.sweep``
on runs whose variants play the same deals, so each difference is paired: ``one_at_a_time``
against the experiment's own rules, ``rungs`` against every seat ``heuristic``. ``sign`` says
which side of 0 an interval lies on, and ``verdict`` sorts the readings and rungs by
it against the answer's own.

>>> sign(0.1, 0.4), sign(-0.3, 0.2), sign(-0.5, -0.1)
(1, 0, -1)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from analysis.balance import sweep
from analysis.load import Outcome


def one_at_a_time(frame: pl.LazyFrame, outcome: Outcome, measure: str,
                  variants: Mapping[str, tuple[str, str]], integer: Collection[str] = ()) -> pl.DataFrame:
    """``measure`` under each of ``variants`` (``variant -> (option, value)``: what it changes
    from base) with its paired difference from base on the same deals: ``balance.sweep``'s
    columns with ``option``, ``setting`` and ``integer`` (the option is one of ``integer``, a
    number a house rule turns, not a reading of a rule), one row per variant, the largest
    difference first."""
    table = sweep(frame, outcome, measure, ["base", *variants]).filter(pl.col("variant") != "base")
    option, setting = ({k: v[i] for k, v in variants.items()} for i in (0, 1))
    return (table.with_columns(option=pl.col("variant").replace_strict(option),
                               setting=pl.col("variant").replace_strict(setting))
            .with_columns(integer=pl.col("option").is_in(list(integer)))
            .sort(pl.col("diff").abs(), descending=True, maintain_order=True))


def rungs(runs: Sequence[tuple[pl.LazyFrame, Outcome, Mapping[str, str]]], measure: str) -> pl.DataFrame:
    """``measure`` on every rung of the rung runs (each ``(frame, outcome, variant -> rung)``,
    whose base is the reference rung, every run's the same) with its paired difference from
    the reference on that run's deals; each rung once (the reference from the first run)."""
    parts = [sweep(frame, outcome, measure, list(names))
             .with_columns(rung=pl.col("variant").replace_strict(names)) for frame, outcome, names in runs]
    return pl.concat(parts, how="diagonal_relaxed").filter(pl.col("rung").is_first_distinct())


def sign(lo: float, hi: float) -> int:
    """1 where the interval lies above 0, -1 below, 0 where it holds 0."""
    return 1 if lo > 0 else -1 if hi < 0 else 0


@dataclass(frozen=True)
class Verdict:
    """Where the answer's interval and each reading's or rung's lie: above 0, below it, or
    holding it (names, in the order given)."""

    sign: int
    """The answer's own sign (its interval under the experiment's rules)."""
    above: list[str]
    below: list[str]
    zero: list[str]

    @property
    def flipped(self) -> list[str]:
        """Those on the other side of 0 from the answer (none when the answer holds 0)."""
        return self.below if self.sign > 0 else self.above if self.sign < 0 else []

    @property
    def holds(self) -> bool:
        """The answer has a sign and every reading and rung shares it."""
        return self.sign != 0 and not self.flipped and not self.zero


def verdict(answer: Mapping[str, Any], rows: Mapping[str, Mapping[str, Any]]) -> Verdict:
    """The answer's sign (``answer``'s ``lo`` and ``hi``) and each of ``rows``' (name -> a row
    with ``lo`` and ``hi``)."""
    signs = {name: sign(r["lo"], r["hi"]) for name, r in rows.items()}
    above, below, zero = ([n for n, x in signs.items() if x == s] for s in (1, -1, 0))
    return Verdict(sign(answer["lo"], answer["hi"]), above, below, zero)

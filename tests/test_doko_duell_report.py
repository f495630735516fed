"""The start-player question of the balance report for the Doppelkopf duel's readings of
``equal_cards`` (RULES.md: the reading decides the sign of the start player's edge, so every
answer shows what each value does to it): the headline names each variant's edge side by
side, and says who each variant favours where the intervals part on both sides of 0.

``analysis.report`` knows no game: the sentences come from the tables and the variants'
settings, so the tables here are made by hand (and once from a small real run)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analysis import balance, load, report
from sim.runner import Experiment, run_experiment

OUTCOME = load.Outcome(2, ("vp_0", "vp_1"), "VP", "start_seat", ("won_0", "won_1"))
RULES = {"equal_cards": "first_wins", "tie_rule": "draw"}
HEURISTIC = ["heuristic", "heuristic"]
VARIANTS = [
    {"name": "base", "rules": RULES, "policies": HEURISTIC},
    {"name": "second-wins", "rules": {**RULES, "equal_cards": "second_wins"}, "policies": HEURISTIC},
    {"name": "heart-ten", "rules": {**RULES, "equal_cards": "second_heart_ten"}, "policies": HEURISTIC},
    {"name": "random", "rules": RULES, "policies": ["random", "random"]},
]


def run_of(variants: list[dict]) -> report.Run:
    info = {"game": "doko_duell", "variant_list": variants}
    return report.Run(pl.LazyFrame(), info, [v["name"] for v in variants], "start_edge", OUTCOME,
                      frozenset())


def tables(edges: dict[str, tuple[float, float, float]]) -> dict[str, pl.DataFrame]:
    """The start-player tables with these score edges (value, lo, hi) per variant; the win
    rates and scores are placeholders the new sentences do not read."""
    players = pl.DataFrame([
        {"variant": v, "position": p, "metric": m, "value": 0.5, "lo": 0.49, "hi": 0.51, "n": 1000}
        for v in edges for p in ("start player", "other") for m in ("win rate", "score")])
    edge = pl.DataFrame([{"variant": v, "metric": m, "value": x, "lo": lo, "hi": hi, "n": 1000}
                         for v, (x, lo, hi) in edges.items()
                         for m in ("score edge", "win rate edge")])
    return {"start_player": players, "start_edge": edge}


def test_each_variants_edge_and_who_it_favours() -> None:
    edges = {"base": (0.461, 0.451, 0.471), "second-wins": (-0.290, -0.300, -0.280),
             "heart-ten": (0.005, -0.005, 0.015), "random": (0.100, 0.090, 0.110)}
    lines = report._start_headline(tables(edges), run_of(VARIANTS))
    # base is named by its values of what the variants change, a policy variant by its players
    assert lines[-2] == (
        "The start player's edge, variant by variant: "
        "+0.461 VP per deal [0.451, 0.471] in base (`equal_cards = first_wins`); "
        "-0.290 VP per deal [-0.300, -0.280] in second-wins (`equal_cards = second_wins`); "
        "+0.005 VP per deal [-0.005, 0.015] in heart-ten (`equal_cards = second_heart_ten`); "
        "+0.100 VP per deal [0.090, 0.110] in random (`policies = random, random`).")
    assert lines[-1] == ("The variant decides the sign of the edge: it favours the start player in "
                         "base, random and the other player in second-wins; its interval holds 0 "
                         "in heart-ten.")
    # the per-variant sentences before them are as they were
    assert lines[1].startswith("With second-wins (`equal_cards = second_wins`) his win rate")


def test_no_sign_sentence_when_every_edge_has_one_sign_or_holds_0() -> None:
    edges = {"base": (0.461, 0.451, 0.471), "second-wins": (0.2, 0.1, 0.3),
             "heart-ten": (0.005, -0.005, 0.015), "random": (0.100, 0.090, 0.110)}
    lines = report._start_headline(tables(edges), run_of(VARIANTS))
    assert lines[-1].startswith("The start player's edge, variant by variant: +0.461 VP per deal")
    assert "+0.20 VP per deal [0.10, 0.30] in second-wins" in lines[-1]
    assert not any("decides the sign" in line for line in lines)


def test_a_run_without_variants_has_no_side_by_side_line() -> None:
    lines = report._start_headline(tables({"base": (0.461, 0.451, 0.471)}), run_of(VARIANTS[:1]))
    assert len(lines) == 1 and lines[0].startswith("The start player wins")


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The start-player experiment's equal_cards variants on 2,000 deals."""
    exp = Experiment.from_dict({
        "name": "duel-equal", "game": "doko_duell", "deals": 2000, "seed": 5, "shard_size": 1000,
        "policies": HEURISTIC,
        "variants": [{"name": "second-wins", "rules": {"equal_cards": "second_wins"}},
                     {"name": "second-heart-ten", "rules": {"equal_cards": "second_heart_ten"}}]})
    return run_experiment(exp, out_dir=tmp_path_factory.mktemp("results"), jobs=1, progress=False)


def test_the_report_names_every_equal_cards_value(small_run: Path, tmp_path: Path) -> None:
    index = report.build(small_run, tmp_path / "rep", questions=["start_player"])
    summary = (index.parent / "summary.md").read_text()
    line = next(s[2:] for s in summary.splitlines() if s.startswith("- The start player's edge, "))
    edges = balance.start_edge(load.scan(small_run), load.read_outcome(small_run),
                               ["base", "second-wins", "second-heart-ten"])
    parts = line.removeprefix("The start player's edge, variant by variant: ").rstrip(".").split("; ")
    named = ["base (`equal_cards = first_wins`)", "second-wins (`equal_cards = second_wins`)",
             "second-heart-ten (`equal_cards = second_heart_ten`)"]
    assert [p.split(" in ", 1)[1] for p in parts] == named
    for part, variant in zip(parts, ("base", "second-wins", "second-heart-ten"), strict=True):
        row = edges.filter(variant=variant, metric="score edge").row(0, named=True)
        assert part.split(" in ", 1)[0] == report.estimate(row, " VP per deal", sign=True)

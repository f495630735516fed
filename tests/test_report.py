"""``analysis.report`` on small real runs: the files are there, the HTML is self-contained,
the headline sentences carry the tables' numbers, bad questions raise before anything is
written, and a build that fails leaves the last report as it was."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis import balance, load, plots, report
from sim.registry import find_game
from sim.runner import Experiment, run_experiment, shard_columns

DEALS = 2000
EXPERIMENTS = {
    "duel": {"name": "duel", "game": "doko_duell", "deals": DEALS, "seed": 3, "shard_size": 1000,
             "policies": ["heuristic", "random"],
             "variants": [{"name": "starter-loses", "rules": {"tie_rule": "starter_loses"}}]},
    "skat": {"name": "skat", "game": "skat", "deals": DEALS, "seed": 3, "shard_size": 1000,
             "policies": ["heuristic", "heuristic", "heuristic"], "rules": {"all_pass": "throw_in"},
             "variants": [{"name": "ramsch", "rules": {"all_pass": "ramsch"}}]},
}
NUMBER = r"([-+]?\d+(?:\.\d+)?)"
ESTIMATE = re.compile(NUMBER + r"(?: %| [^\[\d]*?)? \[" + NUMBER + ", " + NUMBER + r"\]")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("results")
    return {k: run_experiment(Experiment.from_dict(d), out_dir=out, jobs=1, progress=False)
            for k, d in EXPERIMENTS.items()}


@pytest.fixture(scope="module")
def reports(results: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("reports")
    return {k: report.build(root, out / k) for k, root in results.items()}


def section(summary: str, title: str) -> list[str]:
    """The headline sentences under ``## title``."""
    block = summary.split(f"## {title}\n", 1)[1].split("\n### ", 1)[0]
    return [line[2:] for line in block.splitlines() if line.startswith("- ")]


def first_estimate(sentence: str, after: str) -> tuple[float, float, float]:
    match = ESTIMATE.search(sentence, sentence.index(after))
    assert match, sentence
    return tuple(float(x) for x in match.groups())


def matches(shown: tuple[float, float, float], row: dict[str, float], scale: float = 1.0) -> bool:
    """The sentence's value and interval are the row's, rounded as they were printed."""
    decimals = [len(s.split(".")[1]) if "." in s else 0 for s in map(repr, shown)]
    step = 10.0 ** -max(decimals)
    return all(abs(x - row[c] * scale) <= step / 2 + 1e-9
               for x, c in zip(shown, ("value", "lo", "hi"), strict=True))


@pytest.mark.parametrize("key", EXPERIMENTS)
def test_files_are_written(results: dict[str, Path], reports: dict[str, Path], key: str) -> None:
    index = reports[key]
    assert index.name == "index.html" and index.is_file()
    assert (index.parent / "summary.md").read_text().startswith(f"# Balance report: {key}")
    columns = load.scan(results[key]).collect_schema().names()
    expected = {f"{t.name}.png" for q in report.applicable(columns)
                for t in report.QUESTIONS[q].tables_for(columns)}
    assert expected <= {p.name for p in index.parent.glob("*.png")}
    assert not list(index.parent.glob(".*.tmp"))


@pytest.mark.parametrize("key", EXPERIMENTS)
def test_html_is_self_contained(reports: dict[str, Path], key: str) -> None:
    html = reports[key].read_text()
    images = re.findall(r'<img [^>]*src="([^"]*)"', html)
    assert len(images) == len(list(reports[key].parent.glob("*.png")))
    for src in images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1]).startswith(b"\x89PNG")
    assert "http://" not in html and "https://" not in html
    assert not re.search(r"<script|<link|@import|url\(", html, re.IGNORECASE)
    assert "<style>" in html


def test_what_was_run_opens_the_report(reports: dict[str, Path]) -> None:
    summary = (reports["duel"].parent / "summary.md").read_text()
    run = summary.split("## What was run", 1)[1].split("\n## ", 1)[0]
    assert f"{DEALS:,} deals per variant" in run and "seed 3" in run
    assert "| base | heuristic, random | " in run and "tie_rule = draw" in run
    assert "| starter-loses | heuristic, random | tie_rule = starter_loses |" in run


def test_start_player_headline_carries_the_table(results: dict[str, Path], reports: dict[str, Path]) -> None:
    summary = (reports["duel"].parent / "summary.md").read_text()
    lines = section(summary, "Start-player advantage")
    table = balance.start_player(load.scan(results["duel"]), load.read_outcome(results["duel"]),
                                 ["base", "starter-loses"])

    def row(variant: str, metric: str) -> dict[str, float]:
        return table.filter(variant=variant, position="start player", metric=metric).row(0, named=True)

    assert lines[0].startswith("The start player wins")
    assert matches(first_estimate(lines[0], "wins"), row("base", "win rate"), 100)
    assert matches(first_estimate(lines[0], "scores"), row("base", "score"))
    assert "VP per deal" in lines[0]
    assert lines[1].startswith("With starter-loses (`tie_rule = starter_loses`)")
    assert matches(first_estimate(lines[1], "win rate"), row("starter-loses", "win rate"), 100)


def test_tie_ramsch_and_sweep_headlines_carry_the_tables(results: dict[str, Path],
                                                          reports: dict[str, Path]) -> None:
    duel = (reports["duel"].parent / "summary.md").read_text()
    tie = balance.tie(load.scan(results["duel"]), load.read_outcome(results["duel"]))
    tie_row = tie.filter(variant="base", metric="120 : 120 tie").row(0, named=True)
    assert matches(first_estimate(section(duel, "The 120 : 120 tie")[0], "comes in"), tie_row, 100)

    skat = (reports["skat"].parent / "summary.md").read_text()
    skat_outcome = load.read_outcome(results["skat"])
    ramsch = balance.ramsch(load.scan(results["skat"]), skat_outcome)
    lines = section(skat, "Ramsch outcomes")
    assert lines[0] == "In base (`all_pass = throw_in`) ramsch is never played."
    played = ramsch.filter(variant="ramsch", metric="ramsch played").row(0, named=True)
    assert matches(first_estimate(lines[1], "is played in"), played, 100)

    sweep = balance.sweep(load.scan(results["skat"]), skat_outcome, variants=["base", "ramsch"])
    best, tied = balance.fairest_paired(sweep)
    first = section(skat, "Rule options compared")[0]
    assert f"is {best} (" in first and first.endswith(f"{', '.join(tied) if tied else 'none'}.")
    assert matches(first_estimate(first, f"is {best}"), sweep.filter(variant=best).row(0, named=True))


def test_tables_follow_the_experiment_order_and_shares_are_shares(results: dict[str, Path]) -> None:
    frame, outcome = load.scan(results["skat"]), load.read_outcome(results["skat"])
    order = ["ramsch", "base"]  # any order given is kept, base or not
    for table in (balance.start_player(frame, outcome, order), balance.ramsch(frame, outcome, order)):
        assert table["variant"].unique(maintain_order=True).to_list() == order
        shares = table.filter(pl.col("metric").map_elements(plots.is_share, return_dtype=pl.Boolean))
        assert shares["value"].drop_nans().abs().max() <= 1


def test_applicable_by_the_columns_of_each_games_results() -> None:
    games = ("doko_duell", "doko_skat", "skat", "skat_en_deux")
    columns = {game: shard_columns(find_game(game)) for game in games}
    assert report.applicable(columns["doko_duell"]) == ["start_player", "markers", "tie", "sweep"]
    assert report.applicable(columns["doko_skat"]) == ["start_player", "tie", "sweep"]
    assert report.applicable(columns["skat"]) == ["start_player", "ramsch", "sweep"]
    assert report.applicable(columns["skat_en_deux"]) == ["start_player", "ramsch", "sweep"]
    assert set(report.QUESTIONS) == {"start_player", "markers", "ramsch", "tie", "sweep", "quality",
                                     "restricted"}
    # restricted play is answered where the results hold a restriction's column, and apart
    # from the quality question's skill pairs
    restricted = [*columns["doko_duell"], "skill_heuristic_vs_restricted_heuristic_keep_aces"]
    assert report.applicable(restricted) == ["start_player", "markers", "tie", "sweep", "restricted"]
    assert report.QUESTIONS["restricted"].tables_for(restricted) == [report.RESTRICTED]
    # the quality question is answered when asked, on the columns of a [quality] table; its
    # spread needs nothing more, its variety game types (none in the duel)
    assert "quality" in report.applicable(columns["skat"], asked=True)
    quality = report.QUESTIONS["quality"]
    assert quality.tables_for(columns["doko_duell"]) == [report.SPREAD]
    assert quality.tables_for([*columns["skat"], "skill_a_vs_b", "lead_changes", "settled_after"]) == [
        report.SKILL, report.DECISIVENESS, report.TENSION, report.SPREAD, report.VARIETY]
    # the tie between players each on his own in the duel, between the sides in Doko-Skat
    assert report.QUESTIONS["tie"].tables_for(columns["doko_duell"]) == [report.TIE_OF_PLAYERS]
    assert report.QUESTIONS["tie"].tables_for(columns["doko_skat"]) == [report.TIE_OF_SIDES]
    # declarers by position where the results have declarers
    for game in games:
        tables = report.QUESTIONS["start_player"].tables_for(columns[game])
        assert (report.DECLARERS in tables) == game.startswith("skat"), game


@pytest.mark.parametrize("questions, measure, message", [
    (["luck"], "start_edge", "unknown question 'luck'"),
    (["ramsch"], "start_edge", "question 'ramsch' not available for doko_duell"),
    (["start_player", "markers"], "start_edge", None),
    (["sweep"], "fairness", "unknown measure 'fairness'"),
])
def test_bad_questions_raise_before_writing(results: dict[str, Path], tmp_path: Path, questions: list[str],
                                            measure: str, message: str | None) -> None:
    out = tmp_path / "rep"
    if message is None:
        assert report.build(results["duel"], out, questions=questions, measure=measure).is_file()
        assert {p.name for p in out.glob("*.png")} == {"start_player.png", "start_edge.png", "markers.png",
                                                       "vp_distribution.png"}
        return
    with pytest.raises(ValueError, match=re.escape(message)) as error:
        report.build(results["duel"], out, questions=questions, measure=measure)
    assert "\n" not in str(error.value)
    assert not out.exists()


def test_a_failed_build_leaves_the_last_report(results: dict[str, Path], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "rep"
    index = report.build(results["skat"], out, questions=["ramsch"])
    before = index.read_bytes()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(plots, "sweep", broken)
    with pytest.raises(RuntimeError, match="drawing failed"):
        report.build(results["skat"], out, questions=["ramsch", "sweep"])
    assert index.read_bytes() == before
    assert not (out / "sweep.png").exists() and not list(out.glob(".*.tmp"))


def test_the_win_rate_measure_is_in_percentage_points(results: dict[str, Path], tmp_path: Path) -> None:
    index = report.build(results["duel"], tmp_path / "rep", questions=["sweep"], measure="start_win_edge")
    lines = section((index.parent / "summary.md").read_text(), "Rule options compared")
    assert "win-rate edge" in lines[0] and "percentage points" in lines[0]


# --- the answer box, the glossary, one precision rule, paired judgements ----------------------------

@pytest.mark.parametrize("key", EXPERIMENTS)
def test_every_page_opens_with_its_answer_box(results: dict[str, Path], reports: dict[str, Path],
                                              key: str) -> None:
    page = reports[key].read_text()
    body = page.split("<body>", 1)[1]
    assert re.match(r'<h1>[^<]*</h1><aside class="answer">', body), body[:200]
    box = body.split('<aside class="answer">', 1)[1].split("</aside>", 1)[0]
    assert body.index("</aside>") < body.index("<h2>What was run")
    questions = report.applicable(load.scan(results[key]).collect_schema().names())
    assert box.count("<p>") == len(questions)  # one sentence per question, then what it rests on
    players = "seats heuristic, random" if key == "duel" else "heuristic at every seat"
    assert f'<p class="rests"><strong>Rests on:</strong> players: {players};' in box
    assert f"{DEALS:,} deals per variant" in box
    summary = (reports[key].parent / "summary.md").read_text().splitlines()
    assert summary[0] == f"# Balance report: {key}" and summary[1] == ""
    assert summary[2].startswith("> **The answer.** ")
    quoted = summary[2:summary.index("## What was run")]
    assert all(line.startswith(">") for line in quoted if line)
    assert any(line.startswith("> *Rests on:* players: ") for line in quoted)


@pytest.mark.parametrize("key", EXPERIMENTS)
def test_every_page_ends_with_a_glossary_of_its_terms(reports: dict[str, Path], key: str) -> None:
    summary = (reports[key].parent / "summary.md").read_text()
    glossary = summary.split("\n## Glossary\n", 1)[1]
    terms = re.findall(r"^- \*\*([^*]+)\*\*: ", glossary, re.MULTILINE)
    assert {"interval", "paired difference", "heuristic", "numbers"} <= set(terms)
    assert ("VP" in terms) == (key == "duel") and ("ramsch" in terms) == (key == "skat")
    assert '<section id="glossary"><h2>Glossary</h2>' in reports[key].read_text()


@pytest.mark.parametrize("key", EXPERIMENTS)
def test_one_precision_rule_and_no_overlap_judgement(reports: dict[str, Path], key: str) -> None:
    summary = (reports[key].parent / "summary.md").read_text()
    for text in (reports[key].read_text().split("<body>", 1)[1], summary):
        assert "overlap" not in text.replace("never by whether two intervals overlap", "")
        assert not re.search(r"(?<![\w.])-0(\.0+)?(?![\d.])", text), "a negative zero"
        for value, lo, hi in ESTIMATE.findall(text):
            places = {len(x.partition(".")[2]) for x in (value, lo, hi)}
            assert len(places) == 1, (value, lo, hi)  # the estimate and its bounds to the same decimals
            assert lo != hi, "an interval of no width is shown as exact"


def test_the_start_answer_is_the_edge_per_deal_evening_and_payout(results: dict[str, Path],
                                                                   reports: dict[str, Path]) -> None:
    """The duel's answer: the start player's edge a deal, over 36 deals, and against the mean
    absolute score of the start player in base, worked out here from the shards."""
    frame = load.scan(results["duel"]).filter(pl.col("variant") == "base").collect()
    start = frame["start_seat"].to_numpy()
    vp = np.stack([frame["vp_0"].to_numpy(), frame["vp_1"].to_numpy()]).astype(float)
    mine, theirs = vp[start, np.arange(start.size)], vp[1 - start, np.arange(start.size)]
    edge, payout = (mine - theirs).mean(), np.abs(mine).mean()
    summary = (reports["duel"].parent / "summary.md").read_text()
    answer = summary.splitlines()[2]
    row = balance.start_edge(load.scan(results["duel"]), load.read_outcome(results["duel"])) \
        .filter(variant="base", metric="score edge").row(0, named=True)
    assert row["value"] == pytest.approx(edge)
    verb = "gains" if row["lo"] > 0 else "loses" if row["hi"] < 0 else "cannot tell whether"
    assert verb in answer
    per_deal, evening, share = ([float(x) for x in found] for found in ESTIMATE.findall(answer)[:3])
    size = abs(edge)  # a loss is said as "loses" and its size
    assert abs(per_deal[0]) == pytest.approx(size, abs=0.006)
    assert abs(evening[0]) == pytest.approx(36 * size, abs=0.06)
    assert abs(share[0]) == pytest.approx(100 * size / payout, abs=0.06)
    assert "over an evening of 36 deals" in answer and "of what an average deal pays him" in answer
    assert f"({payout:.2f} VP, won or lost)" in answer or f"({payout:.1f} VP, won or lost)" in answer

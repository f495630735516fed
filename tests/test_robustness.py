"""What moves a report's answer: the derived runs ``sim.robustness`` plans (one variant per
option value other than the experiment's, the rungs, the sizes from ``[report]``), the
tables and headline ``analysis.report`` writes from them (on hand-made results whose answers
are known), a table wider than the page scrolling in its own box (headless Chromium, where
installed), and the runs on real deals: a scoring-only option's paired difference is the
one re-scoring by hand gives."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from analysis import balance, load, plots, report, robustness
from sim import robustness as planned
from sim.cli import main
from sim.engine.play import play
from sim.registry import GAMES, find_game
from sim.runner import OUTCOME_KEY, Experiment

# --- the runs planned --------------------------------------------------------------------------


def experiment(
    game: str,
    rules: dict[str, Any] | None = None,
    deals: int = 1000,
    report_table: dict[str, Any] | None = None,
) -> Experiment:
    return Experiment.from_dict(
        {
            "name": "x",
            "game": game,
            "deals": deals,
            "seed": 7,
            "shard_size": 500,
            "policies": "heuristic",
            "rules": rules or {},
            "report": report_table or {},
        }
    )


@pytest.mark.parametrize("game", list(GAMES))
def test_one_variant_per_option_value_other_than_the_experiments(game: str) -> None:
    options = find_game(game).options
    first = options.options[0]
    other = next(v for v in planned.readings(first) if v != first.default)
    exp = experiment(game, {first.name: other})
    derived = planned.one_at_a_time(exp, 300)
    variants = derived.variants()
    assert variants[0].name == "base" and variants[0].rules == exp.rules
    changed = [
        next(iter({k: x for k, x in v.rules.items() if exp.rules[k] != x}.items())) for v in variants[1:]
    ]
    assert all(len({k for k in v.rules if exp.rules[k] != v.rules[k]}) == 1 for v in variants[1:])
    expected = [(o.name, x) for o in options for x in planned.readings(o) if x != exp.rules[o.name]]
    assert changed == expected and len(set(changed)) == len(changed)
    assert (first.name, first.default) in changed and (first.name, other) not in changed
    assert all(v.policies == exp.policies for v in variants)
    assert (derived.deals, derived.seed, derived.game) == (300, exp.seed, game)


def test_the_rungs_and_the_sizes() -> None:
    exp = experiment("skat", report_table={"robustness_deals": 5000, "rung_deals": 40, "pimc_deals": 4,
                                           "net_deals": 30})
    runs = planned.derived(exp)
    assert list(runs) == ["one-at-a-time", "rungs", "pimc", "net"]
    assert [(e.name, e.deals) for e in runs.values()] == [
        ("x-one-at-a-time", 1000),
        ("x-rungs", 40),
        ("x-pimc", 4),
        ("x-net", 30),
    ]  # capped at the experiment's deals
    assert [(v.name, v.policies) for v in runs["rungs"].variants()] == [
        ("base", ["heuristic"] * 3),
        ("random", ["random"] * 3),
        ("lookahead", ["lookahead"] * 3),
    ]
    assert [v.policies for v in runs["pimc"].variants()] == [["heuristic"] * 3, ["pimc"] * 3]
    assert [v.policies for v in runs["net"].variants()] == [["heuristic"] * 3, ["net"] * 3]
    assert all(r.rules == exp.rules and r.seed == exp.seed for r in runs.values())
    defaults = planned.derived(experiment("skat", deals=10**6))
    assert {k: e.deals for k, e in defaults.items()} == {
        "one-at-a-time": planned.SIZES["robustness_deals"],
        "rungs": planned.SIZES["rung_deals"],
        "net": planned.SIZES["net_deals"],
    }
    assert planned.derived(experiment("skat", report_table={"robustness_deals": 0, "rung_deals": 0,
                                                            "net_deals": 0})) == {}


@pytest.mark.parametrize(
    "table, fragment",
    [
        ("rung_deals = -1", "[report]: rung_deals must be a whole number of deals, 0 or more, got -1"),
        ('pimc_deals = "few"', "[report]: pimc_deals must be a whole number of deals"),
        ("robustness_deals = 2.5", "[report]: robustness_deals must be a whole number of deals"),
        (
            "rungs_deals = 10",
            "[report]: unknown key 'rungs_deals' (allowed: questions, measure, robustness_deals",
        ),
    ],
)
def test_bad_report_sizes_are_one_line(capsys, tmp_path: Path, table: str, fragment: str) -> None:
    config = tmp_path / "exp.toml"
    config.write_text(
        'name = "x"\ngame = "skat"\ndeals = 10\nseed = 1\nshard_size = 10\n'
        f'policies = "heuristic"\n[report]\n{table}\n'
    )
    status = main(["report", str(config), "--results", str(tmp_path / "results"), "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and err.startswith("stichsim: error: ") and fragment in err, (
        err
    )
    assert not (tmp_path / "results").exists()


# --- hand-made results: the tables and the headline ------------------------------------------------

OUTCOME = {
    "players": 2,
    "score": ["vp_0", "vp_1"],
    "unit": "VP",
    "start": "start_seat",
    "won": ["won_0", "won_1"],
}


def write_results(root: Path, variants: dict[str, tuple[dict[str, Any], list[str], list[int]]]) -> Path:
    """A results folder of a two-player game: per variant its rules, policies and the start
    player's VP edge in each deal (the starter alternates; the one ahead wins and scores)."""
    rules, policies, _ = variants["base"]
    config = {
        "name": root.name,
        "game": "toy",
        "deals": len(variants["base"][2]),
        "seed": 1,
        "shard_size": 10,
        "rules": rules,
        "policies": policies,
        "variants": [
            {"name": k, "rules": r, "policies": p} for k, (r, p, _) in variants.items() if k != "base"
        ],
    }
    root.mkdir(parents=True)
    (root / "experiment.json").write_text(json.dumps({"config": config}))
    for name, (_, _, edges) in variants.items():
        e = np.array(edges)
        start = np.arange(e.size) % 2
        ahead = np.where(e > 0, start, np.where(e < 0, 1 - start, -1))
        vp = [np.where(ahead == s, np.abs(e), 0) for s in (0, 1)]
        won = [np.where(ahead < 0, -1, (ahead == s).astype(int)) for s in (0, 1)]
        table = pa.table(
            {
                "deal": np.arange(e.size),
                "vp_0": vp[0],
                "vp_1": vp[1],
                "start_seat": start.astype(np.int8),
                "won_0": won[0].astype(np.int8),
                "won_1": won[1].astype(np.int8),
            }
        )
        folder = root / "game=toy" / f"variant={name}"
        folder.mkdir(parents=True)
        pq.write_table(
            table.replace_schema_metadata({OUTCOME_KEY: json.dumps(OUTCOME)}), folder / "shard=00000.parquet"
        )
    return root


AHEAD = [4, 6, 5, 5, 3, 7, 5, 5]
"""The start player's edge under the experiment's rules: +5, clearly positive."""
RULES = {"tie": "draw", "box": 12}
HEURISTIC = ["heuristic", "heuristic"]


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("results")
    return {
        "main": write_results(root / "main", {"base": (RULES, HEURISTIC, AHEAD)}),
        "options": write_results(
            root / "main-one-at-a-time",
            {
                "base": (RULES, HEURISTIC, AHEAD),
                "tie-last": (RULES | {"tie": "last"}, HEURISTIC, [e + 1 for e in AHEAD]),
                "tie-starter": (RULES | {"tie": "starter"}, HEURISTIC, [-e for e in AHEAD]),  # flips the sign
                "box-none": (RULES | {"box": "none"}, HEURISTIC, AHEAD),
            },
        ),  # changes nothing
        "rungs": write_results(
            root / "main-rungs",
            {
                "base": (RULES, HEURISTIC, AHEAD),
                "random": (RULES, ["random"] * 2, [3, -3, 2, -2, 4, -4, 1, -1]),  # its interval holds 0
                "lookahead": (RULES, ["lookahead"] * 2, [e + 2 for e in AHEAD]),
            },
        ),
    }


def test_one_row_per_option_value_sorted_by_its_effect(folders: dict[str, Path]) -> None:
    frame, outcome = load.scan(folders["options"]), load.read_outcome(folders["options"])
    changes = {"tie-last": ("tie", "last"), "tie-starter": ("tie", "starter"), "box-none": ("box", "none")}
    table = robustness.one_at_a_time(frame, outcome, "start_edge", changes)
    assert table["variant"].to_list() == ["tie-starter", "tie-last", "box-none"]  # by |difference|
    assert list(zip(table["option"], table["setting"], strict=True)) == [
        ("tie", "starter"),
        ("tie", "last"),
        ("box", "none"),
    ]
    assert table["diff"].to_list() == pytest.approx([-10.0, 1.0, 0.0])
    assert table["value"].to_list() == pytest.approx([-5.0, 6.0, 5.0])


def test_the_rungs_against_heuristic(folders: dict[str, Path]) -> None:
    frame, outcome = load.scan(folders["rungs"]), load.read_outcome(folders["rungs"])
    names = {"base": "heuristic", "random": "random", "lookahead": "lookahead"}
    table = robustness.rungs([(frame, outcome, names), (frame, outcome, names)], "start_edge")
    assert table["rung"].to_list() == ["heuristic", "random", "lookahead"]  # each rung once
    assert table["diff"].to_list() == pytest.approx([0.0, -5.0, 2.0])


def test_verdict() -> None:
    above, below, holds = ({"lo": lo, "hi": hi} for lo, hi in ((1, 2), (-2, -1), (-1, 1)))
    found = robustness.verdict(above, {"a": above, "b": below, "c": holds})
    assert (found.sign, found.flipped, found.zero, found.holds) == (1, ["b"], ["c"], False)
    assert robustness.verdict(below, {"a": below}).holds
    unclear = robustness.verdict(holds, {"a": above, "b": below})
    assert (unclear.sign, unclear.flipped, unclear.holds) == (0, [], False)


def section(index: Path, title: str) -> str:
    summary = (index.parent / "summary.md").read_text()
    return summary.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0] if f"## {title}\n" in summary else ""


def test_the_headline_names_the_flipped_sign_and_the_open_rung(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    index = report.build(
        folders["main"],
        tmp_path / "rep",
        questions=["start_player"],
        one_at_a_time=folders["options"],
        rungs=[folders["rungs"]],
    )
    text = section(index, "What moves the answer")
    first = text.split("\n- ", 1)[1].splitlines()[0]
    assert first.startswith("The answer is the start player's score edge (fair value 0), +5.0")
    assert "positive; its sign flips under `tie = starter` (-5.0 VP per deal [-6.0, -4.0]);" in first
    assert "the interval holds 0 on the random rung" in first
    assert "`tie = starter` moves it most, by -10" in text and "2 of the 3 settings move it clearly" in text
    assert "The pimc rung was left out" in text
    tables = re.findall(r"\n\| (option|players \(every seat\)) \|", text)
    assert tables == ["option", "players (every seat)"]
    rows = [line for line in text.splitlines() if line.startswith("| tie |") or line.startswith("| box |")]
    assert len(rows) == 3  # one row per option value other than the experiment's
    assert {p.name for p in index.parent.glob("*.png")} >= {"one_at_a_time.png", "rungs.png"}


def test_a_sign_that_holds_everywhere(folders: dict[str, Path], tmp_path: Path) -> None:
    rungs = write_results(
        tmp_path / "rungs",
        {"base": (RULES, HEURISTIC, AHEAD), "pimc": (RULES, ["pimc"] * 2, [e + 1 for e in AHEAD])},
    )
    index = report.build(folders["main"], tmp_path / "rep", questions=["start_player"], rungs=[rungs])
    first = section(index, "What moves the answer").split("\n- ", 1)[1].splitlines()[0]
    assert first.endswith("positive, and positive on every rung (heuristic, pimc: 8 deals each).")
    assert "left out" not in section(index, "What moves the answer")


def test_the_report_builds_without_the_extra_folders(folders: dict[str, Path], tmp_path: Path) -> None:
    index = report.build(folders["main"], tmp_path / "rep", questions=["start_player"])
    assert section(index, "What moves the answer") == ""
    assert (
        not (index.parent / "one_at_a_time.png").exists() and "What moves the answer" not in index.read_text()
    )


def test_the_figures(folders: dict[str, Path]) -> None:
    frame, outcome = load.scan(folders["options"]), load.read_outcome(folders["options"])
    table = robustness.one_at_a_time(
        frame, outcome, "start_edge", {"tie-starter": ("tie", "starter"), "box-none": ("box", "none")}
    )
    ax = plots.tornado(table, "VP per deal").axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["tie = starter", "box = none"]
    assert ax.get_xlabel() == "VP per deal" and ax.containers
    rungs = robustness.rungs(
        [
            (
                load.scan(folders["rungs"]),
                outcome,
                {"base": "heuristic", "random": "random", "lookahead": "lookahead"},
            )
        ],
        "start_edge",
    )
    fig = plots.rungs(rungs, "VP per deal")
    assert fig.axes[1].get_title("left") == "Difference from heuristic"
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["heuristic", "random", "lookahead"]


# --- a wide table in the browser -------------------------------------------------------------

MEASURE = """<script>
const root = document.documentElement;
const boxes = [...document.querySelectorAll('.scroll')].map(b => ({right: b.getBoundingClientRect().right,
  client: b.clientWidth, scroll: b.scrollWidth, table: b.querySelector('table').scrollWidth}));
const found = {width: root.clientWidth, page: root.scrollWidth, boxes};
document.body.setAttribute('data-layout', JSON.stringify(found));
</script>"""


def layout(page: str, width: int, tmp_path: Path) -> dict[str, Any]:
    """Where headless Chromium lays out ``page``'s table boxes at ``width`` px."""
    path = tmp_path / f"page-{width}.html"
    path.write_text(page.replace("</body>", MEASURE + "</body>"))
    dom = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--window-size={width},900",
            "--dump-dom",
            path.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    found = re.search(r'data-layout="([^"]*)"', dom)
    assert found, dom[-500:]
    result: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return result


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium here (CI installs it in .ci/run)")
def test_a_table_wider_than_the_text_uses_the_page_and_a_wider_one_scrolls_in_its_box(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    long = {
        f"a-rather-long-variant-name-number-{k:02d}": (
            RULES | {"tie": f"setting-{k}"},
            HEURISTIC,
            [e + k for e in AHEAD],
        )
        for k in range(3)
    }
    wide = write_results(tmp_path / "wide", {"base": (RULES, HEURISTIC, AHEAD)} | long)
    page = report.build(wide, tmp_path / "rep", questions=["sweep"]).read_text()
    column = 70 * 16  # the text's width (70rem) at the browser's 16 px a rem
    at_1280 = layout(page, 1280, tmp_path)
    sweep = at_1280["boxes"][-1]
    assert column < sweep["table"] < 1280 - 32, (
        "the sweep's table is wider than the text, narrower than the page"
    )
    for size in (1280, 1000, 640):
        found = at_1280 if size == 1280 else layout(page, size, tmp_path)
        assert found["page"] <= found["width"], f"{size} px: the page itself scrolls sideways"
        for box in found["boxes"]:
            assert box["right"] <= found["width"], f"{size} px: a table box runs off the page"
            # the box shows its table whole where the page has room for it, else it scrolls
            fits = box["table"] <= found["width"] - 32
            assert (box["scroll"] <= box["client"]) == fits, (size, box)
    assert layout(page, 640, tmp_path)["boxes"][-1]["scroll"] > 640, "the narrow page scrolls it in its box"


def test_every_table_is_in_a_box_of_its_own(folders: dict[str, Path], tmp_path: Path) -> None:
    page = report.build(
        folders["main"], tmp_path / "rep", one_at_a_time=folders["options"], rungs=[folders["rungs"]]
    ).read_text()
    assert page.count("<table>") == page.count('<div class="scroll"><table>') > 3
    assert ".scroll { width: fit-content; max-width: 100%;" in page and "overflow-x: auto" in page


# --- real runs -------------------------------------------------------------------------------


def test_a_scoring_only_option_matches_rescoring_by_hand(tmp_path: Path) -> None:
    """The one-at-a-time run's paired difference for ``tie_rule = starter_wins`` (scoring
    only: a re-scoring of the played deals) is the one re-scoring the same deals by hand gives."""
    exp = Experiment.from_dict(
        {
            "name": "duel",
            "game": "doko_duell",
            "deals": 3000,
            "seed": 11,
            "shard_size": 1000,
            "policies": ["heuristic", "heuristic"],
            "report": {"robustness_deals": 600, "rung_deals": 0, "net_deals": 0},
        }
    )
    roots = planned.run(planned.derived(exp), tmp_path, jobs=1, progress=False, backend="loky")
    assert list(roots) == ["one-at-a-time"]
    frame, outcome = load.scan(roots["one-at-a-time"]), load.read_outcome(roots["one-at-a-time"])
    table = robustness.one_at_a_time(
        frame, outcome, "start_edge", {"tie_rule-starter_wins": ("tie_rule", "starter_wins")}
    )

    game = find_game("doko_duell")
    played = play(game, exp.seed, 0, 600, exp.rules, exp.policies).columns
    rescored = game.rescore(played, exp.rules | {"tie_rule": "starter_wins"})

    def edge(columns: dict[str, np.ndarray]) -> np.ndarray:
        vp = np.stack([columns["vp_0"], columns["vp_1"]]).astype(float)
        start = np.asarray(game.outcome.start_seat(columns))
        return vp[start, np.arange(start.size)] - vp[1 - start, np.arange(start.size)]

    by_hand = edge(rescored) - edge(played)
    row = table.row(0, named=True)
    assert row["n"] == 600 and by_hand.any()
    assert row["diff"] == pytest.approx(by_hand.mean())
    again = planned.run(
        planned.derived(exp), tmp_path, jobs=2, progress=False, backend="loky"
    )  # resumed: nothing new
    assert pl.read_parquet(next(again["one-at-a-time"].rglob("*.parquet"))).height > 0
    assert (
        balance.sweep(load.scan(again["one-at-a-time"]), outcome)["value"].to_list()
        == balance.sweep(frame, outcome)["value"].to_list()
    )


def test_report_runs_the_robustness_runs_and_replaces_them_when_resized(capsys, tmp_path: Path) -> None:
    config = tmp_path / "exp.toml"
    text = (
        'name = "small"\ngame = "doko_duell"\ndeals = 400\nseed = 5\nshard_size = 200\n'
        'policies = ["heuristic", "random"]\n[report]\nquestions = ["start_player"]\n'
        "robustness_deals = {}\nrung_deals = 12\n"
    )
    config.write_text(text.format(150))
    args = [
        "report",
        str(config),
        "--results",
        str(tmp_path / "results"),
        "--out",
        str(tmp_path / "rep"),
        "--jobs",
        "1",
        "--no-progress",
    ]
    assert main(args) == 0, capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == [
        "small",
        "small-net",
        "small-one-at-a-time",
        "small-rungs",
    ]
    summary = (tmp_path / "rep" / "summary.md").read_text()
    assert "## What moves the answer" in summary and "| lookahead |" in summary and "| net |" in summary
    assert "first 150 deals" in summary and "The pimc rung was left out" in summary
    assert main(args) == 0 and (tmp_path / "rep" / "summary.md").read_text() == summary  # nothing new
    config.write_text(text.format(100))
    assert main(args) == 0, capsys.readouterr().err
    assert "first 100 deals" in (tmp_path / "rep" / "summary.md").read_text()


def test_a_rung_with_too_few_deals_says_so_with_its_deals(folders: dict[str, Path], tmp_path: Path) -> None:
    """A rung whose interval holds 0 and is wider than the answer itself: too few deals to tell,
    with its deal count, not a contradiction of the answer."""
    wide = write_results(
        tmp_path / "rungs",
        {"base": (RULES, HEURISTIC, AHEAD),
         "random": (RULES, ["random"] * 2, [20, -20, 15, -15, 25, -25, 9, -7])},  # +0.25, half width 16
    )
    index = report.build(folders["main"], tmp_path / "rep", questions=["start_player"], rungs=[wide])
    first = section(index, "What moves the answer").split("\n- ", 1)[1].splitlines()[0]
    assert "on every rung (heuristic, random: 8 deals each) wherever the deals can tell" in first
    assert "too few deals to tell on the random rung (8 deals: +0.2 VP per deal [" in first
    assert "the interval holds 0" not in first


def test_integer_options_get_a_panel_of_their_own(folders: dict[str, Path]) -> None:
    frame, outcome = load.scan(folders["options"]), load.read_outcome(folders["options"])
    table = robustness.one_at_a_time(
        frame, outcome, "start_edge", {"tie-starter": ("tie", "starter"), "box-none": ("box", "none")},
        integer={"box"},
    )
    assert table.filter(pl.col("integer"))["option"].to_list() == ["box"]
    fig = plots.tornado(table, "VP per deal")
    assert [ax.get_title("left") for ax in fig.axes] == [
        "Rule readings", "Integer options, one unit and a typical step (a scale of its own)"]
    labels = [[t.get_text() for t in ax.get_yticklabels()] for ax in fig.axes]
    assert labels == [["tie = starter"], ["box = none"]]

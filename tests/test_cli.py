"""The ``stichsim`` command line: every subcommand, and bad input as one line with exit 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from sim.cli import main
from sim.registry import GAMES, find_game
from sim.runner import EXPERIMENT_FILE

SKAT = find_game("skat")
ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status: int, err: str, *fragments: str) -> None:
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("stichsim: error: "), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, (fragment, err)


def files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


# --- help and rules -----------------------------------------------------------------------

@pytest.mark.parametrize("command", [[], ["run"], ["report"], ["rules"], ["trace"], ["replay"], ["bench"],
                                     ["play"], ["arena"]])
def test_help(capsys, command) -> None:
    status, out, _ = run(capsys, *command, "--help")
    assert status == 0 and out.startswith("usage: stichsim")


def test_rules_lists_every_option_with_its_default(capsys) -> None:
    status, out, _ = run(capsys, "rules", "skat")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == f"skat: {len(list(SKAT.options))} options"
    for row in SKAT.options.describe():
        line = next(t for t in lines if t.split()[:1] == [row["name"]])
        assert line.split()[1] == row["default"]
        assert row["allowed"] in line and row["doc"] in line
    assert re.search(r"^all_pass +throw_in ", out, re.M) and re.search(r"^lost_factor +2 ", out, re.M)
    assert re.search(r"^scoring +seed +seed, seeger_fabian ", out, re.M)


# --- run ------------------------------------------------------------------------------------

def test_run_resume_force(capsys, experiment_file, tmp_path) -> None:
    config = experiment_file()
    out = tmp_path / "res"
    status, text, _ = run(capsys, "run", config, "--out", out, "--jobs", "1", "--no-progress",
                          "--deals", "300")
    assert status == 0 and "tiny: 300 deals x 2 variants (base, ramsch)" in text
    root = out / "tiny"
    assert files(root) == [EXPERIMENT_FILE] + [f"game=skat/variant={v}/shard={k:05d}.parquet"
                                               for v in ("base", "ramsch") for k in range(2)]
    before = {p: p.stat().st_mtime_ns for p in root.rglob("*")}

    status, _, err = run(capsys, "run", config, "--out", out, "--deals", "300")
    assert_one_line_error(status, err, f"{root} exists: use --resume to finish it or --force "
                                       "to replace it")
    status, _, err = run(capsys, "run", config, "--out", out, "--no-progress", "--deals", "300",
                         "--resume")
    assert status == 0
    assert {p: p.stat().st_mtime_ns for p in root.rglob("*")} == before
    status, _, err = run(capsys, "run", config, "--out", out, "--resume")  # deals changed
    assert_one_line_error(status, err, "holds results of a different config", "--force")
    assert {p: p.stat().st_mtime_ns for p in root.rglob("*")} == before
    status, _, _ = run(capsys, "run", config, "--out", out, "--force", "--no-progress")
    assert status == 0 and len(list(root.rglob("*.parquet"))) == 6


REPORT = 'rules = { all_pass = "ramsch" }\n'
"""The tiny experiment's last line: a [report] table goes after it."""

BAD_RUNS = [
    ({'game = "skat"': 'game = "poker"'}, [], ["unknown game 'poker'", "games: skat"]),
    ({'all_pass = "throw_in"': "colour = 1"}, [], ["unknown option 'colour'", "options: all_pass"]),
    ({'all_pass = "throw_in"': 'all_pass = "maybe"'}, [],
     ["value maybe is not allowed", "allowed: throw_in, ramsch"]),
    ({'"random"]': '"oracle"]'}, [], ["unknown policy 'oracle'", "policies: random, heuristic"]),
    ({'name = "tiny"': 'name = tiny'}, [], ["malformed TOML", "line 1"]),
    ({"deals = 700": "deals = 0"}, [], ["deals must be a positive integer, got 0"]),
    ({"shard_size = 250": "shard_size = -1"}, [], ["shard_size must be a positive integer"]),
    ({"deals = 700\n": ""}, [], ["missing key deals"]),
    ({"seed = 11": "seed = 11\nthreads = 4"}, [], ["unknown key 'threads'"]),
    ({'name = "ramsch"': 'name = "base"'}, [], ["variant 'base'"]),
    ({}, ["--deals", "0"], ["argument --deals: must be a positive integer, got '0'"]),
    ({}, ["--deals", "many"], ["argument --deals: must be a positive integer"]),
    ({}, ["--jobs", "-2"], ["argument --jobs: must be a positive integer, got '-2'"]),
    ({}, ["--colour"], ["unrecognized arguments: --colour"]),
    ({}, ["--deal", "5"], ["unrecognized arguments: --deal 5"]),  # no abbreviation of --deals
    ({"deals = 700": "deal = 700"}, [], ["unknown key 'deal'", "; did you mean 'deals'?"]),
    ({'all_pass = "throw_in"': 'all_pas = "throw_in"'}, [],
     ["unknown option 'all_pas'", "; did you mean 'all_pass'?"]),
    ({'{ all_pass = "ramsch" }': '{ all_pass = "ramch" }'}, [],
     ["variant 'ramsch'", "value ramch is not allowed", "; did you mean 'ramsch'?"]),
    # the [report] table that 'stichsim report' reads is checked before anything is played
    ({REPORT: REPORT + '[report]\nmeasure = "start_edg"\n'}, [],
     ["[report] unknown measure 'start_edg'", "; did you mean 'start_edge'?"]),
    ({REPORT: REPORT + '[report]\nquestions = ["ramsh"]\n'}, [],
     ["[report] question 'ramsh' not available for skat", "; did you mean 'ramsch'?"]),
    ({REPORT: REPORT + "[report]\nrung_deal = 10\n"}, [],
     ["[report]: unknown key 'rung_deal'", "; did you mean 'rung_deals'?"]),
    ({REPORT: REPORT + '[report]\nrung_deals = "few"\n'}, [],
     ["[report]: rung_deals must be a whole number of deals"]),
    ({REPORT: REPORT + '[report]\nquestions = "tie"\n'}, [],
     ["[report]: questions must be a non-empty list of names"]),
]


@pytest.mark.parametrize(("replace", "extra", "fragments"), BAD_RUNS)
def test_run_bad_input(capsys, experiment_file, tmp_path, replace, extra, fragments) -> None:
    config = experiment_file(replace=replace)
    out = tmp_path / "res"
    status, _, err = run(capsys, "run", config, "--out", out, *extra)
    assert_one_line_error(status, err, *fragments)
    assert not out.exists()


@pytest.mark.parametrize(("argv", "fragments"), [
    (["rules", "skatt"], ["unknown game 'skatt'", "; did you mean 'skat'?"]),
    (["rules", "poker"], ["unknown game 'poker' (games: skat, skat_en_deux, doko_duell, doko_skat)"]),
    (["trace", "skat", "--deals", "1", "--seed", "1", "--rule", "all_pas=ramsch", "--out", "t.jsonl"],
     ["unknown option 'all_pas' for game skat", "; did you mean 'all_pass'?"]),
    (["trace", "skat", "--deals", "1", "--seed", "1", "--rule", "all_pass=Ramch", "--out", "t.jsonl"],
     ["option all_pass: value Ramch is not allowed", "; did you mean 'ramsch'?"]),
    (["play", "doko_sakt"], ["unknown game 'doko_sakt'", "; did you mean 'doko_skat'?"]),
])
def test_a_misspelled_name_is_one_line_with_the_closest_name(capsys, tmp_path, monkeypatch,
                                                             argv, fragments) -> None:
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, *argv)
    assert_one_line_error(status, err, *fragments)
    if "poker" in argv:  # nothing is close: no guess
        assert "did you mean" not in err
    assert not list(tmp_path.iterdir())


def test_a_misspelled_variant_is_named(capsys, experiment_file, tmp_path) -> None:
    status, _, err = run(capsys, "trace", "--config", experiment_file(), "--variant", "ramsh",
                         "--out", tmp_path / "t.jsonl")
    assert_one_line_error(status, err, "no variant 'ramsh' (variants: base, ramsch); did you mean 'ramsch'?")


@pytest.mark.parametrize(("argv", "refused"), [
    (["run", "exp.toml", "--deal", "5"], "--deal 5"),
    (["report", "exp.toml", "--deal", "5"], "--deal 5"),
    (["trace", "skat", "--deal", "1", "--seed", "1", "--out", "t.jsonl"], "--deal 1"),
    (["trace", "skat", "--deals", "1", "--see", "1", "--out", "t.jsonl"], "--see 1"),
    (["play", "skat", "--numb", "1"], "--numb 1"),
    (["arena", "skat", "--policies", "random,heuristic", "--deal", "5"], "--deal 5"),
    (["bench", "skat", "--memor", "1000"], "--memor 1000"),
    (["solve", "t.jsonl", "--tri", "2"], "--tri 2"),
    (["serve", "--por", "8001"], "--por 8001"),
])
def test_an_abbreviated_option_is_refused(capsys, tmp_path, monkeypatch, argv, refused) -> None:
    """No parser takes a prefix for an option: ``--deal`` is not ``--deals`` (``play`` has both)."""
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, *argv)
    assert_one_line_error(status, err, f"unrecognized arguments: {refused}")
    assert not list(tmp_path.iterdir())


def test_run_missing_config(capsys, tmp_path) -> None:
    status, _, err = run(capsys, "run", tmp_path / "nope.toml")
    assert_one_line_error(status, err, "nope.toml: no such experiment file")


def test_usage_errors_are_one_line(capsys) -> None:
    for argv in ([], ["play-poker"], ["rules"], ["rules", "poker"], ["replay"]):
        status, _, err = run(capsys, *argv)
        assert_one_line_error(status, err)


def test_real_process_exit_status_and_one_line(experiment_file, tmp_path) -> None:
    script = Path(sys.executable).parent / "stichsim"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "sim.cli"]
    config = experiment_file(replace={'"random"]': '"oracle"]'})
    done = subprocess.run([*command, "run", str(config), "--out", str(tmp_path / "res")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("stichsim: error: ") and "unknown policy 'oracle'" in done.stderr
    assert done.stdout == "" and not (tmp_path / "res").exists()


# --- trace and replay ---------------------------------------------------------------------

@pytest.fixture
def fake_trace(monkeypatch):
    """Record what ``write_trace`` is called with instead of tracing."""
    import sim.trace

    calls = []

    def write_trace(game, seed, first, deals, rules, policies, out):
        calls.append(dict(game=game.name, seed=seed, first=first, deals=deals, rules=rules,
                          policies=list(policies)))
        Path(out).write_text("{}\n" * deals)
        return deals

    monkeypatch.setattr(sim.trace, "write_trace", write_trace)
    return calls


def test_trace_arguments(capsys, fake_trace, experiment_file, tmp_path) -> None:
    out = tmp_path / "t.jsonl"
    assert run(capsys, "trace", "skat", "--deals", "4", "--seed", "9", "--policy", "random",
               "--rule", "lost_factor=1", "--out", out)[0] == 0
    assert fake_trace[-1] == dict(game="skat", seed=9, first=0, deals=4,
                                  rules=SKAT.rules({"lost_factor": 1}), policies=["random"] * 3)
    assert run(capsys, "trace", "skat", "--deals", "2", "--seed", "1", "--first", "100",
               "--policies", "random,heuristic,random", "--out", out)[0] == 0
    assert fake_trace[-1]["policies"] == ["random", "heuristic", "random"]
    assert fake_trace[-1]["first"] == 100 and fake_trace[-1]["rules"] == SKAT.rules()
    config = experiment_file()
    assert run(capsys, "trace", "--config", config, "--variant", "ramsch", "--out", out)[0] == 0
    assert fake_trace[-1] == dict(game="skat", seed=11, first=0, deals=700,
                                  rules=SKAT.rules({"all_pass": "ramsch"}),
                                  policies=["heuristic", "heuristic", "random"])
    assert run(capsys, "trace", "--config", config, "--deals", "3", "--out", out)[0] == 0
    assert fake_trace[-1]["deals"] == 3 and fake_trace[-1]["rules"] == SKAT.rules()
    assert files(tmp_path) == ["exp.toml", "t.jsonl"] and len(out.read_text().splitlines()) == 3


BAD_TRACES = [
    (["poker", "--deals", "2", "--seed", "1"], ["unknown game 'poker'"]),
    (["skat", "--deals", "2", "--seed", "1", "--rule", "colour=red"], ["unknown option 'colour'"]),
    (["skat", "--deals", "2", "--seed", "1", "--rule", "lost_factor=7"], ["allowed: 2, 1"]),
    (["skat", "--deals", "2", "--seed", "1", "--rule", "lost_factor"], ["expected KEY=VALUE"]),
    (["skat", "--deals", "2", "--seed", "1", "--policy", "oracle"], ["unknown policy 'oracle'"]),
    (["skat", "--deals", "2", "--seed", "1", "--policies", "random,random"], ["3 seats but 2"]),
    (["skat", "--deals", "0", "--seed", "1"], ["--deals: must be a positive integer"]),
    (["skat", "--deals", "2", "--seed", "-1"], ["--seed: must be an integer from 0"]),
    (["skat", "--seed", "1"], ["missing --deals"]),
    (["skat", "--deals", "2", "--seed", "1", "--variant", "x"], ["--variant needs --config"]),
    (["doko_skat", "--deals", "2", "--seed", "1", "--rule", "bridge_order=french"],
     ["option bridge_order: value french is not allowed (allowed: natural, skat)"]),
    (["doko_skat", "--deals", "2", "--seed", "1", "--rule", "all_pass=ramsch"],
     ["unknown option 'all_pass' for game doko_skat (options: bridge_order, team_cards"]),
    (["--deals", "2"], ["give a GAME"]),
    (["--config", "CONFIG", "--seed", "3"], ["--seed cannot be used with --config"]),
    (["--config", "CONFIG", "--variant", "nope"], ["no variant 'nope' (variants: base, ramsch)"]),
]


@pytest.mark.parametrize(("argv", "fragments"), BAD_TRACES)
def test_trace_bad_input(capsys, fake_trace, experiment_file, tmp_path, argv, fragments) -> None:
    config = experiment_file()
    argv = [str(config) if a == "CONFIG" else a for a in argv]
    status, _, err = run(capsys, "trace", *argv, "--out", tmp_path / "t.jsonl")
    assert_one_line_error(status, err, *fragments)
    assert files(tmp_path) == ["exp.toml"] and not fake_trace


def test_trace_failure_leaves_nothing(capsys, monkeypatch, tmp_path) -> None:
    import sim.trace

    def half(game, seed, first, deals, rules, policies, out):
        Path(out).write_text('{"game": "skat"}\n')
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(sim.trace, "write_trace", half)
    status, _, err = run(capsys, "trace", "skat", "--deals", "5", "--seed", "1",
                         "--out", tmp_path / "t.jsonl")
    assert_one_line_error(status, err, "No space left on device")
    assert files(tmp_path) == []


def test_trace_then_replay(capsys, experiment_file, tmp_path) -> None:
    out = tmp_path / "deals.jsonl"
    status, _, _ = run(capsys, "trace", "--config", experiment_file(), "--variant", "ramsch",
                       "--deals", "6", "--out", out)
    assert status == 0 and len(out.read_text().splitlines()) == 6
    assert files(tmp_path) == ["deals.jsonl", "exp.toml"]
    status, text, _ = run(capsys, "replay", out)
    assert status == 0 and text.strip().splitlines()[-1] == "6 deals replayed, 0 differ"

    lines = out.read_text().splitlines()
    changed = json.loads(lines[2])
    changed["result"]["scores"] = [s + 1 for s in changed["result"]["scores"]]
    lines[2] = json.dumps(changed)
    out.write_text("\n".join(lines) + "\n")
    status, text, _ = run(capsys, "replay", out)
    assert status == 1 and text.strip().splitlines()[-1] == "6 deals replayed, 1 differ"


@pytest.mark.parametrize(("line", "fragment"), [
    ("{not json", "not valid JSON"),
    ('{"game": "poker", "rules": {}, "policies": [], "seed": 1, "deal": 0, "dealer": 0, '
     '"cards": {}, "actions": [], "result": {}}', "poker"),
    ('{"game": "doko_skat", "rules": {"bridge_order": "natural", "team_cards": "first_round", '
     '"both_copies": "team_cards", "first_round_points": true, "spitzen": "copies", '
     '"tie_special_points": true, "zero_sum": false}, "policies": ["random", "random", "random"], '
     '"seed": 1, "deal": 0, "dealer": 0, "cards": {"skat": []}, "actions": [], "result": {}}',
     "cards: missing field(s) stock, turned_up, first_round_hands"),
])
def test_replay_bad_lines(capsys, tmp_path, line, fragment) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(line + "\n")
    status, _, err = run(capsys, "replay", path)
    assert_one_line_error(status, err, str(path), "line 1", fragment)


def test_replay_missing_file(capsys, tmp_path) -> None:
    status, _, err = run(capsys, "replay", tmp_path / "nope.jsonl")
    assert_one_line_error(status, err, "nope.jsonl")


# --- bench ----------------------------------------------------------------------------------

@pytest.fixture
def fake_bench(monkeypatch):
    calls = []
    module = types.ModuleType("sim.bench")

    def run_bench(games, deals, jobs, as_json, policies):
        calls.append((games, deals, jobs, as_json))
        return 0

    module.run_bench = run_bench
    module.POLICIES = ("random", "heuristic")
    monkeypatch.setitem(sys.modules, "sim.bench", module)
    import sim

    monkeypatch.setattr(sim, "bench", module, raising=False)
    return calls


def test_bench_arguments(capsys, fake_bench) -> None:
    assert run(capsys, "bench", "skat", "--deals", "1000", "--jobs", "2", "--json")[0] == 0
    assert fake_bench[-1] == (["skat"], 1000, 2, True)
    assert run(capsys, "bench", "--all", "--jobs", "1")[0] == 0
    assert fake_bench[-1][0] == list(GAMES) and fake_bench[-1][1:] == (None, 1, False)


@pytest.mark.parametrize(("argv", "fragment"), [
    (["poker"], "unknown game 'poker'"),
    (["skat", "--deals", "0"], "--deals: must be a positive integer"),
    (["skat", "--jobs", "0"], "--jobs: must be a positive integer"),
    (["skat", "--all"], "not both"),
])
def test_bench_bad_input(capsys, fake_bench, argv, fragment) -> None:
    status, _, err = run(capsys, "bench", *argv)
    assert_one_line_error(status, err, fragment)
    assert not fake_bench

"""``stichsim report``: runs what an experiment lacks, writes the report; bad input is one
line with exit status 2 and nothing written; the ``[report]`` table of an experiment."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.cli import main
from sim.errors import ConfigError
from sim.runner import Experiment

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = sorted((ROOT / "experiments").glob("*.toml"))
QUESTION_EXPERIMENTS = [p for p in EXPERIMENTS
                        if not any(word in p.name for word in ("baseline", "tiny", "tune"))]

SMALL = """\
name = "small-tie"
game = "doko_duell"
deals = 1500
seed = 5
shard_size = 500
policies = ["heuristic", "random"]

[report]
questions = {questions}

[[variants]]
name = "last-trick"
rules = {{ tie_rule = "last_trick" }}
"""


def write(tmp_path: Path, questions: str = '["tie", "start_player"]', extra: str = "") -> Path:
    path = tmp_path / "exp.toml"
    path.write_text(SMALL.format(questions=questions) + extra)
    return path


def report(capsys, tmp_path: Path, config: Path, *more: str) -> tuple[int, str, str]:
    status = main(["report", str(config), "--results", str(tmp_path / "results"), "--jobs", "1",
                   "--no-progress", *more])
    out, err = capsys.readouterr()
    return status, out, err


def test_report_runs_what_is_missing_and_writes_the_report(capsys, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    status, stdout, err = report(capsys, tmp_path, write(tmp_path), "--out", str(out))
    assert status == 0, err
    assert (tmp_path / "results" / "small-tie" / "game=doko_duell" / "variant=last-trick").is_dir()
    html = (out / "index.html").read_text()
    assert "data:image/png;base64," in html and "http://" not in html and "https://" not in html
    assert (out / "summary.md").read_text().strip()
    assert str(out / "index.html") in stdout
    # the results are there now: a second report plays nothing and gives the same summary
    before = (out / "summary.md").read_text()
    assert report(capsys, tmp_path, write(tmp_path), "--out", str(out))[0] == 0
    assert (out / "summary.md").read_text() == before


def test_a_quick_look_lives_beside_the_full_run(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    status, stdout, err = report(capsys, tmp_path, write(tmp_path, '["tie"]'), "--deals", "600")
    assert status == 0, err
    assert (tmp_path / "results" / "small-tie-n600").is_dir()
    assert not (tmp_path / "results" / "small-tie").exists()
    assert (tmp_path / "reports" / "small-tie-n600" / "index.html").is_file()


def test_several_experiments_in_one_call_each_in_turn(capsys, tmp_path: Path, monkeypatch) -> None:
    """One process reports every file it is given, each as alone; a bad file among them is one
    line before anything plays, and ``--out`` names one folder only."""
    monkeypatch.chdir(tmp_path)
    first = write(tmp_path, '["tie"]')
    second = tmp_path / "second.toml"
    second.write_text(SMALL.format(questions='["start_player"]').replace("small-tie", "small-start"))

    def reports(*args: object) -> tuple[int, str, str]:
        status = main(["report", *map(str, args), "--jobs", "1", "--no-progress"])
        out, err = capsys.readouterr()
        return status, out, err

    status, stdout, err = reports(first, second, "--deals", 500)
    assert status == 0, err
    for name in ("small-tie-n500", "small-start-n500"):
        assert (tmp_path / "reports" / name / "index.html").is_file() and name in stdout
    bad = tmp_path / "bad.toml"
    bad.write_text(SMALL.format(questions='["ramsch"]').replace("small-tie", "small-bad"))
    status, _, err = reports(second, bad, "--deals", 400)
    assert status == 2 and err.count("\n") == 1 and "'ramsch' not available" in err, err
    assert not (tmp_path / "results" / "small-start-n400").exists()
    status, _, err = reports(first, second, "--out", tmp_path / "one")
    assert status == 2 and "--out names one report folder" in err and not (tmp_path / "one").exists()


@pytest.mark.parametrize("questions, extra, fragments", [
    ('["tie", "ramsch"]', "", ["'ramsch' not available for doko_duell", "questions: "]),
    ('["tie"]', "", None),
    ('["sweep"]', "", None),
    ('"tie"', "", ["questions must be a non-empty list"]),
    ('[]', "", ["questions must be a non-empty list"]),
])
def test_bad_report_tables(capsys, tmp_path: Path, questions: str, extra: str,
                           fragments: list[str] | None) -> None:
    config = write(tmp_path, questions, extra)
    if fragments is None:  # a good table: checked by the other tests, here only that it loads
        assert Experiment.load(config).report["questions"]
        return
    status, _, err = report(capsys, tmp_path, config, "--out", str(tmp_path / "rep"))
    assert status == 2 and err.count("\n") == 1 and err.startswith("stichsim: error: "), err
    assert all(f in err for f in fragments), err
    assert not (tmp_path / "results").exists() and not (tmp_path / "rep").exists()


def test_unknown_measure_and_unknown_keys(capsys, tmp_path: Path) -> None:
    config = tmp_path / "exp.toml"
    config.write_text(SMALL.format(questions='["sweep"]').replace(
        'questions = ["sweep"]', 'questions = ["sweep"]\nmeasure = "luck"'))
    status, _, err = report(capsys, tmp_path, config)
    assert status == 2 and "unknown measure 'luck'" in err and "start_edge" in err
    config.write_text(SMALL.format(questions='["sweep"]').replace(
        'questions = ["sweep"]', 'questions = ["sweep"]\ncolour = "red"'))
    with pytest.raises(ConfigError, match="unknown key 'colour'"):
        Experiment.load(config)
    assert not (tmp_path / "results").exists()


def test_the_report_table_is_not_part_of_the_config_hash(tmp_path: Path) -> None:
    a = Experiment.load(write(tmp_path, '["tie"]'))
    b = Experiment.load(write(tmp_path, '["tie", "sweep", "start_player"]'))
    assert a.config_hash() == b.config_hash() and a.report != b.report


def test_a_missing_experiment_file_is_one_line(capsys, tmp_path: Path) -> None:
    status, _, err = report(capsys, tmp_path, tmp_path / "nope.toml")
    assert status == 2 and "no such experiment file" in err


@pytest.mark.parametrize("path", QUESTION_EXPERIMENTS, ids=lambda p: p.stem)
def test_every_question_experiment_loads_and_asks_what_its_game_has(path: Path) -> None:
    from analysis.report import applicable
    from sim.runner import shard_columns

    exp = Experiment.load(path)
    assert exp.report.get("questions"), f"{path.name}: no [report] questions"
    columns = shard_columns(exp.game_obj) + list(exp.quality.columns if exp.quality else ())
    assert set(exp.report["questions"]) <= set(applicable(columns, asked=True))

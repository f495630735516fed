"""The rule tuner (``stichsim tune``): what it races, that its measures are the reports'
measures on the same deals, that it is identical whatever the workers or the backend and
resumes without replaying, and that a bad ``[tune]`` table is one line and nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis import balance, load
from sim import cluster
from sim.cli import main
from sim.runner import Experiment, run_experiment
from sim.tune import RACE, load_tune, run_tune

TUNE = """\
name = "tune-test"
game = "doko_duell"
deals = 6000
seed = 11
shard_size = 2000
policies = ["heuristic", "heuristic"]
[tune]
options = ["equal_cards", "tie_rule"]
measure = "start_edge"
delta = 0.05
first_round = 2000
"""
"""3 ways to play (equal_cards) x 6 tie rules, re-scored: 18 candidates in 3 play groups."""


def write(tmp_path: Path, text: str = TUNE, name: str = "tune.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def raced(tmp_path_factory) -> tuple[Path, dict]:
    """The test tune raced once on 2 workers: its results folder and outcome."""
    folder = tmp_path_factory.mktemp("tune")
    tune = load_tune(write(folder))
    root, out = run_tune(tune, folder / "results", jobs=2, progress=False)
    return root, out


def test_candidates_are_every_combination_grouped_by_how_they_play(tmp_path) -> None:
    tune = load_tune(write(tmp_path))
    assert len(tune.candidates) == 18
    assert [len(g) for g in tune.groups] == [6, 6, 6]
    assert {c["equal_cards"] for c in tune.candidates} == {"first_wins", "second_wins", "second_heart_ten"}
    assert tune.rounds() == [2000, 4000, 6000]
    # every other option keeps the experiment's rules
    assert all(c["b_marker_supply"] == "12" for c in tune.candidates)


def test_the_outcome_has_every_candidate_and_the_best_group(raced) -> None:
    _, out = raced
    assert len(out["candidates"]) == 18
    for c in out["candidates"]:
        assert set(c["rules"]) == {"equal_cards", "tie_rule"}
        assert c["lo"] <= c["value"] <= c["hi"]
        assert c["deals"] in (2000, 4000, 6000)
        played = out["rounds"][(c["eliminated_round"] or len(out["rounds"])) - 1]["deals"]
        assert c["deals"] == played
    best = out["best"]
    assert best and all(out["candidates"][i]["eliminated_round"] is None for i in best)
    distance = [abs(out["candidates"][i]["value"]) for i in best]
    assert distance == sorted(distance)
    # deals played: each play group as far as its longest-racing candidate
    assert out["deals_spent"] == sum(max(out["candidates"][i]["deals"] for i in range(g, g + 6))
                                     for g in (0, 6, 12))


def test_a_candidates_measure_is_the_sweeps_on_the_same_deals(raced, tmp_path) -> None:
    """The tune's re-scored candidates against ``stichsim run`` variants of the same rules on
    the same deals: the same start edge to the last digit."""
    _, out = raced
    n = out["rounds"][0]["deals"]
    first = out["rounds"][0]
    exp = Experiment.from_dict({
        "name": "same", "game": "doko_duell", "deals": n, "seed": 11, "shard_size": 2000,
        "policies": ["heuristic", "heuristic"], "rules": {"equal_cards": "second_wins"},
        "variants": [{"name": "starter-wins", "rules": {"tie_rule": "starter_wins"}}]})
    root = run_experiment(exp, tmp_path, jobs=1, progress=False)
    table = balance.sweep(load.scan(root), load.read_outcome(root))
    for variant, tie_rule in (("base", "draw"), ("starter-wins", "starter_wins")):
        index = next(i for i, c in enumerate(out["candidates"])
                     if c["rules"] == {"equal_cards": "second_wins", "tie_rule": tie_rule})
        at = first["entered"].index(index)
        expected = table.filter(pl.col("variant") == variant)["value"][0]
        assert first["values"]["start_edge"][at][0] == pytest.approx(expected, abs=1e-12)


def test_the_same_outcome_on_one_worker_and_after_a_resume(raced, tmp_path) -> None:
    root, out = raced
    tune = load_tune(write(tmp_path))
    _, again = run_tune(tune, tmp_path / "results", jobs=1, progress=False)
    assert json.dumps(again) == json.dumps(out)
    # a killed race: the last round's files gone; the rest is kept, not replayed
    race = tmp_path / "results" / "tune-test" / RACE
    files = sorted(race.rglob("*.parquet"))
    last = [p for p in files if p.name == "shard=00002.parquet"]
    for p in last:
        p.unlink()
    kept = {p: p.stat().st_mtime_ns for p in files if p not in last}
    _, resumed = run_tune(tune, tmp_path / "results", jobs=2, progress=False)
    assert json.dumps(resumed) == json.dumps(out)
    assert {p: p.stat().st_mtime_ns for p in kept} == kept


def test_cli_json_and_report(capsys, tmp_path, raced) -> None:
    _, out = raced
    config = write(tmp_path)
    status = main(["tune", str(config), "--results", str(tmp_path / "r"), "--out", str(tmp_path / "rep"),
                   "--json", "--no-progress", "--jobs", "2"])
    printed = capsys.readouterr().out
    assert status == 0
    assert json.loads(printed) == json.loads(json.dumps(out))
    assert json.loads((tmp_path / "rep" / "tune.json").read_text()) == json.loads(printed)
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "Every candidate" in page and "data:image/png;base64," in page
    assert (tmp_path / "rep" / "race_0.png").stat().st_size > 1000


def test_a_dask_cluster_gives_the_identical_outcome(raced, tmp_path) -> None:
    distributed = pytest.importorskip("distributed")
    _, out = raced
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address="127.0.0.1:0",
                                  scheduler_kwargs={"dashboard": False}) as local_cluster, \
            cluster.joblib_backend("dask", local_cluster.scheduler_address) as backend:
        _, found = run_tune(load_tune(write(tmp_path)), tmp_path / "results", jobs=2, progress=False,
                            backend=backend)
    assert json.dumps(found) == json.dumps(out)


def test_a_constraint_sends_away_the_candidates_that_surely_break_it(tmp_path) -> None:
    """Every duel hands out well over one B marker a deal, whatever its tie rule or equal
    cards: a bound of 0.5 breaks every candidate in the first round, and the race ends."""
    text = TUNE.replace('delta = 0.05', 'delta = 0.05\nconstraints = ["b_markers_per_deal <= 0.5"]')
    tune = load_tune(write(tmp_path, text))
    _, out = run_tune(tune, tmp_path / "results", jobs=2, progress=False)
    assert all(c["reason"] == "constraint" and c["eliminated_round"] == 1 for c in out["candidates"])
    assert out["best"] == [] and len(out["rounds"]) == 1


BAD = [
    ('options = ["equal_cards", "tie_rule"]', 'options = ["nope"]', "unknown option 'nope'"),
    ('options = ["equal_cards", "tie_rule"]', 'options = {tie_rule = ["draw", "sometimes"]}',
     "value sometimes is not allowed"),
    ('options = ["equal_cards", "tie_rule"]', 'options = {compensation = "all"}', "searched over a range"),
    ('options = ["equal_cards", "tie_rule"]', 'options = {compensation = {low = 0, high = 99}}',
     "value 31 is not allowed"),
    ('measure = "start_edge"', 'measure = "fun"', "unknown measure 'fun'"),
    ('measure = "start_edge"', 'measure = "ramsch_rate"', "not available for doko_duell"),
    ('measure = "start_edge"', 'measure = "b_markers_per_deal"', "has no fair value"),
    ('delta = 0.05', 'delta = 0.05\nconstraints = ["tie_rate =< 0.01"]', "expected 'measure <= number'"),
    ('delta = 0.05', 'delta = 0.05\nconstraints = ["ties <= 0.01"]', "unknown measure 'ties'"),
    ('delta = 0.05', '', "missing delta"),
    ('delta = 0.05', 'delta = 0.05\ncolour = "red"', "unknown key 'colour'"),
    ('delta = 0.05', 'delta = 0.05\npolicies = ["perfect"]', "policies:"),
    ('first_round = 2000', 'first_round = 0', "first_round must be a positive"),
    ('[tune]\n', '[tune]\ntargets = {tie_rate = 0.0}\n', "'tie_rate' is not a raced measure"),
    ('[tune]\n', '[[variants]]\nname = "v"\n[tune]\n', "remove the [[variants]]"),
    (TUNE[TUNE.index("[tune]"):], "", "no [tune] table"),
]


@pytest.mark.parametrize(("old", "new", "fragment"), BAD)
def test_a_bad_tune_table_is_one_line_and_nothing_written(capsys, tmp_path, old, new, fragment) -> None:
    assert old in TUNE
    config = write(tmp_path, TUNE.replace(old, new))
    status = main(["tune", str(config), "--results", str(tmp_path / "r"), "--out", str(tmp_path / "rep"),
                   "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and err.startswith("stichsim: error: "), err
    assert fragment in err, err
    assert not (tmp_path / "r").exists() and not (tmp_path / "rep").exists()


def test_every_measure_a_tune_races_reads_the_columns_it_names() -> None:
    """Each measure's ``needs`` are exactly the columns beyond the outcome it reads: a frame
    with those columns (and the outcome's) gives a value per deal."""
    outcome = load.Outcome(2, ("vp_0", "vp_1"), "VP", "start_seat", ("won_0", "won_1"))
    for name, m in balance.MEASURES.items():
        columns = {c: [1, 0] for c in (*outcome.columns, *m.needs)}
        frame = pl.LazyFrame({"variant": ["a", "a"], "deal": [0, 1], **columns})
        values = m.per_deal(frame, outcome).collect()["value"].to_numpy()
        assert values.shape == (2,), name
        assert not np.isnan(values[0]), name


def test_an_integer_option_is_searched_over_its_range(tmp_path) -> None:
    """The duel's compensation (VP to the player who does not start, every deal) over 0..2:
    one play re-scored three ways, each VP of compensation one VP off the starter's edge."""
    text = TUNE.replace('options = ["equal_cards", "tie_rule"]',
                        'options = {compensation = {low = 0, high = 2}}')
    tune = load_tune(write(tmp_path, text))
    assert [c["compensation"] for c in tune.candidates] == [0, 1, 2] and len(tune.groups) == 1
    _, out = run_tune(tune, tmp_path / "results", jobs=1, progress=False)
    first = out["rounds"][0]["values"]["start_edge"]
    assert first[1][0] == pytest.approx(first[0][0] - 1) and first[2][0] == pytest.approx(first[0][0] - 2)
    assert out["deals_spent"] == out["rounds"][-1]["deals"]  # one play for all three


def test_several_objectives_and_rungs_give_a_pareto_front(tmp_path) -> None:
    """Two measures on two rungs of players (the heuristic and the learned player): four
    objectives, each candidate measured on each; the front is the best group's candidates no
    other beats on every objective, and the report draws it."""
    text = (TUNE.replace('options = ["equal_cards", "tie_rule"]', 'options = ["tie_rule", "b_one_per_trick"]')
            .replace('measure = "start_edge"', 'measure = ["start_edge", "b_markers_per_deal"]\n'
                     'targets = {b_markers_per_deal = 1.0}\npolicies = ["heuristic", "net"]')
            .replace("deals = 6000", "deals = 2000"))
    tune = load_tune(write(tmp_path, text))
    assert [name for name, _, _ in tune.objectives()] == ["start_edge", "b_markers_per_deal"] * 2
    _, out = run_tune(tune, tmp_path / "results", jobs=2, progress=False)
    names = [o["name"] for o in out["objectives"]]
    assert names == ["start_edge (heuristic, heuristic)", "b_markers_per_deal (heuristic, heuristic)",
                     "start_edge (net, net)", "b_markers_per_deal (net, net)"]
    assert all(set(c["measures"]) == set(names) for c in out["candidates"])
    assert out["front"] and set(out["front"]) <= set(out["best"])
    targets = [o["target"] for o in out["objectives"]]

    def distances(i: int) -> list[float]:
        m = out["candidates"][i]["measures"]
        return [abs(m[n]["value"] - t) for n, t in zip(names, targets, strict=True)]

    for i in out["front"]:
        assert not any(all(a <= b for a, b in zip(distances(j), distances(i), strict=True))
                       and distances(j) != distances(i) for j in out["best"])
    # two rungs play every group's deals twice
    assert out["deals_spent"] == 2 * sum(max(out["candidates"][i]["deals"] for i in g) for g in tune.groups)
    from analysis import tune_report

    tune_report.build(out, tmp_path / "rep")
    assert (tmp_path / "rep" / "front.png").exists() and (tmp_path / "rep" / "race_3.png").exists()


ROOT = Path(__file__).resolve().parents[1]
READY = sorted((ROOT / "experiments").glob("tune-*.toml"))


@pytest.mark.parametrize("path", READY, ids=lambda p: p.stem)
def test_every_ready_tune_loads(path: Path) -> None:
    tune = load_tune(path)
    assert len(tune.candidates) >= 2 and tune.rounds()[-1] == tune.experiment.deals


def test_make_run_races_one_tune_per_game() -> None:
    """``make run`` writes the report of every ready tune but the full duel race, one per game."""
    makefile = (ROOT / "Makefile").read_text()
    listed = next(line for line in makefile.splitlines() if line.startswith("TUNES :=")).split()[2:]
    assert sorted(listed) == sorted(p.stem for p in READY if not p.stem.endswith("-full"))
    assert sorted(load_tune(ROOT / "experiments" / f"{t}.toml").experiment.game for t in listed) == \
        sorted(["skat", "skat_en_deux", "doko_duell", "doko_skat"])


@pytest.mark.parametrize(("all_pass", "alike"), [("throw_in", True), ("ramsch", False)])
def test_rule_sets_that_change_nothing_are_named_twins(tmp_path, all_pass, alike) -> None:
    """Where all pass and the deal is thrown in, no ramsch is played and who gets its skat
    (``ramsch_skat``) changes nothing: the two rule sets are twins. With ramsch they are not."""
    text = f"""\
name = "twins"
game = "skat"
deals = 2000
seed = 3
shard_size = 1000
policies = ["heuristic", "heuristic", "heuristic"]
[rules]
all_pass = "{all_pass}"
[tune]
options = ["ramsch_skat"]
delta = 100.0
"""
    _, out = run_tune(load_tune(write(tmp_path, text)), tmp_path / "results", jobs=1, progress=False)
    assert out["best"] == [0, 1]  # nobody is 100 points per deal from the other
    assert out["twins"] == ([[0, 1]] if alike else [])


def test_another_tune_in_the_same_folder_is_refused_naming_the_right_options(capsys, tmp_path) -> None:
    """A results folder holding another tune's race is kept: one line that names --force and
    --results (tune's --out is the report folder), exit 2, the report folder not written."""
    text = TUNE.replace("deals = 6000", "deals = 2000").replace("first_round = 2000", "")
    argv = ["tune", "--results", str(tmp_path / "r"), "--out", str(tmp_path / "rep"), "--no-progress",
            "--jobs", "1"]
    assert main([*argv[:1], str(write(tmp_path, text)), *argv[1:]]) == 0
    capsys.readouterr()
    other = write(tmp_path, text.replace("delta = 0.05", "delta = 0.1"), "other.toml")
    status = main([*argv[:1], str(other), *argv[1:3], "--out", str(tmp_path / "rep2"), *argv[5:]])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "use --force to replace it or --results" in err, err
    assert not (tmp_path / "rep2").exists()


QUALITY_TUNE = """\
name = "tune-quality"
game = "doko_duell"
deals = 2000
seed = 5
shard_size = 1000
policies = ["heuristic", "heuristic"]
[quality]
skill = [["heuristic", "random"]]
skill_deals = 2000
[tune]
options = ["tie_rule", "b_one_per_trick"]
measure = "start_edge"
delta = 0.05
constraints = ["skill_share >= {bound}"]
"""


def test_a_quality_constraint_is_raced_on_the_skill_columns_and_its_tradeoff_reported(tmp_path) -> None:
    """``skill_share`` of every candidate is the share of deals the heuristic does better than
    random on the same cards, from the candidate's own re-scored plays; a bound none keeps
    leaves every candidate out, and the report says what the constraint costs."""
    from analysis import tune_report
    from sim.arena import duplicate
    from sim.registry import find_game

    tune = load_tune(write(tmp_path, QUALITY_TUNE.format(bound=0.6)))
    _, out = run_tune(tune, tmp_path / "results", jobs=1, progress=False)
    game = find_game("doko_duell")
    for c in out["candidates"][:3]:
        rules = game.rules(c["rules"])
        (diff, *_), = duplicate(game, 5, 0, c["deals"], rules, "heuristic", "random")
        ahead = np.where(diff > 0, 1.0, np.where(diff == 0, 0.5, 0.0))
        assert c["measures"]["skill_share (constraint)"]["value"] == pytest.approx(ahead.mean())
    assert any("cost nothing here" in line for line in tune_report.tradeoffs(out))
    header, rows = tune_report.by_setting(out)
    assert header[-1] == "skill_share (constraint): mean" and len(rows) == 1 + 6 + 2
    # a bound no rule set keeps: every one leaves, and the report says so
    text = QUALITY_TUNE.format(bound=0.999).replace("tune-quality", "tq2")
    tune = load_tune(write(tmp_path, text, "b.toml"))
    _, out = run_tune(tune, tmp_path / "results", jobs=1, progress=False)
    assert not out["best"] and all(c["reason"] == "constraint" for c in out["candidates"])
    lines = tune_report.tradeoffs(out)
    assert lines[0].startswith("Without `skill_share >= 0.999` the closest to the target would be candidate")


def test_a_quality_measure_without_its_quality_table_is_one_line(tmp_path, capsys) -> None:
    text = QUALITY_TUNE.format(bound=0.6).replace('[quality]\nskill = [["heuristic", "random"]]\n'
                                                  'skill_deals = 2000\n', "")
    status = main(["tune", str(write(tmp_path, text)), "--results", str(tmp_path / "r"), "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "[quality] table" in err, err


def test_the_standard_deviation_of_a_seat_s_score_is_a_tune_measure(tmp_path) -> None:
    """``score_sd``: each candidate's value is the standard deviation of a seat's score over
    its own deals and seats (the Seeger-Fabian list's 50 points a game widen it)."""
    from sim.engine.play import play
    from sim.registry import find_game

    text = """\
name = "tune-sd"
game = "skat"
deals = 2000
seed = 7
shard_size = 1000
policies = ["heuristic", "heuristic", "heuristic"]
[tune]
options = ["scoring"]
measure = "score_sd"
targets = { score_sd = 30.0 }
delta = 1.0
"""
    _, out = run_tune(load_tune(write(tmp_path, text)), tmp_path / "results", jobs=1, progress=False)
    game = find_game("skat")
    values = {}
    for c in out["candidates"]:
        columns = play(game, 7, 0, c["deals"], game.rules(c["rules"]), ["heuristic"] * 3).columns
        scores = np.column_stack([columns[f"score_{s}"] for s in range(3)]).astype(float)
        values[c["rules"]["scoring"]] = c["measures"]["score_sd"]["value"]
        assert values[c["rules"]["scoring"]] == pytest.approx(scores.std())
    assert values["seeger_fabian"] > values["seed"] + 10

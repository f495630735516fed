"""``stichsim arena``: duplicate seating, the paired differences, Bradley-Terry, the
sequential rule, reproducibility and bad input."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import sim.engine.seats
from sim.arena import (
    bradley_terry,
    format_report,
    interval,
    look_level,
    look_schedule,
    play_pair,
    roles,
    run_arena,
    sequential,
)
from sim.cli import main
from sim.engine.play import play
from sim.registry import GAMES


@pytest.mark.parametrize("n", [2, 3, 4])
def test_seatings_put_each_policy_alone_at_every_seat(n: int) -> None:
    seatings = roles(n)
    assert len(seatings) == len(set(seatings)) == (2 if n == 2 else 2 * n)
    for role in (0, 1):
        alone = [s.index(role) for s in seatings if s.count(role) == 1]
        assert sorted(alone) == list(range(n))  # alone once at every seat
        per_seat = [sum(s[seat] == role for s in seatings) for seat in range(n)]
        assert len(set(per_seat)) == 1  # every seat equally often
    # both policies hold the same number of seat-slots
    assert sum(s.count(0) for s in seatings) == sum(s.count(1) for s in seatings)


@pytest.mark.parametrize("name", ["doko_duell", "skat"])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_a_policy_against_itself_is_exactly_even(name: str, policy: str) -> None:
    report = run_arena(name, [policy, policy], deals=200, seed=3)
    (pair,) = report["pairs"]
    assert pair["diff"] == 0.0 and pair["lo"] == 0.0 and pair["hi"] == 0.0
    assert pair["even"] == 1.0 and pair["win_a"] == pair["win_b"] and not pair["decided"]


def _by_hand(name: str, seed: int, first: int, count: int, a: str, b: str) -> list[float]:
    """Every seating of the pair written out, played with ``Game.play``, averaged by hand."""
    game = GAMES[name]
    rules = game.rules()
    col = game.outcome.score
    if game.n_players == 2:
        seatings = [[a, b], [b, a]]
    else:
        seatings = [[a, b, b], [b, a, b], [b, b, a], [b, a, a], [a, b, a], [a, a, b]]
    scores = [play(game, seed, first, count, rules, s).columns for s in seatings]
    out = []
    for d in range(count):
        mine: list[float] = []
        theirs: list[float] = []
        for seating, cols in zip(seatings, scores):
            for seat, pol in enumerate(seating):
                (mine if pol == a else theirs).append(float(cols[f"{col}_{seat}"][d]))
        assert len(mine) == len(theirs) == (2 if game.n_players == 2 else 9)
        out.append(sum(mine) / len(mine) - sum(theirs) / len(theirs))
    return out


@pytest.mark.parametrize("name", ["doko_duell", "skat"])
def test_pair_difference_is_the_hand_computation(name: str) -> None:
    hand = _by_hand(name, 11, 5, 6, "random", "heuristic")
    data = play_pair(name, 11, 5, 6, GAMES[name].rules(), "random", "heuristic")
    assert data.diff.tolist() == pytest.approx(hand, abs=1e-12)
    report = run_arena(name, ["random", "heuristic"], deals=6, seed=11, chunk=4)
    full = _by_hand(name, 11, 0, 6, "random", "heuristic")
    pair = report["pairs"][0]
    mean = sum(full) / 6
    sd = math.sqrt(sum((x - mean) ** 2 for x in full) / 5)
    half = 2.570581835636314 * sd / math.sqrt(6)  # t(0.975, 5 df)
    assert pair["diff"] == pytest.approx(mean)
    assert (pair["lo"], pair["hi"]) == pytest.approx((mean - half, mean + half))
    assert pair["ahead_a"] == sum(x > 0 for x in full) / 6
    assert pair["deals"] == 6 and pair["plays"] == 6 * len(roles(GAMES[name].n_players))


@pytest.mark.parametrize("name", list(GAMES))
def test_heuristic_beats_random_in_every_game(name: str) -> None:
    report = run_arena(name, ["random", "heuristic"], deals=2000, seed=5)
    (pair,) = report["pairs"]
    assert pair["a"] == "random" and pair["b"] == "heuristic" and pair["deals"] == 2000
    assert pair["hi"] < 0 and pair["decided"]  # random's score minus heuristic's: below zero
    assert pair["ahead_b"] > pair["ahead_a"]


def test_output_is_the_same_whatever_the_workers_and_chunks() -> None:
    one = run_arena("doko_duell", ["random", "heuristic", "heuristic"], deals=300, seed=9, jobs=1)
    two = run_arena("doko_duell", ["random", "heuristic", "heuristic"], deals=300, seed=9, jobs=2,
                    backend="threading", chunk=37)
    assert json.dumps(one) == json.dumps(two)
    assert format_report(one) == format_report(two)


def test_cli_jobs_do_not_change_the_output(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "doko_duell", "--policies", "random,heuristic", "--deals", "400", "--seed", "4",
            "--json", "--until-decided"]
    assert main([*args, "--jobs", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*args, "--jobs", "2"]) == 0
    assert capsys.readouterr().out == one


def test_cli_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "doko_duell", "--policies", "random,heuristic,random", "--deals", "300",
                 "--jobs", "1", "--json", "--rule", "tie_rule=starter_loses"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(p["a"], p["b"]) for p in report["pairs"]] == [
        ("random", "heuristic"), ("random", "random"), ("heuristic", "random")]
    for p in report["pairs"]:
        assert {"a", "b", "diff", "lo", "hi", "deals", "win_a", "win_b"} <= set(p)
        assert p["lo"] <= p["diff"] <= p["hi"] and p["deals"] == 300
    assert report["unit"] == "VP" and report["rules"]["tie_rule"] == "starter_loses"
    ranking = report["ranking"]
    assert [r["rank"] for r in ranking] == [1, 2, 3] and ranking[0]["policy"] == "heuristic"
    assert sum(r["strength"] for r in ranking) == pytest.approx(0, abs=1e-9)
    assert report["omniscient"] == []


def test_cli_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "doko_duell", "--policies", "random,heuristic", "--deals", "200",
                 "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "random" in text and "heuristic" in text and "95% interval" in text


def test_an_omniscient_policy_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim.engine.seats, "OMNISCIENT", frozenset({"heuristic"}))
    report = run_arena("doko_duell", ["random", "heuristic"], deals=20)
    assert report["omniscient"] == ["heuristic"]
    assert "heuristic sees every card" in format_report(report)


# --- Bradley-Terry ------------------------------------------------------------------------

def test_bradley_terry_recovers_exact_strengths() -> None:
    """Counts in exactly the model's proportions: theta = (0, log 2, log 6), so P(1 > 0) = 2/3,
    P(2 > 0) = 6/7, P(2 > 1) = 3/4; the likelihood's maximum is there."""
    wins = np.array([[0, 100, 100], [200, 0, 100], [600, 300, 0]])
    rows = bradley_terry(["x", "y", "z"], wins, prior=0)
    theta = np.array([0, math.log(2), math.log(6)])
    want = theta - theta.mean()
    got = {r["policy"]: r for r in rows}
    assert [r["policy"] for r in rows] == ["z", "y", "x"]
    for name, value in zip("xyz", want):
        assert got[name]["strength"] == pytest.approx(value, abs=1e-9)
        assert got[name]["lo"] < value < got[name]["hi"]


def test_bradley_terry_two_policies_by_hand() -> None:
    """Two policies: the difference is log(w_ab / w_ba), each centred strength half of it,
    and its variance 1 / (4 n p (1 - p))."""
    rows = bradley_terry(["a", "b"], np.array([[0, 75], [25, 0]]), prior=0)
    d = math.log(3)
    var = 1 / (4 * 100 * 0.75 * 0.25)
    a = rows[0]
    assert a["policy"] == "a" and a["strength"] == pytest.approx(d / 2)
    assert a["hi"] - a["strength"] == pytest.approx(1.959963984540054 * math.sqrt(var))
    # the prior: half a deal each way
    rows = bradley_terry(["a", "b"], np.array([[0, 10], [0, 0]]))
    assert rows[0]["strength"] == pytest.approx(math.log(10.5 / 0.5) / 2)


# --- the sequential rule ------------------------------------------------------------------

def test_look_schedule() -> None:
    assert look_schedule(5000, until_decided=False) == [5000]
    assert look_schedule(6400, until_decided=True) == [50, 100, 200, 400, 800, 1600, 3200, 6400]
    assert look_schedule(30, until_decided=True) == [30]
    assert look_level(8) == pytest.approx(1 - 0.05 / 8)


@pytest.mark.parametrize("kind", ["normal", "skewed"])
def test_sequential_rule_keeps_coverage_on_zero_mean_data(kind: str) -> None:
    """Zero true difference: the rule stops with an interval that excludes zero (a false
    decision) in at most 5 % of arenas; and a true difference is found."""
    rng = np.random.default_rng(2026)
    schedule = look_schedule(2000, until_decided=True)
    runs = 1500
    false = 0
    for _ in range(runs):
        if kind == "normal":
            x = rng.normal(0, 10, 2000)
        else:  # -2 w.p. 1/3, +1 w.p. 2/3: mean 0, skewed and discrete like scores
            x = np.where(rng.random(2000) < 1 / 3, -2.0, 1.0)
        false += sequential(x, schedule)[4]
    assert false / runs <= 0.05
    # the same rule finds a real difference, early
    found = [sequential(rng.normal(3, 10, 2000), schedule) for _ in range(200)]
    assert np.mean([f[4] for f in found]) > 0.95
    assert np.median([f[0] for f in found]) < 2000
    # and a fixed-size arena's 95 % interval is the plain one
    mean, lo, hi = interval(np.array([1.0, 2.0, 3.0]))
    assert (mean, lo, hi) == pytest.approx((2.0, 2 - 4.302652729911275 / math.sqrt(3),
                                            2 + 4.302652729911275 / math.sqrt(3)))


def test_until_decided_stops_early() -> None:
    report = run_arena("doko_duell", ["random", "heuristic", "heuristic"], deals=4000,
                       until_decided=True)
    first, second, same = report["pairs"]
    assert first["decided"] and first["deals"] < 4000 and second["deals"] == first["deals"]
    assert first["level"] == pytest.approx(look_level(len(report["looks"])))
    assert same["deals"] == 4000 and not same["decided"]  # heuristic vs heuristic: never


# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["arena", "doko_duell", "--policies", "random,genius"],
    ["arena", "doko_duell", "--policies", "random,lookahead:0"],
    ["arena", "doko_duell", "--policies", "random,lookahead:x"],
    ["arena", "doko_duell", "--policies", "heuristic"],
    ["arena", "doko_duell", "--policies", "random,,heuristic"],
    ["arena", "poker", "--policies", "random,heuristic"],
    ["arena", "doko_duell", "--policies", "random,heuristic", "--rule", "nonsense=1"],
    ["arena", "doko_duell", "--policies", "random,heuristic", "--rule", "tie_rule=never"],
    ["arena", "doko_duell", "--policies", "random,heuristic", "--deals", "0"],
    ["arena", "doko_duell"],
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("stichsim") and "Traceback" not in captured.err


def test_lookahead_plays_in_the_arena_and_the_bench(capsys: pytest.CaptureFixture[str]) -> None:
    """A handful of deals with ``lookahead:2`` (doko_duell, the first game it was wired into)."""
    report = run_arena("doko_duell", ["heuristic", "lookahead:2"], deals=6)
    assert report["pairs"][0]["deals"] == 6 and report["pairs"][0]["plays"] == 12
    assert main(["bench", "doko_duell", "--policies", "lookahead:2", "--deals", "4", "--jobs", "1",
                 "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["results"]
    assert row["policy"] == "lookahead:2" and row["deals"] == 4 and row["rollouts_per_decision"] == 2
    assert row["decisions"] > 0 and row["rollouts"] >= 2 * row["decisions"]
    assert row["decisions_per_s"] > 0 and row["rollouts_per_s"] > 0

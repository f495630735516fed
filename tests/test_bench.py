"""The bench's pieces: the reference kernel, the scoring-only sweep, the JSON report."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sim.bench import SWEEP_VARIANTS, replay_equals_rescored, sweep_experiment
from sim.cli import main
from sim.engine.play import play
from sim.games.skat_family.reference import PLAYS, play_reference, reference_plays
from sim.runner import plan, run_shard

RANKS = "ATKQJ987"
"""Skat deck order: card ``i`` is suit ``i // 8``, rank ``RANKS[i % 8]``."""


def grand_suit(card: int) -> int:
    """A card's suit in a grand: jacks are trump (4), every other card its printed suit."""
    return 4 if RANKS[card % 8] == "J" else card // 8


def grand_strength(card: int) -> int:
    """Higher beats lower within a suit: CJ > SJ > HJ > DJ, then A T K Q 9 8 7."""
    return 100 - card // 8 if grand_suit(card) == 4 else 8 - card % 8


def replay_by_hand(hands: list[int], plays: np.ndarray, deal: int) -> int:
    """Check in plain Python that every play is from the player's hand, follows suit and is
    its lowest legal card; return the seat that takes the last trick."""
    leader = (deal + 1) % 3
    for t in range(PLAYS // 3):
        trick = [int(c) for c in plays[3 * t:3 * t + 3]]
        for k, card in enumerate(trick):
            seat = (leader + k) % 3
            held = [c for c in range(32) if hands[seat] >> c & 1]
            follow = [c for c in held if k and grand_suit(c) == grand_suit(trick[0])]
            assert card == min(follow or held), (deal, t, k)
            hands[seat] &= ~(1 << card)
        led = grand_suit(trick[0])
        best = max(range(3), key=lambda k: (grand_suit(trick[k]) == 4, grand_suit(trick[k]) == led,
                                            grand_strength(trick[k]), -k))
        leader = (leader + best) % 3
    assert hands == [0, 0, 0]
    return leader


def test_reference_is_deterministic_and_shard_independent() -> None:
    whole = play_reference(7, 0, 300)
    assert np.array_equal(whole, play_reference(7, 0, 300))
    assert np.array_equal(whole[100:], play_reference(7, 100, 200))
    assert not np.array_equal(whole, play_reference(8, 0, 300))
    assert set(np.unique(whole)) == {0, 1, 2}


@pytest.mark.parametrize("deal", range(12))
def test_reference_plays_follow_suit(deal: int) -> None:
    dealt, plays, winner = reference_plays(7, deal)
    hands = [int(h) for h in dealt]
    assert sum(bin(h).count("1") for h in hands) == 30 and hands[0] & hands[1] & hands[2] == 0
    assert replay_by_hand(hands, plays, deal) == winner == play_reference(7, deal, 1)[0]


def test_sweep_rescored_equals_replay(tmp_path: Path) -> None:
    exp = sweep_experiment(400)
    tasks = list(plan(exp, tmp_path / exp.name)[0])
    assert len(tasks) == 1 and len(tasks[0].outputs) == SWEEP_VARIANTS  # one play for all
    run_shard(tasks[0])
    for variant in exp.variants()[1:]:
        assert replay_equals_rescored(exp, tmp_path / exp.name, variant.name), variant.name


def test_bench_json_has_reference_and_sweep(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "skat", "--deals", "2000", "--jobs", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["machine"]["cpus"] >= 1 and report["machine"]["cpu"]
    assert report["reference"]["deals_per_s"] > 0
    assert all(r["ratio_to_reference"] > 0 for r in report["results"])
    sweep = report["sweep"]
    assert sweep["variants"] == SWEEP_VARIANTS and sweep["rescored_equals_replay"] is True
    assert sweep["variant_deals_per_s"] == pytest.approx(SWEEP_VARIANTS * sweep["plays_per_s"], rel=0.01)


def test_bench_memory_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "skat", "--memory", "1000", "2000", "--jobs", "1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["memory"]
    assert [r["deals"] for r in rows] == [1000, 2000]
    assert all(r["peak_rss_mib"] > 0 and r["bytes_per_deal"] > 0 for r in rows)


def test_lookahead_decisions_and_rollouts_are_counted_by_hand() -> None:
    """A decision is a card-play step with more than one legal action; it costs
    ``max(1, N // actions) * actions`` rollouts."""
    from sim.bench import count_decisions
    from sim.registry import GAMES

    game = GAMES["doko_duell"]
    rules = game.rules()
    batch = play(game, 3, 0, 5, rules, ["heuristic"] * 2, record=True)
    cp = game.card_play
    assert cp is not None and batch.actions is not None
    counts = []
    for i in range(5):
        state, actions = cp.start(batch.columns, i, batch.actions[i], rules)
        for action in actions:
            counts.append(bin(int(cp.legal(state))).count("1"))
            cp.step(state, action)
    many = [n for n in counts if n > 1]
    assert 0 < len(many) < len(counts)
    assert count_decisions(game, batch, rules, 720720) == (len(many), 720720 * len(many))
    assert count_decisions(game, batch, rules, 1) == (len(many), sum(many))
    assert count_decisions(game, batch, rules, 8) == (len(many), sum(max(1, 8 // n) * n for n in many))


def test_bench_times_the_policies_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "doko_duell", "--policies", "heuristic", "--deals", "2000", "--jobs", "1",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(r["game"], r["policy"], r["deals"]) for r in report["results"]] == [
        ("doko_duell", "heuristic", 2000)]
    assert list(report["parquet"]["doko_duell"]) == ["heuristic"]
    assert "decisions" not in report["results"][0]


@pytest.mark.parametrize("policies", ["genius", "heuristic,lookahead:0", "lookahead:x"])
def test_bench_bad_policies_exit_2(policies: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "doko_duell", "--policies", policies]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_machine_is_read_from_proc_and_sys(tmp_path, monkeypatch) -> None:
    """The processor's name from ``/proc/cpuinfo``, the data and unified caches of levels 2
    and 3 from ``/sys`` (an instruction cache and level 1 left out), sizes in KiB."""
    from sim import machine

    (tmp_path / "cpuinfo").write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\n"
                                      "model name\t: AMD EPYC 9R14\nflags\t\t: fpu\n")
    for name, level, kind, size in [("index0", 1, "Data", "32K"), ("index1", 1, "Instruction", "32K"),
                                    ("index2", 2, "Unified", "1024K"), ("index3", 3, "Unified", "32M")]:
        (tmp_path / "cache" / name).mkdir(parents=True)
        for field, value in [("level", level), ("type", kind), ("size", size)]:
            (tmp_path / "cache" / name / field).write_text(f"{value}\n")
    monkeypatch.setattr(machine, "CPUINFO", tmp_path / "cpuinfo")
    monkeypatch.setattr(machine, "CACHES", tmp_path / "cache")
    info = machine.machine()
    assert {k: v for k, v in info.items() if k != "cpus"} == {"cpu": "AMD EPYC 9R14", "l2_kib": 1024,
                                                             "l3_kib": 32768}
    assert machine.describe(info) == f"machine: AMD EPYC 9R14, {info['cpus']} CPUs, L2 1024 KiB, L3 32768 KiB"
    monkeypatch.setattr(machine, "CACHES", tmp_path / "none")  # a system without the folder
    assert set(machine.machine()) == {"cpu", "cpus"}

"""A fifth game through the path docs/architecture.md describes: the toy game of
``tests/toygame`` (two players, twelve cards, no bidding) is declared, registered, and
passes the tests every game passes: the declaration, the invariants, the card-play state,
traces, the runner and the analysis. The proof that the shape is generic."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import test_architecture
import test_cardplay
import test_invariants
from toygame import game as toy

from analysis import balance, load
from sim import actions as A
from sim.cards import bit
from sim.engine.game import Batch
from sim.registry import GAMES, register
from sim.runner import Experiment, run_experiment
from sim.trace import replay_file, write_trace


def toy_invariants(batch: Batch, rules: dict) -> None:
    """Every card played once by its holder, following suit; six tricks; 72 points; the
    winner of a trick leads the next; the scores as the rules count them."""
    c = batch.columns
    assert batch.actions is not None
    for i, rows in enumerate(batch.actions):
        hands = [int(c["hand_0"][i]), int(c["hand_1"][i])]
        assert hands[0] & hands[1] == 0 and hands[0] | hands[1] == toy.DECK.full
        plays = [(int(s), int(a)) for t, s, a, _ in rows if t == A.PLAY]
        assert len(plays) == 12 and plays[0][0] == int(c["starter"][i])
        points, tricks = [0, 0], [0, 0]
        for k in range(0, 12, 2):
            (s0, c0), (s1, c1) = plays[k], plays[k + 1]
            assert s1 == 1 - s0 and hands[s0] >> c0 & 1 and hands[s1] >> c1 & 1
            follow = hands[s1] & int(toy.SUIT_MASKS[toy.EFF[c0]])
            assert not follow or follow >> c1 & 1, "did not follow suit"
            hands[s0] &= ~int(bit(c0))
            hands[s1] &= ~int(bit(c1))
            second = toy.EFF[c1] == toy.EFF[c0] and toy.STRENGTH[c1] > toy.STRENGTH[c0]
            w = s1 if second else s0
            points[w] += int(toy.POINTS[c0] + toy.POINTS[c1])
            tricks[w] += 1
            if k + 2 < 12:
                assert plays[k + 2][0] == w
        assert sum(points) == 72 and sum(tricks) == 6
        assert [int(c["points_0"][i]), int(c["points_1"][i])] == points
        assert int(c["last_trick"][i]) == w
        bonus = rules["last_trick_bonus"]
        assert [int(c[f"score_{s}"][i]) for s in range(2)] == [points[s] + (bonus if s == w else 0)
                                                              for s in range(2)]


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy game in the registry (and its invariant checker), for this test only."""
    monkeypatch.setitem(test_invariants.CHECKERS, "toy", toy_invariants)
    monkeypatch.setitem(test_invariants.RULE_SETS, "toy", [{}, {"last_trick_bonus": 10}])
    monkeypatch.setitem(test_cardplay.RULES, "toy", [{}, {"last_trick_bonus": 10}])
    register(toy.GAME)
    yield
    del GAMES["toy"]


def test_a_game_of_the_same_name_is_refused(toy_registered: None) -> None:
    import dataclasses

    from sim.registry import GameError

    with pytest.raises(GameError, match="a game named 'toy' is registered already"):
        register(dataclasses.replace(toy.GAME, tricks=7))


def test_the_toy_declares_every_field(toy_registered: None) -> None:
    test_architecture.check_declaration(GAMES["toy"])


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_the_toy_keeps_the_invariants(toy_registered: None, policy: str) -> None:
    test_invariants.test_invariants("toy", policy)
    test_invariants.test_rescoring_equals_replaying("toy", policy)


def test_a_toy_deal_does_not_depend_on_its_batch(toy_registered: None) -> None:
    test_invariants.test_a_deal_does_not_depend_on_its_batch("toy")


def test_the_toy_card_play_is_a_state(toy_registered: None) -> None:
    test_cardplay.test_the_state_starts_with_the_common_header("toy")
    for variant in (0, 1):
        for policy in ("random", "heuristic"):
            test_cardplay.test_recorded_card_play_steps_to_the_recorded_result("toy", variant, policy)
        test_cardplay.test_the_heuristic_decides_the_same_from_the_derived_observation("toy", variant)
    for pol in (0, 1):
        test_cardplay.test_a_state_plays_out_from_the_middle_with_any_policy("toy", pol)


def test_a_hand_worked_toy_trick() -> None:
    """CA led, CK follows: the ace takes 15 points; a void player may discard any card."""
    state = np.zeros(toy.STATE_LENGTH, np.int64)
    names = toy.DECK.names
    hands = np.array([toy.DECK.parse("CA SA SK SQ HA HK"), toy.DECK.parse("CK CQ HQ DA DK DQ")],
                     np.uint64)
    toy.start(state, hands, 0)
    toy.step(state, names.index("CA"))
    assert toy.legal(state) == toy.DECK.parse("CK CQ")
    toy.step(state, names.index("CK"))
    assert state[toy.S.POINTS] == 15 and state[toy.S.TO_MOVE] == 0
    toy.step(state, names.index("SA"))
    assert toy.legal(state) == toy.DECK.parse("CQ HQ DA DK DQ")  # void in spades


def test_toy_traces_replay(toy_registered: None, tmp_path: Path) -> None:
    out = tmp_path / "toy.jsonl"
    assert write_trace(GAMES["toy"], 3, 0, 20, {"last_trick_bonus": 10}, ["heuristic", "random"],
                       out) == 20
    assert replay_file(out) == []
    text = out.read_text()
    out.write_text(text.replace('"last_trick": 0', '"last_trick": 1', 1))
    assert any("last_trick" in m for m in replay_file(out))


def test_the_runner_and_the_analysis_take_the_toy(toy_registered: None, tmp_path: Path) -> None:
    """An experiment of the toy game runs into Parquet shards the analysis reads with no word
    of the toy game in it: one row per deal and seat, the start player's edge."""
    exp = Experiment.from_dict(dict(name="toy", game="toy", deals=600, seed=4, shard_size=250,
                                    policies=["heuristic", "random"],
                                    variants=[{"name": "bonus", "rules": {"last_trick_bonus": 10}}]))
    root = run_experiment(exp, tmp_path, progress=False)
    frame = load.scan(root)
    outcome = load.read_outcome(root)
    assert (outcome.players, outcome.unit) == (2, "points")
    seats = load.seats(frame, outcome).collect()
    assert seats.height == 2 * 600 * 2
    assert set(seats["position"].unique()) == {0, 1}
    table = balance.start_player(frame, outcome)
    assert set(table["variant"]) == {"base", "bonus"} and table.height == 8
    rates = table.filter(table["metric"] == "win rate")
    for variant in ("base", "bonus"):
        mine = rates.filter(rates["variant"] == variant)
        assert abs(mine["value"].sum() - 1) < 1e-9  # drawn deals (36 : 36) count for nobody
    # a bonus of 10 for the last trick: 10 more points between the two seats in every deal
    scores = table.filter(table["metric"] == "score")
    assert abs(scores.filter(scores["variant"] == "bonus")["value"].sum()
               - scores.filter(scores["variant"] == "base")["value"].sum() - 10) < 1e-9


def test_the_toy_sits_at_the_browser_table(toy_registered: None) -> None:
    """A whole toy deal served to the page: its board holds every card played, six tricks
    of 72 points in all at the end, each taken by the trick rule, and the dealt hands are
    the deck."""
    import random

    from starlette.testclient import TestClient

    from sim.serve.app import build_app

    client = TestClient(build_app())
    state = client.post("/api/tables", json={"game": "toy", "seat": 1, "seed": 3}).json()
    rng = random.Random(3)
    while state["question"]:
        assert state["board"]["places"][1]["you"] and state["board"]["turn"] == 1
        pick = rng.randrange(len(state["question"]["choices"]))
        state = client.post(f"/api/tables/{state['id']}/answer",
                            json={"step": state["step"], "choices": [pick]}).json()
    final = state["final"]
    assert [t["complete"] for t in final["tricks"]] == [True] * toy.TRICKS
    assert sum(t["points"] for t in final["tricks"]) == 72
    assert sum(p["points"] for p in final["places"]) == 72
    assert sorted(c for h in final["dealt"] for g in h["groups"] for c in g) == sorted(toy.DECK.names)

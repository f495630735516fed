"""A player written in Python (``python:FILE.py:FUNCTION``, ``sim.engine.python_player``): its
answers read as rows, what it is shown (its seat's observation and nothing else), that it
plays every game as the kernel's seats do, reproducibly, and that a bad player is one line."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from knowable import knowable

from sim import actions as A
from sim.engine.outside import PYTHON_STREAM
from sim.engine.play import play
from sim.engine.python_player import Decision, PlayerError, PythonSeat, choose, legal_names, load
from sim.engine.seats import PolicyError, policy_id
from sim.play.table import Table
from sim.registry import GAMES, find_game
from sim.rng import stream_key
from sim.screen.questions import Choice, Question

ROOT = Path(__file__).resolve().parent.parent
SPY = f"{ROOT / 'tests' / 'players' / 'spy.py'}:decide"
THRIFTY = "python:examples/players/thrifty.py:decide"
STICHSIM = [sys.executable, "-m", "sim.cli"]


def card(name: str, code: int, kind: int = A.PLAY) -> Choice:
    return Choice(name, (kind, 0, code if kind == A.PLAY else 1 << code, 0), (name,))


def test_a_name_chooses_its_row_and_anything_else_says_why() -> None:
    q = Question("Your card", (card("CJ", 3), card("HA", 9)))
    names = legal_names(q)
    assert names == ["CJ", "HA"]
    assert choose(q, names, "HA") == (A.PLAY, 0, 9, 0)
    assert choose(q, names, "ha") == (A.PLAY, 0, 9, 0)
    assert choose(q, names, "SA") == "'SA' is not legal"
    assert choose(q, names, 2) == "2 is not a name"


def test_a_discard_names_its_cards_and_their_row_holds_them_all() -> None:
    q = Question("Put two cards away", (card("CJ", 3, A.DISCARD), card("HA", 9, A.DISCARD),
                                        card("S7", 12, A.DISCARD)), pick=2)
    names = legal_names(q)
    want = (A.DISCARD, 0, 1 << 3 | 1 << 12, 0)
    assert choose(q, names, ["CJ", "S7"]) == want
    assert choose(q, names, "S7 CJ") == (A.DISCARD, 0, 1 << 12 | 1 << 3, 0)
    assert choose(q, names, ["CJ"]) == "it must name 2 cards"
    assert choose(q, names, ["CJ", "CJ"]) == "'CJ' is named twice"


def test_names_drop_the_explanation_unless_two_choices_would_share_one() -> None:
    q = Question("Offer", (Choice("no offer", (A.DECLINE, 0, A.OFFER, 0), ("NO",)),
                           Choice("offer raus (the declarer wins a plain game)",
                                  (A.OFFER, 0, 1, 0), ("RAUS",))))
    assert legal_names(q) == ["no offer", "offer raus"]
    assert choose(q, legal_names(q), "RAUS") == (A.OFFER, 0, 1, 0)  # a word the table takes
    duel = Question("Your card", (Choice("CJ", (A.PLAY, 0, 3, 0)), Choice("CJ (p3)", (A.PLAY, 0, 4, 4)),
                                  Choice("HT", (A.PLAY, 0, 8, 0)), Choice("HT", (A.PLAY, 0, 9, 0))))
    assert legal_names(duel) == ["CJ", "CJ (p3)", "HT", "HT"]  # two copies of HT are one move


def test_the_policy_name_is_checked_before_anything_plays() -> None:
    for bad in ("python", "python:player.txt:decide", "python:p.py:not-a-name"):
        with pytest.raises(PolicyError, match="python:FILE.py:FUNCTION"):
            policy_id(bad)
    with pytest.raises(PlayerError, match="there is no file"):
        load("nowhere/player.py:decide")
    with pytest.raises(PlayerError, match="has no function"):
        load(f"{ROOT / 'tests' / 'players' / 'spy.py'}:nothing")


def test_the_decision_holds_no_seed_and_no_deal() -> None:
    names = {f.name for f in dataclasses.fields(Decision)}
    assert names == {"game", "seat", "position", "kind", "prompt", "legal", "pick", "observation",
                     "rules", "rng", "array"}


def cards_named(d: Decision) -> set[str]:
    """Every card name in a decision: its observation's card fields and, for a card or a
    discard, its legal names."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, tuple):
            for v in value:
                walk(v)

    for value in d.observation.values():
        walk(value)
    if d.kind in ("play", "discard"):
        found |= {n.split(" (")[0] for n in d.legal}
    return found


@pytest.mark.parametrize("name", list(GAMES))
def test_a_python_player_is_shown_its_seat_alone_and_plays_as_the_engine_does(name: str) -> None:
    """Each decision's observation is the one a person at the seat is shown, every card it
    names is one the seat may know then, and the engine's deal with the player at the seat is
    the one the table plays with the same answers."""
    game = find_game(name)
    rules = game.rules()
    player = PythonSeat(game, rules, 0, SPY)
    seen = load(SPY).__globals__["SEEN"]
    policies = [f"python:{SPY}"] + ["heuristic"] * (game.n_players - 1)
    kinds: set[str] = set()
    for number in range(4):
        table = Table(game, rules, 5, number, 0, "heuristic")
        shown: list[tuple[Decision, np.ndarray]] = []
        while not (moment := table.moment()).finished:
            assert moment.view is not None
            key = int(stream_key(5, number, PYTHON_STREAM + len(shown)))
            table.decide(player.decide(moment.view, key))
            d = seen[-1]
            assert np.array_equal(d.array, moment.view) and not d.array.flags.writeable
            assert d.game == name and d.seat == 0 and d.legal
            shown.append((d, moment.actions.copy()))
            kinds.add(d.kind)
        assert moment.columns is not None
        for d, actions in shown:
            assert cards_named(d) <= knowable(name, moment.columns, 0, actions), d.kind
        engine = play(game, 5, number, 1, rules, policies, record=True)
        assert engine.actions is not None
        assert np.array_equal(engine.actions[0], moment.actions)
        for column, values in engine.columns.items():
            assert values[0] == moment.columns[column][0], column
    assert "play" in kinds


@pytest.mark.parametrize("name", list(GAMES))
def test_python_players_play_the_same_deals_however_the_deals_are_split(name: str) -> None:
    game = find_game(name)
    rules = game.rules()
    policies = [THRIFTY] * game.n_players
    whole = play(game, 11, 0, 6, rules, policies)
    parts = [play(game, 11, first, 3, rules, policies) for first in (0, 3)]
    assert (whole.columns["replay_error"] == 0).all()
    for column, values in whole.columns.items():
        assert np.array_equal(values, np.concatenate([p.columns[column] for p in parts])), column


def test_a_wrong_answer_names_the_decision_and_the_legal_choices() -> None:
    game = find_game("skat")
    policies = [f"python:{ROOT / 'tests' / 'players' / 'spy.py'}:wrong"] + ["heuristic"] * 2
    with pytest.raises(PlayerError, match=r"answered 'XX' at seat 0's \w+ \(.*\): 'XX' is not "
                                          r"legal; legal: .*pass"):
        play(game, 1, 0, 1, game.rules(), policies)


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    """``stichsim arena ARGS`` in this process (from the repository's root, where the players'
    paths start), as its exit status and output."""
    import contextlib
    import io
    import os

    from sim.cli import main

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["arena", *args, "--no-progress"])
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(["stichsim", "arena", *args], status, out.getvalue(),
                                       err.getvalue())


@pytest.mark.parametrize("name", list(GAMES))
def test_the_example_player_plays_the_heuristic_in_the_arena(name: str) -> None:
    done = arena(name, "--policies", f"{THRIFTY},heuristic", "--deals", "8", "--json")
    assert done.returncode == 0, done.stderr
    pair = json.loads(done.stdout)["pairs"][0]
    assert (pair["a"], pair["b"], pair["deals"]) == (THRIFTY, "heuristic", 8)


@pytest.mark.parametrize(("function", "said"), [
    ("wrong", "answered 'XX' at seat"), ("broken", "raised KeyError: 'hand'"),
    ("nothing", "has no function nothing")])
def test_a_bad_player_is_one_line_and_exit_status_2(function: str, said: str) -> None:
    done = arena("skat", "--policies", f"python:tests/players/spy.py:{function},heuristic",
                 "--deals", "2")
    assert done.returncode == 2
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_the_browser_seats_only_the_python_players_the_server_was_started_with() -> None:
    import random
    import warnings

    from test_serve import open_table, play_out

    from sim.serve.app import build_app
    from sim.serve.tables import Tables
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    client = TestClient(build_app(Tables(players=(THRIFTY,))))
    assert THRIFTY in client.get("/api/games").json()["policies"]
    assert "python" not in client.get("/api/games").json()["policies"]
    other = "python:tests/players/spy.py:decide"
    r = client.post("/api/tables", json={"game": "skat", "policy": other})
    assert r.status_code == 400 and "not offered here" in r.text
    state = play_out(client, open_table(client, game="doko_skat", seat=1, seed=3, policy=THRIFTY),
                     random.Random(3))
    assert state["result"]


def test_an_experiment_and_a_trace_seat_a_python_player(tmp_path: Path) -> None:
    from sim import api
    from sim.trace import replay_file

    config = tmp_path / "mine.toml"
    config.write_text(f'name = "mine"\ngame = "doko_duell"\ndeals = 40\nseed = 3\nshard_size = 15\n'
                      f'policies = ["{THRIFTY}", "heuristic"]\n')
    deals = api.run(config, out=tmp_path / "results", jobs=2).collect()
    assert deals.height == 40
    again = api.run(config, out=tmp_path / "again", jobs=1).collect()
    assert deals.drop("experiment").equals(again.drop("experiment"))
    traces = tmp_path / "t.jsonl"
    done = subprocess.run([*STICHSIM, "trace", "skat", "--policies", f"{THRIFTY},heuristic,random",
                           "--deals", "3", "--seed", "4", "--out", str(traces)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["policies"][0] for line in traces.read_text().splitlines()] == [THRIFTY] * 3
    assert replay_file(traces) == []


def test_the_python_api_answers_as_the_commands_do(tmp_path: Path) -> None:
    from sim import api
    from sim.errors import StichsimError

    table = api.arena("skat_en_deux", [THRIFTY, "heuristic"], deals=6, rules=["offers=true"], jobs=1)
    assert table.columns[:3] == ["a", "b", "diff"] and table.height == 1
    assert table["deals"][0] == 6 and table["lo"][0] <= table["diff"][0] <= table["hi"][0]
    cli = arena("skat_en_deux", "--policies", f"{THRIFTY},heuristic", "--deals", "6", "--json",
                "--rule", "offers=true", "--jobs", "1")
    assert json.loads(cli.stdout)["pairs"] == table.to_dicts()
    with pytest.raises(PolicyError, match="unknown policy 'heuristc'"):
        api.arena("skat", ["heuristc", "random"])
    with pytest.raises(StichsimError, match="no such experiment file"):
        api.run(tmp_path / "missing.toml")


def test_a_person_plays_a_deal_against_python_players(monkeypatch, capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from test_play import play_cli

    from sim.trace import replay_file

    trace = tmp_path / "deal.jsonl"
    monkeypatch.chdir(ROOT)
    status, out, err = play_cli(monkeypatch, capsys, "#1\n" * 400, "doko_skat", "--seed", "8",
                                "--seat", "1", "--policy", THRIFTY, "--trace", str(trace),
                                "--no-hindsight")
    assert status == 0, err
    assert "Deal over." in out
    assert json.loads(trace.read_text())["policies"] == [THRIFTY, "person", THRIFTY]
    assert replay_file(trace) == []


def test_a_tune_races_rules_with_a_python_player(tmp_path: Path) -> None:
    from sim import api

    config = tmp_path / "tune.toml"
    config.write_text(f'name = "tune-python"\ngame = "doko_duell"\ndeals = 300\nseed = 5\n'
                      f'shard_size = 100\npolicies = ["{THRIFTY}", "heuristic"]\n[tune]\n'
                      f'options = ["tie_rule"]\nmeasure = "start_edge"\ndelta = 0.05\nfirst_round = 100\n')
    outcome = api.tune(config, results=tmp_path / "results", out=tmp_path / "report", jobs=2)
    assert Path(outcome["report"]).exists() and len(outcome["candidates"]) == 6

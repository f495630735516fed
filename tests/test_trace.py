"""Deal traces (TRACE.md): fields, replay, tampering, bad lines, windows, golden files."""

from __future__ import annotations

import difflib
import importlib.util
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sim.cards import SKAT_DECK
from sim.engine.play import play
from sim.registry import GAMES, find_game
from sim.trace import FIELDS, TraceError, replay_file, trace_codec, trace_lines, traced_games, write_trace

SKAT = find_game("skat")
DEUX = find_game("skat_en_deux")
GOLDEN_DIR = Path(__file__).parent / "golden"
RAMSCH_ANN = {"all_pass": "ramsch", "announcements": True}


def _load_regenerate():
    spec = importlib.util.spec_from_file_location("golden_regenerate", GOLDEN_DIR / "regenerate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regenerate = _load_regenerate()


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]


def write(path: Path, objs: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(o) + "\n" for o in objs), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """Fresh traces: random and heuristic, both all_pass values, announcements on."""
    folder = tmp_path_factory.mktemp("traces")
    out = {}
    for policy in ("random", "heuristic"):
        for all_pass in ("throw_in", "ramsch"):
            path = folder / f"{policy}_{all_pass}.jsonl"
            n = write_trace(SKAT, 2024, 0, 400, {"all_pass": all_pass, "announcements": True},
                            [policy] * 3, path)
            assert n == 400
            out[policy, all_pass] = path
    return out


def all_lines(traces: dict[tuple[str, str], Path]) -> list[dict[str, Any]]:
    return [obj for path in traces.values() for obj in read(path)]


# --- fields --------------------------------------------------------------------------------

ACTION_FIELDS = {"bid": {"value"}, "hold": {"value"}, "pass": set(), "pickup": set(),
                 "hand": set(), "discard": {"cards"}, "ramsch": set(), "play": {"card", "from"},
                 "declare": {"game", "hand", "ouvert", "open_level", "schneider_announced",
                             "schwarz_announced"}}
RESULT_FIELDS = {"passed_out", "declarer", "game", "bid", "matadors", "declarer_points",
                 "declarer_tricks", "schneider", "schwarz", "overbid", "won", "game_value", "scores"}


def test_every_trace_md_field(traces: dict[tuple[str, str], Path]) -> None:
    seen_types, seen_results = set(), set()
    for obj in all_lines(traces):
        assert list(obj)[:len(FIELDS)] == list(FIELDS)
        assert obj["game"] == "skat"
        assert obj["rules"] == {"all_pass": obj["rules"]["all_pass"], "announcements": True,
                                "lost_factor": 2, "scoring": "seed", "ramsch_skat": "last_trick",
                                "ramsch_jungfrau": False}
        assert obj["dealer"] == obj["deal"] % 3 and obj["seed"] == 2024
        hands, skat = obj["cards"]["hands"], obj["cards"]["skat"]
        assert [len(h) for h in hands] == [10, 10, 10] and len(skat) == 2
        everything = [c for h in hands for c in h] + skat
        assert sorted(everything) == sorted(SKAT_DECK.names)
        for h in hands + [skat]:  # deck order
            assert h == sorted(h, key=SKAT_DECK.names.index)
        for action in obj["actions"]:
            assert set(action) == {"type", "seat"} | ACTION_FIELDS[action["type"]]
            assert action["seat"] in (0, 1, 2)
            seen_types.add(action["type"])
            if action["type"] == "declare":
                assert action["open_level"] == 0
                if action["ouvert"] and action["game"] != "null":
                    assert action["schneider_announced"] and action["schwarz_announced"]
                if action["schwarz_announced"]:
                    assert action["schneider_announced"]
            if action["type"] == "play":
                assert action["from"] == "hand" and action["card"] in SKAT_DECK.names
        result = obj["result"]
        need = {"ramsch", "points", "scores"} if result["ramsch"] else RESULT_FIELDS
        assert need <= set(result)
        assert len(result["scores"]) == 3
        kind = "ramsch" if result["ramsch"] else "passed" if result["passed_out"] else result["game"]
        seen_results.add(kind)
        if result["passed_out"]:
            assert result["declarer"] is None and result["game"] is None
            assert result["matadors"] is None and result["scores"] == [0, 0, 0]
            assert obj["actions"] == [{"type": "pass", "seat": s} for s in
                                      ((obj["dealer"] + 2) % 3, obj["dealer"], (obj["dealer"] + 1) % 3)]
        elif result["ramsch"]:
            assert len(result["points"]) == 3 and sum(result["points"]) == 120
        elif result["game"] == "null":
            assert result["matadors"] is None
        else:
            assert result["matadors"] != 0
    assert seen_types == set(ACTION_FIELDS)
    assert {"ramsch", "passed", "grand", "null", "C", "S", "H", "D"} <= seen_results


# --- replay --------------------------------------------------------------------------------

def test_replay_of_fresh_traces_finds_nothing(traces: dict[tuple[str, str], Path]) -> None:
    for key, path in traces.items():
        assert replay_file(path) == [], key


def test_replay_default_rules_and_lost_factor(tmp_path: Path) -> None:
    for rules in ({}, {"lost_factor": 1}):
        path = write_trace_path(tmp_path / "t.jsonl", 300, rules, "heuristic")
        assert replay_file(path) == []


def test_replay_under_the_list_and_the_ramsch_options(tmp_path: Path) -> None:
    """Scores under the Seeger-Fabian list and the Jungfrau, points with the skat to the loser:
    the trace says them and replays them; a ramsch score edited is reported."""
    rules = {"all_pass": "ramsch", "scoring": "seeger_fabian", "ramsch_skat": "loser",
             "ramsch_jungfrau": True}
    path = write_trace_path(tmp_path / "t.jsonl", 400, rules, "heuristic")
    assert replay_file(path) == []
    objs = read(path)
    assert all(o["rules"] == {**SKAT.rules(), **rules} for o in objs)
    lost = next(o["result"] for o in objs if o["result"]["declarer"] is not None
                and not o["result"]["won"])
    assert sorted(lost["scores"]) == [-2 * lost["game_value"] - 50, 40, 40]
    i = first_line(objs, lambda o: o["result"]["ramsch"] and not o["result"]["durchmarsch"])
    objs[i]["result"]["scores"] = [0, 0, 0]
    report = replay_file(write(tmp_path / "edited.jsonl", objs))
    assert len(report) == 1 and "result.scores" in str(report[0])


def write_trace_path(path: Path, deals: int, rules: dict[str, Any], policy: str,
                     seed: int = 5, first: int = 0) -> Path:
    write_trace(SKAT, seed, first, deals, rules, [policy] * 3, path)
    return path


def first_line(objs: list[dict[str, Any]], pred) -> int:
    return next(i for i, o in enumerate(objs) if pred(o))


def declared(o: dict[str, Any]) -> bool:
    return o["result"]["declarer"] is not None and o["result"]["game"] not in (None, "null")


def test_tampered_score_is_reported(traces: dict[tuple[str, str], Path], tmp_path: Path) -> None:
    objs = read(traces["heuristic", "throw_in"])
    i = first_line(objs, declared)
    d = objs[i]["result"]["declarer"]
    before = list(objs[i]["result"]["scores"])
    objs[i]["result"]["scores"][d] = -before[d] - 1
    msgs = replay_file(write(tmp_path / "t.jsonl", objs))
    assert len(msgs) == 1
    assert msgs[0].startswith(f"deal {objs[i]['deal']} ")
    assert f"result.scores recorded {json.dumps(objs[i]['result']['scores'])}, " \
           f"replayed {json.dumps(before)}" in msgs[0]


def test_tampered_illegal_card_is_reported(traces: dict[tuple[str, str], Path], tmp_path: Path) -> None:
    objs = read(traces["random", "ramsch"])
    i = first_line(objs, lambda o: o["result"]["ramsch"])
    plays = [k for k, a in enumerate(objs[i]["actions"]) if a["type"] == "play"]
    k = plays[4]
    seat = objs[i]["actions"][k]["seat"]
    foreign = objs[i]["cards"]["hands"][(seat + 1) % 3][0]  # never in this seat's hand
    objs[i]["actions"][k]["card"] = foreign
    msgs = replay_file(write(tmp_path / "t.jsonl", objs))
    assert len(msgs) == 1 and msgs[0].startswith(f"deal {objs[i]['deal']} ")
    assert f"action {k} " in msgs[0] and "illegal" in msgs[0] and foreign in msgs[0]


def test_every_result_field_is_compared(tmp_path: Path) -> None:
    objs = read(write_trace_path(tmp_path / "a.jsonl", 20, {}, "random"))
    i = first_line(objs, declared)
    fields = [k for k in objs[i]["result"] if k != "points"]
    for key in fields:
        tampered = json.loads(json.dumps(objs))
        value = tampered[i]["result"][key]
        tampered[i]["result"][key] = (not value if isinstance(value, bool) else
                                      [v + 1 for v in value] if isinstance(value, list) else
                                      value + 1 if isinstance(value, int) else "C" if value != "C" else "S")
        msgs = replay_file(write(tmp_path / "t.jsonl", tampered))
        assert len(msgs) == 1 and f"result.{key} recorded" in msgs[0], key


def test_tampered_dealt_card_is_reported(traces: dict[tuple[str, str], Path], tmp_path: Path) -> None:
    objs = read(traces["heuristic", "ramsch"])
    hands = objs[3]["cards"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    msgs = replay_file(write(tmp_path / "t.jsonl", objs))
    assert len(msgs) == 1 and msgs[0].startswith(f"deal {objs[3]['deal']} ")
    assert "cards.hands[0]" in msgs[0] and "cards.hands[1]" in msgs[0]


def test_tampered_actions_the_kernel_would_accept_are_reported(tmp_path: Path) -> None:
    """A changed hold value (the kernel rejects it), declare.hand (no script steers it) and
    trailing plays are all reported."""
    objs = read(write_trace_path(tmp_path / "a.jsonl", 60, RAMSCH_ANN, "random"))
    i = first_line(objs, lambda o: any(a["type"] == "hold" for a in o["actions"]))
    k = next(k for k, a in enumerate(objs[i]["actions"]) if a["type"] == "hold")
    objs[i]["actions"][k]["value"] += 1
    j = first_line(objs, lambda o: any(a["type"] == "declare" for a in o["actions"]) and o is not objs[i])
    m = next(k for k, a in enumerate(objs[j]["actions"]) if a["type"] == "declare")
    objs[j]["actions"][m]["hand"] = not objs[j]["actions"][m]["hand"]
    n = first_line(objs, lambda o: o["result"]["game"] == "null" and o is not objs[i] and o is not objs[j])
    objs[n]["actions"].append(dict(objs[n]["actions"][-1]))
    msgs = replay_file(write(tmp_path / "t.jsonl", objs))
    assert len(msgs) == 3
    by_deal = {int(msg.split()[1]): msg for msg in msgs}
    assert f"action {k} " in by_deal[objs[i]["deal"]]
    assert f"action {m} recorded" in by_deal[objs[j]["deal"]]
    assert "action" in by_deal[objs[n]["deal"]]


def test_actions_ending_early_are_reported(tmp_path: Path) -> None:
    objs = read(write_trace_path(tmp_path / "a.jsonl", 10, {}, "heuristic"))
    i = first_line(objs, declared)
    del objs[i]["actions"][-1]
    msgs = replay_file(write(tmp_path / "t.jsonl", objs))
    assert len(msgs) == 1 and "actions end" in msgs[0]


def test_replay_of_shuffled_and_mixed_lines(tmp_path: Path) -> None:
    """Lines in any order, from two seeds and two rule sets, in one file."""
    a = read(write_trace_path(tmp_path / "a.jsonl", 25, {}, "heuristic", seed=1))
    b = read(write_trace_path(tmp_path / "b.jsonl", 25, RAMSCH_ANN, "random", seed=2, first=100))
    mixed = [x for pair in zip(reversed(a), b) for x in pair]
    del mixed[7]  # a gap in one run
    mixed[10]["result"]["scores"][0] += 5
    msgs = replay_file(write(tmp_path / "m.jsonl", mixed))
    assert len(msgs) == 1 and f"deal {mixed[10]['deal']} (line 11)" in msgs[0]


# --- bad lines -----------------------------------------------------------------------------

def bad_file(tmp_path: Path, good: dict[str, Any], bad: str) -> Path:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(good) + "\n" + bad + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def good_line() -> dict[str, Any]:
    return next(o for o in trace_lines(SKAT, 3, 0, 20, {}, ["heuristic"] * 3) if declared(o))


def edited(obj: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    obj = json.loads(json.dumps(obj))
    target = obj
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return obj


BAD = {
    "not json": ("{\"game\": \"skat\",", "not valid JSON"),
    "not an object": ("[1, 2]", "not a JSON object"),
    "unknown game": ((("game",), "schafkopf"),
                     "unknown game \"schafkopf\" (games: skat, skat_en_deux, doko_duell, doko_skat)"),
    "unknown option": ((("rules", "kontra"), True), "unknown option 'kontra'"),
    "bad value": ((("rules", "lost_factor"), 3), "option lost_factor: value 3 is not allowed"),
    "missing option": ((("rules", "lost_factor"), KeyError), "rules lack option(s) lost_factor"),
    "missing field": ((("result",), KeyError), "missing field(s) result"),
    "missing result field": ((("result", "scores"), KeyError), "result: missing field(s) scores"),
    "unknown card": ((("cards", "skat", 0), "CX"), "unknown card 'CX'"),
    "unknown played card": ((("actions", -1, "card"), "ZZ"), "play: unknown card 'ZZ'"),
    "unknown action": ((("actions", 0, "type"), "kontra"), "unknown action type 'kontra'"),
    "missing action field": ((("actions", -1, "card"), KeyError), "play: missing field(s) card"),
    "unknown policy": ((("policies", 0), "genius"), "unknown policy 'genius'"),
    "bad seed": ((("seed",), "7"), "seed must be an integer"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_lines_raise_trace_error_with_line_number(case: str, good_line: dict[str, Any],
                                                      tmp_path: Path) -> None:
    change, expected = BAD[case]
    text = change if isinstance(change, str) else json.dumps(edited(good_line, *change))
    with pytest.raises(TraceError) as info:
        replay_file(bad_file(tmp_path, good_line, text))
    message = str(info.value)
    assert message.startswith("line 2: ") and "\n" not in message
    assert expected in message


def test_unknown_game_lists_known_games(tmp_path: Path, good_line: dict[str, Any]) -> None:
    path = bad_file(tmp_path, good_line, json.dumps(edited(good_line, ("game",), "bridge")))
    with pytest.raises(TraceError, match=r"line 2: unknown game .*\(games: skat"):
        replay_file(path)


# --- windows and writing -------------------------------------------------------------------

def test_a_deal_is_the_same_whatever_the_window(tmp_path: Path) -> None:
    for policy, rules in (("heuristic", {}), ("random", RAMSCH_ANN)):
        whole = (tmp_path / "whole.jsonl")
        part = (tmp_path / "part.jsonl")
        chunked = (tmp_path / "chunked.jsonl")
        assert write_trace(SKAT, 99, 0, 10, rules, [policy] * 3, whole) == 10
        assert write_trace(SKAT, 99, 5, 5, rules, [policy] * 3, part) == 5
        write_trace(SKAT, 99, 0, 10, rules, [policy] * 3, chunked, chunk=3)
        lines = whole.read_text().splitlines(keepends=True)
        assert part.read_text() == "".join(lines[5:10])
        assert chunked.read_text() == whole.read_text()


def test_write_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sim.trace as T

    out = tmp_path / "t.jsonl"
    out.write_text("old\n")
    calls = []

    def failing(obj: dict[str, Any]) -> str:
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("disk full")
        return json.dumps(obj)

    monkeypatch.setattr(T, "dump_line", failing)
    with pytest.raises(RuntimeError):
        write_trace(SKAT, 1, 0, 10, {}, ["random"] * 3, out)
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.jsonl"]


def test_bad_arguments_write_nothing(tmp_path: Path) -> None:
    out = tmp_path / "sub" / "t.jsonl"
    with pytest.raises(ValueError, match="unknown option"):
        write_trace(SKAT, 1, 0, 10, {"nope": 1}, ["random"] * 3, out)
    with pytest.raises(ValueError, match="unknown policy"):
        write_trace(SKAT, 1, 0, 10, {}, ["random", "random", "oracle"], out)
    assert not out.parent.exists()


# --- hand-checked facts --------------------------------------------------------------------

SUIT_ORDER = "ATKQ987"
NULL_ORDER = "AKQJT987"
JACKS = ("CJ", "SJ", "HJ", "DJ")


def trick_winner(cards: list[str], game: str) -> int:
    """Winner's position in a trick, written out from RULES.md (independent of sim.tricks)."""
    def trump_rank(c: str) -> int | None:
        if game in ("null",):
            return None
        if c in JACKS:
            return 100 - JACKS.index(c)
        if game in ("C", "S", "H", "D") and c[0] == game:
            return 50 - SUIT_ORDER.index(c[1])
        return None

    def led_suit(c: str) -> str:
        return "T" if trump_rank(c) is not None else c[0]

    order = NULL_ORDER if game == "null" else SUIT_ORDER
    led = led_suit(cards[0])
    best, best_key = 0, None
    for k, c in enumerate(cards):
        t = trump_rank(c)
        key = (2, t) if t is not None else (1, -order.index(c[1])) if c[0] == led and led != "T" else (0, 0)
        if best_key is None or key > best_key:
            best, best_key = k, key
    return best


def points(cards: list[str]) -> int:
    return sum(int(SKAT_DECK.points[SKAT_DECK.index(c)]) for c in cards)


def test_hand_checked_facts(traces: dict[tuple[str, str], Path]) -> None:
    played_out = 0
    for obj in all_lines(traces):
        result, acts = obj["result"], obj["actions"]
        hands = [set(h) for h in obj["cards"]["hands"]]
        skat = list(obj["cards"]["skat"])
        game = "ramsch" if result["ramsch"] else result["game"]
        declarer = result["declarer"]
        for a in acts:
            if a["type"] == "pickup":
                hands[a["seat"]] |= set(skat)
            if a["type"] == "discard":
                assert set(a["cards"]) <= hands[a["seat"]]
                hands[a["seat"]] -= set(a["cards"])
                skat = a["cards"]
        plays = [a for a in acts if a["type"] == "play"]
        for a in plays:  # every card played was in the player's hand
            assert a["card"] in hands[a["seat"]]
            hands[a["seat"]].remove(a["card"])
        if result["passed_out"]:
            assert not plays
            continue
        # replay the tricks by hand
        leader = (obj["dealer"] + 1) % 3
        won_points, won_tricks = [0, 0, 0], [0, 0, 0]
        for t in range(0, len(plays), 3):
            trick = plays[t:t + 3]
            assert [a["seat"] for a in trick] == [(leader + k) % 3 for k in range(3)]
            w = (leader + trick_winner([a["card"] for a in trick], game)) % 3
            won_points[w] += points([a["card"] for a in trick])
            won_tricks[w] += 1
            leader = w
        if game == "null":
            assert len(plays) % 3 == 0
            assert result["won"] == (won_tricks[declarer] == 0)
            if won_tricks[declarer]:  # the game ends at the declarer's first trick
                assert won_tricks[declarer] == 1 and leader == declarer
            else:
                assert len(plays) == 30
            continue
        assert len(plays) == 30
        played_out += 1
        if game == "ramsch":
            won_points[leader] += points(skat)
            assert won_points == result["points"] and sum(won_points) == 120
            continue
        assert won_points[declarer] + points(skat) == result["declarer_points"]
        assert sum(won_points) + points(skat) == 120
        assert won_tricks[declarer] == result["declarer_tricks"]
    assert played_out > 500


def test_scores_follow_the_rules_by_hand(traces: dict[tuple[str, str], Path]) -> None:
    """Won: + value to the declarer; lost: - 2 x value; ramsch: most points lose them."""
    for obj in all_lines(traces):
        r = obj["result"]
        if r["passed_out"]:
            continue
        if r["ramsch"]:
            if r["durchmarsch"]:
                assert sorted(r["scores"]) == [0, 0, 120]
            else:
                most = max(r["points"])
                assert r["scores"] == [-p if p == most else 0 for p in r["points"]]
            continue
        expect = [0, 0, 0]
        expect[r["declarer"]] = r["game_value"] if r["won"] else -2 * r["game_value"]
        assert r["scores"] == expect
        if r["game"] not in ("null",) and not r["overbid"]:
            base = {"C": 12, "S": 11, "H": 10, "D": 9, "grand": 24}[r["game"]]
            assert r["game_value"] % base == 0 and r["game_value"] >= r["bid"]


# --- golden traces -------------------------------------------------------------------------

def clipped(a: list[str], b: list[str], width: int = 300) -> tuple[list[str], list[str]]:
    """Both files' lines cut to a window around where line ``i`` of one first differs from
    line ``i`` of the other (trace lines are long)."""
    out_a, out_b = [], []
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else ""
        y = b[i] if i < len(b) else ""
        at = next((k for k, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
        start = max(0, at - width // 2)
        cut = [("..." if start else "") + t[start:start + width] + ("..." if len(t) > start + width else "")
               for t in (x, y)]
        if i < len(a):
            out_a.append(f"{i + 1}: {cut[0]}")
        if i < len(b):
            out_b.append(f"{i + 1}: {cut[1]}")
    return out_a, out_b


@pytest.mark.parametrize("name", sorted(regenerate.GOLDEN))
def test_golden_trace_is_unchanged(name: str, tmp_path: Path) -> None:
    committed = GOLDEN_DIR / name
    fresh = regenerate.regenerate(name, tmp_path)
    old, new = committed.read_bytes(), fresh.read_bytes()
    if old != new:
        a, b = clipped(old.decode().splitlines(), new.decode().splitlines())
        diff = list(difflib.unified_diff(a, b, f"committed {name}", f"regenerated {name}", n=0,
                                         lineterm=""))
        shown = "\n".join(diff[:12])
        pytest.fail(f"golden trace {name} changed ({len(diff)} diff lines; first ones below).\n"
                    f"{shown}\nIf the change is intended, regenerate and review:\n"
                    f"    .venv/bin/python tests/golden/regenerate.py {name}\n"
                    f"    git diff tests/golden/{name}", pytrace=False)


@pytest.mark.parametrize("name", sorted(regenerate.GOLDEN))
def test_golden_trace_replays(name: str) -> None:
    assert replay_file(GOLDEN_DIR / name) == []


def test_declaration_codes_round_trip() -> None:
    from sim.games.skat_family import trace as T

    codes = [g | f for g in range(5) for f in (0, 16, 48, 56)] + [5, 5 | 8]
    for code in codes:
        for hand in (False, True):
            fields = T.declaration_fields(code, hand)
            assert T.declaration_code(fields) == code and fields["hand"] is hand
            assert set(fields) == ACTION_FIELDS["declare"]
    with pytest.raises(TraceError, match="unknown game"):
        T.declaration_code({"game": "ramsch", "ouvert": False, "schneider_announced": False,
                            "schwarz_announced": False})
    for game in range(5):  # skat_en_deux's open levels sit at DECL_OPEN_SHIFT
        for level in (1, 2):
            code = game | level << 6
            fields = T.declaration_fields(code, False)
            assert fields["open_level"] == level and T.declaration_code(fields) == code
    with pytest.raises(TraceError, match="open_level must be 0, 1 or 2"):
        T.declaration_code(dict(T.declaration_fields(0, False), open_level=3))


# --- skat_en_deux --------------------------------------------------------------------------

DEUX_RULES = {
    # name: (policy, rules); together they cover offers, contra_re, both all_pass values,
    # open_hand, give_up_after_pickup, give_up_at_18 off and lost_factor 1
    "random": ("random", {}),
    "random_contra_open_throw_in": ("random", {"contra_re": True, "open_hand": True,
                                               "all_pass": "throw_in"}),
    "random_pickup_give_up": ("random", {"give_up_after_pickup": True, "lost_factor": 1}),
    "random_offers": ("random", {"offers": True}),
    "heuristic": ("heuristic", {}),
    "heuristic_contra": ("heuristic", {"contra_re": True, "open_hand": True}),
    "heuristic_pickup_give_up": ("heuristic", {"give_up_after_pickup": True,
                                               "give_up_at_18": False, "all_pass": "throw_in"}),
}
DEUX_ACTION_FIELDS = dict(ACTION_FIELDS, give_up={"game"}, offer={"offer"}, accept=set(),
                          reject=set(), contra=set(), re=set())
DEUX_EXTRA_RESULT = {"ramsch", "points", "open_level", "give_up", "offer", "second_offer_trick",
                     "accepted", "contra", "re", "ramsch_loser", "ramsch_tie_last_trick"}


@pytest.fixture(scope="module")
def deux_traces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("deux")
    out = {}
    for name, (policy, rules) in DEUX_RULES.items():
        out[name] = folder / f"{name}.jsonl"
        assert write_trace(DEUX, 2024, 0, 300, rules, [policy] * 2, out[name]) == 300
    return out


def deux_lines(traces: dict[str, Path]) -> list[dict[str, Any]]:
    return [obj for path in traces.values() for obj in read(path)]


def deux_places(obj: dict[str, Any]) -> tuple[int, int]:
    """(forehand player, rearhand player = dealer)."""
    return 1 - obj["dealer"], obj["dealer"]


def test_skat_en_deux_every_trace_md_field(deux_traces: dict[str, Path]) -> None:
    seen_types, seen_from, seen_results = set(), set(), set()
    for obj in deux_lines(deux_traces):
        assert list(obj)[:len(FIELDS)] == list(FIELDS)
        assert obj["game"] == "skat_en_deux" and obj["seed"] == 2024
        assert obj["rules"] == DEUX.rules(obj["rules"]) and set(obj["rules"]) == set(DEUX.rules())
        assert len(obj["policies"]) == 2 and obj["dealer"] == obj["deal"] % 2
        cards = obj["cards"]
        assert list(cards) == ["hands", "blind", "skat"]
        assert [len(h) for h in cards["hands"]] == [10, 10]
        assert len(cards["blind"]) == 10 and len(cards["skat"]) == 2
        everything = [c for h in cards["hands"] for c in h] + cards["blind"] + cards["skat"]
        assert sorted(everything) == sorted(SKAT_DECK.names)
        for h in cards["hands"] + [cards["blind"], cards["skat"]]:
            assert h == sorted(h, key=SKAT_DECK.names.index)
        result = obj["result"]
        declarer = result["declarer"]
        for action in obj["actions"]:
            kind = action["type"]
            assert set(action) == {"type", "seat"} | DEUX_ACTION_FIELDS[kind]
            assert action["seat"] in (0, 1)
            seen_types.add(kind)
            if kind == "declare":
                assert action["open_level"] in (0, 1, 2) and action["seat"] == declarer
                assert not action["schneider_announced"] and not action["schwarz_announced"]
                assert action["open_level"] == result["open_level"]
                if action["open_level"]:
                    assert action["game"] not in ("null",) and not action["ouvert"]
                    assert obj["rules"]["open_hand"] or not action["hand"]
            if kind == "offer":
                assert action["offer"] in ("raus", "stich") and action["seat"] != declarer
                first = next(a for a in obj["actions"] if a["type"] == "offer")
                assert first["offer"] == result["offer"]
                assert action is first or (action["offer"] == "stich" and first["offer"] == "raus"
                                           and result["second_offer_trick"] is not None)
            if kind in ("accept", "reject", "re", "give_up", "pickup", "hand", "discard"):
                assert action["seat"] == declarer
            if kind == "contra":
                assert action["seat"] != declarer
            if kind == "play":
                seen_from.add(action["from"])
                assert action["card"] in SKAT_DECK.names
                if action["from"] == "blind":  # the defender plays the blind
                    assert action["card"] in cards["blind"] and action["seat"] != declarer
                else:
                    assert action["card"] not in cards["blind"]
        assert RESULT_FIELDS | DEUX_EXTRA_RESULT <= set(result)
        assert len(result["scores"]) == 2
        kinds = [a["type"] for a in obj["actions"]]
        if result["passed_out"]:
            kind = "passed"
            assert result["declarer"] is None and result["game"] is None
            assert result["scores"] == [0, 0] and obj["rules"]["all_pass"] == "throw_in"
            assert [a["type"] for a in obj["actions"]] == ["pass", "pass"]
        elif result["ramsch"]:
            kind = "ramsch"
            fh, rh = deux_places(obj)
            assert kinds[:3] == ["pass", "pass", "ramsch"] and obj["actions"][2]["seat"] == fh
            assert len(result["points"]) == 2 and kinds.count("play") == 20
            # the blind stays out; the skat is not included
            assert sum(result["points"]) + points(cards["skat"]) + points(cards["blind"]) == 120
            loser = result["ramsch_loser"]
            assert loser in (0, 1) and result["scores"][1 - loser] == 0
            assert result["scores"][loser] == -(result["points"][loser] + points(cards["skat"]))
            assert result["ramsch_tie_last_trick"] == (result["points"][0] == result["points"][1])
        elif result["give_up"]:
            kind = "give_up"
            assert kinds[-1] == "give_up" and "play" not in kinds and "declare" not in kinds
            assert result["won"] is False and result["matadors"] is None
            assert result["scores"][1 - declarer] == 0 and not obj["rules"]["contra_re"]
            # the give-up names the intended game after the pickup, none at 18 (- 60)
            assert obj["actions"][-1]["game"] == result["game"]
            if result["game"] is None:
                assert result["bid"] == 18 and result["scores"][declarer] == -60
            else:
                assert "pickup" in kinds and result["game"] in ("C", "S", "H", "D", "grand")
        else:
            kind = result["game"]
            assert result["ramsch_loser"] is None and not result["ramsch_tie_last_trick"]
            assert (result["matadors"] is None) == (kind == "null")
            assert result["accepted"] == ("accept" in kinds) and result["contra"] == ("contra" in kinds)
            assert result["re"] == ("re" in kinds) and (result["offer"] is None) == ("offer" not in kinds)
            if result["accepted"]:
                assert obj["actions"][-1]["type"] == "accept" and result["won"]
        seen_results.add(kind)
    assert seen_types == set(DEUX_ACTION_FIELDS)
    assert seen_from == {"hand", "blind"}
    assert {"passed", "ramsch", "give_up", "grand", "null", "C", "S", "H", "D"} <= seen_results


def test_skat_en_deux_tricks_by_hand(deux_traces: dict[str, Path]) -> None:
    """Forehand, the blind, rearhand in turn; each card from its player's hand or the blind;
    card points and tricks recounted by hand (RULES.md), independent of the engine."""
    played_out = 0
    for obj in deux_lines(deux_traces):
        result, acts = obj["result"], obj["actions"]
        if result["passed_out"] or result["give_up"]:
            continue
        fh, rh = deux_places(obj)
        blind = set(obj["cards"]["blind"])
        hands = [set(h) for h in obj["cards"]["hands"]]
        skat = list(obj["cards"]["skat"])
        for a in acts:
            if a["type"] == "pickup":
                hands[a["seat"]] |= set(skat)
            if a["type"] == "discard":
                hands[a["seat"]] -= set(a["cards"])
                skat = a["cards"]
        plays = [a for a in acts if a["type"] == "play"]
        for a in plays:
            source = blind if a["from"] == "blind" else hands[a["seat"]]
            assert a["card"] in source
            source.remove(a["card"])
        ramsch = result["ramsch"]
        game = "ramsch" if ramsch else result["game"]
        n = 2 if ramsch else 3
        who = [fh, rh] if ramsch else [fh, None, rh]  # places: forehand, (blind,) rearhand
        declarer = result["declarer"]
        won_points, won_tricks = [0, 0], [0, 0]
        leader = 0
        for t in range(0, len(plays), n):
            trick = plays[t:t + n]
            places = [(leader + k) % n for k in range(n)]
            for place, a in zip(places, trick):
                assert (a["from"] == "blind") == (not ramsch and place == 1)
                assert a["seat"] == (1 - declarer if who[place] is None else who[place])
            w = places[trick_winner([a["card"] for a in trick], game)]
            taker = trick[places.index(w)]["seat"]
            won_points[taker] += points([a["card"] for a in trick])
            won_tricks[taker] += 1
            leader = w
        if ramsch:
            assert won_points == result["points"]
            continue
        if game == "null":
            assert result["won"] == (won_tricks[declarer] == 0)
            continue
        assert result["declarer_points"] == won_points[declarer] + points(skat)
        assert result["declarer_tricks"] == won_tricks[declarer]
        if len(plays) == 30:
            played_out += 1
        else:
            assert result["accepted"]
    assert played_out > 300


def test_skat_en_deux_replay_of_fresh_traces_finds_nothing(deux_traces: dict[str, Path]) -> None:
    for name, path in deux_traces.items():
        assert replay_file(path) == [], name


def replay_one(tmp_path: Path, objs: list[dict[str, Any]]) -> str:
    msgs = replay_file(write(tmp_path / "t.jsonl", objs))
    assert len(msgs) == 1, msgs
    return msgs[0]


def test_skat_en_deux_blind_card_from_the_wrong_place_is_reported(deux_traces: dict[str, Path],
                                                                  tmp_path: Path) -> None:
    objs = read(deux_traces["heuristic"])
    i = first_line(objs, lambda o: any(a.get("from") == "blind" for a in o["actions"]))
    k = next(k for k, a in enumerate(objs[i]["actions"]) if a.get("from") == "blind")
    objs[i]["actions"][k]["from"] = "hand"
    msg = replay_one(tmp_path, objs)
    assert msg.startswith(f"deal {objs[i]['deal']} ") and f"action {k} " in msg and "illegal" in msg
    # a hand card said to come from the blind, and a blind card played by the declarer
    objs = read(deux_traces["heuristic"])
    m = next(k for k, a in enumerate(objs[i]["actions"]) if a.get("from") == "hand")
    objs[i]["actions"][m]["from"] = "blind"
    assert f"action {m} " in replay_one(tmp_path, objs)
    objs = read(deux_traces["heuristic"])
    objs[i]["actions"][k]["seat"] = objs[i]["result"]["declarer"]
    assert f"action {k} " in replay_one(tmp_path, objs)


def test_skat_en_deux_changed_offer_is_reported(deux_traces: dict[str, Path], tmp_path: Path) -> None:
    for accepted in (True, False):
        objs = read(deux_traces["random_contra_open_throw_in"])
        i = first_line(objs, lambda o: o["result"]["offer"] is not None
                       and o["result"]["second_offer_trick"] is None
                       and o["result"]["accepted"] is accepted)
        k = next(k for k, a in enumerate(objs[i]["actions"]) if a["type"] == "offer")
        other = {"raus": "stich", "stich": "raus"}[objs[i]["actions"][k]["offer"]]
        objs[i]["actions"][k]["offer"] = other
        msg = replay_one(tmp_path, objs)
        assert msg.startswith(f"deal {objs[i]['deal']} ") and "result.offer recorded" in msg
        # an offer removed, or one more trick played before it
        objs = read(deux_traces["random_contra_open_throw_in"])
        del objs[i]["actions"][k]
        assert replay_one(tmp_path, objs).startswith(f"deal {objs[i]['deal']} ")
        objs = read(deux_traces["random_contra_open_throw_in"])
        acts = objs[i]["actions"]
        acts[k:k + 1] = []
        acts.insert(k + 3, {"type": "offer", "seat": 1 - objs[i]["result"]["declarer"],
                            "offer": other})
        assert replay_one(tmp_path, objs).startswith(f"deal {objs[i]['deal']} ")


def test_skat_en_deux_removed_contra_and_re_are_reported(deux_traces: dict[str, Path],
                                                         tmp_path: Path) -> None:
    objs = read(deux_traces["random_contra_open_throw_in"])
    i = first_line(objs, lambda o: o["result"]["contra"] and not o["result"]["re"])
    k = next(k for k, a in enumerate(objs[i]["actions"]) if a["type"] == "contra")
    del objs[i]["actions"][k]
    msg = replay_one(tmp_path, objs)
    assert msg.startswith(f"deal {objs[i]['deal']} ")
    assert "result.contra recorded true, replayed false" in msg and "result.game_value" in msg
    objs = read(deux_traces["random_contra_open_throw_in"])
    j = first_line(objs, lambda o: o["result"]["re"])
    m = next(k for k, a in enumerate(objs[j]["actions"]) if a["type"] == "re")
    del objs[j]["actions"][m]
    assert "result.re recorded true, replayed false" in replay_one(tmp_path, objs)
    objs = read(deux_traces["random_contra_open_throw_in"])  # Contra gone, Re left
    m = next(k for k, a in enumerate(objs[j]["actions"]) if a["type"] == "contra")
    del objs[j]["actions"][m]
    assert replay_one(tmp_path, objs).startswith(f"deal {objs[j]['deal']} ")


def test_skat_en_deux_edited_score_is_reported(deux_traces: dict[str, Path], tmp_path: Path) -> None:
    def give_up(o: dict) -> bool:
        return o["result"]["give_up"]

    for pred in (lambda o: o["result"]["ramsch"], give_up, lambda o: o["result"]["accepted"],
                 declared):
        name = "random" if pred is declared else "heuristic" if pred is give_up else \
            "heuristic_contra"
        objs = read(deux_traces[name])
        i = first_line(objs, pred)
        before = list(objs[i]["result"]["scores"])
        objs[i]["result"]["scores"][objs[i]["deal"] % 2] += 10
        msg = replay_one(tmp_path, objs)
        assert msg.startswith(f"deal {objs[i]['deal']} ")
        assert f"result.scores recorded {json.dumps(objs[i]['result']['scores'])}, " \
               f"replayed {json.dumps(before)}" in msg


def test_skat_en_deux_every_result_field_is_compared(deux_traces: dict[str, Path],
                                                     tmp_path: Path) -> None:
    objs = read(deux_traces["random_contra_open_throw_in"])
    i = first_line(objs, lambda o: o["result"]["contra"] and o["result"]["game"] != "null")
    for key, value in objs[i]["result"].items():
        if key == "points":
            continue
        tampered = json.loads(json.dumps(objs))
        tampered[i]["result"][key] = (not value if isinstance(value, bool) else
                                      [v + 1 for v in value] if isinstance(value, list) else
                                      value + 1 if isinstance(value, int) else
                                      "raus" if key == "offer" and value != "raus" else
                                      "stich" if key == "offer" else
                                      1 if value is None else "C" if value != "C" else "S")
        assert f"result.{key} recorded" in replay_one(tmp_path, tampered), key


def test_skat_en_deux_tampered_declaration_and_cards_are_reported(deux_traces: dict[str, Path],
                                                                  tmp_path: Path) -> None:
    objs = read(deux_traces["heuristic"])
    i = first_line(objs, lambda o: any(a["type"] == "declare" and a["open_level"] == 1
                                       for a in o["actions"]))
    k = next(k for k, a in enumerate(objs[i]["actions"]) if a["type"] == "declare")
    objs[i]["actions"][k]["open_level"] = 2
    msg = replay_one(tmp_path, objs)
    assert msg.startswith(f"deal {objs[i]['deal']} ") and "open_level" in msg
    objs = read(deux_traces["heuristic"])
    blind, hand = objs[4]["cards"]["blind"], objs[4]["cards"]["hands"][0]
    blind[0], hand[0] = hand[0], blind[0]
    msg = replay_one(tmp_path, objs)
    assert "cards.blind recorded" in msg and "cards.hands[0] recorded" in msg


DEUX_BAD = {
    "unknown offer": (lambda o: a_of(o, "offer"), "offer", "kontra", "offer: unknown offer 'kontra'"),
    "unknown from": (lambda o: a_of(o, "play"), "from", "pyramid", "play: unknown from 'pyramid'"),
    "seat 2": (lambda o: a_of(o, "play"), "seat", 2, "play: seat must be 0..1, got 2"),
    "open level 3": (lambda o: a_of(o, "declare"), "open_level", 3,
                     "declare: open_level must be 0, 1 or 2"),
}


def a_of(obj: dict[str, Any], kind: str) -> tuple[Any, ...]:
    return ("actions", next(k for k, a in enumerate(obj["actions"]) if a["type"] == kind))


@pytest.mark.parametrize("case", list(DEUX_BAD) + ["no blind", "three hands"])
def test_skat_en_deux_bad_lines(case: str, deux_traces: dict[str, Path], tmp_path: Path) -> None:
    good = next(o for o in read(deux_traces["heuristic_contra"]) if o["result"]["offer"])
    if case == "no blind":
        bad, expected = edited(good, ("cards", "blind"), KeyError), "cards: missing field 'blind'"
    elif case == "three hands":
        bad = edited(good, ("cards", "hands"), good["cards"]["hands"] + [[]])
        expected = "cards.hands must be 2 lists"
    else:
        where, key, value, expected = DEUX_BAD[case]
        bad = edited(good, (*where(good), key), value)
    with pytest.raises(TraceError) as info:
        replay_file(bad_file(tmp_path, good, json.dumps(bad)))
    assert str(info.value).startswith("line 2: ") and expected in str(info.value)


def test_skat_en_deux_window_and_codec_registry(tmp_path: Path) -> None:
    assert traced_games()[:2] == ["skat", "skat_en_deux"]
    assert trace_codec(DEUX).n_players == 2 and trace_codec(SKAT).n_players == 3
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    rules = {"contra_re": True}
    write_trace(DEUX, 5, 0, 12, rules, ["random", "heuristic"], whole, chunk=5)
    write_trace(DEUX, 5, 7, 5, rules, ["random", "heuristic"], part)
    assert part.read_text() == "".join(whole.read_text().splitlines(keepends=True)[7:])

    import dataclasses

    assert traced_games() == list(GAMES)
    undeclared = dataclasses.replace(DEUX, trace_codec="sim.cards")
    with pytest.raises(TypeError, match=r"game skat_en_deux: sim.cards.CODEC is not a trace codec"):
        trace_codec(undeclared)


def test_skat_en_deux_trace_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sim.cli import main

    out = tmp_path / "t.jsonl"
    assert main(["trace", "skat_en_deux", "--deals", "3", "--seed", "1", "--out", str(out)]) == 0
    objs = read(out)
    assert [o["deal"] for o in objs] == [0, 1, 2]
    assert all(o["game"] == "skat_en_deux" and o["policies"] == ["heuristic"] * 2 for o in objs)
    assert objs == list(trace_lines(DEUX, 1, 0, 3, {}, ["heuristic"] * 2))
    assert main(["replay", str(out)]) == 0
    assert "3 deals replayed, 0 differ" in capsys.readouterr().out


# --- doko_duell ----------------------------------------------------------------------------

DOKO = find_game("doko_duell")
DOKO_RULES = {
    # name: (policies, rules); together they cover every option value
    "heuristic": (["heuristic"] * 2, {}),
    "random": (["random"] * 2, {}),
    "random_golden": (["random"] * 2, {"equal_cards": "second_heart_ten", "b_marker_supply": "none",
                                       "b_one_per_trick": True, "b_marker_mode": "v2",
                                       "tie_rule": "last_trick", "a_marker_on_setup": False}),
    "heuristic_second": (["heuristic"] * 2, {"equal_cards": "second_wins", "b_one_per_trick": True,
                                             "tie_rule": "b_markers"}),
    "mixed": (["random", "heuristic"], {"tie_rule": "starter_wins", "b_marker_mode": "v2",
                                        "b_marker_supply": "none"}),
    "mixed_back": (["heuristic", "random"], {"tie_rule": "starter_loses", "tie_win_base": 1}),
    "random_tricks": (["random"] * 2, {"tie_rule": "more_tricks", "a_marker_on_setup": False}),
}
DOKO_RESULT_FIELDS = ["points", "tricks", "a_markers", "b_markers", "winner", "vp", "starter", "tie",
                      "supply_exhausted", "last_trick_winner", "b_events", "events"]
B_KINDS = ("fox", "karlchen", "identical", "twenty_two", "pin")


@pytest.fixture(scope="module")
def doko_traces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("doko")
    out = {}
    for name, (policies, rules) in DOKO_RULES.items():
        out[name] = folder / f"{name}.jsonl"
        assert write_trace(DOKO, 2024, 0, 250, rules, policies, out[name]) == 250
    return out


def doko_lines(traces: dict[str, Path]) -> list[dict[str, Any]]:
    return [obj for path in traces.values() for obj in read(path)]


# The game written out from RULES.md, independent of sim.games.doko_duell.game.
DOKO_TRUMPS = ["HT", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "DT", "DK"]  # high first
DOKO_PLAIN = "ATK"  # plain suits, high first (hearts: A K)
COVERS = {4: (0, 1), 5: (1, 2), 6: (2, 3), 7: (4, 5), 9: (5, 6), 8: (7,), 10: (9,), 11: (8, 10)}
FACE_UP = (0, 1, 2, 3, 7, 9)
TOP_TRUMPS = ("HT", "CQ")
DOKO_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def doko_suit(card: str) -> str:
    return "trump" if card in DOKO_TRUMPS else card[0]


def second_wins(first: str, second: str, equal_cards: str) -> bool:
    if first == second:
        return equal_cards == "second_wins" or (equal_cards == "second_heart_ten" and first == "HT")
    if doko_suit(second) == "trump":
        return doko_suit(first) != "trump" or DOKO_TRUMPS.index(second) < DOKO_TRUMPS.index(first)
    return doko_suit(first) == second[0] and DOKO_PLAIN.index(second[1]) < DOKO_PLAIN.index(first[1])


def doko_vp(r: dict[str, Any], rules: dict[str, Any]) -> tuple[int | None, list[int]]:
    """Winner and victory points from a result's counts, as RULES.md settles them."""
    p, t, a, b = r["points"], r["tricks"], r["a_markers"], r["b_markers"]
    winner = None
    if p[0] != p[1]:
        winner = 0 if p[0] > p[1] else 1
    else:
        rule = rules["tie_rule"]
        if rule == "last_trick":
            winner = r["last_trick_winner"]
        elif rule in ("starter_wins", "starter_loses"):
            winner = r["starter"] if rule == "starter_wins" else 1 - r["starter"]
        elif rule == "more_tricks" and t[0] != t[1]:
            winner = 0 if t[0] > t[1] else 1
        elif rule == "b_markers" and b[0] != b[1]:
            winner = 0 if b[0] > b[1] else 1
    if winner is None:
        return None, [0, 0]
    loser = 1 - winner
    lp = p[loser]
    base = 10 if t[loser] == 0 else 5 if lp < 30 else 3 if lp < 60 else 2 if lp < 90 else 1
    if lp == 120:  # a tie won by the rule: the loser has 120, in no band (revision 3)
        base = rules["tie_win_base"]
    total = base + a[loser] + b[winner] - b[loser]
    if rules["b_marker_mode"] == "v1":
        total = max(total, 1)
    vp = [0, 0]
    vp[winner], vp[loser] = max(total, 0), max(-total, 0)
    return winner, vp


def doko_by_hand(obj: dict[str, Any]) -> dict[str, Any]:
    """Play a doko_duell trace line by hand: check every play (place, freedom, follow duty)
    and return the result it comes to (without VP)."""
    rules = obj["rules"]
    hands = [list(h) for h in obj["cards"]["hands"]]
    pyramid = [list(p) for p in obj["cards"]["pyramids"]]
    present = [set(range(12)), set(range(12))]
    face_up = [set(FACE_UP), set(FACE_UP)]
    supply = 12 if rules["b_marker_supply"] == "12" else None
    events: list[dict[str, Any]] = []
    b_events = {k: [0, 0] for k in B_KINDS}
    out = {"points": [0, 0], "tricks": [0, 0], "a_markers": [0, 0], "b_markers": [0, 0],
           "supply_exhausted": False}

    def free(s: int) -> list[int]:
        return [k for k in present[s] if k in face_up[s] and not present[s] & set(COVERS.get(k, ()))]

    def a_marker(trick: int | None, s: int) -> None:
        events.append({"trick": trick, "player": s, "kind": "A"})
        out["a_markers"][s] += 1

    if rules["a_marker_on_setup"]:
        for s in range(2):
            for k in range(12):
                if k in FACE_UP and pyramid[s][k] in TOP_TRUMPS:
                    a_marker(None, s)
    plays = obj["actions"]
    assert len(plays) == 40 and all(a["type"] == "play" for a in plays)
    leader = 1 - obj["dealer"]
    for t in range(20):
        trick = plays[2 * t:2 * t + 2]
        assert [a["seat"] for a in trick] == [leader, 1 - leader]
        for n, a in enumerate(trick):
            s, card = a["seat"], a["card"]
            options = hands[s] + [pyramid[s][k] for k in free(s)]
            if a["from"] == "hand":
                assert card in hands[s]
                hands[s].remove(card)
            else:
                k = int(a["from"][1:])
                assert k in free(s) and pyramid[s][k] == card
                present[s].remove(k)
            if n == 1 and doko_suit(card) != doko_suit(trick[0]["card"]):
                assert all(doko_suit(c) != doko_suit(trick[0]["card"]) for c in options)
            if a["from"] == "hand" and card in TOP_TRUMPS:
                a_marker(t, s)
        first, second = trick[0]["card"], trick[1]["card"]
        won_by_second = second_wins(first, second, rules["equal_cards"])
        winner = 1 - leader if won_by_second else leader
        win_card, lose_card = (second, first) if won_by_second else (first, second)
        points = DOKO_POINTS[first[1]] + DOKO_POINTS[second[1]]
        out["points"][winner] += points
        out["tricks"][winner] += 1
        happened = {"fox": lose_card == "DA", "karlchen": win_card == "CJ",
                    "identical": first == second, "twenty_two": points == 22,
                    "pin": t == 19 and win_card == "DA"}
        awarded = 0
        for kind in B_KINDS:
            if not happened[kind]:
                continue
            events.append({"trick": t, "player": winner, "kind": kind})
            b_events[kind][winner] += 1
            if rules["b_one_per_trick"] and awarded:
                continue
            awarded += 1
            if supply == 0:
                out["supply_exhausted"] = True
                continue
            out["b_markers"][winner] += 1
            if supply is not None:
                supply -= 1
                out["supply_exhausted"] |= supply == 0
        for s in range(2):
            for k in range(12):
                if k in present[s] and k not in face_up[s] and not present[s] & set(COVERS.get(k, ())):
                    face_up[s].add(k)
                    if pyramid[s][k] in TOP_TRUMPS:
                        a_marker(t, s)
        leader = winner
    assert hands == [[], []] and present == [set(), set()]
    out.update(last_trick_winner=leader, starter=1 - obj["dealer"], b_events=b_events,
               events=events)
    return out


def test_doko_duell_every_trace_md_field(doko_traces: dict[str, Path]) -> None:
    deck = DOKO.deck
    seen_from, seen_kinds, seen_winners = set(), set(), set()
    for obj in doko_lines(doko_traces):
        assert list(obj) == list(FIELDS)
        assert obj["game"] == "doko_duell" and obj["seed"] == 2024
        assert obj["rules"] == DOKO.rules(obj["rules"]) and set(obj["rules"]) == set(DOKO.rules())
        assert len(obj["policies"]) == 2 and obj["dealer"] == obj["deal"] % 2
        cards = obj["cards"]
        assert list(cards) == ["hands", "pyramids"]
        assert [len(h) for h in cards["hands"]] == [8, 8]
        assert [len(p) for p in cards["pyramids"]] == [12, 12]
        everything = [c for part in cards["hands"] + cards["pyramids"] for c in part]
        assert sorted(everything) == sorted(deck.names)
        for h in cards["hands"]:  # deck order, both copies side by side
            assert h == sorted(h, key=deck.names.index)
        for a in obj["actions"]:
            assert set(a) == {"type", "seat", "card", "from"} and a["type"] == "play"
            seen_from.add(a["from"])
        r = obj["result"]
        assert list(r) == DOKO_RESULT_FIELDS
        assert sum(r["points"]) == 240 and sum(r["tricks"]) == 20
        assert r["starter"] == 1 - obj["dealer"] and r["tie"] == (r["points"] == [120, 120])
        assert list(r["b_events"]) == list(B_KINDS)
        for e in r["events"]:
            assert list(e) == ["trick", "player", "kind"] and e["player"] in (0, 1)
            assert e["kind"] in ("A",) + B_KINDS
            assert e["kind"] == "A" if e["trick"] is None else 0 <= e["trick"] < 20
            seen_kinds.add(e["kind"])
        seen_winners.add(r["winner"])
        if obj["rules"]["b_marker_supply"] == "12":
            assert sum(r["b_markers"]) <= 12
    assert seen_from == {"hand"} | {f"p{k}" for k in range(12)}
    assert seen_kinds == {"A"} | set(B_KINDS)
    assert seen_winners == {0, 1, None}


def test_doko_duell_played_by_hand(doko_traces: dict[str, Path]) -> None:
    """Every play is from its place, free and follows suit where it must; the result's
    counts, the events in their order and the VP are those RULES.md gives."""
    ties = both_copies = 0
    for obj in doko_lines(doko_traces):
        r = obj["result"]
        mine = doko_by_hand(obj)
        for key, value in mine.items():
            assert r[key] == value, (obj["deal"], key)
        assert doko_vp(r, obj["rules"]) == (r["winner"], r["vp"]), obj["deal"]
        ties += r["tie"]
        names = [(a["seat"], a["card"]) for a in obj["actions"]]
        both_copies += len(set(names)) < len(names)
    assert ties and both_copies


def test_doko_duell_empty_box_by_hand(tmp_path: Path) -> None:
    """Deals that empty the box of 12 (rare: found through the result columns) are traced,
    played by hand and replayed like any other."""
    for rules in ({}, {"equal_cards": "second_wins", "tie_rule": "more_tricks"}):
        cols = play(DOKO, 2024, 0, 20_000, DOKO.rules(rules), ["random"] * 2).columns
        deals = [int(d) for d in cols["deal"][cols["supply_exhausted"]][:3]]
        assert deals
        objs = [obj for d in deals for obj in trace_lines(DOKO, 2024, d, 1, rules, ["random"] * 2)]
        for obj in objs:
            r = obj["result"]
            assert r["supply_exhausted"] and sum(r["b_markers"]) == 12
            assert sum(sum(v) for v in r["b_events"].values()) >= 12
            mine = doko_by_hand(obj)
            assert all(r[key] == value for key, value in mine.items())
            assert doko_vp(r, obj["rules"]) == (r["winner"], r["vp"])
        assert replay_file(write(tmp_path / "t.jsonl", objs)) == []


def test_doko_duell_replay_of_fresh_traces_finds_nothing(doko_traces: dict[str, Path]) -> None:
    for name, path in doko_traces.items():
        assert replay_file(path) == [], name


def test_doko_duell_card_from_the_wrong_place_is_reported(doko_traces: dict[str, Path],
                                                          tmp_path: Path) -> None:
    objs = read(doko_traces["heuristic"])
    # a pyramid card said to come from another position, from the hand, or a covered card
    i = first_line(objs, lambda o: True)
    k = next(k for k, a in enumerate(objs[i]["actions"]) if a["from"] != "hand")
    a = objs[i]["actions"][k]
    pyramid = objs[i]["cards"]["pyramids"][a["seat"]]
    other = next(p for p in range(12) if pyramid[p] != a["card"])
    a["from"] = f"p{other}"
    j = first_line(objs, lambda o: o is not objs[i])
    m = next(m for m, a in enumerate(objs[j]["actions"])
             if a["from"] != "hand" and a["card"] not in objs[j]["cards"]["hands"][a["seat"]])
    objs[j]["actions"][m]["from"] = "hand"
    n = first_line(objs, lambda o: o is not objs[i] and o is not objs[j])
    first = objs[n]["actions"][0]
    covered = objs[n]["cards"]["pyramids"][first["seat"]][7]  # face up, covered at the start
    first["card"], first["from"] = covered, "p7"
    msgs = replay_file(write(tmp_path / "t.jsonl", objs))
    by_deal = {int(msg.split()[1]): msg for msg in msgs}
    assert set(by_deal) == {objs[i]["deal"], objs[j]["deal"], objs[n]["deal"]}
    assert f'action {k} {{"type":"play","seat":{a["seat"]},"card":"{a["card"]}","from":"p{other}"}} ' \
           f"is illegal here" in by_deal[objs[i]["deal"]]
    assert f"action {m} " in by_deal[objs[j]["deal"]] and "illegal" in by_deal[objs[j]["deal"]]
    assert "action 0 " in by_deal[objs[n]["deal"]] and "illegal" in by_deal[objs[n]["deal"]]


def test_doko_duell_tampered_result_is_reported(doko_traces: dict[str, Path], tmp_path: Path) -> None:
    objs = read(doko_traces["random_golden"])
    i = first_line(objs, lambda o: o["result"]["winner"] is not None and len(o["result"]["events"]) > 2)
    w = objs[i]["result"]["winner"]
    before = list(objs[i]["result"]["vp"])
    objs[i]["result"]["vp"][w] += 1
    j = first_line(objs, lambda o: o is not objs[i] and len(o["result"]["events"]) > 2)
    gone = objs[j]["result"]["events"].pop(1)
    msgs = replay_file(write(tmp_path / "t.jsonl", objs))
    by_deal = {int(msg.split()[1]): msg for msg in msgs}
    assert set(by_deal) == {objs[i]["deal"], objs[j]["deal"]}
    assert f"result.vp recorded {json.dumps(objs[i]['result']['vp'])}, replayed {json.dumps(before)}" \
        in by_deal[objs[i]["deal"]]
    n = len(objs[j]["result"]["events"])
    assert f"result.events recorded {n} events, replayed {n + 1} (event 1 recorded " \
        in by_deal[objs[j]["deal"]]
    assert json.dumps(gone, separators=(",", ":")) in by_deal[objs[j]["deal"]]


def tampered_value(key: str, value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, list):
        return value[:-1] if key == "events" else [v + 1 for v in value]
    if isinstance(value, dict):
        return {k: [n + 1 for n in v] for k, v in value.items()}
    return value + 1 if isinstance(value, int) else 0


def test_doko_duell_every_result_field_is_compared(doko_traces: dict[str, Path], tmp_path: Path) -> None:
    objs = read(doko_traces["heuristic"])
    i = first_line(objs, lambda o: o["result"]["winner"] is not None and o["result"]["events"])
    for key, value in objs[i]["result"].items():
        tampered = json.loads(json.dumps(objs[:i + 1]))
        tampered[i]["result"][key] = tampered_value(key, value)
        msgs = replay_file(write(tmp_path / "t.jsonl", tampered))
        assert len(msgs) == 1 and f"result.{key} recorded" in msgs[0], key
    nobody = first_line(objs, lambda o: o["result"]["winner"] is None)
    tampered = json.loads(json.dumps(objs[nobody:nobody + 1]))
    tampered[0]["result"]["winner"] = 0
    assert "result.winner recorded 0, replayed null" in replay_file(write(tmp_path / "t.jsonl", tampered))[0]


def test_doko_duell_tampered_cards_and_actions_are_reported(doko_traces: dict[str, Path],
                                                            tmp_path: Path) -> None:
    objs = read(doko_traces["random"])
    p = objs[2]["cards"]["pyramids"][1]
    k = next(k for k in range(1, 12) if p[k] != p[0])
    p[0], p[k] = p[k], p[0]
    h = objs[3]["cards"]["hands"]
    swap = next(c for c in h[1] if c not in h[0])
    h[0][0], h[1][h[1].index(swap)] = swap, h[0][0]
    del objs[4]["actions"][-1]
    objs[5]["actions"].append(dict(objs[5]["actions"][-1]))
    objs[6]["actions"][0]["seat"] = 1 - objs[6]["actions"][0]["seat"]
    msgs = replay_file(write(tmp_path / "t.jsonl", objs[:7]))
    by_deal = {int(msg.split()[1]): msg for msg in msgs}
    assert set(by_deal) == {2, 3, 4, 5, 6}
    assert "cards.pyramids[1] recorded" in by_deal[2]
    assert "cards.hands[0] recorded" in by_deal[3] and "cards.hands[1] recorded" in by_deal[3]
    assert "actions end after 39" in by_deal[4]
    assert "action 40 " in by_deal[5] and "not the decision due here" in by_deal[5]
    assert "action 0 " in by_deal[6] and "not the decision due here" in by_deal[6]


def test_doko_duell_mixed_lines_replay(doko_traces: dict[str, Path], tmp_path: Path) -> None:
    """Lines of several rule sets, out of order, with a gap, in one file."""
    a, b = read(doko_traces["mixed"])[:20], read(doko_traces["random_golden"])[:20]
    mixed = [x for pair in zip(reversed(a), b) for x in pair]
    del mixed[5]
    assert replay_file(write(tmp_path / "m.jsonl", mixed)) == []


DOKO_BAD = {
    "no pyramids": (("cards", "pyramids"), KeyError, "cards: missing field 'pyramids'"),
    "short pyramid": (("cards", "pyramids", 0, 11), KeyError, "cards.pyramids[0] must be 12 card names"),
    "one pyramid": (("cards", "pyramids"), [[]], "cards.pyramids must be 2 lists"),
    "three copies": (("cards", "hands", 0), ["HT", "HT", "HT"], "card 'HT' appears more than 2 time(s)"),
    "nine": (("actions", 0, "card"), "C9", "play: unknown card 'C9'"),
    "position 12": (("actions", 0, "from"), "p12", "play: unknown from 'p12'"),
    "blind": (("actions", 0, "from"), "blind", "play: unknown from 'blind'"),
    "marker action": (("actions", 0, "type"), "marker", "unknown action type 'marker' (types: play)"),
    "seat 2": (("actions", 0, "seat"), 2, "play: seat must be 0..1, got 2"),
    "missing from": (("actions", 0, "from"), KeyError, "play: missing field(s) from"),
    "missing vp": (("result", "vp"), KeyError, "result: missing field(s) vp"),
    "bad option": (("rules", "tie_rule"), "coin", "option tie_rule: value coin is not allowed"),
    "missing option": (("rules", "b_marker_mode"), KeyError, "rules lack option(s) b_marker_mode"),
}


@pytest.mark.parametrize("case", list(DOKO_BAD))
def test_doko_duell_bad_lines(case: str, doko_traces: dict[str, Path], tmp_path: Path) -> None:
    good = read(doko_traces["heuristic"])[0]
    where, value, expected = DOKO_BAD[case]
    with pytest.raises(TraceError) as info:
        replay_file(bad_file(tmp_path, good, json.dumps(edited(good, where, value))))
    message = str(info.value)
    assert message.startswith("line 2: ") and "\n" not in message
    assert expected in message


def test_doko_duell_window(tmp_path: Path) -> None:
    whole, part, chunked = tmp_path / "whole.jsonl", tmp_path / "part.jsonl", tmp_path / "c.jsonl"
    rules = {"b_one_per_trick": True}
    write_trace(DOKO, 5, 0, 12, rules, ["random", "heuristic"], whole)
    write_trace(DOKO, 5, 7, 5, rules, ["random", "heuristic"], part)
    write_trace(DOKO, 5, 0, 12, rules, ["random", "heuristic"], chunked, chunk=5)
    assert part.read_text() == "".join(whole.read_text().splitlines(keepends=True)[7:])
    assert chunked.read_text() == whole.read_text()
    assert "doko_duell" in traced_games() and trace_codec(DOKO).n_players == 2


def test_doko_duell_trace_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sim.cli import main

    out = tmp_path / "t.jsonl"
    assert main(["trace", "doko_duell", "--deals", "3", "--seed", "1", "--out", str(out)]) == 0
    objs = read(out)
    assert [o["deal"] for o in objs] == [0, 1, 2]
    assert all(o["game"] == "doko_duell" and o["policies"] == ["heuristic"] * 2 for o in objs)
    assert objs == list(trace_lines(DOKO, 1, 0, 3, {}, ["heuristic"] * 2))
    assert main(["replay", str(out)]) == 0
    assert "3 deals replayed, 0 differ" in capsys.readouterr().out
    rules = ["--rule", "tie_rule=last_trick", "--rule", "b_marker_supply=none"]
    assert main(["trace", "doko_duell", "--deals", "2", "--seed", "1", "--policies", "random,heuristic",
                 *rules, "--out", str(out)]) == 0
    objs = read(out)
    assert objs[0]["rules"]["tie_rule"] == "last_trick" and objs[0]["rules"]["b_marker_supply"] == "none"
    assert objs[0]["policies"] == ["random", "heuristic"]
    assert main(["replay", str(out)]) == 0


# --- doko_skat -----------------------------------------------------------------------------

DSK = find_game("doko_skat")
DSK_DECK = DSK.deck
DSK_RULES = {
    # name: (policies, rules); together they cover every option value
    "heuristic": (["heuristic"] * 3, {}),
    "random": (["random"] * 3, {}),
    "random_skat_all": (["random"] * 3, {"bridge_order": "skat", "team_cards": "all",
                                         "first_round_points": False, "zero_sum": True,
                                         "both_copies": "skat"}),
    "heuristic_skat_all": (["heuristic"] * 3, {"bridge_order": "skat", "team_cards": "all"}),
    "mixed": (["random", "heuristic", "random"], {"first_round_points": False, "zero_sum": True,
                                                  "both_copies": "stock", "spitzen": "ranks",
                                                  "tie_special_points": False}),
    "heuristic_revision_4": (["heuristic"] * 3, {"team_cards": "won", "main_lead": "first_round_winner",
                                                 "spitzen_of": "declarer"}),
    "random_revision_4": (["random"] * 3, {"team_cards": "won", "main_lead": "declarer",
                                           "spitzen_of": "declarer", "spitzen": "ranks"}),
}
DSK_DEALS = 250
DSK_CARDS = ["stock", "skat", "turned_up", "first_round_hands"]
DSK_ACTION_FIELDS = {"play": {"card", "from"}, "declare": {"game", "trump"}, "pass": set(),
                     "discard": {"cards"}}
DSK_RESULT_FIELDS = ["pair", "lone", "declarer", "declaring_side", "game", "trump", "side_points",
                     "first_round_tricks", "special_points", "spitzen", "winner_side", "scores"]
DSK_EXTRA_RESULT = ["first_round_game", "first_round_trump", "nobody_declared", "declarer_turn",
                    "lone_both", "lone_both_by", "first_round_copies", "spitzen_copies",
                    "spitzen_ranks", "spitzen_declarer_copies", "spitzen_declarer_ranks", "tie", "value",
                    "points", "tricks", "first_round_points",
                    "discard_points", "discards"]


@pytest.fixture(scope="module")
def dsk_traces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("doko_skat")
    out = {}
    for name, (policies, rules) in DSK_RULES.items():
        out[name] = folder / f"{name}.jsonl"
        assert write_trace(DSK, 2024, 0, DSK_DEALS, rules, policies, out[name]) == DSK_DEALS
    return out


def dsk_lines(traces: dict[str, Path]) -> list[dict[str, Any]]:
    return [obj for path in traces.values() for obj in read(path)]


def redeal_deals(rules: dict[str, Any], count: int) -> list[int]:
    """The first ``count`` deals under seed 2024 in which no random player declares (about
    one in a thousand), found through the result columns."""
    cols = play(DSK, 2024, 0, 20_000, DSK.rules(rules), ["random"] * 3).columns
    deals = [int(d) for d in cols["deal"][cols["nobody_declared"]][:count]]
    assert len(deals) == count
    return deals


def split_twins(obj: dict[str, Any]) -> bool:
    """Both copies of a card were first-round cards and the redeal gave them to two seats:
    the trace does not say which copy each seat got (see the replay tests below)."""
    first = [c for hand in obj["cards"]["first_round_hands"] for c in hand]
    twins = {c for c in first if first.count(c) == 2}
    return any(sum(c in extra for extra in obj["cards"]["extra"]) == 2 for c in twins)


@pytest.fixture(scope="module")
def dsk_redeals() -> list[dict[str, Any]]:
    """Trace lines of deals where nobody declares, under two rule sets."""
    out = []
    for rules in ({}, DSK_RULES["random_skat_all"][1]):
        out += [obj for d in redeal_deals(rules, 12)
                for obj in trace_lines(DSK, 2024, d, 1, rules, ["random"] * 3)]
    return out


# The game written out from RULES.md, independent of sim.games.doko_skat.game.
DSK_JACKS = ["CJ", "SJ", "HJ", "DJ"]
DSK_PLAIN = "ATKQ9"
DSK_BRIDGE = {"natural": "AKQJT9", "skat": "ATKQJ9"}
DSK_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}


def dsk_game_of(card: str) -> tuple[str, str | None]:
    """The game a turned-up card sets: K, T, 9 a suit game, A a bridge, Q or J grand."""
    if card[1] in "KT9":
        return "suit", card[0]
    return ("bridge", card[0]) if card[1] == "A" else ("grand", None)


def dsk_orders(game: str, trump: str | None, bridge_order: str) -> tuple[list[str], str]:
    """Trumps from the highest down, and the order of the plain suits."""
    if game == "grand":
        return DSK_JACKS, DSK_PLAIN
    if game == "suit":
        return DSK_JACKS + [f"{trump}{r}" for r in DSK_PLAIN], DSK_PLAIN
    order = DSK_BRIDGE[bridge_order]
    return [f"{trump}{r}" for r in order], order


def dsk_points(cards: list[str]) -> int:
    return sum(DSK_POINTS[c[1]] for c in cards)


def dsk_tricks(plays: list[dict[str, Any]], leader: int, hands: list[list[str]],
               orders: tuple[list[str], str]) -> tuple[list[int], list[int], list[list[str]], int]:
    """Play tricks by hand: each card from its seat's hand, in turn, following the led
    card's effective suit when it can; card points, tricks and the cards taken per seat,
    and who took the last trick."""
    trumps, plain = orders

    def suit(c: str) -> str:
        return "trump" if c in trumps else c[0]

    def strength(c: str, led: str) -> int:
        if c in trumps:
            return 100 - trumps.index(c)
        return 50 - plain.index(c[1]) if c[0] == led else -1

    points, tricks = [0, 0, 0], [0, 0, 0]
    taken: list[list[str]] = [[], [], []]
    assert len(plays) % 3 == 0
    for t in range(0, len(plays), 3):
        trick = plays[t:t + 3]
        assert [a["seat"] for a in trick] == [(leader + k) % 3 for k in range(3)]
        led = suit(trick[0]["card"])
        for n, a in enumerate(trick):
            hand = hands[a["seat"]]
            assert a["type"] == "play" and a["from"] == "hand" and a["card"] in hand
            if n and suit(a["card"]) != led:
                assert all(suit(c) != led for c in hand)
            hand.remove(a["card"])
        cards = [a["card"] for a in trick]
        best = max(range(3), key=lambda k: (strength(cards[k], led), -k))  # the first of equals
        leader = trick[best]["seat"]
        points[leader] += dsk_points(cards)
        tricks[leader] += 1
        taken[leader] += cards
    assert hands == [[], [], []]
    return points, tricks, taken, leader


def dsk_spitzen(cards: list[str], trumps: list[str], reading: str) -> int:
    """Consecutive top trumps held: by copies each copy one, until a trump of which a copy
    is missing; by ranks each trump held at all one, until a trump held not at all."""
    n = 0
    for t in trumps:
        held = cards.count(t)
        if reading == "ranks":
            if not held:
                break
            n += 1
            continue
        n += held
        if held < 2:
            break
    return n


def dsk_band(loser: int) -> int:
    return 8 if loser == 0 else 6 if loser < 30 else 4 if loser < 60 else 3 if loser < 90 else 2


def dsk_by_hand(obj: dict[str, Any]) -> dict[str, Any]:
    """Play a doko_skat trace line by hand (RULES.md) and return the result it comes to."""
    rules, cards, acts = obj["rules"], obj["cards"], obj["actions"]
    forehand = (obj["dealer"] + 1) % 3
    turned = cards["turned_up"]
    first = [list(h) for h in cards["first_round_hands"]]
    assert turned in [c for h in first for c in h]
    fr_game, fr_trump = dsk_game_of(turned)
    fr_points, fr_tricks, fr_taken, fr_last = dsk_tricks(
        acts[:9], forehand, [list(h) for h in first], dsk_orders(fr_game, fr_trump, rules["bridge_order"]))
    looked = {"first_round": first, "all": [first[s] + cards["stock"][s] for s in range(3)],
              "won": fr_taken}[rules["team_cards"]]
    holders = [s for s in range(3) if turned in looked[s]]
    lone = holders[0] if len(holders) == 1 else 3 - sum(holders)
    pair = sorted({0, 1, 2} - {lone})
    # his cards by the both_copies readings: team_cards', his stock, the skat he takes
    mine = [first[lone], first[lone] + cards["stock"][lone],
            first[lone] + cards["stock"][lone] + cards["skat"]]
    lone_both_by = next((place for place, held in zip(("first_round", "stock", "skat"), mine)
                         if held.count(turned) == 2), None)
    lone_both = {"team_cards": looked[lone], "stock": mine[1],
                 "skat": mine[2]}[rules["both_copies"]].count(turned) == 2
    a, b = sorted(pair, key=lambda s: (-fr_tricks[s], (s - forehand) % 3))
    order = [a, lone, b] if fr_tricks[a] + fr_tricks[b] >= 2 else [lone, a, b]
    k = 9
    declarer = game = trump = None
    for seat in order:
        act = acts[k]
        k += 1
        assert act["seat"] == seat and act["type"] in ("pass", "declare")
        if act["type"] == "declare":
            declarer, game, trump = seat, act["game"], act["trump"]
            break
    hands = [list(cards["stock"][s]) + (list(cards["skat"]) if s == lone else []) for s in range(3)]
    if declarer is None:
        game, trump = dsk_game_of(cards["second_turned_up"])
        extra = cards["extra"]
        assert [len(e) for e in extra] == [1 if s == lone else 4 for s in range(3)]
        assert sorted(c for e in extra for c in e) == sorted(c for h in first for c in h)
        assert cards["second_turned_up"] in [c for e in extra for c in e]
        hands = [hands[s] + extra[s] for s in range(3)]
        discarders = [(forehand + r) % 3 for r in range(3)]
    else:
        assert "extra" not in cards and "second_turned_up" not in cards
        discarders = [lone]
    discards: list[list[str]] = [[], [], []]
    for seat in discarders:
        act = acts[k]
        k += 1
        assert act["type"] == "discard" and act["seat"] == seat
        assert len(act["cards"]) == (3 if declarer is not None else 4)
        for c in act["cards"]:
            hands[seat].remove(c)
        discards[seat] = act["cards"]
    assert [len(h) for h in hands] == [12, 12, 12]
    orders = dsk_orders(game, trump, rules["bridge_order"])
    leader = {"forehand": forehand, "first_round_winner": fr_last,
              "declarer": forehand if declarer is None else declarer}[rules["main_lead"]]
    points, tricks, _, _ = dsk_tricks(acts[k:], leader, [list(h) for h in hands], orders)
    assert len(acts) == k + 36
    side_of = ["lone" if s == lone else "pair" for s in range(3)]
    side_points = {"pair": 0, "lone": 0}
    discard_points = {"pair": 0, "lone": 0}
    for s in range(3):
        discard_points[side_of[s]] += dsk_points(discards[s])
        side_points[side_of[s]] += points[s] + dsk_points(discards[s])
        if declarer is not None and rules["first_round_points"]:
            side_points[side_of[s]] += fr_points[s]
    special = {"pair": int(fr_tricks[a] + fr_tricks[b] == 3),
               "lone": int(lone_both) + int(fr_tricks[lone] == 3)}
    if declarer is None:
        special = {"pair": 0, "lone": 0}
    declaring = side_of[declarer] if declarer is not None else None
    spitzen = {(of, reading): 0 for of in ("side", "declarer") for reading in ("copies", "ranks")}
    if declaring is not None:
        held = {of: [c for s in range(3) if (side_of[s] == declaring if of == "side" else s == declarer)
                     for c in cards["stock"][s] + (cards["skat"] if s == lone else [])]
                for of in ("side", "declarer")}
        spitzen = {(of, reading): dsk_spitzen(held[of], orders[0], reading) for of, reading in spitzen}
    return {"pair": pair, "lone": lone, "declarer": declarer, "declaring_side": declaring,
            "game": game, "trump": trump, "side_points": side_points,
            "first_round_tricks": fr_tricks, "special_points": special,
            "spitzen": spitzen[rules["spitzen_of"], rules["spitzen"]],
            "spitzen_copies": spitzen["side", "copies"], "spitzen_ranks": spitzen["side", "ranks"],
            "spitzen_declarer_copies": spitzen["declarer", "copies"],
            "spitzen_declarer_ranks": spitzen["declarer", "ranks"],
            "first_round_copies": [fr_taken[s].count(turned) for s in range(3)],
            "first_round_game": fr_game,
            "first_round_trump": fr_trump, "nobody_declared": declarer is None,
            "lone_both": lone_both, "lone_both_by": lone_both_by, "points": points,
            "tricks": tricks, "first_round_points": fr_points, "discard_points": discard_points,
            "discards": discards}


def dsk_settle(r: dict[str, Any], rules: dict[str, Any]) -> dict[str, Any]:
    """Winner, tie, value and scores from a result's counts, as RULES.md settles them (a tie:
    the non-declaring side 1, plus its special points with ``tie_special_points``)."""
    p, lone = r["side_points"], r["lone"]
    declaring, zero_sum = r["declaring_side"], rules["zero_sum"]
    if p["pair"] == p["lone"]:
        winner, scoring, value = None, ({"pair": "lone", "lone": "pair"}.get(declaring)), 1
        if scoring is not None and rules["tie_special_points"]:
            value += r["special_points"][scoring]
    else:
        winner = scoring = "pair" if p["pair"] > p["lone"] else "lone"
        value = dsk_band(p["lone" if winner == "pair" else "pair"]) + r["special_points"][winner]
        if declaring == winner:
            value += r["spitzen"] * (2 if r["game"] == "grand" else 1)
    if scoring is None:
        value = 0
    scores = []
    for s in range(3):
        mine = "lone" if s == lone else "pair"
        share = 2 if s == lone else 1
        won = value * (share if zero_sum else 1) if mine == scoring else 0
        lost = value * share if zero_sum and scoring is not None and mine != scoring else 0
        scores.append(won - lost)
    return {"winner_side": winner, "tie": winner is None, "value": value, "scores": scores}


def test_doko_skat_every_trace_md_field(dsk_traces: dict[str, Path]) -> None:
    seen_types, seen_games, seen_sides = set(), set(), set()
    for obj in dsk_lines(dsk_traces):
        assert list(obj) == list(FIELDS)
        assert obj["game"] == "doko_skat" and obj["seed"] == 2024
        assert obj["rules"] == DSK.rules(obj["rules"]) and set(obj["rules"]) == set(DSK.rules())
        assert len(obj["policies"]) == 3 and obj["dealer"] == obj["deal"] % 3
        cards = obj["cards"]
        assert list(cards) == DSK_CARDS  # nobody declares in none of these deals
        assert [len(h) for h in cards["stock"]] == [12, 12, 12] and len(cards["skat"]) == 3
        assert [len(h) for h in cards["first_round_hands"]] == [3, 3, 3]
        everything = [c for part in cards["stock"] + [cards["skat"]] + cards["first_round_hands"]
                      for c in part]
        assert sorted(everything) == sorted(DSK_DECK.names)  # 48 cards: each card twice
        for h in cards["stock"] + cards["first_round_hands"] + [cards["skat"]]:
            assert h == sorted(h, key=DSK_DECK.names.index)
        for action in obj["actions"]:
            assert set(action) == {"type", "seat"} | DSK_ACTION_FIELDS[action["type"]]
            assert action["seat"] in (0, 1, 2)
            seen_types.add(action["type"])
            if action["type"] == "declare":
                assert action["game"] in ("suit", "grand", "bridge")
                assert (action["trump"] is None) == (action["game"] == "grand")
                seen_games.add((action["game"], action["trump"]))
        r = obj["result"]
        assert list(r) == DSK_RESULT_FIELDS + DSK_EXTRA_RESULT
        assert sorted(r["pair"] + [r["lone"]]) == [0, 1, 2] and r["pair"] == sorted(r["pair"])
        assert r["declaring_side"] == ("lone" if r["declarer"] == r["lone"] else "pair")
        assert list(r["side_points"]) == ["pair", "lone"] == list(r["special_points"])
        assert sum(r["first_round_tricks"]) == 3 and sum(r["tricks"]) == 12
        fr_total = sum(r["first_round_points"])
        counted = 240 if obj["rules"]["first_round_points"] else 240 - fr_total
        assert sum(r["side_points"].values()) == counted
        assert len(r["scores"]) == 3 and r["winner_side"] in ("pair", "lone", None)
        seen_sides.add((r["declaring_side"], r["winner_side"]))
    assert seen_types == set(DSK_ACTION_FIELDS)
    assert seen_games == {(g, t) for g in ("suit", "bridge") for t in "CSHD"} | {("grand", None)}
    assert {("pair", "pair"), ("pair", "lone"), ("lone", "lone"), ("lone", "pair")} <= seen_sides


def test_doko_skat_fields_match_the_columns(dsk_traces: dict[str, Path]) -> None:
    """Every card and result field is the deal's result column (played again without
    recording), named as TRACE.md names it."""
    sides, games = ("pair", "lone"), ("suit", "grand", "bridge")

    def names(mask: Any) -> list[str]:
        return sorted(DSK_DECK.name_list(int(mask)))

    for name, (policies, rules) in DSK_RULES.items():
        cols = play(DSK, 2024, 0, DSK_DEALS, DSK.rules(rules), policies).columns
        for i, obj in enumerate(read(dsk_traces[name])):
            c, r = obj["cards"], obj["result"]
            for s in range(3):
                assert sorted(c["stock"][s]) == names(cols[f"stock_{s}"][i])
                assert sorted(c["first_round_hands"][s]) == names(cols[f"first_round_{s}"][i])
                assert sorted(r["discards"][s]) == names(cols[f"discard_{s}"][i])
            assert sorted(c["skat"]) == names(cols["skat"][i])
            assert c["turned_up"] == DSK_DECK.names[cols["turned_up"][i]]
            col = {k: int(v[i]) for k, v in cols.items()}
            assert r["pair"] == [col["pair_0"], col["pair_1"]] and r["lone"] == col["lone"]
            assert r["declarer"] == (col["declarer"] if col["declarer"] >= 0 else None)
            assert r["declaring_side"] == sides[col["declaring_side"]]
            assert r["game"] == games[col["game"]] and r["first_round_game"] == games[col["fr_game"]]
            assert r["trump"] == ("CSHD"[col["trump"]] if col["trump"] >= 0 else None)
            assert r["side_points"] == {"pair": col["points_pair"], "lone": col["points_lone"]}
            assert r["special_points"] == {"pair": col["special_pair"], "lone": col["special_lone"]}
            assert r["winner_side"] == (sides[col["winner_side"]] if col["winner_side"] >= 0 else None)
            assert r["lone_both_by"] == (("first_round", "stock", "skat")[col["lone_both_by"]]
                                         if col["lone_both_by"] >= 0 else None)
            for key, column in (("spitzen", "spitzen"), ("value", "value"), ("tie", "tie"),
                                ("nobody_declared", "nobody_declared"), ("lone_both", "lone_both"),
                                ("spitzen_copies", "spitzen_copies"),
                                ("spitzen_ranks", "spitzen_ranks"),
                                ("spitzen_declarer_copies", "spitzen_declarer_copies"),
                                ("spitzen_declarer_ranks", "spitzen_declarer_ranks")):
                assert r[key] == col[column] and type(r[key]) is (bool if cols[column].dtype == bool
                                                                  else int)
            for key, column in (("scores", "score"), ("first_round_tricks", "fr_tricks"),
                                ("first_round_copies", "fr_copies"),
                                ("first_round_points", "fr_points"), ("points", "points"),
                                ("tricks", "tricks")):
                assert r[key] == [col[f"{column}_{s}"] for s in range(3)], key


def test_doko_skat_played_by_hand(dsk_traces: dict[str, Path]) -> None:
    """Every card from its seat's cards, in turn, following suit; the teams, the declaration
    order, discards, card points, special points, Spitzen and the settlement are those
    RULES.md gives, recounted from the trace alone."""
    ties = 0
    for obj in dsk_lines(dsk_traces):
        r = obj["result"]
        for key, value in dsk_by_hand(obj).items():
            assert r[key] == value, (obj["deal"], key)
        for key, value in dsk_settle(r, obj["rules"]).items():
            assert r[key] == value, (obj["deal"], key)
        ties += r["tie"]
    assert ties


def test_doko_skat_redeal_carries_its_cards(dsk_redeals: list[dict[str, Any]]) -> None:
    """Where nobody declares, the trace holds the second turned-up card and the cards each
    seat was given; each seat discards 4; nothing counts as declared."""
    for obj in dsk_redeals:
        cards, r = obj["cards"], obj["result"]
        assert list(cards) == DSK_CARDS + ["second_turned_up", "extra"]
        kinds = [a["type"] for a in obj["actions"]]
        assert kinds[9:15] == ["pass"] * 3 + ["discard"] * 3 and "declare" not in kinds
        assert r["nobody_declared"] and r["declarer"] is None and r["declaring_side"] is None
        assert r["special_points"] == {"pair": 0, "lone": 0} and r["spitzen"] == 0
        assert (r["game"], r["trump"]) == dsk_game_of(cards["second_turned_up"])
        assert sum(r["side_points"].values()) == 240
        assert sum(len(d) for d in r["discards"]) == 12
        for key, value in dsk_by_hand(obj).items():
            assert r[key] == value, (obj["deal"], key)
        for key, value in dsk_settle(r, obj["rules"]).items():
            assert r[key] == value, (obj["deal"], key)


def test_doko_skat_redeal_replays(dsk_redeals: list[dict[str, Any]], tmp_path: Path) -> None:
    clean = [obj for obj in dsk_redeals if not split_twins(obj)]
    assert len(clean) > 5
    assert replay_file(write(tmp_path / "t.jsonl", clean)) == []


def test_doko_skat_redeal_with_split_twins_replays(dsk_redeals: list[dict[str, Any]],
                                                    tmp_path: Path) -> None:
    split = [obj for obj in dsk_redeals if split_twins(obj)]
    assert split
    assert replay_file(write(tmp_path / "t.jsonl", split)) == []


def test_doko_skat_replay_of_fresh_traces_finds_nothing(dsk_traces: dict[str, Path]) -> None:
    for name, path in dsk_traces.items():
        assert replay_file(path) == [], name


def test_doko_skat_round_trip(dsk_traces: dict[str, Path]) -> None:
    """A written line reads back as the object written, and every action object turns into
    a row and back into the same object."""
    codec = trace_codec(DSK)
    policies, rules = DSK_RULES["mixed"]
    objs = read(dsk_traces["mixed"])
    assert objs == json.loads(json.dumps(list(trace_lines(DSK, 2024, 0, DSK_DEALS, rules, policies))))
    for obj in objs:
        rows = np.array([codec.action_row(a) for a in obj["actions"]], np.int64)
        assert codec.actions_json(rows) == obj["actions"]
        assert codec.parse_cards(obj["cards"])["stock"] == obj["cards"]["stock"]
    for code in range(9):
        fields = codec.declare_fields(code)
        assert codec.declaration(fields) == code
    assert [codec.declare_fields(c)["game"] for c in (0, 4, 5)] == ["suit", "grand", "bridge"]


def test_doko_skat_tampered_cards_are_reported(dsk_traces: dict[str, Path], tmp_path: Path) -> None:
    objs = read(dsk_traces["heuristic"])[:6]
    stock = objs[1]["cards"]["stock"]
    swap = next(c for c in stock[1] if c not in stock[0])
    stock[0][0], stock[1][stock[1].index(swap)] = swap, stock[0][0]
    objs[2]["cards"]["turned_up"] = next(c for c in DSK_DECK.names if c != objs[2]["cards"]["turned_up"])
    first = objs[3]["cards"]["first_round_hands"]
    swap = next(c for c in first[2] if c not in first[0])
    first[0][0], first[2][first[2].index(swap)] = swap, first[0][0]
    objs[4]["cards"]["skat"][0] = next(c for c in objs[4]["cards"]["stock"][0]
                                       if c not in objs[4]["cards"]["skat"])
    objs[5]["cards"]["extra"] = [["CA"], ["CA"], []]
    msgs = replay_file(write(tmp_path / "t.jsonl", objs))
    by_deal = {int(msg.split()[1]): msg for msg in msgs}
    assert set(by_deal) == {1, 2, 3, 4, 5}
    assert "cards.stock recorded" in by_deal[1]
    assert "cards.turned_up recorded" in by_deal[2]
    assert "cards.first_round_hands recorded" in by_deal[3]
    assert "cards.skat recorded" in by_deal[4]
    assert "cards.extra recorded [CA] [CA] [], dealt none" in by_deal[5]


def test_doko_skat_tampered_actions_are_reported(dsk_traces: dict[str, Path], tmp_path: Path) -> None:
    objs = read(dsk_traces["random"])[:6]
    acts = [o["actions"] for o in objs]
    # a card the seat does not hold (in the first round and in the main game)
    opening = objs[0]["cards"]["first_round_hands"][acts[0][0]["seat"]]
    foreign = next(c for c in objs[0]["cards"]["stock"][1] if c not in opening)
    acts[0][0]["card"] = foreign
    k = 20
    seat = acts[1][k]["seat"]
    mine = set(objs[1]["cards"]["stock"][seat]) | set(objs[1]["cards"]["skat"])
    acts[1][k]["card"] = next(c for c in DSK_DECK.names if c not in mine)
    # another game declared, a declaration turned into a pass, a discard of a card not held
    d = next(j for j, a in enumerate(acts[2]) if a["type"] == "declare")
    acts[2][d].update({"game": "grand", "trump": None} if acts[2][d]["game"] != "grand"
                      else {"game": "suit", "trump": "C"})
    m = next(j for j, a in enumerate(acts[3]) if a["type"] == "declare")
    acts[3][m] = {"type": "pass", "seat": acts[3][m]["seat"]}
    n = next(j for j, a in enumerate(acts[4]) if a["type"] == "discard")
    lone = objs[4]["result"]["lone"]
    held = set(objs[4]["cards"]["stock"][lone]) | set(objs[4]["cards"]["skat"])
    acts[4][n]["cards"][0] = next(c for c in DSK_DECK.names if c not in held)
    del acts[5][-1]
    msgs = replay_file(write(tmp_path / "t.jsonl", objs))
    by_deal = {int(msg.split()[1]): msg for msg in msgs}
    assert set(by_deal) == {0, 1, 2, 3, 4, 5}
    assert "action 0 " in by_deal[0] and "illegal" in by_deal[0] and foreign in by_deal[0]
    assert f"action {k} " in by_deal[1] and "illegal" in by_deal[1]
    assert by_deal[2].startswith("deal 2 (line 3): action ")
    assert f"action {m + 1} " in by_deal[3] and "not the decision due here" in by_deal[3]
    assert f"action {n} " in by_deal[4] and "illegal" in by_deal[4]
    assert "actions end after" in by_deal[5]


def dsk_tampered(key: str, value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if value is None:
        return 0
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return {"suit": "grand", "grand": "bridge", "bridge": "suit", "pair": "lone",
                "lone": "pair"}.get(value, "C" if value != "C" else "S")
    if isinstance(value, dict):
        return {k: v + 1 for k, v in value.items()}
    return value[:-1] if key == "discards" else [v + 1 for v in value]


def test_doko_skat_every_result_field_is_compared(dsk_traces: dict[str, Path], tmp_path: Path) -> None:
    objs = read(dsk_traces["random_skat_all"])
    i = first_line(objs, lambda o: o["result"]["winner_side"] is not None)
    for key, value in objs[i]["result"].items():
        tampered = json.loads(json.dumps(objs[:i + 1]))
        tampered[i]["result"][key] = dsk_tampered(key, value)
        msgs = replay_file(write(tmp_path / "t.jsonl", tampered))
        assert len(msgs) == 1 and f"result.{key} recorded" in msgs[0], key
    before = list(objs[i]["result"]["scores"])
    objs[i]["result"]["scores"][0] -= 3
    msg = replay_one(tmp_path, objs[:i + 1])
    assert f"result.scores recorded {json.dumps(objs[i]['result']['scores'])}, " \
           f"replayed {json.dumps(before)}" in msg


DSK_BAD = {
    "no stock": (("cards", "stock"), KeyError, "cards: missing field(s) stock"),
    "two stocks": (("cards", "stock"), [[], []], "cards.stock must be 3 lists of card names"),
    "turned up list": (("cards", "turned_up"), ["CA"], "cards.turned_up must be a card name"),
    "unknown turned up": (("cards", "turned_up"), "C8", "cards.turned_up: unknown card 'C8'"),
    "three copies": (("cards", "skat"), ["HT", "HT", "HT"], "card 'HT' appears more than 2 time(s)"),
    "seven": (("actions", 0, "card"), "C7", "play: unknown card 'C7'"),
    "blind": (("actions", 0, "from"), "blind", "play: unknown from 'blind' (allowed: hand)"),
    "seat 3": (("actions", 0, "seat"), 3, "play: seat must be 0..2, got 3"),
    "bid": (("actions", 0, "type"), "bid", "unknown action type 'bid' (types: play, declare, pass, discard)"),
    "null game": (("actions", 9, "game"), "null",
                  "declare: unknown game 'null' (games: suit, grand, bridge)"),
    "grand with trump": (("actions", 9), {"type": "declare", "seat": 0, "game": "grand", "trump": "C"},
                         "declare: a grand has no trump suit (null), got 'C'"),
    "bridge without trump": (("actions", 9), {"type": "declare", "seat": 0, "game": "bridge",
                                              "trump": None},
                             "declare: trump must be one of C, S, H, D in a bridge game, got null"),
    "no trump": (("actions", 9), {"type": "declare", "seat": 0, "game": "suit"},
                 "declare: missing field(s) trump"),
    "discard names": (("actions", 9), {"type": "discard", "seat": 0, "cards": "CA CT"},
                      "discard.cards must be a list of card names"),
    "missing spitzen": (("result", "spitzen"), KeyError, "result: missing field(s) spitzen"),
    "bad option": (("rules", "bridge_order"), "french", "option bridge_order: value french is not allowed"),
    "missing option": (("rules", "zero_sum"), KeyError, "rules lack option(s) zero_sum"),
}


@pytest.mark.parametrize("case", list(DSK_BAD))
def test_doko_skat_bad_lines(case: str, dsk_traces: dict[str, Path], tmp_path: Path) -> None:
    good = read(dsk_traces["heuristic"])[0]
    where, value, expected = DSK_BAD[case]
    with pytest.raises(TraceError) as info:
        replay_file(bad_file(tmp_path, good, json.dumps(edited(good, where, value))))
    message = str(info.value)
    assert message.startswith("line 2: ") and "\n" not in message
    assert expected in message


def test_doko_skat_window(tmp_path: Path) -> None:
    whole, part, chunked = tmp_path / "whole.jsonl", tmp_path / "part.jsonl", tmp_path / "c.jsonl"
    rules = {"team_cards": "all"}
    write_trace(DSK, 5, 0, 12, rules, ["random", "heuristic", "random"], whole)
    write_trace(DSK, 5, 7, 5, rules, ["random", "heuristic", "random"], part)
    write_trace(DSK, 5, 0, 12, rules, ["random", "heuristic", "random"], chunked, chunk=5)
    assert part.read_text() == "".join(whole.read_text().splitlines(keepends=True)[7:])
    assert chunked.read_text() == whole.read_text()
    assert traced_games() == ["skat", "skat_en_deux", "doko_duell", "doko_skat"]
    assert trace_codec(DSK).n_players == 3


def test_doko_skat_trace_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sim.cli import main

    out = tmp_path / "t.jsonl"
    assert main(["trace", "doko_skat", "--deals", "3", "--seed", "1", "--out", str(out)]) == 0
    objs = read(out)
    assert [o["deal"] for o in objs] == [0, 1, 2]
    assert all(o["game"] == "doko_skat" and o["policies"] == ["heuristic"] * 3 for o in objs)
    assert objs == list(trace_lines(DSK, 1, 0, 3, {}, ["heuristic"] * 3))
    assert main(["replay", str(out)]) == 0
    assert "3 deals replayed, 0 differ" in capsys.readouterr().out
    objs[1]["result"]["spitzen"] += 1
    write(out, objs)
    assert main(["replay", str(out)]) == 1
    text = capsys.readouterr().out
    assert "deal 1 (line 2): result.spitzen recorded" in text and "3 deals replayed, 1 differ" in text

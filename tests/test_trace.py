"""Deal traces (TRACE.md): fields, replay, tampering, bad lines, windows, golden files."""

from __future__ import annotations

import difflib
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from sim.cards import SKAT_DECK
from sim.games import find_game
from sim.trace import FIELDS, TraceError, replay_file, trace_lines, write_trace

SKAT = find_game("skat")
GOLDEN_DIR = Path(__file__).parent / "golden"
RAMSCH_ANN = {"all_pass": "ramsch", "announcements": True}


def _load_regenerate():  # type: ignore[no-untyped-def]
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
                                "lost_factor": 2}
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


def write_trace_path(path: Path, deals: int, rules: dict[str, Any], policy: str,
                     seed: int = 5, first: int = 0) -> Path:
    write_trace(SKAT, seed, first, deals, rules, [policy] * 3, path)
    return path


def first_line(objs: list[dict[str, Any]], pred) -> int:  # type: ignore[no-untyped-def]
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
    "unknown game": ((("game",), "schafkopf"), "unknown game \"schafkopf\" (games: skat)"),
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
    from sim.games import skat_trace as T

    codes = [g | f for g in range(5) for f in (0, 16, 48, 56)] + [5, 5 | 8]
    for code in codes:
        for hand in (False, True):
            fields = T.declaration_fields(code, hand)
            assert T.declaration_code(fields) == code and fields["hand"] is hand
            assert set(fields) == ACTION_FIELDS["declare"]
    with pytest.raises(TraceError, match="unknown game"):
        T.declaration_code({"game": "ramsch", "ouvert": False, "schneider_announced": False,
                            "schwarz_announced": False})

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
from sim.trace import FIELDS, TraceError, replay_file, trace_codec, trace_lines, traced_games, write_trace

SKAT = find_game("skat")
DEUX = find_game("skat_en_deux")
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
    "unknown game": ((("game",), "schafkopf"),
                     "unknown game \"schafkopf\" (games: skat, skat_en_deux)"),
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
    for game in range(5):  # skat_en_deux's open levels sit at DECL_OPEN_SHIFT
        for level in (1, 2):
            code = game | level << 6
            fields = T.declaration_fields(code, False)
            assert fields["open_level"] == level and T.declaration_code(fields) == code
    with pytest.raises(TraceError, match="open_level must be 0, 1 or 2"):
        T.declaration_code(dict(T.declaration_fields(0, False), open_level=3))


# --- skat_en_deux --------------------------------------------------------------------------

DEUX_RULES = {
    # name: (policy, rules); together they cover contra_re, both all_pass values,
    # open_hand, give_up_after_pickup, give_up_at_18 off and lost_factor 1
    "random": ("random", {}),
    "random_contra_open_throw_in": ("random", {"contra_re": True, "open_hand": True,
                                               "all_pass": "throw_in"}),
    "random_pickup_give_up": ("random", {"give_up_after_pickup": True, "lost_factor": 1}),
    "heuristic": ("heuristic", {}),
    "heuristic_contra": ("heuristic", {"contra_re": True, "open_hand": True}),
    "heuristic_pickup_give_up": ("heuristic", {"give_up_after_pickup": True,
                                               "give_up_at_18": False, "all_pass": "throw_in"}),
}
DEUX_ACTION_FIELDS = dict(ACTION_FIELDS, give_up=set(), offer={"offer"}, accept=set(),
                          reject=set(), contra=set(), re=set())
DEUX_EXTRA_RESULT = {"ramsch", "points", "open_level", "give_up", "offer", "accepted", "contra",
                     "re", "ramsch_loser", "ramsch_tie_last_trick"}


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
                assert action["offer"] == result["offer"]
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
            assert result["won"] is False and result["game"] is None and result["matadors"] is None
            assert result["scores"][1 - declarer] == 0
            if result["bid"] == 18 and obj["rules"]["give_up_at_18"]:
                assert result["scores"][declarer] == -60
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
    for pred in (lambda o: o["result"]["ramsch"], lambda o: o["result"]["give_up"],
                 lambda o: o["result"]["accepted"], declared):
        name = "heuristic_contra" if pred is not declared else "random"
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

    from types import SimpleNamespace

    from sim.games import Game

    untraced = Game(SimpleNamespace(NAME="doko_duell"))  # type: ignore[arg-type]
    with pytest.raises(TraceError, match="game doko_duell has no trace format yet "
                                         r"\(traced games: skat, skat_en_deux"):
        trace_codec(untraced)


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

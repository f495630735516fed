"""``stichsim serve``'s API (Starlette's test client): whole deals of every game, the
series and its traces, one-line refusals of bad requests, independent tables, and the JSON
never holding a card the person's seat may not know."""

from __future__ import annotations

import json
import random
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from knowable import knowable

from sim.registry import GAMES
from sim.serve.app import build_app
from sim.serve.tables import Tables
from sim.trace import replay_file

with warnings.catch_warnings():  # starlette's note that httpx has a successor
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
CARD = re.compile(r"\b[CSHD][AKQJT987]\b")


@pytest.fixture
def store() -> Tables:
    return Tables()


@pytest.fixture
def client(store: Tables) -> TestClient:
    return TestClient(build_app(store))


def open_table(client: TestClient, **given: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json=given)
    assert r.status_code == 201, r.text
    return r.json()


def play_out(client: TestClient, state: dict[str, Any], rng: random.Random,
             each: Any = None) -> dict[str, Any]:
    """Answer at random among the legal choices to the end of the deal; ``each(state)`` at
    every state on the way, the last included."""
    while True:
        if each:
            each(state)
        q = state["question"]
        if q is None:
            return state
        picks = rng.sample(range(len(q["choices"])), q["pick"])
        r = client.post(f"/api/tables/{state['id']}/answer",
                        json={"step": state["step"], "choices": picks})
        assert r.status_code == 200, r.text
        state = r.json()


@pytest.mark.parametrize("name", list(GAMES))
def test_the_json_never_holds_a_card_the_seat_may_not_know(client: TestClient, store: Tables,
                                                           name: str) -> None:
    """At every step of whole deals (every seat, several seeds), the cards the page is sent
    lie in the seat's knowable set, the same sets the terminal screens are held to, until
    the deal is over, when the table shows every dealt card."""
    game = GAMES[name]
    could_leak = 0
    for seed in range(3):
        for seat in range(game.n_players):
            seen: list[tuple[str, Any]] = []

            def record(state: dict[str, Any]) -> None:
                sent = json.dumps({k: v for k, v in state.items() if k != "id"})
                seen.append((sent, store.get(state["id"]).moment.actions.copy()))

            last = play_out(client, open_table(client, game=name, seat=seat, seed=seed),
                            random.Random(seed), record)
            columns = store.get(last["id"]).moment.columns
            assert columns is not None
            *before_end, (final, _) = seen
            assert set(CARD.findall(final)) == set(game.deck.names)  # the end shows every card
            for sent, actions in before_end:
                known = knowable(name, columns, seat, actions)
                shown = set(CARD.findall(sent))
                assert shown <= known, (seed, seat, shown - known)
                could_leak += not set(game.deck.names) <= known
    assert could_leak > 20


@pytest.mark.parametrize("name", list(GAMES))
def test_a_series_keeps_its_scores_and_its_traces_replay(client: TestClient, tmp_path: Path,
                                                         name: str) -> None:
    """Deals 0, 1, 2 of the seed in a row (the dealer rotating), each finished deal's score
    per seat in the running list with their totals, resumed as it was by a reload (a GET),
    downloaded as traces that replay, the person's seat named ``person``."""
    game = GAMES[name]
    rng = random.Random(7)
    state = open_table(client, game=name, seat=1, seed=11, policy="random")
    assert state["policy_label"] == "random"
    for number in range(3):
        assert state["number"] == number and state["series"]["deals"] == [] or number
        state = play_out(client, state, rng)
        assert state["result"] and state["view"] is None
        assert client.get(f"/api/tables/{state['id']}").json() == state
        if number < 2:
            state = client.post(f"/api/tables/{state['id']}/next").json()
    series = state["series"]
    assert [d["number"] for d in series["deals"]] == [0, 1, 2]
    assert [d["dealer"] for d in series["deals"]] == [n % game.n_players for n in range(3)]
    assert series["totals"] == [sum(d["scores"][s] for d in series["deals"])
                                for s in range(game.n_players)]
    r = client.get(f"/api/tables/{state['id']}/traces")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    lines = r.text.splitlines()
    assert len(lines) == 3
    assert all(json.loads(line)["policies"][1] == "person" for line in lines)
    path = tmp_path / "series.jsonl"
    path.write_text(r.text)
    assert replay_file(path) == []


def test_two_tables_are_independent(client: TestClient) -> None:
    one = open_table(client, game="skat", seat=0, seed=5)
    two = open_table(client, game="skat", seat=0, seed=5)
    assert one["id"] != two["id"] and one["question"] == two["question"]
    r = client.post(f"/api/tables/{one['id']}/answer", json={"step": 0, "choices": [0]})
    assert r.json()["step"] == 1
    assert client.get(f"/api/tables/{two['id']}").json() == two


def test_the_setup_form_reads_the_option_registry(client: TestClient) -> None:
    data = client.get("/api/games").json()
    assert set(data["games"]) == set(GAMES) and "heuristic" in data["policies"]
    assert data["policy_labels"]["dd"] == "dd (sees every card)"  # the cheat says so
    for name, game in GAMES.items():
        assert [o["name"] for o in data["games"][name]["options"]] == [o.name for o in game.options]
        assert data["games"][name]["players"] == game.n_players
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert client.get("/static/app.js").status_code == 200


def one_line_refusal(r: Any, status: int, fragment: str) -> None:
    assert r.status_code == status, (r.status_code, r.text)
    assert "\n" not in r.text.strip() and "Traceback" not in r.text
    assert fragment in r.text, r.text


@pytest.mark.parametrize("body, fragment", [
    (b"{not json", "not JSON"),
    (b"[1, 2]", "JSON object"),
    (json.dumps({"game": "bridge"}).encode(), "unknown game 'bridge'"),
    (json.dumps({"game": "skatt"}).encode(), "did you mean 'skat'?"),
    (json.dumps({"game": ["skat"]}).encode(), "unknown game"),
    (json.dumps({"game": "skat", "seat": 3}).encode(), "seat must be 0 to 2"),
    (json.dumps({"game": "skat", "seat": "0"}).encode(), "seat must be 0 to 2"),
    (json.dumps({"game": "skat", "rules": {"nope": 1}}).encode(), "unknown option 'nope'"),
    (json.dumps({"game": "skat", "rules": {"all_pass": "golf"}}).encode(), "not allowed"),
    (json.dumps({"game": "skat", "rules": []}).encode(), "rules must be an object"),
    (json.dumps({"game": "doko_duell", "rules": {"compensation": 99}}).encode(), "not allowed"),
    (json.dumps({"game": "skat", "policy": "oracle"}).encode(), "unknown policy 'oracle'"),
    (json.dumps({"game": "skat", "seed": -1}).encode(), "seed must be"),
])
def test_a_bad_new_table_is_refused_in_one_line(client: TestClient, body: bytes, fragment: str) -> None:
    one_line_refusal(client.post("/api/tables", content=body), 400, fragment)


def test_bad_answers_and_stale_pages_are_refused_in_one_line(client: TestClient) -> None:
    state = open_table(client, game="doko_duell", seat=0, seed=2)
    url = f"/api/tables/{state['id']}"
    n = len(state["question"]["choices"])
    one_line_refusal(client.post(url + "/answer", json={"step": 0, "choices": [n]}), 400,
                     f"an index from 0 to {n - 1}")
    one_line_refusal(client.post(url + "/answer", json={"step": 0, "choices": ["HT"]}), 400,
                     "an answer is")
    one_line_refusal(client.post(url + "/answer", json={"step": 0}), 400, "an answer is")
    one_line_refusal(client.post(url + "/answer", content=b"\xff"), 400, "not JSON")
    one_line_refusal(client.post(url + "/answer", json={"step": 0, "choices": [0, 0]}), 400, "choose one")
    one_line_refusal(client.post(url + "/next"), 409, "not over")
    one_line_refusal(client.get(url + "/hindsight"), 409, "no deal")
    assert client.post(url + "/answer", json={"step": 0, "choices": [0]}).status_code == 200
    one_line_refusal(client.post(url + "/answer", json={"step": 0, "choices": [0]}), 409, "stale page")
    one_line_refusal(client.post(url + "/answer", json={"step": 5, "choices": [0]}), 409,
                     "decision 5 is not due yet: the table waits for decision 1")
    one_line_refusal(client.get(url + "/traces"), 409, "no deal of this table is over yet")
    one_line_refusal(client.get("/api/tables/no-such-table"), 404, "no such table")
    one_line_refusal(client.post("/api/tables/no-such-table/answer", json={"step": 0, "choices": [0]}),
                     404, "no such table")
    one_line_refusal(client.get("/nowhere"), 404, "Not Found")
    one_line_refusal(client.delete(url), 405, "Method Not Allowed")


def test_a_discard_takes_its_cards_together() -> None:
    """Skat's skat: two different cards at once; one card alone or one twice is refused."""
    client = TestClient(build_app())
    for seed in range(40):
        state = open_table(client, game="skat", seat=0, seed=seed, policy="random")
        while state["question"] and state["question"]["pick"] == 1 and state["step"] < 4:
            labels = state["question"]["choices"]
            take = [labels.index(w) for w in ("pick up the skat", "bid 18", "18") if w in labels]
            if not take:
                break
            state = client.post(f"/api/tables/{state['id']}/answer",
                                json={"step": state["step"], "choices": take[:1]}).json()
        if state["question"] and state["question"]["pick"] == 2:
            break
    else:
        pytest.fail("no seed reached the discard")
    url = f"/api/tables/{state['id']}/answer"
    step = state["step"]
    one_line_refusal(client.post(url, json={"step": step, "choices": [0]}), 400, "choose 2 cards")
    one_line_refusal(client.post(url, json={"step": step, "choices": [0, 0]}), 400, "different cards")
    after = client.post(url, json={"step": step, "choices": [0, 1]}).json()
    assert after["step"] == step + 1
    assert any(line.startswith("you: put away") for line in after["told"])


def test_the_hindsight_of_the_last_deal(client: TestClient) -> None:
    state = play_out(client, open_table(client, game="skat", seat=0, seed=4), random.Random(4))
    r = client.get(f"/api/tables/{state['id']}/hindsight")
    assert r.status_code == 200, r.text
    assert r.json()["deal"] == 0 and r.json()["lines"]


TOLD_TRICK = re.compile(r"^  (?:first-round )?trick \d+(?: to (.+?))? \((\d+) points\)$"
                        r"|^  .*trick \d+: (\d+) points$")


@pytest.mark.parametrize("name, seat", [("skat", 0), ("skat_en_deux", 1), ("doko_duell", 0),
                                        ("doko_skat", 1)])
def test_the_board_follows_the_moves(client: TestClient, store: Tables, name: str, seat: int) -> None:
    """At every decision of whole deals: the board's tricks hold every card played, in the
    order played, each complete trick with the taker and points the move list names; the
    person's place is the one marked ``you`` and holds as many cards as his hand shows; the
    dealer is the deal's; at the end the tricks taken add up and the dealt cards are the
    deck."""
    game = GAMES[name]
    for seed in range(3):
        state = open_table(client, game=name, seat=seat, seed=seed)

        def check(state: dict[str, Any]) -> None:
            board = state["board"] or state["final"]
            actions = store.get(state["id"]).moment.actions
            plays = [game.deck.names[a] for kind, _, a, _ in actions.tolist() if kind == 14]
            assert [c["card"] for t in board["tricks"] for c in t["cards"]] == plays
            told = [m.groups() for m in map(TOLD_TRICK.match, state["told"]) if m]
            done = [t for t in board["tricks"] if t["complete"]]
            assert len(told) == len(done)
            for (taker, points, unknown), t in zip(told, done, strict=True):
                assert int(points or unknown) == t["points"]
                if taker is not None:
                    assert board["places"][t["winner"]]["name"].lower() == taker.split(" (")[0]
            assert [p["you"] for p in board["places"]].count(True) == 1
            if name != "doko_duell":
                assert [p["dealer"] for p in board["places"]].count(True) == 1
            if state["board"]:
                hand = sum(len(g) for g in board["hand"]["groups"])
                assert board["places"][board["turn"]]["cards"] in (hand, None)

        last = play_out(client, state, random.Random(seed), check)
        final = last["final"]
        dealt = sorted(c for group in final["dealt"] for g in group["groups"] for c in g)
        groups = game.deal_layout.groups
        assert len(dealt) == sum(g.size for g in groups)
        assert set(dealt) == set(game.deck.names)
        assert sum(p["tricks"] for p in final["places"]) == \
            sum(t["complete"] and not t["first_round"] for t in final["tricks"])


def test_a_skat_score_sheet_row_is_the_result_columns(client: TestClient, store: Tables) -> None:
    """The end's score sheet row names the declarer, the game, the bid, the value and won
    or lost as the result columns have them, and every seat's score."""
    rows = 0
    for seed in range(8):
        last = play_out(client, open_table(client, game="skat", seat=0, seed=seed), random.Random(seed))
        c = {k: v[0].item() for k, v in store.get(last["id"]).moment.columns.items()}
        sheet = dict(last["final"]["sheet"])
        assert [sheet[k] for k in ("You", "Seat 1", "Seat 2")] == \
            [f"{c[f'score_{p}']:+d}" for p in range(3)]
        if c["passed_out"] or c["ramsch"]:
            continue
        rows += 1
        assert sheet["Value"] == str(c["game_value"]) and sheet["Bid"] == str(c["bid"])
        assert sheet["Result"] == ("won" if c["won"] else "lost")
    assert rows >= 3


def test_option_titles_are_words(client: TestClient) -> None:
    """The setup form shows each option in words, its identifier beside it."""
    duel = client.get("/api/games").json()["games"]["doko_duell"]
    options = {o["name"]: o["title"] for o in duel["options"]}
    assert options["vp_per_b_marker"] == "VP per B marker" and options["tie_rule"] == "Tie rule"

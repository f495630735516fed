"""The double-dummy solver (``sim.search.solver`` and each game's hooks) and ``stichsim solve``
(the players built on it: ``test_solving_players``).

* against a plain minimax that visits every line of play: every position of the last four
  tricks of recorded deals, and the count after each legal card at the last three;
* against a plain alpha-beta on the last six tricks of a hundred deals of the trick-taking
  games of three places (whole deals take the plain search minutes each);
* hand-worked positions: a null game the declarer cannot keep trickless, a grand ending;
* ``stichsim solve``: the JSON per deal, the best card's value is the position's, bad input;
* the sides' points add up to what the deck holds; the solver bench.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import solver_reference as ref

from sim.cards import SKAT_DECK, bit_length
from sim.cli import main
from sim.engine.cardplay import HEADER
from sim.engine.play import play
from sim.engine.solving import hooks
from sim.games.doko_skat import solver as solve_doko_skat
from sim.games.skat_family import search_state as skat_family_search
from sim.games.skat_family import solver as solve_skat_family
from sim.games.skat_family.cardplay import LENGTH, S, begin, contract, sit
from sim.games.skat_family.values import GRAND, NULL
from sim.registry import find_game
from sim.search import solver, sure_points
from sim.trace import write_trace

MINIMAX = {"skat": ref.minimax_skat_family, "skat_en_deux": ref.minimax_skat_family,
           "doko_duell": ref.minimax_doko_duell, "doko_skat": ref.minimax_doko_skat}
ALPHABETA = {"skat": ref.alphabeta_skat_family, "skat_en_deux": ref.alphabeta_skat_family,
             "doko_skat": ref.alphabeta_doko_skat}
RULES = {"skat": {"all_pass": "ramsch"}, "skat_en_deux": {"offers": True},
         "doko_duell": {"equal_cards": "second_wins"}, "doko_skat": {}}
"""Rules that bring the rarer cases in: Skat's ramsch, Skat-en-deux's offers (a solved
card play has none), the duel's second copy winning."""
HOOKS = {"skat": skat_family_search, "skat_en_deux": skat_family_search}
"""The modules with the search's hooks where they are not the solver module's own (the
Skat family searches a state of its own)."""


def searched(game_name: str, position: np.ndarray) -> np.ndarray:
    """The state the game's search runs over at ``position`` (a card-play state)."""
    if game_name in HOOKS:
        return skat_family_search.search_state(position)
    return position


def recorded(game_name: str, deals: int, seed: int = 3):
    """Each recorded heuristic deal's card-play start state and its recorded actions."""
    game = find_game(game_name)
    rules = game.rules(RULES[game_name])
    batch = play(game, seed, 0, deals, rules, ["heuristic"] * game.n_players, record=True)
    for i in range(deals):
        started = game.card_play.start(batch.columns, i, batch.actions[i], rules)
        if started is not None:
            yield started


def walk(game_name: str, state: np.ndarray, actions, from_trick: int):
    """The positions of a recorded card play from trick ``from_trick`` (0-based) on: every
    card-play decision (the solved state has no offers)."""
    game = find_game(game_name)
    cp = game.card_play
    module = hooks(find_game(game_name))
    for action in actions:
        if cp.finished(state):
            return
        if state[HEADER.PHASE] == 0 and state[cp.fields.TRICK_NO] >= from_trick:
            solved = state.copy()
            module.prepare(solved)
            yield solved
        cp.step(state, action)


def question(game_name: str, state: np.ndarray) -> np.ndarray:
    q = np.zeros(solver.Q_LENGTH, np.int64)
    hooks(find_game(game_name)).question(state, q)
    return q


@pytest.mark.parametrize("game_name,deals", [("skat", 2000), ("skat_en_deux", 2000),
                                             ("doko_duell", 2000), ("doko_skat", 2000)])
def test_the_solver_matches_plain_minimax_over_the_last_four_tricks(game_name, deals) -> None:
    module = hooks(find_game(game_name))
    tricks = find_game(game_name).tricks
    ws = module.new_workspace(16)
    checked = 0
    kinds = set()
    for state, actions in recorded(game_name, deals):
        for position in walk(game_name, state, actions, tricks - 4):
            q = question(game_name, position)
            solver.clear(ws)
            assert module.count(position, q, ws) == MINIMAX[game_name](position, q)
            kinds.add(int(q[solver.Q_KIND]))
            checked += 1
    assert checked > 5 * deals
    if game_name == "skat":
        assert kinds == {solver.POINTS, solver.TRICKS}  # null games are in


@pytest.mark.parametrize("game_name", ("skat", "doko_duell"))
def test_each_card_is_worth_what_minimax_says_after_it(game_name) -> None:
    module = hooks(find_game(game_name))
    tricks = find_game(game_name).tricks
    ws = module.new_workspace(16)
    out = np.zeros(64, np.int64)
    checked = 0
    for state, actions in recorded(game_name, 60, seed=4):
        for position in walk(game_name, state, actions, tricks - 3):
            q = question(game_name, position)
            solver.clear(ws)
            legal = int(module.counts_after(position, q, ws, out))
            for card in range(64):
                if legal >> card & 1:
                    child = position.copy()
                    module.step(child, card)
                    assert out[card] == MINIMAX[game_name](child, q), (card, position.tolist())
                    checked += 1
    assert checked > 300


@pytest.mark.parametrize("game_name,tricks_left,deals", [("skat", 6, 300), ("skat_en_deux", 6, 300),
                                                        ("doko_skat", 6, 300)])
def test_the_solver_matches_plain_alphabeta(game_name, tricks_left, deals) -> None:
    module = hooks(find_game(game_name))
    cp = find_game(game_name).card_play
    start = find_game(game_name).tricks - tricks_left
    ws = module.new_workspace(18)
    checked = 0
    for state, actions in recorded(game_name, deals, seed=5):
        for position in walk(game_name, state, actions, start):
            if position[cp.fields.TRICK_N]:
                continue
            q = question(game_name, position)
            solver.clear(ws)
            assert module.count(position, q, ws) == ALPHABETA[game_name](position, q)
            checked += 1
            break
    assert checked > deals // 2


def _skat_position(game: int, hands: tuple[str, str, str], declarer: int, skat: str) -> np.ndarray:
    """The last tricks of a deal whose eight tricks played went to middlehand."""
    state = np.zeros(LENGTH, np.int64)
    begin(state, 3, 0, -1, 0)
    held = SKAT_DECK.parse(" ".join(hands)) | SKAT_DECK.parse(skat)
    state[S.POINTS + 1] = 120 - int(sum(SKAT_DECK.points[c] for c in range(32) if held >> c & 1))
    state[S.TRICKS + 1] = state[S.TRICK_NO] = 10 - len(hands[0].split())
    for place, cards in enumerate(hands):
        sit(state, place, np.uint64(SKAT_DECK.parse(cards)), place)
    contract(state, game, declarer, -1, 23, 0, np.uint64(SKAT_DECK.parse(skat)),
             np.uint64(SKAT_DECK.parse(skat)), 0, 0)
    return state


def test_hand_worked_positions() -> None:
    ws = solve_skat_family.new_workspace(12)
    # Null, declarer forehand with C7 C9; middlehand C8 HA, rearhand CT H7. Whichever club
    # he leads, rearhand's CT takes it; rearhand's H7 then goes to middlehand's HA while he
    # throws his last club: no trick for him.
    state = _skat_position(NULL, ("C7 C9", "C8 HA", "CT H7"), 0, "S7 S8")
    q = question("skat", state)
    assert solve_skat_family.count(state, q, ws) == 0
    # With C9 CT against C8 (middlehand) and C7 (rearhand) every club he leads wins: caught.
    state = _skat_position(NULL, ("C9 CT", "C8 HA", "C7 H7"), 0, "S7 S8")
    solver.clear(ws)
    assert solve_skat_family.count(state, question("skat", state), ws) == 1
    # Grand, two tricks: forehand (declarer) CJ SA; middlehand ST S7; rearhand HA S8; the
    # skat DA DT (21 points). Nobody else holds a jack or can keep his spades: whatever the
    # order, every card falls to him: 21 + 2 + 11 + 10 + 11 = 55, after either card.
    state = _skat_position(GRAND, ("CJ SA", "ST S7", "HA S8"), 0, "DA DT")
    solver.clear(ws)
    q = question("skat", state)
    assert solve_skat_family.count(state, q, ws) == 55
    out = np.zeros(64, np.int64)
    solver.clear(ws)
    solve_skat_family.counts_after(state, q, ws, out)
    assert out[SKAT_DECK.index("CJ")] == out[SKAT_DECK.index("SA")] == 55


@pytest.mark.parametrize("game_name,deals", [("skat", 400), ("skat_en_deux", 400),
                                             ("doko_duell", 300), ("doko_skat", 400)])
def test_the_quick_bounds_hold_against_plain_minimax(game_name, deals) -> None:
    # At every trick's start of the last four tricks: what the remaining tricks add under best
    # play lies within the game's bounds, and the bounds say something in many positions.
    game_hooks = HOOKS.get(game_name, hooks(find_game(game_name)))
    tricks = find_game(game_name).tricks
    checked = narrowed = 0
    for state, actions in recorded(game_name, deals, seed=5):
        for position in walk(game_name, state, actions, tricks - 4):
            s = searched(game_name, position)
            if not game_hooks.key(s):
                continue
            q = question(game_name, position)
            count, open_ = game_hooks.tally(s, q)
            low, high = game_hooks.bounds(s, q)
            future = MINIMAX[game_name](position, q) - count
            assert 0 <= low <= future <= high <= open_
            checked += 1
            narrowed += low > 0 or high < open_
    assert checked > 500 and narrowed > checked // 10


@pytest.mark.parametrize("game_name", ["skat", "skat_en_deux"])
def test_the_skat_family_search_state_follows_the_card_play(game_name) -> None:
    """Card by card along recorded deals (suit games, grands, nulls, ramsch), every legal
    card stepped in the search state lands where the card-play state's step does."""
    fields = skat_family_search.F
    kinds = set()
    steps = 0
    for state, actions in recorded(game_name, 300, seed=7):
        for position in walk(game_name, state, actions, 0):
            s = searched(game_name, position)
            kinds.add(int(position[S.GAME]))
            legal = int(solve_skat_family.legal(position))
            for card in (c for c in range(32) if legal >> c & 1):
                after = position.copy()
                solve_skat_family.step(after, card)
                mine = s.copy()
                skat_family_search.step(mine, skat_family_search.POSITION[position[S.GAME], card])
                mine[fields.TRICK + mine[fields.TRICK_N]:fields.TRICK + 3] = -1  # free
                assert np.array_equal(mine, searched(game_name, after))
                steps += 1
    assert steps > 10_000 and {GRAND, NULL} <= kinds


@pytest.mark.parametrize("game_name", ["skat", "skat_en_deux"])
def test_the_skat_family_search_lists_the_cards_the_root_lists(game_name) -> None:
    """At every card-play decision of recorded deals (suit games, grands, nulls, ramsch),
    the search's moves (equal cards looked up run by run) are the cards, in the order, that
    the root's moves list by visiting every card; and the root's ``rep`` sends each legal
    card to a listed one that is equal to it in points and suit."""
    fields = skat_family_search.F
    kinds = set()
    decisions = collapsed = 0
    listed, root_listed = np.empty(solver.MAX_MOVES, np.int64), np.empty(solver.MAX_MOVES, np.int64)
    scores = np.empty(solver.MAX_MOVES, np.int64)
    for state, actions in recorded(game_name, 300, seed=7):
        for position in walk(game_name, state, actions, 0):
            s, q = searched(game_name, position), question(game_name, position)
            game = int(s[fields.GAME])
            kinds.add(game)
            rep = np.full(64, -1, np.int64)
            n = skat_family_search.moves(s, q, listed, np.full(64, -1, np.int64), scores)
            m = skat_family_search.list_moves(s, q, root_listed, rep, scores, True)
            assert list(listed[:n]) == list(root_listed[:m])
            legal = int(solve_skat_family.legal(position))
            for card in (c for c in range(32) if legal >> c & 1):
                at = int(skat_family_search.POSITION[game, card])
                to = int(rep[at])
                assert to in set(listed[:n].tolist())
                assert skat_family_search.EFF_IN_ORDER[game, to] == skat_family_search.EFF_IN_ORDER[game, at]
                if game != NULL:
                    assert (skat_family_search.POINTS_IN_ORDER[game, to]
                            == skat_family_search.POINTS_IN_ORDER[game, at])
                collapsed += to != at
            decisions += 1
    assert decisions > 5_000 and collapsed > 1_000 and {GRAND, NULL} <= kinds


def _what_cards_can_do(s: np.ndarray) -> tuple:
    """A Skat family search state at a trick's start as the search sees it: the leader and,
    for each effective suit, its live cards strongest first as (holder, points), points left
    out in a null game, where they do not count."""
    fields, game = skat_family_search.F, int(s[skat_family_search.F.GAME])
    holder = {i: p for p in range(3) for i in range(32) if s[fields.HANDS + p] >> i & 1}
    suits = [tuple((holder[i], 0 if game == NULL else int(skat_family_search.POINTS_IN_ORDER[game, i]))
                   for i in sorted(holder) if skat_family_search.EFF_IN_ORDER[game, i] == e)
             for e in range(5)]
    return int(s[fields.LEADER]), tuple(suits)


@pytest.mark.parametrize("game_name", ["skat", "skat_en_deux"])
def test_the_table_key_tells_apart_only_what_the_cards_can_do(game_name) -> None:
    """Along random card plays from the first trick of recorded deals: two trick starts of
    one deal (a table holds one deal's positions at a time) share a key only when their live
    cards can do the same (``_what_cards_can_do``); and positions that differ only in which
    of equal neighbouring cards were played do share keys."""
    rng = np.random.default_rng(5)
    positions = shared = 0
    for state, actions in recorded(game_name, 120, seed=11):
        root = next(walk(game_name, state, actions, 0))
        seen: dict[int, tuple] = {}
        hands: dict[int, set] = {}
        for _ in range(30):
            position = root.copy()
            while not position[S.DONE]:
                if not position[S.TRICK_N]:
                    s = searched(game_name, position)
                    key = int(skat_family_search.key(s))
                    can_do = _what_cards_can_do(s)
                    assert seen.setdefault(key, can_do) == can_do
                    hands.setdefault(key, set()).add(tuple(position[S.HANDS:S.HANDS + 3]))
                    positions += 1
                legal = int(solve_skat_family.legal(position))
                solve_skat_family.step(position, int(rng.choice([c for c in range(32)
                                                                 if legal >> c & 1])))
        shared += sum(len(h) - 1 for h in hands.values())
    assert positions > 10_000 and shared > 100


def test_hand_worked_quick_bounds() -> None:
    # Grand, declarer forehand to lead CJ SA; ST S7 and HA S8 against him, the skat DA DT.
    # His jack draws no trump and wins, his SA is the top spade: both tricks are his, with
    # the others' cards: 2 + 11 + 10 + 11 = 34 (the 55 of the solved ending less the skat).
    bounds, tally = skat_family_search.bounds, skat_family_search.tally
    state = _skat_position(GRAND, ("CJ SA", "ST S7", "HA S8"), 0, "DA DT")
    q = question("skat", state)
    assert bounds(searched("skat", state), q) == (34, 34)
    # CJ HJ SA against SJ S7 H7 and DA DT D7: CJ draws middlehand's only trump, so HJ and
    # SA win too: all 38 points. With SJ DJ S7 he keeps a trump after CJ: only CJ and SA,
    # which he must follow, are sure: 2 + 11 + his cheapest two (0 + 2) + rearhand's (0 + 10).
    state = _skat_position(GRAND, ("CJ HJ SA", "SJ S7 H7", "DA DT D7"), 0, "C7 C8")
    assert bounds(searched("skat", state), question("skat", state)) == (38, 38)
    state = _skat_position(GRAND, ("CJ HJ SA", "SJ DJ S7", "DA DT D7"), 0, "C7 C8")
    q = question("skat", state)
    s = searched("skat", state)
    low, high = bounds(s, q)
    assert (low, high) == (25, tally(s, q)[1])
    ws = solve_skat_family.new_workspace(12)
    assert solve_skat_family.count(state, q, ws) >= tally(s, q)[0] + 25
    # Of two equal cards the first played wins: neither player's copy is sure to win.
    suits = np.zeros(5, np.uint64)
    suits[4] = np.uint64(0b11)
    classes = np.zeros(6, np.uint64)
    classes[5] = np.uint64(0b11)  # both worth 11
    hands = (np.uint64(0b01), np.uint64(0b10), np.uint64(0))
    for side in (1, 2):
        assert sure_points.trumps_above(hands, 2, side, suits, classes, np.uint64(0b01)) == 0
    assert sure_points.trumps_above(hands, 2, 1, suits, classes, np.uint64(0)) == 22


# --- stichsim solve ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def traces(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("solve")
    out = {}
    for name in ("skat", "skat_en_deux", "doko_duell"):
        game = find_game(name)
        path = folder / f"{name}.jsonl"
        write_trace(game, 9, 0, 6, None, ["heuristic"] * game.n_players, path)
        out[name] = path
    return out


@pytest.mark.parametrize("game_name,trick", [("skat", 1), ("skat_en_deux", 3), ("doko_duell", 15)])
def test_solve_writes_each_deal_solved(game_name, trick, traces, capsys) -> None:
    assert main(["solve", str(traces[game_name]), "--trick", str(trick), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [d["deal"] for d in lines] == list(range(6))
    game = find_game(game_name)
    solved = [d for d in lines if d.get("solved", True)]
    assert solved
    for d in solved:
        assert d["trick"] == trick and set(d) >= {"to_move", "sides", "moves"}
        assert sorted(sum(d["sides"], [])) == list(range(game.n_players))
        names = set(game.deck.names)
        assert d["moves"] and set(d["moves"]) <= names
        if "declarer_takes_trick" in d:
            continue
        side = 0 if d["to_move"] in d["sides"][0] else 1
        mine = [v[side] for v in d["moves"].values()]
        # his best card is the position's value (fewest points in a ramsch)
        assert d["points"] in d["moves"].values()
        assert d["points"][side] in (max(mine), min(mine))
        assert all(sum(v) == sum(d["points"]) for v in d["moves"].values())
    assert main(["solve", str(traces[game_name]), "--trick", str(trick)]) == 0
    assert f"deal 0, trick {trick}" in capsys.readouterr().out


def test_solve_rejects_bad_input(traces, tmp_path, capsys) -> None:
    assert main(["solve", str(traces["skat"]), "--trick", "11"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and "tricks 1 to 10" in out.err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    assert main(["solve", str(bad)]) == 2
    assert main(["solve", str(tmp_path / "missing.jsonl")]) == 2


def test_both_sides_share_the_deck_points() -> None:
    """The duel's sides share its 240 points; Doko-Skat's lone player and pair share the
    240 less the first-round tricks' points where those do not count."""
    state, _ = next(iter(recorded("doko_duell", 1)))
    assert question("doko_duell", state)[solver.Q_SUM] == 240
    for state, _ in recorded("doko_skat", 20):
        q = question("doko_skat", state)
        fr = sum(int(state[solve_doko_skat.S.FR_POINTS + s]) for s in range(3))
        counted = state[solve_doko_skat.S.DECLARER] >= 0 and state[solve_doko_skat.S.COUNT_FIRST_ROUND]
        assert q[solver.Q_SUM] == (240 if counted else 240 - fr)


def test_bench_solver_times_each_question(capsys) -> None:
    assert main(["bench", "skat", "--solver", "--deals", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = report["solver"]
    assert report["machine"]["cpus"] >= 1
    assert {r["question"] for r in rows} <= {"exact", "reach_61"} and rows
    for r in rows:
        assert r["game"] == "skat" and 1 <= r["positions"] <= 3
        assert 0 < r["median_ms"] <= r["p90_ms"]
    assert main(["bench", "--solver", "--policies", "heuristic"]) == 2


def test_each_bucket_of_the_table_is_one_cache_line() -> None:
    """Every workspace's table, whatever its size and wherever it is allocated, starts at a
    cache line, so each bucket of ``WAYS`` slots of 16 bytes fills exactly one line."""
    assert solver.WAYS * 16 == solver.LINE
    kept = [solve_skat_family.new_workspace(bits) for bits in range(2, 12) for _ in range(4)]
    kept += [solver.aligned_table(slots) for slots in range(1, 40)]
    tables = [ws[solver.W_TABLE] if isinstance(ws, tuple) else ws for ws in kept]
    assert {t.ctypes.data % solver.LINE for t in tables} == {0}
    assert all(t.flags.c_contiguous and not t.any() for t in tables)
    assert [t.shape for t in tables[:8:4]] == [(4, 2), (8, 2)]


def test_the_table_keeps_the_costliest_positions_of_a_bucket() -> None:
    """A full bucket gives up the slot whose search took fewest nodes; after ``clear`` every
    slot is free; what a store proved (exact, at most, at least) is what a lookup finds."""
    ws = solve_skat_family.new_workspace(2)  # four slots: one bucket
    solver.clear(ws)
    nodes = {1: 1000, 2: 10, 3: 100, 4: 5000}
    for key, n in nodes.items():
        solver._store(ws, np.uint64(key), key, False, False, -1, 0, 120, n)
    assert [solver._unpack(solver._lookup(ws, np.uint64(k)))[:2] for k in nodes] == [
        (k, k) for k in nodes]
    # a fifth position takes the slot of the one that took fewest nodes (key 2)
    solver._store(ws, np.uint64(5), 50, True, False, -1, 0, 120, 50)
    assert solver._lookup(ws, np.uint64(2)) == 0
    assert solver._unpack(solver._lookup(ws, np.uint64(5)))[:2] == (0, 50)  # failed low: at most 50
    assert all(solver._lookup(ws, np.uint64(k)) for k in (1, 3, 4))
    # a new generation: every slot is free again, nothing is found
    solver.clear(ws)
    assert not any(solver._lookup(ws, np.uint64(k)) for k in (1, 3, 4, 5))
    solver._store(ws, np.uint64(6), 7, False, True, -1, 0, 120, 1)
    assert solver._unpack(solver._lookup(ws, np.uint64(6)))[:2] == (7, 120)  # failed high


def test_bit_length() -> None:
    """The work a table entry records: the bit length of its nodes."""
    assert [int(bit_length(np.uint64(x))) for x in (0, 1, 2, 255, 256, 1 << 63)] == [
        0, 1, 2, 8, 9, 64]

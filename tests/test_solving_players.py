"""The players built on the double-dummy solver (``pimc``, ``dd``) and the table that plays
them between kernel calls (``sim.engine.solving``).

* ``dd`` plays a card whose solved value under the game's scoring bands is the best of the
  legal cards', checked against the solver's exact count after every legal card, at positions
  of the last four tricks of recorded deals in every game;
* the ``pimc:N`` teacher of a learned player values every legal card by its full total
  over the worlds pimc deals, checked against the exact counts after each card;
* ``pimc`` decides from the seat's observation alone: the card-play state it is given beside
  it can be wiped without changing its card; the observation is the one the seat's kernel
  shows it;
* deals with solving players finish, replay from their recorded actions, and are the same
  whatever the shard; a person's seat beside them plays its script; ``dd`` is named as the
  player that sees every card in traces and the arena;
* the policy names.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import sim.engine.solving as solving
from sim.arena import format_report, run_arena
from sim.engine.batch import run_kernel
from sim.engine.cardplay import HEADER
from sim.engine.kernel import E_SOLVE
from sim.engine.play import play
from sim.engine.seats import DD, HEURISTIC, KIND_BITS, PIMC, SOLVING, PolicyError, label, policy_id
from sim.registry import find_game
from sim.search import pimc, solver
from sim.trace import trace_lines

SEED = 11


def band_utility(module, state: np.ndarray, q: np.ndarray, count: int) -> int:
    """The maximizers' utility of a final count under the game's bands, worked out here from
    the bands' thresholds and weights without the search."""
    thresholds = np.zeros(pimc.MAX_BANDS, np.int64)
    weights = np.zeros(pimc.MAX_BANDS, np.int64)
    n, _ = module.bands(state, q, thresholds, weights)
    return int(sum(int(weights[k]) for k in range(n) if count >= thresholds[k]))


def late_positions(game_name: str, deals: int, from_end: int = 4):
    """Card-play positions (every card known) of the last ``from_end`` tricks of recorded
    heuristic deals."""
    game = find_game(game_name)
    cp = game.card_play
    rules = game.rules()
    batch = play(game, SEED, 0, deals, rules, ["heuristic"] * game.n_players, record=True)
    for i in range(deals):
        started = cp.start(batch.columns, i, batch.actions[i], rules)
        if started is None:
            continue
        state, actions = started
        for action in actions:
            if cp.finished(state):
                break
            if (state[HEADER.PHASE] == 0 and state[cp.fields.TRICK_NO] >= game.tricks - from_end
                    and int(np.uint64(cp.legal(state))).bit_count() > 1):
                yield state.copy()
            cp.step(state, action)


def solved_utilities(module, state: np.ndarray, ws) -> dict[int, int]:
    """Each legal card's utility for the mover at ``state`` (every card known): the exact
    count after it (``counts_after``) read through the game's bands."""
    solved = state.copy()
    module.prepare(solved)
    q = np.zeros(solver.Q_LENGTH, np.int64)
    module.question(solved, q)
    out = np.zeros(64, np.int64)
    solver.clear(ws)
    legal = int(module.counts_after(solved, q, ws, out))
    sign = 1 if (q[solver.Q_MAXIMIZERS] >> solved[HEADER.TO_MOVE]) & 1 else -1
    return {c: sign * band_utility(module, solved, q, int(out[c])) for c in range(64) if legal >> c & 1}


@pytest.mark.parametrize("game_name,deals", [("skat", 40), ("skat_en_deux", 40),
                                             ("doko_duell", 20), ("doko_skat", 30)])
def test_dd_plays_a_card_of_the_best_band(game_name: str, deals: int) -> None:
    module = solving.hooks(find_game(game_name))
    ws = module.new_workspace(16)
    checked = 0
    for state in late_positions(game_name, deals):
        prefer = int(np.uint64(find_game(game_name).card_play.legal(state))).bit_length() - 1
        card = int(module.dd_card(state.copy(), prefer, ws))
        utility = solved_utilities(module, state, ws)
        assert card in utility
        assert utility[card] == max(utility.values()), (card, utility)
        checked += 1
    assert checked >= 20


def full_totals(module, view: np.ndarray, key: int, worlds: int) -> dict[int, int]:
    """Each legal card's total band utility for the mover over the worlds pimc deals from
    ``view`` with stream ``key``, worked out the long way: every legal card's exact count
    solved in each world (``counts_after``)."""
    rng = np.array([key], np.uint64)
    ws = module.new_workspace(16)
    totals: dict[int, int] = {}
    for _ in range(worlds):
        state = np.zeros(module.LENGTH, np.int64)
        module.world(view, rng, state)
        for c, u in solved_utilities(module, state, ws).items():
            totals[c] = totals.get(c, 0) + u
    return totals


def full_totals_card(module, view: np.ndarray, key: int, worlds: int, prefer: int) -> int:
    """The pimc card worked out the long way (``full_totals``): the best total taken (the
    heuristic's card first on a tie, then the lowest card)."""
    totals = full_totals(module, view, key, worlds)
    best = max(totals.values())
    tied = [c for c in sorted(totals) if totals[c] == best]
    return prefer if prefer in tied else tied[0]


@pytest.mark.parametrize("game_name,deals,worlds", [("skat", 30, 4), ("skat_en_deux", 30, 4),
                                                    ("doko_duell", 8, 3), ("doko_skat", 12, 3)])
def test_pimc_teacher_values_every_card_by_its_full_total(game_name: str, deals: int,
                                                          worlds: int) -> None:
    """The ``pimc:N`` teacher's value of each legal card (``pimc_values``, ``pimc.totals``) is
    its mean band utility over the worlds pimc deals, every card's exact count solved the
    long way: the value of every card, not only of the one pimc would play."""
    game = find_game(game_name)
    module = solving.hooks(game)
    ws = module.new_workspace(16)
    checked = 0
    for i, state in enumerate(late_positions(game_name, deals, from_end=5)):
        if i % 4:
            continue
        view = np.zeros(game.observation.LENGTH, np.int64)
        game.card_play.observe(state, int(state[HEADER.TO_MOVE]), view)
        cards, means = module.pimc_values(view, np.array([i], np.uint64), worlds, ws)
        totals = full_totals(module, view, i, worlds)
        assert sorted(int(c) for c in cards) == sorted(totals)
        assert {int(c): float(m) for c, m in zip(cards, means)} == pytest.approx(
            {c: t / worlds for c, t in totals.items()})
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("game_name,deals,worlds", [("skat", 40, 6), ("skat_en_deux", 40, 6),
                                                    ("doko_duell", 12, 4), ("doko_skat", 16, 4)])
def test_pimc_chooses_the_card_that_full_totals_choose(game_name: str, deals: int,
                                                       worlds: int) -> None:
    """pimc searches a card in a world only as far as the choice needs (``pimc.decide``); its
    card is the one the full totals over the same worlds choose, the tie rule included
    (each position asked with the heuristic's card and with the lowest legal card
    preferred)."""
    module = solving.hooks(find_game(game_name))
    cp = find_game(game_name).card_play
    ws = module.new_workspace(16)
    checked = 0
    for i, state in enumerate(late_positions(game_name, deals, from_end=5)):
        if i % 3:
            continue
        player = int(state[HEADER.TO_MOVE])
        view = np.zeros(find_game(game_name).observation.LENGTH, np.int64)
        cp.observe(state, player, view)
        legal = int(np.uint64(cp.legal(state)))
        for prefer in (int(cp.decide(HEURISTIC, view, np.array([i], np.uint64))),
                       (legal & -legal).bit_length() - 1):
            card = int(module.pimc_card(view, np.array([i], np.uint64), worlds, prefer, ws))
            assert card == full_totals_card(module, view, i, worlds, prefer)
        checked += 1
    assert checked >= 8


def test_pimc_bets_on_a_search_from_how_its_worlds_other_cards_fared() -> None:
    """``pimc.chance_up``: the chance that a search at a threshold finds the count reaching
    it is the share of the world's own searched cards known to reach it, drawn toward the
    share over every world (``band_shares``) with the weight of ``PRIOR_WORLDS`` cards."""
    # world 0: cards 0 and 1 reach 61, card 2 falls short, card 3 is unknown there;
    # world 1 knows nothing yet, and its fourth card is not searched (three children)
    low = np.array([[61, 70, -1, -1], [-1, -1, -1, 90]], np.int64)
    high = np.array([[120, 120, 60, 32767], [32767, 32767, 32767, 120]], np.int64)
    up, known = np.zeros((2, pimc.MAX_BANDS), np.int64), np.zeros((2, pimc.MAX_BANDS), np.int64)
    band_up, band_known = np.zeros(pimc.MAX_BANDS, np.int64), np.zeros(pimc.MAX_BANDS, np.int64)
    thresholds = np.array([[61, 90] + [0] * 14, [61, 90] + [0] * 14], np.int64)
    pimc.band_shares(low, high, thresholds, np.array([2, 2]), np.array([4, 3]), 2, up, known,
                     band_up, band_known)
    assert (int(band_up[0]), int(band_known[0])) == (2, 3)  # at 61: world 1's fourth card not counted
    assert (int(band_up[1]), int(band_known[1])) == (0, 1)  # at 90: only card 2 is known (short)
    assert (int(up[0, 0]), int(known[0, 0]), int(up[1, 0]), int(known[1, 0])) == (2, 3, 0, 0)
    prior = (2 + 1) / (3 + 2)
    assert pimc.chance_up(up[0, 0], known[0, 0], 2, 3) == pytest.approx(
        (2 + pimc.PRIOR_WORLDS * prior) / (3 + pimc.PRIOR_WORLDS))
    assert pimc.chance_up(up[1, 0], known[1, 0], 2, 3) == pytest.approx(prior)
    assert pimc.chance_up(up[0, 1], known[0, 1], 0, 1) == pytest.approx(
        (0 + pimc.PRIOR_WORLDS / 3) / (1 + pimc.PRIOR_WORLDS))


def stops(game_name: str, policies: list[str], deals: int):
    """The first solving stop of each deal: the seat's view and the card-play state."""
    game = find_game(game_name)
    pols = np.array([SOLVING if p in ("pimc", "dd") else policy_id(p) for p in policies], np.int64)
    batch = run_kernel(game, SEED, 0, deals, game.rules(), pols, True, [np.zeros((0, 4), np.int64)] * deals)
    for i in range(deals):
        if batch.columns["replay_error"][i] == E_SOLVE:
            yield batch.views[i], batch.states[i]


def test_pimc_decides_from_the_observation_alone() -> None:
    game = find_game("skat")
    cp = game.card_play
    pol = policy_id("pimc:2")
    seen = 0
    for view, state in stops("skat", ["pimc", "heuristic", "heuristic"], 8):
        player = int(state[HEADER.PLAYER])
        shown = view.copy()
        cp.observe(state, player, shown)
        assert np.array_equal(shown, view)  # the card play's observation of the seat
        solving._MEMO.clear()
        card = solving.choose(game, pol, view, state, key=5)
        solving._MEMO.clear()
        blind = solving.choose(game, pol, view, np.zeros_like(state), key=5)
        assert card == blind
        assert int(view[game.observation.LEGAL]) >> card & 1
        seen += 1
    assert seen >= 5


def test_dd_reads_the_deal() -> None:
    """The same view with the hidden cards dealt otherwise can change dd's card (it sees
    them); it is named as the cheat it is."""
    game = find_game("skat")
    pol = policy_id("dd")
    differs = 0
    for view, state in stops("skat", ["heuristic", "dd", "heuristic"], 40):
        other = state.copy()
        cp = game.card_play
        seat = int(state[HEADER.TO_MOVE])
        a, b = [(seat + k) % 3 for k in (1, 2)]
        fields = cp.fields
        if int(state[fields.HANDS + a]).bit_count() != int(state[fields.HANDS + b]).bit_count():
            continue  # mid-trick: swapping would deal one of them a card too many
        other[fields.HANDS + a], other[fields.HANDS + b] = state[fields.HANDS + b], state[fields.HANDS + a]
        solving._MEMO.clear()
        if solving.choose(game, pol, view, state, 1) != solving.choose(game, pol, view, other, 1):
            differs += 1
    assert differs > 0
    assert label("dd") == "dd (sees every card)"


def test_deals_with_solving_players_replay_and_do_not_depend_on_the_shard() -> None:
    game = find_game("skat")
    rules = game.rules()
    seats = ["pimc:2", "dd", "heuristic"]
    whole = play(game, SEED, 0, 6, rules, seats, record=True)
    part = play(game, SEED, 3, 3, rules, seats, record=True)
    assert not whole.columns["replay_error"].any()
    for name in whole.columns:
        assert np.array_equal(whole.columns[name][3:], part.columns[name]), name
    replayed = play(game, SEED, 0, 6, rules, ["random"] * 3, script=whole.actions)
    for name in whole.columns:
        assert np.array_equal(whole.columns[name], replayed.columns[name]), name
    # the solving seats did decide: their play differs from the heuristic's in some deal
    heuristic = play(game, SEED, 0, 6, rules, ["heuristic"] * 3, record=True)
    assert any(not np.array_equal(a, b) for a, b in zip(whole.actions, heuristic.actions))


def test_a_person_plays_his_script_beside_solving_players() -> None:
    """A person who plays the heuristic's rows at seat 0 gets the heuristic's deal back."""
    game = find_game("skat_en_deux")
    rules = game.rules()
    played = play(game, SEED, 0, 4, rules, ["heuristic", "dd"], record=True)
    scripts = [rows[rows[:, 1] == 0] for rows in played.actions]
    person = play(game, SEED, 0, 4, rules, ["person", "dd"], script=scripts)
    for name in played.columns:
        assert np.array_equal(played.columns[name], person.columns[name]), name


def test_traces_and_the_arena_say_that_dd_sees_every_card() -> None:
    lines = list(trace_lines(find_game("skat"), SEED, 0, 2, None, ["heuristic", "dd", "dd"]))
    assert all(line["sees_every_card"] == [1, 2] for line in lines)
    json.dumps(lines)
    fair = list(trace_lines(find_game("skat"), SEED, 0, 1, None, ["heuristic"] * 3))
    assert "sees_every_card" not in fair[0]
    report = run_arena("skat", ["heuristic", "dd"], deals=4, jobs=1)
    assert report["omniscient"] == ["dd"]
    assert "dd sees every card" in format_report(report)


def test_reports_name_dd_as_the_simulator_does() -> None:
    from analysis.report import policy_label

    for name in ("dd", "pimc", "pimc:8", "heuristic", "lookahead:64", "random"):
        assert policy_label(name) == label(name)


def test_policy_names() -> None:
    assert policy_id("pimc") == PIMC | 16 << KIND_BITS
    assert policy_id("pimc:4") == PIMC | 4 << KIND_BITS
    assert policy_id("dd") == DD
    with pytest.raises(PolicyError):
        policy_id("dd:3")
    with pytest.raises(PolicyError):
        policy_id("pimc:0")
    assert label("pimc:8") == "pimc:8"


def test_warm_compiles_every_game() -> None:
    from sim.registry import GAMES
    from sim.warm import solvers, warm

    done = warm(with_solvers=True, jobs=1)
    names = [name for name, _ in done]
    assert sorted(solvers()) == ["sim.games.doko_duell.solver", "sim.games.doko_skat.solver",
                                 "sim.games.skat_family.solver"]
    assert sorted(names) == sorted([*GAMES, *solvers()])
    assert all(seconds >= 0 for _, seconds in done)


def test_a_person_plays_a_whole_deal_against_dd(monkeypatch, capsys, tmp_path) -> None:
    """``stichsim play`` with ``dd`` opponents: the deal is played to its end through standard
    input, the screen and the trace say that they see every card, and the trace replays."""
    import io

    from sim.cli import main
    from sim.trace import replay_file

    trace = tmp_path / "deal.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("#1\n" * 400))
    status = main(["play", "skat", "--policy", "dd", "--seed", "8", "--seat", "1", "--trace",
                   str(trace)])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "the others play dd (sees every card)" in out and "Deal over." in out
    obj = json.loads(trace.read_text())
    assert obj["policies"] == ["dd", "person", "dd"] and obj["sees_every_card"] == [0, 2]
    assert replay_file(trace) == []

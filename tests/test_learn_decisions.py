"""Decisions labelled by the teacher (``sim.learn.decisions``): each legal action's value is
the lookahead's mean outcome of it, worked out again here from the card play's own functions
in the toy game (no hidden cards: the one world is the deal) and checked against the
lookahead player's own choice in every game; the labels are the same however the deals are
split over chunks or workers; the files keep what they were made from."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from toygame import game as toy
from toygame import worlds as toy_worlds

from sim.engine.cardplay import HEADER, PLAY
from sim.engine.net import NO_NET
from sim.engine.seats import HEURISTIC, policy_id
from sim.learn import decisions as D
from sim.registry import GAMES
from sim.rng import stream_key

TAUGHT = [name for name, game in GAMES.items()
          if game.card_play is not None and game.card_play.action_values is not None]

EIGHT, FOUR = D.Teacher("lookahead", 8), D.Teacher("lookahead", 4)
"""The lookahead teaching with 8 and 4 rollouts a decision."""


def test_every_game_with_the_lookahead_can_teach() -> None:
    assert set(TAUGHT) == {n for n, g in GAMES.items() if "lookahead" in g.policies}
    assert set(TAUGHT) == {"skat", "skat_en_deux", "doko_duell", "doko_skat"}


def test_in_the_toy_game_each_value_is_the_action_played_out_by_the_heuristic() -> None:
    """No hidden cards and a heuristic without chance: every world is the deal and every
    rollout the same, so an action's value is exactly the card-point difference after it
    and the heuristic's play to the end."""
    game = toy.GAME
    cp = game.card_play
    assert cp is not None
    labelled = D.label_deals(game, 5, 0, 12, game.rules(), ["random", "random"], EIGHT)
    assert len(labelled) > 12
    batch_states = _states_at_decisions(game, 5, 0, 12, ["random", "random"])
    assert len(batch_states) == len(labelled)
    pols = np.full(2, HEURISTIC, np.int64)
    rngs = np.zeros((2, 1), np.uint64)
    for row, state in enumerate(batch_states):
        player = int(state[HEADER.PLAYER])
        assert labelled.player[row] == player
        for action in np.flatnonzero(labelled.legal()[row]):
            after = state.copy()
            cp.step(after, int(action))
            cp.playout(after, pols, rngs, NO_NET)
            assert labelled.values[row, action] == toy_worlds.value(after, player)


def _states_at_decisions(game, seed, first, count, policies) -> list[np.ndarray]:
    """The true card-play state at each decision with a choice, as the labeller walks them."""
    from sim.engine.play import play
    cp = game.card_play
    batch = play(game, seed, first, count, game.rules(), policies, record=True)
    out = []
    for i in range(count):
        started = cp.start(batch.columns, i, batch.actions[i], game.rules())
        if started is None:
            continue
        state, plays = started
        for action in plays:
            legal = int(cp.legal(state))
            if legal & (legal - 1):
                out.append(state.copy())
            cp.step(state, int(action))
    return out


@pytest.fixture(scope="module", params=TAUGHT)
def labelled(request: pytest.FixtureRequest) -> tuple[str, D.Decisions]:
    game = GAMES[request.param]
    return request.param, D.label_deals(game, 11, 0, 30, game.rules(),
                                        ["heuristic"] * game.n_players, EIGHT)


def test_labels_cover_exactly_the_legal_actions(labelled: tuple[str, D.Decisions]) -> None:
    name, d = labelled
    game = GAMES[name]
    assert len(d) > 30 * 5
    legal = d.legal()
    assert (legal.sum(axis=1) >= 2).all()
    assert legal[np.arange(len(d)), d.chosen].all()
    cards = d.phase == PLAY
    assert cards.any()
    shown = d.obs[cards, game.observation.LEGAL].astype(np.uint64)
    bits = (shown[:, None] >> np.arange(D.ACTIONS, dtype=np.uint64)) & np.uint64(1)
    assert (bits.astype(bool) == legal[cards]).all()
    assert (d.obs[:, game.observation.SEAT] >= 0).all()
    assert np.isfinite(d.values[legal]).all()
    assert np.diff(d.deal).min() >= 0


def test_the_teacher_weighs_as_the_lookahead_player_chooses(labelled: tuple[str, D.Decisions]) -> None:
    """At every decision the lookahead player (the same rollouts, the same stream) plays the
    teacher's best action, ties going to the heuristic's."""
    name, d = labelled
    cp = GAMES[name].card_play
    assert cp is not None and cp.action_values is not None
    pol = policy_id("lookahead:8")
    for row in range(len(d)):
        key = stream_key(3, row, 7)
        obs = d.obs[row]
        prefer = cp.decide(HEURISTIC, obs, np.array([key], np.uint64))
        actions, means = cp.action_values(obs, np.array([key], np.uint64), 8, NO_NET)
        best = actions[means == means.max()]
        expected = prefer if prefer in best else best[0]
        assert cp.decide(pol, obs, np.array([key], np.uint64)) == expected, (name, row)


def test_labels_do_not_depend_on_how_the_deals_are_split() -> None:
    game = GAMES["doko_duell"]
    rules = game.rules()
    whole = D.label_deals(game, 4, 0, 20, rules, ["heuristic", "random"], EIGHT)
    parts = D.concat([D.label_deals(game, 4, 0, 7, rules, ["heuristic", "random"], EIGHT),
                      D.label_deals(game, 4, 7, 13, rules, ["heuristic", "random"], EIGHT)],
                     game.observation.LENGTH)
    _assert_same(whole, parts)
    other = D.label_deals(game, 5, 0, 20, rules, ["heuristic", "random"], EIGHT)
    assert not np.array_equal(np.nan_to_num(other.values), np.nan_to_num(whole.values)[:len(other)])


def test_labels_are_the_same_for_any_number_of_workers() -> None:
    game = GAMES["skat"]
    one = D.label(game, 2, 2 * D.CHUNK + 10, game.rules(), ["heuristic"] * 3, FOUR, jobs=1)
    two = D.label(game, 2, 2 * D.CHUNK + 10, game.rules(), ["heuristic"] * 3, FOUR, jobs=2)
    _assert_same(one, two)
    assert one.deal.max() >= 2 * D.CHUNK


def _assert_same(a: D.Decisions, b: D.Decisions) -> None:
    for f in D.FIELDS:
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f), err_msg=f)


def test_a_file_keeps_the_decisions_and_what_made_them(tmp_path: Path) -> None:
    game = GAMES["skat_en_deux"]
    d = D.label_deals(game, 1, 0, 5, game.rules(), ["heuristic", "heuristic"], FOUR)
    path = tmp_path / "decisions.npz"
    D.save(d, path, {"game": game.name, "teacher": "lookahead:4"})
    assert [p.name for p in tmp_path.iterdir()] == ["decisions.npz"]
    back, about = D.load(path)
    _assert_same(d, back)
    assert about["game"] == "skat_en_deux" and about["teacher"] == "lookahead:4"
    from sim import SOURCE_HASH
    assert about["engine"] == SOURCE_HASH


def test_a_game_without_the_lookahead_cannot_teach() -> None:
    game = GAMES["skat"]
    assert game.card_play is not None
    bare = dataclasses.replace(game, card_play=dataclasses.replace(game.card_play, action_values=None))
    with pytest.raises(ValueError, match="game skat has no lookahead"):
        D.label(bare, 1, 5, bare.rules(), ["heuristic"] * 3, FOUR)


def test_doko_skat_teaches_its_first_round_from_the_kernels_view() -> None:
    """Doko-Skat's first round, which decides the teams, is labelled before its main game:
    every first-round card with a choice, in the order played, shown as the kernel shows the
    seat (the position rebuilt from the deal's columns with the kernel's own steps, which
    ``test_cardplay_doko_skat`` checks against the kernel's views field by field), the
    recorded card as the choice, valued by the teacher on the decision's own stream; the
    main game's decisions follow, numbered on from the first round's nine cards."""
    from sim import actions as A
    from sim.engine.play import play
    from sim.games.doko_skat import cardplay as cp
    from sim.games.doko_skat.observation import FIELDS as O
    from sim.games.doko_skat.observation import PH_FIRST_ROUND, PH_PLAY

    game = GAMES["doko_skat"]
    assert game.card_play is not None and game.card_play.action_values is not None
    teach = game.card_play.action_values
    rules = game.rules()
    d = D.label_deals(game, 11, 0, 12, rules, ["heuristic"] * 3, FOUR)
    batch = play(game, 11, 0, 12, rules, ["heuristic"] * 3, record=True)
    assert batch.actions is not None
    first_round = 0
    for i in range(12):
        col = {k: v[i].item() for k, v in batch.columns.items()}
        mine = np.flatnonzero(d.deal == i)
        phases = d.obs[mine, O.PHASE]
        n = int((phases == PH_FIRST_ROUND).sum())
        assert (phases[:n] == PH_FIRST_ROUND).all() and (phases[n:] == PH_PLAY).all()
        state = np.zeros(cp.LENGTH, np.int64)
        cp.start_first_round(state, (col["dealer"] + 1) % 3, col["turned_up"],
                             np.array([col[f"first_round_{s}"] for s in range(3)], np.uint64),
                             col["team_cards"], int(col["first_round_points"]), col["bridge_order"],
                             col["main_lead"])
        cards = [int(r[2]) for r in batch.actions[i] if r[0] == A.PLAY][:cp.FIRST_ROUND_CARDS]
        rows = iter(mine[:n])
        for k, card in enumerate(cards):
            legal = int(cp.legal(state))
            if legal & (legal - 1):
                row = next(rows)
                obs = np.zeros(O.LENGTH, np.int64)
                cp.observe(state, int(state[cp.S.TO_MOVE]), obs)
                assert d.obs[row].tolist() == obs.tolist() and d.chosen[row] == card
                key = np.array([stream_key(11, i, D.LABEL_STREAM + k)], np.uint64)
                actions, means = teach(obs, key, 4, NO_NET)
                np.testing.assert_array_equal(d.values[row, actions], means.astype(np.float32))
                first_round += 1
            cp.step(state, card)
        assert next(rows, None) is None
        main = cp.start(batch.columns, i, batch.actions[i])
        assert main is not None
        state, plays = main
        rows = iter(mine[n:])
        for j, card in enumerate(plays):
            legal = int(cp.legal(state))
            if legal & (legal - 1):
                row = next(rows)
                key = np.array([stream_key(11, i, D.LABEL_STREAM + cp.FIRST_ROUND_CARDS + j)],
                               np.uint64)
                actions, means = teach(d.obs[row], key, 4, NO_NET)
                np.testing.assert_array_equal(d.values[row, actions], means.astype(np.float32))
            cp.step(state, card)
        assert next(rows, None) is None
    assert first_round > 12 * 2


@pytest.mark.parametrize("name", ["skat", "skat_en_deux"])
def test_answers_before_the_card_play_are_shown_as_the_kernel_shows_them(name: str) -> None:
    """The network may answer the bids, holds, the pickup, and in Skat-en-deux 18 and a
    give-up at 18: each is labelled from the observation the kernel showed (the deal replayed with the
    player's decisions as a person's), with the answers 0 and 1 alone legal. The heuristic,
    which played the deals, gives the recorded answer to that observation again; passing is
    worth nothing and giving up at 18 costs ``GIVE_UP_SCORE``, as the lookahead weighs them;
    and where the lookahead player weighs the same plans (all but the pickup) it answers
    yes exactly where the teacher's yes is worth more."""
    from sim.games.skat_family import lookahead as L
    from sim.games.skat_family.observation import FIELDS as O
    from sim.games.skat_family.observation import PH_ANSWER, PH_BID, PH_FH18, PH_GIVE_UP, PH_PICKUP
    from sim.games.skat_family.values import GIVE_UP_SCORE

    game = GAMES[name]
    rules = game.rules()
    d = D.label_deals(game, 11, 0, 40, rules, ["heuristic"] * game.n_players, EIGHT)
    asked = d.phase == D.BEFORE_PLAY
    phases = d.obs[asked, O.PHASE]
    assert {PH_BID, PH_ANSWER, PH_PICKUP} <= set(phases.tolist())
    assert (PH_GIVE_UP in phases) == (name == "skat_en_deux")
    assert set(phases.tolist()) <= {PH_BID, PH_ANSWER, PH_FH18, PH_PICKUP, PH_GIVE_UP}
    legal = d.legal()[asked]
    assert legal[:, :2].all() and not legal[:, 2:].any()
    assert (d.obs[asked, O.LEGAL] == 0b11).all()
    values, chosen, obs = d.values[asked], d.chosen[asked], d.obs[asked]
    bids = game.bid_values(rules)
    weighed = 0
    for row in range(len(obs)):
        rng = np.array([stream_key(3, row, 7)], np.uint64)
        phase = obs[row, O.PHASE]
        if phase == PH_BID:
            heuristic = L.decide_bid(HEURISTIC, obs[row], rng, bids) > 0
        else:
            heuristic = L.decide_yes(HEURISTIC, obs[row], rng)
        assert chosen[row] == heuristic, row
        if phase in (PH_BID, PH_ANSWER) or (phase == PH_FH18 and not obs[row, O.ALL_PASS_RAMSCH]):
            assert values[row, 0] == 0
        if phase == PH_GIVE_UP:
            assert values[row, 1] == -GIVE_UP_SCORE
        if phase != PH_PICKUP:
            key = np.array([stream_key(11, int(d.deal[asked][row]), 5)], np.uint64)
            codes, means = L.answer_values(obs[row], key.copy(), 8, NO_NET)
            lookahead = policy_id("lookahead:8")
            said = (L.decide_bid(lookahead, obs[row], key.copy(), bids) > 0 if phase == PH_BID
                    else L.decide_yes(lookahead, obs[row], key.copy()))
            assert said == (means[1] > means[0]), row
            weighed += 1
    assert weighed > 20

"""The PettingZoo environments (``sim.env``): PettingZoo's own API test for every game, the
masks offer exactly the legal actions, the rewards are the deal's scores, and a deal is the
simulator's deal of its number."""

from __future__ import annotations

import numpy as np
import pytest

from sim import actions as A
from sim.engine.play import play
from sim.env import action_codes, action_names, make
from sim.registry import GAMES, find_game

pettingzoo_test = pytest.importorskip("pettingzoo.test")


@pytest.mark.parametrize("name", list(GAMES))
def test_pettingzoo_api_test_passes(name: str) -> None:
    pettingzoo_test.api_test(make(name), num_cycles=200)


def play_out(env, rng: np.random.Generator) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    """Every agent acts at random among its legal actions to the end; the actions taken."""
    taken = []
    for agent in env.agent_iter():
        obs, _, done, _, _ = env.last()
        if done:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(legal))
        taken.append((agent, action))
        env.step(action)
    return taken


@pytest.mark.parametrize("name", list(GAMES))
def test_the_rewards_are_the_scores_of_the_deal_the_agents_played(name: str) -> None:
    """One agent against the heuristic: its deal is the engine's deal of that number with the
    agent's decisions as a person's, the rewards the seats' scores, paid once, at the end."""
    game = find_game(name)
    seats = ["agent"] + ["heuristic"] * (game.n_players - 1)
    env = make(name, seats=seats)
    rng = np.random.default_rng(1)
    env.reset(seed=4)
    for number in range(3):
        if number:
            env.reset()
        paid = []
        for agent in env.agent_iter():
            obs, reward, done, _, _ = env.last()
            paid.append(reward)
            if done:
                env.step(None)
                continue
            assert agent == "seat_0" and obs["action_mask"].any()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert env.columns is not None and not env.agents
        score = env.columns[f"{game.outcome.score}_0"][0]
        assert paid[-1] == score and all(r == 0 for r in paid[:-1])
        again = play(game, 4, env.number, 1, game.rules(), ["person"] + seats[1:],
                     script=[np.array(env.script, np.int64).reshape(-1, A.ROW)])
        assert again.columns[f"{game.outcome.score}_0"][0] == score


def test_same_seed_same_actions_same_deal_and_a_wrong_action_is_refused() -> None:
    env = make("skat", all_pass="ramsch")
    env.reset(seed=9)
    taken = play_out(env, np.random.default_rng(2))
    assert env.columns is not None
    first = dict(env.columns)
    env.reset(seed=9)
    for agent, action in taken:
        assert env.agent_selection == agent
        env.step(action)
    assert env.columns is not None
    assert all(np.array_equal(first[k], env.columns[k]) for k in first)
    env.reset(seed=9)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not legal now"):
        env.step(illegal)


def test_a_discard_is_one_step_a_card_by_the_same_agent() -> None:
    """Seat 0 takes every game (the others pass) and picks up the skat: it puts two cards
    away in two steps in a row, the first card no longer offered in the second."""
    env = make("skat")
    names = action_names(env)
    env.reset(seed=0)
    discards = []
    for agent in env.agent_iter():
        obs, _, done, _, _ = env.last()
        if done:
            env.step(None)
            continue
        legal = [names[k] for k in np.flatnonzero(obs["action_mask"])]
        if env.question.pick == 2:
            discards.append((agent, legal))
        wants = ["pickup", "hold", "bid 18"] if agent == "seat_0" else ["pass"]
        choice = next((w for w in wants if w in legal), legal[0])
        env.step(names.index(choice))  # Skat's action names are all different
    assert [a for a, _ in discards] == ["seat_0", "seat_0"]
    assert len(discards[1][1]) == len(discards[0][1]) - 1 == 11


def test_the_action_codes_are_the_same_for_every_deal() -> None:
    game = find_game("doko_skat")
    codes = action_codes(game, game.rules())
    assert codes[:game.deck.n_cards] == [(A.PLAY, c) for c in range(game.deck.n_cards)]
    assert len(set(codes)) == len(codes)
    with pytest.raises(ValueError, match="at least one seat"):
        make("skat", seats=["heuristic"] * 3)

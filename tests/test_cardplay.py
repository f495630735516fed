"""Every game's card play as a state and pure functions (``sim.engine.cardplay``), checked
against deals the kernels played and recorded.

A state taken from the start of a recorded deal's card play, stepped through the recorded
actions (each of them legal there), ends where the deal ended: finished, with the recorded
result. A copy taken in the middle plays on alone and reaches the same result, leaving the
original where it was. At every decision of a deal heuristic players played, the heuristic
given the observation derived from the state (``observe``) chooses what was recorded. A
state whose unseen cards are dealt anew plays to its end with any policy.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine.cardplay import HEADER_FIELDS
from sim.engine.net import NO_NET
from sim.engine.play import play
from sim.engine.seats import HEURISTIC, RANDOM
from sim.registry import GAMES

DEALS = 160

RULES = {
    "skat": [{}, {"all_pass": "ramsch", "announcements": True}],
    "skat_en_deux": [{}, {"contra_re": True, "open_hand": True}],
    "doko_duell": [{}, {"equal_cards": "second_heart_ten", "b_one_per_trick": True,
                        "b_marker_supply": "none"}],
    "doko_skat": [{}, {"bridge_order": "skat", "team_cards": "all", "first_round_points": False}],
}


def _card_play(name: str):
    cp = GAMES[name].card_play
    if cp is None:
        pytest.fail(f"{name} declares no card play")
    return cp


def _start(cp, batch, i: int, rules: dict):
    """``cp.start`` for deal ``i`` of ``batch``, told the rules it was played under (a game
    whose result columns do not hold them, such as the duel's ``equal_cards``, needs them)."""
    return cp.start(batch.columns, i, batch.actions[i], rules)


def _recorded(name: str, rules: dict, policies: list[str], seed: int = 31):
    game = GAMES[name]
    batch = play(game, seed, 0, DEALS, game.rules(rules), policies, record=True)
    assert batch.actions is not None
    return batch


@pytest.mark.parametrize("name", list(GAMES))
def test_the_state_starts_with_the_common_header(name: str) -> None:
    cp = _card_play(name)
    assert cp.fields._fields[:len(HEADER_FIELDS)] == HEADER_FIELDS
    assert [getattr(cp.fields, f) for f in HEADER_FIELDS] == list(range(len(HEADER_FIELDS)))
    assert cp.length == len(cp.fields) or cp.length > max(cp.fields)


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("variant", [0, 1])
@pytest.mark.parametrize("name", list(GAMES))
def test_recorded_card_play_steps_to_the_recorded_result(name: str, variant: int, policy: str) -> None:
    """From the start of each recorded card play, and from a copy taken in its middle, the
    recorded actions are legal and lead to the recorded result."""
    cp = _card_play(name)
    game = GAMES[name]
    batch = _recorded(name, RULES[name][variant], [policy] * game.n_players)
    rng = np.random.default_rng(5)
    played = 0
    for i in range(DEALS):
        started = _start(cp, batch, i, RULES[name][variant])
        if started is None:
            continue
        state, actions = started
        assert state.shape == (cp.length,) and state.dtype == np.int64
        middle = int(rng.integers(0, len(actions) + 1))
        copy = None
        for k, action in enumerate(actions):
            if k == middle:
                copy = state.copy()
            assert not cp.finished(state), f"deal {i}: over before action {k}"
            assert (int(cp.legal(state)) >> int(action)) & 1, f"deal {i}: action {k} not legal"
            cp.step(state, int(action))
        assert cp.finished(state), f"deal {i}: not over after the recorded actions"
        recorded = {c: int(batch.columns[c][i]) for c in cp.result(state)}
        assert cp.result(state) == recorded, f"deal {i}"
        if copy is None:
            copy = state.copy()
        before = copy.copy()
        for action in actions[middle:]:
            cp.step(copy, int(action))
        assert cp.result(copy) == recorded, f"deal {i}: from the middle (action {middle})"
        assert not np.array_equal(before, copy) or middle == len(actions)
        played += 1
    assert played > DEALS // 3


@pytest.mark.parametrize("variant", [0, 1])
@pytest.mark.parametrize("name", list(GAMES))
def test_the_heuristic_decides_the_same_from_the_derived_observation(name: str, variant: int) -> None:
    """In deals heuristic players played, the heuristic shown ``observe(state, seat)`` at each
    card-play decision chooses the recorded action: the observation derived from the state
    is the one the kernel showed (as far as the heuristic reads it)."""
    cp = _card_play(name)
    game = GAMES[name]
    batch = _recorded(name, RULES[name][variant], ["heuristic"] * game.n_players, seed=47)
    obs = np.zeros(game.observation.LENGTH, np.int64)
    rng = np.zeros(1, np.uint64)
    decided = 0
    for i in range(DEALS):
        started = _start(cp, batch, i, RULES[name][variant])
        if started is None:
            continue
        state, actions = started
        for k, action in enumerate(actions):
            obs[:] = 0
            cp.observe(state, int(state[cp.fields.TO_MOVE]), obs)
            assert (int(obs[game.observation.LEGAL]) == int(cp.legal(state))
                    or int(state[cp.fields.PHASE]) != 0)
            assert cp.decide(HEURISTIC, obs, rng) == action, f"deal {i}, action {k}"
            cp.step(state, int(action))
            decided += 1
    assert decided > DEALS * 5


@pytest.mark.parametrize("policy", [RANDOM, HEURISTIC])
@pytest.mark.parametrize("name", list(GAMES))
def test_a_state_plays_out_from_the_middle_with_any_policy(name: str, policy: int) -> None:
    """Copies of mid-deal states played to their end by a policy finish, and the result
    keeps the game's totals (every card played once: the result's points add up as in the
    recorded deal)."""
    cp = _card_play(name)
    game = GAMES[name]
    batch = _recorded(name, {}, ["random"] * game.n_players, seed=53)
    rng = np.random.default_rng(9)
    rngs = np.zeros((game.n_players, 1), np.uint64)
    for i in range(DEALS):
        started = _start(cp, batch, i, {})
        if started is None:
            continue
        state, actions = started
        stop = int(rng.integers(0, len(actions) + 1))
        for action in actions[:stop]:
            cp.step(state, int(action))
        out = state.copy()
        # deal the unseen cards anew: swap a card between two hands the mover cannot see
        hands = cp.fields.HANDS
        others = [s for s in range(game.n_players) if s != int(out[cp.fields.TO_MOVE])
                  and int(out[hands + s])]
        if len(others) >= 2:
            a, b = others[:2]
            ca = int(rng.choice([c for c in range(64) if int(out[hands + a]) >> c & 1]))
            cb = int(rng.choice([c for c in range(64) if int(out[hands + b]) >> c & 1]))
            out[hands + a] = (int(out[hands + a]) & ~(1 << ca)) | (1 << cb)
            out[hands + b] = (int(out[hands + b]) & ~(1 << cb)) | (1 << ca)
        rngs[:, 0] = rng.integers(1, 2**63, game.n_players, dtype=np.uint64)
        cp.playout(out, np.full(game.n_players, policy, np.int64), rngs, NO_NET)
        assert cp.finished(out)
        assert set(cp.result(out)) == set(cp.result(state)) if cp.finished(state) else True

"""Invariants every registered game must keep, under random and heuristic play.

Each game contributes a small checker below; the test fails for a registered game
without one, so a new game cannot join the registry unchecked.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from sim import actions as A
from sim.cards import SKAT_DECK
from sim.games import GAMES, Batch
from sim.games.skat_values import EFF, NULL, POINTS, STRENGTH
from sim.tricks import trick_winner

DEALS = 1500


def skat_invariants(batch: Batch, rules: dict) -> None:
    """Card conservation, legal plays, 10 tricks, 120 points, consistent result columns."""
    c = batch.columns
    full = SKAT_DECK.full
    for i, actions in enumerate(batch.actions):
        hands = [int(c[f"hand_{s}"][i]) for s in range(3)]
        skat = int(c["skat"][i])
        assert sum(bin(h).count("1") for h in hands) == 30 and bin(skat).count("1") == 2
        assert hands[0] | hands[1] | hands[2] | skat == full
        assert hands[0] & hands[1] == 0 and (hands[0] | hands[1]) & hands[2] == 0
        assert (hands[0] | hands[1] | hands[2]) & skat == 0
        holding = list(hands)
        plays = [(int(s), int(a)) for t, s, a, _ in actions if t == A.PLAY]
        for t, s, a, _ in actions:
            if t == A.PICKUP:
                holding[s] |= skat
            if t == A.DISCARD:
                assert a & ~holding[s] == 0 and bin(int(a)).count("1") == 2
                holding[s] &= ~int(a)
        played = 0
        for s, card in plays:
            assert holding[s] >> card & 1, "a card played that its player did not hold"
            holding[s] &= ~(1 << card)
            assert not played >> card & 1
            played |= 1 << card
        game = int(c["game"][i])
        declarer = int(c["declarer"][i])
        if c["passed_out"][i]:
            assert plays == [] and all(c[f"score_{s}"][i] == 0 for s in range(3))
            continue
        # replay the tricks with the game's tables: the same players, 3 cards each
        assert len(plays) % 3 == 0
        points = [0, 0, 0]
        tricks = [0, 0, 0]
        for k in range(0, len(plays), 3):
            trick = np.array([card for _, card in plays[k:k + 3]], np.int64)
            w = plays[k + trick_winner(trick, 3, EFF[game], STRENGTH[game])][0]
            points[w] += int(sum(POINTS[trick]))
            tricks[w] += 1
            if k + 3 < len(plays):
                assert plays[k + 3][0] == w, "the winner leads the next trick"
        if game == NULL:
            assert len(plays) == 30 or tricks[declarer] == 1
        else:
            assert len(plays) == 30 and sum(tricks) == 10
            assert sum(points) + sum(POINTS[SKAT_DECK.cards(int(c["discard"][i]))]) == 120
        if c["ramsch"][i]:
            assert sum(int(c[f"ramsch_points_{s}"][i]) for s in range(3)) == 120
        elif game != NULL:
            skat_points = int(sum(POINTS[SKAT_DECK.cards(int(c["discard"][i]))]))
            assert c["declarer_points"][i] == points[declarer] + skat_points
            assert c["declarer_tricks"][i] == tricks[declarer]


CHECKERS: dict[str, Callable[[Batch, dict], None]] = {"skat": skat_invariants}

RULE_SETS = {"skat": [{}, {"all_pass": "ramsch", "announcements": True, "lost_factor": 1}]}


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_invariants(name: str, policy: str) -> None:
    game = GAMES[name]
    assert name in CHECKERS, f"no invariant checker for game {name}"
    for given in RULE_SETS.get(name, [{}]):
        rules = game.rules(given)
        batch = game.play(2026, 0, DEALS, rules, [policy] * game.n_players, record=True)
        CHECKERS[name](batch, rules)
        # a recorded deal replays to the same result, every action legal
        replay = game.play(2026, 0, DEALS, rules, [policy] * game.n_players,
                           script=batch.actions)
        assert (replay.columns["replay_error"] == 0).all()
        for key, column in batch.columns.items():
            assert np.array_equal(column, replay.columns[key]), key


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_deal_does_not_depend_on_its_batch(name: str) -> None:
    game = GAMES[name]
    rules = game.rules()
    policies = ["random"] * game.n_players
    whole = game.play(99, 0, 200, rules, policies).columns
    parts = [game.play(99, first, 50, rules, policies).columns for first in (150, 0, 100, 50)]
    for key in whole:
        joined = np.concatenate([parts[1][key], parts[3][key], parts[2][key], parts[0][key]])
        assert np.array_equal(whole[key], joined), key

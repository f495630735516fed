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
from sim.games.skat_values import EFF, NULL, POINTS, RAMSCH, STRENGTH, SUIT_MASKS
from sim.tricks import legal_mask, trick_winner

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


def skat_en_deux_invariants(batch: Batch, rules: dict) -> None:
    """Card conservation over the two hands, the blind and the skat; every play legal and
    from the right place (forehand -> blind -> rearhand, the blind's cards by the defender
    with ``b = 1``); 30 cards in a played-out game (20 in ramsch); 120 points."""
    c = batch.columns
    full = SKAT_DECK.full
    lost_factor = int(rules["lost_factor"])
    counts = dict.fromkeys(("played", "ramsch", "give_up", "passed", "offer", "null"), 0)
    for i, actions in enumerate(batch.actions):
        dealer = int(c["dealer"][i])
        fh = 1 - dealer
        assert dealer == int(c["deal"][i]) % 2, "the dealer alternates"
        places = [int(c[f"hand_{fh}"][i]), int(c["blind"][i]), int(c[f"hand_{dealer}"][i])]
        skat = int(c["skat"][i])
        assert [bin(h).count("1") for h in places] == [10, 10, 10] and bin(skat).count("1") == 2
        assert places[0] | places[1] | places[2] | skat == full
        assert sum(bin(h).count("1") for h in places + [skat]) == 32
        place_of = {fh: 0, dealer: 2}
        holding = list(places)
        rows = [[int(x) for x in r] for r in actions]
        plays = [(p, card, b) for t, p, card, b in rows if t == A.PLAY]
        scores = [int(c["score_0"][i]), int(c["score_1"][i])]
        discard = skat
        for t, p, a, _ in rows:
            if t == A.PICKUP:
                holding[place_of[p]] |= skat
            if t == A.DISCARD:
                assert a & ~holding[place_of[p]] == 0 and bin(a).count("1") == 2
                holding[place_of[p]] &= ~a
                discard = a
        assert int(c["discard"][i]) == discard
        if c["passed_out"][i]:
            assert rules["all_pass"] == "throw_in"
            assert plays == [] and scores == [0, 0]
            counts["passed"] += 1
            continue
        if c["give_up"][i]:
            assert plays == [] and scores[1 - int(c["declarer"][i])] == 0
            counts["give_up"] += 1
            continue
        if c["ramsch"][i]:
            assert rules["all_pass"] == "ramsch"
            # the blind stays out: each player his own ten cards in two-card tricks
            assert len(plays) == 20 and all(b == 0 for _, _, b in plays)
            points = {0: 0, 1: 0}
            leader = fh
            for k in range(0, 20, 2):
                trick = []
                for j, (p, card, _) in enumerate(plays[k:k + 2]):
                    assert p == (leader if j == 0 else 1 - leader)
                    h = holding[place_of[p]]
                    assert h >> card & 1, "a card played that its player did not hold"
                    assert legal_mask(np.uint64(h), trick[0] if trick else -1, EFF[RAMSCH],
                                      SUIT_MASKS[RAMSCH]) >> np.uint64(card) & np.uint64(1)
                    holding[place_of[p]] &= ~(1 << card)
                    trick.append(card)
                w = trick_winner(np.array(trick, np.int64), 2, EFF[RAMSCH], STRENGTH[RAMSCH])
                leader = plays[k + w][0]
                points[leader] += int(sum(POINTS[trick]))
            assert points[0] == c["ramsch_points_0"][i] and points[1] == c["ramsch_points_1"][i]
            assert points[0] + points[1] + sum(POINTS[SKAT_DECK.cards(places[1])]) \
                + sum(POINTS[SKAT_DECK.cards(skat)]) == 120
            loser = int(c["ramsch_loser"][i])
            assert scores[1 - loser] == 0
            assert scores[loser] == -(points[loser] + int(sum(POINTS[SKAT_DECK.cards(skat)])))
            counts["ramsch"] += 1
            continue
        declarer = int(c["declarer"][i])
        defender = 1 - declarer
        decl_place = place_of[declarer]
        assert c["declarer_position"][i] == decl_place
        game = int(c["game"][i])
        assert c["hand"][i] == (A.HAND in [r[0] for r in rows])
        if c["hand"][i] and not rules["open_hand"]:
            assert c["open_level"][i] == 0
        if game == NULL:
            assert c["open_level"][i] == 0
            counts["null"] += 1
        assert len(plays) % 3 == 0
        points = [0, 0, 0]
        tricks = [0, 0, 0]
        leader = 0  # forehand leads the first trick
        for k in range(0, len(plays), 3):
            trick = []
            for j, (p, card, b) in enumerate(plays[k:k + 3]):
                place = (leader + j) % 3
                assert p == (declarer if place == decl_place else defender), "wrong player"
                assert b == (1 if place == 1 else 0), "the blind's cards are marked b = 1"
                h = holding[place]
                assert h >> card & 1, "a card played that its place did not hold"
                assert legal_mask(np.uint64(h), trick[0] if trick else -1, EFF[game],
                                  SUIT_MASKS[game]) >> np.uint64(card) & np.uint64(1)
                holding[place] &= ~(1 << card)
                trick.append(card)
            w = trick_winner(np.array(trick, np.int64), 3, EFF[game], STRENGTH[game])
            leader = (leader + w) % 3  # the winner leads, the blind's tricks from the blind
            points[leader] += int(sum(POINTS[trick]))
            tricks[leader] += 1
        skat_points = int(sum(POINTS[SKAT_DECK.cards(discard)]))
        if c["accepted"][i]:
            assert len(plays) == 3 * int(c["offer_trick"][i])
            counts["offer"] += 1
        elif game == NULL and len(plays) < 30:
            assert tricks[decl_place] == 1 and leader == decl_place
        else:
            assert len(plays) == 30 and sum(tricks) == 10
            assert sum(points) + skat_points == 120
            counts["played"] += 1
        assert c["declarer_points"][i] == points[decl_place] + skat_points
        assert c["declarer_tricks"][i] == tricks[decl_place]
        value = int(c["game_value"][i])
        assert scores[declarer] == (value if c["won"][i] else -lost_factor * value)
        assert scores[defender] == 0
        if not rules["contra_re"]:
            assert not c["offer"][i] and A.OFFER not in [r[0] for r in rows]
    assert counts["played"] > 100 and counts["give_up"] + counts["null"] > 0
    assert counts["ramsch"] > 0 or rules["all_pass"] == "throw_in"
    assert counts["passed"] > 0 or rules["all_pass"] == "ramsch"


CHECKERS: dict[str, Callable[[Batch, dict], None]] = {
    "skat": skat_invariants, "skat_en_deux": skat_en_deux_invariants}

RULE_SETS = {"skat": [{}, {"all_pass": "ramsch", "announcements": True, "lost_factor": 1}],
             "skat_en_deux": [{}, {"contra_re": True, "open_hand": True, "lost_factor": 1},
                              {"all_pass": "throw_in", "give_up_at_18": False,
                               "give_up_after_pickup": True}]}


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


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_rescoring_equals_replaying(name: str, policy: str) -> None:
    """Scoring-only options re-score played deals exactly as playing them again would."""
    game = GAMES[name]
    policies = [policy] * game.n_players
    scoring = [o for o in game.options if o.scoring_only]
    assert scoring, f"{name} tags no scoring-only option"
    played = game.play(8, 0, DEALS, game.rules(), policies).columns
    for option in scoring:
        for value in option.allowed:
            rules = game.rules({option.name: value})
            assert game.options.play_rules(rules) == game.options.play_rules(game.rules())
            replayed = game.play(8, 0, DEALS, rules, policies).columns
            rescored = game.rescore(played, rules)
            for key, column in replayed.items():
                assert np.array_equal(column, rescored[key]), (option.name, value, key)

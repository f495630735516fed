"""The Doppelkopf duel's lookahead player: the worlds it deals (``sim.games.doko_duell.worlds``)
and the policy (``sim.games.doko_duell.lookahead``).

* consistency: at every decision of recorded deals each sampled world shows the deciding
  seat exactly his observation, allows exactly his legal cards (each from where it lies),
  keeps every public field of the true state, deals the unseen cards to the unseen places
  only (the opponent's hand within his voids, one card per face-down position) and holds
  the deck once;
* exactness: in small endgames the worlds' distribution is the uniform one over the deals
  consistent with the observation, enumerated by brute force (chi-square);
* information: two true states that differ only in unseen cards give the same worlds and
  the same decisions from the same stream, whatever the buffer held before;
* the value: a finished state's score is the VP difference under the scoring-only
  options' defaults, whatever the deal was played under;
* the policy: lookahead deals play to the end, reproduce, replay from their trace, play
  the same under every scoring-only option (re-scored equals played), and beat the
  heuristic with 64 rollouts.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chisquare
from search_helpers import observed, sampled, scoring_only_runs

from sim import actions as A
from sim.cards import DOKO_DECK_40
from sim.engine.net import NO_NET
from sim.engine.play import play
from sim.engine.seats import HEURISTIC, policy_id
from sim.games.doko_duell import cardplay as cp
from sim.games.doko_duell import game as G
from sim.games.doko_duell import lookahead as L
from sim.games.doko_duell import worlds as sd
from sim.games.doko_duell.observation import FIELDS as O
from sim.trace import replay_file, write_trace

GAME = G.GAME
S = cp.S
FULL = DOKO_DECK_40.full
PUBLIC = ("TO_MOVE", "PLAYER", "PHASE", "DONE", "PRESENT", "FACE_UP", "STARTER", "EQUAL",
          "ONE_PER_TRICK", "SUPPLY", "TRICK_NO", "LEADER", "TRICK_N", "PLAYED", "POINTS",
          "TRICKS", "A_MARKERS", "A_SETUP", "A_PLAY", "B_MARKERS", "EXHAUSTED", "LAST_WINNER",
          "VOIDS")
"""State fields the observation determines: a world must hold the true state's values."""
WIDTH = {name: size for name, size in zip(cp.State._fields, cp.State())}
PLAY_RULES = [{}, {"equal_cards": "second_wins", "b_one_per_trick": True},
              {"equal_cards": "second_heart_ten", "b_marker_supply": "none",
               "a_marker_on_setup": False}]


def bits(mask: int) -> list[int]:
    return [i for i in range(40) if int(mask) >> i & 1]


def void_cards(voids: int) -> int:
    return sum(int(cp.SUIT_MASKS[s]) for s in range(5) if voids >> s & 1)


def decisions(rules: dict, policies: list[str], seed: int, count: int) -> Iterator[np.ndarray]:
    """The true state at every card-play decision of ``count`` recorded deals."""
    resolved = GAME.rules(rules)
    batch = play(GAME, seed, 0, count, resolved, policies, record=True)
    assert batch.actions is not None
    for i in range(count):
        state, plays = G.start_card_play(batch.columns, i, batch.actions[i], resolved)
        for card in plays:
            yield state.copy()
            cp.step(state, card)


observe = partial(observed, cp.observe, O.LENGTH)
"""A seat's observation of a true state."""
sample = partial(sampled, sd.world, cp.LENGTH)
"""A world dealt from an observation."""


def deck_once(state: np.ndarray) -> bool:
    """Hands, the cards still in the pyramids and the played cards: the deck, each once."""
    seen = 0
    count = 0
    for p in range(2):
        parts = [int(state[S.HANDS + p]), int(state[S.PLAYED + p])]
        parts += [1 << int(state[S.PYRAMIDS + 12 * p + k]) for k in bits(state[S.PRESENT + p])]
        for part in parts:
            seen |= part
            count += bin(part).count("1")
    return seen == FULL and count == 40


# --- consistency ------------------------------------------------------------------------------

@pytest.mark.parametrize("rules, policies", [(PLAY_RULES[0], ["heuristic"] * 2),
                                             (PLAY_RULES[1], ["random"] * 2),
                                             (PLAY_RULES[2], ["random", "heuristic"])])
def test_every_world_is_consistent_with_the_observation(rules: dict, policies: list[str]) -> None:
    rng = np.array([12345], np.uint64)
    counts: Counter[str] = Counter()
    for state in decisions(rules, policies, 31, 25):
        seat = int(state[S.TO_MOVE])
        opp = 1 - seat
        obs = observe(state, seat)
        true_hand, true_down = (int(x) for x in sd.hidden_cards(state, seat))
        voided = void_cards(int(state[S.VOIDS + opp]))
        # the voids the play shows hold in the true deal: the hand has none of them
        assert not true_hand & voided
        unknown = true_hand | true_down
        counts["decisions"] += 1
        counts["void_binds"] += bool(unknown & voided)
        counts["down_and_hand"] += bool(true_hand and true_down)
        counts["own_down"] += bool(int(state[S.PRESENT + seat]) & ~int(state[S.FACE_UP + seat]))
        for _ in range(2):
            world = sample(obs, rng)
            assert observe(world, seat).tolist() == obs.tolist()
            assert int(cp.legal(world)) == int(obs[O.LEGAL])
            for card in bits(obs[O.LEGAL]):
                assert cp.source(world, card) == cp.source(state, card)
            for name in PUBLIC:
                at = getattr(S, name)
                assert world[at:at + WIDTH[name]].tolist() == state[at:at + WIDTH[name]].tolist(), name
            if state[S.TRICK_N]:
                assert world[S.TRICK] == state[S.TRICK]
            hand, down = (int(x) for x in sd.hidden_cards(world, seat))
            assert int(world[S.HANDS + seat]) == int(state[S.HANDS + seat])
            assert bin(hand).count("1") == bin(true_hand).count("1")
            assert bin(down).count("1") == bin(true_down).count("1")
            assert hand | down == unknown and not hand & down
            assert not hand & voided
            assert deck_once(world)
            counts["differs"] += hand != true_hand or down != true_down
    assert counts["decisions"] == 25 * 40
    assert counts["void_binds"] > 20 and counts["down_and_hand"] > 100 and counts["own_down"] > 100
    assert counts["differs"] > 500


def test_a_world_plays_on_to_the_end() -> None:
    """The heuristic plays a world to its end: 20 tricks, every card once."""
    rng = np.array([3], np.uint64)
    rngs = np.ones((2, 1), np.uint64)
    for j, state in enumerate(decisions({}, ["heuristic"] * 2, 5, 3)):
        if j % 7:
            continue
        world = sample(observe(state, int(state[S.TO_MOVE])), rng)
        cp.playout(world, np.full(2, HEURISTIC, np.int64), rngs, NO_NET)
        assert cp.finished(world)
        assert int(world[S.PLAYED]) | int(world[S.PLAYED + 1]) == FULL
        assert world[S.POINTS] + world[S.POINTS + 1] == 240 and world[S.TRICKS] + world[S.TRICKS + 1] == 20


def test_two_copies_of_one_card_are_two_actions() -> None:
    """One card name in the hand and free in the pyramid: both copies are legal actions,
    each played from where it lies, in the world as in the true state."""
    rng = np.array([8], np.uint64)
    found = 0
    for state in decisions({}, ["random"] * 2, 77, 30):
        seat = int(state[S.TO_MOVE])
        legal = bits(cp.legal(state))
        pairs = [(a, b) for a in legal for b in legal if a < b and cp.KIND[a] == cp.KIND[b]
                 and cp.source(state, a) != cp.source(state, b)
                 and 0 in (cp.source(state, a), cp.source(state, b))]
        if not pairs:
            continue
        world = sample(observe(state, seat), rng)
        for a, b in pairs:
            assert int(cp.legal(world)) >> a & 1 and int(cp.legal(world)) >> b & 1
            assert (cp.source(world, a), cp.source(world, b)) == (cp.source(state, a),
                                                                  cp.source(state, b))
        found += 1
    assert found > 5


# --- exactness -------------------------------------------------------------------------------

def enumerate_worlds(obs: np.ndarray) -> tuple[list[tuple[int, ...]], list[tuple[int, int]]]:
    """Every deal of the unseen cards consistent with ``obs``: the opponent's hand (mask)
    followed by the card on each face-down position (own pyramid first, by position)."""
    unknown, h, down_own, down_opp, allowed = (int(x) for x in sd.unseen(obs))
    seat = int(obs[O.SEAT])
    places = ([(seat, k) for k in range(12) if down_own >> k & 1]
              + [(1 - seat, k) for k in range(12) if down_opp >> k & 1])
    cards = bits(unknown)
    out = []
    for hand in itertools.combinations(cards, h):
        if any(not allowed >> c & 1 for c in hand):
            continue
        rest = [c for c in cards if c not in hand]
        for order in itertools.permutations(rest):
            out.append((sum(1 << c for c in hand), *order))
    return out, places


def key_of(world: np.ndarray, seat: int, places: list[tuple[int, int]]) -> tuple[int, ...]:
    return (int(world[S.HANDS + 1 - seat]),
            *(int(world[S.PYRAMIDS + 12 * who + k]) for who, k in places))


def small_endgames() -> list[np.ndarray]:
    """Observations late in random deals with few deals to enumerate: unseen cards both in
    the opponent's hand and face down, the first ones also with a void that binds."""
    binding: list[np.ndarray] = []
    other: list[np.ndarray] = []
    for state in decisions({}, ["random"] * 2, 2024, 60):
        if state[S.TRICK_NO] < 14:
            continue
        seat = int(state[S.TO_MOVE])
        obs = observe(state, seat)
        unknown, h, down_own, down_opp, allowed = (int(x) for x in sd.unseen(obs))
        n = bin(unknown).count("1")
        if not (h and (down_own or down_opp)) or n > 7:
            continue
        worlds, _ = enumerate_worlds(obs)
        if not 4 <= len(worlds) <= 60:
            continue
        (binding if unknown & ~allowed else other).append(obs)
    return binding[:3] + other[:2]


def test_worlds_are_uniform_over_the_consistent_deals() -> None:
    cases = small_endgames()
    assert len(cases) == 5, "three endgames with a binding void and two without"
    rng = np.array([99], np.uint64)
    for obs in cases:
        worlds, places = enumerate_worlds(obs)
        seat = int(obs[O.SEAT])
        n = 200 * len(worlds)
        got = Counter(key_of(sample(obs, rng), seat, places) for _ in range(n))
        assert set(got) <= set(worlds), "a world outside the consistent deals"
        observed = [got[w] for w in worlds]
        assert chisquare(observed).pvalue > 0.001, (len(worlds), observed)
    # the brute force counts something: a binding void leaves out deals a plain count keeps
    worlds, _ = enumerate_worlds(cases[0])
    unknown, h, down_own, down_opp, _ = (int(x) for x in sd.unseen(cases[0]))
    n_down = bin(down_own).count("1") + bin(down_opp).count("1")
    free = len(list(itertools.combinations(bits(unknown), h))) * len(
        list(itertools.permutations(range(n_down))))
    assert len(worlds) < free


# --- information ---------------------------------------------------------------------------

def test_states_differing_in_unseen_cards_give_the_same_worlds_and_decisions() -> None:
    rng = np.array([4], np.uint64)
    pol = policy_id("lookahead:8")
    compared = 0
    for j, state in enumerate(decisions({"b_one_per_trick": True}, ["heuristic"] * 2, 9, 4)):
        if j % 3:
            continue
        seat = int(state[S.TO_MOVE])
        obs = observe(state, seat)
        other = sample(obs, rng)  # a second true state: the same but for the unseen cards
        if sd.hidden_cards(other, seat) == sd.hidden_cards(state, seat):
            continue
        obs_other = observe(other, seat)
        assert obs_other.tolist() == obs.tolist()
        # the buffers start as the two true states: nothing of them may leak into a world
        worlds = []
        for start, seen in ((state, obs), (other, obs_other)):
            buffer = start.copy()
            stream = np.array([1000 + j], np.uint64)
            sd.world(seen, stream, buffer)
            worlds.append((buffer.tolist(), int(stream[0])))
        assert worlds[0] == worlds[1]
        picks = [(L.decide_card(pol, seen, np.array([j], np.uint64))) for seen in (obs, obs_other)]
        assert picks[0] == picks[1] and int(obs[O.LEGAL]) >> picks[0] & 1
        compared += 1
    assert compared > 15


# --- the value -------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [{}, {"a_marker_on_setup": False, "b_marker_mode": "v2",
                                        "tie_rule": "last_trick", "tie_win_base": 1},
                                   {"b_one_per_trick": True, "tie_rule": "starter_wins"}])
def test_the_value_is_the_vp_difference_under_the_default_scoring(rules: dict) -> None:
    resolved = GAME.rules(rules)
    batch = play(GAME, 61, 0, 300, resolved, ["heuristic", "random"], record=True)
    assert batch.actions is not None
    scoring = {k: v for k, v in GAME.rules().items() if GAME.options.by_name[k].scoring_only}
    default = GAME.rescore(batch.columns, {**resolved, **scoring})
    for i in range(300):
        state, plays = G.start_card_play(batch.columns, i, batch.actions[i], resolved)
        for card in plays:
            cp.step(state, card)
        diff = int(default["vp_0"][i]) - int(default["vp_1"][i])
        assert sd.value(state, 0) == diff and sd.value(state, 1) == -diff, i


# --- the policy ------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", PLAY_RULES[:2])
def test_lookahead_deals_play_out_and_reproduce(rules: dict) -> None:
    resolved = GAME.rules(rules)
    for policies in (["lookahead:8", "heuristic"], ["random", "lookahead:8"],
                     ["lookahead:8", "lookahead:8"]):
        one = play(GAME, 17, 4, 6, resolved, policies, record=True)
        two = play(GAME, 17, 4, 6, resolved, policies, record=True)
        assert (one.columns["replay_error"] == 0).all()
        assert ((one.columns["points_0"].astype(int) + one.columns["points_1"]) == 240).all()
        for key, column in one.columns.items():
            assert np.array_equal(column, two.columns[key]), key
        assert one.actions is not None and two.actions is not None
        assert all(np.array_equal(a, b) for a, b in zip(one.actions, two.actions))
    # the lookahead is what plays: its cards are not all the heuristic's
    look = play(GAME, 17, 4, 6, resolved, ["lookahead:8", "heuristic"], record=True).actions
    heur = play(GAME, 17, 4, 6, resolved, ["heuristic", "heuristic"], record=True).actions
    assert look is not None and heur is not None
    assert any(not np.array_equal(a, b) for a, b in zip(look, heur))


def test_a_lookahead_trace_replays(tmp_path: Path) -> None:
    out = tmp_path / "look.jsonl"
    rules = {"equal_cards": "second_wins", "b_marker_supply": "none"}
    assert write_trace(GAME, 7, 0, 4, rules, ["lookahead:8", "heuristic"], out) == 4
    assert replay_file(out) == []


def test_scoring_only_options_do_not_change_the_play() -> None:
    """Deals played under other scoring-only options are the same deals, and re-scoring the
    default's equals them."""
    scoring = {"a_marker_on_setup": False, "b_marker_mode": "v2", "tie_rule": "last_trick",
               "tie_win_base": 1, "vp_band_60": 9, "vp_band_no_trick": 0, "vp_per_b_marker": 4,
               "compensation": 3}
    policies = ["lookahead:8", "lookahead:16"]
    default, other = scoring_only_runs(GAME, {}, scoring, policies, 8)
    # the same cards from the same places (the marker rows differ: no A markers at the deal)
    assert all(np.array_equal(a[a[:, 0] == A.PLAY], b[b[:, 0] == A.PLAY])
               for a, b in zip(default.actions, other.actions))


def test_lookahead_64_beats_the_heuristic() -> None:
    """Mean VP difference per deal, seats swapped on the same deals: the search is worth it
    (measured about +0.75 VP a deal, standard error 0.19, over these 600)."""
    rules = GAME.rules()
    a = play(GAME, 3, 0, 300, rules, ["lookahead", "heuristic"]).columns
    b = play(GAME, 3, 0, 300, rules, ["heuristic", "lookahead"]).columns
    diff = np.concatenate([a["vp_0"].astype(int) - a["vp_1"], b["vp_1"].astype(int) - b["vp_0"]])
    assert diff.mean() > 0.2

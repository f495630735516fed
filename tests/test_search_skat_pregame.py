"""The Skat family's lookahead before the game is named: ``pregame_world`` deals the
declarer's world at a bid, the pickup, the discard or a give-up from his observation alone,
uniformly; ``plan_step`` carries a plan out (pick up and put away, or hand, then declare; or
the ramsch) as the kernels would; the lookahead player bids, holds, picks up, discards and
gives up by the plans' mean scores, reproducibly."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_search_skat_declaration import unseen_cards_are_uniform

from sim.cards import SKAT_DECK
from sim.engine.play import play
from sim.engine.seats import policy_id
from sim.games.skat_family import lookahead as look
from sim.games.skat_family.cardplay import LENGTH, S
from sim.games.skat_family.heuristic import choose_game
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.observation import (
    PH_ANSWER,
    PH_BID,
    PH_DISCARD,
    PH_FH18,
    PH_GIVE_UP,
    PH_PICKUP,
)
from sim.games.skat_family.values import CLUBS, GRAND, RAMSCH, overbid_value
from sim.games.skat_family.worlds import (
    CHOOSE,
    PICKUP,
    RAMSCH_PLAN,
    plan,
    plan_step,
    pregame_world,
)
from sim.registry import find_game
from sim.trace import replay_file, write_trace

DECK = (1 << 32) - 1
MONSTER = "CJ SJ HJ DJ CA CT HA HT SA DA"
RUBBISH = "CQ C9 SK S9 S8 HK H9 DQ D9 D8"


def cards(text: str) -> int:
    """The mask of the cards named in ``text``."""
    return SKAT_DECK.parse(text)


def pregame_obs(hand: str, phase: int, seat: int = 1, bid: int = 0, next_bid: int = 18,
                skat: str = "", en_deux: bool = False) -> np.ndarray:
    """What a kernel shows a seat before the game: its hand (twelve after the pickup, the
    skat it found), the bid and the next value, forehand, the blind's place."""
    obs = np.zeros(O.LENGTH, np.int64)
    obs[O.SEAT] = seat
    obs[O.POSITION] = seat if en_deux else (seat - 1) % 3
    obs[O.PHASE] = phase
    obs[O.HAND] = cards(hand) | (cards(skat) if skat else 0)
    obs[O.SKAT] = cards(skat) if skat else 0
    obs[O.BID] = bid
    obs[O.NEXT_BID] = next_bid
    obs[O.DECLARER] = -1 if phase in (PH_BID, PH_ANSWER, PH_FH18) else seat
    obs[O.FOREHAND] = 0 if en_deux else 1
    obs[O.TRICK_SIZE] = 3
    obs[O.BLIND_SEAT] = 1 if en_deux else -1
    obs[O.MAX_OPEN] = 2 if en_deux else 0
    obs[O.TRICK_CARD:O.TRICK_CARD + 3] = -1
    return obs


def world_of(obs: np.ndarray, key: int = 7) -> np.ndarray:
    """One ``pregame_world`` of ``obs`` from stream ``key``."""
    state = np.zeros(LENGTH, np.int64)
    pregame_world(obs, np.array([key], np.uint64), state)
    return state


@pytest.mark.parametrize("phase, bid, want", [(PH_BID, 20, 22), (PH_ANSWER, 22, 22),
                                              (PH_FH18, 0, 18), (PH_PICKUP, 30, 30)])
def test_a_pregame_world_holds_the_hand_at_the_bid_in_question(phase: int, bid: int,
                                                               want: int) -> None:
    """Before the pickup the seat holds its ten cards, the other 22 lie ten, ten and two
    over the others and the skat; a hand game's contract at the bid asked about (the next
    value at a bid and at forehand's 18, else the bid held)."""
    obs = pregame_obs(MONSTER, phase, bid=bid, next_bid=18 if phase == PH_FH18 else 22)
    for key in range(20):
        w = world_of(obs, key)
        hands = [int(w[S.HANDS + p]) for p in range(3)]
        assert hands[1] == cards(MONSTER)
        assert [bin(h).count("1") for h in hands] == [10, 10, 10]
        assert bin(int(w[S.SKAT])).count("1") == 2
        assert np.bitwise_or.reduce(hands + [int(w[S.SKAT])]) == DECK
        assert w[S.DECLARER] == 1 and w[S.BID] == want and w[S.HAND_GAME] == 1
        assert w[S.SKAT_SEEN] == 0 and w[S.FOREHAND] == 1 and w[S.TO_MOVE] == 1


def test_pregame_worlds_are_uniform() -> None:
    """Each card the seat has not seen lies in either other hand with probability 10/22 and
    in the skat with 2/22 (chi-square over 3,000 worlds)."""
    obs = pregame_obs(MONSTER, PH_BID)
    assert unseen_cards_are_uniform(obs, pregame_world, [0, 2], 31, 3000) > 1e-3


def test_after_the_pickup_the_skat_found_is_in_the_world() -> None:
    """After the pickup the seat's twelve cards are its hand and the skat it found; the
    other twenty lie ten and ten."""
    obs = pregame_obs(RUBBISH, PH_DISCARD, bid=18, skat="C7 H7")
    for key in range(20):
        w = world_of(obs, key)
        assert w[S.HANDS + 1] == cards(RUBBISH) and w[S.SKAT] == cards("C7 H7")
        others = int(w[S.HANDS]) | int(w[S.HANDS + 2])
        assert others == DECK & ~cards(RUBBISH + " C7 H7")


def test_a_plan_picks_up_puts_away_and_declares() -> None:
    """A pickup plan gives the declarer his twelve cards less the discard, which becomes the
    skat that counts for him and that he saw; a hand plan leaves the skat unseen; ``CHOOSE``
    takes the heuristic's game and discard on the twelve cards."""
    obs = pregame_obs(RUBBISH, PH_PICKUP, bid=18)
    base = world_of(obs)
    skat = int(base[S.SKAT])
    twelve = cards(RUBBISH) | skat
    put = cards("SK HK")
    w = base.copy()
    plan_step(w, plan(GRAND, True, put))
    assert w[S.HANDS + 1] == twelve & ~put and w[S.SKAT] == put and w[S.SKAT_SEEN] == put
    assert w[S.HAND_GAME] == 0 and w[S.GAME] == GRAND
    w = base.copy()
    plan_step(w, plan(CLUBS, False, 0))
    assert w[S.HANDS + 1] == cards(RUBBISH) and w[S.SKAT] == skat and w[S.SKAT_SEEN] == 0
    assert w[S.HAND_GAME] == 1 and w[S.GAME] == CLUBS
    w = base.copy()
    plan_step(w, PICKUP | CHOOSE)
    game, chosen, _ = choose_game(np.uint64(twelve), 18, False, 0)
    assert w[S.GAME] == game and w[S.SKAT] == int(chosen)
    assert w[S.HANDS + 1] == twelve & ~int(chosen)


@pytest.mark.parametrize("en_deux", [False, True])
def test_the_ramsch_plan_seats_the_ramsch_as_the_kernel(en_deux: bool) -> None:
    """Passing last under ``all_pass`` ramsch: Skat's three hands play, the skat aside under
    its rule; Skat-en-deux's forehand and rearhand play their hands in two-card tricks, the
    blind out, the seat still player 0."""
    seat = 2 if en_deux else 1
    obs = pregame_obs(MONSTER, PH_FH18, seat=seat, en_deux=en_deux)
    obs[O.SKAT_TO_LOSER] = 1
    base = world_of(obs)
    w = base.copy()
    plan_step(w, RAMSCH_PLAN)
    assert w[S.GAME] == RAMSCH and w[S.SKAT] == base[S.SKAT] and w[S.DONE] == 0
    if en_deux:
        assert w[S.PLACES] == 2 and w[S.FOREHAND] == 0 and w[S.SKAT_TO_LOSER] == 0
        assert [w[S.HANDS], w[S.HANDS + 1]] == [base[S.HANDS], base[S.HANDS + 2]]
        assert list(w[S.PLAYER_AT:S.PLAYER_AT + 2]) == [1, 0]
    else:
        assert w[S.PLACES] == 3 and w[S.FOREHAND] == 1 and w[S.SKAT_TO_LOSER] == 1
        assert list(w[S.HANDS:S.HANDS + 3]) == list(base[S.HANDS:S.HANDS + 3])
        assert list(w[S.PLAYER_AT:S.PLAYER_AT + 3]) == [0, 1, 2]
    assert w[S.PLAYER] == w[S.PLAYER_AT + w[S.TO_MOVE]]


POL = policy_id("lookahead:64")


def decide(fn: Callable[..., Any], obs: np.ndarray, key: int = 3, *args: Any) -> Any:
    """``fn``'s answer for a 64-rollout lookahead seat from ``obs`` and stream ``key``."""
    return fn(POL, obs.copy(), np.array([key], np.uint64), *args)


def test_the_lookahead_bids_a_strong_hand_and_passes_rubbish() -> None:
    """Four jacks and the aces bid and hold far up; rubbish passes at 18, does not take 18
    after two passes nor hold 48, and picks the skat up (no hand game is worth weighing)."""
    values = np.array([18, 20, 22, 23, 24, 27, 30], np.int64)
    assert decide(look.decide_bid, pregame_obs(MONSTER, PH_BID, next_bid=18), 3, values) == 18
    assert decide(look.decide_yes, pregame_obs(MONSTER, PH_ANSWER, bid=48))
    assert decide(look.decide_bid, pregame_obs(RUBBISH, PH_BID, next_bid=18), 3, values) == 0
    assert not decide(look.decide_yes, pregame_obs(RUBBISH, PH_FH18, seat=1))
    assert not decide(look.decide_yes, pregame_obs(RUBBISH, PH_ANSWER, bid=48))
    assert decide(look.decide_yes, pregame_obs(RUBBISH, PH_PICKUP, bid=18))


def test_the_discard_is_a_plan_and_a_function_of_the_observation() -> None:
    """The discard is two of the twelve cards, the same for the same observation and stream;
    with the grand's cards and two blank sevens it puts a seven away."""
    obs = pregame_obs("CJ SJ HJ DJ CA CT HA HT SA ST", PH_DISCARD, bid=18, skat="C7 D7")
    puts = {int(decide(look.decide_discard, obs, key)) for key in (5, 5)}
    assert len(puts) == 1
    put = puts.pop()
    assert bin(put).count("1") == 2 and put & ~int(obs[O.HAND]) == 0
    assert put & cards("C7 D7")


def test_a_give_up_costs_less_than_playing_on() -> None:
    """Skat-en-deux after the pickup: the lookahead names the cheapest game it may give up
    with exactly when that costs less than the best plan expects in the same worlds."""
    for bid, hand in ((18, MONSTER), (60, RUBBISH), (30, RUBBISH)):
        obs = pregame_obs(hand, PH_GIVE_UP, seat=0, bid=bid, skat="C7 H7", en_deux=True)
        games = sum(1 << g for g in range(5) if overbid_value(g, bid) >= bid)
        obs[O.GIVE_UP_GAMES] = games
        named = int(decide(look.decide_give_up, obs, 11))
        best = look._best_plan_mean(POL, obs.copy(), np.array([11], np.uint64))
        cheapest = min(range(5), key=lambda g: (overbid_value(g, bid), g))
        expect = cheapest + 1 if -2 * overbid_value(cheapest, bid) > best else 0
        assert named == expect
        if hand == MONSTER:
            assert named == 0
    obs = pregame_obs(RUBBISH, PH_GIVE_UP, seat=0, bid=18, en_deux=True)
    gave_up = decide(look.decide_yes, obs, 4)
    best = look._best_plan_mean(POL, obs.copy(), np.array([4], np.uint64))
    assert gave_up == (best < -60)


@pytest.mark.parametrize("name", ["skat", "skat_en_deux"])
def test_lookahead_pregame_plays_reproduces_and_replays(name: str, tmp_path: Path) -> None:
    """Lookahead seats bid, pick up and discard by their own plans (some bids, declarers
    or discards differ from the heuristic's on the same deals); the deals reproduce and
    replay from their traces."""
    game = find_game(name)
    rules = game.rules()
    n = 120
    heuristic = play(game, 9, 0, n, rules, ["heuristic"] * game.n_players).columns
    c = play(game, 9, 0, n, rules, ["lookahead:16"] * game.n_players).columns
    again = play(game, 9, 0, n, rules, ["lookahead:16"] * game.n_players).columns
    assert not np.array_equal(c["bid"], heuristic["bid"])
    assert not np.array_equal(c["hand"], heuristic["hand"])
    for key in c:
        assert np.array_equal(c[key], again[key]), key
    assert not c["replay_error"].any()
    out = tmp_path / "look.jsonl"
    assert write_trace(game, 9, 0, 12, {}, ["lookahead:16"] * game.n_players, out) == 12
    assert replay_file(out) == []


@pytest.mark.parametrize("hand", [MONSTER, RUBBISH, "CA CT SA ST HA HT DK DQ D9 D8"])
def test_forehand_weighs_the_ramsch_when_passing_leads_to_it(hand: str) -> None:
    """Forehand after two passes takes 18 when his best game plan beats passing: 0 when the
    deal is thrown in, the ramsch played out in the same worlds when the rules play one."""
    obs = pregame_obs(hand, PH_FH18, seat=1)
    best = look._best_plan_mean(POL, obs.copy(), np.array([8], np.uint64))
    assert decide(look.decide_yes, obs, 8) == (best > 0)
    obs[O.ALL_PASS_RAMSCH] = 1
    games = look._game_plans(obs)
    plans = np.append(games, RAMSCH_PLAN)
    means = look._plan_values(POL, obs.copy(), np.array([8], np.uint64), plans)
    assert decide(look.decide_yes, obs, 8) == (means[:-1].max() > means[-1])
    assert -121 <= means[-1] <= 120


@pytest.mark.parametrize("phase", [PH_BID, PH_PICKUP, PH_DISCARD, PH_GIVE_UP])
def test_a_pregame_world_depends_on_the_observation_alone(phase: int) -> None:
    """Information: from the same observation and stream, buffers that start as two
    different true deals give the same world (nothing of the buffer leaks into it): the
    world is a function of the observation (the policies take nothing else)."""
    en_deux = phase == PH_GIVE_UP
    skat = "C7 H7" if phase in (PH_DISCARD, PH_GIVE_UP) else ""
    obs = pregame_obs(RUBBISH, phase, seat=0 if en_deux else 1, bid=18, skat=skat,
                      en_deux=en_deux)
    worlds = []
    for fill in (-5, 123456):
        buffer = np.full(LENGTH, fill, np.int64)
        stream = np.array([44], np.uint64)
        pregame_world(obs, stream, buffer)
        worlds.append((buffer.tolist(), int(stream[0])))
    assert worlds[0] == worlds[1]

"""Doko-Skat's lookahead between the rounds: ``pregame_world`` deals the world of a
declaration or a discard from the deciding seat's observation alone (consistent with
everything it knows, uniformly), ``pregame_step`` and ``playout`` go on from the decision as
the kernel does, and the lookahead declares and discards by them, reproducibly."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
import pytest
from scipy.stats import chisquare
from search_helpers import observed
from test_search_doko_skat import first_round_state, redeals

from sim import actions as A
from sim.engine.net import NO_NET
from sim.engine.play import play
from sim.engine.seats import HEURISTIC, policy_id
from sim.games.doko_skat import cardplay as cp
from sim.games.doko_skat import game as G
from sim.games.doko_skat import lookahead as L
from sim.games.doko_skat import worlds as sd
from sim.games.doko_skat.observation import FIELDS as O
from sim.games.doko_skat.observation import PH_DECLARE, PH_DISCARD
from sim.games.doko_skat.values import declaration_order, teams

GAME = G.GAME
S = cp.S
FULL = (1 << 48) - 1
SHOWN = [("FOREHAND", "DECLARER"), ("REDEAL", "OUT"), ("TEAM_CARDS", "MAIN_LEAD")]
"""State blocks the observation shows: a world holds the true state's values."""


def ones(mask: int) -> int:
    return bin(int(mask)).count("1")


def asked(state: np.ndarray, seat: int, phase: int, speaker: int = -1, n: int = 0
          ) -> np.ndarray:
    """The kernel's observation of ``seat`` at a declaration (the next ``speaker``) or a
    discard of ``n`` cards."""
    obs = observed(cp.observe, O.LENGTH, state, seat)
    obs[O.PHASE] = phase
    obs[O.NEXT_SPEAKER] = speaker
    obs[O.N_DISCARD] = n
    return obs


def pregame_decisions(rules: dict, policies: list[str], seed: int, deals: Iterable[int]
                      ) -> Iterator[tuple[np.ndarray, np.ndarray, int]]:
    """(the true state, the deciding seat's observation, the index the decision stands at)
    at every declaration and discard of recorded deals: the first round replayed, the
    teams, then the recorded declarations, discards and redeal."""
    resolved = GAME.rules(rules)
    for deal in deals:
        batch = play(GAME, seed, deal, 1, resolved, policies, record=True)
        assert batch.actions is not None
        col = {k: v[0].item() for k, v in batch.columns.items()}
        rows = batch.actions[0]
        state = first_round_state(col, resolved)
        for card in [int(r[2]) for r in rows if r[0] == A.PLAY][:9]:
            cp.step(state, card)
        sd._teams(state)
        lone, forehand = int(state[S.LONE]), int(state[S.FOREHAND])
        order = np.zeros(3, np.int64)
        declaration_order(state[S.FR_TRICKS:S.FR_TRICKS + 3], lone, forehand, order)
        said = [r for r in rows if r[0] in (A.PASS, A.DECLARE)]
        puts = [int(r[2]) for r in rows if r[0] == A.DISCARD]
        for i, row in enumerate(said):
            seat = int(order[i])
            yield state.copy(), asked(state, seat, PH_DECLARE, int(order[i + 1]) if i < 2 else -1), i
            if row[0] == A.DECLARE:
                cp.name_game(state, seat, int(row[2]))
        if col["nobody_declared"]:
            cp.redeal(state, col["second_turned_up"],
                      np.array([col[f"extra_{s}"] for s in range(3)], np.uint64))
            for r, put in enumerate(puts):
                seat = (forehand + r) % 3
                yield state.copy(), asked(state, seat, PH_DISCARD, n=4), r
                cp.put_away(state, seat, np.uint64(put))
        else:
            yield state.copy(), asked(state, lone, PH_DISCARD, n=3), 0


def check_world(world: np.ndarray, true: np.ndarray, obs: np.ndarray, index: int) -> None:
    """A pregame world keeps what the seat sees and deals only what it cannot see: the
    shown blocks, its cards and discards; as many cards (and discards) to every other seat
    as it holds; the deck once; the teams, the skat and the redeal's counts as they fit."""
    seat, lone = int(obs[O.SEAT]), int(obs[O.LONE])
    redealt = bool(obs[O.REDEAL])
    for first, last in SHOWN:
        a, b = getattr(S, first), getattr(S, last) + 1
        assert np.array_equal(world[a:b], true[a:b]), first
    assert world[S.HANDS + seat] == true[S.HANDS + seat]
    assert world[S.DISCARDS + seat] == true[S.DISCARDS + seat]
    nine = int(np.bitwise_or.reduce(true[S.FR_PLAYED:S.FR_PLAYED + 3]))
    held = [int(world[S.HANDS + s]) | int(world[S.DISCARDS + s]) for s in range(3)]
    for s in range(3):
        assert ones(world[S.HANDS + s]) == ones(true[S.HANDS + s])
        assert ones(world[S.DISCARDS + s]) == ones(true[S.DISCARDS + s])
        if redealt:
            assert ones(held[s] & nine) == (1 if s == lone else 4)
    assert sum(ones(h) for h in held) + (0 if redealt else 9) == 48
    assert int(np.bitwise_or.reduce(held)) | (0 if redealt else nine) == FULL
    skat = int(world[S.SKAT])
    assert ones(skat) == 3 and skat & ~held[lone] == 0 and skat & nine == 0
    if seat == lone:
        assert skat == true[S.SKAT]
    first_round = np.array(true[S.FR_PLAYED:S.FR_PLAYED + 3], np.uint64)
    stocks = np.array([held[s] & ~nine & ~(skat if s == lone else 0) for s in range(3)],
                      np.uint64)
    assert teams(first_round, stocks, int(obs[O.TURNED_UP]), int(obs[O.TEAM_CARDS]),
                 obs[O.FR_COPIES:O.FR_COPIES + 3]) == lone
    stage = sd.DECLARING if obs[O.PHASE] == PH_DECLARE else (
        sd.REDEAL_DISCARD if redealt else sd.LONE_DISCARD)
    assert world[sd.STAGE] == stage and world[sd.NEXT] == (index if stage != sd.LONE_DISCARD else 0)
    assert np.array_equal(observed(cp.observe, O.LENGTH, world, seat),
                          observed(cp.observe, O.LENGTH, true, seat))


@pytest.mark.parametrize("rules, policies", [({}, ["heuristic"] * 3),
                                             ({"team_cards": "all"}, ["random"] * 3)])
def test_every_pregame_world_is_consistent_and_plays_out(rules: dict, policies: list[str]) -> None:
    """At every declaration and discard of 20 recorded deals and three where nobody declared
    (of random players, seed 1) each of five worlds fits the observation (``check_world``)
    and plays to the end of the deal from the decision (the main game over, every hand
    played out)."""
    rng = np.array([5], np.uint64)
    kinds = set()
    deals = [*range(20), *redeals(rules, 3)] if policies[0] == "random" else range(20)
    for true, obs, index in pregame_decisions(rules, policies, 1, deals):
        kinds.add((int(obs[O.PHASE]), int(obs[O.REDEAL])))
        for _ in range(5):
            world = np.zeros(sd.LENGTH, np.int64)
            sd.pregame_world(obs, rng, world)
            check_world(world, true, obs, index)
            pols = np.full(3, HEURISTIC, np.int64)
            rngs = np.arange(1, 4, dtype=np.uint64).reshape(3, 1)
            sd.playout(world, pols, rngs, NO_NET)
            assert world[S.DONE] == 1 and world[S.ROUND] != obs[O.PHASE]
            assert not world[S.HANDS:S.HANDS + 3].any()
    assert (PH_DECLARE, 0) in kinds and (PH_DISCARD, 0) in kinds
    if policies[0] == "random":
        assert (PH_DISCARD, 1) in kinds


def test_declaration_worlds_are_uniform() -> None:
    """A pair member at the declaration (teams by the first-round cards alone): each card
    he has not seen lies in the other pair member's stock with probability 12/27, in the
    lone player's with 12/27 and in the skat with 3/27 (chi-square over 3,000 worlds)."""
    true, obs = next((t, o) for t, o, _ in pregame_decisions({}, ["heuristic"] * 3, 3, range(30))
                     if o[O.PHASE] == PH_DECLARE and o[O.SEAT] != o[O.LONE])
    seat, lone = int(obs[O.SEAT]), int(obs[O.LONE])
    other = 3 - seat - lone
    nine = int(np.bitwise_or.reduce(true[S.FR_PLAYED:S.FR_PLAYED + 3]))
    unseen = [c for c in range(48) if not (int(obs[O.HAND]) | nine) >> c & 1]
    assert len(unseen) == 27
    counts = np.zeros((27, 3))
    rng = np.array([77], np.uint64)
    world = np.zeros(sd.LENGTH, np.int64)
    n = 3000
    for _ in range(n):
        sd.pregame_world(obs, rng, world)
        skat = int(world[S.SKAT])
        places = [int(world[S.HANDS + other]), int(world[S.HANDS + lone]) & ~skat, skat]
        for k, c in enumerate(unseen):
            counts[k, [j for j in range(3) if places[j] >> c & 1][0]] += 1
    expected = n * np.array([12, 12, 3]) / 27
    for k in range(27):
        assert chisquare(counts[k], expected).pvalue > 1e-4
    assert chisquare(counts.sum(axis=0), expected * 27).pvalue > 1e-3


def test_pregame_step_declares_passes_and_discards() -> None:
    """A game named by the seat makes him the declarer with the first round out and the
    lone player's discard next; a pass hands the declaration on; a discard puts the cards
    away and the main game is next (after a redeal: the next seat's discard)."""
    decisions = list(pregame_decisions({}, ["random"] * 3, 1, [*range(5), *redeals({}, 1)]))
    true, obs, index = next(d for d in decisions if d[1][O.PHASE] == PH_DECLARE)
    world = np.zeros(sd.LENGTH, np.int64)
    sd.pregame_world(obs, np.array([1], np.uint64), world)
    named = world.copy()
    sd.pregame_step(named, 4)
    seat = int(obs[O.SEAT])
    assert named[S.DECLARER] == seat and named[S.GAME] == 4 and named[sd.STAGE] == sd.LONE_DISCARD
    assert named[S.OUT] == int(np.bitwise_or.reduce(true[S.FR_PLAYED:S.FR_PLAYED + 3]))
    passed = world.copy()
    sd.pregame_step(passed, L.PASS)
    assert passed[sd.STAGE] == sd.DECLARING and passed[sd.NEXT] == index + 1
    for want_stage, redealt in ((sd.READY, 0), (sd.REDEAL_DISCARD, 1)):
        true, obs, index = next(d for d in decisions
                                if d[1][O.PHASE] == PH_DISCARD and d[1][O.REDEAL] == redealt)
        sd.pregame_world(obs, np.array([2], np.uint64), world)
        seat = int(obs[O.SEAT])
        hand = int(obs[O.HAND])
        put = sum(1 << c for c in [c for c in range(48) if hand >> c & 1][:int(obs[O.N_DISCARD])])
        sd.pregame_step(world, put)
        assert world[S.HANDS + seat] == hand & ~put and world[S.DISCARDS + seat] == put
        assert world[sd.STAGE] == want_stage
        assert world[sd.NEXT] == (index + 1 if redealt else 0)


def test_the_lookahead_declares_and_discards_by_search() -> None:
    """The lookahead's declaration is a pass or a game code and its discard as many of the
    seat's cards as asked, the same for the same observation and stream; over 30 deals its
    declarations or discards are not all the heuristic's from the same first round."""
    pol = policy_id("lookahead:16")
    for _, obs, _ in list(pregame_decisions({}, ["heuristic"] * 3, 3, range(8))):
        if obs[O.PHASE] == PH_DECLARE:
            got = {int(L.decide_declaration(pol, obs.copy(), np.array([9], np.uint64)))
                   for _ in range(2)}
            assert len(got) == 1 and -1 <= got.pop() < 9
        else:
            got = {int(L.decide_discard(pol, obs.copy(), np.array([9], np.uint64)))
                   for _ in range(2)}
            assert len(got) == 1
            put = got.pop()
            assert ones(put) == obs[O.N_DISCARD] and put & ~int(obs[O.HAND]) == 0
    look = play(GAME, 17, 0, 30, GAME.rules(), ["lookahead:16"] * 3, record=True).actions
    heur = play(GAME, 17, 0, 30, GAME.rules(), ["heuristic"] * 3, record=True).actions
    assert look is not None and heur is not None
    differ = 0
    for a, b in zip(look, heur):
        plays_a, plays_b = a[a[:, 0] == A.PLAY], b[b[:, 0] == A.PLAY]
        if np.array_equal(plays_a[:9], plays_b[:9]):
            differ += not np.array_equal(a[a[:, 0] != A.PLAY], b[b[:, 0] != A.PLAY])
    assert differ >= 3


def test_true_states_differing_in_unseen_cards_give_the_same_worlds_and_decisions() -> None:
    """Information: at a declaration or discard, a second true state that differs from the
    first only in cards the seat cannot see (one of its own pregame worlds) shows the same
    observation, and from the same stream gives the same worlds (nothing of the buffer's
    true state leaks into them) and the same declaration or discard."""
    pol = policy_id("lookahead:8")
    rng = np.array([6], np.uint64)
    compared = 0
    for j, (true, obs, _) in enumerate(pregame_decisions({"team_cards": "all"},
                                                         ["heuristic"] * 3, 4, range(10))):
        other = np.zeros(sd.LENGTH, np.int64)
        sd.pregame_world(obs, rng, other)
        if np.array_equal(other[S.HANDS:S.HANDS + 3], true[S.HANDS:S.HANDS + 3]):
            continue
        seat, phase = int(obs[O.SEAT]), int(obs[O.PHASE])
        seen = asked(other, seat, phase, int(obs[O.NEXT_SPEAKER]), int(obs[O.N_DISCARD]))
        assert seen.tolist() == obs.tolist()
        worlds = []
        for start, shown in ((true, obs), (other, seen)):
            buffer = start.copy()
            stream = np.array([300 + j], np.uint64)
            sd.pregame_world(shown, stream, buffer)
            worlds.append((buffer.tolist(), int(stream[0])))
        assert worlds[0] == worlds[1]
        decide = L.decide_declaration if phase == PH_DECLARE else L.decide_discard
        picks = {int(decide(pol, shown.copy(), np.array([j], np.uint64))) for shown in (obs, seen)}
        assert len(picks) == 1
        compared += 1
    assert compared > 15

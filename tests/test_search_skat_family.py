"""The Skat family's lookahead player (``skat``, ``skat_en_deux``): the worlds it deals
(``sim.games.skat_family.worlds``) and the policy (``sim.games.skat_family.lookahead``).

* consistency: at every card-play decision of recorded deals (suit, grand, null and ramsch
  games, hand and ouvert games, Skat-en-deux's open levels, offers, answers, Contra and Re)
  each sampled world shows the deciding seat exactly his observation and his legal
  actions, keeps every public field of the true state, the seat's own hand and every hand
  he can see, deals the cards he cannot see to the places he cannot see only (the other
  hands as many as they hold, none of a suit they failed to follow; the skat unless he
  put it away; the blind while it lies face down; in Skat-en-deux's ramsch the blind and
  the skat out of play) and holds the deck once;
* exactness: in small endgames of both games the worlds' distribution is uniform over
  the deals consistent with the observation, enumerated by brute force (chi-square), one
  of them with voids that leave so few deals that plain rejection mostly fails and the
  counting path deals; before the opening lead a card the defender cannot see lies in the
  declarer's hand, the blind and the skat 10 : 10 : 2;
* information: two true states that differ only in cards the seat cannot see give the
  same worlds and the same decisions from the same stream, whatever the buffer held before;
* the value: hand-worked finished games (a won suit game, a lost one at twice its value,
  Schneider, grand without two, an overbid, null, ramsch of both games, the seed's
  Skat-en-deux example with Contra and Re), and over recorded deals the score under the
  scoring-only options' defaults, whatever the deal was played under;
* the policy: lookahead deals play to the end, reproduce in one batch, in pieces and in an
  experiment with other shard sizes and workers, replay from their trace, leave bidding,
  the skat, the discard and giving up to the heuristic, search Skat-en-deux's offers,
  answers, Contra and Re, and play the same under every scoring-only option (the
  declaration's search has its own tests, ``tests/test_search_skat_declaration.py``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scipy.stats import chisquare
from search_helpers import observed, sampled, scoring_only_runs

from sim import actions as A
from sim.cards import SKAT_DECK
from sim.engine.net import NO_NET
from sim.engine.play import play
from sim.engine.seats import HEURISTIC, policy_id
from sim.games.skat_family import cardplay as cp
from sim.games.skat_family import lookahead as L
from sim.games.skat_family import worlds as sf
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.observation import OFFER_RAUS, OFFER_STICH, PH_PLAY
from sim.games.skat_family.values import CLUBS, GRAND, NULL, RAMSCH, SPADES, SUIT_MASKS
from sim.registry import GAMES
from sim.runner import Experiment, run_experiment
from sim.trace import replay_file, write_trace

S = cp.S
D = SKAT_DECK
DECK = (1 << 32) - 1
WIDTH = {name: size for name, size in zip(cp.State._fields, cp.State())}
PUBLIC = ("TO_MOVE", "PHASE", "DONE", "PLACES", "FOREHAND", "BLIND_AT", "GAME", "DECLARER",
          "DEFENDER", "BID", "HAND_GAME", "OUVERT", "SCHNEIDER_ANN", "SCHWARZ_ANN",
          "OPEN_LEVEL", "MAX_OPEN", "OFFERS", "CONTRA_RE", "SKAT_TO_LOSER", "PLAYED",
          "TRICK_NO", "TRICK_N", "LEADER", "TRICK", "VOIDS", "POINTS", "TRICKS", "ACCEPTED",
          "REJECTED", "SAID_CONTRA", "SAID_RE")
"""State fields the observation determines: a world must hold the true state's values.
(``LAST_LEADER`` only counts between tricks; the offers made are checked by what they
allow and how they score: a "Stich" after a rejected "raus" reads alike either way.)"""
BIDDING = [O.NEXT_BID, O.PASSED, O.SEAT_BID, O.SEAT_BID + 1, O.SEAT_BID + 2]
"""The bidding's fields, which the card-play state leaves alone."""

SKAT_RUNS: list[tuple[dict, list[str], int, int, dict[str, int]]] = [
    ({}, ["heuristic"] * 3, 31, 20, {"suit": 100, "grand": 50, "skat_known": 100, "hand_game": 30}),
    ({"all_pass": "ramsch", "ramsch_skat": "loser"}, ["random"] * 3, 32, 20,
     {"ramsch": 100, "null": 20, "grand": 10}),
    ({"all_pass": "ramsch", "announcements": True}, ["random", "heuristic", "random"], 33, 20,
     {"hand_game": 100, "laid_down": 5, "ramsch": 100})]
EN_DEUX_RUNS: list[tuple[dict, list[str], int, int, dict[str, int]]] = [
    ({}, ["heuristic"] * 2, 34, 20,
     {"laid_down": 100, "ramsch": 50, "blind_hidden": 10, "skat_known": 100}),
    ({"offers": True}, ["random"] * 2, 35, 25,
     {f"phase{cp.OFFER}": 20, f"phase{cp.ACCEPT}": 5, "null": 10, "hand_game": 50}),
    ({"contra_re": True, "open_hand": True}, ["random"] * 2, 36, 25,
     {f"phase{cp.CONTRA}": 3, f"phase{cp.RE}": 2, "laid_down": 100, "ramsch": 50}),
    ({"contra_re": True, "all_pass": "throw_in"}, ["heuristic"] * 2, 37, 20,
     {f"phase{cp.OFFER}": 100, f"phase{cp.ACCEPT}": 1, "grand": 100})]
"""Recorded deals for the consistency tests: rules, policies, seed, deals, and the least
count of each kind of decision (``kind_of``) they must hold."""


def bits(mask: int) -> list[int]:
    return [i for i in range(32) if int(mask) >> i & 1]


def ones(mask: int) -> int:
    return bin(int(mask)).count("1")


def cards(text: str) -> int:
    return int(D.parse(text)) if text else 0


def void_cards(game: int, voids: int, place: int) -> int:
    return sum(int(SUIT_MASKS[game, e]) for e in range(5) if voids >> (5 * place + e) & 1)


def decisions(name: str, rules: dict, policies: list[str], seed: int,
              count: int) -> Iterator[np.ndarray]:
    """The true card-play state at every card-play decision of ``count`` recorded deals."""
    game = GAMES[name]
    resolved = game.rules(rules)
    batch = play(game, seed, 0, count, resolved, policies, record=True)
    assert batch.actions is not None and game.card_play is not None
    for i in range(count):
        started = game.card_play.start(batch.columns, i, batch.actions[i], resolved)
        if started is None:
            continue
        state, actions = started
        for action in actions:
            yield state.copy()
            cp.step(state, action)


observe = partial(observed, cp.observe, O.LENGTH)
"""A seat's observation of a true state."""
sample = partial(sampled, sf.world, cp.LENGTH)
"""A world dealt from an observation."""


def field(state: np.ndarray, name: str) -> list[int]:
    at = getattr(S, name)
    return [int(x) for x in state[at:at + WIDTH[name]]]


def hidden_places(state: np.ndarray, seat: int) -> tuple[list[int], bool]:
    """The places whose cards ``seat`` cannot see, and whether the skat is hidden from him
    (the rules of what each player sees, RULES.md and docs)."""
    declarer, blind = int(state[S.DECLARER]), int(state[S.BLIND_AT])
    visible = {seat}
    if cp.laid_down(state):
        visible.add(declarer)
    if blind >= 0 and seat != declarer:
        visible.add(int(state[S.DEFENDER]))  # the defender plays the blind beside his hand
        if state[S.TRICK_NO] or state[S.TRICK_N]:
            visible.add(blind)  # face up after the opening lead
    elif blind >= 0 and (state[S.TRICK_NO] or state[S.TRICK_N]):
        visible.add(blind)
    skat_hidden = not (seat == declarer and not state[S.HAND_GAME] and state[S.GAME] != RAMSCH)
    return [p for p in range(int(state[S.PLACES])) if p not in visible], skat_hidden


def hidden(state: np.ndarray, seat: int) -> tuple[int, ...]:
    """What ``seat`` cannot see of a state: the hidden places' hands, the skat if hidden."""
    places, skat_hidden = hidden_places(state, seat)
    return tuple(int(state[S.HANDS + p]) for p in places) + (
        (int(state[S.SKAT]),) if skat_hidden else ())


def seen_cards(state: np.ndarray, seat: int) -> int:
    """Every card ``seat`` knows the place of."""
    places, skat_hidden = hidden_places(state, seat)
    out = 0 if skat_hidden else int(state[S.SKAT])
    for p in range(3):
        out |= int(state[S.PLAYED + p])
        if p < state[S.PLACES] and p not in places:
            out |= int(state[S.HANDS + p])
    return out


def check_world(world: np.ndarray, state: np.ndarray, seat: int, obs: np.ndarray) -> None:
    """Everything a world must share with the true state it was dealt for (module text)."""
    assert observe(world, seat).tolist() == obs.tolist()
    assert int(cp.legal(world)) == int(cp.legal(state))
    for name in PUBLIC:
        assert field(world, name) == field(state, name), name
    if state[S.PHASE] != cp.PLAY:
        assert world[S.LAST_LEADER] == state[S.LAST_LEADER]
    assert int(cp.offers_left(world)) == int(cp.offers_left(state))
    # the offers score alike, accepted (while one may still be) or not
    may_accept = state[S.PHASE] == cp.ACCEPT or int(cp.offers_left(state)) != 0
    for accepted in (False, True)[:1 + may_accept]:
        assert cp.offer_outcome(world[S.OFFER], world[S.SECOND_OFFER_TRICK], accepted,
                                world[S.CONTRA_RE] != 0, False) == \
            cp.offer_outcome(state[S.OFFER], state[S.SECOND_OFFER_TRICK], accepted,
                             state[S.CONTRA_RE] != 0, False)
    # who decides where: the same places share a player, and the seat decides for himself
    places = int(state[S.PLACES])
    for a, b in itertools.product(range(places), repeat=2):
        assert (world[S.PLAYER_AT + a] == world[S.PLAYER_AT + b]) == \
            (state[S.PLAYER_AT + a] == state[S.PLAYER_AT + b])
    assert world[S.PLAYER] == world[S.PLAYER_AT + seat] >= 0
    assert all(world[S.PLAYER_AT + p] == -1 for p in range(places, 3))
    # what he sees stays; what he cannot see goes to the places he cannot see
    hidden_at, skat_hidden = hidden_places(state, seat)
    for p in range(places):
        if p not in hidden_at:
            assert world[S.HANDS + p] == state[S.HANDS + p], p
    if not skat_hidden:
        assert world[S.SKAT] == state[S.SKAT] and world[S.SKAT_SEEN] == state[S.SKAT_SEEN]
    unknown = DECK & ~seen_cards(state, seat)
    dealt = 0
    game, voids = int(state[S.GAME]), int(state[S.VOIDS])
    for p in hidden_at:
        hand = int(world[S.HANDS + p])
        assert ones(hand) == ones(state[S.HANDS + p]), p
        voided = void_cards(game, voids, p)
        assert not int(state[S.HANDS + p]) & voided  # the voids the play shows hold in truth
        assert not hand & voided
        assert not hand & dealt
        dealt |= hand
    if skat_hidden:
        assert ones(world[S.SKAT]) == 2 and not int(world[S.SKAT]) & dealt
        dealt |= int(world[S.SKAT])
    if places == 3:
        assert dealt == unknown  # exactly the cards he cannot see
    else:  # Skat-en-deux's ramsch: the blind stays out, unseen by both
        assert not dealt & ~unknown and ones(unknown) == ones(dealt) + 10
    parts = [int(world[S.HANDS + p]) for p in range(places)] + [
        int(world[S.PLAYED + p]) for p in range(places)] + [int(world[S.SKAT])]
    assert sum(ones(x) for x in parts) == ones(np.bitwise_or.reduce(parts))
    assert sum(ones(x) for x in parts) == (32 if places == 3 else 22)


# --- consistency ------------------------------------------------------------------------------

def kind_of(state: np.ndarray, seat: int) -> list[str]:
    """What a decision is, for the coverage counts."""
    game, declarer = int(state[S.GAME]), int(state[S.DECLARER])
    out = ["ramsch" if game == RAMSCH else "null" if game == NULL else
           "grand" if game == GRAND else "suit", f"phase{int(state[S.PHASE])}"]
    places, skat_hidden = hidden_places(state, seat)
    out.append("declarer" if seat == declarer else "other")
    out += ["skat_hidden"] if skat_hidden else ["skat_known"]
    if state[S.HAND_GAME] and game != RAMSCH:
        out.append("hand_game")
    if cp.laid_down(state):
        out.append("laid_down")
    blind = int(state[S.BLIND_AT])
    if blind in places:
        out.append("blind_hidden")
    voids = int(state[S.VOIDS])
    if any(void_cards(game, voids, p) & (DECK & ~seen_cards(state, seat)) for p in places):
        out.append("void_binds")
    return out


def check_run(name: str, rules: dict, policies: list[str], seed: int, n: int,
              least: dict[str, int]) -> Counter[str]:
    """Sample two worlds at every card-play decision of the run and check each; the counts
    of the kinds of decision seen."""
    rng = np.array([12345 + seed], np.uint64)
    counts: Counter[str] = Counter()
    for state in decisions(name, rules, policies, seed, n):
        seat = int(state[S.TO_MOVE])
        obs = observe(state, seat)
        counts.update(kind_of(state, seat))
        counts["decisions"] += 1
        for _ in range(2):
            world = sample(obs, rng)
            check_world(world, state, seat, obs)
            counts["differs"] += hidden(world, seat) != hidden(state, seat)
    # Skat-en-deux's declarer knows every card once the blind is up (a pickup game)
    assert counts["decisions"] > 10 * n and counts["differs"] > counts["decisions"] // 2
    for kind, count in least.items():
        assert counts[kind] >= count, (kind, counts)
    return counts


@pytest.mark.parametrize("rules, policies, seed, n, least", SKAT_RUNS)
def test_every_skat_world_is_consistent_with_the_observation(
        rules: dict, policies: list[str], seed: int, n: int, least: dict[str, int]) -> None:
    counts = check_run("skat", rules, policies, seed, n, least)
    assert counts["void_binds"] > 50 and counts["declarer"] > 100 and counts["other"] > 200


@pytest.mark.parametrize("rules, policies, seed, n, least", EN_DEUX_RUNS)
def test_every_skat_en_deux_world_is_consistent_with_the_observation(
        rules: dict, policies: list[str], seed: int, n: int, least: dict[str, int]) -> None:
    counts = check_run("skat_en_deux", rules, policies, seed, n, least)
    assert counts["void_binds"] > 20 and counts["declarer"] > 50 and counts["other"] > 200
    assert counts["blind_hidden"] > 5


def test_a_world_plays_on_to_the_end() -> None:
    """The heuristic plays a world to its end: every card once, the points all there, and
    the two sides' values opposite."""
    rng = np.array([3], np.uint64)
    rngs = np.ones((3, 1), np.uint64)
    played: Counter[tuple[str, bool]] = Counter()
    for name, rules in (("skat", {"all_pass": "ramsch"}), ("skat_en_deux", {"contra_re": True})):
        game = GAMES[name]
        for j, state in enumerate(decisions(name, rules, ["random"] * game.n_players, 32, 16)):
            if j % 4:
                continue
            seat = int(state[S.TO_MOVE])
            world = sample(observe(state, seat), rng)
            cp.playout(world, np.full(3, HEURISTIC, np.int64), rngs, NO_NET)
            assert cp.finished(world)
            kind = int(world[S.GAME])
            places = int(world[S.PLACES])
            out = [int(world[S.PLAYED + p]) | int(world[S.HANDS + p]) for p in range(places)]
            assert ones(np.bitwise_or.reduce(out + [int(world[S.SKAT])])) == 10 * places + 2
            points = sum(int(world[S.POINTS + p]) for p in range(places))
            skat_points = int(sum(D.points[c] for c in bits(world[S.SKAT])))
            if kind != NULL and places == 3 and not world[S.ACCEPTED]:
                assert points + skat_points == 120 and world[S.TRICK_NO] == 10
            players = {int(world[S.PLAYER_AT + p]) for p in range(places)}
            if kind != RAMSCH:
                declarer = int(world[S.PLAYER_AT + world[S.DECLARER]])
                for other in players - {declarer}:
                    assert sf.value(world, other) == -sf.value(world, declarer)
            played[name, kind == RAMSCH] += 1
    assert all(played[k] > 3 for k in itertools.product(("skat", "skat_en_deux"), (False, True)))


# --- exactness -------------------------------------------------------------------------------

def unseen(obs: np.ndarray) -> tuple[int, list[tuple[int, int, int]], int]:
    """From the observation alone: the cards the seat cannot see, the hidden hands (place,
    cards held, cards allowed) and how many unseen cards lie out of the play (the skat, in
    Skat-en-deux's ramsch with the blind)."""
    seat, game = int(obs[O.SEAT]), int(obs[O.GAME])
    seen = int(obs[O.HAND]) | int(obs[O.OPEN_HAND]) | int(obs[O.BLIND]) | int(obs[O.KNOWN]) | int(
        obs[O.SKAT])
    for p in range(3):
        seen |= int(obs[O.PLAYED + p])
    declarer, blind = int(obs[O.DECLARER]), int(obs[O.BLIND_SEAT])
    other = ({0, 1, 2} - {seat, declarer}).pop() if obs[O.KNOWN] else -1
    places = []
    for p in range(int(obs[O.TRICK_SIZE])):
        if p in (seat, other) or (p == declarer and obs[O.OPEN_HAND]) or (
                p == blind and obs[O.BLIND]):
            continue
        places.append((p, 10 - ones(obs[O.PLAYED + p]),
                       DECK & ~void_cards(game, int(obs[O.VOIDS]), p)))
    unknown = DECK & ~seen
    return unknown, places, ones(unknown) - sum(count for _, count, _ in places)


def enumerate_worlds(obs: np.ndarray) -> tuple[list[tuple[int, ...]], int]:
    """Every deal of the unseen cards consistent with ``obs``, as the hidden hands followed
    by the skat (in Skat-en-deux's ramsch the hands only: the skat is two of the twelve
    cards out of play); and the number of deals without the voids."""
    unknown, places, out = unseen(obs)
    found: list[tuple[int, ...]] = []

    def deal(rest: list[int], k: int, got: list[int]) -> None:
        if k == len(places):
            found.append((*got, sum(1 << c for c in rest)) if out == 2 else tuple(got))
            return
        _, count, allowed = places[k]
        for chosen in itertools.combinations(rest, count):
            part = sum(1 << c for c in chosen)
            if not part & ~allowed:
                deal([c for c in rest if c not in chosen], k + 1, got + [part])

    deal(bits(unknown), 0, [])
    free = 1
    n = ones(unknown)
    for _, count, _ in places:
        free *= len(list(itertools.combinations(range(n), count)))
        n -= count
    return found, free


def key_of(world: np.ndarray, obs: np.ndarray) -> tuple[int, ...]:
    _, places, out = unseen(obs)
    hands = tuple(int(world[S.HANDS + p]) for p, _, _ in places)
    return (*hands, int(world[S.SKAT])) if out == 2 else hands


def small_endgames() -> dict[str, np.ndarray]:
    """Late observations of recorded deals whose worlds can be counted, one of each kind:
    a Skat defender (the skat hidden), a Skat declarer (his discard known), a Skat ramsch,
    a Skat-en-deux defender and declarer, its ramsch (twelve cards out of play), and one
    whose voids leave under 3 % of the deals (plain rejection fails most of its 16 tries)."""
    found: dict[str, np.ndarray] = {}
    runs: list[tuple[str, dict, list[str], int, int]] = [
        ("skat", {"all_pass": "ramsch"}, ["random"] * 3, 3, 60),
        ("skat", {}, ["heuristic"] * 3, 4, 60),
        ("skat_en_deux", {"contra_re": True}, ["random"] * 2, 3, 60)]
    for name, rules, policies, seed, n in runs:
        for state in decisions(name, rules, policies, seed, n):
            if state[S.TRICK_NO] < 6:
                continue
            seat = int(state[S.TO_MOVE])
            obs = observe(state, seat)
            unknown, places, out = unseen(obs)
            if ones(unknown) - out > 7 or out not in (0, 2, 12):
                continue
            worlds, free = enumerate_worlds(obs)
            if not 4 <= len(worlds) <= 120:
                continue
            ramsched = state[S.GAME] == RAMSCH
            kind = (f"{name}:" + ("ramsch" if ramsched else
                                  "declarer" if seat == state[S.DECLARER] else "defender"))
            if len(worlds) / free < 0.03:
                kind = "counting"
            found.setdefault(kind, obs)
    return found


def test_worlds_are_uniform_over_the_consistent_deals() -> None:
    cases = small_endgames()
    assert set(cases) == {f"{g}:{k}" for g in ("skat", "skat_en_deux")
                          for k in ("ramsch", "declarer", "defender")} | {"counting"}
    rng = np.array([99], np.uint64)
    for kind, obs in cases.items():
        worlds, free = enumerate_worlds(obs)
        n = 150 * len(worlds)
        got: Counter[tuple[int, ...]] = Counter()
        unknown, _, out = unseen(obs)
        probe = 1 << bits(unknown)[0]
        in_skat: Counter[bool] = Counter()
        for _ in range(n):
            world = sample(obs, rng)
            got[key_of(world, obs)] += 1
            if out == 12:  # the skat: two of the twelve cards out of play, any two
                rest = unknown & ~sum(int(world[S.HANDS + p]) for p in range(2))
                assert ones(world[S.SKAT]) == 2 and not int(world[S.SKAT]) & ~rest
                if rest & probe:
                    in_skat[bool(int(world[S.SKAT]) & probe)] += 1
        assert set(got) <= set(worlds), f"{kind}: a world outside the consistent deals"
        observed = [got[w] for w in worlds]
        assert chisquare(observed).pvalue > 0.001, (kind, len(worlds), observed)
        if out == 12:
            m = sum(in_skat.values())
            assert chisquare([in_skat[True], in_skat[False]], [m / 6, 5 * m / 6]).pvalue > 0.001
        if kind == "counting":
            assert len(worlds) < 0.03 * free and (1 - len(worlds) / free) ** 16 > 0.6


def test_before_the_opening_lead_the_defender_cannot_see_the_blind() -> None:
    """Skat-en-deux's opening lead, the blind face down: forehand defending cannot see the
    declarer's hand, the blind and the skat, so a card he cannot see lies there as
    10 : 10 : 2; forehand declaring a pickup game knows the skat he put away: the rest lies
    in the defender's hand and the blind 10 : 10."""
    rng = np.array([17], np.uint64)
    states = [s for s in decisions("skat_en_deux", {}, ["heuristic"] * 2, 38, 40)
              if s[S.TRICK_NO] == 0 and s[S.TRICK_N] == 0 and s[S.GAME] != RAMSCH]
    tested: Counter[str] = Counter()
    for state in states:
        seat = int(state[S.TO_MOVE])
        declarer = int(state[S.DECLARER])
        if seat == declarer and state[S.HAND_GAME]:
            continue
        kind = "declarer" if seat == declarer else "defender"
        if tested[kind] or cp.laid_down(state):
            continue
        obs = observe(state, seat)
        probe = bits(DECK & ~seen_cards(state, seat))[0]
        places = hidden_places(state, seat)[0]
        where: Counter[int] = Counter()
        n = 2000
        for _ in range(n):
            world = sample(obs, rng)
            at = [p for p in places if int(world[S.HANDS + p]) >> probe & 1]
            where[at[0] if at else -1] += 1
        if kind == "defender":
            assert set(places) == {declarer, cp.BLIND} and obs[O.BLIND] == 0
            expected = [n * 10 / 22, n * 10 / 22, n * 2 / 22]
            observed = [where[declarer], where[cp.BLIND], where[-1]]
        else:
            assert len(places) == 2 and where[-1] == 0
            expected = [n / 2, n / 2]
            observed = [where[p] for p in places]
        assert chisquare(observed, expected).pvalue > 0.001, (kind, observed)
        tested[kind] += 1
    assert tested == {"declarer": 1, "defender": 1}


# --- information -----------------------------------------------------------------------------

@pytest.mark.parametrize("name, rules", [("skat", {"all_pass": "ramsch", "announcements": True}),
                                         ("skat_en_deux", {"contra_re": True, "open_hand": True})])
def test_states_differing_in_unseen_cards_give_the_same_worlds_and_decisions(name: str,
                                                                               rules: dict) -> None:
    rng = np.array([4], np.uint64)
    pol = policy_id("lookahead:8")
    players = GAMES[name].n_players
    compared: Counter[str] = Counter()
    for j, state in enumerate(decisions(name, rules, ["random"] * players, 9, 20)):
        if j % 3:
            continue
        seat = int(state[S.TO_MOVE])
        obs = observe(state, seat)
        # a second true state: the same but for the cards he cannot see, dealt anew
        dealt = sample(obs, rng)
        other = state.copy()
        places, skat_hidden = hidden_places(state, seat)
        for p in places:
            other[S.HANDS + p] = dealt[S.HANDS + p]
        if skat_hidden:
            other[S.SKAT] = dealt[S.SKAT]
            if state[S.SKAT_SEEN]:
                other[S.SKAT_SEEN] = dealt[S.SKAT]
        if hidden(other, seat) == hidden(state, seat):
            continue
        obs_other = observe(other, seat)
        assert obs_other.tolist() == obs.tolist()
        # neither the buffer (the true state) nor the bidding's fields reach a world
        worlds = []
        for start, seen, noise in ((state, obs, 0), (other, obs_other, 1)):
            buffer = start.copy()
            seen = seen.copy()
            seen[BIDDING] = noise * 977
            stream = np.array([1000 + j], np.uint64)
            sf.world(seen, stream, buffer)
            worlds.append((buffer.tolist(), int(stream[0])))
        assert worlds[0] == worlds[1]
        picks = [L.decide(pol, seen, np.array([j], np.uint64)) for seen in (obs, obs_other)]
        assert picks[0] == picks[1] and int(cp.legal(state)) >> picks[0] & 1
        compared["play" if obs[O.PHASE] == PH_PLAY else "between"] += 1
    assert compared["play"] > 40
    if name == "skat_en_deux":
        assert compared["between"] > 3


# --- the value -------------------------------------------------------------------------------

def test_the_defaults_the_value_scores_under_are_the_options_defaults() -> None:
    skat, en_deux = GAMES["skat"], GAMES["skat_en_deux"]
    assert {n for n, o in skat.options.by_name.items() if o.scoring_only} == {
        "lost_factor", "scoring", "ramsch_jungfrau"}
    assert {n for n, o in en_deux.options.by_name.items() if o.scoring_only} == {
        "lost_factor", "give_up_penalty", "rejection_premium_percent", "compensation",
        "pickup_give_up_score", "second_rejection"}
    assert (en_deux.rules()["rejection_premium_percent"], en_deux.rules()["compensation"]) == (
        sf.REJECTION_PREMIUM, 0)
    # the search values a give-up after the pickup as overbid and a second rejection as
    # nothing more (``value``: offer_outcome without second_counts)
    assert (en_deux.rules()["pickup_give_up_score"], en_deux.rules()["second_rejection"]) == (
        "overbid", "no_effect")
    for game in (skat, en_deux):
        assert game.rules()["lost_factor"] == sf.DEFAULT_LOST_FACTOR == 2
    assert skat.rules()["scoring"] == "seed" and skat.rules()["ramsch_jungfrau"] is False


def finished(game: int, declarer: int, declarer_cards: str, points: int, tricks: int,
             bid: int = 18, hand: int = 0, ouvert: int = 0, skat: str = "D7 D8",
             places: int = 3, blind: int = -1, level: int = 0) -> np.ndarray:
    """A finished declared game set up by hand: the declarer's tricks' card points and
    tricks, his cards (hand and skat: the matadors), the rest to the others."""
    state = np.zeros(cp.LENGTH, np.int64)
    cp.begin(state, places, 0, blind, 2 if blind >= 0 else 0)
    for p in range(places):
        player = p if blind < 0 else (0 if p == declarer else 1)
        cp.sit(state, p, np.uint64(0), player)
    skat_mask = cards(skat)
    state[S.PLAYED + declarer] = cards(declarer_cards) & ~skat_mask
    cp.contract(state, cp.declaration_of(game, ouvert, 0, 0, level), declarer,
                (2 - declarer) if blind >= 0 else -1, bid, hand, np.uint64(skat_mask),
                np.uint64(0 if hand else skat_mask), blind >= 0, blind >= 0)
    others = [p for p in range(places) if p != declarer]
    state[S.POINTS + declarer] = points - sum(D.points[c] for c in bits(skat_mask))
    state[S.TRICKS + declarer] = tricks
    state[S.POINTS + others[0]] = 120 - points
    state[S.TRICKS + others[0]] = 10 - tricks
    state[S.TRICK_NO] = 10
    state[S.DONE] = 1
    return state


def values(state: np.ndarray, players: int = 3) -> list[float]:
    return [float(sf.value(state, p)) for p in range(players)]


def test_the_value_of_hand_worked_declared_games() -> None:
    # clubs with two (CJ SJ, no HJ): 12 x 3 = 36; won with 61 (the skat's 0 counted)
    state = finished(CLUBS, 1, "CJ SJ CA CT CK SA HA", 61, 6)
    assert values(state) == [-36, 36, -36]
    # lost with 60: - 2 x 36 (lost_factor 2, whatever the deal was played under)
    state = finished(CLUBS, 1, "CJ SJ CA CT CK SA HA", 60, 5)
    assert values(state) == [72, -72, 72]
    # Schneider: 90 points, one level more: 12 x 4 = 48; the skat's points count for him
    state = finished(CLUBS, 0, "CJ SJ CA CT CK SA HA", 90, 8, skat="ST D7")
    assert values(state) == [48, -48, -48]
    # Schneider against him (30 points), lost: - 2 x 48
    state = finished(CLUBS, 2, "CJ SJ CA CT CK SA HA", 30, 3)
    assert values(state) == [96, 96, -96]
    # Schwarz: every trick, 120 points: 12 x (2 + 1 + 1 + 1) = 60
    state = finished(CLUBS, 0, "CJ SJ CA CT CK SA HA", 120, 10)
    assert values(state) == [60, -60, -60]
    # grand hand without two (no CJ, no SJ, HJ): 24 x (2 + 1 + 1 hand) = 96
    state = finished(GRAND, 0, "HJ DJ CA CT SA ST HA HT DA DT", 70, 6, hand=1)
    assert values(state) == [96, -96, -96]
    # overbid: spades with one is 11 x 2 = 22 < 24 bid: lost at 33 (smallest x 11 >= 24)
    state = finished(SPADES, 0, "CJ HJ SA ST SK", 80, 7, bid=24)
    assert values(state) == [-66, 66, 66]


def test_the_value_of_hand_worked_null_games() -> None:
    # null: 23 won without a trick; the card play ends at his first trick: - 2 x 23
    assert values(finished(NULL, 0, "C7 S7 H7", 0, 0)) == [23, -23, -23]
    assert values(finished(NULL, 0, "C7 S7 H7", 10, 1)) == [-46, 46, 46]
    # null ouvert hand: 59, lost - 118
    assert values(finished(NULL, 1, "C7 S7 H7", 4, 1, hand=1, ouvert=1)) == [118, -118, 118]


def test_the_value_of_skat_en_deux_games() -> None:
    """Players: the declarer decides at his place (player 0), the defender at the others."""
    # suit game, einmal offen, won: clubs with one (CJ, no SJ) 12 x (1 + 1 + 1 open) = 36
    state = finished(CLUBS, 2, "CJ HJ CA CT", 75, 7, places=3, blind=1, level=1)
    assert values(state, 2) == [36, -36]
    # the seed's example (RULES.md): grand with one, zweimal offen, Schneider, the first
    # offer ("raus") rejected under contra_re: 24 x 6 = 144, x 1.5 = 216, Contra 432, Re 864
    state = finished(GRAND, 0, "CJ HJ CA CT SA ST", 95, 8, places=3, blind=1, level=2)
    assert values(state, 2) == [120, -120]  # without the offers: 24 x 5
    state[S.OFFER], state[S.OFFER_TRICK], state[S.REJECTED] = OFFER_RAUS, 3, 1
    assert values(state, 2) == [216, -216]
    state[S.SAID_CONTRA] = 1
    assert values(state, 2) == [432, -432]
    state[S.SAID_RE] = 1
    assert values(state, 2) == [864, -864]
    # an accepted "Stich": won with Schneider whatever the points: 24 x (2 + 1 + 2 + 1) = 144
    state = finished(GRAND, 0, "CJ SJ CA", 40, 2, places=3, blind=1, level=2)
    state[S.OFFER], state[S.OFFER_TRICK], state[S.ACCEPTED] = OFFER_STICH, 3, 1
    assert values(state, 2) == [144, -144]
    # without contra_re a rejected offer changes nothing; lost: - 2 x 24 x (1 + 1 + 2) = - 192
    state = finished(GRAND, 2, "CJ HJ CA CT SA ST", 50, 4, places=3, blind=1, level=2)
    state[S.CONTRA_RE] = 0
    state[S.OFFER], state[S.OFFER_TRICK], state[S.REJECTED] = OFFER_RAUS, 2, 1
    assert values(state, 2) == [-192, 192]


def ramsch_state(places: int, points: list[int], tricks: list[int], skat: str, last: int,
                 to_loser: bool = False, players: tuple[int, ...] = (0, 1, 2)) -> np.ndarray:
    state = np.zeros(cp.LENGTH, np.int64)
    cp.begin(state, places, 0, -1, 0)
    for p in range(places):
        cp.sit(state, p, np.uint64(0), players[p])
    cp.ramsch(state, np.uint64(cards(skat)), to_loser)
    for p in range(places):
        state[S.POINTS + p], state[S.TRICKS + p] = points[p], tricks[p]
    state[S.LEADER], state[S.TRICK_NO], state[S.DONE] = last, 10, 1
    return state


def test_the_value_of_hand_worked_ramsch_games() -> None:
    # Skat: the most points lose them; the skat (CA CT: 21) goes to the last trick's taker
    assert values(ramsch_state(3, [50, 40, 9], [4, 3, 3], "CA CT", 2)) == [-50, 0, 0]
    assert values(ramsch_state(3, [50, 40, 30], [4, 3, 3], "CA CT", 2)) == [0, 0, -51]
    # ... or to the loser found without it (each of a tie)
    assert values(ramsch_state(3, [50, 40, 9], [4, 3, 3], "CA CT", 2, True)) == [-71, 0, 0]
    assert values(ramsch_state(3, [45, 45, 9], [4, 4, 2], "CA CT", 2, True)) == [-66, -66, 0]
    # a Jungfrau (no trick) does not double (scoring only, default off); Durchmarsch: 120
    assert values(ramsch_state(3, [80, 19, 0], [7, 3, 0], "D7 D8", 0)) == [-80, 0, 0]
    assert values(ramsch_state(3, [120, 0, 0], [10, 0, 0], "D7 D8", 0)) == [120, 0, 0]
    # Skat-en-deux: more points lose them and the skat's; a tie: the last trick's taker
    # (places 0 and 1 are forehand and rearhand, here players 1 and 0)
    state = ramsch_state(2, [50, 30], [6, 4], "CA CT", 1, players=(1, 0))
    assert values(state, 2) == [0, -71]
    state = ramsch_state(2, [40, 40], [5, 5], "CK D7", 1, players=(1, 0))
    assert values(state, 2) == [-44, 0]


@pytest.mark.parametrize("name, rules", [
    ("skat", {}), ("skat", {"all_pass": "ramsch", "announcements": True, "lost_factor": 1,
                            "scoring": "seeger_fabian", "ramsch_jungfrau": True}),
    ("skat", {"all_pass": "ramsch", "ramsch_skat": "loser"}),
    ("skat_en_deux", {"lost_factor": 1, "contra_re": True, "open_hand": True}),
    ("skat_en_deux", {"offers": True})])
def test_the_value_is_the_score_under_the_default_scoring(name: str, rules: dict) -> None:
    """A declared game: the declarer's score for him, its negative for the defenders; a
    ramsch: each player's own; as the scoring-only options' defaults score the deal."""
    game = GAMES[name]
    resolved = game.rules(rules)
    players = game.n_players
    batch = play(game, 61, 0, 300, resolved, ["heuristic", "random", "random"][:players],
                      record=True)
    assert batch.actions is not None and game.card_play is not None
    scoring = {k: v for k, v in game.rules().items() if game.options.by_name[k].scoring_only}
    default = game.rescore(batch.columns, {**resolved, **scoring})
    kinds: Counter[str] = Counter()
    for i in range(300):
        started = game.card_play.start(batch.columns, i, batch.actions[i], resolved)
        if started is None:
            continue
        state, actions = started
        for action in actions:
            cp.step(state, action)
        assert cp.finished(state)
        score = [int(default[f"score_{p}"][i]) for p in range(players)]
        declarer = int(batch.columns["declarer"][i])
        if batch.columns["ramsch"][i]:
            want = score
            kinds["ramsch"] += 1
        else:
            want = [score[declarer] if p == declarer else -score[declarer] for p in range(players)]
            kinds["won" if batch.columns["won"][i] else "lost"] += 1
        assert values(state, players) == want, i
    assert kinds["won"] > 20 and kinds["lost"] > 20
    if resolved["all_pass"] == "ramsch":
        assert kinds["ramsch"] > 5


# --- the policy ------------------------------------------------------------------------------

POLICY_RUNS = [("skat", {}), ("skat", {"all_pass": "ramsch", "announcements": True}),
               ("skat_en_deux", {}), ("skat_en_deux", {"contra_re": True, "open_hand": True})]


@pytest.mark.parametrize("name, rules", POLICY_RUNS)
def test_lookahead_deals_play_out_and_reproduce(name: str, rules: dict) -> None:
    game = GAMES[name]
    resolved = game.rules(rules)
    n = game.n_players
    for policies in (["lookahead:8"] + ["heuristic"] * (n - 1),
                     ["random"] * (n - 1) + ["lookahead:8"], ["lookahead:8"] * n):
        one = play(game, 17, 4, 6, resolved, policies, record=True)
        two = play(game, 17, 4, 6, resolved, policies, record=True)
        # in pieces: the same deals whatever the shard
        pieces = [play(game, 17, 4, 2, resolved, policies, record=True),
                  play(game, 17, 6, 4, resolved, policies, record=True)]
        assert (one.columns["replay_error"] == 0).all()
        for key, column in one.columns.items():
            assert np.array_equal(column, two.columns[key]), key
            assert np.array_equal(column, np.concatenate([p.columns[key] for p in pieces])), key
        assert one.actions is not None and two.actions is not None
        split = [a for p in pieces for a in (p.actions or [])]
        assert all(np.array_equal(a, b) and np.array_equal(a, c)
                   for a, b, c in zip(one.actions, two.actions, split, strict=True))


@pytest.mark.parametrize("name", ["skat", "skat_en_deux"])
def test_lookahead_experiments_do_not_depend_on_shards_or_workers(name: str,
                                                                  tmp_path: Path) -> None:
    n = GAMES[name].n_players
    rules = {"all_pass": "ramsch"} if name == "skat" else {"contra_re": True}
    tables = []
    for shard_size, jobs in ((3, 1), (5, 2)):
        exp = Experiment.from_dict(dict(name=f"look{shard_size}", game=name, deals=10, seed=5,
                                        shard_size=shard_size, rules=rules,
                                        policies=["lookahead:8"] + ["heuristic"] * (n - 1)))
        root = run_experiment(exp, tmp_path, jobs=jobs, progress=False)
        files = sorted(root.rglob("*.parquet"))
        assert len(files) == -(-10 // shard_size)
        tables.append(pa.concat_tables([pq.read_table(f) for f in files]).combine_chunks())
    assert tables[0].num_rows == 10
    assert tables[0].equals(tables[1])


SEARCHED = (A.DECLARE, *cp.CARD_PLAY_ROWS)
"""The recorded actions from the declaration on: the declaration and the card play's
(cards; Skat-en-deux's offers, answers, Contra, Re). Before them: bidding, pickup or hand,
the discard, giving up."""


def searched_from(rows: np.ndarray) -> int:
    """The first row of a deal's actions from the declaration on (their number if none)."""
    at = np.flatnonzero(np.isin(rows[:, 0], SEARCHED))
    return int(at[0]) if len(at) else len(rows)


@pytest.mark.parametrize("name, rules", POLICY_RUNS)
def test_the_lookahead_decides_before_and_in_the_card_play(name: str, rules: dict) -> None:
    """A lookahead seat decides by its own search before the declaration (bidding, the
    skat, the discard, giving up) and from it on: over 30 deals its choices are not all the
    heuristic's, in either part."""
    game = GAMES[name]
    resolved = game.rules(rules)
    n = game.n_players
    look = play(game, 19, 0, 30, resolved, ["lookahead:8"] * n, record=True).actions
    heur = play(game, 19, 0, 30, resolved, ["heuristic"] * n, record=True).actions
    assert look is not None and heur is not None
    before = after = 0
    for a, b in zip(look, heur):
        start = searched_from(a)
        same_start = searched_from(b) == start and np.array_equal(a[:start], b[:start])
        before += not same_start
        after += same_start and not np.array_equal(a[start:], b[start:])
    assert before >= 3 and after >= 3


def test_the_lookahead_searches_offers_answers_contra_and_re() -> None:
    """Skat-en-deux between tricks: the lookahead's answer is a legal one, and not always
    the heuristic's."""
    look, heur = policy_id("lookahead:16"), HEURISTIC
    asked: Counter[int] = Counter()
    differ: Counter[int] = Counter()
    for j, state in enumerate(decisions("skat_en_deux", {"contra_re": True}, ["random"] * 2, 8, 60)):
        phase = int(state[S.PHASE])
        if phase == cp.PLAY:
            continue
        obs = observe(state, int(state[S.TO_MOVE]))
        pick = L.decide(look, obs, np.array([j], np.uint64))
        assert int(cp.legal(state)) >> pick & 1
        asked[phase] += 1
        differ[phase] += pick != L.decide(heur, obs, np.array([j], np.uint64))
    assert asked[cp.OFFER] > 50 and asked[cp.ACCEPT] > 5 and asked[cp.CONTRA] > 0
    assert differ[cp.OFFER] > 0 and sum(differ.values()) > 5


@pytest.mark.parametrize("name, rules", [
    ("skat", {"all_pass": "ramsch", "announcements": True}),
    ("skat_en_deux", {"contra_re": True, "open_hand": True})])
def test_a_lookahead_trace_replays(name: str, rules: dict, tmp_path: Path) -> None:
    game = GAMES[name]
    out = tmp_path / "look.jsonl"
    policies = ["lookahead:8", "heuristic", "lookahead:4"][:game.n_players]
    assert write_trace(game, 7, 0, 4, rules, policies, out) == 4
    assert replay_file(out) == []


@pytest.mark.parametrize("name, base, scoring", [
    ("skat", {"all_pass": "ramsch"},
     {"lost_factor": 1, "scoring": "seeger_fabian", "ramsch_jungfrau": True}),
    ("skat_en_deux", {"contra_re": True}, {"lost_factor": 1, "rejection_premium_percent": 130,
                                           "compensation": 7}),
    ("skat_en_deux", {}, {"give_up_penalty": 13, "compensation": 100})])
def test_scoring_only_options_do_not_change_the_play(name: str, base: dict,
                                                     scoring: dict) -> None:
    """Deals played under other scoring-only options are the same deals, and re-scoring the
    default's equals them."""
    game = GAMES[name]
    policies = ["lookahead:8", "lookahead:16", "heuristic"][:game.n_players]
    default, other = scoring_only_runs(game, base, scoring, policies, 10)
    assert all(np.array_equal(a, b) for a, b in zip(default.actions, other.actions))
    assert not np.array_equal(default.columns["score_0"], other.columns["score_0"]) or \
        not np.array_equal(default.columns["score_1"], other.columns["score_1"])

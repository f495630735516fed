"""The Doppelkopf duel's card-play state (``sim.games.doko_duell.cardplay``): golden positions
worked out by hand (a deal laid by hand and stepped trick by trick; a late position built
field by field), the observation derived from the state against the kernel's own (a
person's seat stops the kernel with it), the marker events of each step against the kernel's
marker rows, the kernel's deals played again by ``playout`` with the seats' streams, a
finished state that steps to nothing, the rules a record shows, and the settlement's terms.
"""

from __future__ import annotations

import numpy as np
import pytest
from doko_cards import Cards

from sim import actions as A
from sim.cards import DOKO_DECK_40
from sim.engine.net import NO_NET
from sim.engine.play import play as play_deals
from sim.engine.seats import HEURISTIC, RANDOM
from sim.games.doko_duell import cardplay as cp
from sim.games.doko_duell import game as G
from sim.games.doko_duell.observation import FIELDS as O
from sim.rng import STREAM_SEAT0, stream_key

D = DOKO_DECK_40
GAME = G.GAME
S = cp.S
FOX, KARLCHEN, IDENTICAL, TWENTY_TWO, PIN = range(1, 6)
"""Marker kinds of the B events (``K_A`` = 0 is an A marker)."""


def mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def hand_deal(rules: cp.Rules = cp.Rules(), starter: int = 0) -> tuple[np.ndarray, dict[str, int]]:
    """The deal laid by hand (RULES.md's positions p0 ... p11): player 0 has HT face up at
    p0 (an A marker at the deal) and CQ face down at p4 under p0 and p1; player 1 has no club
    free in row 1 and CT face up at p7, covered."""
    take = Cards(D)
    pyr0 = take("HT CA SA HA CQ SK HK DT DK ST SJ HJ")
    hand0 = take("HT DA CJ SQ HQ DQ DJ CT")
    pyr1 = take("SA HA HK DK SQ SJ HQ CT HJ ST DT CQ")
    hand1 = take("CA CK CK CJ SK DA DQ DJ")
    assert take.taken == D.full
    state = cp.new_state([mask(hand0), mask(hand1)], [pyr0, pyr1], starter, rules)
    names = {"HT0": pyr0[0], "CA0": pyr0[1], "CQ0": pyr0[4], "HThand": hand0[0], "CT1": pyr1[7],
             "DK1": pyr1[3], "CA1": hand1[0], "CK1": hand1[1], "CK1b": hand1[2], "CJ1": hand1[3],
             "DA1": hand1[5], "DQ1": hand1[6], "DJ1": hand1[7]}
    return state, names


def play(state: np.ndarray, card: int) -> list[tuple[int, int, int]]:
    """Step one card; the step's marker events."""
    assert int(cp.legal(state)) >> card & 1, D.names[card]
    cp.step(state, card)
    return cp.events(state)


# --- golden positions ------------------------------------------------------------------------

def test_the_deal_laid_by_hand() -> None:
    state, c = hand_deal()
    # the top trump face up at the deal: A_SETUP, and its A marker as the first event
    assert cp.events(state) == [(0, G.K_A, -1)]
    assert cp.result(state)["a_setup_0"] == 1 and cp.result(state)["a_markers_0"] == 1
    assert state[S.TO_MOVE] == state[S.PLAYER] == 0 and not cp.finished(state)
    # player 0 leads: his hand and his four free cards of row 1 (p7, p9 lie under row 2)
    free = [int(state[S.PYRAMIDS + k]) for k in range(4)]
    assert int(cp.legal(state)) == int(state[S.HANDS]) | mask(free)
    # without the rule the same card earns nothing at the deal, but still counts as a_setup
    off, _ = hand_deal(cp.Rules(a_on_setup=0))
    assert cp.events(off) == [] and cp.result(off)["a_setup_0"] == 1
    assert cp.result(off)["a_markers_0"] == 0


@pytest.mark.parametrize("equal, one_per_trick, supply, winner, awarded, exhausted", [
    (0, 0, 12, 0, 2, 0),    # first wins: identical and 22 points, two B markers
    (1, 0, 12, 1, 2, 0),    # second wins: the same two for player 1
    (2, 0, 12, 0, 2, 0),    # second only for HT: CA CA stays with the first
    (0, 1, 12, 0, 1, 0),    # one per trick: the first event only
    (0, 0, 1, 0, 1, 1),     # one marker left: the box runs empty, the second finds it empty
    (0, 0, -1, 0, 2, 0),    # no limit
])
def test_the_first_trick_identical_cards_and_22_points(equal: int, one_per_trick: int, supply: int,
                                                      winner: int, awarded: int, exhausted: int) -> None:
    state, c = hand_deal(cp.Rules(equal, one_per_trick, 1, supply))
    assert play(state, c["CA0"]) == []                       # from p1: no marker
    assert state[S.TO_MOVE] == 1 and state[S.TRICK_N] == 1
    # clubs led: player 1 follows with his hand's clubs; CT lies face up but covered at p7
    assert int(cp.legal(state)) == mask([c["CA1"], c["CK1"], c["CK1b"]])
    events = play(state, c["CA1"])
    assert events == [(winner, IDENTICAL, 0), (winner, TWENTY_TWO, 0)]
    got = cp.result(state)
    assert got[f"points_{winner}"] == 22 and got[f"tricks_{winner}"] == 1
    assert got[f"identical_{winner}"] == got[f"twenty_two_{winner}"] == 1   # happened, both
    assert got[f"b_markers_{winner}"] == awarded and got["supply_exhausted"] == exhausted
    assert got[f"b_markers_{1 - winner}"] == 0
    assert state[S.TO_MOVE] == winner and state[S.TRICK_NO] == 1 and state[S.TRICK_N] == 0
    assert state[S.SUPPLY] == (-1 if supply < 0 else max(supply - awarded, 0))


def test_three_tricks_turning_up_a_top_trump_and_playing_one_from_the_hand() -> None:
    state, c = hand_deal()
    play(state, c["CA0"])
    play(state, c["CA1"])                                    # trick 1 to player 0, 22 points
    # trick 2: HT from p0 (a pyramid card earns no A marker); trumps led, player 1 must
    # follow with the trumps of his hand and DK free at p3
    assert play(state, c["HT0"]) == []
    assert int(cp.legal(state)) == mask([c["CJ1"], c["DA1"], c["DQ1"], c["DJ1"], c["DK1"]])
    assert cp.source(state, c["DK1"]) == 1 + 3 and cp.source(state, c["DA1"]) == 0
    # DA into HT: the fox caught; then p4 (under p0 and p1, both gone) turns up: CQ, an A marker
    assert play(state, c["DA1"]) == [(0, FOX, 1), (0, G.K_A, 1)]
    assert state[S.FACE_UP] >> 4 & 1 and not state[S.PRESENT] & 0b11
    obs = np.zeros(O.LENGTH, np.int64)
    cp.observe(state, 1, obs)                                # the opponent sees CQ at p4 now
    assert obs[O.OPP_PYRAMID + 4] == c["CQ0"] and obs[O.OPP_FREE] >> c["CQ0"] & 1
    assert obs[O.LEGAL] == 0                                  # not his turn
    # trick 3: HT from the hand: its A marker at once, before player 1 answers
    assert play(state, c["HThand"]) == [(0, G.K_A, 2)]
    assert play(state, c["CJ1"]) == []                        # CJ loses: no Karlchen
    got = cp.result(state)
    assert (got["points_0"], got["tricks_0"], got["points_1"], got["tricks_1"]) == (22 + 21 + 12, 3, 0, 0)
    assert (got["a_markers_0"], got["a_setup_0"], got["a_play_0"]) == (3, 1, 2)
    assert (got["b_markers_0"], got["fox_0"], got["identical_0"], got["twenty_two_0"]) == (3, 1, 1, 1)
    assert int(state[S.PLAYED]) == mask([c["CA0"], c["HT0"], c["HThand"]])


def late_position(one_per_trick: int) -> tuple[np.ndarray, dict[str, int]]:
    """Two tricks left, built field by field: player 0 holds DA DT, player 1 CJ DA, both
    pyramids played out; player 0 leads trick 19."""
    state, _ = hand_deal(cp.Rules(one_per_trick=one_per_trick))
    take = Cards(D)
    da0, dt0, cj1, da1 = take("DA DT CJ DA")
    state[S.HANDS] = mask([da0, dt0])
    state[S.HANDS + 1] = mask([cj1, da1])
    state[S.PRESENT:S.PRESENT + 2] = 0
    state[S.TRICK_NO] = 18
    state[S.N_NEW] = 0
    return state, {"DA0": da0, "DT0": dt0, "CJ1": cj1, "DA1": da1}


@pytest.mark.parametrize("one_per_trick", [0, 1])
def test_the_last_two_tricks_fox_karlchen_and_the_pin(one_per_trick: int) -> None:
    state, c = late_position(one_per_trick)
    assert int(cp.legal(state)) == mask([c["DA0"], c["DT0"]])
    play(state, c["DA0"])
    assert int(cp.legal(state)) == mask([c["CJ1"], c["DA1"]])   # trump led: both are trumps
    # CJ takes the fox: two events for player 1, in B_EVENTS order
    assert play(state, c["CJ1"]) == [(1, FOX, 18), (1, KARLCHEN, 18)]
    assert state[S.TO_MOVE] == 1 and not cp.finished(state)
    play(state, c["DA1"])
    # the 20th trick won with DA: the fox at the pin (DT is no fox: nothing caught)
    assert play(state, c["DT0"]) == [(1, PIN, 19)]
    assert cp.finished(state) and state[S.LAST_WINNER] == 1
    got = cp.result(state)
    assert got["last_trick_winner"] == 1 and got["b_markers_1"] == 3 - one_per_trick
    assert (got["fox_1"], got["karlchen_1"], got["pin_1"]) == (1, 1, 1)
    assert got["points_1"] == (11 + 2) + (11 + 10)
    assert int(cp.legal(state)) == 0


def test_a_finished_state_steps_to_nothing() -> None:
    state, c = late_position(0)
    for card in (c["DA0"], c["CJ1"], c["DA1"], c["DT0"]):
        cp.step(state, card)
    assert cp.finished(state)
    before = state.copy()
    for card in (c["DA0"], c["DT0"], 0, 39):
        cp.step(state, card)
        assert np.array_equal(state, before)
    rngs = np.ones((2, 1), np.uint64)
    cp.playout(state, np.array([RANDOM, HEURISTIC], np.int64), rngs, NO_NET)
    assert np.array_equal(state, before)


# --- against the kernel ------------------------------------------------------------------------

RULE_SETS = [{}, {"equal_cards": "second_wins", "b_one_per_trick": True},
             {"equal_cards": "second_heart_ten", "b_marker_supply": "none",
              "a_marker_on_setup": False}]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_observe_is_the_kernels_observation_field_by_field(rules: dict) -> None:
    """A person's seat stops the kernel at his next decision with his observation (the
    view); the state stepped through the same plays shows him the same, every field."""
    resolved = GAME.rules(rules)
    rng = np.random.default_rng(3)
    compared = 0
    for deal in range(40):
        seat = deal % 2
        whole = play_deals(GAME, 11, deal, 1, resolved, ["heuristic"] * 2, record=True)
        assert whole.actions is not None
        mine = whole.actions[0][(whole.actions[0][:, 0] == A.PLAY) & (whole.actions[0][:, 1] == seat)]
        for m in sorted({0, 19, int(rng.integers(1, 19))}):
            policies = ["heuristic"] * 2
            policies[seat] = "person"
            stop = play_deals(GAME, 11, deal, 1, resolved, policies, record=True, script=[mine[:m]])
            assert stop.views is not None and stop.actions is not None
            view = stop.views[0]
            assert view is not None
            state, plays = G.start_card_play(stop.columns, 0, stop.actions[0], resolved)
            for card in plays:
                cp.step(state, card)
            assert state[S.TO_MOVE] == seat
            obs = np.full(O.LENGTH, -7, np.int64)
            cp.observe(state, seat, obs)
            assert obs.tolist() == view.tolist(), (deal, m)
            compared += 1
    assert compared >= 100


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_each_steps_events_are_the_kernels_marker_rows(rules: dict, policy: str) -> None:
    """The events ``begin`` and each step leave are the marker rows the kernel records
    after that play, in their order."""
    resolved = GAME.rules(rules)
    batch = play_deals(GAME, 17, 0, 200, resolved, [policy] * 2, record=True)
    assert batch.actions is not None
    events = 0
    for i in range(200):
        rows = [tuple(int(x) for x in r) for r in batch.actions[i]]
        state, plays = G.start_card_play(batch.columns, i, batch.actions[i], resolved)
        k = 0
        got = cp.events(state)
        while k < len(rows) and rows[k][0] == A.MARKER:
            k += 1
        assert got == [r[1:] for r in rows[:k]], i
        for card in plays:
            assert rows[k][0] == A.PLAY and rows[k][2] == card
            assert rows[k][3] == cp.source(state, card), "the PLAY row's b: where it came from"
            cp.step(state, card)
            j = k + 1
            while j < len(rows) and rows[j][0] == A.MARKER:
                j += 1
            assert cp.events(state) == [r[1:] for r in rows[k + 1:j]], (i, k)
            events += j - k - 1
            k = j
        assert k == len(rows)
    assert events > 200


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("policy", [RANDOM, HEURISTIC])
def test_playout_with_the_seats_streams_plays_the_kernels_deal(rules: dict, policy: int) -> None:
    """From the deal, ``playout`` with the policies and the seats' own streams (the kernel's
    ``STREAM_SEAT0 + p``) plays every card the kernel played: the same result."""
    resolved = GAME.rules(rules)
    name = "random" if policy == RANDOM else "heuristic"
    seed = 23
    batch = play_deals(GAME, seed, 50, 100, resolved, [name] * 2, record=True)
    assert batch.actions is not None
    rngs = np.zeros((2, 1), np.uint64)
    for i in range(100):
        state, _ = G.start_card_play(batch.columns, i, np.zeros((0, A.ROW), np.int64), resolved)
        for p in range(2):
            rngs[p, 0] = stream_key(np.uint64(seed), 50 + i, STREAM_SEAT0 + p)
        cp.playout(state, np.full(2, policy, np.int64), rngs, NO_NET)
        assert cp.finished(state)
        assert cp.result(state) == {k: int(batch.columns[k][i]) for k in cp.result(state)}, i
        assert int(state[S.PLAYED]) | int(state[S.PLAYED + 1]) == D.full


def test_without_rules_the_record_shows_them() -> None:
    """``start`` without the rules finds rules under which the recorded deal replays to its
    result: where identical cards met, the second wins as in the deal; where a trick had two
    B events, one per trick; a rule the deal never tested at its default."""
    rules = GAME.rules({"equal_cards": "second_wins", "b_one_per_trick": True})
    batch = play_deals(GAME, 29, 0, 150, rules, ["random"] * 2, record=True)
    assert batch.actions is not None
    shown = 0
    for i in range(150):
        found = cp.recorded_rules(batch.columns, i, batch.actions[i])
        state, plays = G.start_card_play(batch.columns, i, batch.actions[i])
        for card in plays:
            cp.step(state, card)
        assert cp.result(state) == {k: int(batch.columns[k][i]) for k in cp.result(state)}
        cards = [int(r[2]) for r in batch.actions[i] if r[0] == A.PLAY]
        met = any(cp.KIND[cards[2 * t]] == cp.KIND[cards[2 * t + 1]] for t in range(20))
        b_tricks = [int(r[3]) for r in batch.actions[i] if r[0] == A.MARKER and r[2] != G.K_A]
        several = any(b_tricks.count(t) > 1 for t in set(b_tricks))
        assert found == cp.Rules(1 if met else 0, int(several), 1, cp.B_SUPPLY), i
        shown += met and several
    assert shown > 3


# --- the settlement ----------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [{}, {"b_marker_mode": "v2", "tie_rule": "b_markers"},
                                   {"tie_rule": "last_trick", "a_marker_on_setup": False},
                                   {"tie_rule": "starter_loses", "tie_win_base": 1},
                                   {"tie_rule": "last_trick", "vp_band_90": 0, "vp_band_60": 7,
                                    "vp_band_no_trick": 30, "vp_per_a_marker": 3,
                                    "vp_per_b_marker": 2, "compensation": 4}])
def test_the_settlements_terms_add_up_to_the_columns(rules: dict) -> None:
    resolved = GAME.rules(rules)
    cols = play_deals(GAME, 41, 0, 1500, resolved, ["heuristic", "random"]).columns
    ties = 0
    for i in range(1500):
        c = {k: v[i].item() for k, v in cols.items()}
        t = G.settle_deal(c, resolved)
        assert (t.winner, t.tie, t.vp_0, t.vp_1, t.raw) == (c["winner"], c["tie"], c["vp_0"],
                                                            c["vp_1"], c["vp_raw"])
        ties += t.tie
        # the compensation goes to the player who did not start, on top of what he won
        assert t.compensation == resolved["compensation"]
        paid = [0, 0]
        paid[1 - c["starter"]] = t.compensation
        if t.winner < 0:
            assert (t.band, t.base, t.total) == (-1, 0, 0)
            assert (t.vp_0, t.vp_1) == tuple(paid)
            continue
        loser = 1 - t.winner
        if t.tie:  # won by the tie rule: the loser at 120 is in no band, the base is the option's
            assert (t.band, t.base) == (G.TIE_BAND, resolved["tie_win_base"])
        else:
            assert t.base == resolved[G.BAND_OPTIONS[t.band]]
            assert G.BAND_VP[t.band] == G.base_vp(c[f"points_{loser}"], c[f"tricks_{loser}"])
        assert t.loser_a == c[f"a_markers_{loser}"]
        assert t.b_diff == c[f"b_markers_{t.winner}"] - c[f"b_markers_{loser}"]
        assert (t.a_vp, t.b_vp) == (resolved["vp_per_a_marker"] * t.loser_a,
                                    resolved["vp_per_b_marker"] * t.b_diff)
        assert t.raw == t.base + t.a_vp + t.b_vp
        floor = resolved["b_marker_mode"] == "v1" and t.raw < 1
        assert t.total == (1 if floor else t.raw)
        assert (t.vp_0, t.vp_1)[t.winner] == max(t.total, 0) + paid[t.winner]
        assert (t.vp_0, t.vp_1)[loser] == max(-t.total, 0) + paid[loser]
    assert ties > 0

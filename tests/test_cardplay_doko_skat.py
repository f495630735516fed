"""Doko-Skat's card-play state (``sim.games.doko_skat.cardplay``): golden positions worked out
by hand (a first round laid by hand and stepped trick by trick, the teams and special points
it makes under each ``both_copies`` reading, a bridge in both orders, a late main-game
position in a grand built field by field, a redeal), finished states that step to nothing,
the observation derived from the state against the kernel's own at every decision of a deal
(a person's seat stops the kernel with it), the heuristic's playout replaying the recorded
main game, the settlement's terms under every scoring rule against the columns, and the rule
columns ``start`` reads.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from doko_cards import Cards

from sim import actions as A
from sim.cards import DOKO_DECK_48
from sim.engine.net import NO_NET
from sim.engine.play import play as play_deals
from sim.engine.seats import HEURISTIC
from sim.games.doko_skat import cardplay as cp
from sim.games.doko_skat import game as G
from sim.games.doko_skat.observation import FIELDS as O
from sim.games.doko_skat.observation import PH_DECLARE, PH_DISCARD, PH_FIRST_ROUND, PH_PLAY
from sim.games.doko_skat.values import (
    BAND_POINTS,
    BRIDGE_BASE,
    GRAND,
    GRAND_CODE,
    LONE,
    MAIN_LEAD,
    N_KINDS,
    PAIR,
    TEAM_CARDS,
    band,
    band_index,
    declaration_order,
    table_of,
)

D = DOKO_DECK_48
GAME = G.GAME
S = cp.S
RULE_SETS = [{}, {"bridge_order": "skat", "team_cards": "all", "first_round_points": False},
             {"team_cards": "won", "main_lead": "first_round_winner", "spitzen_of": "declarer"}]


def mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def play(state: np.ndarray, card: int) -> None:
    """Step one card, which must be legal."""
    assert int(cp.legal(state)) >> card & 1, f"{D.names[card]} is not legal"
    cp.step(state, card)


def legal_names(state: np.ndarray) -> str:
    return D.format(int(cp.legal(state)))


# --- golden positions ------------------------------------------------------------------------

def first_round(bridge_skat: int = 0, turned: str = "HK") -> tuple[np.ndarray, dict[str, int]]:
    """Dealer 0, so seat 1 is forehand; the turned-up HK makes the first round a suit game in
    hearts (trumps CJ SJ HJ DJ, then HA HT HK HQ H9). Seat 1 holds CA HK SJ, seat 2 CT HA D9,
    seat 0 C9 CJ and the other HK."""
    take = Cards(D)
    c = {}
    c["CA"], c["HK1"], c["SJ"] = take("CA HK SJ")
    c["CT"], c["HA"], c["D9"] = take("CT HA D9")
    c["C9"], c["CJ"], c["HK2"] = take("C9 CJ HK")
    hands = np.array([mask([c["C9"], c["CJ"], c["HK2"]]), mask([c["CA"], c["HK1"], c["SJ"]]),
                      mask([c["CT"], c["HA"], c["D9"]])], np.uint64)
    state = np.zeros(cp.LENGTH, np.int64)
    cp.start_first_round(state, 1, D.index(turned) % N_KINDS, hands, 0, 1, bridge_skat, 0)
    c["taken"] = take.taken
    return state, c


def test_the_first_round_laid_by_hand() -> None:
    state, c = first_round()
    assert (state[S.TO_MOVE], state[S.PLAYER], state[S.PHASE], state[S.DONE]) == (1, 1, 0, 0)
    assert (state[S.ROUND], state[S.N_TRICKS], state[S.FR_GAME], state[S.GAME]) == (
        PH_FIRST_ROUND, 3, 2, -1)
    # trick 1: CA led; seat 2 follows with CT, seat 0 must give his C9 (CJ is a trump)
    assert legal_names(state) == "CA SJ HK"
    play(state, c["CA"])
    assert legal_names(state) == "CT"
    play(state, c["CT"])
    assert legal_names(state) == "C9"
    play(state, c["C9"])
    assert state[S.TO_MOVE] == 1 and state[S.FR_TRICKS + 1] == 1 and state[S.FR_POINTS + 1] == 21
    assert (state[S.TRICK_NO], state[S.TRICK_N], state[S.TRICK_LEADER]) == (1, 0, 1)
    assert [state[S.TRICK_CARD + k] for k in range(3)] == [-1, -1, -1]
    assert state[S.FR_COPIES:S.FR_COPIES + 3].tolist() == [0, 0, 0] and state[S.FR_LAST] == -1
    # trick 2: SJ led; seat 2's only trump is HA; seat 0's CJ beats both
    play(state, c["SJ"])
    assert legal_names(state) == "HA"
    play(state, c["HA"])
    assert legal_names(state) == "CJ HK"
    play(state, c["CJ"])
    assert state[S.TO_MOVE] == 0 and state[S.FR_POINTS] == 15
    # trick 3: of the two HK the first played wins; seat 2 cannot follow a trump
    play(state, c["HK2"])
    play(state, c["HK1"])
    assert legal_names(state) == "D9"
    play(state, c["D9"])
    assert cp.finished(state) and state[S.DONE] == 1
    assert [state[S.FR_TRICKS + s] for s in range(3)] == [2, 1, 0]
    assert [state[S.FR_POINTS + s] for s in range(3)] == [23, 21, 0]
    # seat 0 took both HK in the last trick: under team_cards = won he alone holds the
    # turned-up card (by the cards dealt seats 0 and 1 do)
    assert state[S.FR_COPIES:S.FR_COPIES + 3].tolist() == [2, 0, 0] and state[S.FR_LAST] == 0
    assert [state[S.FR_PLAYED + s] for s in range(3)] == [
        mask([c["C9"], c["CJ"], c["HK2"]]), mask([c["CA"], c["SJ"], c["HK1"]]),
        mask([c["CT"], c["HA"], c["D9"]])]
    # the trick fields keep the last trick as the seats saw it
    assert (state[S.TRICK_NO], state[S.TRICK_N], state[S.TRICK_LEADER]) == (2, 2, 0)
    assert [state[S.TRICK_CARD + k] for k in range(3)] == [c["HK2"], c["HK1"], c["D9"]]
    assert not any(state[S.PLAYED + s] or state[S.POINTS + s] or state[S.VOIDS + s] for s in range(3))


def test_a_bridge_in_either_order() -> None:
    """HA turned up: a bridge in hearts. Natural order A K Q J T 9: HK beats HT; skat order
    A T K Q J 9: HT beats HK."""
    for bridge_skat, taker in ((0, 1), (1, 2)):
        take = Cards(D)
        hk, ht, h9 = take("HK HT H9")
        hands = np.array([mask([h9] + take("S9 SA")), mask([hk] + take("C9 CA")),
                          mask([ht] + take("D9 HA"))], np.uint64)
        state = np.zeros(cp.LENGTH, np.int64)
        cp.start_first_round(state, 1, D.index("HA"), hands, 0, 1, bridge_skat, 0)
        assert state[S.FR_GAME] == BRIDGE_BASE + 2
        assert state[S.FR_TABLE] == table_of(BRIDGE_BASE + 2, bridge_skat)
        for card in (hk, ht, h9):
            play(state, card)
        assert state[S.TO_MOVE] == taker and state[S.FR_POINTS + taker] == 14


def take_up_after_the_first_round() -> tuple[np.ndarray, dict[str, int]]:
    """The first round laid by hand played out, then a small end of the deal: seat 1 holds
    SA HT, seat 0 S9 H9, the lone seat 2 SK and the second CJ and takes the skat D9 DQ C9."""
    state, c = first_round()
    for name in ("CA", "CT", "C9", "SJ", "HA", "CJ", "HK2", "HK1", "D9"):
        cp.step(state, c[name])
    take = Cards(D)
    take.taken = c["taken"]
    c["SA"], c["HT"], c["S9"], c["H9"], c["SK"], c["CJ2"] = take("SA HT S9 H9 SK CJ")
    c["skat"] = mask(take("D9 DQ C9"))
    stocks = np.array([mask([c["S9"], c["H9"]]), mask([c["SA"], c["HT"]]),
                       mask([c["SK"], c["CJ2"]])], np.uint64)
    cp.take_up(state, stocks, np.uint64(c["skat"]), 2)
    return state, c


def test_the_teams_take_up_their_cards_and_the_special_points() -> None:
    state, c = take_up_after_the_first_round()
    assert state[S.LONE] == 2 and state[S.SKAT] == c["skat"]
    assert state[S.HANDS + 2] == mask([c["SK"], c["CJ2"]]) | c["skat"]
    # both HK went to the pair's first-round cards: the lone player holds neither; the pair
    # took all three first-round tricks: 1 special point, under every both_copies reading
    assert state[S.BOTH_AT] == -1
    for reading in range(3):
        assert cp.earned(state, reading) == (1, 0)
    # had his cards held both first with his stock (BOTH_AT 1), the team_cards reading
    # (team_cards first_round) would not see it, the stock and skat readings would
    state[S.BOTH_AT] = 1
    assert [cp.earned(state, reading) for reading in range(3)] == [(1, 0), (1, 1), (1, 1)]
    state[S.TEAM_CARDS] = TEAM_CARDS.index("all")
    assert cp.earned(state, 0) == (1, 1)
    # under team_cards = won the team_cards reading asks whether he took both copies
    state[S.TEAM_CARDS] = TEAM_CARDS.index("won")
    assert [cp.earned(state, reading) for reading in range(3)] == [(1, 0), (1, 1), (1, 1)]
    state[S.FR_COPIES + 2] = 2
    assert cp.earned(state, 0) == (1, 1)
    state, _ = take_up_after_the_first_round()
    order = np.zeros(3, np.int64)
    declaration_order(state[S.FR_TRICKS:S.FR_TRICKS + 3], 2, 1, order)
    assert order.tolist() == [0, 2, 1]  # the pair first, its member with more tricks leading
    obs = np.zeros(O.LENGTH, np.int64)
    cp.observe(state, 0, obs)
    assert obs[O.SKAT] == 0 and obs[O.HAND] == mask([c["S9"], c["H9"]]) and obs[O.LEGAL] == 0
    cp.observe(state, 2, obs)
    assert obs[O.SKAT] == c["skat"] and obs[O.LONE] == 2


def test_a_late_grand_built_field_by_field() -> None:
    """The lone seat 2 declares grand (trumps: the eight jacks) and puts the skat away; two
    tricks are left (the position is set to trick 11 of 12)."""
    state, c = take_up_after_the_first_round()
    cp.name_game(state, 2, GRAND_CODE)
    assert state[S.OUT] == state[S.FR_PLAYED] | state[S.FR_PLAYED + 1] | state[S.FR_PLAYED + 2]
    cp.put_away(state, 2, np.uint64(c["skat"]))
    assert state[S.DISCARDS + 2] == c["skat"] and state[S.HANDS + 2] == mask([c["SK"], c["CJ2"]])
    cp.start_main_game(state)
    # one CJ of the two among the lone player's cards (hand and discards): 1 Spitze by
    # copies; by ranks also 1 (no SJ follows); the declarer's own are his side's
    assert state[S.SPITZEN:S.SPITZEN + 4].tolist() == [1, 1, 1, 1]
    assert (state[S.ROUND], state[S.N_TRICKS], state[S.TO_MOVE], state[S.TABLE]) == (
        PH_PLAY, 12, 1, GRAND_CODE)
    state[S.TRICK_NO] = 10
    # trick 11: SA led; the lone player follows with SK (his CJ is a trump); SA takes 15
    play(state, c["SA"])
    assert legal_names(state) == "SK"
    play(state, c["SK"])
    play(state, c["S9"])
    assert state[S.TO_MOVE] == 1 and state[S.POINTS + 1] == 15 and state[S.TRICKS + 1] == 1
    # trick 12: HT led; the lone player has no heart and trumps with CJ: a void shown
    play(state, c["HT"])
    assert legal_names(state) == "CJ"
    play(state, c["CJ2"])
    assert state[S.VOIDS + 2] == 1 << 2 and state[S.VOIDS + 0] == 0
    play(state, c["H9"])
    assert cp.finished(state)
    assert [state[S.POINTS + s] for s in range(3)] == [0, 15, 12]
    assert [state[S.TRICKS + s] for s in range(3)] == [0, 1, 1]
    # the pair: 15 in tricks + 44 in first-round tricks = 59; the lone player 12 + 3 put away
    pair, lone, terms = cp.settlement(state, 0, 0, 1, False, BAND_POINTS)
    assert (pair, lone) == ((15, 0, 44), (12, 3, 0))
    winner, tie, paid, spitzen_term, special, value, pair_score, lone_score = terms
    assert (winner, tie) == (PAIR, False)
    assert paid == band(15) == 6 and spitzen_term == 0 and special == 1 and value == 7
    assert (pair_score, lone_score) == (7, 0)
    assert cp.settlement(state, 0, 0, 1, True, BAND_POINTS)[2][6:] == (7, -14)
    # the scoring rules that do not apply here change nothing: both copies, Spitzen by
    # ranks (the declaring side lost), the tie's special points
    assert all(cp.settlement(state, both, counted, tie_special, False, BAND_POINTS)[2] == terms
               for both in range(3) for counted in range(4) for tie_special in (0, 1))
    assert cp.result(state) == {
        "points_0": 0, "points_1": 15, "points_2": 12, "tricks_0": 0, "tricks_1": 1,
        "tricks_2": 1, "discard_points_pair": 0, "discard_points_lone": 3, "points_pair": 59,
        "points_lone": 15, "spitzen_copies": 1, "spitzen_ranks": 1, "spitzen_declarer_copies": 1,
        "spitzen_declarer_ranks": 1, "lone_both_by": -1,
        "winner_side": PAIR, "tie": 0}


def test_the_redeal_sets_the_game_and_gives_no_special_points() -> None:
    state, c = take_up_after_the_first_round()
    take = Cards(D)
    take.taken = c["taken"] | mask([c[n] for n in ("SA", "HT", "S9", "H9", "SK", "CJ2")]) | c["skat"]
    extra = np.array([mask(take("SQ ST")), mask(take("CQ CK")), mask(take("DA"))], np.uint64)
    cp.redeal(state, D.index("SA") % N_KINDS, extra)  # an ace: a bridge in spades
    assert state[S.REDEAL] == 1 and state[S.GAME] == BRIDGE_BASE + 1 and state[S.DECLARER] == -1
    assert state[S.OUT] == 0 and all(cp.earned(state, reading) == (0, 0) for reading in range(3))
    assert all(int(state[S.HANDS + s]) & int(extra[s]) == int(extra[s]) for s in range(3))
    cp.start_main_game(state)
    assert not state[S.SPITZEN:S.SPITZEN + 4].any() and state[S.TABLE] == BRIDGE_BASE + 1


def test_who_leads_the_main_game() -> None:
    """``main_lead``: forehand (seat 1), the taker of the first round's last trick (seat 0,
    who took both HK), or the declarer (the lone seat 2); after a redeal the declarer's
    lead is forehand's."""
    for rule, leader in (("forehand", 1), ("first_round_winner", 0), ("declarer", 2)):
        state, c = take_up_after_the_first_round()
        state[S.MAIN_LEAD] = MAIN_LEAD.index(rule)
        cp.name_game(state, 2, GRAND_CODE)
        cp.put_away(state, 2, np.uint64(c["skat"]))
        cp.start_main_game(state)
        assert (state[S.TRICK_LEADER], state[S.TO_MOVE], state[S.PLAYER]) == (leader, leader, leader)
        obs = np.zeros(O.LENGTH, np.int64)
        cp.observe(state, leader, obs)
        assert obs[O.LEGAL] == obs[O.HAND] and obs[O.MAIN_LEAD] == MAIN_LEAD.index(rule)
    state, _ = take_up_after_the_first_round()
    state[S.MAIN_LEAD] = MAIN_LEAD.index("declarer")
    cp.redeal(state, D.index("SA") % N_KINDS, np.zeros(3, np.uint64))
    cp.start_main_game(state)
    assert state[S.TO_MOVE] == 1


def test_a_finished_state_steps_to_nothing() -> None:
    state, _ = take_up_after_the_first_round()
    before = state.copy()
    for card in range(D.n_cards):
        cp.step(state, card)
    assert np.array_equal(state, before)
    batch = play_deals(GAME, 3, 0, 20, GAME.rules(), ["random"] * 3, record=True)
    assert batch.actions is not None
    for i in range(20):
        started = cp.start(batch.columns, i, batch.actions[i])
        assert started is not None
        main, plays = started
        for card in plays:
            cp.step(main, card)
        done = main.copy()
        for card in plays:
            cp.step(main, card)
        assert np.array_equal(main, done) and cp.finished(main)


# --- against the kernel ------------------------------------------------------------------------

def state_before(columns: dict[str, np.ndarray], i: int, rows: np.ndarray) -> tuple[np.ndarray, str]:
    """The state when deal ``i`` (the whole deal's columns) has got as far as ``rows``, a
    prefix of its actions, moved on with the same steps as the kernel; and the decision due
    there: ``play``, ``declare`` or ``discard``."""
    c = {k: v[i].item() for k, v in columns.items()}

    def seats(name: str) -> np.ndarray:
        return np.array([c[f"{name}_{s}"] for s in range(3)], np.uint64)

    state = np.zeros(cp.LENGTH, np.int64)
    cp.start_first_round(state, (c["dealer"] + 1) % 3, c["turned_up"], seats("first_round"),
                         c["team_cards"], int(c["first_round_points"]), c["bridge_order"],
                         c["main_lead"])
    plays = [int(r[2]) for r in rows if r[0] == A.PLAY]
    for card in plays[:cp.FIRST_ROUND_CARDS]:
        cp.step(state, card)
    if len(plays) < cp.FIRST_ROUND_CARDS:
        return state, "play"
    cp.take_up(state, seats("stock"), np.uint64(c["skat"]), c["lone"])
    declared = [r for r in rows if r[0] == A.DECLARE]
    passes = sum(int(r[0] == A.PASS) for r in rows)
    if declared:
        cp.name_game(state, int(declared[0][1]), int(declared[0][2]))
    elif passes == 3:
        cp.redeal(state, c["second_turned_up"], seats("extra"))
    else:
        return state, "declare"
    discards = [r for r in rows if r[0] == A.DISCARD]
    for r in discards:
        cp.put_away(state, int(r[1]), np.uint64(r[2]))
    if len(discards) < (1 if declared else 3):
        return state, "discard"
    cp.start_main_game(state)
    for card in plays[cp.FIRST_ROUND_CARDS:]:
        cp.step(state, card)
    return state, "play"


def deals_of_every_kind(rules: dict[str, Any]) -> list[tuple[int, list[str]]]:
    """(deal, policies): heuristic deals and random ones with a redeal among them."""
    resolved = GAME.rules(rules)
    random = play_deals(GAME, 21, 0, 6000, resolved, ["random"] * 3).columns
    redeals = [int(i) for i in np.flatnonzero(random["nobody_declared"])[:3]]
    assert redeals, "no redeal in 6000 random deals"
    return [(d, ["heuristic"] * 3) for d in range(8)] + [(d, ["random"] * 3) for d in redeals + [0, 1]]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_observe_is_the_kernels_observation_at_every_decision(rules: dict) -> None:
    """A person's seat stops the kernel at each of his decisions with his observation (the
    view). The state moved on through the same actions shows him the same, field by field:
    ``observe`` itself at a card to play, and with the question's own fields (``PHASE``,
    ``NEXT_SPEAKER``, ``N_DISCARD``) at a declaration or a discard."""
    resolved = GAME.rules(rules)
    seen: dict[str, int] = {"play": 0, "declare": 0, "discard": 0, "redeal": 0}
    for deal, policies in deals_of_every_kind(rules):
        whole = play_deals(GAME, 21, deal, 1, resolved, policies, record=True)
        assert whole.actions is not None
        rows = whole.actions[0]
        for seat in range(3):
            mine = rows[rows[:, 1] == seat]
            for m in range(len(mine)):
                person = list(policies)
                person[seat] = "person"
                stop = play_deals(GAME, 21, deal, 1, resolved, person, record=True, script=[mine[:m]])
                assert stop.views is not None and stop.actions is not None
                view = stop.views[0]
                assert view is not None
                state, due = state_before(whole.columns, 0, stop.actions[0])
                obs = np.full(O.LENGTH, -7, np.int64)
                cp.observe(state, seat, obs)
                if due == "declare":
                    order = np.zeros(3, np.int64)
                    declaration_order(state[S.FR_TRICKS:S.FR_TRICKS + 3], state[S.LONE],
                                      state[S.FOREHAND], order)
                    k = order.tolist().index(seat)
                    obs[O.PHASE] = PH_DECLARE
                    obs[O.NEXT_SPEAKER] = order[k + 1] if k < 2 else -1
                elif due == "discard":
                    obs[O.PHASE] = PH_DISCARD
                    obs[O.N_DISCARD] = 4 if state[S.REDEAL] else 3
                    seen["redeal"] += int(state[S.REDEAL])
                else:
                    assert state[S.PLAYER] == seat
                assert obs.tolist() == view.tolist(), (deal, seat, m, due)
                seen[due] += 1
    assert seen["play"] > 400 and seen["declare"] >= 15 and seen["discard"] >= 10, seen
    assert seen["redeal"] >= 3, seen


@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_heuristics_playout_plays_the_recorded_main_game(rules: dict) -> None:
    """From the main game's start, ``playout`` with the heuristic at every seat plays what
    the kernel's heuristic players played: the recorded result, every card played once."""
    resolved = GAME.rules(rules)
    batch = play_deals(GAME, 33, 0, 200, resolved, ["heuristic"] * 3, record=True)
    assert batch.actions is not None
    rngs = np.zeros((3, 1), np.uint64)
    for i in range(200):
        started = cp.start(batch.columns, i, batch.actions[i])
        assert started is not None
        state, plays = started
        cp.playout(state, np.full(3, HEURISTIC, np.int64), rngs, NO_NET)
        assert cp.result(state) == {k: int(batch.columns[k][i]) for k in cp.result(state)}, i
        assert not any(int(state[S.HANDS + s]) for s in range(3))
        played = [int(state[S.PLAYED + s]) for s in range(3)]
        assert sorted(c for m in played for c in D.cards(m)) == sorted(plays)
        # every card once: the main game's, the discards and (unless they were dealt again)
        # the first round's
        cards = played + [int(state[S.DISCARDS + s]) for s in range(3)]
        if not batch.columns["nobody_declared"][i]:
            cards += [int(state[S.FR_PLAYED + s]) for s in range(3)]
        assert sum(bin(m).count("1") for m in cards) == D.n_cards
        assert np.bitwise_or.reduce(np.array(cards, np.uint64)) == D.full


def scoring(rules: dict[str, Any]) -> tuple[Any, ...]:
    """The scoring rules as ``settlement`` takes them, from the kernel's parameters."""
    p = G.kernel_params(rules)
    return (int(p[G.P_BOTH_COPIES]), int(G.spitzen_counted(p)),
            int(G.TIE_SPECIAL[p[G.P_TIE_SPECIAL]]), int(G.ZERO_SUM[p[G.P_ZERO_SUM]]),
            G.rule_bands(rules))


@pytest.mark.parametrize("given", [{}, {"zero_sum": True}, {
    "both_copies": "skat", "spitzen": "ranks", "tie_special_points": False}, {"both_copies": "stock"},
    {"points_band_90": 0, "points_band_30": 11, "points_band_zero": 30, "zero_sum": True},
    {"team_cards": "won", "spitzen_of": "declarer", "main_lead": "declarer"},
    {"team_cards": "won", "spitzen_of": "declarer", "spitzen": "ranks", "both_copies": "stock"}])
def test_the_settlements_terms_add_up_to_the_columns(given: dict) -> None:
    """The settlement of each recorded deal's finished state under the scoring rules it was
    played under gives its columns, term by term."""
    rules = GAME.rules(given)
    batch = play_deals(GAME, 41, 0, 3000, rules, ["random"] * 3, record=True)
    assert batch.actions is not None
    kinds = {"tie": 0, "spitzen": 0, "special": 0, "redeal": 0, "lone_both": 0}
    for i in range(3000):
        c = {k: v[i].item() for k, v in batch.columns.items()}
        started = cp.start(batch.columns, i, batch.actions[i])
        assert started is not None
        state, plays = started
        for card in plays:
            cp.step(state, card)
        assert cp.lone_both(state, scoring(rules)[0]) == c["lone_both"]
        assert cp.earned(state, scoring(rules)[0]) == (c["special_pair"], c["special_lone"])
        assert cp.counted_spitzen(state, scoring(rules)[1]) == c["spitzen"]
        pair, lone, terms = cp.settlement(state, *scoring(rules))
        winner, tie, paid, spitzen_term, special, value, pair_score, lone_score = terms
        assert (sum(pair), sum(lone)) == (c["points_pair"], c["points_lone"])
        assert (pair[1], lone[1]) == (c["discard_points_pair"], c["discard_points_lone"])
        assert (winner, tie, value) == (c["winner_side"], c["tie"], c["value"])
        assert [lone_score if s == c["lone"] else pair_score for s in range(3)] == [
            c[f"score_{s}"] for s in range(3)]
        assert value == paid + spitzen_term + special
        if not tie:
            losers = lone if winner == PAIR else pair
            assert paid == G.rule_bands(rules)[band_index(sum(losers))]
            assert spitzen_term == (c["spitzen"] * (2 if c["game"] == GRAND else 1)
                                    if c["declaring_side"] == winner else 0)
            assert special == (c["special_pair"] if winner == PAIR else c["special_lone"])
        elif c["declaring_side"] >= 0:  # the non-declaring side: 1, its special points by the rule
            assert paid == 1 and spitzen_term == 0
            earned = c["special_pair"] if c["declaring_side"] == LONE else c["special_lone"]
            assert special == (earned if rules["tie_special_points"] else 0)
        kinds["tie"] += int(tie)
        kinds["spitzen"] += int(spitzen_term > 0)
        kinds["special"] += int(special > 0)
        kinds["redeal"] += int(c["nobody_declared"])
        kinds["lone_both"] += int(c["lone_both"])
    assert kinds["tie"] > 0 and kinds["spitzen"] > 100 and kinds["special"] > 100, kinds
    assert kinds["redeal"] > 0 and kinds["lone_both"] > 50, kinds


def test_start_reads_the_rules_from_their_columns() -> None:
    """The rule columns hold the rules the card play followed; ``start`` copies them into
    the state, so a bridge under the skat order is played in its table. Rules given to
    ``start`` must be those."""
    given = {"bridge_order": "skat", "team_cards": "won", "first_round_points": False,
             "main_lead": "declarer"}
    rules = GAME.rules(given)
    batch = play_deals(GAME, 5, 0, 400, rules, ["heuristic"] * 3, record=True)
    assert batch.actions is not None
    assert (batch.columns["bridge_order"] == 1).all() and (batch.columns["team_cards"] == 2).all()
    assert not batch.columns["first_round_points"].any() and (batch.columns["main_lead"] == 2).all()
    assert G.rule_flags(given) == G.rule_flags(rules) == (1, 2, 0, 2)
    told = G.start_card_play(batch.columns, 0, batch.actions[0], given)
    untold = cp.start(batch.columns, 0, batch.actions[0])
    assert told is not None and untold is not None and np.array_equal(told[0], untold[0])
    with pytest.raises(ValueError, match="other rules"):
        G.start_card_play(batch.columns, 0, batch.actions[0], {"bridge_order": "skat"})
    bridges = 0
    for i in range(400):
        started = cp.start(batch.columns, i, batch.actions[i])
        assert started is not None
        state, _ = started
        assert (state[S.BRIDGE_SKAT], state[S.TEAM_CARDS], state[S.COUNT_FIRST_ROUND],
                state[S.MAIN_LEAD]) == (1, 2, 0, 2)
        assert state[S.TABLE] == table_of(state[S.GAME], 1)
        bridges += int(state[S.GAME] >= BRIDGE_BASE)
    assert bridges > 20
    default = play_deals(GAME, 5, 0, 50, GAME.rules(), ["heuristic"] * 3).columns
    assert not default["bridge_order"].any() and not default["team_cards"].any()
    assert not default["main_lead"].any()
    assert default["first_round_points"].all()


def test_the_kernel_parameters_are_the_option_codes() -> None:
    for given in ({}, {"bridge_order": "skat", "first_round_points": False, "zero_sum": True,
                       "both_copies": "skat", "spitzen": "ranks", "tie_special_points": False},
                  {"team_cards": "all", "both_copies": "stock"},
                  {"team_cards": "won", "main_lead": "first_round_winner", "spitzen_of": "declarer"}):
        rules = GAME.rules(given)
        params = G.kernel_params(rules)
        assert params.tolist() == GAME.options.codes(rules).tolist()
        assert G.SKAT_ORDER[params[G.P_BRIDGE_ORDER]] == (rules["bridge_order"] == "skat")
        assert TEAM_CARDS[params[G.P_TEAM_CARDS]] == rules["team_cards"]
        assert MAIN_LEAD[params[G.P_MAIN_LEAD]] == rules["main_lead"]
        assert G.SPITZEN_OWN[params[G.P_SPITZEN_OF]] == (rules["spitzen_of"] == "declarer")
        assert G.FIRST_ROUND_COUNTS[params[G.P_FIRST_ROUND_POINTS]] == rules["first_round_points"]
        assert G.ZERO_SUM[params[G.P_ZERO_SUM]] == rules["zero_sum"]
        assert G.SPITZEN_RANKS[params[G.P_SPITZEN]] == (rules["spitzen"] == "ranks")
        assert G.TIE_SPECIAL[params[G.P_TIE_SPECIAL]] == rules["tie_special_points"]
        assert ("team_cards", "stock", "skat")[params[G.P_BOTH_COPIES]] == rules["both_copies"]

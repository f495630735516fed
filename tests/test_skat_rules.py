"""Golden cases for three-player Skat, worked out by hand from RULES.md and the Skat order."""

from __future__ import annotations

import numpy as np
import pytest

from sim import actions as A
from sim.cards import SKAT_DECK
from sim.engine.kernel import E_ILLEGAL, E_MISMATCH, DealIO
from sim.engine.net import NO_NET
from sim.engine.play import play
from sim.engine.seats import SCRIPTED
from sim.games.skat_family import cardplay as C
from sim.games.skat_family import skat
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.values import (
    CLUBS,
    DIAMONDS,
    EFF,
    GRAND,
    HEARTS,
    NULL,
    RAMSCH,
    SPADES,
    STRENGTH,
    SUIT_MASKS,
    bid_values,
    card_points,
    matadors,
    null_value,
    settle_suit,
)
from sim.registry import find_game
from sim.tricks import legal_mask, trick_winner

D = SKAT_DECK


def cards(text: str) -> np.uint64:
    return np.uint64(D.parse(text))


def settle(game, mat, points, tricks=5, bid=18, hand=0, ouvert=0, sch=0, schw=0):
    won, value, schneider, schwarz, overbid = settle_suit(game, mat, hand, ouvert, sch, schw, 0,
                                                          points, tricks, 10, bid)
    return bool(won), int(value), bool(schneider), bool(schwarz), bool(overbid)


# --- game values ------------------------------------------------------------------------------

def test_grand_hand_with_four_is_144() -> None:
    # 24 x (4 matadors + 1 game + 1 hand)
    assert settle(GRAND, 4, 70, hand=1) == (True, 144, False, False, False)


def test_clubs_with_two_schneider_is_48() -> None:
    # 12 x (2 + 1 game + 1 Schneider): the defenders took at most 30
    assert settle(CLUBS, 2, 95) == (True, 48, True, False, False)


def test_diamonds_without_three_89_points_bid_22_wins_36() -> None:
    # 9 x (3 + 1) = 36 >= 22; 89 points leave the defenders 31: no Schneider
    assert settle(DIAMONDS, -3, 89, bid=22) == (True, 36, False, False, False)


def test_hearts_with_two_is_30_as_in_the_seed() -> None:
    assert settle(HEARTS, 2, 61) == (True, 30, False, False, False)


def test_sixty_points_lose() -> None:
    assert settle(SPADES, 1, 60) == (False, 22, False, False, False)


def test_overbid_loses_at_the_next_multiple_of_the_base() -> None:
    # Diamonds with one = 18 < bid 24: lost whatever the points, valued 27 (3 x 9)
    assert settle(DIAMONDS, 1, 85, bid=24) == (False, 27, False, False, True)
    # ... unless Schneider lifts it to 9 x 3 = 27 >= 24
    assert settle(DIAMONDS, 1, 100, bid=24) == (True, 27, True, False, False)


def test_schneider_reached_can_rescue_a_high_bid() -> None:
    # Spades with 1 bid 33: only Schneider (11 x 3) reaches the bid
    assert settle(SPADES, 1, 92, bid=33) == (True, 33, True, False, False)
    assert settle(SPADES, 1, 89, bid=33) == (False, 33, False, False, True)


def test_declarer_schneidered_and_schwarz() -> None:
    # lost with 28 points: Schneider counts against him: 12 x (1 + 1 + 1)
    assert settle(CLUBS, 1, 28) == (False, 36, True, False, False)
    # no trick at all: Schneider and Schwarz: 9 x (2 + 1 + 1 + 1)
    assert settle(DIAMONDS, -2, 0, tricks=0) == (False, 45, True, True, False)
    # declarer takes every trick: 24 x (1 + 1 + 1 + 1)
    assert settle(GRAND, 1, 120, tricks=10) == (True, 96, True, True, False)


def test_announcements() -> None:
    # Spades hand with 1, Schneider announced and made: 11 x (1+1 game+1 hand+1 Schneider+1 announced)
    assert settle(SPADES, 1, 95, hand=1, sch=1) == (True, 55, True, False, False)
    # ... and missed: lost at the announced value
    assert settle(SPADES, 1, 80, hand=1, sch=1) == (False, 55, False, False, False)
    # Grand hand with 2, Schwarz announced and made: 24 x (2+1+1 hand+1+1 Schneider+1+1 Schwarz)
    assert settle(GRAND, 2, 120, tricks=10, hand=1, schw=1) == (True, 192, True, True, False)
    # Schwarz announced, 9 tricks: lost
    assert settle(GRAND, 2, 110, tricks=9, hand=1, schw=1)[0] is False
    # Grand ouvert with 4: 24 x (4+1+1 hand+2 Schneider+2 Schwarz+1 ouvert) = 264
    assert settle(GRAND, 4, 120, tricks=10, hand=1, ouvert=1) == (True, 264, True, True, False)


def test_a_missed_announcement_still_counts_its_levels() -> None:
    """ISkO 5.2.5 (RULES.md, "Skat game value"): an announced Schneider or Schwarz counts its
    levels whether reached or not, and missing it loses the game at that value."""
    # Grand hand with 2, Schwarz announced, 9 tricks and 110 points: 24 x (2 + 1 game + 1
    # hand + 1 Schneider + 1 announced + 1 Schwarz + 1 announced) = 192, lost
    assert settle(GRAND, 2, 110, tricks=9, hand=1, schw=1) == (False, 192, True, False, False)
    # Grand hand with 1, Schwarz announced, 75 points: not even Schneider, still 24 x 7 = 168
    assert settle(GRAND, 1, 75, tricks=6, hand=1, schw=1) == (False, 168, False, False, False)
    # Clubs hand without 3, Schneider announced, 89 points: 12 x (3 + 1 + 1 + 1 + 1) = 84
    assert settle(CLUBS, -3, 89, hand=1, sch=1) == (False, 84, False, False, False)


def test_a_null_game_below_the_bid_is_refused() -> None:
    """A null game may only be declared if its value reaches the bid (RULES.md): the
    declaration step never offers one, and the settlement refuses one too."""
    from sim.games.skat_family.values import REJECTION_PREMIUM, Contract, Offers, game_terms
    none = Offers(0, False, 0, False, False)
    won = game_terms(Contract(NULL, 0, 0, 0, 0, 0, 0), 0, 0, 10, 23, none, 2, REJECTION_PREMIUM)
    assert (int(won[21]), int(won[22])) == (23, 1)  # value, won: null at a bid of 23
    with pytest.raises(ValueError, match="null game below the bid"):
        game_terms(Contract(NULL, 0, 0, 0, 0, 0, 0), 0, 0, 10, 24, none, 2, REJECTION_PREMIUM)
    assert int(game_terms(Contract(NULL, 0, 1, 1, 0, 0, 0), 0, 0, 10, 59, none, 2,
                          REJECTION_PREMIUM)[21]) == 59


def test_null_values() -> None:
    assert [int(null_value(h, o)) for o in (0, 1) for h in (0, 1)] == [23, 35, 46, 59]


def test_matadors_with_and_without() -> None:
    assert matadors(cards("CJ SJ HJ DJ CA CT"), CLUBS) == 6
    assert matadors(cards("CJ SJ HJ DJ CA CT"), GRAND) == 4
    assert matadors(cards("CJ HJ DJ"), HEARTS) == 1
    assert matadors(cards("HJ DJ HA"), HEARTS) == -2
    assert matadors(cards("DA DT"), DIAMONDS) == -4
    # without eleven: no trump at all in a suit game
    assert matadors(cards("CA CT CK SA ST SK HA HT HK HQ"), DIAMONDS) == -11


def test_bid_values_are_computed() -> None:
    values = list(bid_values(3))
    assert values[:14] == [18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46]
    assert 59 in values and 264 not in values
    # highest without announcements: grand with 4, hand, Schneider, Schwarz: 24 x 8 = 192;
    # clubs with 11, hand, Schneider, Schwarz: 12 x 15 = 180
    assert max(values) == 192 and 180 in values
    with_announcements = list(bid_values(6))
    assert max(with_announcements) == 264 and 216 in with_announcements


def test_card_points_sum_to_120() -> None:
    assert card_points(np.uint64(D.full)) == 120
    assert card_points(cards("CA ST HK DQ CJ S9")) == 11 + 10 + 4 + 3 + 2


# --- tricks -----------------------------------------------------------------------------------

def winner(game: int, played: str) -> str:
    order = np.array([D.index(c) for c in played.split()], np.int64)
    return played.split()[trick_winner(order, len(order), EFF[game], STRENGTH[game])]


def legal(game: int, hand: str, led: str | None) -> str:
    mask = legal_mask(cards(hand), D.index(led) if led else -1, EFF[game], SUIT_MASKS[game])
    return D.format(int(mask))


@pytest.mark.parametrize("game, played, expected", [
    (HEARTS, "HA HT H7", "HA"),
    (HEARTS, "HA DJ H7", "DJ"),          # any jack is trump in a suit game
    (HEARTS, "DJ SJ CJ", "CJ"),          # jacks rank C S H D
    (HEARTS, "SA ST H7", "H7"),          # the lowest trump beats a plain ace
    (HEARTS, "SK SA ST", "SA"),          # plain suit: A T K Q 9 8 7
    (HEARTS, "S7 CA DA", "S7"),          # off-suit cards never win
    (GRAND, "HA HJ HT", "HJ"),           # grand: only jacks are trump
    (GRAND, "HT HK HQ", "HT"),
    (NULL, "HT HJ H9", "HJ"),            # null: A K Q J T 9 8 7, no trumps
    (NULL, "HQ HK H7", "HK"),
    (NULL, "H7 CJ SA", "H7"),
    (RAMSCH, "CA SJ C7", "SJ"),
    (CLUBS, "CJ CA SJ", "CJ"),
])
def test_trick_winner(game: int, played: str, expected: str) -> None:
    assert winner(game, played) == expected


@pytest.mark.parametrize("game, hand, led, expected", [
    (HEARTS, "HJ HA SA S7", "H7", "HJ HA"),   # a heart led asks for trump, jacks included
    (HEARTS, "HJ HA SA S7", "DJ", "HJ HA"),   # a jack led asks for trump
    (HEARTS, "HJ HA SA S7", "SK", "SA S7"),
    (HEARTS, "HJ HA CA", "SK", "CA HA HJ"),    # cannot follow: anything
    (GRAND, "HJ HA H7 SA", "HT", "HA H7"),    # grand: the jack is no heart
    (GRAND, "HJ HA SA", "CJ", "HJ"),
    (NULL, "HJ HA SA", "H7", "HA HJ"),        # null: the jack is a heart
    (CLUBS, "CJ SA", None, "CJ SA"),          # leading: anything
])
def test_legal_moves(game: int, hand: str, led: str | None, expected: str) -> None:
    assert legal(game, hand, led) == D.format(D.parse(expected))


# --- scoring (rules revision 3) ----------------------------------------------------------------

def columns(*deals: dict) -> dict[str, np.ndarray]:
    """Result columns of hand-made deals: each gives what it sets, the rest is 0 (a declarer
    of -1 where it names none)."""
    names = [name for name, _ in skat.COLUMNS]
    out = {n: np.array([d.get(n, -1 if n == "declarer" else 0) for d in deals], np.int64)
           for n in names}
    return {n: out[n].astype(t) for n, t in skat.COLUMNS}


def scores_of(cols: dict[str, np.ndarray], rules: dict) -> list[list[int]]:
    rescored = skat.rescore(cols, find_game("skat").rules(rules))
    return [[int(rescored[f"score_{s}"][i]) for s in range(3)] for i in range(len(cols["deal"]))]


def test_a_seeger_fabian_list_of_a_won_and_a_lost_game() -> None:
    # seat 0 wins clubs with two, 12 x 3 = 36: the seed + 36, the list + 36 + 50 = + 86;
    # seat 1 loses grand with one, 24 x 2 = 48: the seed - 2 x 48 = - 96, the list
    # - 2 x 48 - 50 = - 146 and + 40 to each defender; after the two: 126, -146, 40
    won = {"declarer": 0, "game": CLUBS, "matadors": 2, "declarer_points": 70, "won": 1,
           "game_value": 36}
    lost = {"declarer": 1, "game": GRAND, "matadors": 1, "declarer_points": 50, "won": 0,
            "game_value": 48}
    passed = {"passed_out": 1}
    cols = columns(won, lost, passed)
    assert scores_of(cols, {}) == [[36, 0, 0], [0, -96, 0], [0, 0, 0]]
    listed = scores_of(cols, {"scoring": "seeger_fabian"})
    assert listed == [[86, 0, 0], [40, -146, 40], [0, 0, 0]]
    assert np.sum(listed, axis=0).tolist() == [126, -146, 40]
    # the list takes a lost game twice whatever lost_factor says; the seed halves it
    assert scores_of(cols, {"scoring": "seeger_fabian", "lost_factor": 1}) == listed
    assert scores_of(cols, {"lost_factor": 1})[1] == [0, -48, 0]
    # the settlement's terms, as the table screen shows them
    c = {**{n: 0 for n, _ in skat.COLUMNS}, **lost, "bid": 18, "declarer_tricks": 4}
    t = skat.settlement_terms(c, find_game("skat").rules({"scoring": "seeger_fabian"}))
    assert (t["value"], t["won"], t["lost_factor"], t["list_bonus"], t["score"],
            t["defender_score"]) == (48, 0, 2, -50, -146, 40)
    c = {**{n: 0 for n, _ in skat.COLUMNS}, **won, "bid": 18, "declarer_tricks": 6}
    t = skat.settlement_terms(c, find_game("skat").rules({"scoring": "seeger_fabian"}))
    assert (t["value"], t["won"], t["list_bonus"], t["score"], t["defender_score"]) == \
        (36, 1, 50, 86, 0)


def ramsch_deal(points: tuple[int, int, int], tricks: tuple[int, int, int]) -> dict:
    return {"ramsch": 1, "game": RAMSCH, "durchmarsch": int(10 in tricks),
            **{f"ramsch_points_{s}": points[s] for s in range(3)},
            **{f"ramsch_tricks_{s}": tricks[s] for s in range(3)}}


def test_a_ramsch_jungfrau_doubles_the_losers_minus() -> None:
    # seat 2 took no trick: seat 0's 70 points cost him 140; a tie for most: both lose double
    one = ramsch_deal((70, 50, 0), (6, 4, 0))
    tie = ramsch_deal((50, 50, 20), (4, 5, 0))
    none = ramsch_deal((40, 45, 35), (3, 4, 3))
    cols = columns(one, tie, none)
    assert scores_of(cols, {}) == [[-70, 0, 0], [-50, -50, 0], [0, -45, 0]]
    assert scores_of(cols, {"ramsch_jungfrau": True}) == [[-140, 0, 0], [-100, -100, 0],
                                                          [0, -45, 0]]
    # the list scores a ramsch as the seed does
    assert scores_of(cols, {"ramsch_jungfrau": True, "scoring": "seeger_fabian"}) == \
        scores_of(cols, {"ramsch_jungfrau": True})


def test_two_jungfrauen_would_be_x4_but_are_a_durchmarsch() -> None:
    # two players without a trick double twice; in a three-player ramsch the third then took
    # every trick, and a Durchmarsch wins 120 whatever the Jungfrau says
    assert skat.jungfrau_factor(np.array([10, 0, 0]), True) == 4
    assert skat.jungfrau_factor(np.array([5, 5, 0]), True) == 2
    assert skat.jungfrau_factor(np.array([10, 0, 0]), False) == 1
    durchmarsch = columns(ramsch_deal((120, 0, 0), (10, 0, 0)))
    assert scores_of(durchmarsch, {"ramsch_jungfrau": True}) == [[120, 0, 0]]
    scores = np.zeros(3, np.int64)
    skat.ramsch_scores(np.array([55, 65, 0]), np.array([10, 0, 0]), True, scores)
    assert scores.tolist() == [120, 0, 0]


def ramsch_after(tricks: list[str], rule: str) -> np.ndarray:
    """A ramsch state, forehand seat 0, the skat CA CT (21 points), after ``tricks`` (each
    three cards in the order played)."""
    plays = [t.split() for t in tricks]
    hands = ["", "", ""]
    leader = 0
    state = np.zeros(C.LENGTH, np.int64)
    for cards_ in plays:
        for k, card in enumerate(cards_):
            hands[(leader + k) % 3] += " " + card
        leader = (leader + trick_winner(np.array([D.index(c) for c in cards_]), 3, EFF[RAMSCH],
                                        STRENGTH[RAMSCH])) % 3
    C.begin(state, 3, 0, -1, 0)
    for seat in range(3):
        C.sit(state, seat, np.uint64(D.parse(hands[seat].strip())), seat)
    C.ramsch(state, np.uint64(D.parse("CA CT")), rule == "loser")
    for card in " ".join(tricks).split():
        C.step(state, D.index(card))
    return state


def ramsch_result(state: np.ndarray, jungfrau: bool) -> tuple[list[int], list[int]]:
    points = np.array([C.ramsch_points(state, s) for s in range(3)], np.int64)
    tricks = state[C.S.TRICKS:C.S.TRICKS + 3].copy()
    scores = np.zeros(3, np.int64)
    skat.ramsch_scores(points, tricks, jungfrau, scores)
    return points.tolist(), scores.tolist()


def test_the_ramsch_skat_to_the_last_trick_or_to_the_loser() -> None:
    # seat 0 takes SA ST SK (25), seat 2 the last trick H7 H8 H9 (0) and with it, under
    # last_trick, the skat's 21: seat 0 loses 25; under loser seat 0, found without them,
    # takes them: - 46. Seat 1 took no trick: with the Jungfrau x 2
    tricks = ["SA ST SK", "H7 H8 H9"]
    state = ramsch_after(tricks, "last_trick")
    assert ramsch_result(state, False) == ([25, 0, 21], [-25, 0, 0])
    assert ramsch_result(state, True) == ([25, 0, 21], [-50, 0, 0])
    assert C.skat_result(state)["ramsch_points_2"] == 21
    state = ramsch_after(tricks, "loser")
    assert ramsch_result(state, False) == ([46, 0, 0], [-46, 0, 0])
    assert ramsch_result(state, True) == ([46, 0, 0], [-92, 0, 0])
    assert C.skat_result(state) == {
        "ramsch_points_0": 46, "ramsch_points_1": 0, "ramsch_points_2": 0,
        "ramsch_tricks_0": 1, "ramsch_tricks_1": 0, "ramsch_tricks_2": 1,
        "ramsch_last_trick": 2, "durchmarsch": 0}


def test_the_ramsch_skat_to_each_loser_of_a_tie() -> None:
    # seat 0 takes SA S7 S8 (11), seat 1 H7 HA H8 (11), seat 2 the last trick D7 D9 D8 (0):
    # under last_trick seat 2 holds 21 and loses them; under loser seats 0 and 1, tied for
    # most without the skat, each take its 21 and lose 32
    tricks = ["SA S7 S8", "H7 HA H8", "D7 D9 D8"]
    assert ramsch_result(ramsch_after(tricks, "last_trick"), True) == ([11, 11, 21], [0, 0, -21])
    assert ramsch_result(ramsch_after(tricks, "loser"), True) == ([32, 32, 0], [-32, -32, 0])


@pytest.mark.parametrize("policy", ["heuristic", "random"])
@pytest.mark.parametrize("ramsch_skat", ["last_trick", "loser"])
def test_rescoring_equals_playing_for_each_scoring_option(policy: str, ramsch_skat: str) -> None:
    """Deals played once and re-scored under every scoring-only option (and all of them at
    once) equal the same deals played under those rules, ramsch included."""
    game = find_game("skat")
    base = {"all_pass": "ramsch", "ramsch_skat": ramsch_skat}
    played = play(game, 21, 0, 1500, game.rules(base), [policy] * 3).columns
    assert played["ramsch"].sum() > 20 and (played["declarer"] >= 0).sum() > 500
    variants = [{o.name: v} for o in game.options if o.scoring_only for v in o.allowed]
    variants.append({"scoring": "seeger_fabian", "ramsch_jungfrau": True, "lost_factor": 1})
    changed = []
    for variant in variants:
        rules = game.rules({**base, **variant})
        replayed = play(game, 21, 0, 1500, rules, [policy] * 3).columns
        rescored = game.rescore(played, rules)
        for key, column in replayed.items():
            assert np.array_equal(column, rescored[key]), (variant, key)
        if any(not np.array_equal(played[f"score_{s}"], replayed[f"score_{s}"]) for s in range(3)):
            changed.append(variant)
    maiden = played["ramsch"] & ~played["durchmarsch"] & np.any(
        [played[f"ramsch_tricks_{s}"] == 0 for s in range(3)], axis=0)
    assert changed == [{"lost_factor": 1}, {"scoring": "seeger_fabian"}] \
        + ([{"ramsch_jungfrau": True}] if maiden.any() else []) + variants[-1:]


def test_played_scores_follow_the_seeger_fabian_list_and_the_jungfrau() -> None:
    game = find_game("skat")
    rules = game.rules({"all_pass": "ramsch", "scoring": "seeger_fabian", "ramsch_jungfrau": True})
    c = play(game, 12, 0, 3000, rules, ["heuristic"] * 3).columns
    declared = np.flatnonzero(c["declarer"] >= 0)
    for i in declared:
        value = int(c["game_value"][i])
        declarer, defender = (value + 50, 0) if c["won"][i] else (-2 * value - 50, 40)
        assert [int(c[f"score_{s}"][i]) for s in range(3)] == [
            declarer if s == c["declarer"][i] else defender for s in range(3)]
    maidens = 0
    for i in np.flatnonzero(c["ramsch"] & ~c["durchmarsch"]):
        points = [int(c[f"ramsch_points_{s}"][i]) for s in range(3)]
        tricks = [int(c[f"ramsch_tricks_{s}"][i]) for s in range(3)]
        factor = 2 ** tricks.count(0)
        maidens += factor > 1
        assert [int(c[f"score_{s}"][i]) for s in range(3)] == [
            -p * factor if p == max(points) else 0 for p in points]
    assert maidens > 5


# --- bidding ----------------------------------------------------------------------------------

def run_bidding(script_rows: list[tuple[str, int, int]], dealer: int = 0):
    """Feed a scripted bidding (every seat scripted) to the kernel's bidding phase."""
    rows = np.array([[A.CODES[t], s, v, 0] for t, s, v in script_rows], np.int64).reshape(-1, 4)
    hands = np.zeros(3, np.uint64)
    obs = np.zeros(O.LENGTH, np.int64)
    pols = np.full(3, SCRIPTED, np.int64)
    states = np.zeros((4, 1), np.uint64)
    values = bid_values(3)
    cur = np.zeros(1, np.int64)
    err = np.zeros(1, np.int64)
    log = np.zeros((64, 4), np.int64)
    nlog = np.zeros(1, np.int64)
    declarer, bid = skat._bidding(hands, dealer, obs, pols, states, values,
                                  DealIO(rows, cur, err, log, nlog, NO_NET))
    return int(declarer), int(bid), int(err[0]), int(cur[0]), log[:nlog[0]]


def test_bidding_middlehand_then_rearhand() -> None:
    # dealer 0: forehand 1, middlehand 2, rearhand 0
    declarer, bid, err, used, _ = run_bidding([
        ("bid", 2, 18), ("hold", 1, 18), ("bid", 2, 20), ("pass", 1, 0),   # middlehand survives
        ("bid", 0, 22), ("hold", 2, 22), ("bid", 0, 23), ("pass", 2, 0),  # rearhand wins at 23
    ])
    assert (declarer, bid, err, used) == (0, 23, 0, 8)


def test_bidding_forehand_holds_and_rearhand_passes() -> None:
    declarer, bid, err, _, _ = run_bidding([
        ("bid", 2, 18), ("hold", 1, 18), ("pass", 2, 0), ("bid", 0, 20), ("hold", 1, 20),
        ("pass", 0, 0)])
    assert (declarer, bid, err) == (1, 20, 0)


def test_bidding_two_passes_forehand_takes_18() -> None:
    declarer, bid, err, _, log = run_bidding([("pass", 2, 0), ("pass", 0, 0), ("bid", 1, 18)])
    assert (declarer, bid, err) == (1, 18, 0)
    assert log[-1].tolist() == [A.BID, 1, 18, 0]


def test_bidding_all_pass() -> None:
    declarer, bid, err, _, _ = run_bidding([("pass", 2, 0), ("pass", 0, 0), ("pass", 1, 0)])
    assert (declarer, bid, err) == (-1, 0, 0)


def test_bidding_jump_bids_allowed_but_not_unreachable_values() -> None:
    declarer, bid, err, _, _ = run_bidding([("bid", 2, 36), ("pass", 1, 0), ("pass", 0, 0)])
    assert (declarer, bid, err) == (2, 36, 0)
    _, _, err, _, _ = run_bidding([("bid", 2, 19)])
    assert err == E_ILLEGAL
    _, _, err, _, _ = run_bidding([("bid", 2, 20), ("hold", 1, 20), ("bid", 2, 18)])
    assert err == E_ILLEGAL


def test_bidding_wrong_seat_is_reported() -> None:
    _, _, err, _, _ = run_bidding([("bid", 1, 18)])
    assert err == E_MISMATCH


# --- whole deals ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def heuristic_deals():
    game = find_game("skat")
    return play(game, 11, 0, 3000, game.rules(), ["heuristic"] * 3).columns


def test_scores_follow_from_the_result_columns(heuristic_deals) -> None:
    c = heuristic_deals
    declared = np.flatnonzero(c["declarer"] >= 0)
    assert len(declared) > 2000
    for i in declared:
        s = c["declarer"][i]
        value = c["game_value"][i]
        expected = value if c["won"][i] else -2 * value
        assert c[f"score_{s}"][i] == expected
        assert sum(c[f"score_{k}"][i] for k in range(3)) == expected
        if c["game"][i] == NULL:
            assert value in (23, 35, 46, 59)
            assert c["won"][i] == (c["declarer_tricks"][i] == 0)
        else:
            assert c["won"][i] == (c["declarer_points"][i] >= 61 and not c["overbid"][i]
                                   and not c["schneider_announced"][i])


def test_lost_factor_one_halves_losses() -> None:
    game = find_game("skat")
    two = play(game, 3, 0, 2000, game.rules(), ["heuristic"] * 3).columns
    one = play(game, 3, 0, 2000, game.rules({"lost_factor": 1}), ["heuristic"] * 3).columns
    lost = (two["declarer"] >= 0) & ~two["won"]
    assert lost.sum() > 100
    for s in range(3):
        assert np.array_equal(one[f"score_{s}"][lost] * 2, two[f"score_{s}"][lost])
        assert np.array_equal(one[f"score_{s}"][~lost], two[f"score_{s}"][~lost])


def test_throw_in_and_ramsch_share_the_deals() -> None:
    game = find_game("skat")
    thrown = play(game, 4, 0, 3000, game.rules(), ["heuristic"] * 3).columns
    ramsch = play(game, 4, 0, 3000, game.rules({"all_pass": "ramsch"}), ["heuristic"] * 3).columns
    for s in range(3):
        assert np.array_equal(thrown[f"hand_{s}"], ramsch[f"hand_{s}"])
    passed = thrown["passed_out"]
    assert passed.sum() > 20
    assert not ramsch["passed_out"].any()
    assert np.array_equal(ramsch["ramsch"], passed)
    for s in range(3):
        assert (thrown[f"score_{s}"][passed] == 0).all()
    r = ramsch["ramsch"]
    points = np.stack([ramsch[f"ramsch_points_{s}"][r] for s in range(3)])
    scores = np.stack([ramsch[f"score_{s}"][r] for s in range(3)])
    assert (points.sum(axis=0) == 120).all()
    durch = ramsch["durchmarsch"][r]
    most = points.max(axis=0)
    # the player(s) with most points lose them; a Durchmarsch wins 120
    assert np.array_equal(scores[:, ~durch], np.where(points == most, -points, 0)[:, ~durch])
    assert ((scores[:, durch] == 120).sum(axis=0) == 1).all()

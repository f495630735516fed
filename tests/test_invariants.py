"""Invariants every registered game must keep, under random and heuristic play.

Each game contributes a small checker below; the test fails for a registered game
without one, so a new game cannot join the registry unchecked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from sim import actions as A
from sim.cards import DOKO_DECK_40, DOKO_DECK_48, SKAT_DECK
from sim.engine.batch import Batch
from sim.engine.play import play
from sim.games.doko_duell import game as dd
from sim.games.doko_skat import game as dsk
from sim.games.doko_skat import values as dv
from sim.games.skat_family import skat_en_deux as sed
from sim.games.skat_family.values import BASE, EFF, NULL, POINTS, RAMSCH, STRENGTH, SUIT_MASKS
from sim.registry import GAMES
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
            # the skat's points to the taker of the last trick, or to each player with most
            skat_points = int(sum(POINTS[SKAT_DECK.cards(skat)]))
            to_loser = rules["ramsch_skat"] == "loser"
            gets = [points[s] == max(points) if to_loser else s == w for s in range(3)]
            assert [int(c[f"ramsch_points_{s}"][i]) for s in range(3)] == [
                points[s] + (skat_points if gets[s] else 0) for s in range(3)]
            assert [int(c[f"ramsch_tricks_{s}"][i]) for s in range(3)] == tricks
            assert c["ramsch_last_trick"][i] == w
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
            declarer = int(c["declarer"][i])
            assert plays == [] and scores[1 - declarer] == 0
            assert not rules["contra_re"], "no give-up of any kind with contra_re"
            game, bid = int(c["game"][i]), int(c["bid"][i])
            if game >= 0:  # after the pickup, naming a game that cannot reach the bid
                assert rules["give_up_after_pickup"] and A.PICKUP in [r[0] for r in rows]
                full = np.uint64(holding[place_of[declarer]])
                assert int(sed.give_up_games(full, bid)) >> game & 1
                base = int(BASE[game])
                assert scores[declarer] == -lost_factor * (-(-bid // base) * base)
            else:
                assert bid == 18 and rules["give_up_at_18"] and scores[declarer] == -60
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
            last_offer = max(int(c["offer_trick"][i]), int(c["second_offer_trick"][i]))
            assert len(plays) == 3 * last_offer
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
        if not (rules["contra_re"] or rules["offers"]):
            assert not c["offer"][i] and A.OFFER not in [r[0] for r in rows]
    assert counts["played"] > 100 and counts["give_up"] + counts["null"] > 0
    assert counts["ramsch"] > 0 or rules["all_pass"] == "throw_in"
    assert counts["passed"] > 0 or rules["all_pass"] == "ramsch"


DOKO_COVER = {4: (0, 1), 5: (1, 2), 6: (2, 3), 7: (4, 5), 9: (5, 6), 8: (7,), 10: (9,), 11: (8, 10)}
"""RULES.md's covering table: position -> the positions lying on it."""
DOKO_FACE_UP = (0, 1, 2, 3, 7, 9)
DOKO_EVENTS = ("fox", "karlchen", "identical", "twenty_two", "pin")


def doko_duell_invariants(batch: Batch, rules: dict) -> None:
    """Two pyramids of 12 and two hands of 8 are the whole 40-card deck; 20 two-card tricks,
    every card played exactly once from where it lay (the hand, or a pyramid position free
    and face up at that moment: nothing left on it, turned up at the end of an earlier
    trick), following suit with the hand and the free cards only; the winner leads; 240
    points; B markers only for events and at most 12 with the box; the A markers are the top
    trumps (HT, CQ) counted per the rules."""
    c = batch.columns
    names = DOKO_DECK_40.names
    top = {i for i in range(40) if names[i] in ("HT", "CQ")}
    equal = dd.EQUAL_RULES.index(rules["equal_cards"])
    box = rules["b_marker_supply"] == "12"
    counts = dict.fromkeys(("pyramid", "p11", "ties", "decided"), 0)
    for i, actions in enumerate(batch.actions):
        deal = int(c["deal"][i])
        starter = int(c["starter"][i])
        assert starter == (deal + 1) % 2 and int(c["dealer"][i]) == deal % 2
        hands = [int(c[f"hand_{s}"][i]) for s in range(2)]
        pyramid = [[int(c[f"pyramid_{s}_{k}"][i]) for k in range(12)] for s in range(2)]
        laid = pyramid[0] + pyramid[1]
        assert [bin(h).count("1") for h in hands] == [8, 8] and hands[0] & hands[1] == 0
        assert len(set(laid)) == 24 and not (hands[0] | hands[1]) & sum(1 << x for x in laid)
        assert hands[0] | hands[1] | sum(1 << x for x in laid) == DOKO_DECK_40.full
        holding = list(hands)
        present = [set(range(12)), set(range(12))]
        up = [set(DOKO_FACE_UP), set(DOKO_FACE_UP)]
        rows = [[int(x) for x in r] for r in actions]
        plays = [r for r in rows if r[0] == A.PLAY]
        assert len(plays) == 40, "20 two-card tricks"
        points, tricks = [0, 0], [0, 0]
        leader = starter
        played = 0
        for t in range(20):
            trick = []
            for n in range(2):
                _, s, card, src = plays[2 * t + n]
                assert s == (leader + n) % 2, "the winner leads, the other follows"
                free = {k for k in present[s]
                        if k in up[s] and not set(DOKO_COVER.get(k, ())) & present[s]}
                options = holding[s] | sum(1 << pyramid[s][k] for k in free)
                legal = legal_mask(np.uint64(options), trick[0] if n else -1, dd.EFF,
                                   dd.SUIT_MASKS)
                assert int(legal) >> card & 1, "a card the player may not play there"
                if src == 0:
                    assert holding[s] >> card & 1, "a hand card its player did not hold"
                    holding[s] &= ~(1 << card)
                else:
                    k = src - 1
                    assert k in free and pyramid[s][k] == card, \
                        "a pyramid card that was not free and face up where it lay"
                    present[s].discard(k)
                    counts["pyramid"] += 1
                    counts["p11"] += k == 11
                assert not played >> card & 1, "a card played twice"
                played |= 1 << card
                trick.append(card)
            winner = (leader + int(dd.second_beats(trick[0], trick[1], equal))) % 2
            points[winner] += int(dd.POINTS[trick[0]] + dd.POINTS[trick[1]])
            tricks[winner] += 1
            for s in range(2):  # face-down cards left uncovered turn up at the end of the trick
                up[s] |= {k for k in present[s] if not set(DOKO_COVER.get(k, ())) & present[s]}
            leader = winner
        assert played == DOKO_DECK_40.full and holding == [0, 0] and present == [set(), set()]
        assert sum(points) == 240 and sum(tricks) == 20
        assert [int(c[f"points_{s}"][i]) for s in range(2)] == points
        assert [int(c[f"tricks_{s}"][i]) for s in range(2)] == tricks
        assert int(c["last_trick_winner"][i]) == leader
        # markers: each event recorded (kind 1 + index, the trick's winner), B markers only
        # for events, never more than the box holds; A markers for the top trumps
        markers = [r for r in rows if r[0] == A.MARKER]
        for s in range(2):
            events = sum(int(c[f"{e}_{s}"][i]) for e in DOKO_EVENTS)
            assert events == sum(1 for r in markers if r[1] == s and r[2] > 0)
            assert 0 <= int(c[f"b_markers_{s}"][i]) <= events
            if rules["b_one_per_trick"]:
                won = {r[3] for r in markers if r[1] == s and r[2] > 0}
                assert int(c[f"b_markers_{s}"][i]) <= len(won)
            setup = len(top & {pyramid[s][k] for k in DOKO_FACE_UP})
            later = len(top & ({pyramid[s][k] for k in range(12) if k not in DOKO_FACE_UP}
                               | {x for x in range(40) if hands[s] >> x & 1}))
            expected = later + (setup if rules["a_marker_on_setup"] else 0)
            assert int(c[f"a_markers_{s}"][i]) == expected, "A markers are not the top trumps"
            assert expected == sum(1 for r in markers if r[1] == s and r[2] == 0)
        b_total = int(c["b_markers_0"][i]) + int(c["b_markers_1"][i])
        if box:
            assert b_total <= 12 and bool(c["supply_exhausted"][i]) == (b_total == 12)
        else:
            assert not c["supply_exhausted"][i]
        assert int(c["a_markers_0"][i]) + int(c["a_markers_1"][i]) <= 4
        # the result: more than 120 wins; 120 : 120 is the tie
        winner = int(c["winner"][i])
        vp = [int(c["vp_0"][i]), int(c["vp_1"][i])]
        assert bool(c["tie"][i]) == (points[0] == 120)
        if points[0] != 120:
            assert winner == (0 if points[0] > 120 else 1)
            counts["decided"] += 1
        else:
            counts["ties"] += 1
        assert min(vp) == 0 and (winner >= 0 or vp == [0, 0])
        if rules["b_marker_mode"] == "v1" and winner >= 0:
            assert vp[winner] >= 1 and vp[1 - winner] == 0
    assert counts["pyramid"] > 10 * len(batch.actions) and counts["p11"] > 0.5 * len(batch.actions)
    assert counts["decided"] > 0.9 * len(batch.actions)


def _doko_skat_tricks(plays: list[list[int]], holding: list[int], table: int, leader: int
                      ) -> tuple[list[int], list[int], int, list[int]]:
    """Play out ``plays`` (3 per trick) from ``leader``: each card held and legal, the winner
    leads next. Returns the card points and tricks per seat, the last trick's winner and the
    cards of the tricks each seat took."""
    points, tricks, won = [0, 0, 0], [0, 0, 0], [0, 0, 0]
    eff, strength, masks = dv.EFF[table], dv.STRENGTH[table], dv.SUIT_MASKS[table]
    for k in range(0, len(plays), 3):
        trick = []
        for n, (_, s, card, _) in enumerate(plays[k:k + 3]):
            assert s == (leader + n) % 3, "the winner leads, the others follow clockwise"
            assert holding[s] >> card & 1, "a card played that its player did not hold"
            legal = legal_mask(np.uint64(holding[s]), trick[0] if n else -1, eff, masks)
            assert int(legal) >> card & 1, "a card its player may not play there"
            holding[s] &= ~(1 << card)
            trick.append(card)
        leader = (leader + trick_winner(np.array(trick, np.int64), 3, eff, strength)) % 3
        points[leader] += int(dv.POINTS[trick].sum())
        tricks[leader] += 1
        won[leader] |= sum(1 << c for c in trick)
    return points, tricks, leader, won


def doko_skat_invariants(batch: Batch, rules: dict) -> None:
    """48 distinct cards among the stocks (12 each), the skat (3) and the first-round hands (3
    each), the turned-up card among the nine; 3 first-round and 12 main tricks from forehand,
    every card held and legal, the winner leads; 240 card points among the first-round tricks,
    the main tricks and the discards; the teams are the turned-up card's holders; the seats
    speak one by one and the first to name a game declares for his side; the lone player
    discards 3 of his stock and the skat (in a redeal, after 4 extra cards to each pair member
    and 1 to him, everyone 4); side totals and scores as ``settle`` has them."""
    c = batch.columns
    full = DOKO_DECK_48.full
    bridge_skat = rules["bridge_order"] == "skat"
    counts: Counter = Counter()
    for i, actions in enumerate(batch.actions):
        deal = int(c["deal"][i])
        forehand = (deal + 1) % 3
        assert int(c["dealer"][i]) == deal % 3
        stocks = [int(c[f"stock_{s}"][i]) for s in range(3)]
        first = [int(c[f"first_round_{s}"][i]) for s in range(3)]
        extra = [int(c[f"extra_{s}"][i]) for s in range(3)]
        discards = [int(c[f"discard_{s}"][i]) for s in range(3)]
        skat = int(c["skat"][i])
        parts = stocks + [skat] + first
        assert [bin(p).count("1") for p in parts] == [12, 12, 12, 3, 3, 3, 3]
        assert stocks[0] | stocks[1] | stocks[2] | skat | first[0] | first[1] | first[2] == full
        nine = first[0] | first[1] | first[2]
        turned = int(c["turned_up"][i])
        both = 1 << turned | 1 << (turned + dv.N_KINDS)
        assert nine & both, "the turned-up card goes back among the nine first-round cards"
        fr_code = dv.game_of_card(turned)
        assert (c["fr_game"][i], c["fr_trump"][i]) == (dv.GAME_TYPE[fr_code], dv.GAME_TRUMP[fr_code])
        rows = [[int(x) for x in r] for r in actions]
        plays = [r for r in rows if r[0] == A.PLAY]
        assert len(plays) == 45 and [r[0] for r in rows[:9]] == [A.PLAY] * 9
        fr_points, fr_tricks, fr_last, fr_won = _doko_skat_tricks(
            plays[:9], list(first), dv.table_of(fr_code, bridge_skat), forehand)
        assert [int(c[f"fr_points_{s}"][i]) for s in range(3)] == fr_points
        assert [int(c[f"fr_tricks_{s}"][i]) for s in range(3)] == fr_tricks
        # the teams: the holders of the turned-up card (among the cards team_cards looks at)
        looked = {"first_round": first, "all": [first[s] | stocks[s] for s in range(3)],
                  "won": fr_won}[rules["team_cards"]]
        assert [int(c[f"fr_copies_{s}"][i]) for s in range(3)] == [
            bin(fr_won[s] & both).count("1") for s in range(3)]
        holders = [s for s in range(3) if looked[s] & both]
        lone = int(c["lone"][i])
        pair = sorted({0, 1, 2} - {lone})
        assert [int(c["pair_0"][i]), int(c["pair_1"][i])] == pair
        assert holders == ([lone] if len(holders) == 1 else pair)
        held_both = {"team_cards": looked[lone], "stock": first[lone] | stocks[lone],
                     "skat": first[lone] | stocks[lone] | skat}[rules["both_copies"]]
        assert bool(c["lone_both"][i]) == (held_both & both == both)
        # the declaration: passes until someone names a game
        spoken = [r for r in rows[9:] if r[0] in (A.PASS, A.DECLARE)]
        assert rows[9:9 + len(spoken)] == spoken and len({r[1] for r in spoken}) == len(spoken)
        # the side with two first-round tricks or more speaks first; a pair puts the lone
        # player between its members
        pair_first = fr_tricks[pair[0]] + fr_tricks[pair[1]] >= 2
        assert (spoken[0][1] != lone) == pair_first
        assert len(spoken) < 2 or (spoken[1][1] == lone) == pair_first
        declarer = int(c["declarer"][i])
        side = int(c["declaring_side"][i])
        held = [stocks[s] | (skat if s == lone else 0) for s in range(3)]
        if c["nobody_declared"][i]:
            assert [r[0] for r in spoken] == [A.PASS] * 3 and (declarer, side) == (-1, -1)
            assert [bin(e).count("1") for e in extra] == [1 if s == lone else 4 for s in range(3)]
            assert extra[0] | extra[1] | extra[2] == nine
            second = int(c["second_turned_up"][i])
            assert (1 << second | 1 << (second + dv.N_KINDS)) & nine
            code = dv.game_of_card(second)
            held = [held[s] | extra[s] for s in range(3)]
            n_discard = [4, 4, 4]
            assert c["spitzen"][i] == c["special_pair"][i] == c["special_lone"][i] == 0
            counts["redeal"] += 1
        else:
            assert [r[0] for r in spoken] == [A.PASS] * (len(spoken) - 1) + [A.DECLARE]
            assert spoken[-1][1] == declarer and int(c["declarer_turn"][i]) == len(spoken) - 1
            assert side == (dv.LONE if declarer == lone else dv.PAIR)
            assert extra == [0, 0, 0] and int(c["second_turned_up"][i]) == -1
            code = spoken[-1][2]
            n_discard = [3 if s == lone else 0 for s in range(3)]
            counts[side] += 1
        assert (c["game"][i], c["trump"][i]) == (dv.GAME_TYPE[code], dv.GAME_TRUMP[code])
        discard_rows = [r for r in rows if r[0] == A.DISCARD]
        assert sorted(r[1] for r in discard_rows) == [s for s in range(3) if n_discard[s]]
        for _, s, cards, _ in discard_rows:
            assert cards == discards[s] and cards & ~held[s] == 0
        assert [bin(d).count("1") for d in discards] == n_discard
        # the main game, led as main_lead says; 240 card points in all
        hands = [held[s] & ~discards[s] for s in range(3)]
        leader = {"forehand": forehand, "first_round_winner": fr_last,
                  "declarer": declarer if declarer >= 0 else forehand}[rules["main_lead"]]
        points, tricks, _, _ = _doko_skat_tricks(plays[9:], hands, dv.table_of(code, bridge_skat),
                                                 leader)
        assert hands == [0, 0, 0] and sum(tricks) == 12
        assert [int(c[f"points_{s}"][i]) for s in range(3)] == points
        assert [int(c[f"tricks_{s}"][i]) for s in range(3)] == tricks
        sides = [dv.LONE if s == lone else dv.PAIR for s in range(3)]
        discard_points = [int(dv.POINTS[DOKO_DECK_48.cards(d)].sum()) for d in discards]
        assert sum(points) + sum(discard_points) + (sum(fr_points) if declarer >= 0 else 0) == 240
        count_fr = declarer >= 0 and rules["first_round_points"]
        totals = [0, 0]
        for s in range(3):
            totals[sides[s]] += points[s] + discard_points[s] + (fr_points[s] if count_fr else 0)
        assert [int(c["points_pair"][i]), int(c["points_lone"][i])] == totals
        assert int(c["discard_points_lone"][i]) == discard_points[lone]
        # the result is settle's
        result = dv.settle(totals[0], totals[1], side, dv.GAME_TYPE[code] == dv.GRAND, int(c["spitzen"][i]),
                           int(c["special_pair"][i]), int(c["special_lone"][i]),
                           rules["tie_special_points"], rules["zero_sum"],
                           dsk.rule_bands(rules))
        winner, tie, value, pair_score, lone_score = result
        assert (int(c["winner_side"][i]), bool(c["tie"][i]), int(c["value"][i])) == (winner, tie, value)
        assert [int(c[f"score_{s}"][i]) for s in range(3)] == [lone_score if s == lone else pair_score
                                                                for s in range(3)]
        assert tie == (totals[0] == totals[1])
        if rules["zero_sum"]:
            assert lone_score == -2 * pair_score
        else:
            assert min(lone_score, pair_score) == 0
        counts["lone_both"] += bool(c["lone_both"][i])
        counts["tie"] += tie
    assert counts[dv.PAIR] > 100 and counts[dv.LONE] > 100 and counts["lone_both"] > 10, counts


CHECKERS: dict[str, Callable[[Batch, dict], None]] = {
    "skat": skat_invariants, "skat_en_deux": skat_en_deux_invariants,
    "doko_duell": doko_duell_invariants, "doko_skat": doko_skat_invariants}

RULE_SETS = {"skat": [{}, {"all_pass": "ramsch", "announcements": True, "lost_factor": 1},
                      {"all_pass": "ramsch", "ramsch_skat": "loser", "ramsch_jungfrau": True,
                       "scoring": "seeger_fabian"}],
             "skat_en_deux": [{}, {"contra_re": True, "open_hand": True, "lost_factor": 1},
                              {"offers": True, "all_pass": "throw_in"},
                              {"all_pass": "throw_in", "give_up_at_18": False,
                               "give_up_after_pickup": True}],
             "doko_duell": [{}, {"equal_cards": "second_wins", "b_marker_supply": "none",
                             "b_one_per_trick": True, "a_marker_on_setup": False,
                             "b_marker_mode": "v2", "tie_rule": "last_trick"},
                            {"equal_cards": "second_heart_ten", "tie_rule": "b_markers"}],
             "doko_skat": [{}, {"bridge_order": "skat", "team_cards": "all", "first_round_points": False,
                            "zero_sum": True, "both_copies": "skat", "tie_special_points": False},
                           {"team_cards": "won", "main_lead": "declarer", "spitzen_of": "declarer"}]}


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_invariants(name: str, policy: str) -> None:
    game = GAMES[name]
    assert name in CHECKERS, f"no invariant checker for game {name}"
    for given in RULE_SETS.get(name, [{}]):
        rules = game.rules(given)
        batch = play(game, 2026, 0, DEALS, rules, [policy] * game.n_players, record=True)
        CHECKERS[name](batch, rules)
        # a recorded deal replays to the same result, every action legal
        replay = play(game, 2026, 0, DEALS, rules, [policy] * game.n_players,
                           script=batch.actions)
        assert (replay.columns["replay_error"] == 0).all()
        for key, column in batch.columns.items():
            assert np.array_equal(column, replay.columns[key]), key


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_deal_does_not_depend_on_its_batch(name: str) -> None:
    game = GAMES[name]
    rules = game.rules()
    policies = ["random"] * game.n_players
    whole = play(game, 99, 0, 200, rules, policies).columns
    parts = [play(game, 99, first, 50, rules, policies).columns for first in (150, 0, 100, 50)]
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
    played = play(game, 8, 0, DEALS, game.rules(), policies).columns
    for option in scoring:
        for value in option.allowed:
            rules = game.rules({option.name: value})
            assert game.options.play_rules(rules) == game.options.play_rules(game.rules())
            replayed = play(game, 8, 0, DEALS, rules, policies).columns
            rescored = game.rescore(played, rules)
            for key, column in replayed.items():
                assert np.array_equal(column, rescored[key]), (option.name, value, key)

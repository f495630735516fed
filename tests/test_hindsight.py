"""Hindsight (``sim.play.hindsight``): each card of a person against the best under perfect
play, for finished deals only, agreeing with ``stichsim solve``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sim.cards import SKAT_DECK
from sim.engine.cardplay import PLAY
from sim.engine.play import play
from sim.engine.solving import hooks
from sim.games.skat_family import cardplay as cp
from sim.games.skat_family.values import GRAND
from sim.play.hindsight import HindsightError, card_decision, hindsight, hindsight_lines, hindsight_of_record
from sim.registry import GAMES, find_game
from sim.solve import Position, players, solve_position
from sim.trace import trace_lines

SKAT = find_game("skat")


def heuristic_deals(name: str, seed: int, deals: int) -> tuple:
    game = find_game(name)
    rules = game.rules({})
    batch = play(game, seed, 0, deals, rules, ["heuristic"] * game.n_players, record=True)
    assert batch.actions is not None
    return game, rules, batch


def test_a_recorded_skat_deal_its_forced_last_card_loses_nothing() -> None:
    obj = next(trace_lines(SKAT, 4, 0, 1, None, ["heuristic"] * 3))
    for seat in range(3):
        decisions = hindsight(obj, seat)
        plays = [a for a in obj["actions"] if a["seat"] == seat and a["type"] == "play"]
        cards = [d for d in decisions if d["solved"]]
        assert [d["played"] for d in cards] == [a["card"] for a in plays]
        assert [d["trick"] for d in cards] == list(range(1, 11))
        last = cards[-1]
        assert last["legal"] == [last["played"]] and last["value"] == last["best"]
        assert last["loss"] == 0 and last["best_cards"] == [last["played"]]
        # the bids, the skat and the declaration are listed, not solved
        assert all(d["kind"] != "play" for d in decisions if not d["solved"])
        assert len(decisions) == len([a for a in obj["actions"] if a["seat"] == seat])
        json.dumps(decisions)  # JSON-able


def grand_ending() -> np.ndarray:
    """Trick 9 of a grand (the declarer at place 0, the other 26 cards in his skat): he
    leads S7, his left defender wins with SA, and the other defender, holding HA D7, is to
    play. Schmearing HA gives the defenders 11 + 11 now and the last trick (C7 SJ D7) to
    the declarer for 2; D7 now leaves HA to fall on the declarer's SJ: 13 for him."""
    def n(name: str) -> int:
        return 1 << SKAT_DECK.index(name)

    hands = [n("S7") | n("SJ"), n("SA") | n("C7"), n("HA") | n("D7")]
    state = np.zeros(cp.LENGTH, np.int64)
    cp.begin(state, 3, 0, -1, 0)
    for place in range(3):
        cp.sit(state, place, np.uint64(hands[place]), place)
    rest = ((1 << 32) - 1) & ~(hands[0] | hands[1] | hands[2])
    cp.contract(state, GRAND, 0, -1, 24, 0, np.uint64(rest), np.uint64(rest), 0, 0)
    state[cp.S.TRICK_NO] = 8
    cp.step(state, SKAT_DECK.index("S7"))
    cp.step(state, SKAT_DECK.index("SA"))
    return state


def test_a_card_that_gives_away_points_is_worth_less_than_the_best() -> None:
    state = grand_ending()
    keep = card_decision(SKAT, state, SKAT_DECK.index("D7"))
    schmear = card_decision(SKAT, state, SKAT_DECK.index("HA"))
    assert keep["trick"] == 9 and sorted(keep["legal"]) == ["D7", "HA"]
    assert keep["measure"] == "card points" and keep["better"] == "higher" and keep["side"] == [1, 2]
    assert keep["best"] == schmear["value"] == schmear["best"] and keep["best_cards"] == ["HA"]
    assert keep["value"] == keep["best"] - 11 and keep["loss"] == 11
    assert keep["moves"]["HA"] == [schmear["value"]] * 2
    assert keep["moves"]["D7"] == [keep["value"]] * 2
    assert not keep["capped"] and keep["value_range"] == [keep["value"]] * 2


def test_an_unfinished_deal_is_refused() -> None:
    game, rules, batch = heuristic_deals("skat", 5, 1)
    log = batch.actions[0]
    with pytest.raises(HindsightError, match="not over"):
        hindsight_of_record(game, rules, None, 0, log, 0)
    obj = next(trace_lines(SKAT, 5, 0, 1, None, ["heuristic"] * 3))
    obj["actions"] = obj["actions"][:-3]  # the last trick not played
    with pytest.raises(HindsightError, match="not over"):
        hindsight(obj, 0)


def test_a_person_seat_is_found_or_must_be_named() -> None:
    obj = next(trace_lines(SKAT, 5, 0, 1, None, ["heuristic"] * 3))
    with pytest.raises(HindsightError, match="name the seat"):
        hindsight(obj)
    obj["policies"][2] = "person"
    assert hindsight(obj) == hindsight(obj, 2)
    with pytest.raises(HindsightError, match="seats 0 to 2"):
        hindsight(obj, 3)


DEALS = {"skat": 100, "skat_en_deux": 100, "doko_skat": 6, "doko_duell": 4}
"""Deals a game's check plays: 100 where a deal takes a tenth of a second, a few in the
Doppelkopf games (a second or more a deal; 100 of them were checked by hand once)."""


@pytest.mark.parametrize("name", list(GAMES))
def test_the_best_is_never_below_the_card_played(name: str) -> None:
    """On heuristic deals, at a seat taking turns: the best card is at least as good as the
    one played, a best card loses nothing, and where the seat's side is his alone the best
    after the others' cards is at least his last card's value (they cannot take from him
    what perfect play kept)."""
    game, rules, batch = heuristic_deals(name, 17, DEALS[name])
    solved = 0
    for i in range(DEALS[name]):
        seat = i % game.n_players
        cards = [d for d in hindsight_of_record(game, rules, batch.columns, i, batch.actions[i], seat)
                 if d["solved"]]
        for d in cards:
            sign = 1 if d["better"] == "higher" else -1
            if d["capped"]:  # a long search in a Doppelkopf game: ranges, the least loss
                assert name.startswith("doko") and d["value"] is None or d["best"] is None
                assert d["value_range"][0] <= d["value_range"][1] and d["loss"] >= 0
                continue
            assert sign * (d["best"] - d["value"]) == d["loss"] >= 0
            assert d["played"] in d["legal"] and set(d["best_cards"]) <= set(d["legal"])
            assert all(sign * (d["best"] - r[(1 - sign) // 2]) >= 0 for r in d["moves"].values())
        for before, after in zip(cards, cards[1:]):
            if before["side"] == [seat] and before["measure"] == after["measure"] != "own card points" \
                    and not before["capped"] and not after["capped"]:
                sign = 1 if after["better"] == "higher" else -1
                assert sign * (after["best"] - before["value"]) >= 0, (i, before, after)
        solved += len(cards)
    assert solved >= DEALS[name] * 5  # deals with card play and his cards in them


@pytest.mark.parametrize("name", list(GAMES))
def test_at_a_tricks_start_the_values_are_stichsim_solves(name: str) -> None:
    """Where the seat leads, his values are ``stichsim solve``'s for that trick, read for his
    side."""
    game, rules, batch = heuristic_deals(name, 23, 2)
    checked = 0
    for i in range(2):
        seat = 1
        found = [d for d in hindsight_of_record(game, rules, batch.columns, i, batch.actions[i], seat)
                 if d["solved"]]
        state, actions = game.card_play.start(batch.columns, i, batch.actions[i], rules)
        f = game.card_play.fields
        ws = hooks(find_game(name)).new_workspace()
        for action in actions:
            if int(state[f.PHASE]) == PLAY and int(state[f.PLAYER]) == seat:
                d = found.pop(0)
                if int(state[f.TRICK_N]) == 0:
                    solved = solve_position(Position(game, i, d["trick"], state.copy(),
                                                     players(game, state)), ws)
                    mine = 0 if seat in solved["sides"][0] else 1
                    assert d["best"] == solved["points"][mine] and not d["capped"]
                    assert d["value"] == solved["moves"][d["played"]][mine]
                    for k, (low, high) in d["moves"].items():  # exact, or surely not best
                        assert low <= solved["moves"][k][mine] <= high
                    checked += 1
            game.card_play.step(state, int(action))
        assert not found
    assert checked


def test_the_lines_name_each_card_and_the_best() -> None:
    state = grand_ending()
    d = {"decision": 1, "kind": "play", "action": {}, "solved": True, "seat": 2,
         **card_decision(SKAT, state, SKAT_DECK.index("D7"))}
    lines = hindsight_lines([d])
    assert "your side (you, seat 1)" in lines[1]
    assert lines[2] == f"  trick  9: D7  {d['value']}; best HA: {d['best']} (11 worse)"
    assert hindsight_lines([]) == ["Hindsight: you made no decision in this deal."]

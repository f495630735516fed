"""Restricted play (``restricted:heuristic:RESTRICTION``, ``sim.engine.restricted_player``):
the games' restrictions read the cards as their rules do, a restricted player never plays a
forbidden card while another is legal, never declares a forbidden game, and otherwise plays as
the heuristic, and the
``restricted`` report question ranks what each restriction costs."""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType

import numpy as np
import pytest
from test_python_player import arena

from sim.engine.cardplay import HEADER
from sim.engine.play import play
from sim.engine.python_player import Decision
from sim.engine.restricted_player import restrictions
from sim.engine.seats import PolicyError, policy_id
from sim.registry import GAMES, find_game

ROOT = Path(__file__).resolve().parent.parent
SPY = ROOT / "tests" / "players" / "spy.py"


def decision(game_id: str, /, **observation: object) -> Decision:
    return Decision(game_id, 0, 0, "play", "Your card", (), 1, MappingProxyType(observation), {},
                    np.random.default_rng(0), np.zeros(1, np.int64))


def test_the_games_restrictions_read_trumps_and_leads_as_the_rules_do() -> None:
    duel = restrictions(find_game("doko_duell"))
    lead, follow = decision("doko_duell", trick_n=0), decision("doko_duell", trick_n=1)
    forbids = duel["no_trump_lead"].forbids
    assert forbids(lead, "DA") and forbids(lead, "HT") and forbids(lead, "CQ (p4)")  # trumps
    assert not forbids(lead, "CA") and not forbids(follow, "DA")
    tens = duel["keep_heart_tens"].forbids
    assert tens(follow, "HT (p2)") and not tens(follow, "HK")
    aces = duel["keep_aces"].forbids
    assert aces(lead, "SA") and not aces(lead, "DA")  # the fox is a trump
    assert duel["hand_first"].forbids(lead, "SA (p1)") and not duel["hand_first"].forbids(lead, "SA")
    assert duel["no_fat_follow"].forbids(follow, "ST") and not duel["no_fat_follow"].forbids(lead, "ST")
    skat = restrictions(find_game("skat"))
    grand = decision("skat", trick_n=0, ramsch=0, game=4)
    hearts = decision("skat", trick_n=0, ramsch=0, game=2)
    assert skat["no_trump_lead"].forbids(grand, "CJ") and not skat["no_trump_lead"].forbids(grand, "HA")
    assert skat["no_trump_lead"].forbids(hearts, "H7") and not skat["no_trump_lead"].forbids(hearts, "S7")
    null = decision("skat", trick_n=0, ramsch=0, game=5)
    assert not skat["no_trump_lead"].forbids(null, "CJ")  # null has no trumps
    assert skat["keep_aces"].forbids(hearts, "SA") and not skat["keep_aces"].forbids(hearts, "HA")
    doko_skat = restrictions(find_game("doko_skat"))
    assert doko_skat["keep_heart_tens"].forbids(lead, "HT")


def test_a_restriction_is_named_as_the_game_knows_it() -> None:
    game = find_game("doko_duell")
    for bad in ("restricted", "restricted:random:keep_aces", "restricted:heuristic"):
        with pytest.raises(PolicyError, match="restricted:heuristic:RESTRICTION"):
            policy_id(bad)
    with pytest.raises(PolicyError, match="has no restriction 'keep_kings'.*keep_heart_tens"):
        play(game, 1, 0, 1, game.rules(), ["restricted:heuristic:keep_kings", "heuristic"])


def seat_cards(name: str, policies: list[str], deals: int) -> list[tuple[int, set[str], str]]:
    """Every card seat 0 played in the main card play: the legal cards' names then, and its."""
    game = find_game(name)
    cp = game.card_play
    assert cp is not None
    batch = play(game, 3, 0, deals, game.rules(), policies, record=True)
    assert batch.actions is not None
    out = []
    for i in range(deals):
        started = cp.start(batch.columns, i, batch.actions[i], game.rules())
        if started is None:
            continue
        state, actions = started
        for action in actions:
            if int(state[HEADER.PLAYER]) == 0:
                legal = {game.deck.names[c] for c in game.deck.cards(int(np.uint64(cp.legal(state))))}
                out.append((i, legal, game.deck.names[action]))
            cp.step(state, action)
    return out


@pytest.mark.parametrize(("name", "restriction", "forbidden"), [
    ("doko_duell", "keep_heart_tens", lambda c: c == "HT"),
    ("skat_en_deux", f"python:{SPY}:no_hearts", lambda c: c[0] == "H"),
    ("doko_skat", "keep_heart_tens", lambda c: c == "HT")])
def test_a_restricted_player_plays_a_forbidden_card_only_when_nothing_else_is_legal(
        name: str, restriction: str, forbidden: object) -> None:
    game = find_game(name)
    policies = [f"restricted:heuristic:{restriction}"] + ["heuristic"] * (game.n_players - 1)
    played = seat_cards(name, policies, 40)
    assert len(played) > 100
    for _, legal, card in played:
        if forbidden(card):  # type: ignore[operator]
            assert all(forbidden(c) for c in legal), (legal, card)  # type: ignore[operator]
    plain = seat_cards(name, ["heuristic"] * game.n_players, 40)
    assert any(forbidden(card) and not all(forbidden(c) for c in legal)  # type: ignore[operator]
               for _, legal, card in plain)  # the heuristic alone does play them


@pytest.mark.parametrize(("name", "restriction", "games"), [
    ("skat", "no_grand", {4}), ("skat", "no_null", {5}), ("skat_en_deux", "no_grand", {4}),
    ("doko_skat", "no_grand", {1}), ("doko_skat", "no_bridge", {2})])  # its game types
def test_a_restricted_player_never_declares_a_forbidden_game(
        name: str, restriction: str, games: set[int]) -> None:
    game = find_game(name)
    others = ["heuristic"] * (game.n_players - 1)
    deals = 3000

    def declared(policies: list[str]) -> np.ndarray:
        c = play(game, 5, 0, deals, game.rules(), policies).columns
        return c["game"][c["declarer"] == 0]

    plain = declared(["heuristic"] + others)
    assert np.isin(plain, list(games)).sum() >= 5  # the heuristic alone does declare them
    restricted = declared([f"restricted:heuristic:{restriction}"] + others)
    assert len(restricted) > len(plain) / 2 and not np.isin(restricted, list(games)).any()


def test_a_restricted_player_without_hand_games_always_picks_up_the_skat() -> None:
    game = find_game("skat")
    c = play(game, 5, 0, 3000, game.rules(), ["heuristic"] * 3).columns
    assert c["hand"][c["declarer"] == 0].sum() >= 10
    c = play(game, 5, 0, 3000, game.rules(), ["restricted:heuristic:no_hand", "heuristic",
                                              "heuristic"]).columns
    mine = c["declarer"] == 0
    assert mine.sum() > 500 and not c["hand"][mine].any() and c["hand"][~mine].any()


@pytest.mark.parametrize("name", list(GAMES))
def test_a_restriction_that_forbids_nothing_plays_as_the_heuristic(name: str) -> None:
    game = find_game(name)
    free = f"restricted:heuristic:python:{SPY}:forbid_nothing"
    heuristic = play(game, 8, 0, 30, game.rules(), ["heuristic"] * game.n_players)
    restricted = play(game, 8, 0, 30, game.rules(), [free] + ["heuristic"] * (game.n_players - 1))
    for column, values in heuristic.columns.items():
        assert np.array_equal(values, restricted.columns[column]), column


@pytest.mark.parametrize("name", list(GAMES))
def test_a_restricted_player_plays_the_heuristic_in_the_arena(name: str) -> None:
    restriction = next(iter(restrictions(find_game(name))))
    policy = f"restricted:heuristic:{restriction}"
    done = arena(name, "--policies", f"{policy},heuristic", "--deals", "8", "--json")
    assert done.returncode == 0, done.stderr
    pair = json.loads(done.stdout)["pairs"][0]
    assert (pair["a"], pair["deals"]) == (policy, 8)


def test_the_report_ranks_what_each_restriction_costs(tmp_path: Path) -> None:
    from sim import api

    [index] = api.report(ROOT / "experiments" / "restricted-doko-duell.toml", deals=40,
                         results=tmp_path / "results", reports=tmp_path / "reports", jobs=2)
    summary = (index.parent / "summary.md").read_text()
    ranked = [line for line in summary.splitlines() if "costs the heuristic" in line]
    assert len(ranked) == 6 and all("[" in line for line in ranked)
    assert "keep_heart_tens (never play a heart ten)" in summary
    costs = [float(line.split("costs the heuristic ")[1].split()[0]) for line in ranked]
    assert costs == sorted(costs, reverse=True)

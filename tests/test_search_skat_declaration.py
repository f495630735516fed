"""The Skat family's lookahead declaration: ``declare`` names the game on a contract exactly as
the kernels' contract did, ``declaration_world`` deals the declarer's world at his
declaration (the kernel's state at the opening lead, but for the cards he has not seen),
uniformly, from his observation alone (the lookahead's deals play, reproduce and replay:
``test_search_skat_pregame``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from scipy import stats

from sim import actions as A
from sim.engine.play import play
from sim.engine.seats import policy_id
from sim.games.skat_family import lookahead as look
from sim.games.skat_family.cardplay import (
    LENGTH,
    S,
    contract,
    declare,
    start_en_deux,
    start_skat,
)
from sim.games.skat_family.observation import (
    BOTH_OFFERS,
    DECL_OPEN_SHIFT,
    DECL_OUVERT,
    DECL_SCHNEIDER,
    DECL_SCHWARZ,
    PH_DECLARE,
)
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.values import GRAND, NULL
from sim.games.skat_family.worlds import declaration_world
from sim.registry import find_game

DECK = (1 << 32) - 1
NO_ROWS = np.zeros((0, A.ROW), np.int64)


def _decl(columns: dict, i: int) -> int:
    """The declaration code of deal ``i``, from its result columns."""
    code = int(columns["game"][i]) | (DECL_OUVERT if columns["ouvert"][i] else 0)
    if "schneider_announced" in columns:
        code |= DECL_SCHNEIDER if columns["schneider_announced"][i] else 0
        code |= DECL_SCHWARZ if columns["schwarz_announced"][i] else 0
    if "open_level" in columns:
        code |= int(columns["open_level"][i]) << DECL_OPEN_SHIFT
    return code


def _declarer_obs(state: np.ndarray, blind: int, offers: bool, contra_re: bool) -> np.ndarray:
    """What the kernel shows the declarer at his declaration, read off the true state at the
    opening lead: his hand and discard, hand game, bid, forehand, the blind's place, the
    highest open level and the rules' offers."""
    place = int(state[S.DECLARER])
    obs = np.zeros(O.LENGTH, np.int64)
    obs[O.SEAT] = place
    obs[O.PHASE] = PH_DECLARE
    obs[O.HAND] = state[S.HANDS + place]
    obs[O.HAND_GAME] = state[S.HAND_GAME]
    obs[O.SKAT] = state[S.SKAT_SEEN]
    obs[O.BID] = state[S.BID]
    obs[O.DECLARER] = place
    obs[O.FOREHAND] = state[S.FOREHAND]
    obs[O.BLIND_SEAT] = blind
    obs[O.MAX_OPEN] = state[S.MAX_OPEN]
    obs[O.OFFERS_LEFT] = BOTH_OFFERS if offers or contra_re else 0
    obs[O.CONTRA_RE] = 1 if contra_re else 0
    return obs


@pytest.mark.parametrize("offers, contra_re", [(False, False), (True, False), (True, True)])
def test_declare_names_the_game_as_the_contract_did(offers: bool, contra_re: bool) -> None:
    """Every declaration code: a suit contract then ``declare`` is the contract of that
    game with its flags (null takes away the offers)."""
    flags = [0, DECL_SCHNEIDER, DECL_SCHNEIDER | DECL_SCHWARZ,
             DECL_SCHNEIDER | DECL_SCHWARZ | DECL_OUVERT, 1 << DECL_OPEN_SHIFT,
             2 << DECL_OPEN_SHIFT]
    codes = [g | f for g in range(GRAND + 1) for f in flags] + [NULL, NULL | DECL_OUVERT]
    skat, seen = np.uint64(0b11 << 20), np.uint64(0b11 << 20)
    for code in codes:
        want = np.zeros(LENGTH, np.int64)
        contract(want, code, 2, 0, 36, 1, skat, seen, offers, contra_re)
        assert (want[S.GAME], want[S.OUVERT], want[S.SCHNEIDER_ANN], want[S.SCHWARZ_ANN],
                want[S.OPEN_LEVEL]) == (code & 7, (code & DECL_OUVERT) != 0,
                                        (code & DECL_SCHNEIDER) != 0, (code & DECL_SCHWARZ) != 0,
                                        (code >> DECL_OPEN_SHIFT) & 3), code
        assert want[S.OFFERS] == ((offers or contra_re) and code & 7 != NULL), code
        got = np.zeros(LENGTH, np.int64)
        contract(got, 0, 2, 0, 36, 1, skat, seen, offers, contra_re)
        declare(got, code)
        assert np.array_equal(got, want), code
    assert want[S.GAME] == NULL and want[S.OUVERT] == 1


def _recorded(name: str, rules: dict) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """(the true state at the opening lead, the declarer's observation, the declaration) of
    every declared game in 150 heuristic deals."""
    game = find_game(name)
    full = game.rules(rules)
    columns = play(game, 3, 0, 150, full, ["heuristic"] * game.n_players).columns
    out = []
    for i in range(150):
        if name == "skat":
            started = start_skat(columns, i, NO_ROWS)
            blind = -1
        else:
            started = start_en_deux(columns, i, NO_ROWS, full)
            blind = 1
        if started is None or columns["ramsch"][i]:
            continue
        state = started[0]
        obs = _declarer_obs(state, blind, bool(full.get("offers", False)),
                            bool(full.get("contra_re", False)))
        out.append((state, obs, _decl(columns, i)))
    return out


CASES = [("skat", {}), ("skat", {"announcements": True}), ("skat_en_deux", {}),
         ("skat_en_deux", {"offers": True, "contra_re": True, "open_hand": True})]


@pytest.mark.parametrize("name, rules", CASES)
def test_a_declaration_world_is_the_true_state_but_for_the_unseen_cards(name: str,
                                                                        rules: dict) -> None:
    """Declared, a world is the kernel's state at the opening lead in every field but the
    hidden hands and a hand game's skat (and, in Skat-en-deux, who is called player 0);
    those hold exactly the cards the declarer has not seen, ten a hand and the skat two."""
    recorded = _recorded(name, rules)
    assert len(recorded) > 40
    assert any(state[S.HAND_GAME] for state, _, _ in recorded)
    rng = np.array([700], np.uint64)
    hidden = [S.HANDS + p for p in range(3)] + [S.SKAT, S.PLAYER_AT, S.PLAYER_AT + 1,
                                               S.PLAYER_AT + 2, S.PLAYER]
    for state, obs, code in recorded:
        world = np.zeros(LENGTH, np.int64)
        declaration_world(obs, rng, world)
        declare(world, code)
        keep = np.ones(LENGTH, bool)
        keep[hidden] = False
        assert np.array_equal(world[keep], state[keep])
        place = int(state[S.DECLARER])
        assert world[S.HANDS + place] == state[S.HANDS + place]
        assert world[S.SKAT_SEEN] == state[S.SKAT_SEEN]
        if not state[S.HAND_GAME]:
            assert world[S.SKAT] == state[S.SKAT]
        cards = [int(world[S.HANDS + p]) for p in range(3)] + [int(world[S.SKAT])]
        assert [bin(c).count("1") for c in cards] == [10, 10, 10, 2]
        assert np.bitwise_or.reduce(cards) == DECK
        true = [int(state[S.HANDS + p]) for p in range(3)] + [int(state[S.SKAT])]
        others = [p for p in range(3) if p != place]
        unseen = [cards[p] for p in others] + ([cards[3]] if state[S.HAND_GAME] else [])
        assert np.bitwise_or.reduce(unseen) == np.bitwise_or.reduce(
            [true[p] for p in others] + ([true[3]] if state[S.HAND_GAME] else []))
        # who decides where: the declarer's place against the others', as in the kernel
        players = world[S.PLAYER_AT:S.PLAYER_AT + 3]
        real = state[S.PLAYER_AT:S.PLAYER_AT + 3]
        for p in range(3):
            for q in range(3):
                assert (players[p] == players[q]) == (real[p] == real[q])
        assert world[S.PLAYER] == players[world[S.TO_MOVE]]


def unseen_cards_are_uniform(obs: np.ndarray, deal: Callable[[np.ndarray, np.ndarray], None],
                             others: list[int], key: int, n: int) -> float:
    """The chi-square p-value of where each card the seat has not seen lies in ``n`` worlds
    ``deal(obs, rng, world)`` makes: either of the ``others``' hands with probability 10/22,
    the skat with 2/22."""
    unseen = [c for c in range(32) if not (int(obs[O.HAND]) >> c) & 1]
    assert len(unseen) == 22
    counts = np.zeros((22, 3))
    rng = np.array([key], np.uint64)
    world = np.zeros(LENGTH, np.int64)
    for _ in range(n):
        deal(obs, rng, world)
        places = [int(world[S.HANDS + others[0]]), int(world[S.HANDS + others[1]]),
                  int(world[S.SKAT])]
        for k, c in enumerate(unseen):
            counts[k, [j for j in range(3) if (places[j] >> c) & 1][0]] += 1
    expected = n * np.array([10, 10, 2]) / 22
    return float(stats.chi2.sf(((counts - expected) ** 2 / expected).sum(), 22 * 2))


def test_declaration_worlds_are_uniform() -> None:
    """A hand game: each card the declarer has not seen lies in either other hand with
    probability 10/22 and in the skat with 2/22 (chi-square over 4,000 worlds)."""
    state, obs, _ = next((s, o, c) for s, o, c in _recorded("skat", {}) if s[S.HAND_GAME])
    others = [p for p in range(3) if p != int(obs[O.SEAT])]
    assert unseen_cards_are_uniform(obs, declaration_world, others, 1100, 4000) > 1e-3


def test_the_declaration_is_a_function_of_the_observation() -> None:
    """The lookahead's declaration depends on the declarer's observation and stream alone
    (it is never handed the deal): the same observation and stream, the same game; and its
    worlds hide what he has not seen (over 50 worlds the other hands vary)."""
    state, obs, _ = _recorded("skat", {})[0]
    pol = policy_id("lookahead:16")
    flags = np.zeros(1, np.int64)
    answers = set()
    for _ in range(2):
        rng = np.array([512], np.uint64)
        answers.add(int(look.decide_declaration(pol, obs.copy(), rng, flags, 0,
                                                np.zeros(64, np.int64))))
    assert len(answers) == 1
    other = [p for p in range(3) if p != obs[O.SEAT]][0]
    rng = np.array([513], np.uint64)
    world = np.zeros(LENGTH, np.int64)
    hands = set()
    for _ in range(50):
        declaration_world(obs, rng, world)
        hands.add(int(world[S.HANDS + other]))
    assert len(hands) > 40 and int(state[S.HANDS + other]) not in hands

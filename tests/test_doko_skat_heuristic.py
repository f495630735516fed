"""The ``doko_skat`` heuristic: its decisions on hand-made observations, and its strength
against random play measured within Monte Carlo error."""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine.play import play
from sim.games.doko_skat import heuristic as H
from sim.games.doko_skat.observation import FIELDS as O
from sim.games.doko_skat.observation import PH_DECLARE, PH_DISCARD, PH_FIRST_ROUND, PH_PLAY
from sim.games.doko_skat.values import DECK, GAME_LABELS, table_of
from sim.registry import GAMES

GAME = GAMES["doko_skat"]


def mask(cards: str) -> int:
    """A card mask from names (a repeated name is the second copy)."""
    return DECK.parse(cards)


def observation(seat: int = 0, hand: str = "", phase: int = PH_PLAY, game: str = "suit H",
                lone: int = 1, turned_up: str = "HK", **fields: int) -> np.ndarray:
    """An observation of ``seat`` with the given fields (everything else empty)."""
    obs = np.zeros(O.LENGTH, np.int64)
    code = GAME_LABELS.index(game)
    obs[O.SEAT] = seat
    obs[O.PHASE] = phase
    obs[O.HAND] = mask(hand)
    obs[O.LEGAL] = mask(hand)
    obs[O.TURNED_UP] = DECK.index(turned_up)
    obs[O.FR_GAME] = obs[O.GAME] = code
    obs[O.FR_TABLE] = obs[O.TABLE] = table_of(code, False)
    obs[O.LONE] = lone
    obs[O.DECLARER] = -1
    obs[O.NEXT_SPEAKER] = -1
    obs[O.COUNT_FIRST_ROUND] = 1
    for k in range(3):
        obs[O.TRICK_CARD + k] = -1
    for name, value in fields.items():
        obs[getattr(O, name.upper())] = value
    return obs


def trick(obs: np.ndarray, leader: int, cards: str) -> None:
    """Put the cards played so far (from ``leader`` on) into the trick."""
    obs[O.TRICK_LEADER] = leader
    names = cards.split()
    obs[O.TRICK_N] = len(names)
    taken = 0
    for k, name in enumerate(names):
        c = DECK.index(name, taken)
        taken |= 1 << c
        obs[O.TRICK_CARD + k] = c
        obs[O.PLAYED + (leader + k) % 3] |= 1 << c


def name(card: int) -> str:
    return DECK.names[card]


# --- first round: who plays with whom -------------------------------------------------------

@pytest.mark.parametrize("hand, played, expected", [
    ("HK HK SA", {}, (-1, True)),             # both copies: the lone player
    ("HK SA", {2: "HK"}, (2, False)),         # my copy and seat 2's: partners
    ("HK SA", {}, (-1, False)),               # the other copy not seen yet
    ("SA CA", {1: "HK", 2: "HK"}, (-1, True)),  # both others hold one: I am alone
    ("SA CA", {1: "HK"}, (-1, False)),        # seat 1 may be alone or seat 2's partner
])
def test_first_round_partner(hand: str, played: dict[int, str], expected: tuple[int, bool]) -> None:
    obs = observation(hand=hand, phase=PH_FIRST_ROUND, lone=-1)
    taken = mask(hand)
    for seat, card in played.items():
        c = DECK.index(card, taken)
        taken |= 1 << c
        obs[O.FR_PLAYED + seat] |= 1 << c
    assert H.first_round_partner(obs) == expected


# --- card play --------------------------------------------------------------------------------

def test_last_to_play_wins_with_the_cheapest_winner() -> None:
    obs = observation(seat=2, hand="CJ SJ HJ HA C9", lone=2)  # hearts trump; seat 0 leads
    obs[O.LEGAL] = mask("CJ SJ HJ HA")
    trick(obs, 0, "HT HK")
    assert name(H.play(obs)) == "HA"


def test_smears_on_a_partner_that_cannot_be_beaten() -> None:
    obs = observation(seat=2, hand="CA CT C9", lone=1)  # seat 0 is the partner
    trick(obs, 0, "CJ DJ")  # the partner's club jack is the top trump; last to play
    assert name(H.play(obs)) == "CA"


def test_throws_its_cheapest_card_when_it_cannot_win() -> None:
    obs = observation(seat=1, hand="SA ST S9", lone=1)
    obs[O.LEGAL] = mask("SA ST S9")
    trick(obs, 0, "CJ")  # a trump led; seat 1 has none
    assert name(H.play(obs)) == "S9"


def test_leads_a_trump_nothing_unseen_beats_with_the_trump_majority() -> None:
    # every trump above the heart king is gone or in its hand
    hand = "CJ CJ SJ SJ HJ HJ DJ DJ HA HA HT HT"
    obs = observation(seat=0, hand=hand, lone=0)
    assert name(H.play(obs)) in ("CJ",)


def test_first_round_without_points_keeps_its_strong_cards() -> None:
    obs = observation(seat=2, hand="CA C9", phase=PH_FIRST_ROUND, lone=-1,
                      turned_up="SK", game="suit S")
    obs[O.FR_PLAYED + 2] = mask("SK")  # it held the turned-up card ...
    obs[O.FR_PLAYED] = 0
    obs[O.LEGAL] = mask("CA C9")
    obs[O.TRICK_LEADER] = 0
    obs[O.TRICK_N] = 2
    obs[O.TRICK_CARD], obs[O.TRICK_CARD + 1] = DECK.index("SK", mask("SK")), DECK.index("CK")
    obs[O.FR_PLAYED] |= 1 << int(obs[O.TRICK_CARD])  # ... and so did seat 0: partners
    obs[O.FR_PLAYED + 1] = 1 << int(obs[O.TRICK_CARD + 1])
    assert name(H.play(obs)) == "CA"  # points count: smear the ace on the partner
    obs[O.COUNT_FIRST_ROUND] = 0
    assert name(H.play(obs)) == "C9"  # they do not: keep the ace


# --- declaration and discards ----------------------------------------------------------------

def test_names_the_game_of_its_long_suit() -> None:
    obs = observation(seat=0, hand="HA HA HK HK HQ HQ HT HT HJ H9 CA SA", phase=PH_DECLARE,
                      lone=0, next_speaker=1)
    assert GAME_LABELS[H.declare(obs, 0)] in ("bridge H", "suit H")
    hearts = sum(1 << GAME_LABELS.index(g) for g in ("bridge H", "suit H"))
    assert GAME_LABELS[H.declare(obs, hearts)] not in ("bridge H", "suit H")  # no_hearts: another


def test_declares_when_an_opponent_would_choose_next() -> None:
    weak = "C9 C9 S9 S9 D9 D9 CQ SQ DQ CK SK DK"
    obs = observation(seat=0, hand=weak, phase=PH_DECLARE, lone=1, next_speaker=1)
    assert H.declare(obs, 0) >= 0  # passing hands the choice to the lone player
    obs[O.NEXT_SPEAKER] = -1
    assert H.declare(obs, 0) == -1  # last to speak with nothing: the redeal is better


def test_discards_full_cards_of_short_suits_never_trumps() -> None:
    hand = "CJ SJ HJ DJ HA HT HK HQ H9 CJ ST CA C9 DT DK"
    obs = observation(seat=1, hand=hand, phase=PH_DISCARD, lone=1, n_discard=3)
    put = H.discard(obs)
    assert bin(put).count("1") == 3 and put & ~mask(hand) == 0
    assert sorted(DECK.name_list(put)) == ["DK", "DT", "ST"]


# --- strength against random play --------------------------------------------------------------

def seat_scores(policies: list[str], deals: int, seed: int) -> np.ndarray:
    """Zero-sum scores ``[seat, deal]``; the dealer rotates, so each seat plays every
    position equally often."""
    cols = play(GAME, seed, 0, deals, GAME.rules({"zero_sum": True}), policies).columns
    return np.stack([cols[f"score_{s}"].astype(float) for s in range(3)])


def test_one_heuristic_player_beats_two_random_ones() -> None:
    scores = seat_scores(["heuristic", "random", "random"], 6000, 41)
    diff = scores[0] - scores[1:].mean(axis=0)
    assert diff.mean() > 5 * diff.std() / np.sqrt(diff.size) and diff.mean() > 3.0


def test_a_random_player_loses_to_two_heuristic_ones() -> None:
    scores = seat_scores(["heuristic", "heuristic", "random"], 6000, 42)
    diff = scores[2] - scores[:2].mean(axis=0)
    assert diff.mean() < -5 * diff.std() / np.sqrt(diff.size)


def test_the_heuristic_fights_for_the_first_round() -> None:
    cols = play(GAME, 43, 0, 6000, GAME.rules(), ["heuristic", "random", "random"]).columns
    tricks = cols["fr_tricks_0"].astype(float)
    # a random player takes one of the three tricks on average
    assert tricks.mean() - 1.0 > 5 * tricks.std() / np.sqrt(tricks.size)

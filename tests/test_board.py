"""The table as the browser draws it (``sim.screen.board``), on tricks worked out by hand from
the rules: each card before its player, the taker and the points of a complete trick, the
open trick without a taker; the places' names, positions and dealer."""

from __future__ import annotations

import numpy as np

from sim import actions as A
from sim.games.skat_family.values import GRAND, HEARTS
from sim.play import screen_for
from sim.registry import GAMES


def rows(*actions: tuple[int, int, int, int]) -> np.ndarray:
    return np.array(actions, np.int64).reshape(-1, A.ROW)


def skat_card(name: str) -> int:
    return GAMES["skat"].deck.index(name)


def test_skat_tricks_by_hand() -> None:
    """Grand: CJ takes HA and SJ (2 + 11 + 2 = 15 points); in hearts a trumped spade goes
    to the trump (H7 over SA: 11 points); a trick begun has no taker yet."""
    game = GAMES["skat"]
    screen = screen_for(game, game.rules({}), 1, 0)  # deal 0: seat 0 deals, seat 1 leads
    grand = screen.tricks(rows((A.DECLARE, 1, GRAND, 0), (A.PLAY, 1, skat_card("CJ"), 0),
                               (A.PLAY, 2, skat_card("HA"), 0), (A.PLAY, 0, skat_card("SJ"), 0),
                               (A.PLAY, 1, skat_card("C7"), 0)))
    assert [(t.label, t.winner, t.points, t.complete) for t in grand] == \
        [("Trick 1", 1, 15, True), ("Trick 2", None, 0, False)]
    assert [(c.place, c.card) for c in grand[0].cards] == [(1, "CJ"), (2, "HA"), (0, "SJ")]
    hearts = screen.tricks(rows((A.DECLARE, 1, HEARTS, 0), (A.PLAY, 1, skat_card("S7"), 0),
                                (A.PLAY, 2, skat_card("SA"), 0), (A.PLAY, 0, skat_card("H7"), 0)))
    assert (hearts[0].winner, hearts[0].points) == (0, 11)
    places = screen.places()
    assert [(p.name, p.position, p.dealer, p.you) for p in places] == [
        ("Seat 0", "rearhand", True, False), ("You", "forehand", False, True),
        ("Seat 2", "middlehand", False, False)]


def test_skat_en_deux_puts_the_blind_between_its_players() -> None:
    """Deal 1: player 1 deals (rearhand), player 0 is forehand; a card from the blind is
    the blind's place, whoever plays it."""
    game = GAMES["skat_en_deux"]
    screen = screen_for(game, game.rules({}), 0, 1)
    places = screen.places()
    assert [(p.name, p.position, p.dealer) for p in places] == [
        ("You", "forehand", False), ("The blind", "the blind", False),
        ("Player 1", "rearhand", True)]
    tricks = screen.tricks(rows((A.DECLARE, 0, GRAND, 0), (A.PLAY, 0, skat_card("SJ"), 0),
                                (A.PLAY, 1, skat_card("CJ"), 1), (A.PLAY, 1, skat_card("ST"), 0)))
    assert [c.place for c in tricks[0].cards] == [0, 1, 2]
    assert (tricks[0].winner, tricks[0].points) == (1, 14)


def test_duel_tricks_by_hand() -> None:
    """The duel: DJ (a trump) from player 1's pyramid position p3 takes player 0's CA,
    11 + 2 = 13 points; the card says where it came from."""
    game = GAMES["doko_duell"]
    deck = game.deck
    screen = screen_for(game, game.rules({}), 0, 0)
    tricks = screen.tricks(rows((A.PLAY, 0, deck.index("CA"), 0), (A.PLAY, 1, deck.index("DJ"), 4)))
    assert (tricks[0].winner, tricks[0].points, tricks[0].cards[1].where) == (1, 13, "p3")
    assert screen.narrate(rows((A.PLAY, 0, deck.index("CA"), 0),
                               (A.PLAY, 1, deck.index("DJ"), 4)))[-1] == \
        "  trick 1 to player 1 (13 points)"

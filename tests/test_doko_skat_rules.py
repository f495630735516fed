"""Golden cases for Doko-Skat (``doko_skat``), worked out by hand from RULES.md (section
``doko_skat``, seed 004).

Four levels:

* the rule pieces with hand-made inputs: the game a turned-up card sets, every game type's
  trick order and follow duty (every pair of cards), the teams, the lone player's both
  copies under each ``both_copies`` reading, the declaration order, the Spitzen by copies
  and by ranks, the scoring bands and the settlement (the tie with and without special
  points);
* a referee written here from RULES.md alone (its own trump orders, teams, declaration order,
  redeal, Spitzen and settlement) that replays recorded deals decision by decision and must
  agree with every result column;
* scripted deals the referee plays (every seat passing, so the redeal and the whole
  declaration order; a declarer in each turn; a lone declarer putting his top trumps away)
  that the engine must accept and score as the referee does;
* searches through dealt and played deals for the situations the rules single out (each way
  the turned-up card's copies can lie, ties, sweeps of the first round), each then checked.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import numpy as np
import pytest

from sim import actions as A
from sim.cards import DOKO_DECK_48, SUITS
from sim.engine.kernel import E_ILLEGAL, E_MISMATCH
from sim.engine.play import play
from sim.games.doko_skat.values import (
    BAND_POINTS,
    EFF,
    GAME_LABELS,
    STRENGTH,
    SUIT_MASKS,
    TEAM_CARDS,
    band,
    both_copies_at,
    declaration_order,
    game_of_card,
    holds_both,
    settle,
    settle_terms,
    special_points,
    spitzen,
    table_of,
    teams,
)
from sim.registry import find_game
from sim.tricks import legal_mask, trick_winner

D = DOKO_DECK_48
NAMES = D.names
KINDS = D.n_kinds
FULL = D.full
GAME = find_game("doko_skat")
RANDOM = ["random"] * 3

# --- the rules, written out from RULES.md -------------------------------------------------------

CARD_POINTS = [{"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}[n[1]] for n in NAMES]
JACKS = ("CJ", "SJ", "HJ", "DJ")
PLAIN = "ATKQ9"
"""Every plain suit in a suit game and in grand, highest first."""
BRIDGE = {"natural": "AKQJT9", "skat": "ATKQJ9"}
"""Every suit's order in a bridge (``bridge_order``), highest first."""
PAIR, LONE = 0, 1
"""Side codes of the ``declaring_side`` and ``winner_side`` columns (``SIDES``)."""
GAME_TYPES = ("suit", "grand", "bridge")
"""Type codes of the ``game`` and ``fr_game`` columns."""
BOTH_COPIES = ("team_cards", "stock", "skat")
"""``both_copies``'s values, by option code."""
PLACES = ("first_round", "stock", "skat")
"""Codes of the ``lone_both_by`` column (-1: null)."""


def bits(mask: int) -> list[int]:
    """The cards of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def count(mask: int) -> int:
    return int(mask).bit_count()


def points(mask: int) -> int:
    return sum(CARD_POINTS[c] for c in bits(mask))


def parse(text: str) -> int:
    return D.parse(text)


def copies(kind: int) -> int:
    """Both copies of a card."""
    return 1 << kind % KINDS | 1 << (kind % KINDS + KINDS)


def kinds(mask: int) -> set[int]:
    return {c % KINDS for c in bits(mask)}


@dataclass(frozen=True)
class Rule:
    """A game type by RULES.md: its trumps from the highest down, its plain order."""

    kind: str
    suit: str = ""
    bridge_order: str = "natural"

    @functools.cached_property
    def trumps(self) -> tuple[str, ...]:
        if self.kind == "grand":
            return JACKS
        if self.kind == "suit":
            return JACKS + tuple(self.suit + r for r in PLAIN)
        return tuple(self.suit + r for r in BRIDGE[self.bridge_order])

    @functools.cached_property
    def plain(self) -> str:
        return BRIDGE[self.bridge_order] if self.kind == "bridge" else PLAIN

    @functools.cached_property
    def suit_of(self) -> tuple[str, ...]:
        """Each card's effective suit: ``"trump"`` or its suit letter."""
        return tuple("trump" if n in self.trumps else n[0] for n in NAMES)

    @functools.cached_property
    def height(self) -> tuple[int, ...]:
        """Each card's height in its effective suit (higher beats lower)."""
        return tuple(100 - self.trumps.index(n) if n in self.trumps else 10 - self.plain.index(n[1])
                     for n in NAMES)

    @functools.cached_property
    def follow(self) -> dict[str, int]:
        """Mask of each effective suit."""
        out: dict[str, int] = {}
        for c, s in enumerate(self.suit_of):
            out[s] = out.get(s, 0) | 1 << c
        return out

    def legal(self, hand: int, led: int | None) -> int:
        """Cards of ``hand`` that may be played to ``led`` (None: leading)."""
        if led is None:
            return hand
        return hand & self.follow[self.suit_of[led]] or hand

    def winner(self, trick: list[int]) -> int:
        """Position of the winning card: the highest trump, else the highest card of the led
        suit; of two identical cards the one played first (only a higher card beats)."""
        best = 0
        for k in range(1, len(trick)):
            c, b = trick[k], trick[best]
            if self.suit_of[c] in ("trump", self.suit_of[b]) and (
                    self.suit_of[b] != self.suit_of[c] or self.height[c] > self.height[b]):
                best = k
        return best


CODES = [("suit", s) for s in SUITS] + [("grand", "")] + [("bridge", s) for s in SUITS]
"""A declaration's game code (``DECLARE`` rows) -> (type, trump suit)."""


def rule(code: int, bridge_order: str = "natural") -> Rule:
    return Rule(*CODES[code], bridge_order)


def turned_game(card: int) -> int:
    """The game a turned-up card sets: K, T or 9 a suit game, A a bridge in its suit, Q or J
    grand."""
    suit, rank = NAMES[card % KINDS]
    if rank in "QJ":
        return CODES.index(("grand", ""))
    return CODES.index(("bridge" if rank == "A" else "suit", suit))


def ref_teams(first_round: list[int], stocks: list[int], turned: int, team_cards: str,
              won: list[int] | None = None) -> int:
    """The lone player: the holders of the turned-up card have a copy among the first-round
    cards (``team_cards = all``: anywhere in their cards; ``won``: among the cards of the
    first-round tricks they took, ``won[s]``); two holders play against the third, a single
    holder alone."""
    looked = {"first_round": first_round, "all": [first_round[s] | stocks[s] for s in range(3)],
              "won": won}[team_cards]
    assert looked is not None
    holders = [s for s in range(3) if looked[s] & copies(turned)]
    return holders[0] if len(holders) == 1 else next(s for s in range(3) if s not in holders)


def ref_lone_both(first_round: int, stock: int, skat: int, turned: int, reading: str,
                  team_cards: str, won: int = 0) -> bool:
    """The lone player holds both copies of the turned-up card under ``both_copies``
    ``reading``: among the cards team_cards looks at (his first-round cards, with his stock
    under ``team_cards = all``, the cards of the first-round tricks he took, ``won``, under
    ``won``), among his first-round cards and his stock, or among those and the skat he
    takes."""
    by_teams = {"first_round": first_round, "all": first_round | stock, "won": won}[team_cards]
    looked = {"team_cards": by_teams, "stock": first_round | stock,
              "skat": first_round | stock | skat}[reading]
    return count(looked & copies(turned)) == 2


def ref_both_by(first_round: int, stock: int, skat: int, turned: int) -> int:
    """The ``lone_both_by`` column: the first of his first-round cards, with his stock,
    with the skat too, that holds both copies (-1: none)."""
    held = [first_round, first_round | stock, first_round | stock | skat]
    return next((k for k, cards in enumerate(held) if count(cards & copies(turned)) == 2), -1)


def ref_order(tricks: list[int], lone: int, forehand: int) -> list[int]:
    """Who names a game first: the pair members by first-round tricks (tie: nearer forehand);
    the pair first when it took two tricks or more (then the lone player between them)."""
    members = sorted((s for s in range(3) if s != lone), key=lambda s: (-tricks[s], (s - forehand) % 3))
    if tricks[members[0]] + tricks[members[1]] >= 2:
        return [members[0], lone, members[1]]
    return [lone, *members]


def ref_spitzen(cards: int, game: Rule, reading: str = "copies") -> int:
    """Consecutive top trumps held: by copies each copy one, stopping at the first trump not
    held twice; by ranks each trump held at all one, stopping at the first not held at all."""
    n = 0
    for name in game.trumps:
        held = count(cards & copies(NAMES.index(name)))
        if reading == "ranks":
            if not held:
                break
            n += 1
            continue
        n += held
        if held < 2:
            break
    return n


SEED_BANDS = {"90": 2, "60": 3, "30": 4, "under_30": 6, "zero": 8}
"""RULES.md's points for each winner by the losers' card points, as the ``points_band_*``
options name the bands."""


def ref_band(loser_points: int, bands: dict[str, int] = SEED_BANDS) -> int:
    """2; 3 under 90; 4 under 60; 6 under 30; 8 with no card points (or what ``bands``
    says)."""
    if loser_points == 0:
        return bands["zero"]
    return bands["under_30" if loser_points < 30 else "30" if loser_points < 60
                 else "60" if loser_points < 90 else "90"]


def ref_settle(points_pair: int, points_lone: int, declaring: int, grand: bool, n_spitzen: int,
               special_pair: int, special_lone: int, tie_special: bool, zero_sum: bool,
               bands: dict[str, int] = SEED_BANDS) -> dict[str, int]:
    """The result by RULES.md: winner side, tie, what each player of the scoring side
    scores, the scores of a pair member and of the lone player. A tie: the non-declaring
    side 1, with ``tie_special_points`` plus its special points, never Spitzen. ``bands``:
    the points of each band (the ``points_band_*`` options)."""
    if points_pair == points_lone:
        if declaring < 0:
            return {"winner_side": -1, "tie": 1, "value": 0, "pair": 0, "lone": 0}
        winner, scoring, value = -1, 1 - declaring, 1
        if tie_special:
            value += special_pair if scoring == PAIR else special_lone
    else:
        winner = scoring = PAIR if points_pair > points_lone else LONE
        value = ref_band(points_lone if winner == PAIR else points_pair, bands)
        if declaring == winner:
            value += n_spitzen * (2 if grand else 1)
        value += special_pair if winner == PAIR else special_lone
    sign = 1 if scoring == PAIR else -1
    pair = sign * value if zero_sum else (value if scoring == PAIR else 0)
    lone = -2 * sign * value if zero_sum else (value if scoring == LONE else 0)
    return {"winner_side": winner, "tie": int(winner < 0), "value": value, "pair": pair, "lone": lone}


# --- the rule pieces -------------------------------------------------------------------------------

def test_game_codes_are_as_labelled() -> None:
    assert [f"{k} {s}".strip() for k, s in CODES] == list(GAME_LABELS)


@pytest.mark.parametrize(("name", "game"), [
    ("CK", "suit C"), ("ST", "suit S"), ("H9", "suit H"), ("DK", "suit D"), ("D9", "suit D"),
    ("CA", "bridge C"), ("HA", "bridge H"), ("DA", "bridge D"),
    ("CQ", "grand"), ("SQ", "grand"), ("HJ", "grand"), ("DJ", "grand")])
def test_a_turned_up_card_sets_the_game(name: str, game: str) -> None:
    for card in (D.index(name), D.index(name) + KINDS):
        assert GAME_LABELS[game_of_card(card)] == game, (name, card)


def test_every_card_sets_the_game_its_rank_says() -> None:
    for card in range(D.n_cards):
        assert game_of_card(card) == turned_game(card), NAMES[card]


def engine_order(code: int, bridge_skat: bool, suit: str) -> str:
    """The engine's strength order of one effective suit (``"trump"`` or a suit letter),
    highest first, both copies written."""
    table = table_of(code, bridge_skat)
    eff = 4 if suit == "trump" else SUITS.index(suit)
    cards = [c for c in range(D.n_cards) if EFF[table, c] == eff]
    return " ".join(NAMES[c] for c in sorted(cards, key=lambda c: (-STRENGTH[table, c], c)))


@pytest.mark.parametrize(("game", "bridge_order", "suit", "order"), [
    ("suit H", "natural", "trump", "CJ CJ SJ SJ HJ HJ DJ DJ HA HA HT HT HK HK HQ HQ H9 H9"),
    ("suit H", "natural", "C", "CA CA CT CT CK CK CQ CQ C9 C9"),
    ("suit C", "natural", "trump", "CJ CJ SJ SJ HJ HJ DJ DJ CA CA CT CT CK CK CQ CQ C9 C9"),
    ("suit D", "natural", "S", "SA SA ST ST SK SK SQ SQ S9 S9"),
    ("grand", "natural", "trump", "CJ CJ SJ SJ HJ HJ DJ DJ"),
    ("grand", "natural", "D", "DA DA DT DT DK DK DQ DQ D9 D9"),
    ("bridge H", "natural", "trump", "HA HA HK HK HQ HQ HJ HJ HT HT H9 H9"),
    ("bridge H", "natural", "C", "CA CA CK CK CQ CQ CJ CJ CT CT C9 C9"),
    ("bridge H", "skat", "trump", "HA HA HT HT HK HK HQ HQ HJ HJ H9 H9"),
    ("bridge H", "skat", "S", "SA SA ST ST SK SK SQ SQ SJ SJ S9 S9"),
    ("bridge C", "skat", "D", "DA DA DT DT DK DK DQ DQ DJ DJ D9 D9"),
])
def test_trick_orders_as_written_in_the_rules(game: str, bridge_order: str, suit: str, order: str) -> None:
    code = GAME_LABELS.index(game)
    assert engine_order(code, bridge_order == "skat", suit) == order


@pytest.mark.parametrize("bridge_order", ["natural", "skat"])
@pytest.mark.parametrize("code", range(len(CODES)))
def test_every_two_cards_and_every_follow_duty(code: int, bridge_order: str) -> None:
    """Every led card against every other card (both copies, both orders of play): the engine's
    winner and the cards that must follow are the rules'."""
    game = rule(code, bridge_order)
    table = table_of(code, bridge_order == "skat")
    eff, strength, masks = EFF[table], STRENGTH[table], SUIT_MASKS[table]
    for led in range(D.n_cards):
        follow = game.follow[game.suit_of[led]]
        assert int(masks[eff[led]]) == follow, (game, NAMES[led])
        assert int(legal_mask(np.uint64(FULL & ~follow), led, eff, masks)) == FULL & ~follow
        for other in range(D.n_cards):
            if other != led:
                trick = np.array([led, other], np.int64)
                assert trick_winner(trick, 2, eff, strength) == game.winner([led, other]), \
                    (game, NAMES[led], NAMES[other])


@pytest.mark.parametrize(("game", "bridge_order", "trick", "winner"), [
    ("suit H", "natural", "HA CJ HT", 1),   # the jacks are the highest trumps
    ("suit H", "natural", "HJ HJ CJ", 2),
    ("suit H", "natural", "SA ST H9", 2),   # the lowest trump beats a plain ace
    ("suit H", "natural", "DT CA D9", 0),   # a card of another plain suit never wins
    ("suit H", "natural", "CJ CJ SJ", 0),   # of two identical cards the first played wins
    ("suit S", "natural", "SK SQ ST", 2),   # trump suit A T K Q 9
    ("grand", "natural", "HA H9 DJ", 2),    # grand: only the jacks are trumps
    ("grand", "natural", "HQ HK H9", 1),    # plain A T K Q 9
    ("grand", "natural", "DJ DJ CA", 0),
    ("bridge H", "natural", "HT HJ H9", 1),  # natural: A K Q J T 9
    ("bridge H", "skat", "HT HJ H9", 0),     # skat: A T K Q J 9
    ("bridge H", "natural", "CJ CT CA", 2),  # the jacks belong to their suits
    ("bridge H", "natural", "CJ CT C9", 0),
    ("bridge H", "skat", "CJ CT C9", 1),
    ("bridge H", "natural", "SK SA H9", 2),  # only the named suit is trump
    ("bridge D", "skat", "DA DA DT", 0),
    ("bridge C", "natural", "HA HA HK", 0),
])
def test_golden_tricks(game: str, bridge_order: str, trick: str, winner: int) -> None:
    code = GAME_LABELS.index(game)
    table = table_of(code, bridge_order == "skat")
    cards = []
    for name in trick.split():
        cards.append(D.index(name, sum(1 << c for c in cards)))
    assert trick_winner(np.array(cards, np.int64), 3, EFF[table], STRENGTH[table]) == winner
    assert rule(code, bridge_order).winner(cards) == winner


@pytest.mark.parametrize(("game", "led", "hand", "legal"), [
    ("suit H", "CA", "CJ HA D9", "CJ HA D9"),  # CJ is a trump, not a club: no club to follow
    ("suit H", "HA", "CJ SA D9", "CJ"),        # a trump led asks for trump; the jacks are trumps
    ("grand", "HA", "HJ H9 DA", "H9"),         # HJ is a trump in grand
    ("bridge H", "CA", "CJ HA", "CJ"),         # in a bridge CJ is a club
    ("bridge H", "HA", "CJ DJ", "CJ DJ"),      # ... and no trump
    ("bridge S", "SJ", "SA C9", "SA"),
])
def test_golden_follow_duty(game: str, led: str, hand: str, legal: str) -> None:
    table = table_of(GAME_LABELS.index(game), 0)
    got = legal_mask(np.uint64(parse(hand)), D.index(led, parse(hand)), EFF[table], SUIT_MASKS[table])
    assert D.format(int(got)) == D.format(parse(legal))


# --- teams -----------------------------------------------------------------------------------------

def masks(*groups: str) -> list[int]:
    """Hand-made card sets, each card a physical copy not used by an earlier set."""
    taken = 0
    out = []
    for text in groups:
        m = 0
        for name in text.split():
            m |= 1 << D.index(name, taken | m)
        taken |= m
        out.append(m)
    return out


@pytest.mark.parametrize(("first_round", "stocks", "by_first_round", "by_all"), [
    # two different holders play together against the third
    (["CK HA S9", "DT DT D9", "CK SA SQ"], ["", "", ""], (1, False), (1, False)),
    # one holder with one copy, the other in the skat: he plays alone
    (["HA S9 D9", "DT DT DQ", "CK SA SQ"], ["", "", ""], (2, False), (2, False)),
    # ... the other copy in another player's stock: alone by the first-round cards only
    (["HA S9 D9", "DT DT DQ", "CK SA SQ"], ["CK", "", ""], (2, False), (1, False)),
    (["HA S9 D9", "DT DT DQ", "CK SA SQ"], ["", "CK", ""], (2, False), (0, False)),
    # ... in his own stock: alone either way, and with both copies under team_cards = all
    (["HA S9 D9", "DT DT DQ", "CK SA SQ"], ["", "", "CK"], (2, False), (2, True)),
    # one holder with both copies: alone, with the special point
    (["HA S9 D9", "CK CK DQ", "DT SA SQ"], ["", "", ""], (1, True), (1, True)),
    (["CK CK DQ", "HA S9 D9", "DT SA SQ"], ["", "", ""], (0, True), (0, True)),
])
def test_golden_teams(first_round: list[str], stocks: list[str], by_first_round: tuple[int, bool],
                      by_all: tuple[int, bool]) -> None:
    cards = masks(*first_round, *stocks)
    fr, st = cards[:3], cards[3:]
    turned = next(c for c in bits(fr[0] | fr[1] | fr[2]) if NAMES[c] == "CK")
    for team_cards, expected in (("first_round", by_first_round), ("all", by_all)):
        code = TEAM_CARDS.index(team_cards)
        lone = teams(np.array(fr, np.uint64), np.array(st, np.uint64), turned, code, NO_COPIES)
        at = both_copies_at(np.uint64(fr[lone]), np.uint64(st[lone]), np.uint64(0), turned)
        assert (int(lone), bool(holds_both(at, BOTH_COPIES.index("team_cards"), code, 0))) == expected
        ref = ref_teams(fr, st, turned, team_cards)
        assert (ref, ref_lone_both(fr[ref], st[ref], 0, turned, "team_cards", team_cards)) == expected


NO_COPIES = np.zeros(3, np.int64)
"""No copy of the turned-up card taken in the first round (what ``team_cards = won`` reads)."""


@pytest.mark.parametrize(("tricks", "lone", "lone_both"), [
    # team_cards = won: the takers of the turned-up card's copies (CK) in the first round.
    # Seat 0 holds CK and plays it under seat 1's ace, seat 2 takes the other CK: seats 1 and
    # 2 play together, though seat 0 holds a copy (by first_round he was in the pair)
    (((("CK", "CA", "C9"), 1), (("D9", "DA", "CK"), 2)), 0, False),
    # one taker of one copy, the other copy never played (in a stock or the skat): he is alone
    (((("CK", "CA", "C9"), 1),), 1, False),
    # one taker of both copies, in two tricks or in one: alone, and he "has" both
    (((("CK", "CA", "C9"), 1), (("CK", "DA", "D9"), 1)), 1, True),
    (((("CK", "CK", "CA"), 2),), 2, True),
    # two copies taken by the two others: the seat that took none is the lone player
    (((("CK", "C9", "CA"), 2), (("CK", "DA", "D9"), 1)), 0, False),
])
def test_golden_teams_by_the_copies_taken(tricks: tuple, lone: int, lone_both: bool) -> None:
    """``team_cards = won`` reads the first-round tricks, not the cards dealt: each trick's
    cards and its taker by hand; the kernel's ``teams`` and the referee agree."""
    turned = D.index("CK")
    taken = np.zeros(3, np.int64)
    won = [0, 0, 0]
    for cards, taker in tricks:
        mask = masks(" ".join(cards))[0]
        taken[taker] += count(mask & copies(turned))
        won[taker] |= mask
    code = TEAM_CARDS.index("won")
    nobody = np.zeros(3, np.uint64)
    assert teams(nobody, nobody, turned, code, taken) == lone
    assert ref_teams([0, 0, 0], [0, 0, 0], turned, "won", won) == lone
    # the both_copies team_cards reading: he took both; stock and skat look at his cards
    for at in (-1, 0, 1, 2):
        assert holds_both(at, BOTH_COPIES.index("team_cards"), code, taken[lone]) == lone_both
        assert holds_both(at, BOTH_COPIES.index("stock"), code, taken[lone]) == (0 <= at <= 1)


@pytest.mark.parametrize(("lone_cards", "at", "holds"), [
    # (his first-round cards, his stock, the skat) -> where they first hold both CK, and
    # whether each both_copies reading sees both (team_cards: under team_cards first_round, all)
    (("CK CK D9", "HA SA", "DT DQ"), "first_round",
     {"team_cards": (True, True), "stock": True, "skat": True}),
    # the other copy in his stock: the seed's plain "wenn er alle beide hat"
    (("CK S9 D9", "CK HA SA", "DT DQ"), "stock",
     {"team_cards": (False, True), "stock": True, "skat": True}),
    # the other copy in the skat he takes
    (("CK S9 D9", "HA SA", "CK DT DQ"), "skat",
     {"team_cards": (False, False), "stock": False, "skat": True}),
    # the other copy elsewhere: never
    (("CK S9 D9", "HA SA", "DT DQ"), None,
     {"team_cards": (False, False), "stock": False, "skat": False}),
])
def test_golden_both_copies(lone_cards: tuple[str, str, str], at: str | None, holds: dict) -> None:
    fr, st, sk = masks(*lone_cards)
    turned = next(c for c in bits(fr) if NAMES[c] == "CK")
    code = PLACES.index(at) if at else -1
    assert both_copies_at(np.uint64(fr), np.uint64(st), np.uint64(sk), turned) == code
    assert ref_both_by(fr, st, sk, turned) == code
    for reading, expected in holds.items():
        for all_cards, team_cards in enumerate(("first_round", "all")):
            want = expected[all_cards] if reading == "team_cards" else expected
            assert holds_both(code, BOTH_COPIES.index(reading), all_cards, 0) == want, (reading, team_cards)
            assert ref_lone_both(fr, st, sk, turned, reading, team_cards) == want, (reading, team_cards)


def test_golden_the_special_point_for_both_copies_by_reading() -> None:
    """The lone player holds one CK (the turned-up card) among his first-round cards, the
    other in his stock, took one first-round trick, declares a suit game without Spitzen and
    wins 130 : 110. Band 2; under the stock or skat reading 1 special point for both
    copies, 3 in all; under team_cards (his first-round cards only) 2. With the other CK in
    the skat and all three first-round tricks: 2 + 1 for the tricks, + 1 under skat only."""
    fr, st, sk = masks("CK S9 D9", "CK HA SA", "DT DQ D9")
    turned = next(c for c in bits(fr) if NAMES[c] == "CK")
    at = both_copies_at(np.uint64(fr), np.uint64(st), np.uint64(sk), turned)
    for reading, value in (("team_cards", 2), ("stock", 3), ("skat", 3)):
        special = special_points(holds_both(at, BOTH_COPIES.index(reading), 0, 0), 1, False)
        assert special == (0, value - 2), reading
        assert settle(110, 130, LONE, False, 0, *special, True, False, BAND_POINTS) == \
            (LONE, False, value, 0, value)
    fr, st, sk = masks("CK S9 D9", "HA SA", "CK DT DQ")
    at = both_copies_at(np.uint64(fr), np.uint64(st), np.uint64(sk), turned)
    for reading, value in (("team_cards", 3), ("stock", 3), ("skat", 4)):
        special = special_points(holds_both(at, BOTH_COPIES.index(reading), 0, 0), 3, False)
        assert settle(100, 140, LONE, False, 0, *special, True, False, BAND_POINTS) == \
            (LONE, False, value, 0, value)
    # a redeal earns no special point, whatever the cards
    assert special_points(True, 3, True) == (0, 0)


@dataclass
class Dealt:
    """A deal's cards as the result columns give them (``extra`` and ``second``: the redeal,
    None while unknown)."""

    deal: int
    stocks: list[int]
    skat: int
    first_round: list[int]
    turned: int
    second: int = -1
    extra: list[int] | None = None

    @property
    def forehand(self) -> int:
        return (self.deal + 1) % 3

    @staticmethod
    def of(columns: dict[str, np.ndarray], i: int) -> Dealt:
        c = {k: int(v[i]) for k, v in columns.items()}
        redealt = bool(c["nobody_declared"])
        return Dealt(c["deal"], [c[f"stock_{s}"] for s in range(3)], c["skat"],
                     [c[f"first_round_{s}"] for s in range(3)], c["turned_up"],
                     c["second_turned_up"], [c[f"extra_{s}"] for s in range(3)] if redealt else None)


@functools.cache
def dealt_cards(seed: int, first: int, n: int) -> tuple[Dealt, ...]:
    """The cards of deals ``first .. first + n - 1`` (the same whatever is decided)."""
    columns = play(GAME, seed, first, n, GAME.rules(), RANDOM).columns
    return tuple(dataclasses.replace(Dealt.of(columns, i), second=-1, extra=None) for i in range(n))


def place(d: Dealt, card: int) -> tuple[str, int]:
    """Where a card was dealt: ``("first_round" | "stock", seat)`` or ``("skat", -1)``."""
    for s in range(3):
        if d.first_round[s] >> card & 1:
            return "first_round", s
        if d.stocks[s] >> card & 1:
            return "stock", s
    return "skat", -1


def team_case(d: Dealt) -> tuple[str, int, int]:
    """How the turned-up card's copies lie: the case, the first-round holder (both copies'
    one if they differ) and the other copy's seat."""
    (where_a, a), (where_b, b) = sorted((place(d, c) for c in bits(copies(d.turned))),
                                        key=lambda p: p[0] != "first_round")
    if where_b == "first_round":
        return ("first_round_both" if a == b else "two_first_round_holders"), a, b
    if where_b == "skat":
        return "other_in_skat", a, b
    return ("other_in_own_stock" if a == b else "other_in_other_stock"), a, b


EXPECTED_TEAMS = {
    # case: (under team_cards = first_round, under all): "holder" alone or "pair" of a and b,
    # and whether the lone player has both copies (both_copies = team_cards); then where
    # the lone player's cards first hold both (lone_both_by, either team_cards)
    "two_first_round_holders": (("pair", False), ("pair", False), -1),
    "first_round_both": (("holder", True), ("holder", True), PLACES.index("first_round")),
    "other_in_skat": (("holder", False), ("holder", False), PLACES.index("skat")),
    "other_in_own_stock": (("holder", False), ("holder", True), PLACES.index("stock")),
    "other_in_other_stock": (("holder", False), ("pair", False), -1),
}


@pytest.mark.parametrize("team_cards", ["first_round", "all"])
def test_teams_in_every_case_the_deal_can_make(team_cards: str) -> None:
    """The turned-up card is among the nine first-round cards; its other copy lies anywhere:
    each case the deal makes, with every seat as the holder, forms the teams it must."""
    n = 3000
    rules = GAME.rules({"team_cards": team_cards})
    c = play(GAME, 3, 0, n, rules, RANDOM).columns
    seen: Counter = Counter()
    for i, d in enumerate(dealt_cards(3, 0, n)):
        assert any(d.first_round[s] & copies(d.turned) for s in range(3)), "turned card not in the nine"
        case, a, b = team_case(d)
        who, both = EXPECTED_TEAMS[case][team_cards == "all"]
        lone = a if who == "holder" else 3 - a - b
        assert (int(c["lone"][i]), bool(c["lone_both"][i])) == (lone, both), (i, case)
        assert c["lone_both_by"][i] == EXPECTED_TEAMS[case][2], (i, case)
        assert sorted((int(c["pair_0"][i]), int(c["pair_1"][i]))) == sorted({0, 1, 2} - {lone})
        seen[case, a] += 1
    assert all(seen[case, s] >= 5 for case in EXPECTED_TEAMS for s in range(3)), seen


# --- declaration order -----------------------------------------------------------------------------

@pytest.mark.parametrize(("tricks", "lone", "forehand", "order"), [
    ([0, 2, 1], 0, 1, [1, 0, 2]),  # pair first, the member with more tricks leads off
    ([0, 1, 2], 0, 1, [2, 0, 1]),
    ([1, 1, 1], 0, 1, [1, 0, 2]),  # pair 1:1, seat 1 is forehand
    ([1, 1, 1], 0, 2, [2, 0, 1]),  # seat 2 is forehand
    ([1, 1, 1], 0, 0, [1, 0, 2]),  # the lone player is forehand: seat 1 sits before seat 2
    ([0, 3, 0], 0, 2, [1, 0, 2]),
    ([0, 2, 0], 1, 0, [1, 0, 2]),  # lone first (two tricks), the members 0:0, seat 0 forehand
    ([0, 2, 0], 1, 2, [1, 2, 0]),
    ([2, 0, 1], 0, 1, [0, 2, 1]),  # lone first, then the member with more tricks
    ([3, 0, 0], 0, 2, [0, 2, 1]),  # lone first, tie: nearer forehand
    ([3, 0, 0], 0, 1, [0, 1, 2]),
    ([0, 1, 2], 2, 0, [2, 1, 0]),
    ([1, 0, 2], 2, 1, [2, 0, 1]),
])
def test_golden_declaration_order(tricks: list[int], lone: int, forehand: int, order: list[int]) -> None:
    got = np.zeros(3, np.int64)
    declaration_order(np.array(tricks, np.int64), lone, forehand, got)
    assert got.tolist() == order
    assert ref_order(tricks, lone, forehand) == order


def test_declaration_order_in_every_case() -> None:
    splits = [(a, b, 3 - a - b) for a in range(4) for b in range(4 - a)]
    got = np.zeros(3, np.int64)
    for tricks in splits:
        for lone in range(3):
            for forehand in range(3):
                declaration_order(np.array(tricks, np.int64), lone, forehand, got)
                assert got.tolist() == ref_order(list(tricks), lone, forehand), (tricks, lone, forehand)


# --- scoring ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("loser_points", "value"), [
    (120, 2), (91, 2), (90, 2), (89, 3), (60, 3), (59, 4), (30, 4), (29, 6), (1, 6), (0, 8)])
def test_bands_and_their_boundaries(loser_points: int, value: int) -> None:
    assert band(loser_points) == value == ref_band(loser_points)


@pytest.mark.parametrize(("game", "bridge_order", "cards", "by_copies", "by_ranks"), [
    # by copies one copy of SJ counts and stops the run; by ranks DJ, held by neither, stops it
    ("suit H", "natural", "CJ CJ SJ HJ HJ", 3, 3),
    ("suit H", "natural", "CJ SJ SJ HJ HJ", 1, 3),  # one copy of the top trump: 1 by copies
    ("suit H", "natural", "SJ SJ HJ HJ", 0, 0),     # no CJ: none either way
    ("suit H", "natural", "CJ SJ HJ DJ HA", 1, 5),  # one copy of each: a rank apiece
    ("suit H", "natural", "CJ CJ SJ SJ HJ HJ DJ DJ HA HA HT HT HK HK HQ HQ H9 H9", 18, 9),
    ("suit C", "natural", "CJ CJ SJ SJ HJ HJ DJ DJ CA CT CT", 9, 6),
    ("grand", "natural", "CJ CJ SJ SJ HJ HJ DJ DJ", 8, 4),
    ("grand", "natural", "CJ CJ SJ HA HA", 3, 2),
    ("grand", "natural", "CJ SJ SJ HJ DJ DJ", 1, 4),
    ("bridge H", "natural", "HA HA HT HT HK", 3, 2),  # A K Q J T 9: HK after the aces
    ("bridge H", "skat", "HA HA HT HT HK", 5, 3),     # A T K Q J 9
    ("bridge H", "natural", "HA HK HK HQ HJ HT H9", 1, 6),
    ("bridge D", "natural", "DA DA DK DK DQ DQ DJ DJ DT DT D9", 11, 6),
])
def test_golden_spitzen(game: str, bridge_order: str, cards: str, by_copies: int, by_ranks: int) -> None:
    code = GAME_LABELS.index(game)
    for ranks, n in ((0, by_copies), (1, by_ranks)):
        assert spitzen(np.uint64(parse(cards)), table_of(code, bridge_order == "skat"), ranks) == n
        assert ref_spitzen(parse(cards), rule(code, bridge_order), ("copies", "ranks")[ranks]) == n


def test_golden_spitzen_of_the_declarer_alone() -> None:
    """``spitzen_of``: the pair declares a heart suit game; the declarer holds CJ SJ SJ HJ,
    his partner CJ DJ DJ, neither a heart. The side holds CJ CJ SJ SJ HJ DJ DJ: by copies 5
    (CJ CJ SJ SJ HJ, the second HJ missing), by ranks 4 (every jack, no HA); the declarer's
    own: by copies 1 (one CJ, the second missing), by ranks 3 (CJ SJ HJ, no DJ). Won
    151 : 89: band 3, plus the Spitzen."""
    declarer, partner = masks("CJ SJ SJ HJ CA", "CJ DJ DJ C9")
    hearts = table_of(GAME_LABELS.index("suit H"), False)
    side = np.uint64(declarer | partner)
    assert [spitzen(side, hearts, r) for r in (0, 1)] == [5, 4]
    assert [spitzen(np.uint64(declarer), hearts, r) for r in (0, 1)] == [1, 3]
    for n, value in ((5, 8), (4, 7), (1, 4), (3, 6)):
        assert settle(151, 89, PAIR, False, n, 0, 0, True, False, BAND_POINTS)[2] == value


def test_golden_spitzen_by_ranks_and_by_copies_in_one_settlement() -> None:
    """The pair declares grand holding CJ SJ SJ HJ DJ DJ and wins 150 : 90: band 2, and the
    Spitzen doubled in grand: by copies 1 (one CJ), 2 + 2 = 4; by ranks 4 (every jack), 2 + 8
    = 10."""
    cards = np.uint64(parse("CJ SJ SJ HJ DJ DJ"))
    grand = table_of(GAME_LABELS.index("grand"), False)
    for ranks, value in ((0, 4), (1, 10)):
        n = spitzen(cards, grand, ranks)
        assert settle(150, 90, PAIR, True, n, 0, 0, True, False, BAND_POINTS) == \
            (PAIR, False, value, value, 0)


@pytest.mark.parametrize(("args", "result"), [
    # (points pair, points lone, declaring side, grand, Spitzen, special pair, special lone,
    # tie_special_points) -> (winner side, tie, value, pair member's score, lone player's score)
    ((151, 89, PAIR, False, 2, 1, 0, True), (PAIR, False, 6, 6, 0)),     # 3 + 2 Spitzen + 1
    ((151, 89, PAIR, False, 2, 1, 0, False), (PAIR, False, 6, 6, 0)),    # (a win: no tie rule)
    ((150, 90, PAIR, False, 2, 0, 2, True), (PAIR, False, 4, 4, 0)),     # 90: no "under 90"
    ((110, 130, LONE, True, 3, 1, 2, True), (LONE, False, 10, 0, 10)),   # 2 + 2 x 3 + 2
    ((180, 60, LONE, True, 3, 1, 2, True), (PAIR, False, 4, 4, 0)),      # no Spitzen for defenders
    ((181, 59, PAIR, False, 0, 0, 1, True), (PAIR, False, 4, 4, 0)),
    ((211, 29, PAIR, True, 1, 0, 0, True), (PAIR, False, 8, 8, 0)),      # 6 + 2 x 1
    ((240, 0, LONE, False, 4, 1, 0, True), (PAIR, False, 9, 9, 0)),      # 8 + special
    ((0, 240, LONE, False, 4, 0, 0, True), (LONE, False, 12, 0, 12)),    # 8 + 4
    # a tie: the non-declaring side 1, never Spitzen; with tie_special_points its own
    # special points on top (not the declaring side's)
    ((120, 120, PAIR, True, 5, 1, 1, False), (-1, True, 1, 0, 1)),       # the lone player 1
    ((120, 120, PAIR, True, 5, 1, 1, True), (-1, True, 2, 0, 2)),        # ... 1 + 1
    ((120, 120, PAIR, True, 5, 0, 2, True), (-1, True, 3, 0, 3)),        # ... 1 + 2
    ((120, 120, LONE, False, 5, 1, 1, False), (-1, True, 1, 1, 0)),      # each pair member 1
    ((120, 120, LONE, False, 5, 1, 1, True), (-1, True, 2, 2, 0)),       # ... 1 + the pair's 1
    ((120, 120, LONE, False, 5, 0, 2, True), (-1, True, 1, 1, 0)),       # the lone's 2 do not count
    ((120, 120, -1, False, 0, 0, 0, True), (-1, True, 0, 0, 0)),         # no declaring side
    ((100, 100, PAIR, False, 2, 0, 0, True), (-1, True, 1, 0, 1)),       # first_round_points false
    ((130, 110, -1, False, 0, 0, 0, True), (PAIR, False, 2, 2, 0)),      # redeal: band only
    ((95, 105, PAIR, False, 2, 1, 1, True), (LONE, False, 3, 0, 3)),     # totals under 240
])
def test_golden_settlement(args: tuple, result: tuple) -> None:
    assert tuple(settle(*args, False, BAND_POINTS)) == result
    terms = settle_terms(*args, False, BAND_POINTS)
    assert terms[5] == terms[2] + terms[3] + terms[4] == result[2]  # band + Spitzen + special
    # zero_sum: the lone player wins or loses twice the value, each pair member once
    winner, tie, value, pair_score, lone_score = result
    zero_sum = (pair_score, -2 * pair_score) if pair_score else (-lone_score, 2 * lone_score)
    assert tuple(settle(*args, True, BAND_POINTS)) == (winner, tie, value, *zero_sum)
    for zs in (False, True):
        ref = ref_settle(*args, zs)
        assert tuple(settle(*args, zs, BAND_POINTS)) == (ref["winner_side"], bool(ref["tie"]),
                                                         ref["value"], ref["pair"], ref["lone"])


# --- the referee -----------------------------------------------------------------------------------

class Decisions(Protocol):
    """Who decides, as the referee asks: a card, a game code or None (pass), discards."""

    def card(self, seat: int, legal: int, hands: list[int]) -> int: ...

    def declaration(self, seat: int, turn: int, hands: list[int]) -> int | None: ...

    def discards(self, seats: list[int], n: int, hands: list[int]) -> list[tuple[int, int]]: ...


class NeedRedeal(Exception):
    """Everyone passed, and the redeal's cards are not known yet (``rows``: the actions so far)."""

    def __init__(self, rows: list[list[int]]) -> None:
        super().__init__("redeal cards unknown")
        self.rows = rows


class Replay:
    """A recorded deal's decisions, row by row, each checked for its kind and seat."""

    def __init__(self, actions: np.ndarray) -> None:
        self.rows = [[int(x) for x in r] for r in actions]
        self.at = 0

    def _next(self, kinds: tuple[int, ...], seat: int | None = None) -> list[int]:
        assert self.at < len(self.rows), "the deal ended before the rules do"
        row = self.rows[self.at]
        self.at += 1
        assert row[0] in kinds and seat in (None, row[1]), (row, kinds, seat)
        return row

    def card(self, seat: int, legal: int, hands: list[int]) -> int:
        return self._next((A.PLAY,), seat)[2]

    def declaration(self, seat: int, turn: int, hands: list[int]) -> int | None:
        row = self._next((A.PASS, A.DECLARE), seat)
        return row[2] if row[0] == A.DECLARE else None

    def discards(self, seats: list[int], n: int, hands: list[int]) -> list[tuple[int, int]]:
        return [(r[1], r[2]) for r in (self._next((A.DISCARD,)) for _ in seats)]


@dataclass
class Plan:
    """Scripted decisions: random legal cards and discards from ``seed``; the seat in turn
    ``declare_at`` (or the seat ``declarer``) names ``code``, if neither everyone passes;
    ``discard(seat, n, hand)`` picks a seat's discards when given."""

    seed: int
    declare_at: int | None = None
    code: int = 0
    declarer: int | None = None
    discard: Callable[[int, int, int], int] | None = None
    rng: random.Random = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def card(self, seat: int, legal: int, hands: list[int]) -> int:
        return self.rng.choice(bits(legal))

    def declaration(self, seat: int, turn: int, hands: list[int]) -> int | None:
        return self.code if turn == self.declare_at or seat == self.declarer else None

    def discards(self, seats: list[int], n: int, hands: list[int]) -> list[tuple[int, int]]:
        if self.discard is not None:
            return [(s, self.discard(s, n, hands[s])) for s in seats]
        return [(s, sum(1 << c for c in self.rng.sample(bits(hands[s]), n))) for s in seats]


def play_trick(leader: int, hands: list[int], game: Rule, decide: Decisions, rows: list[list[int]],
               taken: list[int], seen: Counter) -> tuple[int, int, int]:
    """One trick from ``leader``, every card legal and held: ``(winner, card points, its
    cards)``."""
    trick: list[int] = []
    for n in range(3):
        seat = (leader + n) % 3
        legal = game.legal(hands[seat], trick[0] if trick else None)
        card = decide.card(seat, legal, hands)
        assert legal >> card & 1, f"{NAMES[card]} by seat {seat} is not legal there"
        hands[seat] &= ~(1 << card)
        taken[seat] |= 1 << card
        trick.append(card)
        rows.append([A.PLAY, seat, card, 0])
    best = game.winner(trick)
    if any(NAMES[c] == NAMES[trick[best]] for c in trick[best + 1:]):
        seen["identical_best_first_wins"] += 1
    cards = sum(1 << c for c in trick)
    return (leader + best) % 3, points(cards), cards


def per_seat(name: str, values: list[int]) -> dict[str, int]:
    """Columns ``name_0 .. name_2``."""
    return {f"{name}_{s}": v for s, v in enumerate(values)}


def game_columns(code: int) -> tuple[int, int]:
    """The ``game`` and ``trump`` columns of a game code: its type, its trump suit (-1: grand)."""
    kind, suit = CODES[code]
    return GAME_TYPES.index(kind), SUITS.find(suit) if suit else -1


def check_deal(d: Dealt) -> int:
    """12 cards to each stock, 3 to the skat, 3 first-round cards each: 48 distinct cards, the
    turned-up card among the nine first-round cards. Returns those nine."""
    parts = [*d.stocks, d.skat, *d.first_round]
    assert [count(p) for p in parts] == [12, 12, 12, 3, 3, 3, 3]
    assert functools.reduce(int.__or__, parts) == FULL
    nine = d.first_round[0] | d.first_round[1] | d.first_round[2]
    assert d.turned in kinds(nine), "the turned-up card is shuffled back into the nine"
    return nine


def declare(order: list[int], decide: Decisions, hands: list[int], rows: list[list[int]]
            ) -> tuple[int, int, int]:
    """Each seat in ``order`` names a game or passes until one names it: ``(declarer, game
    code, his turn)``, all -1 when everyone passed."""
    for turn, seat in enumerate(order):
        named = decide.declaration(seat, turn, hands)
        if named is None:
            rows.append([A.PASS, seat, 0, 0])
            continue
        assert 0 <= named < len(CODES)
        rows.append([A.DECLARE, seat, named, 0])
        return seat, named, turn
    return -1, -1, -1


def put_away(seats: list[int], n: int, decide: Decisions, hands: list[int], rows: list[list[int]]
             ) -> list[int]:
    """Each of ``seats`` discards ``n`` of his cards: the discards per seat."""
    discards = [0, 0, 0]
    made = decide.discards(seats, n, hands)
    assert sorted(s for s, _ in made) == sorted(seats), made
    for seat, cards in made:
        assert count(cards) == n and not cards & ~hands[seat], (seat, D.format(cards))
        hands[seat] &= ~cards
        discards[seat] = cards
        rows.append([A.DISCARD, seat, cards, 0])
    return discards


class Round(NamedTuple):
    """A round of tricks, per seat: card points and tricks taken, the cards played and the
    cards of the tricks taken; and who took the last trick."""

    points: list[int]
    tricks: list[int]
    played: list[int]
    won: list[int]
    last: int


def play_round(n: int, leader: int, hands: list[int], game: Rule, decide: Decisions,
               rows: list[list[int]], seen: Counter) -> Round:
    """``n`` tricks from ``leader``, the winner leading the next."""
    done = Round([0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], -1)
    for _ in range(n):
        leader, won, cards = play_trick(leader, hands, game, decide, rows, done.played, seen)
        done.points[leader] += won
        done.tricks[leader] += 1
        done.won[leader] |= cards
    return done._replace(last=leader)


def referee(d: Dealt, rules: dict, decide: Decisions, seen: Counter | None = None
            ) -> tuple[dict[str, int], list[list[int]]]:
    """Play deal ``d`` by RULES.md with the decisions of ``decide``: the result columns it
    must have and its action rows. Every card, declaration and discard is checked as made."""
    seen = Counter() if seen is None else seen
    order, fh = rules["bridge_order"], d.forehand
    rows: list[list[int]] = []
    nine = check_deal(d)
    fr_code = turned_game(d.turned)
    exp = {"deal": d.deal, "dealer": d.deal % 3, "turned_up": d.turned, "replay_error": 0}
    exp["fr_game"], exp["fr_trump"] = game_columns(fr_code)

    # the first round: 3 tricks with the 3 cards, forehand leads; then the teams
    first = play_round(3, fh, list(d.first_round), rule(fr_code, order), decide, rows, seen)
    fr_points, fr_tricks = first.points, first.tricks
    lone = ref_teams(d.first_round, d.stocks, d.turned, rules["team_cards"], first.won)
    lone_cards = (d.first_round[lone], d.stocks[lone], d.skat, d.turned)
    both = ref_lone_both(*lone_cards, rules["both_copies"], rules["team_cards"], first.won[lone])
    pair = [s for s in range(3) if s != lone]
    special = [int(fr_tricks[pair[0]] + fr_tricks[pair[1]] == 3), int(both) + int(fr_tricks[lone] == 3)]
    exp |= {"pair_0": pair[0], "pair_1": pair[1], "lone": lone, "lone_both": int(both),
            "lone_both_by": ref_both_by(*lone_cards), "fr_last": first.last}
    exp |= per_seat("fr_tricks", fr_tricks) | per_seat("fr_points", fr_points)
    exp |= per_seat("fr_copies", [count(first.won[s] & copies(d.turned)) for s in range(3)])

    # the lone player takes the skat; the declaration in the order of the first-round tricks
    hands = [d.stocks[s] | (d.skat if s == lone else 0) for s in range(3)]
    declarer, code, turn = declare(ref_order(fr_tricks, lone, fh), decide, hands, rows)
    side = -1 if declarer < 0 else LONE if declarer == lone else PAIR
    extra = [0, 0, 0]
    if declarer >= 0:  # the lone player discards 3
        discards = put_away([lone], 3, decide, hands, rows)
    else:
        # the redeal: the nine shuffled, the top one turned up sets the game; 2 to each pair
        # member, 1 to the lone player, 2 to each pair member; everyone discards 4
        if d.extra is None:
            raise NeedRedeal(rows)
        extra = d.extra
        assert [count(extra[s]) for s in range(3)] == [1 if s == lone else 4 for s in range(3)]
        assert extra[0] | extra[1] | extra[2] == nine and d.second in kinds(nine)
        code = turned_game(d.second)
        hands = [hands[s] | extra[s] for s in range(3)]
        discards = put_away([(fh + r) % 3 for r in range(3)], 4, decide, hands, rows)
        special = [0, 0]
    assert [count(h) for h in hands] == [12, 12, 12]
    game = rule(code, order)
    exp |= {"declarer": declarer, "declaring_side": side, "declarer_turn": turn,
            "nobody_declared": int(declarer < 0), "second_turned_up": d.second if declarer < 0 else -1}
    exp["game"], exp["trump"] = game_columns(code)
    exp |= per_seat("extra", extra) | per_seat("discard", discards)

    # the main game: 12 tricks, led by forehand, the first round's last taker or the declarer
    leader = {"forehand": fh, "first_round_winner": first.last,
              "declarer": declarer if declarer >= 0 else fh}[rules["main_lead"]]
    seen["lead_moved"] += leader != fh
    main = play_round(12, leader, hands, game, decide, rows, seen)
    main_points, main_tricks, taken = main.points, main.tricks, main.played
    assert hands == [0, 0, 0]
    exp |= per_seat("points", main_points) | per_seat("tricks", main_tricks)

    # the sides' card points: main-game tricks, discards, first-round tricks when they count
    count_fr = declarer >= 0 and bool(rules["first_round_points"])
    side_of = [LONE if s == lone else PAIR for s in range(3)]
    by_side, discard_points = [0, 0], [0, 0]
    for s in range(3):
        discard_points[side_of[s]] += points(discards[s])
        by_side[side_of[s]] += main_points[s] + points(discards[s]) + (fr_points[s] if count_fr else 0)
    assert sum(main_points) + sum(discard_points) + (sum(fr_points) if declarer >= 0 else 0) == 240
    by_reading = {(of, reading): 0 for of in ("side", "declarer") for reading in ("copies", "ranks")}
    if declarer >= 0:  # the declaring side's (or the declarer's) main-game cards and discards
        cards = {"side": sum(taken[s] | discards[s] for s in range(3) if side_of[s] == side),
                 "declarer": taken[declarer] | discards[declarer]}
        by_reading = {(of, reading): ref_spitzen(cards[of], game, reading) for of, reading in by_reading}
    n_spitzen = by_reading[rules["spitzen_of"], rules["spitzen"]]
    result = ref_settle(by_side[PAIR], by_side[LONE], side, game.kind == "grand", n_spitzen,
                        special[PAIR], special[LONE], bool(rules["tie_special_points"]),
                        bool(rules["zero_sum"]),
                        {band: rules[f"points_band_{band}"] for band in SEED_BANDS})
    exp |= {"discard_points_pair": discard_points[PAIR], "discard_points_lone": discard_points[LONE],
            "points_pair": by_side[PAIR], "points_lone": by_side[LONE], "special_pair": special[PAIR],
            "special_lone": special[LONE], "spitzen": n_spitzen,
            "spitzen_copies": by_reading["side", "copies"], "spitzen_ranks": by_reading["side", "ranks"],
            "spitzen_declarer_copies": by_reading["declarer", "copies"],
            "spitzen_declarer_ranks": by_reading["declarer", "ranks"]}
    exp |= {k: result[k] for k in ("winner_side", "tie", "value")}
    exp |= per_seat("score", [result["lone" if s == lone else "pair"] for s in range(3)])
    seen["deals"] += 1
    seen["redeal" if declarer < 0 else f"turn_{turn}"] += 1
    seen["tie"] += result["tie"]
    seen["tie_special"] += result["tie"] and result["value"] > 1
    seen["fr_sweep"] += 3 in fr_tricks
    seen["lone_both"] += both
    seen["teams_not_first_round"] += lone != ref_teams(d.first_round, d.stocks, d.turned, "first_round")
    seen["own_spitzen_differ"] += by_reading["side", "copies"] != by_reading["declarer", "copies"]
    return exp, rows


def row_of(columns: dict[str, np.ndarray], i: int) -> dict[str, int]:
    return {k: int(v[i]) for k, v in columns.items()}


def assert_agrees(columns: dict[str, np.ndarray], i: int, expected: dict[str, int]) -> None:
    got = row_of(columns, i)
    differ = {k: (got[k], v) for k, v in expected.items() if got[k] != v}
    assert not differ, f"deal {got['deal']}: (engine, rules) {differ}"


def referee_recorded(batch_columns: dict[str, np.ndarray], actions: list[np.ndarray], rules: dict,
                     seen: Counter) -> None:
    """Replay every recorded deal by the rules; it must agree with every result column."""
    for i, recorded in enumerate(actions):
        replay = Replay(recorded)
        expected, rows = referee(Dealt.of(batch_columns, i), rules, replay, seen)
        assert replay.at == len(replay.rows), "recorded actions the rules do not ask for"
        assert rows == replay.rows
        assert_agrees(batch_columns, i, expected)


RULE_SETS = [{}, {"bridge_order": "skat", "team_cards": "all", "first_round_points": False,
                  "zero_sum": True, "both_copies": "skat", "spitzen": "ranks"},
             {"team_cards": "all", "zero_sum": True, "tie_special_points": False},
             {"both_copies": "stock", "spitzen": "ranks", "points_band_90": 1, "points_band_60": 5,
              "points_band_30": 0, "points_band_under_30": 12, "points_band_zero": 30},
             {"team_cards": "won", "main_lead": "first_round_winner", "spitzen_of": "declarer"},
             {"team_cards": "won", "main_lead": "declarer", "spitzen_of": "declarer",
              "spitzen": "ranks", "both_copies": "skat", "first_round_points": False}]


@pytest.mark.parametrize("given", RULE_SETS, ids=["default", "skat_all_nofr_zero_skat_ranks",
                                                  "all_zero_no_tie_special", "stock_ranks_bands",
                                                  "won_winner_leads_own", "won_declarer_leads_own_ranks"])
@pytest.mark.parametrize("policies", [RANDOM, ["heuristic"] * 3, ["heuristic", "random", "random"]],
                         ids=["random", "heuristic", "mixed"])
def test_played_deals_agree_with_the_rules(policies: list[str], given: dict) -> None:
    rules = GAME.rules(given)
    batch = play(GAME, 11, 0, 1000, rules, policies, record=True)
    seen: Counter = Counter()
    referee_recorded(batch.columns, batch.actions, rules, seen)
    assert seen["deals"] == 1000 and seen["identical_best_first_wins"] > 100, seen
    assert seen["turn_0"] > 500 and seen["fr_sweep"] > 50 and seen["lone_both"] > 20, seen
    # the revision-4 rules change what they say in many deals
    assert (seen["teams_not_first_round"] > 100) == (rules["team_cards"] != "first_round"), seen
    assert (seen["lead_moved"] > 100) == (rules["main_lead"] != "forehand"), seen
    assert seen["own_spitzen_differ"] > 100, seen


def test_deals_where_random_players_all_pass_agree_with_the_rules() -> None:
    """Random players pass with 9 chances in 10 each: about one deal in 1000 is redealt."""
    rules = GAME.rules()
    c = play(GAME, 4, 0, 30000, rules, RANDOM).columns
    redealt = np.flatnonzero(c["nobody_declared"])
    assert len(redealt) >= 15
    seen: Counter = Counter()
    for i in redealt[:25]:
        batch = play(GAME, 4, int(i), 1, rules, RANDOM, record=True)
        referee_recorded(batch.columns, batch.actions, rules, seen)
    assert seen["redeal"] == min(len(redealt), 25)


# --- scripted deals --------------------------------------------------------------------------------

def script_deals(seed: int, first: int, n: int, rules: dict, plan: Callable[[int], Decisions]
                 ) -> tuple[list[dict[str, int]], list[np.ndarray], Counter]:
    """The referee plays deals ``first ..`` with ``plan(deal)``'s decisions: the columns each
    must have and its script. A redeal's cards come from the engine: a script that stops
    after the passes (a mismatch at the first discard) shows them in the result columns."""
    dealt = list(dealt_cards(seed, first, n))
    walks: list[tuple[dict[str, int], list[list[int]]] | None] = []
    probes: list[list[list[int]]] = []
    for d in dealt:
        try:
            walks.append(referee(d, rules, plan(d.deal)))
            probes.append(walks[-1][1])
        except NeedRedeal as stop:
            walks.append(None)
            probes.append(stop.rows)
    if any(w is None for w in walks):
        stops = [np.array(p, np.int64) for p in probes]
        shown = play(GAME, seed, first, n, rules, RANDOM, script=stops).columns
        for i, w in enumerate(walks):
            if w is None:
                assert shown["nobody_declared"][i] and shown["replay_error"][i] == E_MISMATCH
                dealt[i] = dataclasses.replace(dealt[i], second=int(shown["second_turned_up"][i]),
                                               extra=[int(shown[f"extra_{s}"][i]) for s in range(3)])
    seen: Counter = Counter()
    walks = [referee(d, rules, plan(d.deal), seen) for d in dealt]
    return [w[0] for w in walks], [np.array(w[1], np.int64) for w in walks], seen


def play_scripted(seed: int, first: int, n: int, rules: dict, plan: Callable[[int], Decisions]
                  ) -> tuple[dict[str, np.ndarray], list[dict[str, int]], Counter]:
    """Script deals with ``plan``, play them, check every column against the referee."""
    expected, scripts, seen = script_deals(seed, first, n, rules, plan)
    columns = play(GAME, seed, first, n, rules, RANDOM, script=scripts).columns
    for i, e in enumerate(expected):
        assert_agrees(columns, i, e)
    return columns, expected, seen


def order_case(c: dict[str, np.ndarray], i: int) -> str:
    """Which of the rules' declaration orders deal ``i`` asks for."""
    tricks = [int(c[f"fr_tricks_{s}"][i]) for s in range(3)]
    lone = int(c["lone"][i])
    a, b = (tricks[s] for s in range(3) if s != lone)
    first = "pair" if a + b >= 2 else "lone"
    return f"{first} first, members {'tied' if a == b else 'apart'}"


@pytest.mark.parametrize("team_cards", ["first_round", "all"])
def test_scripted_declarations_in_every_turn_and_the_redeal(team_cards: str) -> None:
    """Each seat of the declaration order declares in turn 0, 1 or 2, or everyone passes:
    the engine asks the seats in the rules' order (a script in another order is refused) for
    every forehand and every way the first round can go."""
    rules = GAME.rules({"team_cards": team_cards, "bridge_order": "skat"})
    columns, expected, seen = play_scripted(
        21, 0, 1200, rules, lambda deal: Plan(deal, declare_at=(None, 0, 1, 2)[deal // 3 % 4], code=deal % 9))
    assert min(seen[k] for k in ("turn_0", "turn_1", "turn_2", "redeal")) >= 250, seen
    cases = Counter((order_case(columns, i), int(columns["dealer"][i]), int(columns["nobody_declared"][i]))
                    for i in range(1200))
    for first in ("pair", "lone"):
        for members in ("tied", "apart"):
            for dealer in range(3):
                assert cases[f"{first} first, members {members}", dealer, 1] >= 3, cases


def test_the_redeal_end_to_end() -> None:
    """Nobody declares: the nine first-round cards are dealt again (4 to each pair member, 1 to
    the lone player), the second turned-up card sets the game, everyone discards 4 for his
    side, the first-round tricks count for nobody; no special points, no Spitzen, no
    declaring side; a tie scores nobody."""
    for fr_points in (True, False):
        rules = GAME.rules({"first_round_points": fr_points})
        c, expected, seen = play_scripted(31, 0, 1500, rules, lambda deal: Plan(deal))
        assert seen["redeal"] == 1500
        assert (c["nobody_declared"] == 1).all() and (c["declarer"] == -1).all()
        assert (c["declaring_side"] == -1).all() and (c["declarer_turn"] == -1).all()
        assert (c["special_pair"] == 0).all() and (c["special_lone"] == 0).all() and (c["spitzen"] == 0).all()
        assert (c["points_pair"].astype(int) + c["points_lone"] == 240).all()
        for i in range(1500):
            lone = int(c["lone"][i])
            nine = functools.reduce(int.__or__, (int(c[f"first_round_{s}"][i]) for s in range(3)))
            extra = [int(c[f"extra_{s}"][i]) for s in range(3)]
            assert [count(e) for e in extra] == [1 if s == lone else 4 for s in range(3)]
            assert functools.reduce(int.__or__, extra) == nine
            assert [count(int(c[f"discard_{s}"][i])) for s in range(3)] == [4, 4, 4]
            second = int(c["second_turned_up"][i])
            assert second in kinds(nine)
            assert (int(c["game"][i]), int(c["trump"][i])) == (expected[i]["game"], expected[i]["trump"])
            held = [int(c[f"stock_{s}"][i]) | extra[s] | (int(c["skat"][i]) if s == lone else 0)
                    for s in range(3)]
            assert all(int(c[f"discard_{s}"][i]) & ~held[s] == 0 for s in range(3))
            assert sum(int(c[f"points_{s}"][i]) for s in range(3)) \
                + int(c["discard_points_pair"][i]) + int(c["discard_points_lone"][i]) == 240
        ties = np.flatnonzero(c["tie"])
        assert len(ties) >= 3 and seen["tie"] == len(ties)
        for s in range(3):
            assert (c[f"score_{s}"][ties] == 0).all()
        # the second card's game differs from the first round's in most deals
        assert (c["game"] != c["fr_game"]).sum() > 300


def lone_of(d: Dealt) -> int:
    """The lone player under ``team_cards = first_round``."""
    return ref_teams(d.first_round, d.stocks, d.turned, "first_round")


def test_a_lone_declarer_s_discarded_top_trumps_are_his_spitzen() -> None:
    """The lone player names grand and puts away his three highest jacks: they still count,
    as his side's cards (its main-game cards plus its discards)."""
    grand = GAME_LABELS.index("grand")
    dealt = dealt_cards(41, 0, 600)
    both_cj = [d.deal for d in dealt if count((d.stocks[lone_of(d)] | d.skat) & copies(D.index("CJ"))) == 2]
    assert len(both_cj) > 20

    def top_jacks(seat: int, n: int, hand: int) -> int:
        jacks = sorted(bits(hand & D.rank_mask("J")), key=lambda c: JACKS.index(NAMES[c]))
        return sum(1 << c for c in (jacks + bits(hand & ~D.rank_mask("J")))[:n])

    columns, _, _ = play_scripted(41, 0, 600, GAME.rules(), lambda deal: Plan(
        deal, declarer=lone_of(dealt[deal]), code=grand, discard=top_jacks))
    assert (columns["declaring_side"] == LONE).all() and (columns["game"] == GAME_TYPES.index("grand")).all()
    for i in both_cj:
        discarded = int(columns[f"discard_{lone_of(dealt[i])}"][i])
        assert discarded & copies(D.index("CJ")) == copies(D.index("CJ")), i
        assert columns["spitzen"][i] >= 2, i  # none of them was played in the main game


# --- searches through played deals -----------------------------------------------------------------

@functools.cache
def played(seed: int, n: int, policies: tuple[str, ...], given: tuple = ()) -> dict[str, np.ndarray]:
    """Result columns of ``n`` deals (compiled, cached per test session)."""
    return play(GAME, seed, 0, n, GAME.rules(dict(given)), list(policies)).columns


def side_cards(c: dict[str, np.ndarray], i: int) -> tuple[int, int]:
    """The declaring side's cards of deal ``i``: (its main-game cards and discards, its
    first-round cards)."""
    lone = int(c["lone"][i])
    members = [lone] if c["declaring_side"][i] == LONE else [s for s in range(3) if s != lone]
    main = sum(int(c[f"stock_{s}"][i]) for s in members) | (int(c["skat"][i]) if lone in members else 0)
    return main, sum(int(c[f"first_round_{s}"][i]) for s in members)


def main_rule(c: dict[str, np.ndarray], i: int, bridge_order: str = "natural") -> Rule:
    kind = GAME_TYPES[int(c["game"][i])]
    return Rule(kind, SUITS[int(c["trump"][i])] if kind != "grand" else "", bridge_order)


def test_spitzen_count_the_main_game_cards_not_the_first_round() -> None:
    """The declaring side's Spitzen come from its stocks (and the lone player's skat, his
    discards included), never from its first-round cards; by copies one copy of a trump
    counts 1 and ends the run, by ranks it counts 1 and the run goes on."""
    c = played(5, 4000, ("random",) * 3)
    seen = Counter()
    for i in np.flatnonzero(c["declarer"] >= 0):
        main, first = side_cards(c, i)
        game = main_rule(c, i)
        assert c["spitzen"][i] == c["spitzen_copies"][i] == ref_spitzen(main, game, "copies")
        assert c["spitzen_ranks"][i] == ref_spitzen(main, game, "ranks")
        seen["first_round_would_change_it"] += ref_spitzen(main | first, game) != ref_spitzen(main, game)
        top = copies(NAMES.index(game.trumps[0]))
        seen["one_top_copy"] += count(main & top) == 1 and c["spitzen"][i] == 1
        seen["ranks_go_further"] += c["spitzen_ranks"][i] > c["spitzen_copies"][i]
        seen["copies_go_further"] += c["spitzen_ranks"][i] < c["spitzen_copies"][i]
        seen["none"] += c["spitzen"][i] == 0
    assert min(seen.values()) >= 30, seen


def value_parts(c: dict[str, np.ndarray], i: int) -> tuple[int, int, int]:
    """(band, Spitzen as scored if the declaring side won, the winner's special points)."""
    winner = int(c["winner_side"][i])
    loser_points = int(c["points_lone"][i] if winner == PAIR else c["points_pair"][i])
    doubled = 2 if GAME_TYPES[int(c["game"][i])] == "grand" else 1
    spitzen_part = int(c["spitzen"][i]) * doubled if c["declaring_side"][i] == winner else 0
    special = int(c["special_pair" if winner == PAIR else "special_lone"][i])
    return ref_band(loser_points), spitzen_part, special


def test_spitzen_and_special_points_count_only_for_the_side_that_won() -> None:
    c = played(5, 4000, ("random",) * 3)
    seen = Counter()
    for i in np.flatnonzero(~c["tie"]):
        winner = int(c["winner_side"][i])
        earned = {PAIR: int(c["special_pair"][i]), LONE: int(c["special_lone"][i])}
        assert c["value"][i] == sum(value_parts(c, i))
        seen["special_won"] += earned[winner] > 0
        seen["special_lost"] += earned[1 - winner] > 0
        seen["two_special"] += earned[winner] == 2
        declared = int(c["declaring_side"][i])
        seen["spitzen_won"] += declared == winner and c["spitzen"][i] > 0
        seen["spitzen_lost"] += declared == 1 - winner and c["spitzen"][i] > 0
    assert min(seen.values()) >= 5, seen


@pytest.mark.parametrize("tie_special", [True, False])
@pytest.mark.parametrize("zero_sum", [False, True])
def test_ties_score_the_non_declaring_side(zero_sum: bool, tie_special: bool) -> None:
    """120 : 120 is a tie: the side that did not declare scores 1 each, and with
    ``tie_special_points`` its special points on top (zero_sum: the lone player twice that,
    each pair member once, the other side the opposite); never Spitzen, never the declaring
    side's special points."""
    c = played(6, 20000, ("random",) * 3, (("zero_sum", zero_sum), ("tie_special_points", tie_special)))
    seen = Counter()
    for i in np.flatnonzero(c["tie"] & (c["declaring_side"] >= 0)):
        assert c["points_pair"][i] == c["points_lone"][i] == 120 and c["winner_side"][i] == -1
        lone = int(c["lone"][i])
        scores = [int(c[f"score_{s}"][i]) for s in range(3)]
        pair_scores = c["declaring_side"][i] == LONE
        special = int(c["special_pair" if pair_scores else "special_lone"][i])
        value = 1 + (special if tie_special else 0)
        if zero_sum:
            pair_score, lone_score = (value, -2 * value) if pair_scores else (-value, 2 * value)
        else:
            pair_score, lone_score = (value, 0) if pair_scores else (0, value)
        assert scores == [lone_score if s == lone else pair_score for s in range(3)]
        assert c["value"][i] == value
        seen[int(c["declaring_side"][i])] += 1
        seen["special"] += special > 0
        seen["spitzen"] += c["spitzen"][i] > 0
    assert seen[PAIR] >= 5 and seen[LONE] >= 5 and seen["special"] >= 3 and seen["spitzen"] >= 3, seen


def test_first_round_points_decide_only_the_count() -> None:
    """The same deals and random decisions under ``first_round_points`` true and false: each
    side's total differs by its first-round card points (in a redeal by nothing); with false
    the totals fall below 240 and equal totals are a tie."""
    counted = played(7, 6000, ("random",) * 3)
    not_counted = played(7, 6000, ("random",) * 3, (("first_round_points", False),))
    for key in ("declarer", "game", "lone", "spitzen", "discard_0", "points_0", "tricks_2"):
        assert np.array_equal(counted[key], not_counted[key]), key
    fr = np.array([[int(counted[f"fr_points_{s}"][i]) for s in range(3)] for i in range(6000)])
    lone = counted["lone"].astype(int)
    declared = counted["declarer"] >= 0
    lone_fr = fr[np.arange(6000), lone] * declared
    pair_fr = (fr.sum(axis=1) - fr[np.arange(6000), lone]) * declared
    assert np.array_equal(counted["points_lone"] - not_counted["points_lone"], lone_fr)
    assert np.array_equal(counted["points_pair"] - not_counted["points_pair"], pair_fr)
    total = not_counted["points_pair"].astype(int) + not_counted["points_lone"]
    assert (total[declared] < 240).mean() > 0.95
    low_ties = np.flatnonzero(not_counted["tie"] & (not_counted["points_pair"] < 120))
    assert len(low_ties) >= 5
    for i in low_ties:
        assert not_counted["points_pair"][i] == not_counted["points_lone"][i]
        scoring = "special_pair" if not_counted["declaring_side"][i] == LONE else "special_lone"
        special = not_counted[scoring][i]
        assert not_counted["value"][i] == 1 + special and not_counted["winner_side"][i] == -1


SCORING = [(o.name, v) for o in GAME.options if o.scoring_only for v in o.allowed[1:]]
"""Each scoring-only option's other values."""


@pytest.mark.parametrize("team_cards", ["first_round", "all"])
@pytest.mark.parametrize(("name", "value"), SCORING)
def test_rescoring_equals_playing(name: str, value: object, team_cards: str) -> None:
    """``both_copies``, ``spitzen``, ``tie_special_points`` and ``zero_sum`` only score: deals
    played under one value and re-scored under the other have the columns of the deals
    played under the other, either way (here with other play rules too)."""
    base = {"team_cards": team_cards, "first_round_points": False, "bridge_order": "skat"}
    default = GAME.options.by_name[name].default
    changed = set()
    for policies in (("random",) * 3, ("heuristic",) * 3):
        columns = {v: played(8, 6000, policies, tuple((base | {name: v}).items())) for v in (default, value)}
        for was, now in ((default, value), (value, default)):
            rescored = GAME.rescore(columns[was], GAME.rules(base | {name: now}))
            for key, column in columns[now].items():
                assert np.array_equal(column, rescored[key]), (was, now, key)
        changed |= {k for k in columns[value] if not np.array_equal(columns[value][k], columns[default][k])}
    # under team_cards = all the teams look at the stock too: the stock reading is team_cards'
    same = (name, value, team_cards) == ("both_copies", "stock", "all")
    assert bool(changed) != same, (name, value, changed)


def test_zero_sum_scores_add_up_to_nothing() -> None:
    """With ``zero_sum`` the three scores add up to 0, the lone player's twice the value."""
    zs = played(8, 3000, ("heuristic",) * 3, tuple({"team_cards": "all", "first_round_points": False,
                                                    "bridge_order": "skat", "zero_sum": True}.items()))
    scores = np.stack([zs[f"score_{s}"].astype(int) for s in range(3)])
    assert (scores.sum(axis=0) == 0).all()
    lone_score = scores[zs["lone"].astype(int), np.arange(3000)]
    assert np.array_equal(np.abs(lone_score), 2 * zs["value"].astype(int) * (zs["declarer"] >= 0))


# --- scripts the engine refuses --------------------------------------------------------------------

@functools.cache
def recorded(seed: int, n: int) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    batch = play(GAME, seed, 0, n, GAME.rules(), RANDOM, record=True)
    return batch.columns, batch.actions


def replay_error(seed: int, deal: int, script: np.ndarray) -> int:
    return int(play(GAME, seed, deal, 1, GAME.rules(), RANDOM, script=[script]).columns["replay_error"][0])


def edited(rows: np.ndarray, kind: int, change: Callable[[np.ndarray], None], nth: int = 0) -> np.ndarray:
    """A copy of ``rows`` with the ``nth`` row of ``kind`` changed in place by ``change``."""
    out = rows.copy()
    change(out[np.flatnonzero(out[:, 0] == kind)[nth]])
    return out


def first_seen(pred: Callable[[dict[str, np.ndarray], int, np.ndarray], bool]) -> tuple[int, np.ndarray]:
    """The first recorded deal that ``pred`` accepts."""
    c, actions = recorded(9, 300)
    return next((i, actions[i]) for i in range(300) if pred(c, i, actions[i]))


def test_the_recorded_scripts_replay() -> None:
    _, actions = recorded(9, 300)
    assert all(replay_error(9, i, actions[i]) == 0 for i in range(0, 300, 37))


def test_a_declaration_out_of_turn_is_refused() -> None:
    i, rows = first_seen(lambda c, i, r: c["declarer_turn"][i] == 1)
    swapped = rows.copy()
    at = np.flatnonzero(np.isin(rows[:, 0], (A.PASS, A.DECLARE)))
    swapped[at[0], 1], swapped[at[1], 1] = rows[at[1], 1], rows[at[0], 1]
    assert replay_error(9, i, swapped) == E_MISMATCH
    assert replay_error(9, i, edited(rows, A.DECLARE, lambda r: r.__setitem__(2, len(CODES)))) == E_ILLEGAL


def test_discards_must_be_the_lone_player_s_own_three() -> None:
    i, rows = first_seen(lambda c, i, r: c["declarer"][i] >= 0)
    c, _ = recorded(9, 300)
    lone = int(c["lone"][i])
    hand = int(c[f"stock_{lone}"][i]) | int(c["skat"][i])
    outside = next(x for x in bits(FULL & ~hand) if not hand & copies(x))  # neither copy held
    by_partner = edited(rows, A.DISCARD, lambda r: r.__setitem__(1, (lone + 1) % 3))
    assert replay_error(9, i, by_partner) == E_MISMATCH
    two = edited(rows, A.DISCARD, lambda r: r.__setitem__(2, r[2] & (r[2] - 1)))
    assert replay_error(9, i, two) == E_ILLEGAL
    foreign = edited(rows, A.DISCARD, lambda r: r.__setitem__(2, (r[2] & (r[2] - 1)) | 1 << outside))
    assert replay_error(9, i, foreign) == E_ILLEGAL


def test_a_card_that_does_not_follow_is_refused() -> None:
    """In the first trick: the second player holds a card of the led suit and another."""
    def breach(c: dict[str, np.ndarray], i: int, rows: np.ndarray) -> bool:
        game = rule(turned_game(int(c["turned_up"][i])))
        seat = int(rows[1, 1])
        hand = int(c[f"first_round_{seat}"][i])
        follow = game.follow[game.suit_of[int(rows[0, 2])]]
        return bool(hand & follow and hand & ~follow)

    i, rows = first_seen(breach)
    c, _ = recorded(9, 300)
    game = rule(turned_game(int(c["turned_up"][i])))
    hand = int(c[f"first_round_{rows[1, 1]}"][i])
    wrong = bits(hand & ~game.follow[game.suit_of[int(rows[0, 2])]])[0]
    assert replay_error(9, i, edited(rows, A.PLAY, lambda r: r.__setitem__(2, wrong), nth=1)) == E_ILLEGAL

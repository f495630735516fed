"""Skat game values, shared by ``skat`` and ``skat_en_deux`` (RULES.md, "Skat game value").

Game types are small integers: ``C S H D`` suit games 0-3 (the trump suit's
index), grand 4, null 5, ramsch 6 (jacks trump, grand order). This module holds
their trick tables, the matador count, the bid values reachable under a set of
options (computed, never typed in) and the settlement of a finished game.

>>> int(game_value_levels(GRAND, 4, 1))  # grand hand with four: 24 x (4 + 1 game + 1 hand)
144
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np

from sim.cards import SKAT_DECK, SUITS, mask_points
from sim.games.skat_family.observation import DECL_OUVERT, OFFER_STICH
from sim.games.skat_family.observation import FIELDS as O
from sim.tricks import build_table, stack_tables

JIT: Any = {"cache": True, "_nrt": False}
"""``numba.njit``'s options for the Skat family's compiled code (these values, the kernels,
their card play, the policy dispatch): cached, and without numba's reference counting
(``_nrt``; what they call inherits it). They allocate nothing, and the atomic counts numba
keeps on every array handed to a function with branches (it cannot prune them there) cost
more than the rules themselves."""
JIT_NRT: Any = {"cache": True, "_nrt": True}
"""The options of the few functions that allocate or return an array."""

CLUBS, SPADES, HEARTS, DIAMONDS, GRAND, NULL, RAMSCH = range(7)
GAME_NAMES = ("C", "S", "H", "D", "grand", "null", "ramsch")
"""Trace/Parquet names of the game types."""

POSITIONS = ("forehand", "middlehand", "rearhand")
"""Names of the ``declarer_position`` codes 0, 1, 2 (-1: no declarer)."""

BASE = np.array([12, 11, 10, 9, 24, 0, 0], np.int64)
"""Base value of each game type (null and ramsch have none)."""
NULL_VALUES = np.array([23, 35, 46, 59], np.int64)
"""Null value by ``hand + 2 * ouvert``: 23, hand 35, ouvert 46, ouvert hand 59."""

JACKS = ("CJ", "SJ", "HJ", "DJ")
PLAIN_ORDER = "ATKQ987"
"""Order of the plain suits in suit games and grand (and of a suit game's trump suit)."""
_NULL_ORDER_FULL = "AKQJT987"


def _suit_trumps(suit: int) -> list[str]:
    return list(JACKS) + [SUITS[suit] + r for r in PLAIN_ORDER]


def _tables():
    tables = [build_table(SKAT_DECK, _suit_trumps(s), PLAIN_ORDER) for s in range(4)]
    tables.append(build_table(SKAT_DECK, list(JACKS), PLAIN_ORDER))
    tables.append(build_table(SKAT_DECK, [], _NULL_ORDER_FULL))
    tables.append(build_table(SKAT_DECK, list(JACKS), PLAIN_ORDER))
    return stack_tables(tables)


EFF, STRENGTH, SUIT_MASKS = _tables()
"""Trick tables ``[game_type, card]`` (and ``[game_type, eff_suit]`` masks)."""

TRUMP_ORDER = np.full((7, 11), -1, np.int64)
"""Trump cards of each game type from the highest down (-1 pads)."""
for _g in range(4):
    TRUMP_ORDER[_g] = [SKAT_DECK.index(n) for n in _suit_trumps(_g)]
for _g in (GRAND, RAMSCH):
    TRUMP_ORDER[_g, :4] = [SKAT_DECK.index(n) for n in JACKS]
N_TRUMPS = np.array([11, 11, 11, 11, 4, 0, 4], np.int64)
POINTS = SKAT_DECK.points.astype(np.int64)


@numba.njit(**JIT)
def matadors(cards, game):
    """Matadors of ``cards`` (declarer's hand plus both skat cards) in a suit or grand game.

    Positive "with n", negative "without n": consecutive trumps from CJ down that
    the cards hold, or lack, up to the first change.
    """
    n = N_TRUMPS[game]
    top = (cards >> np.uint64(TRUMP_ORDER[game, 0])) & np.uint64(1)
    k = 1
    while k < n and ((cards >> np.uint64(TRUMP_ORDER[game, k])) & np.uint64(1)) == top:
        k += 1
    return k if top else -k


@numba.njit(**JIT)
def game_value_levels(game, mat, extra_levels):
    """Base value x (|matadors| + 1 game + ``extra_levels``) of a suit or grand game."""
    return BASE[game] * (abs(mat) + 1 + extra_levels)


GIVE_UP_SCORE = 60
"""What giving up at 18 costs the declarer of Skat-en-deux in the seed (the default of the
option ``give_up_penalty``, and what the policies weigh a give-up against)."""
REJECTION_PREMIUM = 50
"""The seed's premium, in per cent, on a game whose first offer was rejected under
``contra_re`` (x 1.5; the default of Skat-en-deux's ``rejection_premium_percent``)."""


@numba.njit(**JIT)
def with_premium(value, premium):
    """``value`` raised by ``premium`` per cent, rounded up: the seed's x 1.5 at 50.

    >>> int(with_premium(144, 50)), int(with_premium(145, 50)), int(with_premium(145, 20))
    (216, 218, 174)
    """
    return (value * (100 + premium) + 99) // 100


@numba.njit(**JIT)
def overbid_value(game, bid):
    """The smallest multiple of the game's base value that is at least ``bid``."""
    b = BASE[game]
    return ((bid + b - 1) // b) * b


@numba.njit(**JIT)
def cheapest_give_up(games, bid):
    """Of the suit games and grand in ``games`` (a mask over game codes), the one a give-up
    after the pickup costs least to name (lost as overbid: the smallest ``overbid_value``;
    the lower code on a tie) and that value: ``(game, value)``, game -1 for no game."""
    cheapest = -1
    cost = 0
    for game in range(5):
        if (games >> game) & 1 and (cheapest < 0 or overbid_value(game, bid) < cost):
            cheapest = game
            cost = overbid_value(game, bid)
    return cheapest, cost


TERMS = ("base", "matadors", "game", "hand", "stich", "schneider", "schneider_announced",
         "schwarz", "schwarz_announced", "ouvert", "open", "levels", "level_value", "overbid",
         "overbid_value", "rejected", "rejected_value", "contra", "contra_value", "re", "re_value",
         "value", "won", "lost_factor", "score", "schneider_made", "schwarz_made")
"""The terms of a declared game's settlement (``game_terms``), in this order: the base value;
the matadors (signed: "with" > 0, "without" < 0) and each level (``game`` 1, ``hand``, Schneider
conceded by an accepted "Stich", Schneider, Schneider announced, Schwarz, Schwarz announced,
ouvert announced, the open levels), their sum and ``level_value`` = base x levels; whether the
game was overbid and its value then; a rejected offer's value (one level more, then the
premium: x 1.5 rounded up in the seed), after Contra (x 2) and Re (x 2); the final ``value``,
``won``, the ``lost_factor`` and the declarer's ``score``; whether Schneider and Schwarz were
reached in play. A null game has only ``value``, ``won``, ``lost_factor`` and ``score``."""
T = {name: j for j, name in enumerate(TERMS)}
(T_BASE, T_MATADORS, T_GAME, T_HAND, T_STICH, T_SCHNEIDER, T_SCHNEIDER_ANN, T_SCHWARZ,
 T_SCHWARZ_ANN, T_OUVERT, T_OPEN, T_LEVELS, T_LEVEL_VALUE, T_OVERBID, T_OVERBID_VALUE,
 T_REJECTED, T_REJECTED_VALUE, T_CONTRA, T_CONTRA_VALUE, T_RE, T_RE_VALUE, T_VALUE, T_WON,
 T_LOST_FACTOR, T_SCORE, T_SCHNEIDER_MADE, T_SCHWARZ_MADE) = (T[n] for n in TERMS)


class Contract(NamedTuple):
    """A declared game as its settlement reads it (``game_terms``)."""

    game: Any
    matadors: Any
    """Signed: "with" > 0, "without" < 0 (0 in a null game)."""
    hand: Any
    ouvert: Any
    schneider_announced: Any
    schwarz_announced: Any
    open_levels: Any
    """Skat-en-deux's open levels (0 in Skat)."""


class Offers(NamedTuple):
    """Skat-en-deux's offers, Contra and Re as the settlement reads them (none in Skat)."""

    offer: Any
    """The offer taken: 1 "raus", 2 "Stich", 0 none (``offer_outcome``)."""
    accepted: Any
    rejected: Any
    """How many rejected offers raise the value (``offer_outcome``): 0, 1 for the first
    rejected under ``contra_re``, 2 when a second rejection counts too
    (``second_rejection`` ``counts``)."""
    contra: Any
    re: Any


@numba.njit(**JIT)
def _suit_levels(mat, hand, ouvert, schneider_announced, schwarz_announced, open_levels,
                 declarer_points, declarer_tricks, total_tricks, offer, accepted):
    """A suit game's or grand's levels, whether the card play won it, and whether Schneider
    and Schwarz were reached: ``(stich, schneider, schneider announced, schwarz, schwarz
    announced, ouvert, levels, won, schneider made, schwarz made)``."""
    if offer and accepted:
        stich = 1 if offer == OFFER_STICH else 0
        levels = abs(mat) + 1 + hand + open_levels + stich
        return stich, 0, 0, 0, 0, 0, levels, True, stich, 0
    schneider = 1 if declarer_points <= 30 or declarer_points >= 90 else 0
    schwarz = 1 if declarer_tricks == 0 or declarer_tricks == total_tricks else 0
    sch_ann = 1 if schneider_announced or schwarz_announced or ouvert else 0
    schw_ann = 1 if schwarz_announced or ouvert else 0
    ouvert_level = 1 if ouvert else 0
    schneider_level = 1 if schneider or sch_ann else 0
    schwarz_level = 1 if schwarz or schw_ann else 0
    levels = abs(mat) + 1 + hand + schneider_level + sch_ann + schwarz_level + schw_ann \
        + ouvert_level + open_levels
    won = declarer_points >= 61 and not (sch_ann and declarer_points < 90) \
        and not (schw_ann and declarer_tricks < total_tricks)
    return (0, schneider_level, sch_ann, schwarz_level, schw_ann, ouvert_level, levels, won,
            schneider, schwarz)


@numba.njit(**JIT)
def game_terms(contract, declarer_points, declarer_tricks, total_tricks, bid, offers,
               lost_factor, premium):
    """Settle a finished declared game (its ``Contract``, Skat-en-deux's ``Offers``): its
    terms (``TERMS``, a tuple in that order).

    Suit and grand: base x (matadors + 1 game + hand + Schneider + Schwarz + announcements +
    ``open_levels``); announced levels count whether reached or not (ouvert implies Schwarz
    announced implies Schneider announced) and a missed announcement loses; won with 61 card
    points. A game below the bid is lost at the smallest multiple of its base reaching the
    bid. Skat-en-deux's offers: an accepted ``offer`` (1 "raus", 2 "Stich") scores as offered
    (Schneider for "Stich"); for each of the ``rejected`` offers that count (a first offer
    rejected under ``contra_re``, a second one too under ``second_rejection`` ``counts``) the
    value gets one more level, then ``premium`` per cent more rounded up once for each
    (``with_premium``: the seed's x 1.5 at 50), x 2 for ``contra`` and x 2 more for ``re``.
    Null: 23, hand 35, ouvert 46, ouvert hand 59, won without a trick; one below the bid
    cannot be declared and is refused (``ValueError``). Lost: - ``lost_factor`` x value.
    """
    game, mat, hand, ouvert, schneider_announced, schwarz_announced, open_levels = contract
    offer, accepted, rejected, contra, re = offers
    z = np.int64(0)
    if game == NULL:
        value = null_value(hand, ouvert)
        if value < bid:
            raise ValueError("a null game below the bid cannot be declared")
        won = declarer_tricks == 0
        score = value if won else -lost_factor * value
        return (z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, np.int64(value),
                np.int64(won), np.int64(lost_factor), np.int64(score), z, z)
    base = BASE[game]
    (stich, schneider_level, sch_ann, schwarz_level, schw_ann, ouvert_level, levels, won,
     schneider, schwarz) = _suit_levels(mat, hand, ouvert, schneider_announced,
                                        schwarz_announced, open_levels, declarer_points,
                                        declarer_tricks, total_tricks, offer, accepted)
    level_value = value = base * levels
    overbid = value < bid
    if overbid:
        won = False
        value = overbid_value(game, bid)
    overbid_v = value if overbid else 0
    value += rejected * base
    for _ in range(rejected):
        value = with_premium(value, premium)
    rejected_v = value if rejected else 0
    said_contra = rejected > 0 and contra != 0
    if said_contra:
        value *= 2
    contra_v = value if said_contra else 0
    said_re = rejected > 0 and re != 0
    if said_re:
        value *= 2
    re_v = value if said_re else 0
    score = value if won else -lost_factor * value
    return (np.int64(base), np.int64(mat), np.int64(1), np.int64(hand), np.int64(stich),
            np.int64(schneider_level), np.int64(sch_ann), np.int64(schwarz_level),
            np.int64(schw_ann), np.int64(ouvert_level), np.int64(open_levels),
            np.int64(levels), np.int64(level_value), np.int64(overbid), np.int64(overbid_v),
            np.int64(rejected), np.int64(rejected_v), np.int64(said_contra),
            np.int64(contra_v), np.int64(said_re), np.int64(re_v), np.int64(value), np.int64(won),
            np.int64(lost_factor), np.int64(score), np.int64(schneider), np.int64(schwarz))


assert TERMS[21:25] == ("value", "won", "lost_factor", "score")  # a null game's terms


@numba.njit(**JIT)
def settle_suit(game, mat, hand, ouvert_announced, schneider_announced, schwarz_announced,
                open_levels, declarer_points, declarer_tricks, total_tricks, bid):
    """Settle a finished suit or grand game without offers (``game_terms``).

    Returns ``(won, value, schneider, schwarz, overbid)``: ``value`` is the
    final game value before the lost factor; ``schneider`` and ``schwarz`` whether they
    were reached. ``open_levels`` are skat_en_deux's open levels.
    """
    t = game_terms(Contract(game, mat, hand, ouvert_announced, schneider_announced,
                            schwarz_announced, open_levels),
                   declarer_points, declarer_tricks, total_tricks, bid,
                   Offers(0, False, 0, False, False), 1, REJECTION_PREMIUM)
    return (t[T_WON] == 1, t[T_VALUE], t[T_SCHNEIDER_MADE] == 1, t[T_SCHWARZ_MADE] == 1,
            t[T_OVERBID] == 1)


def terms_dict(terms: tuple[int, ...]) -> dict[str, int]:
    """A settlement's terms by name."""
    return {name: int(v) for name, v in zip(TERMS, terms)}


@numba.njit(**JIT)
def null_value(hand, ouvert):
    """Value of a null game: 23, hand 35, ouvert 46, ouvert hand 59."""
    return NULL_VALUES[hand + 2 * ouvert]


def bid_values(extra_levels: int) -> np.ndarray:
    """Every game value a bid can name, ascending from 18.

    ``extra_levels`` is the most levels a game can add beyond matadors + 1
    (hand, Schneider, Schwarz, announcements, open levels): every multiplier
    from 2 up to the largest one is reachable, so the values are the base
    values times those multipliers, plus the null values.
    """
    values = set(int(v) for v in NULL_VALUES)
    for game in (CLUBS, SPADES, HEARTS, DIAMONDS, GRAND):
        top = int(N_TRUMPS[game]) + 1 + extra_levels
        values.update(int(BASE[game]) * m for m in range(2, top + 1))
    return np.array(sorted(v for v in values if v >= 18), np.int64)


@numba.njit(**JIT)
def card_points(mask):
    """Card points of a set of Skat cards."""
    return mask_points(mask, POINTS)


@numba.njit(**JIT)
def declaration_choices(obs, flags, out):
    """Every declaration offered now, written to ``out``; returns how many.

    Each suit game and grand with each of ``flags`` (the announcement or open-level
    bits the rules allow here), then null and null ouvert where their value reaches
    the bid.
    """
    bid = obs[O.BID]
    hand = obs[O.HAND_GAME]
    n = 0
    for g in range(5):
        for k in range(flags.shape[0]):
            out[n] = g | flags[k]
            n += 1
    for ouvert in range(2):
        if null_value(hand, ouvert) >= bid:
            out[n] = NULL | (DECL_OUVERT if ouvert else 0)
            n += 1
    return n

"""Skat game values, shared by ``skat`` and ``skat_en_deux`` (RULES.md, "Skat game value").

Game types are small integers: ``C S H D`` suit games 0-3 (the trump suit's
index), grand 4, null 5, ramsch 6 (jacks trump, grand order). This module holds
their trick tables, the matador count, the bid values reachable under a set of
options (computed, never typed in) and the settlement of a finished game.

>>> int(game_value_levels(GRAND, 4, 1))  # grand hand with four: 24 x (4 + 1 game + 1 hand)
144
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import SKAT_DECK, SUITS, mask_points
from sim.games import skat_obs as O
from sim.tricks import build_table, stack_tables

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


def _tables():  # type: ignore[no-untyped-def]
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


@numba.njit(cache=True)
def matadors(cards, game):  # type: ignore[no-untyped-def]
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


@numba.njit(cache=True)
def game_value_levels(game, mat, extra_levels):  # type: ignore[no-untyped-def]
    """Base value x (|matadors| + 1 game + ``extra_levels``) of a suit or grand game."""
    return BASE[game] * (abs(mat) + 1 + extra_levels)


@numba.njit(cache=True)
def overbid_value(game, bid):  # type: ignore[no-untyped-def]
    """The smallest multiple of the game's base value that is at least ``bid``."""
    b = BASE[game]
    return ((bid + b - 1) // b) * b


@numba.njit(cache=True)
def settle_suit(game, mat, hand, ouvert_announced, schneider_announced, schwarz_announced,
                open_levels, declarer_points, declarer_tricks, total_tricks, bid):  # type: ignore[no-untyped-def]
    """Settle a finished suit or grand game.

    Returns ``(won, value, schneider, schwarz, overbid)``: ``value`` is the
    final game value before the lost factor. Announced levels count whether
    reached or not (ouvert implies Schwarz announced implies Schneider announced);
    a missed announcement loses. ``open_levels`` are skat_en_deux's open levels.
    """
    schneider = declarer_points <= 30 or declarer_points >= 90
    schwarz = declarer_tricks == 0 or declarer_tricks == total_tricks
    sch_ann = schneider_announced or schwarz_announced or ouvert_announced
    schw_ann = schwarz_announced or ouvert_announced
    levels = hand + (schneider or sch_ann) + sch_ann + (schwarz or schw_ann) + schw_ann \
        + ouvert_announced + open_levels
    value = game_value_levels(game, mat, levels)
    won = declarer_points >= 61
    if sch_ann and declarer_points < 90:
        won = False
    if schw_ann and declarer_tricks < total_tricks:
        won = False
    overbid = value < bid
    if overbid:
        won = False
        value = overbid_value(game, bid)
    return won, value, schneider, schwarz, overbid


@numba.njit(cache=True)
def null_value(hand, ouvert):  # type: ignore[no-untyped-def]
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


@numba.njit(cache=True)
def card_points(mask):  # type: ignore[no-untyped-def]
    """Card points of a set of Skat cards."""
    return mask_points(mask, POINTS)


def rescore_lost_factor(columns: dict[str, np.ndarray], lost_factor: int, n_players: int,
                        keep: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """The score columns of played deals under another ``lost_factor``.

    A declared game scores + its value when won and − ``lost_factor`` x its value when
    lost, for the declarer alone; deals without a declarer, and those in ``keep``,
    keep their scores.
    """
    declarer = columns["declarer"].astype(np.int64)
    declared = declarer >= 0
    if keep is not None:
        declared &= ~keep
    value = columns["game_value"].astype(np.int64)
    score = np.where(columns["won"], value, -lost_factor * value)
    out = {}
    for s in range(n_players):
        name = f"score_{s}"
        fresh = np.where(declarer == s, score, 0)
        out[name] = np.where(declared, fresh, columns[name]).astype(columns[name].dtype)
    return out


@numba.njit(cache=True)
def declaration_choices(obs, flags, out):  # type: ignore[no-untyped-def]
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
            out[n] = NULL | (O.DECL_OUVERT if ouvert else 0)
            n += 1
    return n

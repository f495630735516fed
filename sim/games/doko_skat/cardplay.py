"""Doko-Skat's card play as a state and pure functions (``sim.engine.cardplay``).

Both rounds of tricks run through the same functions: the first round (3 tricks with the
three first-round cards each, in the turned-up card's game) and the main game (12 tricks
in the declared game, or the redeal's). One state array holds the whole deal from the
first lead on: between the rounds the kernel (``sim.games.doko_skat.game``) moves it on with the
steps the rules name (``take_up``: teams, stocks and skat; ``name_game`` or ``redeal``;
``put_away``; ``start_main_game``), and the declaration and the discards are asked from
observations of it.

The state
---------
``Header`` (``PHASE`` is always ``PLAY``: every card-play action is a card), then
``HANDS`` (per seat), ``ROUND`` (``PH_FIRST_ROUND`` or ``PH_PLAY``, the observation's
``PHASE``) and ``N_TRICKS`` (the round's tricks), then everyone's view of the deal in the
observation's own order (``sim.games.doko_skat.observation``: the trick in play, the cards each
seat played in each round, tricks and card points per seat, voids in each round, the copies
of the turned-up card each seat took in the first round and who took its last trick, the
turned-up card and the games and trick tables, the teams, the declarer, the redeal, the
cards out), the rules the card play follows (``team_cards``, ``first_round_points``,
``bridge_order``, ``main_lead``), then what one seat alone sees (``DISCARDS`` per seat, the
``SKAT`` the lone player took) and what the settlement needs besides (``SPITZEN`` by every
reading, ``BOTH_AT``). ``observe`` copies the shared part block by block.

The scoring-only rules (``both_copies``, ``spitzen``, ``spitzen_of``, ``tie_special_points``,
``zero_sum``) are no part of the state: it holds what the cards decided under every reading,
and ``settlement`` takes the readings.

Once a round is over (``DONE``) the trick fields keep its last trick, as the seats saw it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numba
import numpy as np

from sim import actions as A
from sim.cards import bit
from sim.engine import loops
from sim.engine.cardplay import PLAY, offsets
from sim.games.doko_skat.features import ROWS
from sim.games.doko_skat.observation import FIELDS as O
from sim.games.doko_skat.observation import PH_FIRST_ROUND, PH_PLAY
from sim.games.doko_skat.policies import decide
from sim.games.doko_skat.values import (
    BAND_POINTS,
    EFF,
    FIRST_ROUND_TRICKS,
    GAME_TYPE,
    GRAND,
    JIT,
    JIT_NRT,
    LEAD_DECLARER,
    LEAD_FIRST_ROUND_WINNER,
    LONE,
    N_CARDS,
    N_KINDS,
    N_SPITZEN_COUNTS,
    PAIR,
    POINTS,
    SPITZEN_COLUMNS,
    STRENGTH,
    SUIT_MASKS,
    TRICKS,
    both_copies_at,
    game_code,
    game_of_card,
    held_copy,
    holds_both,
    settle_terms,
    side_points,
    special_points,
    spitzen,
    spitzen_count,
    table_of,
)
from sim.tricks import legal_mask, trick_winner


class State(NamedTuple):
    """The card-play state's fields and their sizes (``offsets`` makes them offsets)."""

    TO_MOVE: int = 1
    PLAYER: int = 1
    PHASE: int = 1
    DONE: int = 1
    HANDS: int = 3
    """The cards each seat may still play (in the first round his first-round cards)."""
    ROUND: int = 1
    """``PH_FIRST_ROUND`` or ``PH_PLAY``."""
    N_TRICKS: int = 1
    # everyone's view, in the observation's order from FOREHAND to DECLARER
    FOREHAND: int = 1
    TRICK_NO: int = 1
    TRICK_N: int = 1
    TRICK_LEADER: int = 1
    TRICK_CARD: int = 3
    FR_PLAYED: int = 3
    PLAYED: int = 3
    POINTS: int = 3
    TRICKS: int = 3
    FR_TRICKS: int = 3
    FR_POINTS: int = 3
    VOIDS: int = 3
    FR_VOIDS: int = 3
    FR_COPIES: int = 3
    FR_LAST: int = 1
    TURNED_UP: int = 1
    FR_GAME: int = 1
    FR_TABLE: int = 1
    GAME: int = 1
    TABLE: int = 1
    LONE: int = 1
    DECLARER: int = 1
    # ... and from REDEAL to OUT
    REDEAL: int = 1
    SECOND_TURNED_UP: int = 1
    OUT: int = 1
    # the rules, in the observation's order
    TEAM_CARDS: int = 1
    COUNT_FIRST_ROUND: int = 1
    BRIDGE_SKAT: int = 1
    MAIN_LEAD: int = 1
    # one seat's own
    DISCARDS: int = 3
    SKAT: int = 1
    # the settlement's besides
    SPITZEN: int = N_SPITZEN_COUNTS
    """The Spitzen, undoubled, of the declaring side and of the declarer alone, by copies
    and by ranks (at ``spitzen_count(own, ranks)``; 0 without a declaring side)."""
    BOTH_AT: int = 1
    """Where the lone player's cards first hold both turned-up cards (``both_copies_at``)."""


S, LENGTH = offsets(State)

_SHOWN = (("FOREHAND", "DECLARER"), ("REDEAL", "OUT"), ("TEAM_CARDS", "MAIN_LEAD"))
"""The state's blocks that ``observe`` copies as they are: each lies as in the observation."""
for _first, _last in _SHOWN:
    _names = State._fields[State._fields.index(_first):State._fields.index(_last) + 1]
    assert all(getattr(S, n) - getattr(S, _first) == getattr(O, n) - getattr(O, _first)
               for n in _names), f"state fields {_first}..{_last} out of the observation's order"


# --- the deal's steps outside the tricks ---------------------------------------------------

@numba.njit(inline="always", **JIT)
def _round(state, which, tricks, leader):
    """A round of ``tricks`` tricks begins: ``leader`` leads the first."""
    state[S.ROUND] = which
    state[S.N_TRICKS] = tricks
    state[S.DONE] = 0
    state[S.PHASE] = PLAY
    state[S.TRICK_NO] = 0
    state[S.TRICK_N] = 0
    state[S.TRICK_LEADER] = leader
    for k in range(3):
        state[S.TRICK_CARD + k] = -1
    state[S.TO_MOVE] = leader
    state[S.PLAYER] = leader


@numba.njit(**JIT)
def start_first_round(state, forehand, turned_up, hands, team_cards, count_first_round, bridge_skat,
                      main_lead):
    """The position before the first round's first trick: each seat holds his three
    first-round cards (``hands``), the turned-up card (a kind, 0-23: both copies look the
    same) sets the game, forehand leads; the rules as the kernel reads them (``team_cards``'
    and ``main_lead``'s codes, the flags of ``first_round_points`` and ``bridge_order``)."""
    state[:] = 0
    for s in range(3):
        state[S.HANDS + s] = np.int64(hands[s])
    fr_game = game_of_card(turned_up)
    state[S.FOREHAND] = forehand
    state[S.TURNED_UP] = turned_up
    state[S.FR_GAME] = fr_game
    state[S.FR_TABLE] = table_of(fr_game, bridge_skat)
    state[S.GAME] = -1
    state[S.TABLE] = -1
    state[S.LONE] = -1
    state[S.DECLARER] = -1
    state[S.SECOND_TURNED_UP] = -1
    state[S.FR_LAST] = -1
    state[S.TEAM_CARDS] = team_cards
    state[S.COUNT_FIRST_ROUND] = count_first_round
    state[S.BRIDGE_SKAT] = bridge_skat
    state[S.MAIN_LEAD] = main_lead
    _round(state, PH_FIRST_ROUND, FIRST_ROUND_TRICKS, forehand)


@numba.njit(**JIT)
def take_up(state, stocks, skat, lone):
    """After the first round: the teams (``lone`` against the pair), everyone takes up his
    stock, the lone player the skat too; where the lone player's cards (his first-round
    cards, stock and skat) hold both turned-up cards."""
    state[S.LONE] = lone
    state[S.SKAT] = np.int64(skat)
    for s in range(3):
        state[S.HANDS + s] = np.int64(stocks[s] | (skat if s == lone else np.uint64(0)))
    state[S.BOTH_AT] = both_copies_at(np.uint64(state[S.FR_PLAYED + lone]), stocks[lone], skat,
                                      state[S.TURNED_UP])


@numba.njit(**JIT)
def name_game(state, declarer, game):
    """``declarer`` names ``game`` (a code, 0-8): the first-round tricks are out of the
    main game for everyone."""
    state[S.DECLARER] = declarer
    state[S.GAME] = game
    state[S.TABLE] = table_of(game, state[S.BRIDGE_SKAT])
    state[S.OUT] = state[S.FR_PLAYED] | state[S.FR_PLAYED + 1] | state[S.FR_PLAYED + 2]


@numba.njit(**JIT)
def redeal(state, second, extra):
    """Nobody declared: the second turned-up card (a kind) sets the game, each seat is
    given ``extra[s]`` of the nine first-round cards (no special points: ``earned``)."""
    game = game_of_card(second)
    state[S.REDEAL] = 1
    state[S.SECOND_TURNED_UP] = second
    state[S.GAME] = game
    state[S.TABLE] = table_of(game, state[S.BRIDGE_SKAT])
    for s in range(3):
        state[S.HANDS + s] |= np.int64(extra[s])


@numba.njit(inline="always", **JIT)
def put_away(state, seat, cards):
    """``seat`` discards ``cards`` (a mask of cards he holds): they count for his side."""
    state[S.HANDS + seat] &= ~np.int64(cards)
    state[S.DISCARDS + seat] = np.int64(cards)


@numba.njit(**JIT)
def count_spitzen(state):
    """Count the declaring side's Spitzen and the declarer's own by every reading
    (``SPITZEN``) on each seat's main-game cards, held, played or put away (the skat
    included)."""
    declarer = state[S.DECLARER]
    if declarer < 0:
        return
    lone = state[S.LONE]
    side = np.uint64(0)
    own = np.uint64(0)
    for s in range(3):
        cards = np.uint64(state[S.HANDS + s] | state[S.PLAYED + s] | state[S.DISCARDS + s])
        if (s == lone) == (declarer == lone):
            side |= cards
        if s == declarer:
            own = cards
    for ranks in range(2):
        state[S.SPITZEN + spitzen_count(0, ranks)] = spitzen(side, state[S.TABLE], ranks)
        state[S.SPITZEN + spitzen_count(1, ranks)] = spitzen(own, state[S.TABLE], ranks)


@numba.njit(inline="always", **JIT)
def main_leader(state):
    """Who leads the main game (``main_lead``): forehand; the taker of the first round's
    last trick; or the declarer (forehand when nobody declared)."""
    rule = state[S.MAIN_LEAD]
    if rule == LEAD_FIRST_ROUND_WINNER:
        return state[S.FR_LAST]
    if rule == LEAD_DECLARER and state[S.DECLARER] >= 0:
        return state[S.DECLARER]
    return state[S.FOREHAND]


@numba.njit(**JIT)
def start_main_game(state):
    """The position before the main game's first trick: ``main_leader`` leads; the Spitzen
    are counted on the cards (``count_spitzen``: hands and discards, the skat included)."""
    count_spitzen(state)
    _round(state, PH_PLAY, TRICKS, main_leader(state))


# --- the tricks ----------------------------------------------------------------------------

@numba.njit(inline="always", **JIT)
def table_in_force(state):
    """The trick table of the round in play."""
    return state[S.FR_TABLE] if state[S.ROUND] == PH_FIRST_ROUND else state[S.TABLE]


@numba.njit(inline="always", **JIT)
def legal(state):
    """The cards the player to move may play: the led card's effective suit if he can."""
    table = table_in_force(state)
    hand = np.uint64(state[S.HANDS + state[S.TO_MOVE]])
    led = state[S.TRICK_CARD] if state[S.TRICK_N] else -1
    return legal_mask(hand, led, EFF[table], SUIT_MASKS[table])


@numba.njit(inline="always", **JIT)
def finished(state):
    """Whether the round in play is over (the main game's: the card play)."""
    return state[S.DONE] == 1


@numba.njit(inline="always", **JIT)
def step(state, card):
    """The player to move plays ``card``; the third card settles the trick: its taker gets
    its tricks and points and leads the next. A card off the led suit shows a void (in
    the main game's ``VOIDS``, the first round's ``FR_VOIDS``). A finished state stays as
    it is."""
    if not state[S.DONE]:
        seat = state[S.TO_MOVE]
        n = state[S.TRICK_N]
        main = state[S.ROUND] == PH_PLAY
        table = table_in_force(state)
        state[S.HANDS + seat] &= ~np.int64(bit(card))
        state[(S.PLAYED if main else S.FR_PLAYED) + seat] |= np.int64(bit(card))
        led = EFF[table, state[S.TRICK_CARD]] if n else EFF[table, card]
        if EFF[table, card] != led:
            state[(S.VOIDS if main else S.FR_VOIDS) + seat] |= 1 << led
        state[S.TRICK_CARD + n] = card
        if n < 2:
            state[S.TRICK_N] = n + 1
            state[S.TO_MOVE] = (seat + 1) % 3
        else:
            _trick_taken(state, main, table)
        state[S.PLAYER] = state[S.TO_MOVE]


@numba.njit(inline="always", **JIT)
def _trick_taken(state, main, table):
    """The trick's three cards lie: its taker leads the next, or the round is over."""
    cards = state[S.TRICK_CARD:S.TRICK_CARD + 3]
    winner = (state[S.TRICK_LEADER] + trick_winner(cards, 3, EFF[table], STRENGTH[table])) % 3
    won = POINTS[cards[0]] + POINTS[cards[1]] + POINTS[cards[2]]
    state[(S.POINTS if main else S.FR_POINTS) + winner] += won
    state[(S.TRICKS if main else S.FR_TRICKS) + winner] += 1
    state[S.TO_MOVE] = winner
    last = state[S.TRICK_NO] + 1 == state[S.N_TRICKS]
    if not main:
        turned = state[S.TURNED_UP]
        for k in range(3):
            if cards[k] % N_KINDS == turned:
                state[S.FR_COPIES + winner] += 1
        if last:
            state[S.FR_LAST] = winner
    if last:
        state[S.DONE] = 1
    else:
        state[S.TRICK_NO] += 1
        state[S.TRICK_N] = 0
        state[S.TRICK_LEADER] = winner
        for k in range(3):
            state[S.TRICK_CARD + k] = -1


@numba.njit(inline="always", **JIT)
def observe(state, seat, obs):
    """What ``seat`` sees: his cards (and the legal ones when he is to play), everything
    played and taken, the games, teams, declarer and redeal as known by now, his own
    discards and, the lone player, the skat. No question of the declaration or discard is
    open (``NEXT_SPEAKER`` -1, ``N_DISCARD`` 0): the kernel adds those."""
    obs[O.SEAT] = seat
    obs[O.PHASE] = state[S.ROUND]
    obs[O.HAND] = state[S.HANDS + seat]
    obs[O.LEGAL] = np.int64(legal(state)) if seat == state[S.TO_MOVE] and not state[S.DONE] else 0
    # element by element: numba's slice assignment costs several times as much here
    for k in range(O.DECLARER + 1 - O.FOREHAND):
        obs[O.FOREHAND + k] = state[S.FOREHAND + k]
    obs[O.NEXT_SPEAKER] = -1
    for k in range(O.OUT + 1 - O.REDEAL):
        obs[O.REDEAL + k] = state[S.REDEAL + k]
    obs[O.DISCARDED] = state[S.DISCARDS + seat]
    obs[O.SKAT] = state[S.SKAT] if seat == state[S.LONE] else 0
    obs[O.N_DISCARD] = 0
    for k in range(O.MAIN_LEAD + 1 - O.TEAM_CARDS):
        obs[O.TEAM_CARDS + k] = state[S.TEAM_CARDS + k]


@numba.njit(inline="always", **JIT)
def card_allowed(state, obs, card):
    """A recorded card as the player to move holds it (either copy: they look the same),
    or -1 when he may not play it now (``kernel.ask``'s check)."""
    card = held_copy(card, np.uint64(state[S.HANDS + state[S.TO_MOVE]]))
    if 0 <= card < N_CARDS and (legal(state) >> np.uint64(card)) & np.uint64(1):
        return card
    return -1


@numba.njit(**JIT_NRT)
def playout(state, pols, rngs, net):
    """Play the round in play to its end with the policies (kernel ids, one per seat),
    each seat drawing from its own stream ``rngs[seat]``; ``net`` holds the networks of its
    ``net`` seats (``NO_NET``: none)."""
    loops.playout(state, pols, rngs, net, O.LENGTH, finished, observe, step, decide, ROWS)


# --- the settlement --------------------------------------------------------------------------

@numba.njit(inline="always", **JIT)
def lone_both(state, both_copies):
    """Whether the lone player holds both turned-up cards under ``both_copies`` reading
    ``both_copies`` (a code, ``holds_both``)."""
    return holds_both(state[S.BOTH_AT], both_copies, state[S.TEAM_CARDS],
                      state[S.FR_COPIES + state[S.LONE]])


@numba.njit(inline="always", **JIT)
def earned(state, both_copies):
    """``(pair, lone)``: the special points each side earned in the first round under
    ``both_copies`` reading ``both_copies`` (``special_points``; none after a redeal)."""
    return special_points(lone_both(state, both_copies), state[S.FR_TRICKS + state[S.LONE]],
                          state[S.REDEAL])


@numba.njit(inline="always", **JIT)
def counted_spitzen(state, counted):
    """The Spitzen, undoubled, as counted at place ``counted`` (``spitzen_count``: of the
    side or the declarer, by copies or ranks)."""
    return state[S.SPITZEN + counted]


@numba.njit(**JIT)
def settlement(state, both_copies, counted, tie_special, zero_sum, bands):
    """The finished main game settled under the scoring rules (``both_copies``'s code, the
    Spitzen's place ``counted`` by ``spitzen_of`` and ``spitzen``, ``tie_special_points``,
    ``zero_sum``, the ``points_band_*`` points ``bands``): ``(pair, lone, terms)``, each
    side's card points part by part (``side_points``) and ``settle_terms``'s terms."""
    lone = state[S.LONE]
    declarer = state[S.DECLARER]
    pair_parts, lone_parts = side_points(
        state[S.POINTS:S.POINTS + 3], state[S.DISCARDS:S.DISCARDS + 3],
        state[S.FR_POINTS:S.FR_POINTS + 3], lone,
        declarer >= 0 and state[S.COUNT_FIRST_ROUND] != 0)
    declaring = -1 if declarer < 0 else LONE if declarer == lone else PAIR
    special_pair, special_lone = earned(state, both_copies)
    terms = settle_terms(
        pair_parts[0] + pair_parts[1] + pair_parts[2], lone_parts[0] + lone_parts[1] + lone_parts[2],
        declaring, GAME_TYPE[state[S.GAME]] == GRAND, counted_spitzen(state, counted), special_pair,
        special_lone, tie_special, zero_sum, bands)
    return pair_parts, lone_parts, terms


# --- for Python: a recorded deal's main game ------------------------------------------------

FIRST_ROUND_CARDS = 3 * FIRST_ROUND_TRICKS


def _opening(columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
             flags: tuple[int, int, int, int] | None
             ) -> tuple[np.ndarray, list[int], dict[str, Any]] | None:
    """Deal ``i``'s state before the first round's first trick, its recorded plays (both
    rounds') and its result columns as values; ``None`` for a deal that did not reach its
    end. ``flags``, if given, must be the rules' flags the columns hold."""
    col = {name: values[i].item() for name, values in columns.items()}
    plays = [int(r[2]) for r in rows if r[0] == A.PLAY]
    if col["replay_error"] or len(plays) != FIRST_ROUND_CARDS + 3 * TRICKS:
        return None
    played = (col["bridge_order"], col["team_cards"], int(col["first_round_points"]),
              col["main_lead"])
    if flags is not None and played != flags:
        raise ValueError(f"deal {i} was played under other rules than those given (its columns: "
                         f"bridge_order, team_cards, first_round_points, main_lead {played})")
    state = np.zeros(LENGTH, np.int64)
    start_first_round(state, (col["dealer"] + 1) % 3, col["turned_up"], _per_seat(col, "first_round"),
                      played[1], played[2], played[0], played[3])
    return state, plays, col


def _per_seat(col: Mapping[str, Any], name: str) -> np.ndarray:
    return np.array([col[f"{name}_{s}"] for s in range(3)], np.uint64)


def first_round(columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
                flags: tuple[int, int, int, int] | None = None) -> tuple[np.ndarray, Sequence[int]] | None:
    """Deal ``i``'s state before the first round's first trick and the first round's recorded
    plays (``CardPlay.opening``: the round that decides the teams); ``None`` as ``start``."""
    opened = _opening(columns, i, rows, flags)
    if opened is None:
        return None
    state, plays, _ = opened
    return state, plays[:FIRST_ROUND_CARDS]


def start(columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
          flags: tuple[int, int, int, int] | None = None) -> tuple[np.ndarray, Sequence[int]] | None:
    """Deal ``i``'s state before the main game's first trick, rebuilt from its result
    columns (the cards dealt, the teams, the declared game or the redeal, the discards, the
    rules the card play followed) and its first-round plays; and the main game's recorded
    plays. ``None`` for a deal that did not reach its end (a replay error, a person's stop).
    The columns hold the rules (``bridge_order``, ``team_cards``, ``first_round_points``,
    ``main_lead``);
    ``flags``, the rules' as ``game.rule_flags`` reads them, if given, must be the same."""
    opened = _opening(columns, i, rows, flags)
    if opened is None:
        return None
    state, plays, col = opened
    for card in plays[:FIRST_ROUND_CARDS]:
        step(state, card)
    take_up(state, _per_seat(col, "stock"), np.uint64(col["skat"]), col["lone"])
    discards = _per_seat(col, "discard")
    if col["nobody_declared"]:
        redeal(state, col["second_turned_up"], _per_seat(col, "extra"))
        for s in range(3):
            put_away(state, s, discards[s])
    else:
        name_game(state, col["declarer"], game_code(col["game"], col["trump"]))
        put_away(state, col["lone"], discards[col["lone"]])
    start_main_game(state)
    return state, plays[FIRST_ROUND_CARDS:]


def result(state: np.ndarray) -> dict[str, int]:
    """What a finished main game decides under every scoring rule, by result column: each
    seat's card points and tricks, each side's discards and card points, the winning side
    and the tie, the Spitzen by every reading and where the lone player's cards hold both
    turned-up cards (what the special points and the value are settled from,
    ``settlement``)."""
    # no scoring rule moves the winner
    pair, lone, terms = settlement(state, 0, 0, 0, False, BAND_POINTS)
    out = {f"points_{s}": int(state[S.POINTS + s]) for s in range(3)}
    out.update({f"tricks_{s}": int(state[S.TRICKS + s]) for s in range(3)})
    out.update(discard_points_pair=int(pair[1]), discard_points_lone=int(lone[1]),
               points_pair=int(sum(pair)), points_lone=int(sum(lone)),
               **{name: int(state[S.SPITZEN + k]) for k, name in enumerate(SPITZEN_COLUMNS)},
               lone_both_by=int(state[S.BOTH_AT]), winner_side=int(terms[0]), tie=int(terms[1]))
    return out


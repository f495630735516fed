"""Three players with Doppelkopf cards (``doko_skat``; RULES.md, seed 004).

What the game is
----------------
* Players: 3, seats clockwise from 0; in deal ``d`` seat ``d % 3`` deals, the next seat
  is forehand and leads both rounds.
* Deck: 48 Doppelkopf cards (``DOKO_DECK_48``), 240 points. Dealt 4 to each, 3 to the
  skat, 4 each, 4 each: every player's 12 cards lie face down as his stock. The top card
  of the 9 left over is turned up and sets the first round's game (``game_of_card``);
  the 9 are shuffled again and dealt 3 to each.
* First round: 3 tricks with those cards. The holders of the turned-up card
  (``team_cards``) form the teams: two holders are the pair against the third, a single
  holder is the lone player against the other two. The lone player takes the skat.
* Declaration: in the order of the first-round tricks (``declaration_order``) each names
  a game (a suit game or a bridge in any suit, or grand) or passes; the first to name one
  is the declarer. The lone player then discards 3 cards (they count for him).
* Nobody declares: the 9 first-round cards are shuffled, the top one turned up sets the
  game, they are shuffled again and dealt 2 to each pair member, 1 to the lone player,
  2 to each pair member; everyone discards 4 (for his side).
* Main game: 12 tricks; more card points wins; bands, Spitzen and special points
  (``settle``). Options: ``OPTIONS`` below.
"""

from __future__ import annotations

from collections.abc import Mapping

import numba
import numpy as np

from sim import actions as A
from sim.cards import DOKO_DECK_48, SUITS, bit, lsb, mask_points, popcount
from sim.deals import Group, Layout
from sim.games import doko_skat_obs as O
from sim.games.base import Game, Outcome, forehand
from sim.games.doko_skat_values import (
    EFF,
    GAME_TRUMP,
    GAME_TYPE,
    GAME_TYPES,
    GRAND,
    LONE,
    N_GAMES,
    N_KINDS,
    PAIR,
    POINTS,
    SIDES,
    STRENGTH,
    SUIT_MASKS,
    declaration_order,
    game_of_card,
    held_copies,
    held_copy,
    settle,
    settle_all,
    spitzen,
    table_of,
    teams,
)
from sim.games.kernel import (
    E_ILLEGAL,
    E_MISMATCH,
    KernelTag,
    deal_scratch,
    implements,
    order_deck,
    person_waits,
    record,
    scripted,
)
from sim.games.kernel import play_deal as kernel_play_deal
from sim.options import Option, OptionTable
from sim.policies.doko_skat import decide_card, decide_declaration, decide_discard
from sim.rng import STREAM_DEAL, STREAM_SEAT0, shuffle, stream_key
from sim.tricks import legal_mask, trick_winner

NAME = "doko_skat"
N_PLAYERS = 3
DECK = DOKO_DECK_48
N_CARDS = 48
STOCK = 12
LEFT_OVER = 9
TRICKS = 12
FIRST_ROUND_TRICKS = 3

OBSERVATION = O
"""The fields of a seat's observation, what its policy (or a person at the table) sees."""

OPTIONS = OptionTable([
    Option("bridge_order", "natural", ("natural", "skat"),
           "in a bridge every suit ranks A K Q J T 9 (natural) or A T K Q J 9 (skat)"),
    Option("team_cards", "first_round", ("first_round", "all"),
           "a holder of the turned-up card has a copy among his three first-round cards; or "
           "anywhere in his cards, his stock included"),
    Option("first_round_points", True, (True, False),
           "first-round tricks count for the side that took them (in a redeal for nobody)"),
    Option("zero_sum", False, (False, True),
           "the lone player wins or loses twice the game's points, each pair member once, "
           "the other side the opposite; false: only the winning side scores",
           scoring_only=True),
])

P_BRIDGE_SKAT, P_TEAM_ALL, P_COUNT_FR, P_ZERO_SUM, P_N = range(5)


def kernel_params(rules: dict) -> np.ndarray:
    """The rules as the kernel's parameter array."""
    p = np.zeros(P_N, np.int64)
    p[P_BRIDGE_SKAT] = rules["bridge_order"] == "skat"
    p[P_TEAM_ALL] = rules["team_cards"] == "all"
    p[P_COUNT_FR] = bool(rules["first_round_points"])
    p[P_ZERO_SUM] = bool(rules["zero_sum"])
    return p


# --- results -------------------------------------------------------------------------------

def _per_seat(name: str, dtype: str) -> tuple[tuple[str, str], ...]:
    return tuple((f"{name}_{s}", dtype) for s in range(N_PLAYERS))


COLUMNS = (
    ("deal", "int64"), ("dealer", "int8"), ("turned_up", "int8"), ("fr_game", "int8"),
    ("fr_trump", "int8"),
) + _per_seat("fr_tricks", "int8") + _per_seat("fr_points", "int16") + (
    ("pair_0", "int8"), ("pair_1", "int8"), ("lone", "int8"), ("lone_both", "bool"),
    ("declarer", "int8"), ("declaring_side", "int8"), ("declarer_turn", "int8"),
    ("nobody_declared", "bool"), ("second_turned_up", "int8"), ("game", "int8"), ("trump", "int8"),
) + _per_seat("points", "int16") + _per_seat("tricks", "int8") + (
    ("discard_points_pair", "int16"), ("discard_points_lone", "int16"),
    ("points_pair", "int16"), ("points_lone", "int16"), ("special_pair", "int8"),
    ("special_lone", "int8"), ("spitzen", "int8"), ("winner_side", "int8"), ("tie", "bool"),
    ("value", "int8"),
) + _per_seat("score", "int16") + _per_seat("stock", "uint64") + (("skat", "uint64"),) \
    + _per_seat("first_round", "uint64") + _per_seat("extra", "uint64") \
    + _per_seat("discard", "uint64") + (("replay_error", "int16"),)
"""Result columns. ``turned_up`` / ``second_turned_up``: the card (its kind, 0-23; -1: no
redeal); ``fr_game`` / ``game``: the game type (suit, grand, bridge) and ``fr_trump`` /
``trump`` its trump suit (-1 in grand); ``fr_tricks`` / ``fr_points``: first-round tricks and
their card points per seat; ``declarer_turn``: 0-2, the declarer's place in the declaration
order; ``points_s`` / ``tricks_s``: main-game tricks per seat; ``points_pair`` /
``points_lone``: the side totals that decide the game (main-game tricks, discards, and the
first-round tricks when they count); ``special_*``: special points as earned (they count
only for a winning side); ``spitzen``: the declaring side's, undoubled; ``value``: what each
winner scores; ``stock_s``, ``skat``, ``first_round_s``, ``extra_s`` (redeal), ``discard_s``:
card masks."""
COL = {name: j for j, (name, _) in enumerate(COLUMNS)}
(C_DEAL, C_DEALER, C_TURNED, C_FR_GAME, C_FR_TRUMP, C_FR_TRICKS) = range(6)
C_FR_POINTS = COL["fr_points_0"]
C_PAIR, C_LONE, C_BOTH = COL["pair_0"], COL["lone"], COL["lone_both"]
C_DECLARER, C_SIDE, C_TURN, C_NOBODY = (COL[n] for n in ("declarer", "declaring_side",
                                                          "declarer_turn", "nobody_declared"))
C_SECOND, C_GAME, C_TRUMP, C_POINTS, C_TRICKS = (COL[n] for n in (
    "second_turned_up", "game", "trump", "points_0", "tricks_0"))
C_DISC_PAIR, C_DISC_LONE, C_PTS_PAIR, C_PTS_LONE, C_SP_PAIR, C_SP_LONE, C_SPITZEN, C_WINNER, \
    C_TIE, C_VALUE, C_SCORE = (COL[n] for n in (
        "discard_points_pair", "discard_points_lone", "points_pair", "points_lone", "special_pair",
        "special_lone", "spitzen", "winner_side", "tie", "value", "score_0"))
C_STOCK, C_SKAT, C_FIRST, C_EXTRA, C_DISCARD, C_ERROR = (COL[n] for n in (
    "stock_0", "skat", "first_round_0", "extra_0", "discard_0", "replay_error"))

CATEGORIES = {"turned_up": DECK.names[:N_KINDS], "second_turned_up": DECK.names[:N_KINDS],
              "fr_game": GAME_TYPES, "game": GAME_TYPES, "fr_trump": tuple(SUITS),
              "trump": tuple(SUITS), "declaring_side": SIDES, "winner_side": SIDES}
"""Integer-coded columns written as labels (``sim.runner``); -1 is null."""


def rescore(columns: dict[str, np.ndarray], rules: dict) -> dict[str, np.ndarray]:
    """Played deals' columns under other scoring-only rules (``zero_sum``)."""
    out = dict(columns)
    i64 = {k: columns[k].astype(np.int64) for k in (
        "points_pair", "points_lone", "declaring_side", "spitzen", "special_pair", "special_lone",
        "lone", "game")}
    winner, tie, value, pair_score, lone_score = settle_all(
        i64["points_pair"], i64["points_lone"], i64["declaring_side"], i64["game"] == GRAND,
        i64["spitzen"], i64["special_pair"], i64["special_lone"], bool(rules["zero_sum"]))
    out["winner_side"], out["tie"], out["value"] = winner.astype(np.int8), tie, value.astype(np.int8)
    for s in range(N_PLAYERS):
        out[f"score_{s}"] = np.where(i64["lone"] == s, lone_score, pair_score).astype(np.int16)
    return out


# --- decisions -----------------------------------------------------------------------------

@numba.njit(cache=True, inline="always")
def _private(obs, seat, hand, discards, skat, lone):  # type: ignore[no-untyped-def]
    """The deciding seat's own fields: its cards, its discards, the skat if it took it (and
    no legal cards until a card is asked for)."""
    obs[O.SEAT] = seat
    obs[O.LEGAL] = 0
    obs[O.HAND] = np.int64(hand)
    obs[O.DISCARDED] = np.int64(discards[seat])
    obs[O.SKAT] = np.int64(skat) if seat == lone else 0


@numba.njit(cache=True, inline="always")
def _play_trick(leader, hands, table, main, obs, pols, states, discards, skat, lone, trick,
                script, cur, err, log, nlog):  # type: ignore[no-untyped-def]
    """Play one trick from ``leader``; returns ``(winner, card points)`` (-1 on a replay
    error). ``main``: a main-game trick (else a first-round one)."""
    eff = EFF[table]
    obs[O.TRICK_LEADER] = leader
    for k in range(3):
        obs[O.TRICK_CARD + k] = -1
    for n in range(3):
        seat = (leader + n) % 3
        legal = legal_mask(hands[seat], trick[0] if n else -1, eff, SUIT_MASKS[table])
        _private(obs, seat, hands[seat], discards, skat, lone)
        obs[O.TRICK_N] = n
        obs[O.LEGAL] = np.int64(legal)
        if pols[seat] < 0:
            if person_waits(pols[seat], script, cur, obs, err, log, nlog):
                return -1, 0
            card = scripted(script, cur, A.PLAY, seat, err)
            if err[0]:
                return -1, 0
            card = held_copy(card, hands[seat])
            if card < 0 or card >= N_CARDS or not (legal >> np.uint64(card)) & np.uint64(1):
                err[0] = E_ILLEGAL
                return -1, 0
        else:
            card = decide_card(pols[seat], obs, states[STREAM_SEAT0 + seat])
        record(log, nlog, A.PLAY, seat, card, 0)
        hands[seat] &= ~bit(card)
        obs[(O.PLAYED if main else O.FR_PLAYED) + seat] |= np.int64(bit(card))
        if main and n and eff[card] != eff[trick[0]]:
            obs[O.VOIDS + seat] |= 1 << eff[trick[0]]
        trick[n] = card
        obs[O.TRICK_CARD + n] = card
    winner = (leader + trick_winner(trick, 3, eff, STRENGTH[table])) % 3
    return winner, POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]]


@numba.njit(cache=True)
def _ask_declaration(seat, obs, pol, state, script, cur, err, log, nlog):  # type: ignore[no-untyped-def]
    """Seat ``seat`` names a game (its code) or passes (-1)."""
    if pol < 0:
        if person_waits(pol, script, cur, obs, err, log, nlog):
            return -1
        i = cur[0]
        if i >= script.shape[0] or script[i, 1] != seat or script[i, 0] not in (A.DECLARE, A.PASS):
            err[0] = E_MISMATCH
            return -1
        cur[0] = i + 1
        code = script[i, 2] if script[i, 0] == A.DECLARE else -1
        if code >= N_GAMES or (script[i, 0] == A.DECLARE and code < 0):
            err[0] = E_ILLEGAL
            return -1
    else:
        code = decide_declaration(pol, obs, state)
    if code < 0:
        record(log, nlog, A.PASS, seat, 0, 0)
    else:
        record(log, nlog, A.DECLARE, seat, code, 0)
    return code


@numba.njit(cache=True)
def _ask_discard(seat, n, hands, discards, skat, lone, obs, pol, state, script, cur, err, log,
                 nlog):  # type: ignore[no-untyped-def]
    """Seat ``seat`` puts ``n`` of its cards away."""
    _private(obs, seat, hands[seat], discards, skat, lone)
    obs[O.N_DISCARD] = n
    if pol < 0:
        if person_waits(pol, script, cur, obs, err, log, nlog):
            return
        cards = held_copies(np.uint64(scripted(script, cur, A.DISCARD, seat, err)), hands[seat])
        if err[0]:
            return
        if popcount(cards) != n or cards & ~hands[seat]:
            err[0] = E_ILLEGAL
            return
    else:
        cards = np.uint64(decide_discard(pol, obs, state))
    record(log, nlog, A.DISCARD, seat, np.int64(cards), 0)
    hands[seat] &= ~cards
    discards[seat] = cards


# --- one deal ------------------------------------------------------------------------------

@numba.njit(cache=True)
def _deal(state, perm, perm9, forehand, stocks, first_round, preset):  # type: ignore[no-untyped-def]
    """Deal the stocks (4 each from forehand on, 3 to the skat, 4 each, 4 each), turn up
    the top of the 9 left over, shuffle those and deal them 3 to each. Returns ``(skat,
    turned-up card)``. A deal given by hand lays the 48 cards and then the 9's second
    order in ``preset`` (``order_deck``)."""
    order_deck(state, perm, preset, 0)
    skat = np.uint64(0)
    k = 0
    for packet in range(3):
        for s in range(3):
            for _ in range(4):
                stocks[(forehand + s) % 3] |= bit(perm[k])
                k += 1
        if packet == 0:
            for _ in range(3):
                skat |= bit(perm[k])
                k += 1
    turned = perm[k]
    order_deck(state, perm9, preset, N_CARDS)
    for j in range(LEFT_OVER):
        first_round[(forehand + j // 3) % 3] |= bit(perm[k + perm9[j]])
    return skat, turned


@numba.njit(cache=True)
def _redeal(state, perm9, nine, forehand, first_round, lone, extra):  # type: ignore[no-untyped-def]
    """Nobody declared: shuffle the 9 first-round cards (taken in deck order), turn up the
    top one, shuffle again and deal 2 to each pair member, 1 to the lone player, 2 to each
    pair member (from forehand on). Returns the turned-up card."""
    k = 0
    for s in range(3):
        m = first_round[s]
        while m:
            nine[k] = lsb(m)
            k += 1
            m &= m - np.uint64(1)
    nine[:LEFT_OVER].sort()
    shuffle(state, perm9)
    turned = nine[perm9[0]]
    shuffle(state, perm9)
    j = 0
    for packet in range(3):
        for r in range(3):
            seat = (forehand + r) % 3
            if (packet == 1) != (seat == lone):
                continue
            for _ in range(1 if seat == lone else 2):
                extra[seat] |= bit(nine[perm9[j]])
                j += 1
    return turned


@numba.njit(cache=True)
def play_deal(seed, deal, params, pols, row, obs, states, stocks, first_round, hands, extra,
              discards, perm, perm9, nine, trick, order, script, cur, err, log,
              nlog, preset):  # type: ignore[no-untyped-def]
    """Deal, play and score deal ``deal`` into result ``row`` (``row[C_ERROR]`` set on a
    replay error)."""
    for s in range(states.shape[0]):
        states[s, 0] = stream_key(seed, deal, s)
    dealer = deal % 3
    forehand = (dealer + 1) % 3
    for s in range(3):
        stocks[s] = 0
        first_round[s] = 0
        extra[s] = 0
        discards[s] = 0
    skat, turned = _deal(states[STREAM_DEAL], perm, perm9, forehand, stocks, first_round, preset)
    fr_game = game_of_card(turned)
    bridge_skat = params[P_BRIDGE_SKAT]
    fr_table = table_of(fr_game, bridge_skat)
    row[:] = 0
    row[C_DEAL] = deal
    row[C_DEALER] = dealer
    row[C_TURNED] = turned % N_KINDS
    row[C_FR_GAME] = GAME_TYPE[fr_game]
    row[C_FR_TRUMP] = GAME_TRUMP[fr_game]
    row[C_SECOND] = -1
    row[C_DECLARER] = -1
    row[C_SIDE] = -1
    row[C_TURN] = -1
    row[C_SKAT] = np.int64(skat)
    for s in range(3):
        row[C_STOCK + s] = np.int64(stocks[s])
        row[C_FIRST + s] = np.int64(first_round[s])
        hands[s] = first_round[s]
    obs[:] = 0
    obs[O.FOREHAND] = forehand
    obs[O.TURNED_UP] = turned % N_KINDS  # both copies look the same
    obs[O.FR_GAME] = fr_game
    obs[O.FR_TABLE] = fr_table
    obs[O.GAME] = -1
    obs[O.TABLE] = -1
    obs[O.LONE] = -1
    obs[O.DECLARER] = -1
    obs[O.NEXT_SPEAKER] = -1
    obs[O.SECOND_TURNED_UP] = -1
    obs[O.TEAM_ALL] = params[P_TEAM_ALL]
    obs[O.COUNT_FIRST_ROUND] = params[P_COUNT_FR]
    obs[O.BRIDGE_SKAT] = bridge_skat
    cur[0] = 0
    nlog[0] = 0

    # first round: 3 tricks with the 3 cards each
    obs[O.PHASE] = O.PH_FIRST_ROUND
    leader = forehand
    for t in range(FIRST_ROUND_TRICKS):
        obs[O.TRICK_NO] = t
        winner, won = _play_trick(leader, hands, fr_table, False, obs, pols, states, discards, skat,
                                  -1, trick, script, cur, err, log, nlog)
        if winner < 0:
            row[C_ERROR] = err[0]
            return
        obs[O.FR_TRICKS + winner] += 1
        obs[O.FR_POINTS + winner] += won
        leader = winner
    lone, lone_both = teams(first_round, stocks, turned, params[P_TEAM_ALL])
    pair_a = (lone + 1) % 3
    pair_b = (lone + 2) % 3
    row[C_PAIR] = min(pair_a, pair_b)
    row[C_PAIR + 1] = max(pair_a, pair_b)
    row[C_LONE] = lone
    row[C_BOTH] = lone_both
    for s in range(3):
        row[C_FR_TRICKS + s] = obs[O.FR_TRICKS + s]
        row[C_FR_POINTS + s] = obs[O.FR_POINTS + s]
    pair_fr_tricks = obs[O.FR_TRICKS + pair_a] + obs[O.FR_TRICKS + pair_b]
    row[C_SP_LONE] = int(lone_both) + int(obs[O.FR_TRICKS + lone] == FIRST_ROUND_TRICKS)
    row[C_SP_PAIR] = int(pair_fr_tricks == FIRST_ROUND_TRICKS)
    obs[O.LONE] = lone
    for s in range(3):
        hands[s] = stocks[s] | (skat if s == lone else np.uint64(0))

    # declaration
    obs[O.PHASE] = O.PH_DECLARE
    declaration_order(obs[O.FR_TRICKS:O.FR_TRICKS + 3], lone, forehand, order)
    declarer = -1
    game = -1
    for i in range(3):
        seat = order[i]
        obs[O.NEXT_SPEAKER] = order[i + 1] if i < 2 else -1
        _private(obs, seat, hands[seat], discards, skat, lone)
        code = _ask_declaration(seat, obs, pols[seat], states[STREAM_SEAT0 + seat], script, cur,
                                err, log, nlog)
        if err[0]:
            row[C_ERROR] = err[0]
            return
        if code >= 0:
            declarer = seat
            game = code
            row[C_TURN] = i
            break
    obs[O.NEXT_SPEAKER] = -1
    obs[O.PHASE] = O.PH_DISCARD
    if declarer >= 0:
        side = LONE if declarer == lone else PAIR
        row[C_DECLARER] = declarer
        row[C_SIDE] = side
        obs[O.DECLARER] = declarer
        table = table_of(game, bridge_skat)
        obs[O.GAME] = game
        obs[O.TABLE] = table
        obs[O.OUT] = obs[O.FR_PLAYED] | obs[O.FR_PLAYED + 1] | obs[O.FR_PLAYED + 2]
        _ask_discard(lone, 3, hands, discards, skat, lone, obs, pols[lone],
                     states[STREAM_SEAT0 + lone], script, cur, err, log, nlog)
        if err[0]:
            row[C_ERROR] = err[0]
            return
        row[C_SPITZEN] = spitzen(stocks[lone] | skat if side == LONE
                                 else stocks[pair_a] | stocks[pair_b], table)
    else:
        side = -1
        row[C_NOBODY] = 1
        row[C_SP_LONE] = 0
        row[C_SP_PAIR] = 0
        second = _redeal(states[STREAM_DEAL], perm9, nine, forehand, first_round, lone, extra)
        game = game_of_card(second)
        table = table_of(game, bridge_skat)
        row[C_SECOND] = second % N_KINDS
        obs[O.REDEAL] = 1
        obs[O.SECOND_TURNED_UP] = second % N_KINDS
        obs[O.GAME] = game
        obs[O.TABLE] = table
        for s in range(3):
            hands[s] |= extra[s]
            row[C_EXTRA + s] = np.int64(extra[s])
        for r in range(3):
            seat = (forehand + r) % 3
            _ask_discard(seat, 4, hands, discards, skat, lone, obs, pols[seat],
                         states[STREAM_SEAT0 + seat], script, cur, err, log, nlog)
            if err[0]:
                row[C_ERROR] = err[0]
                return
    row[C_GAME] = GAME_TYPE[game]
    row[C_TRUMP] = GAME_TRUMP[game]
    obs[O.N_DISCARD] = 0

    # main game: 12 tricks from forehand
    obs[O.PHASE] = O.PH_PLAY
    leader = forehand
    for t in range(TRICKS):
        obs[O.TRICK_NO] = t
        winner, won = _play_trick(leader, hands, table, True, obs, pols, states, discards, skat,
                                  lone, trick, script, cur, err, log, nlog)
        if winner < 0:
            row[C_ERROR] = err[0]
            return
        obs[O.POINTS + winner] += won
        obs[O.TRICKS + winner] += 1
        leader = winner

    # settlement
    side_points = np.zeros(2, np.int64)
    for s in range(3):
        row[C_POINTS + s] = obs[O.POINTS + s]
        row[C_TRICKS + s] = obs[O.TRICKS + s]
        row[C_DISCARD + s] = np.int64(discards[s])
        d = mask_points(discards[s], POINTS)
        sd = LONE if s == lone else PAIR
        row[C_DISC_LONE if sd == LONE else C_DISC_PAIR] += d
        side_points[sd] += obs[O.POINTS + s] + d
        if declarer >= 0 and params[P_COUNT_FR]:
            side_points[sd] += obs[O.FR_POINTS + s]
    row[C_PTS_PAIR] = side_points[PAIR]
    row[C_PTS_LONE] = side_points[LONE]
    winner_side, tie, value, pair_score, lone_score = settle(
        side_points[PAIR], side_points[LONE], side, GAME_TYPE[game] == GRAND, row[C_SPITZEN],
        row[C_SP_PAIR], row[C_SP_LONE], params[P_ZERO_SUM])
    row[C_WINNER] = winner_side
    row[C_TIE] = tie
    row[C_VALUE] = value
    for s in range(3):
        row[C_SCORE + s] = lone_score if s == lone else pair_score


@implements(deal_scratch, NAME)
def _deal_scratch(game):  # type: ignore[no-untyped-def]
    return (np.zeros(O.LENGTH, np.int64), np.zeros((STREAM_SEAT0 + 3, 1), np.uint64),
            np.zeros(3, np.uint64), np.zeros(3, np.uint64), np.zeros(3, np.uint64),
            np.zeros(3, np.uint64), np.zeros(3, np.uint64), np.zeros(N_CARDS, np.int64),
            np.zeros(LEFT_OVER, np.int64), np.zeros(LEFT_OVER, np.int64), np.zeros(3, np.int64),
            np.zeros(3, np.int64))


@implements(kernel_play_deal, NAME)
def _play_deal(game, seed, deal, params, pols, values, row, work, script, cur, err, log, nlog,  # type: ignore[no-untyped-def]
               preset):
    obs, states, stocks, first_round, hands, extra, discards, perm, perm9, nine, trick, order = work
    play_deal(seed, deal, params, pols, row, obs, states, stocks, first_round, hands, extra,
              discards, perm, perm9, nine, trick, order, script, cur, err, log, nlog, preset)


# --- the declaration -----------------------------------------------------------------------

def _seat_won(columns: Mapping[str, np.ndarray], seat: int) -> np.ndarray:
    """1 where ``seat``'s side (the lone player, or the pair) won, 0 where it lost, -1 where
    nobody won (nobody declared and the redeal tied)."""
    side = np.where(columns["lone"] == seat, LONE, PAIR)
    winner = columns["winner_side"].astype(np.int64)
    return np.where(winner >= 0, winner == side, -1).astype(np.int8)


def _deal_order(cards: list[list[int]], dealer: int) -> list[int]:
    """Doko-Skat deals 4 to each stock from forehand on, 3 to the skat, 4 each, 4 each;
    the 9 left over start with the turned-up card; then the 9's second order, which deals
    them 3 to each from forehand on (``_deal``)."""
    fh = (dealer + 1) % 3
    order: list[int] = []
    for packet in range(3):
        for s in range(3):
            order += cards[(fh + s) % 3][4 * packet:4 * packet + 4]
        if packet == 0:
            order += cards[3]
    turned = cards[7][0]
    first_round = [c for s in range(3) for c in cards[4 + (fh + s) % 3]]
    nine = [turned] + [c for c in first_round if c != turned]
    return order + nine + [nine.index(c) for c in first_round]


DEAL_LAYOUT = Layout(
    (Group("stock of seat 0", STOCK), Group("stock of seat 1", STOCK), Group("stock of seat 2", STOCK),
     Group("skat", 3), Group("first-round cards of seat 0", 3),
     Group("first-round cards of seat 1", 3), Group("first-round cards of seat 2", 3),
     Group("turned-up card", 1, among=(4, 5, 6))),
    _deal_order,
    lambda c: [*c["stock"], c["skat"], *c["first_round_hands"], [c["turned_up"]]])
"""A deal written by hand: the three stocks, the skat, each seat's first-round cards and the
turned-up card (one of those)."""

GAME = Game(
    name=NAME, n_players=N_PLAYERS, deck=DECK, tricks=TRICKS, options=OPTIONS, columns=COLUMNS,
    categories=CATEGORIES, outcome=Outcome("score", "points", forehand(N_PLAYERS), _seat_won),
    observation=O, kernel=KernelTag(NAME), kernel_params=kernel_params, rescore=rescore,
    deal_layout=DEAL_LAYOUT, trace_codec="sim.games.doko_skat_trace",
    screen="sim.play.doko_skat:DokoSkatScreen")
"""Doko-Skat, as the registry (``sim.registry``) knows it."""

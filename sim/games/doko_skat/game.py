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
* Main game: 12 tricks, led as ``main_lead`` says; more card points wins; bands, Spitzen and special points
  (``settle_terms``). Options: ``OPTIONS`` below; ``both_copies``, ``spitzen``,
  ``spitzen_of``, ``tie_special_points``, ``zero_sum`` and the bands' points (``points_band_*``, options
  beyond the rule book, the seed's values by default) only score (no policy reads them), and
  ``rescore`` scores played deals under other values from their columns.

``play_deal`` goes through the phases as the rules name them (``_deal``, the first round's
``_tricks``, ``_teams``, ``_declaration``, ``_lone_discard`` or ``_redeal``, ``_main_game``
with its ``_tricks``, ``_settlement``). The card play's state and steps live in
``sim.games.doko_skat.cardplay``: both rounds of tricks go through them (``kernel.ask`` for
each card), and the declaration and the discards are asked from observations of that
state. Compiled as ``values.JIT`` says (without numba's reference counting).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numba
import numpy as np

from sim import actions as A
from sim.cards import DOKO_DECK_48, SUITS, bit, lsb, popcount
from sim.engine.cardplay import CardPlay
from sim.engine.deals import Group, Layout
from sim.engine.game import EVERY_POLICY, Game, Learned, Outcome, Solver, forehand
from sim.engine.kernel import (
    KernelTag,
    answer_of,
    ask,
    card_policy,
    card_row,
    card_value,
    deal_scratch,
    discard_row,
    discard_value,
    implements,
    order_deck,
)
from sim.engine.kernel import play_deal as kernel_play_deal
from sim.engine.loops import nothing_after, play_tricks
from sim.games.doko_skat import cardplay as CP
from sim.games.doko_skat.cardplay import (
    S,
    card_allowed,
    counted_spitzen,
    earned,
    finished,
    lone_both,
    name_game,
    observe,
    put_away,
    redeal,
    settlement,
    start_first_round,
    start_main_game,
    step,
    take_up,
)
from sim.games.doko_skat.features import FEATURES, ROWS
from sim.games.doko_skat.lookahead import card_values, decide, decide_card, decide_declaration, decide_discard
from sim.games.doko_skat.observation import FIELDS as O
from sim.games.doko_skat.observation import PH_DECLARE, PH_DISCARD, PH_PLAY
from sim.games.doko_skat.values import (
    BAND_POINTS,
    BOTH_COPIES,
    BOTH_PLACES,
    GAME_TRUMP,
    GAME_TYPE,
    GAME_TYPES,
    GRAND,
    JIT,
    JIT_NRT,
    LONE,
    MAIN_LEAD,
    N_GAMES,
    N_KINDS,
    N_SPITZEN_COUNTS,
    PAIR,
    SIDES,
    SPITZEN,
    SPITZEN_COLUMNS,
    SPITZEN_OF,
    TEAM_CARDS,
    TRICKS,
    declaration_order,
    game_of_card,
    held_copies,
    settle_all,
    spitzen_count,
    teams,
)
from sim.options import Option, OptionTable
from sim.rng import STREAM_DEAL, STREAM_SEAT0, shuffle, stream_key

NAME = "doko_skat"
N_PLAYERS = 3
DECK = DOKO_DECK_48
N_CARDS = 48
STOCK = 12
LEFT_OVER = 9

OBSERVATION = O
"""The fields of a seat's observation, what its policy (or a person at the table) sees."""

BAND_OPTIONS = ("points_band_90", "points_band_60", "points_band_30", "points_band_under_30",
                "points_band_zero")
"""The options giving each band's points (``values.band``), in its order."""
BAND_POINTS_MAX = 30
"""The most points a band may give (``value`` stays an int8 with the Spitzen and special
points on top)."""

OPTIONS = OptionTable([
    Option("bridge_order", "natural", ("natural", "skat"),
           "in a bridge every suit ranks A K Q J T 9 (natural) or A T K Q J 9 (skat)"),
    Option("team_cards", "first_round", TEAM_CARDS,
           "a holder of the turned-up card has a copy among his three first-round cards; or "
           "anywhere in his cards, his stock included; or took a copy in a first-round trick "
           "(won)"),
    Option("both_copies", "team_cards", BOTH_COPIES,
           "the lone player's special point for both copies of the turned-up card: both among "
           "the cards team_cards looks at; among his first-round cards and his stock; or "
           "among those and the skat he takes", scoring_only=True),
    Option("first_round_points", True, (True, False),
           "first-round tricks count for the side that took them (in a redeal for nobody)"),
    Option("main_lead", "forehand", MAIN_LEAD,
           "the main game's first trick is led by forehand, by the taker of the first round's "
           "last trick, or by the declarer (forehand when nobody declared)", revision=4),
    Option("spitzen", "copies", SPITZEN,
           "the declaring side's consecutive top trumps: each copy one, up to the first copy "
           "it lacks; or each rank it holds a copy of one, up to the first rank it lacks "
           "entirely", scoring_only=True),
    Option("spitzen_of", "side", SPITZEN_OF,
           "the Spitzen are counted on the declaring side's cards, or on the declarer's own "
           "(his main-game cards, and his discards if he is the lone player)",
           scoring_only=True, revision=4),
    Option("tie_special_points", True, (True, False),
           "in a tie the non-declaring side scores 1 plus its first-round special points; "
           "false: 1 only (never Spitzen)", scoring_only=True),
    Option("zero_sum", False, (False, True),
           "the lone player wins or loses twice the game's points, each pair member once, "
           "the other side the opposite; false: only the winning side scores",
           scoring_only=True),
    *(Option.integer(name, points, 0, BAND_POINTS_MAX,
                     f"points for each player of the winning side when {doc}", scoring_only=True,
                     beyond_rules=True)
      for name, points, doc in zip(BAND_OPTIONS, BAND_POINTS, (
          "the losers have 90 or more card points", "the losers have 60-89",
          "the losers have 30-59", "the losers have under 30", "the losers have none"))),
])

P_BRIDGE_ORDER, P_TEAM_CARDS, P_BOTH_COPIES, P_FIRST_ROUND_POINTS, P_MAIN_LEAD, P_SPITZEN, \
    P_SPITZEN_OF, P_TIE_SPECIAL, P_ZERO_SUM = (OPTIONS.position(n) for n in (
        "bridge_order", "team_cards", "both_copies", "first_round_points", "main_lead", "spitzen",
        "spitzen_of", "tie_special_points", "zero_sum"))
P_BAND = OPTIONS.position(BAND_OPTIONS[0])
"""Where each option's code lies in the kernel's parameters (``kernel_params``); band
``k``'s points (an integer option: its value) at ``P_BAND + k``."""
assert [OPTIONS.position(n) for n in BAND_OPTIONS] == list(range(P_BAND, P_BAND + len(BAND_POINTS)))


def _is(name: str, value: object) -> np.ndarray:
    """Per code of option ``name``: 1 where its value is ``value`` (the kernel's flag)."""
    return np.array([v == value for v in OPTIONS.by_name[name].allowed], np.int64)


SKAT_ORDER, FIRST_ROUND_COUNTS, SPITZEN_RANKS, SPITZEN_OWN, TIE_SPECIAL, ZERO_SUM = (
    _is("bridge_order", "skat"), _is("first_round_points", True), _is("spitzen", "ranks"),
    _is("spitzen_of", "declarer"), _is("tie_special_points", True), _is("zero_sum", True))
"""The rules' flags by option code: bridges in the skat order, the first-round tricks count,
Spitzen by ranks, Spitzen of the declarer's own cards, special points in a tie, zero sum.
The codes of ``team_cards``, ``main_lead`` and ``both_copies`` are themselves what the
kernel reads (their values are ``values.TEAM_CARDS``, ``MAIN_LEAD``, ``BOTH_COPIES``)."""


def kernel_params(rules: dict) -> np.ndarray:
    """The rules as the kernel's parameter array: each option's code (``OPTIONS.codes``)."""
    return OPTIONS.codes(rules)


@numba.njit(inline="always", **JIT)
def band_points(params):
    """The points of each band (``points_band_*``) from the kernel's parameters, as the
    settlement takes them (a tuple)."""
    return (params[P_BAND], params[P_BAND + 1], params[P_BAND + 2], params[P_BAND + 3],
            params[P_BAND + 4])


def rule_bands(rules: Mapping[str, Any]) -> tuple[int, ...]:
    """The points of each band under ``rules`` (``points_band_*``), as the settlement takes
    them: ``band_points`` for Python."""
    return tuple(int(rules[name]) for name in BAND_OPTIONS)


def rule_flags(rules: Mapping[str, Any]) -> tuple[int, int, int, int]:
    """``(bridge_skat, team_cards, first_round_counts, main_lead)``: the card play's rules as
    the kernel reads them from its parameters (and the state and the rule columns hold
    them), of ``rules`` (the defaults where they name no value)."""
    p = kernel_params(OPTIONS.resolve(dict(rules), NAME))
    return (int(SKAT_ORDER[p[P_BRIDGE_ORDER]]), int(p[P_TEAM_CARDS]),
            int(FIRST_ROUND_COUNTS[p[P_FIRST_ROUND_POINTS]]), int(p[P_MAIN_LEAD]))


@numba.njit(inline="always", **JIT)
def spitzen_counted(params):
    """Where the Spitzen ``spitzen_of`` and ``spitzen`` count lie among a deal's counts
    (``spitzen_count``), from the kernel's parameters."""
    return spitzen_count(SPITZEN_OWN[params[P_SPITZEN_OF]], SPITZEN_RANKS[params[P_SPITZEN]])


def start_card_play(columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
                    rules: Mapping[str, Any] | None = None) -> tuple[np.ndarray, Sequence[int]] | None:
    """``CardPlay.start``: the recorded deal's main game (``cardplay.start``), checked
    against ``rules`` if given."""
    return CP.start(columns, i, rows, None if rules is None else rule_flags(rules))


def start_opening(columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
                  rules: Mapping[str, Any] | None = None) -> tuple[np.ndarray, Sequence[int]] | None:
    """``CardPlay.opening``: the recorded deal's first round (``cardplay.first_round``),
    checked against ``rules`` if given."""
    return CP.first_round(columns, i, rows, None if rules is None else rule_flags(rules))


# --- results -------------------------------------------------------------------------------

def _per_seat(name: str, dtype: str) -> tuple[tuple[str, str], ...]:
    return tuple((f"{name}_{s}", dtype) for s in range(N_PLAYERS))


COLUMNS = (
    ("deal", "int64"), ("dealer", "int8"), ("turned_up", "int8"), ("fr_game", "int8"),
    ("fr_trump", "int8"),
) + _per_seat("fr_tricks", "int8") + _per_seat("fr_points", "int16") + (
    ("fr_last", "int8"),
) + _per_seat("fr_copies", "int8") + (
    ("pair_0", "int8"), ("pair_1", "int8"), ("lone", "int8"), ("lone_both", "bool"),
    ("lone_both_by", "int8"),
    ("declarer", "int8"), ("declaring_side", "int8"), ("declarer_turn", "int8"),
    ("nobody_declared", "bool"), ("second_turned_up", "int8"), ("game", "int8"), ("trump", "int8"),
) + _per_seat("points", "int16") + _per_seat("tricks", "int8") + (
    ("discard_points_pair", "int16"), ("discard_points_lone", "int16"),
    ("points_pair", "int16"), ("points_lone", "int16"), ("special_pair", "int8"),
    ("special_lone", "int8"), ("spitzen", "int8"),
) + tuple((name, "int8") for name in SPITZEN_COLUMNS) + (
    ("winner_side", "int8"), ("tie", "bool"),
    ("value", "int8"),
) + _per_seat("score", "int16") + _per_seat("stock", "uint64") + (("skat", "uint64"),) \
    + _per_seat("first_round", "uint64") + _per_seat("extra", "uint64") \
    + _per_seat("discard", "uint64") + (
    ("bridge_order", "int8"), ("team_cards", "int8"), ("first_round_points", "bool"),
    ("main_lead", "int8"), ("replay_error", "int16"))
"""Result columns. ``turned_up`` / ``second_turned_up``: the card (its kind, 0-23; -1: no
redeal); ``fr_game`` / ``game``: the game type (suit, grand, bridge) and ``fr_trump`` /
``trump`` its trump suit (-1 in grand); ``fr_tricks`` / ``fr_points``: first-round tricks and
their card points per seat; ``fr_last``: who took the first round's last trick;
``fr_copies_s``: the copies of the turned-up card seat ``s`` took in first-round tricks;
``declarer_turn``: 0-2, the declarer's place in the declaration
order; ``lone_both``: the lone player holds both turned-up cards by the ``both_copies``
reading, ``lone_both_by``: where his cards first hold them (``BOTH_PLACES``; -1: not even
with the skat), so any reading can be scored again; ``points_s`` / ``tricks_s``: main-game
tricks per seat; ``points_pair`` / ``points_lone``: the side totals that decide the game
(main-game tricks, discards, and the first-round tricks when they count); ``special_*``:
special points as earned (they count only for a side that scores); ``spitzen``: the
Spitzen, undoubled, by the ``spitzen_of`` and ``spitzen`` readings; ``spitzen_copies`` /
``spitzen_ranks``: the declaring side's by each ``spitzen`` reading,
``spitzen_declarer_copies`` / ``spitzen_declarer_ranks``: the declarer's own; ``value``:
what each player of the scoring side scores; ``stock_s``, ``skat``, ``first_round_s``,
``extra_s`` (redeal), ``discard_s``: card masks; ``bridge_order``, ``team_cards``,
``first_round_points``, ``main_lead``: the rules the deal's card play followed (labels of
the kernel's codes), so that a recorded deal's card play can be set up from its columns
alone (``cardplay.start``)."""
COL = {name: j for j, (name, _) in enumerate(COLUMNS)}
C_DEAL, C_DEALER, C_TURNED, C_FR_GAME, C_FR_TRUMP, C_FR_TRICKS, C_FR_POINTS, C_FR_LAST, \
    C_FR_COPIES = (COL[n] for n in ("deal", "dealer", "turned_up", "fr_game", "fr_trump",
                                    "fr_tricks_0", "fr_points_0", "fr_last", "fr_copies_0"))
C_PAIR, C_LONE, C_BOTH, C_BOTH_BY = COL["pair_0"], COL["lone"], COL["lone_both"], COL["lone_both_by"]
C_DECLARER, C_SIDE, C_TURN, C_NOBODY = (COL[n] for n in ("declarer", "declaring_side",
                                                          "declarer_turn", "nobody_declared"))
C_SECOND, C_GAME, C_TRUMP, C_POINTS, C_TRICKS = (COL[n] for n in (
    "second_turned_up", "game", "trump", "points_0", "tricks_0"))
C_DISC_PAIR, C_DISC_LONE, C_PTS_PAIR, C_PTS_LONE, C_SP_PAIR, C_SP_LONE, C_SPITZEN, C_WINNER, \
    C_TIE, C_VALUE, C_SCORE = (COL[n] for n in (
        "discard_points_pair", "discard_points_lone", "points_pair", "points_lone", "special_pair",
        "special_lone", "spitzen", "winner_side", "tie", "value", "score_0"))
C_SPITZEN_COUNTS = COL[SPITZEN_COLUMNS[0]]
C_STOCK, C_SKAT, C_FIRST, C_EXTRA, C_DISCARD, C_ERROR = (COL[n] for n in (
    "stock_0", "skat", "first_round_0", "extra_0", "discard_0", "replay_error"))
C_BRIDGE_ORDER, C_TEAM_CARDS, C_FR_COUNTS, C_MAIN_LEAD = (COL[n] for n in (
    "bridge_order", "team_cards", "first_round_points", "main_lead"))

CATEGORIES = {"turned_up": DECK.names[:N_KINDS], "second_turned_up": DECK.names[:N_KINDS],
              "fr_game": GAME_TYPES, "game": GAME_TYPES, "fr_trump": tuple(SUITS),
              "trump": tuple(SUITS), "declaring_side": SIDES, "winner_side": SIDES,
              "bridge_order": ("natural", "skat"), "team_cards": TEAM_CARDS,
              "main_lead": MAIN_LEAD, "lone_both_by": BOTH_PLACES}
"""Integer-coded columns written as labels (``sim.runner``); -1 is null."""


def rescore(columns: dict[str, np.ndarray], rules: dict) -> dict[str, np.ndarray]:
    """Played deals' columns under other scoring-only rules (``both_copies``, ``spitzen``,
    ``spitzen_of``, ``tie_special_points``, ``zero_sum``, ``points_band_*``): the lone
    player's both copies,
    the special points, the Spitzen and the settlement again (``settle_all``), from what the
    play decided."""
    p = kernel_params(rules)
    out = dict(columns)
    i64 = {k: columns[k].astype(np.int64) for k in (
        "points_pair", "points_lone", "declaring_side", "lone_both_by", "team_cards", "lone",
        "game")}
    lone = i64["lone"]
    deals = np.arange(lone.shape[0])

    def lone_seat(name: str) -> np.ndarray:
        return np.stack([columns[f"{name}_{s}"].astype(np.int64) for s in range(N_PLAYERS)])[
            lone, deals]

    counts = np.stack([columns[name].astype(np.int64) for name in SPITZEN_COLUMNS])
    (out["lone_both"], special_pair, special_lone, spitzen, winner, out["tie"], value, pair_score,
     lone_score) = settle_all(
        i64["points_pair"], i64["points_lone"], i64["declaring_side"], i64["game"] == GRAND,
        counts, i64["lone_both_by"], i64["team_cards"], lone_seat("fr_copies"),
        lone_seat("fr_tricks"), columns["nobody_declared"],
        (p[P_BOTH_COPIES], int(spitzen_counted(p)), TIE_SPECIAL[p[P_TIE_SPECIAL]],
         ZERO_SUM[p[P_ZERO_SUM]], rule_bands(rules)))
    for name, values in (("special_pair", special_pair), ("special_lone", special_lone),
                         ("spitzen", spitzen), ("winner_side", winner), ("value", value)):
        out[name] = values.astype(np.int8)
    for s in range(N_PLAYERS):
        out[f"score_{s}"] = np.where(lone == s, lone_score, pair_score).astype(np.int16)
    return out


# --- asking a seat -------------------------------------------------------------------------

PASSED = N_GAMES
"""The declaration question's answer for a pass (the others are game codes)."""


@numba.njit(inline="always", **JIT)
def _decide_declaration(ctx, pol, obs, rng):
    code = decide_declaration(pol, obs, rng)
    return PASSED if code < 0 else code


@numba.njit(inline="always", **JIT)
def _check_declaration(ctx, obs, code):
    return code


@numba.njit(inline="always", **JIT)
def _declaration_row(ctx, code):
    return (A.PASS, 0, 0) if code == PASSED else (A.DECLARE, code, 0)


@numba.njit(inline="always", **JIT)
def _declaration_value(ctx, kind, a, b):
    """A pass, or the game a ``DECLARE`` row names (-2: no game has its code)."""
    if kind == A.PASS:
        return PASSED
    code = answer_of(kind, A.DECLARE, a)
    return -2 if code >= N_GAMES else code


@numba.njit(inline="always", **JIT)
def _decide_discard(ctx, pol, obs, rng):
    return np.int64(decide_discard(pol, obs, rng))


@numba.njit(inline="always", **JIT)
def _discard_allowed(state, obs, cards):
    """A recorded discard as the seat holds it (either copy of a card), or -1 unless it is
    ``obs[N_DISCARD]`` of his cards."""
    hand = np.uint64(obs[O.HAND])
    held = held_copies(np.uint64(cards), hand)
    if popcount(held) != obs[O.N_DISCARD] or held & ~hand:
        return -1
    return np.int64(held)


@numba.njit(inline="always", **JIT)
def _decide_card(state, pol, obs, rng):
    return decide_card(pol, obs, rng)


@numba.njit(inline="always", **JIT)
def _card(state, obs, pol, rng, io):
    """The card the player to move plays (``play_tricks``'s decision). A solving player
    solves the main game; the first round, which decides the teams, is the heuristic's."""
    return ask(card_policy(pol, state[S.ROUND] == PH_PLAY), state[S.PLAYER], obs, rng,
               _decide_card, card_allowed, card_row, card_value, state, io)


@numba.njit(inline="always", **JIT)
def _tricks(state, obs, pols, rngs, io):
    """A round's tricks: the player to move sees his observation and plays, until the round
    is over. Whether it got there (not after a replay error or at a person's stop)."""
    return play_tricks(state, obs, pols, rngs, io, finished, observe, step, _card, nothing_after,
                       ROWS)


@numba.njit(inline="always", **JIT)
def _discard(state, obs, seat, n, pols, rngs, io):
    """``seat`` puts ``n`` of his cards away; whether he did."""
    observe(state, seat, obs)
    obs[O.PHASE] = PH_DISCARD
    obs[O.N_DISCARD] = n
    cards = ask(pols[seat], seat, obs, rngs[STREAM_SEAT0 + seat], _decide_discard,
                _discard_allowed, discard_row, discard_value, state, io)
    if cards < 0:
        return False
    put_away(state, seat, cards)
    return True


# --- one deal, phase by phase --------------------------------------------------------------

@numba.njit(**JIT_NRT)
def _deal(state, perm, perm9, forehand, stocks, first_round, preset):
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


@numba.njit(**JIT_NRT)
def _deal_again(state, perm9, nine, forehand, first_round, lone, extra):
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


@numba.njit(inline="always", **JIT)
def _dealt(row, deal, dealer, turned, skat, stocks, first_round, bridge_skat, team_cards,
           counts, main_lead):
    """The columns known once the cards are dealt (the rest as the deal gets there)."""
    row[:] = 0
    row[C_DEAL] = deal
    row[C_DEALER] = dealer
    fr_game = game_of_card(turned)
    row[C_TURNED] = turned % N_KINDS
    row[C_FR_GAME] = GAME_TYPE[fr_game]
    row[C_FR_TRUMP] = GAME_TRUMP[fr_game]
    row[C_BOTH_BY] = -1
    row[C_SECOND] = -1
    row[C_DECLARER] = -1
    row[C_SIDE] = -1
    row[C_TURN] = -1
    row[C_SKAT] = np.int64(skat)
    for s in range(3):
        row[C_STOCK + s] = np.int64(stocks[s])
        row[C_FIRST + s] = np.int64(first_round[s])
    row[C_BRIDGE_ORDER] = bridge_skat
    row[C_TEAM_CARDS] = team_cards
    row[C_FR_COUNTS] = counts
    row[C_MAIN_LEAD] = main_lead


@numba.njit(inline="always", **JIT)
def _teams(state, row, first_round, stocks, skat, turned, team_cards, both_copies):
    """After the first round the holders of the turned-up card form the teams; everyone
    takes up his stock, the lone player the skat too."""
    lone = teams(first_round, stocks, turned, team_cards, state[S.FR_COPIES:S.FR_COPIES + 3])
    take_up(state, stocks, skat, lone)
    row[C_PAIR] = min((lone + 1) % 3, (lone + 2) % 3)
    row[C_PAIR + 1] = max((lone + 1) % 3, (lone + 2) % 3)
    row[C_LONE] = lone
    row[C_BOTH] = lone_both(state, both_copies)
    row[C_BOTH_BY] = state[S.BOTH_AT]
    row[C_FR_LAST] = state[S.FR_LAST]
    for s in range(3):
        row[C_FR_TRICKS + s] = state[S.FR_TRICKS + s]
        row[C_FR_POINTS + s] = state[S.FR_POINTS + s]
        row[C_FR_COPIES + s] = state[S.FR_COPIES + s]


@numba.njit(inline="always", **JIT)
def _declaration(state, obs, order, row, pols, rngs, io):
    """In the declaration order each names a game or passes; the first to name one is the
    declarer. Returns ``(declarer, game)``, ``(-1, -1)`` when nobody did (or on an error)."""
    declaration_order(state[S.FR_TRICKS:S.FR_TRICKS + 3], state[S.LONE], state[S.FOREHAND], order)
    for i in range(3):
        seat = order[i]
        observe(state, seat, obs)
        obs[O.PHASE] = PH_DECLARE
        obs[O.NEXT_SPEAKER] = order[i + 1] if i < 2 else -1
        code = ask(pols[seat], seat, obs, rngs[STREAM_SEAT0 + seat], _decide_declaration,
                   _check_declaration, _declaration_row, _declaration_value, 0, io)
        if code < 0:
            return -1, -1
        if code < PASSED:
            row[C_TURN] = i
            return seat, code
    return -1, -1


@numba.njit(inline="always", **JIT)
def _lone_discard(state, obs, row, declarer, game, pols, rngs, io):
    """The declarer's game is named; the lone player puts 3 cards away. Whether he did."""
    name_game(state, declarer, game)
    lone = state[S.LONE]
    row[C_DECLARER] = declarer
    row[C_SIDE] = LONE if declarer == lone else PAIR
    return _discard(state, obs, lone, 3, pols, rngs, io)


@numba.njit(inline="always", **JIT)
def _redeal(state, obs, row, perm9, nine, first_round, extra, pols, rngs, io):
    """Nobody declared: the nine first-round cards are dealt again under a second
    turned-up card, and everyone puts 4 cards away from forehand on. Whether they did."""
    forehand = state[S.FOREHAND]
    row[C_NOBODY] = 1
    second = _deal_again(rngs[STREAM_DEAL], perm9, nine, forehand, first_round, state[S.LONE],
                         extra)
    redeal(state, second % N_KINDS, extra)
    row[C_SECOND] = second % N_KINDS
    for s in range(3):
        row[C_EXTRA + s] = np.int64(extra[s])
    for r in range(3):
        if not _discard(state, obs, (forehand + r) % 3, 4, pols, rngs, io):
            return False
    return True


@numba.njit(inline="always", **JIT)
def _main_game(state, obs, row, counted, pols, rngs, io):
    """12 tricks in the declared game (or the redeal's), led as ``main_lead`` says. Whether
    they were played."""
    game = state[S.GAME]
    row[C_GAME] = GAME_TYPE[game]
    row[C_TRUMP] = GAME_TRUMP[game]
    start_main_game(state)
    row[C_SPITZEN] = counted_spitzen(state, counted)
    for k in range(N_SPITZEN_COUNTS):
        row[C_SPITZEN_COUNTS + k] = counted_spitzen(state, k)
    return _tricks(state, obs, pols, rngs, io)


@numba.njit(inline="always", **JIT)
def _settlement(state, row, both_copies, counted, tie_special, zero_sum, bands):
    """More card points win; each winner scores the band's points (``bands``), the Spitzen
    and his side's special points; a tie the non-declaring side (``settlement``)."""
    pair, lone, terms = settlement(state, both_copies, counted, tie_special, zero_sum, bands)
    winner, tie, _, _, _, value, pair_score, lone_score = terms
    row[C_SP_PAIR], row[C_SP_LONE] = earned(state, both_copies)
    for s in range(3):
        row[C_POINTS + s] = state[S.POINTS + s]
        row[C_TRICKS + s] = state[S.TRICKS + s]
        row[C_DISCARD + s] = state[S.DISCARDS + s]
        row[C_SCORE + s] = lone_score if s == state[S.LONE] else pair_score
    row[C_DISC_PAIR] = pair[1]
    row[C_DISC_LONE] = lone[1]
    row[C_PTS_PAIR] = pair[0] + pair[1] + pair[2]
    row[C_PTS_LONE] = lone[0] + lone[1] + lone[2]
    row[C_WINNER] = winner
    row[C_TIE] = tie
    row[C_VALUE] = value


@numba.njit(**JIT)
def play_deal(seed, deal, params, pols, row, scratch, io, preset):
    """Deal, play and score deal ``deal`` into result ``row`` (``row[C_ERROR]`` set on a
    replay error or at a person's stop): the deal, the first round, the teams, the
    declaration, the lone player's discard or the redeal, the main game, the settlement;
    ``scratch`` holds the arrays ``_deal_scratch`` made."""
    obs, rngs, stocks, first_round, extra, perm, perm9, nine, order, state = scratch
    for s in range(rngs.shape[0]):
        rngs[s, 0] = stream_key(seed, deal, s)
    dealer = deal % 3
    forehand = (dealer + 1) % 3
    for s in range(3):
        stocks[s] = 0
        first_round[s] = 0
        extra[s] = 0
    skat, turned = _deal(rngs[STREAM_DEAL], perm, perm9, forehand, stocks, first_round, preset)
    bridge_skat = SKAT_ORDER[params[P_BRIDGE_ORDER]]
    team_cards = params[P_TEAM_CARDS]
    counts = FIRST_ROUND_COUNTS[params[P_FIRST_ROUND_POINTS]]
    main_lead = params[P_MAIN_LEAD]
    both_copies = params[P_BOTH_COPIES]
    counted = spitzen_counted(params)
    _dealt(row, deal, dealer, turned, skat, stocks, first_round, bridge_skat, team_cards, counts,
           main_lead)
    io.cur[0] = 0
    io.nlog[0] = 0
    start_first_round(state, forehand, turned % N_KINDS, first_round, team_cards, counts,
                      bridge_skat, main_lead)
    if not _tricks(state, obs, pols, rngs, io):
        row[C_ERROR] = io.err[0]
        return
    _teams(state, row, first_round, stocks, skat, turned, team_cards, both_copies)
    declarer, game = _declaration(state, obs, order, row, pols, rngs, io)
    if io.err[0]:
        row[C_ERROR] = io.err[0]
        return
    if declarer >= 0:
        put = _lone_discard(state, obs, row, declarer, game, pols, rngs, io)
    else:
        put = _redeal(state, obs, row, perm9, nine, first_round, extra, pols, rngs, io)
    if not put or not _main_game(state, obs, row, counted, pols, rngs, io):
        row[C_ERROR] = io.err[0]
        return
    _settlement(state, row, both_copies, counted, TIE_SPECIAL[params[P_TIE_SPECIAL]],
                ZERO_SUM[params[P_ZERO_SUM]], band_points(params))


@implements(deal_scratch, NAME)
def _deal_scratch(game):
    return (np.zeros(O.LENGTH, np.int64), np.zeros((STREAM_SEAT0 + 3, 1), np.uint64),
            np.zeros(3, np.uint64), np.zeros(3, np.uint64), np.zeros(3, np.uint64),
            np.zeros(N_CARDS, np.int64), np.zeros(LEFT_OVER, np.int64),
            np.zeros(LEFT_OVER, np.int64), np.zeros(3, np.int64), np.zeros(CP.LENGTH, np.int64))


@implements(kernel_play_deal, NAME)
def _play_deal(game, seed, deal, params, pols, values, row, work, io, preset):
    play_deal(seed, deal, params, pols, row, work, io, preset)


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
    deal_layout=DEAL_LAYOUT, trace_codec="sim.games.doko_skat.trace",
    screen="sim.games.doko_skat.screen:DokoSkatScreen",
    card_play=CardPlay(S, CP.LENGTH, CP.legal, step, observe, finished, decide, CP.playout,
                       start_card_play, CP.result, card_values, start_opening),
    policies=EVERY_POLICY, restrictions="sim.games.doko_skat.restrictions",
    net=Learned(FEATURES, "sim.games.doko_skat:net.npz"),
    solver=Solver("sim.games.doko_skat.solver", bench_positions=20),
    compile_seconds=90)
"""Doko-Skat, as the registry (``sim.registry``) knows it."""

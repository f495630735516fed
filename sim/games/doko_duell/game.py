"""Doppelkopf duel with the pyramid (``doko_duell``; RULES.md, seed 000).

What the game is
----------------
* Players: 2, seats 0 and 1; in deal ``d`` seat ``(d + 1) % 2`` starts (seat
  ``d % 2`` is recorded as the dealer).
* Deck: 40 Doppelkopf cards without nines (``DOKO_DECK_40``), 240 points. Each
  player gets a pyramid of 12 cards and 8 hand cards.
* Pyramid positions: row 1 ``p0 p1 p2 p3`` face up; row 2 ``p4 p5 p6`` face down;
  row 3 two stacks, a face-down card (``p8``, ``p10``) under a face-up card (``p7``,
  ``p9``); row 4 ``p11`` face down. ``COVERED_BY`` says which positions cover which.
  A pyramid card may be played when face up and uncovered; a face-down card that
  becomes uncovered is turned up at the end of that trick.
* Play: 20 two-card tricks, the normal Doppelkopf game's trumps; a player plays from
  his hand or his free pyramid cards, and only those count for the duty to follow.
* Markers: A markers for the four top trumps (HT, CQ) turned up in one's pyramid or
  played from hand; B markers for the trick events ``B_EVENTS``, from a box of 12.
* Settlement: more than 120 card points wins victory points by the loser's band,
  plus the loser's A markers, plus the B-marker difference (``b_marker_mode``); the
  120 : 120 tie by ``tie_rule``, a tie it wins with base ``tie_win_base`` (a loser at 120
  is in none of the bands). The numbers are options beyond the rule book (``vp_band_*``,
  ``vp_per_a_marker``, ``vp_per_b_marker``, the seed's values by default), and
  ``compensation`` credits the player who does not start a side payment.
* Options: ``OPTIONS`` (``sim.games.doko_duell.values``, with the settlement).

How a deal is played
--------------------
``play_deal`` goes through the phases as the rules name them: ``deal_cards`` (pyramids,
then hands), the card play's ``begin`` (the A markers of top trumps face up at the deal),
``tricks`` (each decision: ``observe``, ``kernel.ask``, ``step``, the step's marker events
recorded) and ``settle_row`` (``settlement``, term by term, as the table screen shows it).
The card play's rules, state and steps live in ``sim.games.doko_duell.cardplay``; this
module re-exports its names (``COVERED_BY``, ``second_beats`` ...) for the duel's users.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numba
import numpy as np

from sim import actions as A
from sim.cards import bit
from sim.engine.cardplay import CardPlay
from sim.engine.deals import Group, Layout
from sim.engine.game import EVERY_POLICY, Game, Learned, Outcome, Solver
from sim.engine.kernel import (
    KernelTag,
    ask,
    card_policy,
    card_value,
    deal_scratch,
    implements,
    order_deck,
    record,
    skip_markers,
)
from sim.engine.kernel import play_deal as kernel_play_deal
from sim.engine.loops import play_tricks
from sim.games.doko_duell import cardplay as cp
from sim.games.doko_duell.cardplay import (  # noqa: F401  (the duel's names, for its users)
    B_EVENTS,
    B_SUPPLY,
    COVERED_BY,
    DECK,
    EFF,
    EQUAL_RULES,
    FACE_UP_AT_DEAL,
    HAND_CARDS,
    K_A,
    N_CARDS,
    POINTS,
    PYRAMID,
    STRENGTH,
    SUIT_MASKS,
    TOP_TRUMPS,
    TRICKS,
    S,
    begin,
    finished,
    free_positions,
    observe,
    second_beats,
    source,
    step,
)
from sim.games.doko_duell.features import FEATURES, ROWS
from sim.games.doko_duell.lookahead import card_values, decide, decide_card
from sim.games.doko_duell.observation import FIELDS as O
from sim.games.doko_duell.values import (  # noqa: F401  (the options and settlement, here too)
    A_SETUP_ON,
    BAND_OPTIONS,
    BAND_VP,
    MODE_V1,
    ONE_PER_TRICK_ON,
    OPTIONS,
    P_A_SETUP,
    P_A_VP,
    P_B_VP,
    P_BAND,
    P_COMPENSATION,
    P_EQUAL,
    P_MODE,
    P_ONE_PER_TRICK,
    P_SUPPLY,
    P_TIE,
    P_TIE_BASE,
    SUPPLY_BOX,
    TIE_B,
    TIE_BAND,
    TIE_BASE_VP,
    TIE_LAST,
    TIE_RULES,
    TIE_STARTER_LOSES,
    TIE_STARTER_WINS,
    TIE_TRICKS,
    band,
    base_vp,
    settle,
    settlement,
)
from sim.rng import STREAM_DEAL, STREAM_SEAT0, stream_key

NAME = "doko_duell"
N_PLAYERS = 2

OBSERVATION = O
"""The fields of a seat's observation, what its policy (or a person at the table) sees."""


def kernel_params(rules: dict) -> np.ndarray:
    """The rules as the kernel's parameter array (each option's code)."""
    return OPTIONS.codes(rules)


@numba.njit(cache=True, inline="always")
def play_rules(params):
    """What the card play takes of the rules (``begin``): the ``equal_cards`` code,
    ``b_one_per_trick``, ``a_marker_on_setup`` (1/0) and the B markers in the box (-1: no
    limit)."""
    return (params[P_EQUAL], 1 if params[P_ONE_PER_TRICK] == ONE_PER_TRICK_ON else 0,
            1 if params[P_A_SETUP] == A_SETUP_ON else 0,
            B_SUPPLY if params[P_SUPPLY] == SUPPLY_BOX else -1)


# --- settlement (``settlement`` and its terms: sim.games.doko_duell.values) ----------------

@numba.njit(cache=True)
def settle_all(points0, points1, tricks0, tricks1, a0, a1, b0, b1, starter, last_winner, params):
    """``settle`` for every deal of the arrays under the rules ``params``: ``(winner, tie, vp0,
    vp1, raw)`` arrays."""
    n = points0.shape[0]
    winner = np.empty(n, np.int64)
    tie = np.empty(n, np.bool_)
    vp0 = np.empty(n, np.int64)
    vp1 = np.empty(n, np.int64)
    raw = np.empty(n, np.int64)
    for i in range(n):
        winner[i], tie[i], vp0[i], vp1[i], raw[i] = settle(
            points0[i], points1[i], tricks0[i], tricks1[i], a0[i], a1[i], b0[i], b1[i],
            starter[i], last_winner[i], params)
    return winner, tie, vp0, vp1, raw


class Settlement(NamedTuple):
    """One deal's settlement term by term (``settlement``), for Python (the table screen)."""

    winner: int
    tie: bool
    band: int
    base: int
    loser_a: int
    a_vp: int
    b_diff: int
    b_vp: int
    raw: int
    total: int
    compensation: int
    vp_0: int
    vp_1: int


def settle_deal(c: Mapping[str, Any], rules: Mapping[str, Any]) -> Settlement:
    """The settlement of one played deal under ``rules`` from its result columns' values
    (``c[name]``, one deal's)."""
    p = kernel_params(dict(rules))
    v = {name: int(c[name]) for name in ("points_0", "points_1", "tricks_0", "tricks_1",
                                         "a_markers_0", "a_markers_1", "b_markers_0",
                                         "b_markers_1", "starter", "last_trick_winner")}
    terms = settlement(v["points_0"], v["points_1"], v["tricks_0"], v["tricks_1"],
                       v["a_markers_0"], v["a_markers_1"], v["b_markers_0"], v["b_markers_1"],
                       v["starter"], v["last_trick_winner"], p)
    return Settlement(int(terms[0]), bool(terms[1]), *(int(x) for x in terms[2:]))


# --- results ----------------------------------------------------------------------------------

COLUMNS = (
    ("deal", "int64"), ("dealer", "int8"), ("starter", "int8"), ("points_0", "int16"),
    ("points_1", "int16"), ("tricks_0", "int8"), ("tricks_1", "int8"), ("a_markers_0", "int8"),
    ("a_markers_1", "int8"), ("a_setup_0", "int8"), ("a_setup_1", "int8"), ("a_play_0", "int8"),
    ("a_play_1", "int8"),
    ("b_markers_0", "int8"), ("b_markers_1", "int8"),
    ("fox_0", "int8"), ("fox_1", "int8"), ("karlchen_0", "int8"), ("karlchen_1", "int8"),
    ("identical_0", "int8"), ("identical_1", "int8"), ("twenty_two_0", "int8"),
    ("twenty_two_1", "int8"), ("pin_0", "int8"), ("pin_1", "int8"),
    ("supply_exhausted", "bool"), ("last_trick_winner", "int8"), ("winner", "int8"),
    ("tie", "bool"), ("vp_0", "int16"), ("vp_1", "int16"), ("hand_0", "uint64"), ("hand_1", "uint64"),
) + tuple((f"pyramid_{s}_{k}", "int8") for s in range(2) for k in range(PYRAMID)) + (
    ("vp_raw", "int16"), ("replay_error", "int16"),)
"""The result columns. ``a_markers`` are the A markers awarded under the rules: ``a_play``
(top trumps turned up or played from the hand) plus, with ``a_marker_on_setup``,
``a_setup`` (face up at the deal). ``fox`` ... ``pin``: B events of each kind per player
(happened, awarded or not). ``vp_0``, ``vp_1``: each player's VP, ``compensation`` included
(int16: the largest bands, marker VP and compensation overflow int8). ``vp_raw``: the
winner's VP sum before ``b_marker_mode`` acts on it (``settlement``)."""
COL = {name: j for j, (name, _) in enumerate(COLUMNS)}
C_DEAL, C_DEALER, C_STARTER = COL["deal"], COL["dealer"], COL["starter"]
C_LAST_WINNER, C_WINNER, C_TIE, C_VP = (COL["last_trick_winner"], COL["winner"], COL["tie"],
                                        COL["vp_0"])
C_HANDS, C_PYRAMID, C_RAW, C_ERROR = (COL["hand_0"], COL["pyramid_0_0"], COL["vp_raw"],
                                      COL["replay_error"])
"""Per player ``C_X + p``; ``C_PYRAMID + 12 * p + k`` the card dealt to position ``k``."""
STORE = np.array([(COL[name], at) for name, at in cp.RESULT_FIELDS], np.int64)
"""``(column, state offset)`` of the counts the card play leaves (``cp.RESULT_FIELDS``)."""


def rescore(columns: dict[str, np.ndarray], rules: dict) -> dict[str, np.ndarray]:
    """Played deals' columns under other scoring-only rules (``a_marker_on_setup``,
    ``b_marker_mode``, ``tie_rule``, ``tie_win_base``, the ``vp_*`` numbers,
    ``compensation``): the A markers and the settlement again."""
    p = kernel_params(rules)
    out = dict(columns)
    a = []
    for s in range(2):
        a.append(columns[f"a_play_{s}"].astype(np.int64)
                 + (columns[f"a_setup_{s}"].astype(np.int64) if p[P_A_SETUP] == A_SETUP_ON else 0))
        out[f"a_markers_{s}"] = a[s].astype(np.int8)
    winner, tie, vp0, vp1, raw = settle_all(
        columns["points_0"].astype(np.int64), columns["points_1"].astype(np.int64),
        columns["tricks_0"].astype(np.int64), columns["tricks_1"].astype(np.int64), a[0], a[1],
        columns["b_markers_0"].astype(np.int64), columns["b_markers_1"].astype(np.int64),
        columns["starter"].astype(np.int64), columns["last_trick_winner"].astype(np.int64), p)
    out["winner"], out["tie"] = winner.astype(np.int8), tie
    for name, values in (("vp_0", vp0), ("vp_1", vp1), ("vp_raw", raw)):
        out[name] = values.astype(columns[name].dtype)
    return out


# --- one deal: the deal, the setup, the tricks, the settlement ------------------------------

@numba.njit(cache=True, inline="always")
def deal_cards(seed, deal, streams, hands, pyramid, perm, preset):
    """The deal: the streams of deal ``deal``, the cards in order (shuffled, or as
    ``preset`` lays them), each player's pyramid by position, then the hands. Returns the
    starter: seat ``(deal + 1) % 2`` (the other is recorded as the dealer)."""
    for s in range(streams.shape[0]):
        streams[s, 0] = stream_key(seed, deal, s)
    order_deck(streams[STREAM_DEAL], perm, preset, 0)
    for s in range(2):
        for k in range(PYRAMID):
            pyramid[s, k] = perm[PYRAMID * s + k]
        h = np.uint64(0)
        for k in range(HAND_CARDS):
            h |= bit(perm[2 * PYRAMID + HAND_CARDS * s + k])
        hands[s] = h
    return 1 - deal % 2


@numba.njit(cache=True, inline="always")
def open_row(row, deal, starter, hands, pyramid):
    """The result row at the deal: who deals and starts, the cards dealt, nobody winning."""
    row[:] = 0
    row[C_DEAL] = deal
    row[C_DEALER] = 1 - starter
    row[C_STARTER] = starter
    row[C_WINNER] = -1
    for s in range(2):
        row[C_HANDS + s] = np.int64(hands[s])
        for k in range(PYRAMID):
            row[C_PYRAMID + PYRAMID * s + k] = pyramid[s, k]


@numba.njit(cache=True, inline="always")
def record_markers(state, log, nlog):
    """Record the marker events the card play's last step left (``MARKER`` rows)."""
    for e in range(state[S.N_NEW]):
        at = S.NEW + 3 * e
        record(log, nlog, A.MARKER, state[at], state[at + 1], state[at + 2])


@numba.njit(cache=True, inline="always")
def _decide_card(state, pol, obs, rng):
    return decide_card(pol, obs, rng)


@numba.njit(cache=True, inline="always")
def card_row(state, card):
    """A played card's row: ``b`` where it comes from (``source``)."""
    return A.PLAY, card, source(state, card)


@numba.njit(cache=True, inline="always")
def allowed_card(state, obs, card):
    """A recorded card, if the player to move may play it (``obs[LEGAL]``); else -1."""
    if 0 <= card < N_CARDS and (obs[O.LEGAL] >> card) & 1:
        return card
    return -1


@numba.njit(cache=True, inline="always")
def tricks(state, pols, obs, streams, io):
    """The 20 tricks: the player to move is shown his observation and plays a card from his
    hand or his pyramid (``PLAY`` row, ``b`` where from), the card play steps on and its
    marker events are recorded. False if the deal stopped (a person to ask, a replay
    error: ``err``). The policy is asked through this module's ``decide_card`` (the card
    play's ``decide`` asks nothing else), where a test run without numba spies on it."""
    return play_tricks(state, obs, pols, streams, io, finished, observe, step, _card, _markers,
                       ROWS)


@numba.njit(cache=True, inline="always")
def _card(state, obs, pol, rng, io):
    """The card the player to move plays from his hand or his pyramid (``play_tricks``'s
    decision), after the marker rows a replay holds before it."""
    if pol < 0:
        skip_markers(io.script, io.cur)
    return ask(card_policy(pol, True), state[S.PLAYER], obs, rng, _decide_card, allowed_card,
               card_row, card_value, state, io)


@numba.njit(cache=True, inline="always")
def _markers(state, io):
    """The marker events a card set off, recorded (``play_tricks``'s ``after_step``)."""
    record_markers(state, io.log, io.nlog)


@numba.njit(cache=True, inline="always")
def settle_row(row, state, params):
    """The settlement of the finished card play into the result row."""
    row[C_LAST_WINNER] = state[S.LAST_WINNER]
    w, tie, v0, v1, raw = settle(
        state[S.POINTS], state[S.POINTS + 1], state[S.TRICKS], state[S.TRICKS + 1],
        state[S.A_MARKERS], state[S.A_MARKERS + 1], state[S.B_MARKERS], state[S.B_MARKERS + 1],
        state[S.STARTER], state[S.LAST_WINNER], params)
    row[C_WINNER] = w
    row[C_TIE] = tie
    row[C_VP] = v0
    row[C_VP + 1] = v1
    row[C_RAW] = raw


@numba.njit(cache=True)
def play_deal(seed, deal, params, pols, row, work, io, preset):
    """Deal, play and score deal ``deal`` into result ``row`` (dealt as ``preset`` lays the
    cards if it is not empty), with the scratch arrays ``work`` (``_deal_scratch``)."""
    obs, streams, hands, pyramid, perm, state = work
    starter = deal_cards(seed, deal, streams, hands, pyramid, perm, preset)
    open_row(row, deal, starter, hands, pyramid)
    io.cur[0] = 0
    io.nlog[0] = 0
    equal, one_per_trick, a_on_setup, supply = play_rules(params)
    begin(state, hands, pyramid, starter, equal, one_per_trick, a_on_setup, supply)
    record_markers(state, io.log, io.nlog)
    played = tricks(state, pols, obs, streams, io)
    for j in range(STORE.shape[0]):
        row[STORE[j, 0]] = state[STORE[j, 1]]
    if played:
        settle_row(row, state, params)
    else:
        row[C_ERROR] = io.err[0]


@implements(deal_scratch, NAME)
def _deal_scratch(game):
    return (np.zeros(O.LENGTH, np.int64), np.zeros((STREAM_SEAT0 + 2, 1), np.uint64),
            np.zeros(2, np.uint64), np.zeros((2, PYRAMID), np.int64), np.zeros(N_CARDS, np.int64),
            np.zeros(cp.LENGTH, np.int64))


@implements(kernel_play_deal, NAME)
def _play_deal(game, seed, deal, params, pols, values, row, work, io, preset):
    play_deal(seed, deal, params, pols, row, work, io, preset)


# --- the declaration -----------------------------------------------------------------------

def _seat_won(columns: Mapping[str, np.ndarray], seat: int) -> np.ndarray:
    """1 where ``seat`` won the deal, 0 where it lost, -1 where nobody won (a 120 : 120
    left drawn by the tie rule)."""
    winner = columns["winner"].astype(np.int64)
    return np.where(winner >= 0, winner == seat, -1).astype(np.int8)


def start_card_play(columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
                    rules: Mapping[str, Any] | None = None) -> tuple[np.ndarray, list[int]]:
    """``CardPlay.start``: the state at deal ``i``'s deal (the duel has nothing before its
    card play) and its recorded plays, the cards.

    ``rules``: the duel's options the deal was played under (the result columns do not hold
    ``equal_cards``, ``b_marker_supply`` or ``b_one_per_trick``); without them, the rules its
    record shows (``cardplay.recorded_rules``: exact for the recorded deal, a
    default where the deal never tested a rule)."""
    if rules is None:
        given = cp.recorded_rules(columns, i, rows)
    else:
        given = cp.Rules(*(int(x) for x in play_rules(kernel_params(OPTIONS.resolve(dict(rules))))))
    state = cp.new_state([int(columns[f"hand_{s}"][i]) for s in range(2)],
                         [[int(columns[f"pyramid_{s}_{k}"][i]) for k in range(PYRAMID)]
                          for s in range(2)], int(columns["starter"][i]), given)
    rows = np.asarray(rows, np.int64).reshape(-1, A.ROW)
    return state, [int(r[2]) for r in rows if r[0] == A.PLAY]


CARD_PLAY = CardPlay(
    fields=S, length=cp.LENGTH, legal=cp.legal, step=step, observe=observe, finished=cp.finished,
    decide=decide, playout=cp.playout, start=start_card_play, result=cp.result,
    action_values=card_values)
"""The duel's card play as a state and pure functions (``sim.games.doko_duell.cardplay``)."""

DEAL_LAYOUT = Layout(
    (Group("hand of player 0", HAND_CARDS), Group("hand of player 1", HAND_CARDS),
     Group("pyramid of player 0", PYRAMID), Group("pyramid of player 1", PYRAMID)),
    lambda cards, dealer: cards[2] + cards[3] + cards[0] + cards[1],
    lambda c: [*c["hands"], *c["pyramids"]])
"""A deal written by hand: both hands, then both pyramids (positions in order); the kernel
lays both pyramids first, then deals the hands (``deal_cards``)."""

GAME = Game(
    name=NAME, n_players=N_PLAYERS, deck=DECK, tricks=TRICKS, options=OPTIONS, columns=COLUMNS,
    categories={}, outcome=Outcome("vp", "VP", lambda columns: columns["starter"], _seat_won),
    observation=O, kernel=KernelTag(NAME), kernel_params=kernel_params, rescore=rescore,
    deal_layout=DEAL_LAYOUT, trace_codec="sim.games.doko_duell.trace",
    screen="sim.games.doko_duell.screen:DokoDuellScreen", card_play=CARD_PLAY,
    policies=EVERY_POLICY, restrictions="sim.games.doko_duell.restrictions",
    net=Learned(FEATURES, "sim.games.doko_duell:net.npz"),
    solver=Solver("sim.games.doko_duell.solver", bench_positions=3),
    compile_seconds=45)
"""The Doppelkopf duel, as the registry (``sim.registry``) knows it."""

"""Three-player Skat (``skat``; RULES.md, seed 003).

What the game is
----------------
* Players: 3, seats clockwise from 0; in deal ``d`` seat ``d % 3`` deals and is
  rearhand, the next seat is forehand and leads, then middlehand.
* Deck: 32 cards (``SKAT_DECK``), 10 to each player, 2 to the skat; 120 points.
* Phases: deal, bidding (middlehand to forehand, then rearhand to the survivor;
  forehand may take 18 after two passes), skat pickup or hand, discard,
  declaration (suit, grand, null, null ouvert; announcements if enabled),
  10 tricks (a null game ends at the declarer's first trick), settlement.
  When all pass: throw-in, or ramsch (jacks trump, most points loses).
* Options: ``OPTIONS`` below.

Every score comes from the result row's facts (won, value, ramsch points and tricks) through
one rule, ``deal_scores``: the kernel's settlement calls it, and ``rescore`` runs it over played
deals' columns for other scoring-only options.

``play_deal`` goes through the phases as the rules name them (``_deal``, ``_bidding``,
``_skat``, ``_declaration``, ``_game`` with its ``_tricks``, ``_settlement``; ``_ramsch``).
The card play's state and steps live in ``sim.games.skat_family.cardplay``; the tricks go through
them (``kernel.ask`` for each card), and ``settle`` returns the declared game's terms.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from sim import actions as A
from sim.cards import SKAT_DECK
from sim.engine.cardplay import CardPlay
from sim.engine.deals import Group, Layout
from sim.engine.game import EVERY_POLICY, Game, Learned, Solver
from sim.engine.kernel import (
    KernelTag,
    ask,
    card_policy,
    card_row,
    card_value,
    deal_scratch,
    implements,
    record,
)
from sim.engine.kernel import play_deal as kernel_play_deal
from sim.engine.loops import nothing_after, play_tricks
from sim.games.skat_family.bidding import (
    ANSWERS,
    W_CHOICES,
    W_LEN,
    ask_bid,
    ask_declaration,
    ask_discard,
    ask_yes,
    deal_three_hands,
    decide_play,
    outcome,
)
from sim.games.skat_family.cardplay import (
    LENGTH,
    S,
    begin,
    card_allowed,
    contract,
    declarer_cards,
    declarer_points,
    finished,
    legal,
    observe,
    playout,
    ramsch,
    ramsch_points,
    sit,
    skat_result,
    start_skat,
    step,
)
from sim.games.skat_family.features import FEATURES, ROWS
from sim.games.skat_family.lookahead import card_values, decide
from sim.games.skat_family.observation import (
    DECL_OUVERT,
    DECL_SCHNEIDER,
    DECL_SCHWARZ,
    PH_ANSWER,
    PH_FH18,
    PH_PICKUP,
)
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.values import (
    GAME_NAMES,
    JIT,
    JIT_NRT,
    NULL,
    POSITIONS,
    RAMSCH,
    REJECTION_PREMIUM,
    T_OVERBID,
    T_SCHNEIDER_MADE,
    T_SCHWARZ_MADE,
    T_VALUE,
    T_WON,
    Contract,
    Offers,
    bid_values,
    card_points,
    game_terms,
    matadors,
    terms_dict,
)
from sim.options import Option, OptionTable
from sim.rng import STREAM_DEAL, STREAM_SEAT0, stream_key

NAME = "skat"
N_PLAYERS = 3
DECK = SKAT_DECK
TRICKS = 10

OBSERVATION = O
"""The fields of a seat's observation, what its policy (or a person at the table) sees."""

OPTIONS = OptionTable([
    Option("all_pass", "throw_in", ("throw_in", "ramsch"),
           "when all three pass: the deal is thrown in, or ramsch is played"),
    Option("announcements", False, (False, True),
           "ISkO announcements in hand games: Schneider, Schwarz, ouvert (+1 level each)"),
    Option("lost_factor", 2, (2, 1), "a lost game costs this many times its value",
           scoring_only=True),
    Option("scoring", "seed", ("seed", "seeger_fabian"),
           "the seed's settlement, or the Seeger-Fabian list (ISkO): won + value + 50, lost "
           "- 2 x value - 50 whatever lost_factor says and + 40 to each defender",
           scoring_only=True),
    Option("ramsch_skat", "last_trick", ("last_trick", "loser"),
           "ramsch: the skat's points go to the taker of the last trick, or to the loser "
           "found without them (to each of a tie)"),
    Option("ramsch_jungfrau", False, (False, True),
           "ramsch: each player who took no trick doubles the loser's minus (a Durchmarsch "
           "stays 120)", scoring_only=True),
])

P_ALL_PASS, P_ANNOUNCE, P_LOST_FACTOR, P_SCORING, P_RAMSCH_SKAT, P_JUNGFRAU = (
    OPTIONS.position(n) for n in ("all_pass", "announcements", "lost_factor", "scoring",
                                  "ramsch_skat", "ramsch_jungfrau"))
"""Where each option's code lies in the kernel's parameters (``kernel_params``)."""
RAMSCH_ON = OPTIONS.code("all_pass", "ramsch")
ANNOUNCE_ON = OPTIONS.code("announcements", True)
SEEGER_FABIAN = OPTIONS.code("scoring", "seeger_fabian")
SKAT_TO_LOSER = OPTIONS.code("ramsch_skat", "loser")
JUNGFRAU_ON = OPTIONS.code("ramsch_jungfrau", True)
LOST_FACTORS = np.array(OPTIONS.by_name["lost_factor"].allowed, np.int64)
"""``lost_factor`` by its code."""


def kernel_params(rules: dict) -> np.ndarray:
    """The rules as the kernel's parameter array: each option's code (``OptionTable.codes``)."""
    return OPTIONS.codes(rules)


def extra_levels(rules: dict) -> int:
    """Most levels a game can add beyond matadors + 1: hand, Schneider, Schwarz (+3 announced)."""
    return 3 + (3 if rules["announcements"] else 0)


def bid_list(rules: dict) -> np.ndarray:
    """The bid values reachable under ``rules``."""
    return bid_values(extra_levels(rules))


# result columns: name and Parquet type, in kernel order
COLUMNS = (
    ("deal", "int64"), ("dealer", "int8"), ("declarer", "int8"), ("declarer_position", "int8"),
    ("bid", "int16"), ("game", "int8"), ("hand", "bool"), ("ouvert", "bool"),
    ("schneider_announced", "bool"), ("schwarz_announced", "bool"), ("matadors", "int8"),
    ("declarer_points", "int16"), ("declarer_tricks", "int8"), ("schneider", "bool"),
    ("schwarz", "bool"), ("overbid", "bool"), ("won", "bool"), ("game_value", "int16"),
    ("score_0", "int16"), ("score_1", "int16"), ("score_2", "int16"), ("passed_out", "bool"),
    ("ramsch", "bool"), ("ramsch_points_0", "int16"), ("ramsch_points_1", "int16"),
    ("ramsch_points_2", "int16"), ("durchmarsch", "bool"), ("hand_0", "uint32"),
    ("hand_1", "uint32"), ("hand_2", "uint32"), ("skat", "uint32"), ("discard", "uint32"),
    ("ramsch_skat_points", "int16"), ("ramsch_last_trick", "int8"), ("ramsch_tricks_0", "int8"),
    ("ramsch_tricks_1", "int8"), ("ramsch_tricks_2", "int8"), ("ramsch_skat", "int8"),
    ("replay_error", "int16"),
)
COL = {name: j for j, (name, _) in enumerate(COLUMNS)}
"""Each result column's offset in the kernel's row, by name."""
C_DEAL, C_DEALER, C_DECLARER, C_POSITION, C_BID, C_GAME, C_HAND, C_OUVERT = (COL[n] for n in (
    "deal", "dealer", "declarer", "declarer_position", "bid", "game", "hand", "ouvert"))
C_SCH_ANN, C_SCHW_ANN, C_MATADORS, C_DPOINTS, C_DTRICKS = (COL[n] for n in (
    "schneider_announced", "schwarz_announced", "matadors", "declarer_points", "declarer_tricks"))
C_SCHNEIDER, C_SCHWARZ, C_OVERBID, C_WON, C_VALUE, C_SCORE = (COL[n] for n in (
    "schneider", "schwarz", "overbid", "won", "game_value", "score_0"))
C_PASSED_OUT, C_RAMSCH, C_RPOINTS, C_DURCHMARSCH, C_RSKAT, C_RLAST, C_RTRICKS = (
    COL[n] for n in ("passed_out", "ramsch", "ramsch_points_0", "durchmarsch",
                     "ramsch_skat_points", "ramsch_last_trick", "ramsch_tricks_0"))
C_RULE_RAMSCH_SKAT = COL["ramsch_skat"]
"""The rule column ``ramsch_skat``: the option's code in every row (1: the skat went to the
loser), so that a recorded ramsch's card play can be set up from its columns alone."""
C_HANDS, C_SKAT, C_DISCARD, C_ERROR = (COL[n] for n in ("hand_0", "skat", "discard",
                                                         "replay_error"))

# --- the score rule ------------------------------------------------------------------------

SF_WON_BONUS, SF_LOST_FACTOR, SF_LOST_MALUS, SF_DEFENDER = 50, 2, 50, 40
"""The Seeger-Fabian list: a won game + value + 50; a lost one - 2 x value - 50 for the
declarer (whatever ``lost_factor`` says) and + 40 for each defender."""


@numba.njit(**JIT)
def declared_terms(won, lost_factor, seeger_fabian):
    """A declared game's score under ``scoring``: ``(factor, bonus, defender)``, the declarer
    scoring factor x value + bonus and each defender ``defender``. The seed: won (1, 0, 0),
    lost (- ``lost_factor``, 0, 0); Seeger-Fabian: won (1, + 50, 0), lost (- 2, - 50, + 40)."""
    if not seeger_fabian:
        return (1, 0, 0) if won else (-lost_factor, 0, 0)
    return (1, SF_WON_BONUS, 0) if won else (-SF_LOST_FACTOR, -SF_LOST_MALUS, SF_DEFENDER)


@numba.njit(**JIT)
def jungfrau_factor(tricks, jungfrau):
    """What a ramsch loser's minus is multiplied by: x 2 for each player who took no trick
    (``tricks``, per seat) under ``ramsch_jungfrau``, else 1."""
    factor = 1
    if jungfrau:
        for s in range(3):
            if tricks[s] == 0:
                factor *= 2
    return factor


@numba.njit(**JIT)
def ramsch_scores(points, tricks, jungfrau, scores):
    """A ramsch's scores into ``scores`` from each seat's ramsch ``points`` (the skat's
    counted as ``ramsch_skat`` says) and ``tricks``: a player who took every trick
    (Durchmarsch) wins 120, the others 0; else every player with most points loses them, x
    ``jungfrau_factor``."""
    most = max(points[0], points[1], points[2])
    durchmarsch = tricks[0] == TRICKS or tricks[1] == TRICKS or tricks[2] == TRICKS
    factor = jungfrau_factor(tricks, jungfrau)
    for s in range(3):
        if durchmarsch:
            scores[s] = 120 if tricks[s] == TRICKS else 0
        else:
            scores[s] = -points[s] * factor if points[s] == most else 0


@numba.njit(**JIT)
def deal_scores(declarer, won, value, ramsched, points, tricks, lost_factor, seeger_fabian,
                jungfrau, scores):
    """Every seat's score of a finished deal into ``scores``, from its result facts as the
    scoring options say (``declared_terms``, ``ramsch_scores``); a deal thrown in scores 0."""
    for s in range(3):
        scores[s] = 0
    if ramsched:
        ramsch_scores(points, tricks, jungfrau, scores)
    elif declarer >= 0:
        factor, bonus, defender = declared_terms(won, lost_factor, seeger_fabian)
        for s in range(3):
            scores[s] = factor * value + bonus if s == declarer else defender


@numba.njit(**JIT)
def _rescore(declarer, won, value, ramsched, points, tricks, lost_factor, seeger_fabian,
             jungfrau, scores):
    """``deal_scores`` of every deal of a shard's columns (per-seat ones as ``[deal, seat]``)."""
    for i in range(declarer.shape[0]):
        deal_scores(declarer[i], won[i], value[i], ramsched[i], points[i], tricks[i],
                    lost_factor, seeger_fabian, jungfrau, scores[i])


def rescore(columns: dict[str, np.ndarray], rules: dict) -> dict[str, np.ndarray]:
    """Played deals' columns under other scoring-only rules (``lost_factor``, ``scoring``,
    ``ramsch_jungfrau``): the score columns again, by the kernel's own rule (``deal_scores``)."""
    def of(name: str) -> np.ndarray:
        return np.ascontiguousarray(columns[name], np.int64)

    def per_seat(stem: str) -> np.ndarray:
        return np.stack([of(f"{stem}_{s}") for s in range(N_PLAYERS)], axis=1)

    scores = np.zeros((len(columns["declarer"]), N_PLAYERS), np.int64)
    _rescore(of("declarer"), of("won"), of("game_value"), of("ramsch"), per_seat("ramsch_points"),
             per_seat("ramsch_tricks"), int(rules["lost_factor"]),
             rules["scoring"] == "seeger_fabian", bool(rules["ramsch_jungfrau"]), scores)
    return {**columns, **{f"score_{s}": scores[:, s].astype(columns[f"score_{s}"].dtype)
                          for s in range(N_PLAYERS)}}


# --- decisions -----------------------------------------------------------------------------

ANNOUNCE_FLAGS = np.array([0, DECL_SCHNEIDER, DECL_SCHNEIDER | DECL_SCHWARZ,
                           DECL_SCHNEIDER | DECL_SCHWARZ | DECL_OUVERT], np.int64)
"""A suit game's or grand's announcement levels: none, Schneider, Schwarz, ouvert."""


@numba.njit(**JIT_NRT)
def declaration_flags(obs, params):
    """The announcement levels offered: all four in a hand game with announcements on."""
    return ANNOUNCE_FLAGS[:4 if (obs[O.HAND_GAME] and params[P_ANNOUNCE] == ANNOUNCE_ON) else 1]


# --- the phases of a deal ------------------------------------------------------------------

@numba.njit(**JIT_NRT)
def _deal(seed, deal, states, perm, hands, preset, obs, row):
    """The deal: every stream keyed; ten cards to each seat, two to the skat (dealt as
    ``preset`` lays them if it is not empty); what all see before the bidding; the result
    row's deal. Returns the dealer and the skat."""
    for s in range(states.shape[0]):
        states[s, 0] = stream_key(seed, deal, s)
    dealer = deal % 3
    skat = deal_three_hands(states[STREAM_DEAL], perm, hands, preset)
    obs[:] = 0
    obs[O.DECLARER] = -1
    obs[O.FOREHAND] = (dealer + 1) % 3
    obs[O.TRICK_SIZE] = 3
    obs[O.BLIND_SEAT] = -1
    for k in range(3):
        obs[O.TRICK_CARD + k] = -1
    row[:] = 0
    row[C_DEAL] = deal
    row[C_DEALER] = dealer
    row[C_DECLARER] = -1
    row[C_RLAST] = -1
    row[C_POSITION] = -1
    row[C_GAME] = -1
    for s in range(3):
        row[C_HANDS + s] = np.int64(hands[s])
    row[C_SKAT] = np.int64(skat)
    return dealer, skat


@numba.njit(**JIT)
def _bidding(hands, dealer, obs, pols, states, values, io):
    """The bidding: middlehand bids to forehand, then rearhand to the survivor; forehand may
    take 18 after two passes. Returns ``(declarer, bid)``; declarer -1 when all passed."""
    fh = (dealer + 1) % 3
    mh = (dealer + 2) % 3
    rh = dealer
    bid = 0
    survivor = fh
    for bidder in (mh, rh):
        answerer = survivor
        while True:
            v = ask_bid(bidder, bidder, (bidder - dealer - 1) % 3, bid, obs, hands[bidder],
                        pols[bidder], states[STREAM_SEAT0 + bidder], values, io)
            if io.err[0]:
                return -1, 0
            if v == 0:
                survivor = answerer
                break
            bid = v
            obs[O.BID] = bid
            held = ask_yes(answerer, answerer, (answerer - dealer - 1) % 3, PH_ANSWER, A.HOLD,
                           A.PASS, obs, hands[answerer], pols[answerer],
                           states[STREAM_SEAT0 + answerer], io, bid)
            if io.err[0]:
                return -1, 0
            if not held:
                obs[O.PASSED] |= 1 << answerer
                survivor = bidder
                break
            obs[O.SEAT_BID + answerer] = bid
    if bid == 0:
        obs[O.BID] = 0
        obs[O.NEXT_BID] = 18
        if ask_yes(fh, fh, 0, PH_FH18, A.BID, A.PASS, obs, hands[fh], pols[fh],
                   states[STREAM_SEAT0 + fh], io, 18) and not io.err[0]:
            obs[O.SEAT_BID + fh] = 18
            return fh, 18
        obs[O.PASSED] |= 1 << fh
        return -1, 0
    return survivor, bid


@numba.njit(**JIT)
def _skat(declarer, position, hands, skat, obs, pols, states, io):
    """The skat: the declarer picks it up and puts two cards away, or plays hand. Returns
    whether he picked it up, the two cards that count for him and those he saw."""
    pickup = ask_yes(declarer, declarer, position, PH_PICKUP, A.PICKUP, A.HAND, obs,
                     hands[declarer], pols[declarer], states[STREAM_SEAT0 + declarer], io, 0)
    seen = np.uint64(0)
    if pickup and not io.err[0]:
        full = hands[declarer] | skat
        hands[declarer] = full
        put = ask_discard(declarer, declarer, position, full, skat, obs, pols[declarer],
                          states[STREAM_SEAT0 + declarer], io)
        hands[declarer] = full & ~put
        skat = put
        seen = put
    obs[O.HAND_GAME] = 0 if pickup else 1
    return pickup, skat, seen


@numba.njit(**JIT)
def _declaration(declarer, position, hands, seen, obs, pols, states, params, choices, io):
    """The declarer names his game: a suit, grand, null or null ouvert (announcements in a
    hand game if the rules have them). Returns the declaration code."""
    announce = params[P_ANNOUNCE] == ANNOUNCE_ON
    return ask_declaration(declarer, declarer, position, hands[declarer], seen, obs,
                           pols[declarer], states[STREAM_SEAT0 + declarer],
                           declaration_flags(obs, params), np.int64(announce), choices, io)


@numba.njit(inline="always", **JIT)
def _seat(state, fh, hands):
    """The card play's places: the three seats with their hands, forehand to lead."""
    begin(state, 3, fh, -1, 0)
    for s in range(3):
        sit(state, s, hands[s], s)


@numba.njit(inline="always", **JIT)
def _card(state, obs, pol, rng, io):
    """The card the player to move plays (``play_tricks``'s decision)."""
    return ask(card_policy(pol, True), state[S.PLAYER], obs, rng, decide_play, card_allowed,
               card_row, card_value, state, io)


@numba.njit(**JIT)
def _tricks(state, obs, pols, states, io):
    """The tricks, through the card-play state: the seat to move sees its observation and
    plays, until the card play is over (or a replay stops)."""
    play_tricks(state, obs, pols, states, io, finished, observe, step, _card, nothing_after, ROWS)


@numba.njit(**JIT)
def settle(game, mat, hand, ouvert, schneider_announced, schwarz_announced, declarer_points,
           declarer_tricks, bid, lost_factor):
    """Skat's settlement of a declared game: its terms (``values.TERMS``)."""
    return game_terms(Contract(game, mat, hand, ouvert, schneider_announced, schwarz_announced,
                               0),
                      declarer_points, declarer_tricks, TRICKS, bid,
                      Offers(0, False, 0, False, False), lost_factor, REJECTION_PREMIUM)


def settlement_terms(c: dict[str, Any], rules: dict[str, Any]) -> dict[str, int]:
    """The settlement's terms of a declared game, from its result columns ``c``, scored as
    ``rules`` say (``declared_terms``): ``lost_factor`` the factor a lost game's value is
    taken, ``list_bonus`` the Seeger-Fabian list's + 50 or - 50 (else 0), ``defender_score``
    what each defender scores, ``score`` the declarer's."""
    t = terms_dict(settle(c["game"], c["matadors"], int(c["hand"]), int(c["ouvert"]),
                          int(c["schneider_announced"]), int(c["schwarz_announced"]),
                          c["declarer_points"], c["declarer_tricks"], c["bid"],
                          int(rules["lost_factor"])))
    lost_factor, seeger_fabian = int(rules["lost_factor"]), rules["scoring"] == "seeger_fabian"
    factor, bonus, _ = declared_terms(t["won"], lost_factor, seeger_fabian)
    scores = np.zeros(N_PLAYERS, np.int64)
    none = np.zeros(N_PLAYERS, np.int64)
    deal_scores(0, t["won"], t["value"], 0, none, none, lost_factor, seeger_fabian, False, scores)
    return {**t, "lost_factor": t["lost_factor"] if t["won"] else -factor, "list_bonus": bonus,
            "score": int(scores[0]), "defender_score": int(scores[1])}


@numba.njit(**JIT)
def _scores(row, params):
    """The seats' scores into ``row`` from its facts, as the scoring options say."""
    deal_scores(row[C_DECLARER], row[C_WON], row[C_VALUE], row[C_RAMSCH],
                row[C_RPOINTS:C_RPOINTS + 3], row[C_RTRICKS:C_RTRICKS + 3],
                LOST_FACTORS[params[P_LOST_FACTOR]], params[P_SCORING] == SEEGER_FABIAN,
                params[P_JUNGFRAU] == JUNGFRAU_ON, row[C_SCORE:C_SCORE + 3])


@numba.njit(**JIT)
def _settlement(row, state, params):
    """Score the declared game: the card points and tricks, matadors, and the settlement's
    value, won or lost, into ``row``; then the seats' scores."""
    declarer = state[S.DECLARER]
    game = state[S.GAME]
    dpoints = declarer_points(state)
    dtricks = state[S.TRICKS + declarer]
    mat = 0 if game == NULL else matadors(declarer_cards(state), game)
    t = settle(game, mat, state[S.HAND_GAME], state[S.OUVERT], state[S.SCHNEIDER_ANN],
               state[S.SCHWARZ_ANN], dpoints, dtricks, state[S.BID],
               LOST_FACTORS[params[P_LOST_FACTOR]])
    row[C_DPOINTS] = dpoints
    row[C_DTRICKS] = dtricks
    row[C_MATADORS] = mat
    row[C_SCHNEIDER] = t[T_SCHNEIDER_MADE]
    row[C_SCHWARZ] = t[T_SCHWARZ_MADE]
    row[C_OVERBID] = t[T_OVERBID]
    row[C_WON] = t[T_WON]
    row[C_VALUE] = t[T_VALUE]
    _scores(row, params)


@numba.njit(**JIT)
def _ramsch(fh, hands, skat, state, obs, pols, states, params, io,
            row):
    """All passed, ramsch: forehand leads, jacks trump; the skat's points go where
    ``ramsch_skat`` says (``ramsch_points``); then the seats' scores (``ramsch_scores``)."""
    record(io.log, io.nlog, A.RAMSCH, fh, 0, 0)
    if io.cur[0] < io.script.shape[0] and io.script[io.cur[0], 0] == A.RAMSCH:
        io.cur[0] += 1  # a replayed ramsch row is no decision: step over it
    _seat(state, fh, hands)
    ramsch(state, skat, params[P_RAMSCH_SKAT] == SKAT_TO_LOSER)
    _tricks(state, obs, pols, states, io)
    row[C_ERROR] = io.err[0]
    row[C_RSKAT] = card_points(skat)
    row[C_RLAST] = state[S.LEADER]
    row[C_RAMSCH] = 1
    row[C_GAME] = RAMSCH
    row[C_DISCARD] = np.int64(skat)
    for s in range(3):
        row[C_RPOINTS + s] = ramsch_points(state, s)
        row[C_RTRICKS + s] = state[S.TRICKS + s]
        if state[S.TRICKS + s] == TRICKS:
            row[C_DURCHMARSCH] = 1
    _scores(row, params)


@numba.njit(**JIT)
def _game(declarer, bid, fh, pickup, decl, skat, seen, scratch, pols, io, row):
    """The declared game: its contract in the result row and the state, then the tricks
    (``scratch``: the deal's arrays, ``_deal_scratch``)."""
    obs, states, hands, _, state, _ = scratch
    game = decl & 7
    _seat(state, fh, hands)
    contract(state, decl, declarer, -1, bid, 0 if pickup else 1, skat, seen, False, False)
    row[C_GAME] = game
    row[C_HAND] = state[S.HAND_GAME]
    row[C_OUVERT] = state[S.OUVERT]
    row[C_SCH_ANN] = state[S.SCHNEIDER_ANN]
    row[C_SCHW_ANN] = state[S.SCHWARZ_ANN]
    row[C_DISCARD] = np.int64(skat)
    _tricks(state, obs, pols, states, io)
    row[C_ERROR] = io.err[0]


@numba.njit(**JIT)
def play_deal(seed, deal, params, pols, values, row, scratch, io, preset):
    """Deal ``deal``, bid, take the skat, declare, play the tricks and settle, into the result
    ``row`` (dealt as ``preset`` lays the cards if it is not empty), with the scratch arrays
    ``_deal_scratch`` made."""
    obs, states, hands, perm, state, work = scratch
    io.cur[0] = 0
    io.nlog[0] = 0
    dealer, skat = _deal(seed, deal, states, perm, hands, preset, obs, row)
    row[C_RULE_RAMSCH_SKAT] = params[P_RAMSCH_SKAT]
    obs[O.ALL_PASS_RAMSCH] = 1 if params[P_ALL_PASS] == RAMSCH_ON else 0
    obs[O.SKAT_TO_LOSER] = 1 if params[P_RAMSCH_SKAT] == SKAT_TO_LOSER else 0
    fh = (dealer + 1) % 3
    declarer, bid = _bidding(hands, dealer, obs, pols, states, values, io)
    if io.err[0]:
        row[C_ERROR] = io.err[0]
        return
    if declarer < 0:
        if params[P_ALL_PASS] == RAMSCH_ON:
            _ramsch(fh, hands, skat, state, obs, pols, states, params, io, row)
        else:
            row[C_PASSED_OUT] = 1
            row[C_DISCARD] = np.int64(skat)
        return
    obs[O.DECLARER] = declarer
    obs[O.BID] = bid
    position = (declarer - dealer - 1) % 3
    row[C_DECLARER] = declarer
    row[C_POSITION] = position
    row[C_BID] = bid
    pickup, skat, seen = _skat(declarer, position, hands, skat, obs, pols, states, io)
    if io.err[0]:
        row[C_ERROR] = io.err[0]
        return
    decl = _declaration(declarer, position, hands, seen, obs, pols, states, params,
                        work[W_CHOICES:W_LEN], io)
    if io.err[0]:
        row[C_ERROR] = io.err[0]
        return
    _game(declarer, bid, fh, pickup, decl, skat, seen, scratch, pols, io, row)
    _settlement(row, state, params)


@implements(deal_scratch, NAME)
def _deal_scratch(game):
    return (np.zeros(O.LENGTH, np.int64), np.zeros((STREAM_SEAT0 + 3, 1), np.uint64),
            np.zeros(3, np.uint64), np.zeros(32, np.int64), np.zeros(LENGTH, np.int64),
            np.zeros(W_LEN, np.int64))


@implements(kernel_play_deal, NAME)
def _play_deal(game, seed, deal, params, pols, values, row, work, io, preset):
    play_deal(seed, deal, params, pols, values, row, work, io, preset)


# --- the declaration -----------------------------------------------------------------------

DEAL_LAYOUT = Layout(
    (Group("hand of seat 0", 10), Group("hand of seat 1", 10), Group("hand of seat 2", 10),
     Group("skat", 2)),
    lambda cards, dealer: cards[0] + cards[1] + cards[2] + cards[3],
    lambda c: [*c["hands"], c["skat"]])
"""A deal written by hand: the three hands in seat order, then the skat, dealt in that order
from the top (``deal_three_hands``)."""

GAME = Game(
    name=NAME, n_players=N_PLAYERS, deck=DECK, tricks=TRICKS, options=OPTIONS, columns=COLUMNS,
    categories={"game": GAME_NAMES, "declarer_position": POSITIONS,
                "ramsch_skat": OPTIONS.by_name["ramsch_skat"].allowed}, outcome=outcome(N_PLAYERS),
    observation=O, kernel=KernelTag(NAME), kernel_params=kernel_params, rescore=rescore,
    deal_layout=DEAL_LAYOUT, trace_codec="sim.games.skat_family.trace",
    screen="sim.games.skat_family.screen:SkatScreen", bid_values=bid_list,
    card_play=CardPlay(S, LENGTH, legal, step, observe, finished, decide, playout, start_skat,
                       skat_result, card_values),
    policies=EVERY_POLICY, restrictions="sim.games.skat_family.restrictions",
    net=Learned(FEATURES, "sim.games.skat_family:net_skat.npz", ANSWERS),
    solver=Solver("sim.games.skat_family.solver", bench_positions=50, bench_target=61),
    compile_seconds=180)
"""Three-player Skat, as the registry (``sim.registry``) knows it."""

"""Skat for two with the blind (``skat_en_deux``; RULES.md, seed 002).

What the game is
----------------
* Players: 2, seats 0 and 1; in deal ``d`` seat ``d % 2`` deals and sits at
  rearhand, the other player is forehand. The ten cards of "the blind" sit at
  middlehand face down. Table places (observation seats): forehand 0, blind 1,
  rearhand 2.
* Deck: 32 cards dealt as in three-player Skat: 10 to each place, 2 to the skat.
* Phases: deal; bidding (the dealer bids to forehand or passes, forehand holds or
  passes; forehand may take 18 when the dealer passes at once); give-up at 18;
  skat pickup or hand; give-up after pickup; discard; declaration (suit or grand
  with open level 0, 1 "einmal offen" or 2 "zweimal offen"; null, null ouvert);
  ten three-card tricks forehand -> blind -> rearhand, the defender playing the
  blind, which is turned face up after the opening lead; offers, Contra and Re
  before tricks from the second on; settlement. When both pass: ramsch in
  two-card tricks without the blind, or a throw-in.
* Options: ``OPTIONS`` below; beyond the rule book, the numbers ``give_up_penalty`` and
  ``rejection_premium_percent`` (the seed's 60 and 50 % by default) and ``compensation``,
  a side payment to the player who does not start (the dealer: forehand starts).

``play_deal`` goes through the phases as the rules name them (``_deal``, ``_bidding``,
``_skat`` with the give-ups, ``_declaration``, ``_game`` with its ``_tricks``,
``_settlement``; ``_ramsch``). The card play's state and steps, offers, Contra and Re
included, live in ``sim.games.skat_family.cardplay``; ``settle`` returns the settlement's terms.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numba
import numpy as np

from sim import actions as A
from sim.cards import SKAT_DECK
from sim.engine.cardplay import PLAY, CardPlay
from sim.engine.deals import Group, Layout
from sim.engine.game import EVERY_POLICY, Game, Learned, Solver
from sim.engine.kernel import (
    KernelTag,
    ask,
    card_policy,
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
    YES_NO,
    answer_yes,
    ask_bid,
    ask_declaration,
    ask_discard,
    ask_yes,
    check_declaration,
    deal_three_hands,
    decide_play,
    outcome,
    private,
)
from sim.games.skat_family.cardplay import (
    ACCEPT,
    CONTRA,
    LENGTH,
    OFFER,
    S,
    begin,
    card_allowed,
    contract,
    declarer_cards,
    declarer_points,
    en_deux_result,
    finished,
    legal,
    observe,
    offer_before_lead,
    offer_outcome,
    playout,
    ramsch,
    ramsch_loser,
    sit,
    start_en_deux,
    step,
)
from sim.games.skat_family.features import EN_DEUX, EN_DEUX_ROWS
from sim.games.skat_family.lookahead import card_values, decide, decide_give_up, decide_offer
from sim.games.skat_family.observation import (
    BOTH_OFFERS,
    DECL_OPEN_SHIFT,
    OFFER_NONE,
    OFFER_RAUS,
    OFFER_STICH,
    PH_ANSWER,
    PH_FH18,
    PH_GIVE_UP,
    PH_PICKUP,
)
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.values import (
    BASE,
    GAME_NAMES,
    GIVE_UP_SCORE,
    JIT,
    JIT_NRT,
    NULL,
    POSITIONS,
    RAMSCH,
    REJECTION_PREMIUM,
    T_OVERBID,
    T_SCHNEIDER_MADE,
    T_SCHWARZ_MADE,
    T_SCORE,
    T_VALUE,
    T_WON,
    TERMS,
    Contract,
    Offers,
    bid_values,
    card_points,
    game_terms,
    matadors,
    overbid_value,
    terms_dict,
)
from sim.options import Option, OptionTable
from sim.rng import STREAM_DEAL, STREAM_SEAT0, stream_key

NAME = "skat_en_deux"
N_PLAYERS = 2
DECK = SKAT_DECK
TRICKS = 10
FH, BLIND, RH = 0, 1, 2
"""Table places: forehand, the blind (middlehand), rearhand (the dealer)."""

OBSERVATION = O
"""The fields of a seat's observation, what its policy (or a person at the table) sees."""

PENALTY_MAX = 200
"""The most ``give_up_penalty`` may take."""
PREMIUM_MAX = 200
"""The largest ``rejection_premium_percent``: x 3 (with Contra and Re a game's value stays
far inside the int16 score columns)."""
COMPENSATION_MAX = 100
"""The largest ``compensation``."""

OPTIONS = OptionTable([
    Option("all_pass", "ramsch", ("ramsch", "throw_in"),
           "when both pass: ramsch (the blind stays out), or the deal is thrown in"),
    Option("open_hand", False, (False, True),
           "open levels may also be played hand, adding the hand level too"),
    Option("give_up_at_18", True, (True, False),
           "with a bid of 18 the declarer may give up for -60 (give_up_penalty), after the "
           "bidding or after picking up the skat; never with contra_re"),
    Option("give_up_after_pickup", True, (True, False),
           "after picking up, the declarer may give up naming his intended suit or grand when "
           "it cannot reach the bid even at its highest level (lost as that game overbid); "
           "never with contra_re"),
    Option("pickup_give_up_score", "overbid", ("overbid", "penalty"),
           "a give-up after the pickup is lost as the named game overbid, or costs "
           "give_up_penalty as a give-up at 18", scoring_only=True, revision=4),
    Option("lost_factor", 2, (2, 1), "a lost game costs this many times its value",
           scoring_only=True),
    Option("offers", False, (False, True),
           "the defender may offer 'raus' or 'Stich' before a trick from the second on, each "
           "once ('Stich' may follow a rejected 'raus'); the declarer accepts or rejects"),
    Option("offer_timing", "from_trick_2", ("from_trick_2", "from_declaration"),
           "offers before the tricks from the second on, or also once the game is declared, "
           "before the opening lead, while the blind and the skat are hidden", revision=4),
    Option("contra_re", False, (False, True),
           "implies offers; a game whose first offer was rejected gets one more level and x1.5 "
           "(rejection_premium_percent), then the defender may say Contra (x2) and the "
           "declarer Re (x4)"),
    Option("second_rejection", "no_effect", ("no_effect", "counts"),
           "with contra_re, a second rejected offer (a 'Stich' after a rejected 'raus') "
           "changes nothing, or raises the value again: one more level and the premium once "
           "more", scoring_only=True, revision=4),
    Option.integer("give_up_penalty", GIVE_UP_SCORE, 0, PENALTY_MAX,
                   "what giving up at 18 costs the declarer", scoring_only=True,
                   beyond_rules=True),
    Option.integer("rejection_premium_percent", REJECTION_PREMIUM, 0, PREMIUM_MAX,
                   "with contra_re, a game whose first offer was rejected is worth this many "
                   "per cent more after its extra level (rounded up)", scoring_only=True,
                   beyond_rules=True),
    Option.integer("compensation", 0, 0, COMPENSATION_MAX,
                   "points credited every deal to the player who does not start (the dealer), "
                   "whatever the result (a side payment: who won does not change)",
                   scoring_only=True, beyond_rules=True),
])

(P_ALL_PASS, P_OPEN_HAND, P_GIVE_UP_18, P_GIVE_UP_PICKUP, P_PICKUP_SCORE, P_LOST_FACTOR,
 P_OFFERS, P_OFFER_TIMING, P_CONTRA_RE, P_SECOND_REJECTION, P_PENALTY, P_PREMIUM,
 P_COMPENSATION) = (OPTIONS.position(n) for n in (
     "all_pass", "open_hand", "give_up_at_18", "give_up_after_pickup", "pickup_give_up_score",
     "lost_factor", "offers", "offer_timing", "contra_re", "second_rejection",
     "give_up_penalty", "rejection_premium_percent", "compensation"))
"""Where each option's code lies in the kernel's parameters (``kernel_params``; an integer
option's code is its value)."""
RAMSCH_ON = OPTIONS.code("all_pass", "ramsch")
OPEN_HAND_ON = OPTIONS.code("open_hand", True)
GIVE_UP_18_ON = OPTIONS.code("give_up_at_18", True)
GIVE_UP_PICKUP_ON = OPTIONS.code("give_up_after_pickup", True)
OFFERS_ON = OPTIONS.code("offers", True)
CONTRA_RE_ON = OPTIONS.code("contra_re", True)
PICKUP_PENALTY = OPTIONS.code("pickup_give_up_score", "penalty")
OFFERS_AT_DECLARATION = OPTIONS.code("offer_timing", "from_declaration")
SECOND_COUNTS = OPTIONS.code("second_rejection", "counts")
LOST_FACTORS = np.array(OPTIONS.by_name["lost_factor"].allowed, np.int64)
"""``lost_factor`` by its code."""

def kernel_params(rules: dict) -> np.ndarray:
    """The rules as the kernel's parameter array: each option's code (``OptionTable.codes``)."""
    return OPTIONS.codes(rules)


def extra_levels(rules: dict) -> int:
    """Most levels beyond matadors + 1: zweimal offen (2), Schneider, Schwarz, and the hand
    level where open games may be played hand."""
    return 4 + (1 if rules["open_hand"] else 0)


def rescore(columns: dict[str, np.ndarray], rules: dict) -> dict[str, np.ndarray]:
    """Played deals' columns under other scoring-only rules (``pickup_give_up_score``,
    ``lost_factor``, ``second_rejection``, ``give_up_penalty``, ``rejection_premium_percent``,
    ``compensation``): every deal's
    settlement again from the facts its play left in its row, by the kernel's own rule
    (``score_row``)."""
    rows = np.stack([np.asarray(columns[name]).astype(np.int64) for name, _ in COLUMNS], axis=1)
    score_rows(rows, kernel_params(rules))
    return {**columns, **{name: rows[:, COL[name]].astype(dtype) for name, dtype in COLUMNS
                          if name in SCORED}}


def bid_list(rules: dict) -> np.ndarray:
    """The bid values reachable under ``rules`` (open levels included)."""
    return bid_values(extra_levels(rules))


OFFERS = ("none", "raus", "stich")
CATEGORIES = {"game": GAME_NAMES, "declarer_position": POSITIONS, "offer": OFFERS}
"""Integer-coded columns written as labels (``sim.runner``)."""

COLUMNS = (
    ("deal", "int64"), ("dealer", "int8"), ("declarer", "int8"), ("declarer_position", "int8"),
    ("bid", "int16"), ("game", "int8"), ("hand", "bool"), ("ouvert", "bool"),
    ("open_level", "int8"), ("matadors", "int8"), ("declarer_points", "int16"),
    ("declarer_tricks", "int8"), ("schneider", "bool"), ("schwarz", "bool"), ("overbid", "bool"),
    ("won", "bool"), ("game_value", "int16"), ("score_0", "int16"), ("score_1", "int16"),
    ("passed_out", "bool"), ("give_up", "bool"), ("offer", "int8"), ("offer_trick", "int8"),
    ("second_offer_trick", "int8"), ("accepted", "bool"), ("contra", "bool"), ("re", "bool"),
    ("ramsch", "bool"),
    ("ramsch_points_0", "int16"), ("ramsch_points_1", "int16"), ("ramsch_loser", "int8"),
    ("ramsch_tie_last_trick", "bool"), ("hand_0", "uint32"), ("hand_1", "uint32"),
    ("blind", "uint32"), ("skat", "uint32"), ("discard", "uint32"), ("ramsch_skat_points", "int16"),
    ("replay_error", "int16"),
)
COL = {name: j for j, (name, _) in enumerate(COLUMNS)}
"""Each result column's offset in the kernel's row, by name."""
C_DEAL, C_DEALER, C_DECLARER, C_POSITION, C_BID, C_GAME, C_HAND, C_OUVERT, C_OPEN = (
    COL[n] for n in ("deal", "dealer", "declarer", "declarer_position", "bid", "game", "hand",
                     "ouvert", "open_level"))
C_MATADORS, C_DPOINTS, C_DTRICKS, C_SCHNEIDER, C_SCHWARZ, C_OVERBID, C_WON, C_VALUE = (
    COL[n] for n in ("matadors", "declarer_points", "declarer_tricks", "schneider", "schwarz",
                     "overbid", "won", "game_value"))
C_SCORE, C_PASSED_OUT, C_GIVE_UP = (COL[n] for n in ("score_0", "passed_out", "give_up"))
C_OFFER, C_OFFER_TRICK, C_SECOND_OFFER, C_ACCEPTED, C_CONTRA, C_RE = (COL[n] for n in (
    "offer", "offer_trick", "second_offer_trick", "accepted", "contra", "re"))
C_RAMSCH, C_RPOINTS, C_RLOSER, C_RTIE, C_RSKAT = (COL[n] for n in (
    "ramsch", "ramsch_points_0", "ramsch_loser", "ramsch_tie_last_trick", "ramsch_skat_points"))
C_HANDS, C_BLIND, C_SKAT, C_DISCARD, C_ERROR = (COL[n] for n in (
    "hand_0", "blind", "skat", "discard", "replay_error"))
SCORED = ("schneider", "schwarz", "overbid", "won", "game_value", "score_0", "score_1")
"""The columns the settlement writes from the play's facts (``score_row``): what re-scoring
may change."""


# --- decisions -----------------------------------------------------------------------------

OPEN_FLAGS = np.array([0, 1 << DECL_OPEN_SHIFT, 2 << DECL_OPEN_SHIFT], np.int64)
"""A suit game's or grand's open levels: closed, einmal offen, zweimal offen."""


@numba.njit(**JIT_NRT)
def declaration_flags(obs, params):
    """The open levels offered: all three in a pickup game (a hand game with open_hand)."""
    return OPEN_FLAGS[:3 if (not obs[O.HAND_GAME] or params[P_OPEN_HAND] == OPEN_HAND_ON)
                      else 1]


@numba.njit(**JIT)
def declaration_allowed(decl, obs, params, buf):
    """Whether ``decl`` is among the declarations offered now."""
    return check_declaration((declaration_flags(obs, params), False, buf), obs, decl) >= 0


@numba.njit(**JIT)
def give_up_games(cards, bid):
    """The suit games and grand the declarer may name to give up after the pickup (a mask
    over game codes): those that cannot reach ``bid`` even at their highest level, base x
    (the matadors of these twelve ``cards`` + 1 + zweimal offen (2) + Schneider + Schwarz)."""
    games = 0
    for game in range(5):
        if BASE[game] * (abs(matadors(cards, game)) + 1 + 2 + 2) < bid:
            games |= 1 << game
    return games


# --- the settlement ------------------------------------------------------------------------

DECLARED, GIVEN_UP_AT_18, GIVEN_UP_AFTER_PICKUP = range(3)
"""What the settlement settles: a game played, or given up at 18 (− 60), or given up after
the pickup naming a game (lost as that game overbid)."""


@numba.njit(**JIT)
def settle(kind, contract, declarer_points, declarer_tricks, bid, offers, params):
    """Skat-en-deux's settlement of the declarer's game (its ``Contract``, the ``Offers``)
    under the rules ``params`` (``lost_factor``, ``give_up_penalty``,
    ``rejection_premium_percent``, ``pickup_give_up_score``): its terms (``values.TERMS``). A
    game given up has only its value, lost, the lost factor and the score; after the pickup
    the contract's game is the one he named, lost as overbid, or under
    ``pickup_give_up_score`` ``penalty`` worth nothing and costing ``give_up_penalty`` as at
    18."""
    lost_factor = LOST_FACTORS[params[P_LOST_FACTOR]]
    if kind == DECLARED:
        return game_terms(contract, declarer_points, declarer_tricks, TRICKS, bid, offers,
                          lost_factor, params[P_PREMIUM])
    overbid = kind == GIVEN_UP_AFTER_PICKUP and params[P_PICKUP_SCORE] != PICKUP_PENALTY
    value = overbid_value(contract.game, bid) if overbid else 0
    score = -lost_factor * value if overbid else -params[P_PENALTY]
    z = np.int64(0)
    return (z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, np.int64(value), z,
            np.int64(lost_factor), np.int64(score), z, z)


assert TERMS[21:25] == ("value", "won", "lost_factor", "score")  # settle's give-up terms


@numba.njit(**JIT)
def _row_terms(row, params):
    """The settlement's terms of the declarer's game from the facts of its result ``row``
    (``settle``): given up or declared, its contract, card points and tricks, offers,
    Contra and Re."""
    kind = DECLARED
    if row[C_GIVE_UP]:
        kind = GIVEN_UP_AFTER_PICKUP if row[C_GAME] >= 0 else GIVEN_UP_AT_18
    taken, rejected = offer_outcome(row[C_OFFER], row[C_SECOND_OFFER], row[C_ACCEPTED] != 0,
                                    params[P_CONTRA_RE] == CONTRA_RE_ON,
                                    params[P_SECOND_REJECTION] == SECOND_COUNTS)
    contract = Contract(row[C_GAME], row[C_MATADORS], row[C_HAND], row[C_OUVERT], 0, 0,
                        row[C_OPEN])
    offers = Offers(taken, row[C_ACCEPTED], rejected, row[C_CONTRA], row[C_RE])
    return kind, settle(kind, contract, row[C_DPOINTS], row[C_DTRICKS], row[C_BID], offers,
                        params)


@numba.njit(**JIT)
def score_row(row, params):
    """Settle a finished deal into its result ``row`` from the facts its play left there, as
    the scoring rules ``params`` say (the kernel and ``rescore`` both): a declared game's
    result and value (``settle``) and the declarer's score; a game given up; a ramsch's
    loser, minus his card points and the skat's; nothing for a deal thrown in. Then the
    ``compensation``: the player who does not start, the dealer, is credited it whatever
    happened."""
    row[C_SCORE] = 0
    row[C_SCORE + 1] = 0
    if row[C_RAMSCH]:
        loser = row[C_RLOSER]
        row[C_SCORE + loser] = -(row[C_RPOINTS + loser] + row[C_RSKAT])
    elif row[C_DECLARER] >= 0:
        kind, t = _row_terms(row, params)
        if kind == DECLARED:
            row[C_SCHNEIDER] = t[T_SCHNEIDER_MADE]
            row[C_SCHWARZ] = t[T_SCHWARZ_MADE]
            row[C_OVERBID] = t[T_OVERBID]
            row[C_WON] = t[T_WON]
        row[C_VALUE] = t[T_VALUE]
        row[C_SCORE + row[C_DECLARER]] = t[T_SCORE]
    row[C_SCORE + row[C_DEALER]] += params[P_COMPENSATION]


@numba.njit(**JIT)
def score_rows(rows, params):
    """``score_row`` for every deal of ``rows`` (``[deal, column]``, each a row as the kernel
    fills it) that finished without a replay error."""
    for i in range(rows.shape[0]):
        if rows[i, C_ERROR] == 0:
            score_row(rows[i], params)


def settlement_terms(c: dict[str, Any], rules: dict[str, Any]) -> dict[str, int]:
    """The settlement's terms of the declarer's game, from its result columns ``c``."""
    row = np.zeros(len(COLUMNS), np.int64)
    for name in ("give_up", "game", "matadors", "hand", "ouvert", "open_level",
                 "declarer_points", "declarer_tricks", "bid", "offer", "second_offer_trick",
                 "accepted", "contra", "re"):
        row[COL[name]] = int(c[name])
    return terms_dict(_row_terms(row, kernel_params(OPTIONS.resolve(rules, NAME)))[1])


@numba.njit(**JIT)
def _settlement(row, state):
    """The declared game's facts for its settlement into ``row``: the card play's result
    (card points and tricks, the offer, Contra, Re) and the matadors (``score_row`` settles
    them)."""
    place = state[S.DECLARER]
    game = state[S.GAME]
    row[C_OFFER] = state[S.OFFER]
    row[C_OFFER_TRICK] = state[S.OFFER_TRICK]
    row[C_SECOND_OFFER] = state[S.SECOND_OFFER_TRICK]
    row[C_ACCEPTED] = state[S.ACCEPTED]
    row[C_CONTRA] = state[S.SAID_CONTRA]
    row[C_RE] = state[S.SAID_RE]
    row[C_DPOINTS] = declarer_points(state)
    row[C_DTRICKS] = state[S.TRICKS + place]
    row[C_MATADORS] = 0 if game == NULL else matadors(declarer_cards(state), game)


# --- the phases of a deal ------------------------------------------------------------------

@numba.njit(**JIT_NRT)
def _deal(seed, deal, states, perm, hands, preset, obs, row):
    """The deal: every stream keyed; ten cards to forehand, the blind and rearhand, two to the
    skat (dealt as ``preset`` lays them if it is not empty); what both see before the
    bidding; the result row's deal. Returns the dealer and the skat."""
    for s in range(states.shape[0]):
        states[s, 0] = stream_key(seed, deal, s)
    dealer = deal % 2
    skat = deal_three_hands(states[STREAM_DEAL], perm, hands, preset)
    obs[:] = 0
    obs[O.DECLARER] = -1
    obs[O.FOREHAND] = FH
    obs[O.TRICK_SIZE] = 3
    obs[O.BLIND_SEAT] = BLIND
    obs[O.MAX_OPEN] = 2
    for k in range(3):
        obs[O.TRICK_CARD + k] = -1
    row[:] = 0
    row[C_DEAL] = deal
    row[C_DEALER] = dealer
    row[C_DECLARER] = -1
    row[C_POSITION] = -1
    row[C_GAME] = -1
    row[C_OFFER_TRICK] = -1
    row[C_SECOND_OFFER] = -1
    row[C_RLOSER] = -1
    row[C_HANDS + 1 - dealer] = np.int64(hands[FH])
    row[C_HANDS + dealer] = np.int64(hands[RH])
    row[C_BLIND] = np.int64(hands[BLIND])
    row[C_SKAT] = np.int64(skat)
    return dealer, skat


@numba.njit(**JIT)
def _show_rules(obs, params):
    """What both know from the rules before the bidding: the offers and Contra/Re the game
    allows (``OFFERS_LEFT``, ``CONTRA_RE``) and whether passing leads to a ramsch, for the
    declarer to weigh when he bids, picks up, gives up and declares."""
    contra_re = params[P_CONTRA_RE] == CONTRA_RE_ON
    offers = params[P_OFFERS] == OFFERS_ON or contra_re
    obs[O.OFFERS_LEFT] = BOTH_OFFERS if offers else 0
    obs[O.CONTRA_RE] = 1 if contra_re else 0
    obs[O.ALL_PASS_RAMSCH] = 1 if params[P_ALL_PASS] == RAMSCH_ON else 0


@numba.njit(**JIT)
def _bidding(hands, dealer, fhp, obs, pols, states, values, io):
    """The bidding: the dealer bids to forehand until one passes; forehand may take 18 when
    the dealer passes at once. Returns ``(declarer place, bid)``, place -1 when both passed."""
    bid = 0
    while True:
        v = ask_bid(RH, dealer, RH, bid, obs, hands[RH], pols[dealer],
                    states[STREAM_SEAT0 + dealer], values, io)
        if io.err[0]:
            return -1, 0
        if v == 0:
            if bid:
                return FH, bid
            obs[O.NEXT_BID] = 18
            if ask_yes(FH, fhp, FH, PH_FH18, A.BID, A.PASS, obs, hands[FH], pols[fhp],
                       states[STREAM_SEAT0 + fhp], io, 18) \
                    and not io.err[0]:
                obs[O.SEAT_BID + FH] = 18
                return FH, 18
            obs[O.PASSED] |= 1 << FH
            return -1, 0
        bid = v
        obs[O.BID] = bid
        held = ask_yes(FH, fhp, FH, PH_ANSWER, A.HOLD, A.PASS, obs, hands[FH], pols[fhp],
                       states[STREAM_SEAT0 + fhp], io, bid)
        if io.err[0]:
            return -1, 0
        if not held:
            obs[O.PASSED] |= 1 << FH
            return RH, bid
        obs[O.SEAT_BID + FH] = bid


@numba.njit(**JIT)
def _ask_give_up(declarer_place, declarer, obs, hand, skat, pols, states, io):
    """The declarer may give the game up at 18 now (no row when he does not); after the
    pickup he holds ``hand`` with the ``skat`` he found (0 before it), which he sees."""
    private(obs, declarer_place, declarer_place, hand)
    obs[O.PHASE] = PH_GIVE_UP
    obs[O.SKAT] = np.int64(skat)
    obs[O.LEGAL] = YES_NO
    return answer_yes(pols[declarer], declarer, A.GIVE_UP, -1, obs, states[STREAM_SEAT0 + declarer],
                      io, 0)


@numba.njit(inline="always", **JIT)
def _decide_give_up(games, pol, obs, rng):
    return decide_give_up(pol, obs, rng)


@numba.njit(inline="always", **JIT)
def _check_give_up(games, obs, answer):
    """Play on (0), or give up naming one of ``games`` (its code + 1)."""
    return answer if answer == 0 or (answer <= 5 and (games >> (answer - 1)) & 1) else -1


@numba.njit(inline="always", **JIT)
def _give_up_row(games, answer):
    """A give-up's row names the game (code + 1; 0 is a give-up at 18); playing on leaves
    none."""
    return (A.GIVE_UP, answer, 0) if answer else (-1, 0, 0)


@numba.njit(inline="always", **JIT)
def _give_up_value(games, kind, a, b):
    if kind == A.DECLINE and a == A.GIVE_UP:
        return 0
    if kind != A.GIVE_UP:
        return -1
    return a if a > 0 else -2


@numba.njit(**JIT)
def _ask_give_up_game(place, declarer, obs, full, skat, games, pols, states, io):
    """After the pickup (his cards ``full``, the ``skat`` he found among them) the declarer
    may give up naming one of ``games`` (``give_up_games``); returns the game named, -1 when
    he plays on (no row) or after an error."""
    private(obs, place, place, full)
    obs[O.PHASE] = PH_GIVE_UP
    obs[O.SKAT] = np.int64(skat)
    obs[O.GIVE_UP_GAMES] = games
    answer = ask(pols[declarer], declarer, obs, states[STREAM_SEAT0 + declarer], _decide_give_up,
                 _check_give_up, _give_up_row, _give_up_value, games, io)
    obs[O.GIVE_UP_GAMES] = 0
    return answer - 1 if answer > 0 else -1


@numba.njit(**JIT)
def _skat(place, declarer, bid, hands, skat, obs, pols, states, params, io):
    """The skat: with a bid of 18 the declarer may give up first; he picks the skat up or
    plays hand; after the pickup he may give up (at 18, or naming an intended game that
    cannot reach the bid: ``give_up_games``), else he puts two cards away. With ``contra_re``
    he never gives up. Returns how he gave up (0: he did not) and the game he named (-1:
    none), whether he picked up, the two cards that count for him and those he saw.

    The question after the pickup is asked once, before the discard: the rule looks at his
    twelve cards, which the discard does not change, so asking again after it would put the
    same question twice."""
    seen = np.uint64(0)
    may_give_up = params[P_CONTRA_RE] != CONTRA_RE_ON
    at_18 = may_give_up and params[P_GIVE_UP_18] == GIVE_UP_18_ON and bid == 18
    if at_18 and _ask_give_up(place, declarer, obs, hands[place], 0, pols, states, io):
        return GIVEN_UP_AT_18, -1, 0, skat, seen
    if io.err[0]:
        return 0, -1, 0, skat, seen
    pickup = ask_yes(place, declarer, place, PH_PICKUP, A.PICKUP, A.HAND, obs, hands[place],
                     pols[declarer], states[STREAM_SEAT0 + declarer], io, 0)
    if io.err[0] or not pickup:
        return 0, -1, 0, skat, seen
    full = hands[place] | skat
    hands[place] = full
    if at_18:
        if _ask_give_up(place, declarer, obs, full, skat, pols, states, io):
            return GIVEN_UP_AT_18, -1, 1, skat, seen
    elif may_give_up and params[P_GIVE_UP_PICKUP] == GIVE_UP_PICKUP_ON:
        games = give_up_games(full, bid)
        named = _ask_give_up_game(place, declarer, obs, full, skat, games, pols, states, io) if games else -1
        if named >= 0:
            return GIVEN_UP_AFTER_PICKUP, named, 1, skat, seen
    if io.err[0]:
        return 0, -1, 1, skat, seen
    put = ask_discard(place, declarer, place, full, skat, obs, pols[declarer],
                      states[STREAM_SEAT0 + declarer], io)
    hands[place] = full & ~put
    return 0, -1, 1, put, put


@numba.njit(**JIT)
def _max_open(pickup, params):
    """The highest open level the rules allow the game: 2 after a pickup (or in a hand game
    with ``open_hand``), else 0."""
    return 2 if (pickup or params[P_OPEN_HAND] == OPEN_HAND_ON) else 0


@numba.njit(**JIT)
def _declaration(place, declarer, pickup, hands, seen, obs, pols, states, params, choices,
                 io):
    """The declarer names his game: a suit or grand at an open level (closed, einmal or
    zweimal offen), null or null ouvert (the rules' offers and Contra/Re shown since the
    deal: ``_show_rules``). Returns the declaration code."""
    obs[O.HAND_GAME] = 0 if pickup else 1
    obs[O.MAX_OPEN] = _max_open(pickup, params)
    return ask_declaration(place, declarer, place, hands[place], seen, obs, pols[declarer],
                           states[STREAM_SEAT0 + declarer], declaration_flags(obs, params), False,
                           choices, io)


@numba.njit(inline="always", **JIT)
def card_row(state, card):
    """A played card's row: ``b`` 1 from the blind, 0 from the player's own hand."""
    return A.PLAY, card, 1 if state[S.TO_MOVE] == state[S.BLIND_AT] else 0


@numba.njit(inline="always", **JIT)
def _decide_offer(ctx, pol, obs, rng):
    return decide_offer(pol, obs, rng)


@numba.njit(inline="always", **JIT)
def _check_offer(state, obs, offer):
    """One of the offers the defender may still make (``legal``), or none."""
    return offer if (legal(state) >> np.uint64(offer)) & np.uint64(1) else -1


@numba.njit(inline="always", **JIT)
def _offer_row(ctx, offer):
    """An offer's row; none leaves no row."""
    return (A.OFFER, offer, 0) if offer != OFFER_NONE else (-1, 0, 0)


@numba.njit(inline="always", **JIT)
def _offer_value(ctx, kind, a, b):
    """The offer an ``OFFER`` row makes ("raus" or "Stich"), none for a person's
    ``DECLINE`` of it."""
    if kind == A.DECLINE and a == A.OFFER:
        return OFFER_NONE
    if kind != A.OFFER:
        return -1
    return a if a == OFFER_RAUS or a == OFFER_STICH else -2


@numba.njit(inline="always", **JIT)
def _decision(state, obs, pol, rng, io):
    """The card-play decision due (the state's action), ``play_tricks``'s: the player to move
    plays a card, offers, accepts or rejects, says Contra or Re."""
    player = state[S.PLAYER]
    phase = state[S.PHASE]
    if phase == PLAY:
        return ask(card_policy(pol, True), player, obs, rng, decide_play, card_allowed,
                   card_row, card_value, state, io)
    if phase == OFFER:
        return ask(pol, player, obs, rng, _decide_offer, _check_offer, _offer_row, _offer_value,
                   state, io)
    if phase == ACCEPT:
        return answer_yes(pol, player, A.ACCEPT, A.REJECT, obs, rng, io, 0)
    return answer_yes(pol, player, A.CONTRA if phase == CONTRA else A.RE, -1, obs, rng, io, 0)


@numba.njit(**JIT)
def _tricks(state, obs, pols, states, io):
    """The tricks, through the card-play state, until the card play is over (or a replay
    stops): cards, and between tricks the defender's offer, its answer, Contra and Re."""
    play_tricks(state, obs, pols, states, io, finished, observe, step, _decision, nothing_after,
                EN_DEUX_ROWS)


@numba.njit(**JIT)
def _game(place, declarer, bid, pickup, decl, skat, seen, scratch, pols, params, io, row):
    """The declared game: its contract in the result row and the state (the defender plays
    the blind), then the tricks (``scratch``: the deal's arrays, ``_deal_scratch``)."""
    obs, states, hands, _, state, _ = scratch
    game = decl & 7
    begin(state, 3, FH, BLIND, _max_open(pickup, params))
    for p in range(3):
        sit(state, p, hands[p], declarer if p == place else 1 - declarer)
    contract(state, decl, place, RH if place == FH else FH, bid, 0 if pickup else 1, skat, seen,
             params[P_OFFERS] == OFFERS_ON, params[P_CONTRA_RE] == CONTRA_RE_ON)
    if params[P_OFFER_TIMING] == OFFERS_AT_DECLARATION:
        offer_before_lead(state)
    row[C_GAME] = game
    row[C_HAND] = state[S.HAND_GAME]
    row[C_OUVERT] = state[S.OUVERT]
    row[C_OPEN] = state[S.OPEN_LEVEL]
    row[C_DISCARD] = np.int64(skat)
    _tricks(state, obs, pols, states, io)
    row[C_ERROR] = io.err[0]


@numba.njit(**JIT)
def _ramsch(dealer, hands, skat, state, obs, pols, states, io, row):
    """Both passed, ramsch: forehand and rearhand play their own ten cards in two-card
    tricks, jacks trump, the blind stays out; more card points lose (``score_row``: them
    plus the skat's); with equal points the taker of the last trick loses."""
    fhp = 1 - dealer
    record(io.log, io.nlog, A.RAMSCH, fhp, 0, 0)
    if io.cur[0] < io.script.shape[0] and io.script[io.cur[0], 0] == A.RAMSCH:
        io.cur[0] += 1  # a replayed ramsch row is no decision: step over it
    begin(state, 2, 0, -1, 2)
    sit(state, 0, hands[FH], fhp)
    sit(state, 1, hands[RH], dealer)
    ramsch(state, skat)
    _tricks(state, obs, pols, states, io)
    row[C_ERROR] = io.err[0]
    if io.err[0]:
        return
    loser, tie = ramsch_loser(state)
    skat_points = card_points(skat)
    row[C_RSKAT] = skat_points
    row[C_RTIE] = tie
    row[C_RAMSCH] = 1
    row[C_GAME] = RAMSCH
    row[C_DISCARD] = np.int64(skat)
    for p in range(2):
        row[C_RPOINTS + state[S.PLAYER_AT + p]] = state[S.POINTS + p]
    row[C_RLOSER] = state[S.PLAYER_AT + loser]


@numba.njit(**JIT)
def _play(seed, deal, params, pols, values, row, scratch, io, preset):
    """Deal ``deal``, bid, take the skat (or give up), declare and play the tricks, leaving
    what happened in the result ``row`` (dealt as ``preset`` lays the cards if it is not
    empty), with the scratch arrays ``_deal_scratch`` made."""
    obs, states, hands, perm, state, work = scratch
    io.cur[0] = 0
    io.nlog[0] = 0
    dealer, skat = _deal(seed, deal, states, perm, hands, preset, obs, row)
    _show_rules(obs, params)
    fhp = 1 - dealer
    place, bid = _bidding(hands, dealer, fhp, obs, pols, states, values, io)
    if io.err[0]:
        row[C_ERROR] = io.err[0]
        return
    if place < 0:
        if params[P_ALL_PASS] == RAMSCH_ON:
            _ramsch(dealer, hands, skat, state, obs, pols, states, io,
                    row)
        else:
            row[C_PASSED_OUT] = 1
            row[C_DISCARD] = np.int64(skat)
        return
    declarer = fhp if place == FH else dealer
    obs[O.DECLARER] = place
    obs[O.BID] = bid
    row[C_DECLARER] = declarer
    row[C_POSITION] = place
    row[C_BID] = bid
    row[C_DISCARD] = np.int64(skat)
    gave_up, named, pickup, skat, seen = _skat(place, declarer, bid, hands, skat, obs, pols,
                                               states, params, io)
    if gave_up:
        row[C_GIVE_UP] = 1
        row[C_GAME] = named
        return
    if io.err[0]:
        row[C_ERROR] = io.err[0]
        return
    decl = _declaration(place, declarer, pickup, hands, seen, obs, pols, states, params,
                        work[W_CHOICES:W_LEN], io)
    if io.err[0]:
        row[C_ERROR] = io.err[0]
        return
    _game(place, declarer, bid, pickup, decl, skat, seen, scratch, pols, params, io, row)
    _settlement(row, state)


@numba.njit(**JIT)
def play_deal(seed, deal, params, pols, values, row, scratch, io, preset):
    """Deal, play and settle deal ``deal`` into the result ``row`` (``_play``, then
    ``score_row`` unless a replay stopped it)."""
    _play(seed, deal, params, pols, values, row, scratch, io, preset)
    if row[C_ERROR] == 0:
        score_row(row, params)


def start(columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
          rules: Mapping[str, Any] | None = None) -> tuple[np.ndarray, list[int]] | None:
    """Deal ``i``'s card play as a state and its recorded actions (``start_en_deux``), under
    ``rules`` (the defaults complete those given), or the rules its record shows."""
    return start_en_deux(columns, i, rows, None if rules is None else OPTIONS.resolve(rules, NAME))


@implements(deal_scratch, NAME)
def _deal_scratch(game):
    return (np.zeros(O.LENGTH, np.int64), np.zeros((STREAM_SEAT0 + 2, 1), np.uint64),
            np.zeros(3, np.uint64), np.zeros(32, np.int64), np.zeros(LENGTH, np.int64),
            np.zeros(W_LEN, np.int64))


@implements(kernel_play_deal, NAME)
def _play_deal(game, seed, deal, params, pols, values, row, work, io, preset):
    play_deal(seed, deal, params, pols, values, row, work, io, preset)


# --- the declaration -----------------------------------------------------------------------

def _ramsch_won(columns: Mapping[str, np.ndarray], seat: int) -> np.ndarray:
    """A ramsch is won by the player who did not lose it (``ramsch_loser``; the scores carry
    the ``compensation``, so they cannot say)."""
    won: np.ndarray = np.asarray(columns["ramsch_loser"], np.int64) != seat
    return won


DEAL_LAYOUT = Layout(
    (Group("hand of player 0", 10), Group("hand of player 1", 10), Group("blind", 10),
     Group("skat", 2)),
    lambda cards, dealer: cards[1 - dealer] + cards[2] + cards[dealer] + cards[3],
    lambda c: [*c["hands"], c["blind"], c["skat"]])
"""A deal written by hand: both players' hands, the blind, the skat; dealt to forehand (the
player who does not deal), the blind, rearhand (the dealer), the skat."""

GAME = Game(
    name=NAME, n_players=N_PLAYERS, deck=DECK, tricks=TRICKS, options=OPTIONS, columns=COLUMNS,
    categories=CATEGORIES, outcome=outcome(N_PLAYERS, _ramsch_won), observation=O, kernel=KernelTag(NAME),
    kernel_params=kernel_params, rescore=rescore, deal_layout=DEAL_LAYOUT,
    trace_codec="sim.games.skat_family.trace_skat_en_deux",
    screen="sim.games.skat_family.screen:SkatEnDeuxScreen",
    bid_values=bid_list,
    card_play=CardPlay(S, LENGTH, legal, step, observe, finished, decide, playout, start,
                       en_deux_result, card_values),
    policies=EVERY_POLICY, restrictions="sim.games.skat_family.restrictions",
    net=Learned(EN_DEUX, "sim.games.skat_family:net_skat_en_deux.npz", ANSWERS),
    solver=Solver("sim.games.skat_family.solver", bench_positions=50, bench_target=61),
    compile_seconds=140)
"""Skat-en-deux, as the registry (``sim.registry``) knows it."""

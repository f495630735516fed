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
"""

from __future__ import annotations

import numba
import numpy as np

from sim import actions as A
from sim.cards import SKAT_DECK, bit
from sim.deals import Group, Layout
from sim.games import skat_obs as O
from sim.games.base import Game
from sim.games.kernel import (
    E_ILLEGAL,
    KernelTag,
    deal_scratch,
    implements,
    person_waits,
    record,
    scripted,
)
from sim.games.kernel import play_deal as kernel_play_deal
from sim.games.skat_family import (
    W_CHOICES,
    W_LEN,
    allowed_declaration,
    ask_bid,
    ask_declaration,
    ask_discard,
    ask_yes,
    deal_three_hands,
    decide_card,
    finish_trick,
    outcome,
    private,
    scratch_views,
)
from sim.games.skat_values import (
    EFF,
    GAME_NAMES,
    NULL,
    POSITIONS,
    RAMSCH,
    STRENGTH,
    SUIT_MASKS,
    bid_values,
    card_points,
    matadors,
    null_value,
    rescore_lost_factor,
    settle_suit,
)
from sim.options import Option, OptionTable
from sim.rng import STREAM_DEAL, STREAM_SEAT0, stream_key
from sim.tricks import legal_mask

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
])

# kernel parameters, in this order
P_RAMSCH, P_ANNOUNCE, P_LOST_FACTOR, P_N = range(4)


def kernel_params(rules: dict) -> np.ndarray:
    """The rules as the kernel's parameter array."""
    p = np.zeros(P_N, np.int64)
    p[P_RAMSCH] = rules["all_pass"] == "ramsch"
    p[P_ANNOUNCE] = bool(rules["announcements"])
    p[P_LOST_FACTOR] = int(rules["lost_factor"])
    return p


def extra_levels(rules: dict) -> int:
    """Most levels a game can add beyond matadors + 1: hand, Schneider, Schwarz (+3 announced)."""
    return 3 + (3 if rules["announcements"] else 0)


def rescore(columns: dict[str, np.ndarray], rules: dict) -> dict[str, np.ndarray]:
    """Played deals' columns under other scoring-only rules (``lost_factor``)."""
    return {**columns, **rescore_lost_factor(columns, int(rules["lost_factor"]), N_PLAYERS)}


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
    ("ramsch_skat_points", "int16"), ("ramsch_last_trick", "int8"), ("replay_error", "int16"),
)
(C_DEAL, C_DEALER, C_DECLARER, C_POSITION, C_BID, C_GAME, C_HAND, C_OUVERT, C_SCH_ANN,
 C_SCHW_ANN, C_MATADORS, C_DPOINTS, C_DTRICKS, C_SCHNEIDER, C_SCHWARZ, C_OVERBID, C_WON,
 C_VALUE, C_SCORE, _S1, _S2, C_PASSED_OUT, C_RAMSCH, C_RPOINTS, _R1, _R2, C_DURCHMARSCH,
 C_HANDS, _H1, _H2, C_SKAT, C_DISCARD, C_RSKAT, C_RLAST, C_ERROR) = range(len(COLUMNS))



# --- decisions -----------------------------------------------------------------------------

ANNOUNCE_FLAGS = np.array([0, O.DECL_SCHNEIDER, O.DECL_SCHNEIDER | O.DECL_SCHWARZ,
                           O.DECL_SCHNEIDER | O.DECL_SCHWARZ | O.DECL_OUVERT], np.int64)
"""A suit game's or grand's announcement levels: none, Schneider, Schwarz, ouvert."""


@numba.njit(cache=True)
def declaration_flags(obs, params):  # type: ignore[no-untyped-def]
    """The announcement levels offered: all four in a hand game with announcements on."""
    return ANNOUNCE_FLAGS[:4 if (obs[O.HAND_GAME] and params[P_ANNOUNCE]) else 1]


@numba.njit(cache=True)
def declaration_allowed(decl, obs, params, buf):  # type: ignore[no-untyped-def]
    """Whether ``decl`` is among the declarations offered now."""
    return allowed_declaration(decl, obs, declaration_flags(obs, params), buf)


# --- one deal ------------------------------------------------------------------------------

@numba.njit(cache=True)
def _bidding(hands, dealer, obs, pols, states, values, script, cur, err, log, nlog):  # type: ignore[no-untyped-def]
    """Run the bidding. Returns ``(declarer, bid)``; declarer -1 when all passed."""
    fh = (dealer + 1) % 3
    mh = (dealer + 2) % 3
    rh = dealer
    bid = 0
    survivor = fh
    for bidder in (mh, rh):
        answerer = survivor
        while True:
            v = ask_bid(bidder, bidder, (bidder - dealer - 1) % 3, bid, obs, hands[bidder],
                        pols[bidder], states[STREAM_SEAT0 + bidder], values, script, cur, err,
                        log, nlog)
            if err[0]:
                return -1, 0
            if v == 0:
                survivor = answerer
                break
            bid = v
            obs[O.BID] = bid
            held = ask_yes(answerer, answerer, (answerer - dealer - 1) % 3, O.PH_ANSWER, A.HOLD,
                           A.PASS, obs, hands[answerer], pols[answerer],
                           states[STREAM_SEAT0 + answerer], script, cur, err, log, nlog, bid)
            if err[0]:
                return -1, 0
            if not held:
                obs[O.PASSED] |= 1 << answerer
                survivor = bidder
                break
            obs[O.SEAT_BID + answerer] = bid
    if bid == 0:
        obs[O.BID] = 0
        obs[O.NEXT_BID] = 18
        if ask_yes(fh, fh, 0, O.PH_FH18, A.BID, A.PASS, obs, hands[fh], pols[fh],
                   states[STREAM_SEAT0 + fh], script, cur, err, log, nlog, 18) and not err[0]:
            obs[O.SEAT_BID + fh] = 18
            return fh, 18
        obs[O.PASSED] |= 1 << fh
        return -1, 0
    return survivor, bid


@numba.njit(cache=True)
def _play_tricks(hands, leader, game, declarer, ouvert, obs, pols, states, dealer, skat_known,
                 work, script, cur, err, log, nlog):  # type: ignore[no-untyped-def]
    """Play the tricks; returns the seat that took the last trick played.

    A null game stops at the declarer's first trick.
    """
    eff = EFF[game]
    strength = STRENGTH[game]
    masks = SUIT_MASKS[game]
    trick, seats, points, tricks = scratch_views(work)
    winner = leader
    for t in range(TRICKS):
        obs[O.TRICK_NO] = t
        obs[O.TRICK_LEADER] = leader
        for k in range(3):
            seat = (leader + k) % 3
            obs[O.TRICK_N] = k
            private(obs, seat, (seat - dealer - 1) % 3, hands[seat])
            obs[O.PHASE] = O.PH_PLAY
            legal = legal_mask(hands[seat], trick[0] if k else -1, eff, masks)
            obs[O.LEGAL] = np.int64(legal)
            if seat == declarer:
                obs[O.SKAT] = np.int64(skat_known)
            if pols[seat] < 0:
                if person_waits(pols[seat], script, cur, obs, err, log, nlog):
                    return winner
                card = scripted(script, cur, A.PLAY, seat, err)
                if card < 0 or card >= 32 or not (legal >> np.uint64(card)) & np.uint64(1) \
                        or script[cur[0] - 1, 3] != 0:
                    err[0] = E_ILLEGAL if not err[0] else err[0]
                    return winner
            else:
                card = decide_card(pols[seat], obs, states[STREAM_SEAT0 + seat])
            record(log, nlog, A.PLAY, seat, card, 0)
            trick[k] = card
            seats[k] = seat
            hands[seat] &= ~bit(card)
            if ouvert and seat == declarer:
                obs[O.OPEN_HAND] = np.int64(hands[declarer])
            obs[O.PLAYED + seat] |= np.int64(bit(card))
            obs[O.TRICK_CARD + k] = card
            if k and eff[card] != eff[trick[0]]:
                obs[O.VOIDS] |= np.int64(1) << np.int64(5 * seat + eff[trick[0]])
        winner = finish_trick(obs, trick, seats, 3, eff, strength, points, tricks)
        leader = winner
        if game == NULL and winner == declarer:
            break
    obs[O.TRICK_N] = 0
    return winner


@numba.njit(cache=True)
def play_deal(seed, deal, params, pols, values, row, obs, states, hands, perm, work, script,
              cur, err, log, nlog, preset):  # type: ignore[no-untyped-def]
    """Deal, bid, declare, play and score deal ``deal`` into result ``row`` (dealt as
    ``preset`` lays the cards if it is not empty)."""
    for s in range(states.shape[0]):
        states[s, 0] = stream_key(seed, deal, s)
    dealer = deal % 3
    fh = (dealer + 1) % 3
    skat = deal_three_hands(states[STREAM_DEAL], perm, hands, preset)
    obs[:] = 0
    obs[O.DECLARER] = -1
    obs[O.FOREHAND] = fh
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
    cur[0] = 0
    nlog[0] = 0
    work[:] = 0

    declarer, bid = _bidding(hands, dealer, obs, pols, states, values, script, cur, err, log, nlog)
    _, _, points, tricks = scratch_views(work)
    choices = work[W_CHOICES:W_LEN]
    if err[0]:
        row[C_ERROR] = err[0]
        return
    if declarer < 0:
        if not params[P_RAMSCH]:
            row[C_PASSED_OUT] = 1
            row[C_DISCARD] = np.int64(skat)
            return
        record(log, nlog, A.RAMSCH, fh, 0, 0)
        if cur[0] < script.shape[0] and script[cur[0], 0] == A.RAMSCH:
            cur[0] += 1  # a replayed ramsch row is no decision: step over it
        obs[O.GAME] = RAMSCH
        obs[O.RAMSCH] = 1
        last = _play_tricks(hands, fh, RAMSCH, -1, False, obs, pols, states, dealer, 0, work,
                            script, cur, err, log, nlog)
        row[C_ERROR] = err[0]
        points[last] += card_points(skat)
        row[C_RSKAT] = card_points(skat)
        row[C_RLAST] = last
        row[C_RAMSCH] = 1
        row[C_GAME] = RAMSCH
        row[C_DISCARD] = np.int64(skat)
        most = max(points[0], max(points[1], points[2]))
        for s in range(3):
            row[C_RPOINTS + s] = points[s]
            if tricks[s] == TRICKS:
                row[C_DURCHMARSCH] = 1
        for s in range(3):
            if row[C_DURCHMARSCH]:
                row[C_SCORE + s] = 120 if tricks[s] == TRICKS else 0
            elif points[s] == most:
                row[C_SCORE + s] = -points[s]
        return

    # skat, discard and declaration
    obs[O.DECLARER] = declarer
    obs[O.BID] = bid
    row[C_DECLARER] = declarer
    position = (declarer - dealer - 1) % 3
    row[C_POSITION] = position
    row[C_BID] = bid
    full = hands[declarer] | skat
    pickup = ask_yes(declarer, declarer, position, O.PH_PICKUP, A.PICKUP, A.HAND, obs,
                     hands[declarer], pols[declarer], states[STREAM_SEAT0 + declarer], script, cur,
                     err, log, nlog, 0)
    if err[0]:
        row[C_ERROR] = err[0]
        return
    skat_known = np.uint64(0)
    if pickup:
        hands[declarer] = full
        put = ask_discard(declarer, declarer, position, full, skat, obs, pols[declarer],
                          states[STREAM_SEAT0 + declarer], script, cur, err, log, nlog)
        if err[0]:
            row[C_ERROR] = err[0]
            return
        hands[declarer] = full & ~put
        skat = put
        skat_known = put
    obs[O.HAND_GAME] = 0 if pickup else 1
    decl = ask_declaration(declarer, declarer, position, hands[declarer], skat_known, obs,
                           pols[declarer], states[STREAM_SEAT0 + declarer],
                           declaration_flags(obs, params), params[P_ANNOUNCE], choices, script, cur,
                           err, log, nlog)
    if err[0]:
        row[C_ERROR] = err[0]
        return
    game = decl & 7
    ouvert = (decl & O.DECL_OUVERT) != 0
    sch_ann = (decl & O.DECL_SCHNEIDER) != 0
    schw_ann = (decl & O.DECL_SCHWARZ) != 0
    hand_game = 0 if pickup else 1
    obs[O.GAME] = game
    obs[O.OUVERT] = ouvert
    obs[O.SCHNEIDER_ANN] = sch_ann
    obs[O.SCHWARZ_ANN] = schw_ann
    row[C_GAME] = game
    row[C_HAND] = hand_game
    row[C_OUVERT] = ouvert
    row[C_SCH_ANN] = sch_ann
    row[C_SCHW_ANN] = schw_ann
    row[C_DISCARD] = np.int64(skat)
    if ouvert:
        obs[O.OPEN_HAND] = np.int64(hands[declarer])

    _play_tricks(hands, fh, game, declarer, ouvert, obs, pols, states, dealer, skat_known,
                 work, script, cur, err, log, nlog)
    row[C_ERROR] = err[0]
    dpoints = points[declarer] + card_points(skat)
    dtricks = tricks[declarer]
    row[C_DPOINTS] = dpoints
    row[C_DTRICKS] = dtricks
    lost_factor = params[P_LOST_FACTOR]
    if game == NULL:
        won = dtricks == 0
        value = null_value(hand_game, ouvert)
    else:
        mat = matadors(full, game)
        row[C_MATADORS] = mat
        won, value, schneider, schwarz, overbid = settle_suit(
            game, mat, hand_game, ouvert, sch_ann, schw_ann, 0, dpoints, dtricks, TRICKS, bid)
        row[C_SCHNEIDER] = schneider
        row[C_SCHWARZ] = schwarz
        row[C_OVERBID] = overbid
    row[C_WON] = won
    row[C_VALUE] = value
    row[C_SCORE + declarer] = value if won else -lost_factor * value


@implements(deal_scratch, NAME)
def _deal_scratch(game):  # type: ignore[no-untyped-def]
    return (np.zeros(O.LENGTH, np.int64), np.zeros((STREAM_SEAT0 + 3, 1), np.uint64),
            np.zeros(3, np.uint64), np.zeros(32, np.int64), np.zeros(W_LEN, np.int64))


@implements(kernel_play_deal, NAME)
def _play_deal(game, seed, deal, params, pols, values, row, work, script, cur, err, log, nlog,  # type: ignore[no-untyped-def]
               preset):
    obs, states, hands, perm, work_ = work
    play_deal(seed, deal, params, pols, values, row, obs, states, hands, perm, work_, script, cur,
              err, log, nlog, preset)


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
    categories={"game": GAME_NAMES, "declarer_position": POSITIONS}, outcome=outcome(N_PLAYERS),
    observation=O, kernel=KernelTag(NAME), kernel_params=kernel_params, rescore=rescore,
    deal_layout=DEAL_LAYOUT, trace_codec="sim.games.skat_trace",
    screen="sim.play.skat_family:SkatScreen", bid_values=bid_list)
"""Three-player Skat, as the registry (``sim.registry``) knows it."""

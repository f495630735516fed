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
  120 : 120 tie by ``tie_rule``.
* Options: ``OPTIONS`` below.
"""

from __future__ import annotations

from collections.abc import Mapping

import numba
import numpy as np

from sim import actions as A
from sim.cards import DOKO_DECK_40, bit
from sim.deals import Group, Layout
from sim.games import doko_obs as O
from sim.games.base import Game, Outcome
from sim.games.kernel import (
    E_ILLEGAL,
    E_MISMATCH,
    KernelTag,
    deal_scratch,
    implements,
    order_deck,
    person_waits,
    record,
    skip_markers,
)
from sim.games.kernel import play_deal as kernel_play_deal
from sim.options import Option, OptionTable
from sim.policies.doko_duell import decide_card
from sim.rng import STREAM_DEAL, STREAM_SEAT0, stream_key
from sim.tricks import TRUMP, build_table, legal_mask

NAME = "doko_duell"
N_PLAYERS = 2
DECK = DOKO_DECK_40
TRICKS = 20
N_CARDS = 40
PYRAMID = 12
HAND_CARDS = 8

OBSERVATION = O
"""The fields of a seat's observation, what its policy (or a person at the table) sees."""

OPTIONS = OptionTable([
    Option("equal_cards", "first_wins", ("first_wins", "second_wins", "second_heart_ten"),
           "of two identical cards the first played wins; or the second; or the second only "
           "for the heart ten"),
    Option("a_marker_on_setup", True, (True, False),
           "a top trump (HT, CQ) lying face up at the deal earns its A marker; with false it "
           "never does (turning a card up or playing it from the hand still does)",
           scoring_only=True),
    Option("b_marker_supply", "12", ("12", "none"),
           "B markers come from a box of 12 (none once it is empty), or without limit"),
    Option("b_one_per_trick", False, (False, True), "at most one B marker per trick"),
    Option("b_marker_mode", "v1", ("v1", "v2"),
           "v1: the winner scores at least 1 VP; v2: the total may be 0 (nobody scores) or "
           "negative (the loser is credited its absolute value)", scoring_only=True),
    Option("tie_rule", "draw", ("draw", "last_trick", "starter_loses", "starter_wins",
                                "more_tricks", "b_markers"),
           "120 : 120: nobody scores; or the taker of the 20th trick, the player who did not "
           "start, the starter, more tricks (equal: draw), more B markers (equal: draw) wins",
           scoring_only=True),
])

P_EQUAL, P_A_SETUP, P_SUPPLY, P_ONE_PER_TRICK, P_MODE, P_TIE, P_N = range(7)
TIE_RULES = ("draw", "last_trick", "starter_loses", "starter_wins", "more_tricks", "b_markers")
EQUAL_RULES = ("first_wins", "second_wins", "second_heart_ten")
B_SUPPLY = 12


def kernel_params(rules: dict) -> np.ndarray:
    """The rules as the kernel's parameter array."""
    p = np.zeros(P_N, np.int64)
    p[P_EQUAL] = EQUAL_RULES.index(rules["equal_cards"])
    p[P_A_SETUP] = bool(rules["a_marker_on_setup"])
    p[P_SUPPLY] = B_SUPPLY if rules["b_marker_supply"] == "12" else -1
    p[P_ONE_PER_TRICK] = bool(rules["b_one_per_trick"])
    p[P_MODE] = 2 if rules["b_marker_mode"] == "v2" else 1
    p[P_TIE] = TIE_RULES.index(rules["tie_rule"])
    return p


# --- cards ---------------------------------------------------------------------------------

TRUMPS = ("HT", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "DT", "DK")
"""The normal game's trumps from the highest down (each twice)."""
_TABLE = build_table(DECK, TRUMPS, "ATK")
EFF, STRENGTH, SUIT_MASKS = _TABLE.eff, _TABLE.strength, _TABLE.suit_masks
POINTS = DECK.points.astype(np.int64)
KIND = np.array([i % DECK.n_kinds for i in range(DECK.n_cards)], np.int64)
"""The card regardless of its copy: identical cards share a kind."""
TOP_TRUMPS = np.uint64(DECK.parse("HT HT CQ CQ"))
HEART_TEN = DECK.index("HT")
FOX = DECK.index("DA")
CHARLIE = DECK.index("CJ")

# --- the pyramid ---------------------------------------------------------------------------

COVERED_BY = np.zeros(PYRAMID, np.int64)
"""``COVERED_BY[k]``: mask of the positions whose cards cover position ``k``."""
for _k, _over in {4: (0, 1), 5: (1, 2), 6: (2, 3), 7: (4, 5), 9: (5, 6), 8: (7,), 10: (9,),
                  11: (8, 10)}.items():
    COVERED_BY[_k] = sum(1 << c for c in _over)
FACE_UP_AT_DEAL = sum(1 << k for k in (0, 1, 2, 3, 7, 9))
"""Positions lying face up at the deal: row 1 and the two upper cards of row 3."""

# --- markers -------------------------------------------------------------------------------

B_EVENTS = ("fox", "karlchen", "identical", "twenty_two", "pin")
"""B-marker events in the order they are awarded: the opponent's DA caught, the trick won
with CJ, two identical cards, exactly 22 points, the 20th trick won with DA."""
K_A = 0
"""Marker row kind of an A marker; B events are 1 + their index in ``B_EVENTS``."""


@numba.njit(cache=True, inline="always")
def _free_positions(present, face_up):  # type: ignore[no-untyped-def]
    """Positions whose card may be played: present, face up, nothing covering it."""
    free = 0
    for k in range(PYRAMID):
        if (present >> k) & 1 and (face_up >> k) & 1 and not (present & COVERED_BY[k]):
            free |= 1 << k
    return free


@numba.njit(cache=True)
def free_positions(present, face_up):  # type: ignore[no-untyped-def]
    """Positions whose card may be played: present, face up, nothing covering it."""
    return _free_positions(present, face_up)


@numba.njit(cache=True)
def second_beats(first, second, equal_rule):  # type: ignore[no-untyped-def]
    """Whether ``second`` (played after ``first``) wins the two-card trick."""
    ef = EFF[first]
    es = EFF[second]
    if KIND[first] == KIND[second]:
        return equal_rule == 1 or (equal_rule == 2 and KIND[first] == KIND[HEART_TEN])
    if es == TRUMP:
        return ef != TRUMP or STRENGTH[second] > STRENGTH[first]
    return ef != TRUMP and es == ef and STRENGTH[second] > STRENGTH[first]


# --- settlement ----------------------------------------------------------------------------

@numba.njit(cache=True)
def base_vp(loser_points, loser_tricks):  # type: ignore[no-untyped-def]
    """Victory points by the loser's card points: 90+ 1, 60-89 2, 30-59 3, under 30 with a
    trick 4 + 1 bonus = 5, no trick 5 doubled = 10."""
    if loser_tricks == 0:
        return 10
    if loser_points < 30:
        return 5
    if loser_points < 60:
        return 3
    if loser_points < 90:
        return 2
    return 1


@numba.njit(cache=True)
def settle(points0, points1, tricks0, tricks1, a0, a1, b0, b1, starter, last_winner, mode,
           tie_rule):  # type: ignore[no-untyped-def]
    """``(winner, tie, vp0, vp1, total)`` of a finished deal (winner -1: nobody); ``total``
    is the winner's VP sum before ``b_marker_mode`` floors it (v1) or hands a negative
    one to the loser (v2); 0 without a winner."""
    tie = points0 == points1
    winner = -1
    if not tie:
        winner = 0 if points0 > points1 else 1
    elif tie_rule == 1:
        winner = last_winner
    elif tie_rule == 2:
        winner = 1 - starter
    elif tie_rule == 3:
        winner = starter
    elif tie_rule == 4 and tricks0 != tricks1:
        winner = 0 if tricks0 > tricks1 else 1
    elif tie_rule == 5 and b0 != b1:
        winner = 0 if b0 > b1 else 1
    if winner < 0:
        return -1, tie, 0, 0, 0
    loser_points = points1 if winner == 0 else points0
    loser_tricks = tricks1 if winner == 0 else tricks0
    total = base_vp(loser_points, loser_tricks)
    total += (a1 if winner == 0 else a0) + (b0 - b1 if winner == 0 else b1 - b0)
    raw = total
    if mode == 1 and total < 1:
        total = 1
    vp_winner = max(total, 0)
    vp_loser = max(-total, 0)
    if winner == 0:
        return winner, tie, vp_winner, vp_loser, raw
    return winner, tie, vp_loser, vp_winner, raw


@numba.njit(cache=True)
def settle_all(points0, points1, tricks0, tricks1, a0, a1, b0, b1, starter, last_winner, mode,
               tie_rule):  # type: ignore[no-untyped-def]
    """``settle`` for every deal of the arrays: ``(winner, tie, vp0, vp1, total)`` arrays."""
    n = points0.shape[0]
    winner = np.empty(n, np.int64)
    tie = np.empty(n, np.bool_)
    vp0 = np.empty(n, np.int64)
    vp1 = np.empty(n, np.int64)
    total = np.empty(n, np.int64)
    for i in range(n):
        winner[i], tie[i], vp0[i], vp1[i], total[i] = settle(
            points0[i], points1[i], tricks0[i], tricks1[i], a0[i], a1[i], b0[i], b1[i],
            starter[i], last_winner[i], mode, tie_rule)
    return winner, tie, vp0, vp1, total


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
    ("tie", "bool"), ("vp_0", "int8"), ("vp_1", "int8"), ("hand_0", "uint64"), ("hand_1", "uint64"),
) + tuple((f"pyramid_{s}_{k}", "int8") for s in range(2) for k in range(PYRAMID)) + (
    ("vp_raw", "int8"), ("replay_error", "int16"),)
(C_DEAL, C_DEALER, C_STARTER, C_POINTS, _P1, C_TRICKS, _T1, C_A, _A1, C_A_SETUP, _AS1, C_A_PLAY,
 _AP1, C_B, _B1, C_EVENTS) = range(16)
"""Column indices. ``a_markers`` are the A markers awarded under the rules: ``a_play`` (top
trumps turned up or played from the hand) plus, with ``a_marker_on_setup``, ``a_setup``
(face up at the deal). ``C_EVENTS + 2 * kind + seat``: B events of each kind per seat
(happened, awarded or not)."""
C_EXHAUSTED = C_EVENTS + 2 * len(B_EVENTS)
C_LAST_WINNER, C_WINNER, C_TIE, C_VP, _V1, C_HANDS, _H1 = range(C_EXHAUSTED + 1, C_EXHAUSTED + 8)
C_PYRAMID = C_HANDS + 2
C_RAW = C_PYRAMID + 2 * PYRAMID
"""``vp_raw``: the winner's VP sum before ``b_marker_mode`` acts on it (``settle``)."""
C_ERROR = C_RAW + 1


def rescore(columns: dict[str, np.ndarray], rules: dict) -> dict[str, np.ndarray]:
    """Played deals' columns under other scoring-only rules (``a_marker_on_setup``,
    ``b_marker_mode``, ``tie_rule``): the A markers and the settlement again."""
    p = kernel_params(rules)
    out = dict(columns)
    a = []
    for s in range(2):
        a.append(columns[f"a_play_{s}"].astype(np.int64)
                 + (columns[f"a_setup_{s}"].astype(np.int64) if p[P_A_SETUP] else 0))
        out[f"a_markers_{s}"] = a[s].astype(np.int8)
    winner, tie, vp0, vp1, raw = settle_all(
        columns["points_0"].astype(np.int64), columns["points_1"].astype(np.int64),
        columns["tricks_0"].astype(np.int64), columns["tricks_1"].astype(np.int64), a[0], a[1],
        columns["b_markers_0"].astype(np.int64), columns["b_markers_1"].astype(np.int64),
        columns["starter"].astype(np.int64), columns["last_trick_winner"].astype(np.int64),
        p[P_MODE], p[P_TIE])
    out["winner"], out["tie"] = winner.astype(np.int8), tie
    out["vp_0"], out["vp_1"] = vp0.astype(np.int8), vp1.astype(np.int8)
    out["vp_raw"] = raw.astype(np.int8)
    return out


# --- one deal ------------------------------------------------------------------------------

@numba.njit(cache=True)
def _observe(obs, seat, hands, pyramid, present, face_up):  # type: ignore[no-untyped-def]
    """Fill the deciding seat's view: its hand and both pyramids' face-up cards."""
    obs[O.SEAT] = seat
    obs[O.HAND] = np.int64(hands[seat])
    up_cards = np.uint64(0)
    for side in range(2):
        who = seat if side == 0 else 1 - seat
        base = O.OWN_PYRAMID if side == 0 else O.OPP_PYRAMID
        obs[O.OWN_PRESENT if side == 0 else O.OPP_PRESENT] = present[who]
        for k in range(PYRAMID):
            up = (present[who] >> k) & 1 and (face_up[who] >> k) & 1
            obs[base + k] = pyramid[who, k] if up else -1
            if up:
                up_cards |= bit(pyramid[who, k])
    obs[O.FACE_UP_CARDS] = np.int64(up_cards)
    opp = 1 - seat
    free = _free_positions(present[opp], face_up[opp])
    opp_free = np.uint64(0)
    for k in range(PYRAMID):
        if (free >> k) & 1:
            opp_free |= bit(pyramid[opp, k])
    obs[O.OPP_FREE] = np.int64(opp_free)


@numba.njit(cache=True)
def _marker(row, obs, seat, kind, trick, supply, log, nlog):  # type: ignore[no-untyped-def]
    """Record a marker event; award a B marker if the box still holds one. Returns the
    B markers left (-1: unlimited)."""
    record(log, nlog, A.MARKER, seat, kind, trick)
    if kind == K_A:
        row[C_A + seat] += 1
        if trick >= 0:
            row[C_A_PLAY + seat] += 1
        obs[O.A_MARKERS + seat] += 1
        return supply
    row[C_EVENTS + 2 * (kind - 1) + seat] += 1
    if supply == 0:
        row[C_EXHAUSTED] = 1
        return supply
    row[C_B + seat] += 1
    obs[O.B_MARKERS + seat] += 1
    if supply > 0:
        supply -= 1
        if supply == 0:
            row[C_EXHAUSTED] = 1
    return supply


@numba.njit(cache=True)
def play_deal(seed, deal, params, pols, row, obs, states, hands, pyramid, perm, script, cur,
              err, log, nlog, preset):  # type: ignore[no-untyped-def]
    """Deal, play and score deal ``deal`` into result ``row`` (dealt as ``preset`` lays the
    cards if it is not empty)."""
    for s in range(states.shape[0]):
        states[s, 0] = stream_key(seed, deal, s)
    dealer = deal % 2
    starter = 1 - dealer
    order_deck(states[STREAM_DEAL], perm, preset, 0)
    present = np.zeros(2, np.int64)
    face_up = np.zeros(2, np.int64)
    for s in range(2):
        for k in range(PYRAMID):
            pyramid[s, k] = perm[PYRAMID * s + k]
        h = np.uint64(0)
        for k in range(HAND_CARDS):
            h |= bit(perm[2 * PYRAMID + HAND_CARDS * s + k])
        hands[s] = h
        present[s] = (1 << PYRAMID) - 1
        face_up[s] = FACE_UP_AT_DEAL
    row[:] = 0
    row[C_DEAL] = deal
    row[C_DEALER] = dealer
    row[C_STARTER] = starter
    row[C_WINNER] = -1
    for s in range(2):
        row[C_HANDS + s] = np.int64(hands[s])
        for k in range(PYRAMID):
            row[C_PYRAMID + PYRAMID * s + k] = pyramid[s, k]
    obs[:] = 0
    obs[O.STARTER] = starter
    obs[O.EQUAL_CARDS] = params[P_EQUAL]
    cur[0] = 0
    nlog[0] = 0
    supply = params[P_SUPPLY]
    obs[O.B_SUPPLY] = supply
    for s in range(2):
        for k in range(PYRAMID):
            if (FACE_UP_AT_DEAL >> k) & 1 and (TOP_TRUMPS >> np.uint64(pyramid[s, k])) & np.uint64(1):
                row[C_A_SETUP + s] += 1
                if params[P_A_SETUP]:
                    _marker(row, obs, s, K_A, -1, supply, log, nlog)
    trick = np.zeros(2, np.int64)
    source = np.zeros(2, np.int64)
    leader = starter
    winner = leader
    for t in range(TRICKS):
        obs[O.TRICK_NO] = t
        obs[O.TRICK_LEADER] = leader
        obs[O.TRICK_CARD] = -1
        for n in range(2):
            seat = (leader + n) % 2
            free = _free_positions(present[seat], face_up[seat])
            options = hands[seat]
            for k in range(PYRAMID):
                if (free >> k) & 1:
                    options |= bit(pyramid[seat, k])
            legal = legal_mask(options, trick[0] if n else -1, EFF, SUIT_MASKS)
            _observe(obs, seat, hands, pyramid, present, face_up)
            obs[O.TRICK_N] = n
            obs[O.PHASE] = O.PH_PLAY
            obs[O.LEGAL] = np.int64(legal)
            if pols[seat] < 0:
                skip_markers(script, cur)
                if person_waits(pols[seat], script, cur, obs, err, log, nlog):
                    row[C_ERROR] = err[0]
                    return
                i = cur[0]
                if i >= script.shape[0] or script[i, 0] != A.PLAY or script[i, 1] != seat:
                    err[0] = E_MISMATCH
                    row[C_ERROR] = err[0]
                    return
                card = script[i, 2]
                cur[0] = i + 1
                if card < 0 or card >= N_CARDS or not (legal >> np.uint64(card)) & np.uint64(1):
                    err[0] = E_ILLEGAL
                    row[C_ERROR] = err[0]
                    return
            else:
                card = decide_card(pols[seat], obs, states[STREAM_SEAT0 + seat])
            src = 0
            if (hands[seat] >> np.uint64(card)) & np.uint64(1):
                hands[seat] &= ~bit(card)
            else:
                for k in range(PYRAMID):
                    if (present[seat] >> k) & 1 and pyramid[seat, k] == card:
                        present[seat] &= ~(1 << k)
                        src = 1 + k
            if pols[seat] < 0 and script[cur[0] - 1, 3] != src:
                err[0] = E_ILLEGAL
                row[C_ERROR] = err[0]
                return
            record(log, nlog, A.PLAY, seat, card, src)
            trick[n] = card
            source[n] = src
            obs[O.PLAYED + seat] |= np.int64(bit(card))
            obs[O.TRICK_CARD] = card
            if src == 0 and (TOP_TRUMPS >> np.uint64(card)) & np.uint64(1):
                supply = _marker(row, obs, seat, K_A, t, supply, log, nlog)
        second = second_beats(trick[0], trick[1], params[P_EQUAL])
        winner = (leader + 1) % 2 if second else leader
        win_card = trick[1] if second else trick[0]
        lose_card = trick[0] if second else trick[1]
        won = POINTS[trick[0]] + POINTS[trick[1]]
        row[C_POINTS + winner] += won
        row[C_TRICKS + winner] += 1
        obs[O.POINTS + winner] += won
        obs[O.TRICKS + winner] += 1
        # B-marker events, in their order; with b_one_per_trick only the first is awarded
        awarded = 0
        for kind in range(len(B_EVENTS)):
            if kind == 0:
                happened = KIND[lose_card] == KIND[FOX]
            elif kind == 1:
                happened = KIND[win_card] == KIND[CHARLIE]
            elif kind == 2:
                happened = KIND[trick[0]] == KIND[trick[1]]
            elif kind == 3:
                happened = won == 22
            else:
                happened = t == TRICKS - 1 and KIND[win_card] == KIND[FOX]
            if happened:
                if params[P_ONE_PER_TRICK] and awarded:
                    record(log, nlog, A.MARKER, winner, 1 + kind, t)
                    row[C_EVENTS + 2 * kind + winner] += 1
                    continue
                supply = _marker(row, obs, winner, 1 + kind, t, supply, log, nlog)
                awarded += 1
        obs[O.B_SUPPLY] = supply
        # face-down cards freed by this trick are turned up
        for s in range(2):
            for k in range(PYRAMID):
                if (present[s] >> k) & 1 and not (face_up[s] >> k) & 1 \
                        and not (present[s] & COVERED_BY[k]):
                    face_up[s] |= 1 << k
                    if (TOP_TRUMPS >> np.uint64(pyramid[s, k])) & np.uint64(1):
                        supply = _marker(row, obs, s, K_A, t, supply, log, nlog)
        leader = winner
    row[C_LAST_WINNER] = winner
    w, tie, v0, v1, raw = settle(row[C_POINTS], row[C_POINTS + 1], row[C_TRICKS], row[C_TRICKS + 1],
                            row[C_A], row[C_A + 1], row[C_B], row[C_B + 1], starter, winner,
                            params[P_MODE], params[P_TIE])
    row[C_WINNER] = w
    row[C_TIE] = tie
    row[C_VP] = v0
    row[C_VP + 1] = v1
    row[C_RAW] = raw


@implements(deal_scratch, NAME)
def _deal_scratch(game):  # type: ignore[no-untyped-def]
    return (np.zeros(O.LENGTH, np.int64), np.zeros((STREAM_SEAT0 + 2, 1), np.uint64),
            np.zeros(2, np.uint64), np.zeros((2, PYRAMID), np.int64), np.zeros(N_CARDS, np.int64))


@implements(kernel_play_deal, NAME)
def _play_deal(game, seed, deal, params, pols, values, row, work, script, cur, err, log, nlog,  # type: ignore[no-untyped-def]
               preset):
    obs, states, hands, pyramid, perm = work
    play_deal(seed, deal, params, pols, row, obs, states, hands, pyramid, perm, script, cur, err,
              log, nlog, preset)


# --- the declaration -----------------------------------------------------------------------

def _seat_won(columns: Mapping[str, np.ndarray], seat: int) -> np.ndarray:
    """1 where ``seat`` won the deal, 0 where it lost, -1 where nobody won (a 120 : 120
    left drawn by the tie rule)."""
    winner = columns["winner"].astype(np.int64)
    return np.where(winner >= 0, winner == seat, -1).astype(np.int8)


DEAL_LAYOUT = Layout(
    (Group("hand of player 0", HAND_CARDS), Group("hand of player 1", HAND_CARDS),
     Group("pyramid of player 0", PYRAMID), Group("pyramid of player 1", PYRAMID)),
    lambda cards, dealer: cards[2] + cards[3] + cards[0] + cards[1],
    lambda c: [*c["hands"], *c["pyramids"]])
"""A deal written by hand: both hands, then both pyramids (positions in order); the kernel
lays both pyramids first, then deals the hands (``play_deal``)."""

GAME = Game(
    name=NAME, n_players=N_PLAYERS, deck=DECK, tricks=TRICKS, options=OPTIONS, columns=COLUMNS,
    categories={}, outcome=Outcome("vp", "VP", lambda columns: columns["starter"], _seat_won),
    observation=O, kernel=KernelTag(NAME), kernel_params=kernel_params, rescore=rescore,
    deal_layout=DEAL_LAYOUT, trace_codec="sim.games.doko_duell_trace",
    screen="sim.play.doko_duell:DokoDuellScreen")
"""The Doppelkopf duel, as the registry (``sim.registry``) knows it."""

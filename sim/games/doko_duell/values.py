"""The Doppelkopf duel's rule options and settlement (RULES.md, seed 000).

Shared by the kernel (``sim.games.doko_duell.game``, which re-exports every name here), the
re-scoring and the table screen, and by the search (``sim.games.doko_duell.worlds``), which scores
a finished card-play state without importing the kernel (the kernel imports the search's
player): the options (``OPTIONS``, their codes) and the settlement term by term
(``settlement``: the loser's band, the A markers, the B-marker difference, ``b_marker_mode``,
the tie rules, the compensation of the player who does not start).

>>> p = OPTIONS.codes(OPTIONS.resolve())
>>> [int(x) for x in settlement(130, 110, 12, 8, 0, 1, 2, 1, 0, 0, p)[-2:]]
[3, 0]
>>> p = OPTIONS.codes(OPTIONS.resolve({"vp_band_90": 4, "vp_per_a_marker": 2, "compensation": 1}))
>>> [int(x) for x in settlement(130, 110, 12, 8, 0, 1, 2, 1, 0, 0, p)[-2:]]
[7, 1]
"""

from __future__ import annotations

import numba
import numpy as np

from sim.games.doko_duell.cardplay import EQUAL_RULES
from sim.options import Option, OptionTable

BAND_VP = (1, 2, 3, 5, 10)
"""The seed's base VP of the winner by the loser's band (``band``): 90 or more (but under
120), 60-89, 30-59, under 30 with a trick (4 + 1 bonus), no trick (5 doubled): the defaults
of the ``vp_band_*`` options."""
BAND_OPTIONS = ("vp_band_90", "vp_band_60", "vp_band_30", "vp_band_under_30", "vp_band_no_trick")
"""The options giving each band's base VP, in the order of ``band``."""
_BAND_DOCS = ("the loser has 90 or more card points (but not 120)", "the loser has 60-89",
              "the loser has 30-59", "the loser has under 30 but took a trick (the seed: 4 + 1 "
              "bonus)", "the loser took no trick (the seed: 5 doubled)")
VP_MAX = 30
"""The most VP an integer option of the duel may give (each band, the compensation)."""
MARKER_VP_MAX = 10
"""The most VP per A or per B marker."""

OPTIONS = OptionTable([
    Option("equal_cards", "first_wins", EQUAL_RULES,
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
    Option("tie_win_base", 0, (0, 1),
           "the base VP of a 120 : 120 won by the tie rule: 0 (the loser has 120, so none of "
           "the seed's bands gives anything) or 1; the markers and b_marker_mode then apply "
           "as for any win", scoring_only=True),
    *(Option.integer(name, vp, 0, VP_MAX, f"the winner's base VP when {doc}", scoring_only=True,
                     beyond_rules=True)
      for name, vp, doc in zip(BAND_OPTIONS, BAND_VP, _BAND_DOCS)),
    Option.integer("vp_per_a_marker", 1, 0, MARKER_VP_MAX,
                   "the winner's VP for each A marker the loser holds", scoring_only=True,
                   beyond_rules=True),
    Option.integer("vp_per_b_marker", 1, 0, MARKER_VP_MAX,
                   "VP for each B marker the winner holds more than the loser (fewer: that "
                   "many VP less; b_marker_mode then acts on the total)", scoring_only=True,
                   beyond_rules=True),
    Option.integer("compensation", 0, 0, VP_MAX,
                   "VP credited every deal to the player who does not start, whatever the "
                   "result (a side payment: who won does not change)", scoring_only=True,
                   beyond_rules=True),
])

P_EQUAL, P_A_SETUP, P_SUPPLY, P_ONE_PER_TRICK, P_MODE, P_TIE, P_TIE_BASE = (
    OPTIONS.position(n) for n in ("equal_cards", "a_marker_on_setup", "b_marker_supply",
                                  "b_one_per_trick", "b_marker_mode", "tie_rule", "tie_win_base"))
P_BAND, P_A_VP, P_B_VP, P_COMPENSATION = (OPTIONS.position(n) for n in (
    BAND_OPTIONS[0], "vp_per_a_marker", "vp_per_b_marker", "compensation"))
"""Where each option's code (``OPTIONS.codes``: the index of its value among the option's
allowed values, an integer option's value) lies in the kernel's parameters; band ``k``'s
base VP at ``P_BAND + k``."""
assert [OPTIONS.position(n) for n in BAND_OPTIONS] == list(range(P_BAND, P_BAND + len(BAND_VP)))


A_SETUP_ON = OPTIONS.code("a_marker_on_setup", True)
SUPPLY_BOX = OPTIONS.code("b_marker_supply", "12")
ONE_PER_TRICK_ON = OPTIONS.code("b_one_per_trick", True)
MODE_V1 = OPTIONS.code("b_marker_mode", "v1")
TIE_RULES = OPTIONS.by_name["tie_rule"].allowed
TIE_LAST, TIE_STARTER_LOSES, TIE_STARTER_WINS, TIE_TRICKS, TIE_B = (
    OPTIONS.code("tie_rule", r) for r in ("last_trick", "starter_loses", "starter_wins", "more_tricks",
                                   "b_markers"))
TIE_BASE_VP = np.array(OPTIONS.by_name["tie_win_base"].allowed, np.int64)
"""The base VP of a tie won by the tie rule, by ``tie_win_base``'s code."""


# --- settlement ----------------------------------------------------------------------------

TIE_BAND = len(BAND_VP)
"""The settlement's ``band`` of a 120 : 120 won by the tie rule: the loser has 120, in none
of the bands; its base is ``tie_win_base`` (``TIE_BASE_VP``)."""


@numba.njit(cache=True)
def band(loser_points, loser_tricks):
    """The loser's band of the base VP (``vp_band_*``; the seed's ``BAND_VP``): 0 at least
    90 card points, 1 60-89, 2 30-59, 3 under 30 with a trick, 4 no trick."""
    if loser_tricks == 0:
        return 4
    if loser_points < 30:
        return 3
    if loser_points < 60:
        return 2
    if loser_points < 90:
        return 1
    return 0


@numba.njit(cache=True)
def base_vp(loser_points, loser_tricks):
    """The seed's victory points by the loser's card points (the ``vp_band_*`` defaults):
    90+ 1, 60-89 2, 30-59 3, under 30 with a trick 4 + 1 bonus = 5, no trick 5 doubled = 10."""
    return BAND_VP[band(loser_points, loser_tricks)]


@numba.njit(cache=True)
def _winner(points0, points1, tricks0, tricks1, b0, b1, starter, last_winner, tie_rule):
    """Who wins (-1: nobody): more than 120 card points, or at 120 : 120 the tie rule."""
    if points0 != points1:
        return 0 if points0 > points1 else 1
    if tie_rule == TIE_LAST:
        return last_winner
    if tie_rule == TIE_STARTER_LOSES:
        return 1 - starter
    if tie_rule == TIE_STARTER_WINS:
        return starter
    if tie_rule == TIE_TRICKS and tricks0 != tricks1:
        return 0 if tricks0 > tricks1 else 1
    if tie_rule == TIE_B and b0 != b1:
        return 0 if b0 > b1 else 1
    return -1


@numba.njit(cache=True)
def settlement(points0, points1, tricks0, tricks1, a0, a1, b0, b1, starter, last_winner, params):
    """A finished deal's settlement term by term under the rules ``params`` (``OPTIONS.codes``):
    ``(winner, tie, band, base, loser_a, a_vp, b_diff, b_vp, raw, total, compensation, vp0,
    vp1)``.

    ``winner`` -1: nobody (then every term of the win is 0, ``band`` -1); ``tie``: 120 : 120,
    decided by ``tie_rule``; ``band`` and ``base`` the loser's band and its VP
    (``vp_band_*``), or for a tie won by the rule ``TIE_BAND`` and ``tie_win_base``;
    ``loser_a`` the loser's A markers and ``a_vp`` their VP (``vp_per_a_marker`` each);
    ``b_diff`` the winner's B markers minus the loser's and ``b_vp`` their VP
    (``vp_per_b_marker`` each); ``raw`` the sum of ``base``, ``a_vp`` and ``b_vp``;
    ``total`` the winner's VP after ``b_marker_mode`` (v1 floors it at 1, v2 leaves it, a
    negative total going to the loser); ``compensation`` the VP credited to the player who
    did not start, whatever the result; ``vp0``, ``vp1`` each player's VP, the
    compensation included."""
    tie = points0 == points1
    winner = _winner(points0, points1, tricks0, tricks1, b0, b1, starter, last_winner,
                     params[P_TIE])
    lost = -1
    base = loser_a = b_diff = raw = total = 0
    if winner >= 0:
        if tie:
            lost = TIE_BAND
            base = TIE_BASE_VP[params[P_TIE_BASE]]
        else:
            lost = band(points1 if winner == 0 else points0, tricks1 if winner == 0 else tricks0)
            base = params[P_BAND + lost]
        loser_a = a1 if winner == 0 else a0
        b_diff = b0 - b1 if winner == 0 else b1 - b0
    a_vp = params[P_A_VP] * loser_a
    b_vp = params[P_B_VP] * b_diff
    if winner >= 0:
        raw = base + a_vp + b_vp
        total = 1 if params[P_MODE] == MODE_V1 and raw < 1 else raw
    compensation = params[P_COMPENSATION]
    won, lost_vp = max(total, 0), max(-total, 0)  # the winner's VP, the loser's
    vp0 = (won if winner == 0 else lost_vp) + (compensation if starter == 1 else 0)
    vp1 = (won if winner == 1 else lost_vp) + (compensation if starter == 0 else 0)
    return (winner, tie, lost, base, loser_a, a_vp, b_diff, b_vp, raw, total, compensation,
            vp0, vp1)


@numba.njit(cache=True)
def settle(points0, points1, tricks0, tricks1, a0, a1, b0, b1, starter, last_winner, params):
    """``(winner, tie, vp0, vp1, raw)`` of a finished deal (``settlement``; winner -1:
    nobody); ``raw`` is the winner's VP sum before ``b_marker_mode`` floors it (v1) or hands
    a negative one to the loser (v2); 0 without a winner."""
    terms = settlement(points0, points1, tricks0, tricks1, a0, a1, b0, b1, starter, last_winner,
                       params)
    return terms[0], terms[1], terms[11], terms[12], terms[8]

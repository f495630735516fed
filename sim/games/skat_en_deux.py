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
* Options: ``OPTIONS`` below.
"""

from __future__ import annotations

import numba
import numpy as np

from sim import actions as A
from sim.cards import SKAT_DECK
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
    scripted_optional,
)
from sim.games.kernel import play_deal as kernel_play_deal
from sim.games.skat_family import (
    W_CHOICES,
    W_LEN,
    allowed_declaration,
    ask_bid,
    ask_card,
    ask_declaration,
    ask_discard,
    ask_optional,
    ask_yes,
    deal_three_hands,
    finish_trick,
    outcome,
    private,
    scratch_views,
)
from sim.games.skat_values import (
    BASE,
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
    overbid_value,
    rescore_lost_factor,
    settle_suit,
)
from sim.options import Option, OptionTable
from sim.policies.skat_family import decide_offer
from sim.rng import STREAM_DEAL, STREAM_SEAT0, stream_key

NAME = "skat_en_deux"
N_PLAYERS = 2
DECK = SKAT_DECK
TRICKS = 10
FH, BLIND, RH = 0, 1, 2
"""Table places: forehand, the blind (middlehand), rearhand (the dealer)."""

OBSERVATION = O
"""The fields of a seat's observation, what its policy (or a person at the table) sees."""

OPTIONS = OptionTable([
    Option("all_pass", "ramsch", ("ramsch", "throw_in"),
           "when both pass: ramsch (the blind stays out), or the deal is thrown in"),
    Option("open_hand", False, (False, True),
           "open levels may also be played hand, adding the hand level too"),
    Option("give_up_at_18", True, (True, False),
           "with a bid of 18 the declarer may give up for -60, after the bidding or after "
           "picking up the skat"),
    Option("give_up_after_pickup", False, (False, True),
           "after picking up, a declarer who can no longer reach the bid may give up (lost at "
           "the smallest game value reaching the bid); only without contra_re"),
    Option("lost_factor", 2, (2, 1), "a lost game costs this many times its value",
           scoring_only=True),
    Option("contra_re", False, (False, True),
           "the defender may offer 'raus' or 'Stich' before a trick from the second on; after a "
           "rejection Contra (x2) and Re (x4); a rejected game gets one more level and x1.5"),
])

P_RAMSCH, P_OPEN_HAND, P_GIVE_UP_18, P_GIVE_UP_PICKUP, P_LOST_FACTOR, P_CONTRA_RE, P_N = range(7)

GIVE_UP_SCORE = 60
"""What giving up at 18 costs the declarer."""


def kernel_params(rules: dict) -> np.ndarray:
    """The rules as the kernel's parameter array."""
    p = np.zeros(P_N, np.int64)
    p[P_RAMSCH] = rules["all_pass"] == "ramsch"
    p[P_OPEN_HAND] = bool(rules["open_hand"])
    p[P_GIVE_UP_18] = bool(rules["give_up_at_18"])
    p[P_GIVE_UP_PICKUP] = bool(rules["give_up_after_pickup"])
    p[P_LOST_FACTOR] = int(rules["lost_factor"])
    p[P_CONTRA_RE] = bool(rules["contra_re"])
    return p


def extra_levels(rules: dict) -> int:
    """Most levels beyond matadors + 1: zweimal offen (2), Schneider, Schwarz, and the hand
    level where open games may be played hand."""
    return 4 + (1 if rules["open_hand"] else 0)


def rescore(columns: dict[str, np.ndarray], rules: dict) -> dict[str, np.ndarray]:
    """Played deals' columns under other scoring-only rules (``lost_factor``); a give-up
    at 18 (no game value) keeps its − 60."""
    keep = columns["give_up"] & (columns["game_value"] == 0)
    return {**columns, **rescore_lost_factor(columns, int(rules["lost_factor"]), N_PLAYERS, keep)}


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
    ("accepted", "bool"), ("contra", "bool"), ("re", "bool"), ("ramsch", "bool"),
    ("ramsch_points_0", "int16"), ("ramsch_points_1", "int16"), ("ramsch_loser", "int8"),
    ("ramsch_tie_last_trick", "bool"), ("hand_0", "uint32"), ("hand_1", "uint32"),
    ("blind", "uint32"), ("skat", "uint32"), ("discard", "uint32"), ("ramsch_skat_points", "int16"),
    ("replay_error", "int16"),
)
(C_DEAL, C_DEALER, C_DECLARER, C_POSITION, C_BID, C_GAME, C_HAND, C_OUVERT, C_OPEN, C_MATADORS,
 C_DPOINTS, C_DTRICKS, C_SCHNEIDER, C_SCHWARZ, C_OVERBID, C_WON, C_VALUE, C_SCORE, _S1,
 C_PASSED_OUT, C_GIVE_UP, C_OFFER, C_OFFER_TRICK, C_ACCEPTED, C_CONTRA, C_RE, C_RAMSCH,
 C_RPOINTS, _R1, C_RLOSER, C_RTIE, C_HANDS, _H1, C_BLIND, C_SKAT, C_DISCARD,
 C_RSKAT, C_ERROR) = range(len(COLUMNS))



# --- decisions -----------------------------------------------------------------------------

OPEN_FLAGS = np.array([0, 1 << O.DECL_OPEN_SHIFT, 2 << O.DECL_OPEN_SHIFT], np.int64)
"""A suit game's or grand's open levels: closed, einmal offen, zweimal offen."""


@numba.njit(cache=True)
def declaration_flags(obs, params):  # type: ignore[no-untyped-def]
    """The open levels offered: all three in a pickup game (a hand game with open_hand)."""
    return OPEN_FLAGS[:3 if (not obs[O.HAND_GAME] or params[P_OPEN_HAND]) else 1]


@numba.njit(cache=True)
def declaration_allowed(decl, obs, params, buf):  # type: ignore[no-untyped-def]
    """Whether ``decl`` is among the declarations offered now."""
    return allowed_declaration(decl, obs, declaration_flags(obs, params), buf)


# --- one deal ------------------------------------------------------------------------------

@numba.njit(cache=True)
def _bidding(hands, dealer, fhp, obs, pols, states, values, script, cur, err, log, nlog):  # type: ignore[no-untyped-def]
    """The dealer bids to forehand until one passes. Returns ``(declarer place, bid)``,
    place -1 when both passed."""
    bid = 0
    while True:
        v = ask_bid(RH, dealer, RH, bid, obs, hands[RH], pols[dealer],
                    states[STREAM_SEAT0 + dealer], values, script, cur, err, log, nlog)
        if err[0]:
            return -1, 0
        if v == 0:
            if bid:
                return FH, bid
            obs[O.NEXT_BID] = 18
            if ask_yes(FH, fhp, FH, O.PH_FH18, A.BID, A.PASS, obs, hands[FH], pols[fhp],
                       states[STREAM_SEAT0 + fhp], script, cur, err, log, nlog, 18) \
                    and not err[0]:
                obs[O.SEAT_BID + FH] = 18
                return FH, 18
            obs[O.PASSED] |= 1 << FH
            return -1, 0
        bid = v
        obs[O.BID] = bid
        held = ask_yes(FH, fhp, FH, O.PH_ANSWER, A.HOLD, A.PASS, obs, hands[FH], pols[fhp],
                       states[STREAM_SEAT0 + fhp], script, cur, err, log, nlog, bid)
        if err[0]:
            return -1, 0
        if not held:
            obs[O.PASSED] |= 1 << FH
            return RH, bid
        obs[O.SEAT_BID + FH] = bid


@numba.njit(cache=True)
def _ramsch(hands, dealer, fhp, obs, pols, states, work, script, cur, err, log, nlog, row):  # type: ignore[no-untyped-def]
    """Ramsch: forehand and rearhand play their own ten cards in two-card tricks, jacks
    trump; more card points lose them plus the skat's; equal: the last trick's taker loses.

    Observation seats here are forehand 0 and rearhand 1."""
    eff = EFF[RAMSCH]
    strength = STRENGTH[RAMSCH]
    masks = SUIT_MASKS[RAMSCH]
    trick, seats, points, tricks = scratch_views(work)
    own = np.zeros(2, np.uint64)
    own[0] = hands[FH]
    own[1] = hands[RH]
    players = (fhp, dealer)
    obs[O.TRICK_SIZE] = 2
    obs[O.GAME] = RAMSCH
    obs[O.RAMSCH] = 1
    obs[O.BLIND_SEAT] = -1
    record(log, nlog, A.RAMSCH, fhp, 0, 0)
    if cur[0] < script.shape[0] and script[cur[0], 0] == A.RAMSCH:
        cur[0] += 1  # a replayed ramsch row is no decision: step over it
    leader = 0
    for t in range(TRICKS):
        obs[O.TRICK_NO] = t
        obs[O.TRICK_LEADER] = leader
        for k in range(2):
            seat = (leader + k) % 2
            player = players[seat]
            if ask_card(seat, player, seat, k, obs, own, trick, seats, eff, masks, pols[player],
                        states[STREAM_SEAT0 + player], np.uint64(0), np.uint64(0), 0, script, cur,
                        err, log, nlog) < 0:
                return
        leader = finish_trick(obs, trick, seats, 2, eff, strength, points, tricks)
    skat_points = card_points(np.uint64(row[C_SKAT]))
    row[C_RSKAT] = skat_points
    if points[0] != points[1]:
        loser = 0 if points[0] > points[1] else 1
    else:
        loser = leader  # the taker of the last trick
        row[C_RTIE] = 1
    row[C_RAMSCH] = 1
    row[C_GAME] = RAMSCH
    row[C_DISCARD] = row[C_SKAT]
    for seat in range(2):
        row[C_RPOINTS + players[seat]] = points[seat]
    row[C_RLOSER] = players[loser]
    row[C_SCORE + players[loser]] = -(points[loser] + skat_points)


@numba.njit(cache=True)
def _cannot_reach(cards, bid):  # type: ignore[no-untyped-def]
    """Whether no suit game or grand reaches ``bid`` at its best winning level
    (zweimal offen, Schneider and Schwarz) with these twelve cards' matadors."""
    for game in range(5):
        if BASE[game] * (abs(matadors(cards, game)) + 1 + 2 + 2) >= bid:
            return False
    return True


@numba.njit(cache=True)
def smallest_game_value(bid):  # type: ignore[no-untyped-def]
    """The smallest suit or grand game value (base x multiplier >= 2) that reaches ``bid``."""
    best = 1 << 30
    for game in range(5):
        v = max(overbid_value(game, bid), 2 * BASE[game])
        if v < best:
            best = v
    return best


@numba.njit(cache=True)
def _ask_give_up(declarer_place, declarer, obs, hand, pols, states, script, cur, err, log, nlog):  # type: ignore[no-untyped-def]
    """The declarer may give the game up now (no row when he does not)."""
    return ask_optional(declarer_place, declarer, declarer_place, O.PH_GIVE_UP, A.GIVE_UP, obs,
                        hand, pols[declarer], states[STREAM_SEAT0 + declarer], script, cur, err,
                        log, nlog)


@numba.njit(cache=True)
def _offer_round(t, decl_place, declarer, defender, def_place, obs, hands, pols, states, script,
                 cur, err, log, nlog, row):  # type: ignore[no-untyped-def]
    """Before trick ``t``: the defender may offer; the declarer accepts or rejects; after a
    rejection Contra and Re may follow. Returns True when an accepted offer ends the game."""
    private(obs, def_place, def_place, hands[def_place])
    obs[O.PHASE] = O.PH_OFFER
    obs[O.KNOWN] = np.int64(hands[BLIND])
    if pols[defender] < 0:
        if person_waits(pols[defender], script, cur, obs, err, log, nlog):
            return False
        made, offer = scripted_optional(script, cur, A.OFFER, defender)
        if made and offer not in (O.OFFER_RAUS, O.OFFER_STICH):
            err[0] = E_ILLEGAL
            return False
    else:
        offer = decide_offer(pols[defender], obs, states[STREAM_SEAT0 + defender])
    obs[O.KNOWN] = 0
    if offer == O.OFFER_NONE:
        return False
    record(log, nlog, A.OFFER, defender, offer, 0)
    obs[O.OFFER] = offer
    row[C_OFFER] = offer
    row[C_OFFER_TRICK] = t
    accepted = ask_yes(decl_place, declarer, decl_place, O.PH_ACCEPT, A.ACCEPT, A.REJECT, obs,
                       hands[decl_place], pols[declarer], states[STREAM_SEAT0 + declarer], script,
                       cur, err, log, nlog, 0)
    if err[0]:
        return False
    if accepted:
        row[C_ACCEPTED] = 1
        return True
    obs[O.REJECTED] = 1
    if ask_optional(def_place, defender, def_place, O.PH_CONTRA, A.CONTRA, obs, hands[def_place],
                    pols[defender], states[STREAM_SEAT0 + defender], script, cur, err, log, nlog):
        row[C_CONTRA] = 1
        obs[O.CONTRA] = 1
        if ask_optional(decl_place, declarer, decl_place, O.PH_RE, A.RE, obs, hands[decl_place],
                        pols[declarer], states[STREAM_SEAT0 + declarer], script, cur, err, log,
                        nlog):
            row[C_RE] = 1
            obs[O.RE] = 1
    return False


@numba.njit(cache=True)
def _play_tricks(hands, game, decl_place, declarer, defender, open_level, ouvert, obs, pols,
                 states, skat_known, params, work, script, cur, err, log, nlog, row):  # type: ignore[no-untyped-def]
    """Play the ten tricks forehand -> blind -> rearhand. Returns True when an accepted
    offer ended the game; a null game stops at the declarer's first trick."""
    eff = EFF[game]
    strength = STRENGTH[game]
    masks = SUIT_MASKS[game]
    trick, seats, points, tricks = scratch_views(work)
    def_place = RH if decl_place == FH else FH
    offers = params[P_CONTRA_RE] and game != NULL
    open_now = open_level == 2 or ouvert
    if open_now:
        obs[O.OPEN_HAND] = np.int64(hands[decl_place])
    leader = FH
    for t in range(TRICKS):
        if offers and t >= 1 and row[C_OFFER] == O.OFFER_NONE:
            if _offer_round(t, decl_place, declarer, defender, def_place, obs, hands, pols,
                            states, script, cur, err, log, nlog, row):
                return True
            if err[0]:
                return False
        obs[O.TRICK_NO] = t
        obs[O.TRICK_LEADER] = leader
        for k in range(3):
            place = (leader + k) % 3
            player = declarer if place == decl_place else defender
            if place == decl_place:
                known = np.uint64(0)
            elif place == BLIND:
                known = hands[def_place]
            else:
                # the blind stays face down for the defender too until the opening lead
                known = hands[BLIND] if (t or k) else np.uint64(0)
            if ask_card(place, player, place, k, obs, hands, trick, seats, eff, masks,
                        pols[player], states[STREAM_SEAT0 + player],
                        skat_known if place == decl_place else np.uint64(0), known,
                        1 if place == BLIND else 0, script, cur, err, log, nlog) < 0:
                return False
            if t == 0 and k == 0:
                obs[O.BLIND] = np.int64(hands[BLIND])  # turned face up after the opening lead
            elif place == BLIND:
                obs[O.BLIND] = np.int64(hands[BLIND])
            if open_now and place == decl_place:
                obs[O.OPEN_HAND] = np.int64(hands[decl_place])
        leader = finish_trick(obs, trick, seats, 3, eff, strength, points, tricks)
        if t == 0 and open_level == 1:
            open_now = True  # einmal offen: laid down after the first trick
            obs[O.OPEN_HAND] = np.int64(hands[decl_place])
        if game == NULL and leader == decl_place:
            break
    return False


@numba.njit(cache=True)
def _settle(row, game, decl_place, declarer, hand_game, ouvert, open_level, full, bid, skat,
            accepted, work, params):  # type: ignore[no-untyped-def]
    """Score a declared game into ``row``."""
    _, _, points, tricks = scratch_views(work)
    dpoints = points[decl_place] + card_points(skat)
    dtricks = tricks[decl_place]
    row[C_DPOINTS] = dpoints
    row[C_DTRICKS] = dtricks
    lost_factor = params[P_LOST_FACTOR]
    if game == NULL:
        won = dtricks == 0
        value = null_value(hand_game, ouvert)
    else:
        mat = matadors(full, game)
        row[C_MATADORS] = mat
        if accepted:
            stich = row[C_OFFER] == O.OFFER_STICH
            value = BASE[game] * (abs(mat) + 1 + hand_game + open_level + stich)
            overbid = value < bid
            won = not overbid
            if overbid:
                value = overbid_value(game, bid)
            row[C_SCHNEIDER] = stich
            row[C_OVERBID] = overbid
        else:
            won, value, schneider, schwarz, overbid = settle_suit(
                game, mat, hand_game, 0, 0, 0, open_level, dpoints, dtricks, TRICKS, bid)
            row[C_SCHNEIDER] = schneider
            row[C_SCHWARZ] = schwarz
            row[C_OVERBID] = overbid
            if row[C_OFFER] != O.OFFER_NONE:
                # rejected: one more level, then + 50 % rounded up; Contra x 2, Re x 2 more
                value = (3 * (value + BASE[game]) + 1) // 2
                value *= (2 if row[C_CONTRA] else 1) * (2 if row[C_RE] else 1)
    row[C_WON] = won
    row[C_VALUE] = value
    row[C_SCORE + declarer] = value if won else -lost_factor * value


@numba.njit(cache=True)
def play_deal(seed, deal, params, pols, values, row, obs, states, hands, perm, work, script,
              cur, err, log, nlog, preset):  # type: ignore[no-untyped-def]
    """Deal, bid, declare, play and score deal ``deal`` into result ``row`` (dealt as
    ``preset`` lays the cards if it is not empty)."""
    for s in range(states.shape[0]):
        states[s, 0] = stream_key(seed, deal, s)
    dealer = deal % 2
    fhp = 1 - dealer
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
    row[C_RLOSER] = -1
    row[C_HANDS + fhp] = np.int64(hands[FH])
    row[C_HANDS + dealer] = np.int64(hands[RH])
    row[C_BLIND] = np.int64(hands[BLIND])
    row[C_SKAT] = np.int64(skat)
    cur[0] = 0
    nlog[0] = 0
    work[:] = 0
    choices = work[W_CHOICES:W_LEN]

    decl_place, bid = _bidding(hands, dealer, fhp, obs, pols, states, values, script, cur, err,
                               log, nlog)
    if err[0]:
        row[C_ERROR] = err[0]
        return
    if decl_place < 0:
        if params[P_RAMSCH]:
            _ramsch(hands, dealer, fhp, obs, pols, states, work, script, cur, err, log, nlog, row)
            row[C_ERROR] = err[0]
        else:
            row[C_PASSED_OUT] = 1
            row[C_DISCARD] = np.int64(skat)
        return

    declarer = fhp if decl_place == FH else dealer
    defender = 1 - declarer
    obs[O.DECLARER] = decl_place
    obs[O.BID] = bid
    row[C_DECLARER] = declarer
    row[C_POSITION] = decl_place
    row[C_BID] = bid
    row[C_DISCARD] = np.int64(skat)
    full = hands[decl_place] | skat
    may_give_up_18 = params[P_GIVE_UP_18] and bid == 18
    if may_give_up_18 and _ask_give_up(decl_place, declarer, obs, hands[decl_place], pols, states,
                                       script, cur, err, log, nlog):
        row[C_GIVE_UP] = 1
        row[C_SCORE + declarer] = -GIVE_UP_SCORE
        return
    if err[0]:
        row[C_ERROR] = err[0]
        return
    pickup = ask_yes(decl_place, declarer, decl_place, O.PH_PICKUP, A.PICKUP, A.HAND, obs,
                     hands[decl_place], pols[declarer], states[STREAM_SEAT0 + declarer], script,
                     cur, err, log, nlog, 0)
    if err[0]:
        row[C_ERROR] = err[0]
        return
    skat_known = np.uint64(0)
    if pickup:
        hands[decl_place] = full
        obs[O.SKAT] = np.int64(skat)
        may_give_up = may_give_up_18 or (params[P_GIVE_UP_PICKUP] and not params[P_CONTRA_RE]
                                         and _cannot_reach(full, bid))
        if may_give_up and _ask_give_up(decl_place, declarer, obs, full, pols, states, script,
                                        cur, err, log, nlog):
            row[C_GIVE_UP] = 1
            if may_give_up_18:
                row[C_SCORE + declarer] = -GIVE_UP_SCORE
            else:
                row[C_VALUE] = smallest_game_value(bid)
                row[C_SCORE + declarer] = -params[P_LOST_FACTOR] * row[C_VALUE]
            return
        if err[0]:
            row[C_ERROR] = err[0]
            return
        put = ask_discard(decl_place, declarer, decl_place, full, skat, obs, pols[declarer],
                          states[STREAM_SEAT0 + declarer], script, cur, err, log, nlog)
        if err[0]:
            row[C_ERROR] = err[0]
            return
        hands[decl_place] = full & ~put
        skat = put
        skat_known = put
    hand_game = 0 if pickup else 1
    obs[O.HAND_GAME] = hand_game
    obs[O.MAX_OPEN] = 2 if (pickup or params[P_OPEN_HAND]) else 0
    decl = ask_declaration(decl_place, declarer, decl_place, hands[decl_place], skat_known, obs,
                           pols[declarer], states[STREAM_SEAT0 + declarer],
                           declaration_flags(obs, params), False, choices, script, cur,
                           err, log, nlog)
    if err[0]:
        row[C_ERROR] = err[0]
        return
    game = decl & 7
    ouvert = (decl & O.DECL_OUVERT) != 0
    open_level = (decl >> O.DECL_OPEN_SHIFT) & 3
    obs[O.GAME] = game
    obs[O.OUVERT] = ouvert
    obs[O.OPEN_LEVEL] = open_level
    row[C_GAME] = game
    row[C_HAND] = hand_game
    row[C_OUVERT] = ouvert
    row[C_OPEN] = open_level
    row[C_DISCARD] = np.int64(skat)
    work[W_CHOICES:W_LEN] = 0

    accepted = _play_tricks(hands, game, decl_place, declarer, defender, open_level, ouvert, obs,
                            pols, states, skat_known, params, work, script, cur, err, log, nlog,
                            row)
    row[C_ERROR] = err[0]
    _settle(row, game, decl_place, declarer, hand_game, ouvert, open_level, full, bid, skat,
            accepted, work, params)


@implements(deal_scratch, NAME)
def _deal_scratch(game):  # type: ignore[no-untyped-def]
    return (np.zeros(O.LENGTH, np.int64), np.zeros((STREAM_SEAT0 + 2, 1), np.uint64),
            np.zeros(3, np.uint64), np.zeros(32, np.int64), np.zeros(W_LEN, np.int64))


@implements(kernel_play_deal, NAME)
def _play_deal(game, seed, deal, params, pols, values, row, work, script, cur, err, log, nlog,  # type: ignore[no-untyped-def]
               preset):
    obs, states, hands, perm, work_ = work
    play_deal(seed, deal, params, pols, values, row, obs, states, hands, perm, work_, script, cur,
              err, log, nlog, preset)


# --- the declaration -----------------------------------------------------------------------

DEAL_LAYOUT = Layout(
    (Group("hand of player 0", 10), Group("hand of player 1", 10), Group("blind", 10),
     Group("skat", 2)),
    lambda cards, dealer: cards[1 - dealer] + cards[2] + cards[dealer] + cards[3],
    lambda c: [*c["hands"], c["blind"], c["skat"]])
"""A deal written by hand: both players' hands, the blind, the skat; dealt to forehand (the
player who does not deal), the blind, rearhand (the dealer), the skat."""

GAME = Game(
    name=NAME, n_players=N_PLAYERS, deck=DECK, tricks=TRICKS, options=OPTIONS, columns=COLUMNS,
    categories=CATEGORIES, outcome=outcome(N_PLAYERS), observation=O, kernel=KernelTag(NAME),
    kernel_params=kernel_params, rescore=rescore, deal_layout=DEAL_LAYOUT,
    trace_codec="sim.games.skat_en_deux_trace", screen="sim.play.skat_family:SkatEnDeuxScreen",
    bid_values=bid_list)
"""Skat-en-deux, as the registry (``sim.registry``) knows it."""

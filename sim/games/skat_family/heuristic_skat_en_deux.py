"""The club player's decisions that only Skat-en-deux asks for: giving up, the defender's
offers ("raus und gewonnen", "Stich"), accepting them, Contra and Re.

Bidding, the skat, the declaration with its open level and the card play come from
``heuristic`` (the defender plays his own hand and the blind with it, each
with the other hand as known cards). Every function takes the observation only.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import popcount
from sim.games.skat_family.heuristic import best_hand_game, choose_game, expected_score, margin_of, win_chance
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.observation import (
    OFFER_NONE,
    OFFER_RAUS,
    OFFER_STICH,
    PH_ACCEPT,
    PH_CONTRA,
    PH_GIVE_UP,
)
from sim.games.skat_family.values import GIVE_UP_SCORE, NULL, cheapest_give_up

CONTRA_LEAD = 10
"""Card points the defence wants ahead of the declarer before it says Contra to a
rejected offer (and that the declarer wants ahead before he answers with Re)."""
EARLY_RAUS_CHANCE = 0.98
"""Before the opening lead (``offer_timing`` ``from_declaration``) the defender sees neither
the blind nor the discard: he offers "raus" only against a declarer's hand laid open
(zweimal offen) that he rates won at least this surely, where playing on risks Schneider for
almost nothing."""


@numba.njit(cache=True)
def give_up(obs, banned):
    """Give up when the best game's expected score (of the games ``banned`` allows) is below
    the cost of giving up."""
    hand = np.uint64(obs[O.HAND])
    forehand = obs[O.POSITION] == 0
    bid = obs[O.BID]
    if popcount(hand) == 12:  # the declarer holds the skat too
        game, put, level = choose_game(hand, bid, forehand, obs[O.MAX_OPEN], banned)
        cards = hand & ~put
    else:
        game, level, _ = best_hand_game(hand, bid, forehand, 0, banned)
        cards = hand
        if game < 0:
            return True
    chance = win_chance(margin_of(cards, game, forehand))
    # a game worth at least the bid, won or lost at that value
    return expected_score(float(bid), chance) < -GIVE_UP_SCORE


@numba.njit(cache=True)
def give_up_game(obs, banned):
    """After the pickup, with games he may give up naming (``GIVE_UP_GAMES``): name the game
    he would declare when it is one of them (an overbid game is lost anyway), or the cheapest
    of them when the game he would declare expects less than that give-up costs; else play
    on. Returns 0 (play on) or the named game's code + 1. ``banned``: the games he may not
    declare (``heuristic.NO_HAND``)."""
    hand = np.uint64(obs[O.HAND])
    forehand = obs[O.POSITION] == 0
    bid = obs[O.BID]
    games = obs[O.GIVE_UP_GAMES]
    game, put, _ = choose_game(hand, bid, forehand, obs[O.MAX_OPEN], banned)
    if 0 <= game < 5 and (games >> game) & 1:
        return game + 1
    cheapest, cost = cheapest_give_up(games, bid)
    chance = win_chance(margin_of(hand & ~put, game, forehand))
    if expected_score(float(bid), chance) < expected_score(float(cost), 0.0):
        return cheapest + 1
    return 0


@numba.njit(cache=True)
def _points(obs, declarer_side):
    """Card points the declarer (or the defence: his two places) has taken so far."""
    decl = obs[O.DECLARER]
    total = 0
    for seat in range(3):
        if (seat == decl) == declarer_side:
            total += obs[O.POINTS + seat]
    return total


@numba.njit(cache=True)
def offer(obs):
    """The defender's offer before a trick, among those he may still make (``OFFERS_LEFT``):
    "raus" once the declarer has won anyway and the defence is out of Schneider; "Stich"
    when the defence cannot escape Schneider. Before the opening lead, "raus" against an
    open hand rated won (``EARLY_RAUS_CHANCE``)."""
    allowed = obs[O.OFFERS_LEFT]
    if obs[O.GAME] == NULL:
        return OFFER_NONE
    if obs[O.TRICK_NO] < 0:  # before the opening lead: nothing played to count
        if not (allowed >> OFFER_RAUS) & 1 or obs[O.OPEN_HAND] == 0:
            return OFFER_NONE
        chance = win_chance(margin_of(np.uint64(obs[O.OPEN_HAND]), obs[O.GAME],
                                      obs[O.DECLARER] == obs[O.FOREHAND]))
        return OFFER_RAUS if chance >= EARLY_RAUS_CHANCE else OFFER_NONE
    declarer = _points(obs, True)
    defence = _points(obs, False)
    remaining = 120 - declarer - defence
    if (allowed >> OFFER_RAUS) & 1 and declarer >= 61 and defence >= 31:
        return OFFER_RAUS
    if (allowed >> OFFER_STICH) & 1 and defence + remaining <= 30 + 2 * 11 \
            and obs[O.TRICK_NO] >= 6 and defence <= 20:
        return OFFER_STICH
    return OFFER_NONE


@numba.njit(cache=True)
def answer(obs, banned):
    """Give up, accept an offer, say Contra or Re: yes or no by the phase (``banned``: the
    games the declarer may not declare)."""
    phase = obs[O.PHASE]
    if phase == PH_GIVE_UP:
        return give_up(obs, banned)
    declarer = _points(obs, True)
    defence = _points(obs, False)
    if phase == PH_ACCEPT:
        if obs[O.OFFER] == OFFER_RAUS:
            # a sure win: take it unless Schneider is still in reach
            return defence >= 31 or declarer < 61
        # "Stich" concedes Schneider: refuse only while Schwarz is still open
        return defence > 0 or obs[O.TRICK_NO] < 5
    if phase == PH_CONTRA:
        return defence >= declarer + CONTRA_LEAD
    return declarer >= 61 or declarer >= defence + CONTRA_LEAD  # Re

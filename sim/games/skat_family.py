"""Decisions shared by the Skat family (``skat``, ``skat_en_deux``): the policy
dispatchers and the bidding and yes/no questions a kernel puts to a seat.

A "seat" here is the place whose observation is filled (``skat_obs``); the
"player" is who decides, as the trace names him (in Skat both are the same; in
Skat-en-deux the defender decides for the blind's place too).
"""

from __future__ import annotations

import numba
import numpy as np

from sim import actions as A
from sim.games import skat_obs as O
from sim.games.kernel import E_ILLEGAL, next_value, record, scripted, scripted_either
from sim.policies import HEURISTIC, SCRIPTED
from sim.policies import skat_heuristic as H
from sim.policies.random import coin, random_card, random_pair


@numba.njit(cache=True)
def decide_bid(pol, obs, state, values):  # type: ignore[no-untyped-def]
    """A bid value above ``obs[BID]`` or 0 to pass."""
    if obs[O.NEXT_BID] == 0:
        return 0
    if pol == HEURISTIC:
        return H.bid(obs, values)
    return obs[O.NEXT_BID] if coin(state) else 0


@numba.njit(cache=True)
def decide_yes(pol, obs, state):  # type: ignore[no-untyped-def]
    """Hold (answer), take 18 (forehand after two passes) or pick up the skat: yes or no."""
    if pol == HEURISTIC:
        return H.yes(obs)
    return coin(state)


@numba.njit(cache=True)
def decide_discard(pol, obs, state):  # type: ignore[no-untyped-def]
    """The two cards to put away (a mask)."""
    if pol == HEURISTIC:
        return H.discard(obs)
    return random_pair(np.uint64(obs[O.HAND]), state)


@numba.njit(cache=True, inline="always")
def decide_card(pol, obs, state):  # type: ignore[no-untyped-def]
    """The card to play, one of ``obs[LEGAL]``."""
    if pol == HEURISTIC:
        return H.play(obs)
    return random_card(np.uint64(obs[O.LEGAL]), state)


@numba.njit(cache=True, inline="always")
def private(obs, seat, position, hand):  # type: ignore[no-untyped-def]
    """Fill the deciding seat's private fields; the rest of ``obs`` is public."""
    obs[O.SEAT] = seat
    obs[O.POSITION] = position
    obs[O.HAND] = np.int64(hand)
    obs[O.LEGAL] = 0
    obs[O.SKAT] = 0


@numba.njit(cache=True)
def ask_bid(bidder, player, position, bid, obs, hand, pol, state, values, script, cur, err,
            log, nlog):  # type: ignore[no-untyped-def]
    """Seat ``bidder`` (``player`` in the trace) names a higher value or passes (0)."""
    private(obs, bidder, position, hand)
    obs[O.PHASE] = O.PH_BID
    obs[O.BID] = bid
    obs[O.NEXT_BID] = next_value(values, bid)
    if pol == SCRIPTED:
        i = cur[0]
        if i < script.shape[0] and script[i, 1] == player and script[i, 0] == A.PASS:
            cur[0] = i + 1
            v = 0
        else:
            v = scripted(script, cur, A.BID, player, err)
            if err[0]:
                return 0
            ok = False
            for w in values:
                ok = ok or (w == v and v > bid)
            if not ok:
                err[0] = E_ILLEGAL
                return 0
    else:
        v = decide_bid(pol, obs, state, values)
    if v:
        record(log, nlog, A.BID, player, v, 0)
        obs[O.SEAT_BID + bidder] = v
    else:
        record(log, nlog, A.PASS, player, 0, 0)
        obs[O.PASSED] |= 1 << bidder
    return v


@numba.njit(cache=True)
def ask_yes(seat, player, position, phase, yes_kind, no_kind, obs, hand, pol, state, script,
            cur, err, log, nlog, value):  # type: ignore[no-untyped-def]
    """A yes/no decision by ``seat`` in ``phase``, recorded as ``yes_kind``/``no_kind``."""
    private(obs, seat, position, hand)
    obs[O.PHASE] = phase
    if pol == SCRIPTED:
        yes = scripted_either(script, cur, yes_kind, no_kind, player, value, err)
        if err[0]:
            return 0
    else:
        yes = decide_yes(pol, obs, state)
    record(log, nlog, yes_kind if yes else no_kind, player, value if yes else 0, 0)
    return yes

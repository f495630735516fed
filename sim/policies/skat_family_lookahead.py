"""Which policy decides at a Skat-family seat, the lookahead player included: the entry
points the kernels (``sim.games.skat_family``, ``skat``, ``skat_en_deux``) ask.

The lookahead player (``sim.policies.lookahead``) decides every card-play decision: the
card, and in Skat-en-deux the defender's offer, the declarer's answer, Contra and Re, over
worlds dealt from the observation (``sim.search.skat_family``); and the declaration: each
game offered (announcements and open levels included) played out in the same worlds of
the hidden cards. Bidding, picking up the skat, the discard and giving up stay with the
heuristic (each would weigh every game behind it, many times the declaration's rollouts);
every other policy goes to ``sim.policies.skat_family`` as before.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.games.skat_cardplay import LENGTH, S, declare, legal, playout, step
from sim.games.skat_obs import FIELDS as O
from sim.games.skat_obs import PH_ACCEPT, PH_CONTRA, PH_RE
from sim.games.skat_values import JIT, JIT_NRT, declaration_choices
from sim.policies import HEURISTIC
from sim.policies import skat_family as base
from sim.policies.lookahead import best_action, is_lookahead, lookahead, rollouts_of, simple
from sim.search.skat_family import declaration_world, value, world

PLAYERS = 3
"""Players of the card-play state's streams (Skat-en-deux uses two of them)."""


@numba.njit(**JIT_NRT)
def _card_play(pol, obs, rng, prefer):
    """The lookahead player's action at a card-play decision (``prefer``: the heuristic's).
    Compiled with reference counting: the inlined search allocates its worlds' states."""
    return lookahead(obs, rng, rollouts_of(pol), prefer, LENGTH, PLAYERS, world, legal, step,
                     playout, value)


@numba.njit(**JIT)
def decide(pol, obs, rng):
    """A card-play decision as the card-play state's action (``CardPlay.decide``)."""
    if is_lookahead(pol):
        return _card_play(pol, obs, rng, base.decide(HEURISTIC, obs, rng))
    return base.decide(pol, obs, rng)


@numba.njit(inline="always", **JIT)
def decide_card(pol, obs, rng):
    """The card to play, one of ``obs[LEGAL]``."""
    if is_lookahead(pol):
        return _card_play(pol, obs, rng, base.decide_card(HEURISTIC, obs, rng))
    return base.decide_card(pol, obs, rng)


@numba.njit(**JIT)
def decide_offer(pol, obs, rng):
    """The defender's offer before a trick (none, "raus", "Stich")."""
    if is_lookahead(pol):
        return _card_play(pol, obs, rng, base.decide_offer(HEURISTIC, obs, rng))
    return base.decide_offer(pol, obs, rng)


@numba.njit(**JIT)
def decide_yes(pol, obs, rng):
    """A yes or no: in the card play (accepting an offer, Contra, Re) the lookahead's, in the
    bidding and at the skat the heuristic's for a lookahead seat."""
    phase = obs[O.PHASE]
    if is_lookahead(pol) and (phase == PH_ACCEPT or phase == PH_CONTRA or phase == PH_RE):
        yes = base.decide_yes(HEURISTIC, obs, rng)
        return _card_play(pol, obs, rng, 1 if yes else 0) == 1
    return base.decide_yes(simple(pol), obs, rng)


@numba.njit(**JIT)
def decide_bid(pol, obs, rng, values):
    """A bid value above ``obs[BID]`` or 0 to pass (the heuristic's for a lookahead seat)."""
    return base.decide_bid(simple(pol), obs, rng, values)


@numba.njit(**JIT_NRT)
def _declaration(pol, obs, rng, prefer, flags, buf):
    """The lookahead player's declaration among those offered (``declaration_choices``),
    each played out in the same worlds (``prefer``: the heuristic's)."""
    n = declaration_choices(obs, flags, buf)
    if n <= 1:
        return buf[0] if n else prefer
    state = np.empty(LENGTH, np.int64)
    declaration_world(obs, rng, state)
    declarer = state[S.PLAYER_AT + obs[O.SEAT]]
    return best_action(obs, rng, rollouts_of(pol), prefer, buf[:n], state, declarer, PLAYERS,
                       declaration_world, declare, playout, value)


@numba.njit(**JIT)
def decide_declaration(pol, obs, rng, flags, announce, buf):
    """A declaration code: the lookahead's for a lookahead seat (the heuristic's game is its
    tie-break; it may name any game offered, announcements and open levels included)."""
    if is_lookahead(pol):
        prefer = base.decide_declaration(HEURISTIC, obs, rng, flags, announce, buf)
        return _declaration(pol, obs, rng, prefer, flags, buf)
    return base.decide_declaration(pol, obs, rng, flags, announce, buf)


@numba.njit(**JIT)
def decide_discard(pol, obs, rng):
    """The two cards to put away (the heuristic's for a lookahead seat)."""
    return base.decide_discard(simple(pol), obs, rng)


@numba.njit(**JIT)
def decide_give_up(pol, obs, rng):
    """Skat-en-deux after the pickup: play on or give up (the heuristic's for a lookahead
    seat)."""
    return base.decide_give_up(simple(pol), obs, rng)

"""Which policy decides at a Skat-family seat (``skat``, ``skat_en_deux``): the one place
where a kernel's question goes to the heuristic or the random player.

Each function takes the policy id, the seat's observation and the seat's own random
stream, never the deal. Compiled as ``values.JIT`` says (the policies they call inherit
it: they must not allocate).
"""

from __future__ import annotations

import numba
import numpy as np

from sim.engine.seats import HEURISTIC, KIND_BITS, KIND_MASK
from sim.games.skat_family import heuristic as H
from sim.games.skat_family import heuristic_skat_en_deux as H2
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.observation import PH_GIVE_UP, PH_OFFER, PH_PLAY
from sim.games.skat_family.values import JIT, declaration_choices
from sim.policies.random import coin, random_card, random_cards
from sim.rng import below


@numba.njit(inline="always", **JIT)
def heuristic(pol):
    """Whether kernel id ``pol`` is the heuristic's, whose option bits are the games it may not
    declare (``heuristic.NO_HAND``: a restricted heuristic, ``sim.engine.restricted_player``)."""
    return (pol & KIND_MASK) == HEURISTIC


@numba.njit(**JIT)
def decide_bid(pol, obs, state, values):
    """A bid value above ``obs[BID]`` or 0 to pass."""
    if obs[O.NEXT_BID] == 0:
        return 0
    if heuristic(pol):
        return H.bid(obs, values, pol >> KIND_BITS)
    return obs[O.NEXT_BID] if coin(state) else 0


@numba.njit(**JIT)
def decide_yes(pol, obs, state):
    """Hold (answer), take 18 (forehand after two passes), pick up the skat, give up,
    accept an offer, say Contra or Re: yes or no."""
    if heuristic(pol):
        banned = pol >> KIND_BITS
        return H2.answer(obs, banned) if obs[O.PHASE] >= PH_GIVE_UP else H.yes(obs, banned)
    return coin(state)


@numba.njit(**JIT)
def decide_declaration(pol, obs, state, flags, announce, buf):
    """A declaration code: game | ouvert and announcement flags | open level bits."""
    if heuristic(pol):
        return H.declare(obs, announce, pol >> KIND_BITS)
    n = declaration_choices(obs, flags, buf)
    return buf[below(state, n)]


@numba.njit(**JIT)
def decide_discard(pol, obs, state):
    """The two cards to put away (a mask)."""
    if heuristic(pol):
        return H.discard(obs, pol >> KIND_BITS)
    return random_cards(np.uint64(obs[O.HAND]), 2, state)


@numba.njit(inline="always", **JIT)
def decide_card(pol, obs, state):
    """The card to play, one of ``obs[LEGAL]``."""
    if heuristic(pol):
        return H.play(obs)
    return random_card(np.uint64(obs[O.LEGAL]), state)


@numba.njit(**JIT)
def decide_offer(pol, obs, state):
    """The defender's offer before a trick: none, "raus" or "Stich", among those he may still
    make (``obs[OFFERS_LEFT]``)."""
    if heuristic(pol):
        return H2.offer(obs)
    return random_card(np.uint64(1 | obs[O.OFFERS_LEFT]), state)


@numba.njit(**JIT)
def decide_give_up(pol, obs, state):
    """After the pickup: play on (0), or give up naming one of ``obs[GIVE_UP_GAMES]`` (its
    code + 1)."""
    if heuristic(pol):
        return H2.give_up_game(obs, pol >> KIND_BITS)
    return random_card(np.uint64(1 | (obs[O.GIVE_UP_GAMES] << 1)), state)


@numba.njit(**JIT)
def decide(pol, obs, state):
    """A card-play decision as the card-play state's action (``sim.games.skat_family.cardplay``):
    the card to play, the defender's offer (0 none, 1 "raus", 2 "Stich"), or 1/0 for
    accepting an offer, Contra and Re."""
    phase = obs[O.PHASE]
    if phase == PH_PLAY:
        return decide_card(pol, obs, state)
    if phase == PH_OFFER:
        return decide_offer(pol, obs, state)
    return 1 if decide_yes(pol, obs, state) else 0

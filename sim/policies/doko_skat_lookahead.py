"""Which policy decides at a Doko-Skat seat, the lookahead player included: the entry
points the kernel (``sim.games.doko_skat``) and the card play (``CardPlay.decide``) ask.

The lookahead player (``sim.policies.lookahead``) decides every card it plays, in the
first round and in the main game (the card-play state holds both), over worlds dealt from
its observation (``sim.search.doko_skat``): from a first-round card the rollouts play the
rest of the first round, the teams, the declaration, the discards and the main game with
the heuristic. The declaration and the discards stay with the heuristic (``simple``):
they are no card-play decisions. Every other policy goes to ``sim.policies.doko_skat`` as
before.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import popcount
from sim.games.doko_skat_cardplay import legal, step
from sim.games.doko_skat_obs import FIELDS as O
from sim.games.doko_skat_values import JIT, JIT_NRT
from sim.policies import HEURISTIC
from sim.policies import doko_skat as base
from sim.policies.lookahead import is_lookahead, lookahead, rollouts_of, simple
from sim.search.doko_skat import LENGTH, playout, value, world

PLAYERS = 3

@numba.njit(**JIT_NRT)
def _card_play(pol, obs, rng, prefer):
    """The lookahead player's card (``prefer``: the heuristic's)."""
    return lookahead(obs, rng, rollouts_of(pol), prefer, LENGTH, PLAYERS, world, legal, step,
                     playout, value)


@numba.njit(**JIT)
def decide_card(pol, obs, rng):
    """The card to play, one of ``obs[LEGAL]``: the lookahead's where it has a choice, else
    the base dispatcher's (``simple(pol)``: the heuristic's for a lookahead seat)."""
    if is_lookahead(pol) and popcount(np.uint64(obs[O.LEGAL])) > 1:
        return _card_play(pol, obs, rng, base.decide_card(HEURISTIC, obs, rng))
    return base.decide_card(simple(pol), obs, rng)


decide = decide_card
"""The card play's decision (``CardPlay.decide``): every card-play action is a card."""


@numba.njit(**JIT)
def decide_declaration(pol, obs, rng):
    """A game code (0-8) or -1 to pass (the heuristic's for a lookahead seat)."""
    return base.decide_declaration(simple(pol), obs, rng)


@numba.njit(**JIT)
def decide_discard(pol, obs, rng):
    """The ``obs[N_DISCARD]`` cards to put away (the heuristic's for a lookahead seat)."""
    return base.decide_discard(simple(pol), obs, rng)

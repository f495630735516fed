"""Which policy decides at a seat of the toy game, the lookahead player included: the kernel
(``toygame.game``) and the card play's ``CardPlay.decide`` ask here.

The lookahead player (``lookahead``, ``lookahead:N``) decides every card with more than one
legal choice by ``sim.policies.lookahead`` (its ``decision_values``, bound here as
``card_values``, and ``choose``): the world of the decision
(``toygame.worlds.world``), each legal card played out with the heuristic at both seats
(``toygame.cardplay.playout``), the best card-point difference (``toygame.worlds.value``)
taken, ties to the heuristic's card. A single legal card, and every other policy, goes to
the random and heuristic players of ``toygame.cardplay`` (a lookahead id asks the
heuristic).
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import popcount
from sim.engine.net import no_net
from sim.engine.seats import HEURISTIC
from sim.policies.lookahead import choose, decision_values, is_lookahead, rollouts_of, simple
from toygame import cardplay as cp
from toygame.cardplay import OB
from toygame.worlds import value, world


@numba.njit(cache=True)
def card_values(obs, rng, rollouts, net):
    """The legal actions at a card-play decision and the lookahead's mean outcome of each for
    the deciding player's side, with ``rollouts`` rollouts, from his observation alone: what
    the lookahead seat weighs (``decide``) and a learned player is taught
    (``CardPlay.action_values``, ``sim.learn``), its rollouts by the network in ``net``
    where it has one."""
    return decision_values(obs, rng, rollouts, cp.STATE_LENGTH, cp.N_PLAYERS, world, cp.legal,
                           cp.step, cp.playout, value, net)


@numba.njit(cache=True)
def decide(pol, obs, rng):
    """Policy ``pol``'s card, one of ``obs[LEGAL]``, drawn from the seat's stream ``rng``:
    the lookahead's where it has a choice, else the base players' (``simple(pol)``)."""
    if is_lookahead(pol) and popcount(np.uint64(obs[OB.LEGAL])) > 1:
        prefer = cp.decide(HEURISTIC, obs, rng)
        actions, means = card_values(obs, rng, rollouts_of(pol), no_net())
        return choose(actions, means, prefer)
    return cp.decide(simple(pol), obs, rng)

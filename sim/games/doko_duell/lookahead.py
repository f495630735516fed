"""Which policy decides at a seat of the Doppelkopf duel, with the lookahead player: the
kernel (``sim.games.doko_duell.game``) and the card play's ``CardPlay.decide`` ask here.

The lookahead player (``lookahead``, ``lookahead:N``) decides every card with more than one
legal choice by ``sim.policies.lookahead`` (its ``decision_values``, bound here as
``card_values``, and ``choose``): worlds dealt from the seat's
observation (``sim.games.doko_duell.worlds.world``), each legal card played out with the
heuristic at both seats (the card play's ``playout``), the best mean VP difference
(``sim.games.doko_duell.worlds.value``) taken, ties to the heuristic's card. The candidates are
the card play's legal actions, which are the observation's ``LEGAL``: physical cards, so two
copies of one card (say a HT in the hand and a HT free in the pyramid) are two actions,
each played from where it lies. A single legal card, and every other policy, goes to the
base dispatcher (``sim.games.doko_duell.policies``; a lookahead id asks it as the heuristic).

This module imports the card play (for the rollouts) and the base dispatcher; the card
play imports only the base dispatcher, so there is no cycle.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import popcount
from sim.engine.net import no_net
from sim.engine.seats import HEURISTIC
from sim.games.doko_duell import cardplay as cp
from sim.games.doko_duell import policies as base
from sim.games.doko_duell.observation import FIELDS as O
from sim.games.doko_duell.worlds import value, world
from sim.policies.lookahead import choose, decision_values, is_lookahead, rollouts_of, simple

PLAYERS = 2


@numba.njit(cache=True)
def card_values(obs, rng, rollouts, net):
    """The legal actions at a card-play decision and the lookahead's mean outcome of each for
    the deciding player's side, with ``rollouts`` rollouts, from his observation alone: what
    the lookahead seat weighs (``decide_card``) and a learned player is taught
    (``CardPlay.action_values``, ``sim.learn``). The rollouts are the heuristic's, or the
    network's in ``net`` (expert iteration; the lookahead seat passes ``no_net()``)."""
    return decision_values(obs, rng, rollouts, cp.LENGTH, PLAYERS, world, cp.legal, cp.step,
                           cp.playout, value, net)


@numba.njit(cache=True)
def decide_card(pol, obs, state):
    """The card to play, one of ``obs[LEGAL]``: the lookahead's where it has a choice, else
    the base dispatcher's (``simple(pol)``)."""
    if is_lookahead(pol) and popcount(np.uint64(obs[O.LEGAL])) > 1:
        prefer = base.decide_card(HEURISTIC, obs, state)
        actions, means = card_values(obs, state, rollouts_of(pol), no_net())
        return choose(actions, means, prefer)
    return base.decide_card(simple(pol), obs, state)


@numba.njit(cache=True)
def decide(pol, obs, state):
    """Policy ``pol``'s action at a card-play decision (``CardPlay.decide``): the duel's card
    play asks nothing but cards."""
    return decide_card(pol, obs, state)

"""Which policy decides at a Doko-Skat seat, the lookahead player included: the entry
points the kernel (``sim.games.doko_skat.game``) and the card play (``CardPlay.decide``) ask.

The lookahead player (``sim.policies.lookahead``) decides every decision of the deal over
worlds dealt from its observation (``sim.games.doko_skat.worlds``), played out with the heuristic:

* every card it plays, in the first round and in the main game (the card-play state holds
  both): from a first-round card the rollouts play the rest of the first round, the teams,
  the declaration, the discards and the main game;
* the declaration (``pregame_world``): passing and the ``GAMES_WEIGHED`` games the
  heuristic rates best for the hand, each played out from the declaration on;
* the discards, the lone player's three and each seat's four after a redeal: the
  heuristic's cards and each swap of one of them for the next card it would put away.

Every other policy goes to ``sim.games.doko_skat.policies`` as before.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import bit, lsb, popcount
from sim.engine.net import no_net
from sim.engine.seats import HEURISTIC
from sim.games.doko_skat import policies as base
from sim.games.doko_skat.cardplay import legal, step
from sim.games.doko_skat.heuristic import game_margin
from sim.games.doko_skat.observation import FIELDS as O
from sim.games.doko_skat.values import JIT, JIT_NRT, N_GAMES
from sim.games.doko_skat.worlds import LENGTH, playout, pregame_step, pregame_world, value, world
from sim.policies.lookahead import best_action, choose, decision_values, is_lookahead, rollouts_of, simple

PLAYERS = 3
GAMES_WEIGHED = 3
"""Games the lookahead weighs at its declaration besides passing: those the heuristic rates
best for the hand (``game_margin``). Weighing all nine would leave each a handful of worlds
of the decision's rollouts."""
PASS = -1
"""The declaration's pass."""

@numba.njit(**JIT_NRT)
def card_values(obs, rng, rollouts, net):
    """The legal actions at a card-play decision and the lookahead's mean outcome of each for
    the deciding player's side, with ``rollouts`` rollouts, from his observation alone: what
    the lookahead seat weighs (``_card_play``) and a learned player is taught
    (``CardPlay.action_values``, ``sim.learn``). The rollouts are the heuristic's, or the
    network's in ``net`` (expert iteration; the lookahead seat passes ``no_net()``)."""
    return decision_values(obs, rng, rollouts, LENGTH, PLAYERS, world, legal, step, playout,
                           value, net)


@numba.njit(**JIT_NRT)
def _card_play(pol, obs, rng, prefer):
    """The lookahead player's card (``prefer``: the heuristic's)."""
    actions, means = card_values(obs, rng, rollouts_of(pol), no_net())
    return choose(actions, means, prefer)


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
    """A game code (0-8) or -1 to pass: for a lookahead seat the best of passing and the
    games weighed (``_declaration``; the heuristic's choice breaks a tie)."""
    if is_lookahead(pol):
        return _declaration(pol, obs, rng, base.decide_declaration(HEURISTIC, obs, rng))
    return base.decide_declaration(pol, obs, rng)


@numba.njit(**JIT)
def decide_discard(pol, obs, rng):
    """The ``obs[N_DISCARD]`` cards to put away: for a lookahead seat the best of the
    heuristic's discard and its swaps (``_discard``)."""
    if is_lookahead(pol):
        return _discard(pol, obs, rng, np.int64(base.decide_discard(HEURISTIC, obs, rng)))
    return np.int64(base.decide_discard(pol, obs, rng))


@numba.njit(**JIT_NRT)
def _pregame(pol, obs, rng, prefer, actions):
    """The action among ``actions`` whose rollouts from the decision on score best for the
    seat's side, on the same ``pregame_world``s."""
    state = np.empty(LENGTH, np.int64)
    pregame_world(obs, rng, state)
    return best_action(obs, rng, rollouts_of(pol), prefer, actions, state, obs[O.SEAT], PLAYERS,
                       pregame_world, pregame_step, playout, value)


@numba.njit(**JIT_NRT)
def _declaration(pol, obs, rng, prefer):
    """Passing, the ``GAMES_WEIGHED`` games with the best ``game_margin`` and the
    heuristic's choice, each played out."""
    margins = np.empty(N_GAMES)
    for game in range(N_GAMES):
        margins[game] = game_margin(obs, game)
    ranked = np.argsort(-margins, kind="mergesort")
    actions = np.empty(GAMES_WEIGHED + 2, np.int64)
    actions[0] = PASS
    n = 1
    weighed = prefer == PASS
    for k in range(GAMES_WEIGHED):
        actions[n] = ranked[k]
        weighed |= ranked[k] == prefer
        n += 1
    if not weighed:
        actions[n] = prefer
        n += 1
    return _pregame(pol, obs, rng, prefer, actions[:n])


@numba.njit(**JIT_NRT)
def _discard(pol, obs, rng, prefer):
    """The heuristic's discard (``prefer``) and each of it with one card swapped for the next
    card the heuristic would put away, each played out."""
    wider = obs.copy()
    wider[O.N_DISCARD] = obs[O.N_DISCARD] + 1
    pool = np.uint64(base.decide_discard(HEURISTIC, wider, rng))
    n = popcount(pool)
    actions = np.empty(n, np.int64)
    m = pool
    for k in range(n):
        c = lsb(m)
        m &= ~bit(c)
        actions[k] = np.int64(pool & ~bit(c))
    return _pregame(pol, obs, rng, prefer, actions)

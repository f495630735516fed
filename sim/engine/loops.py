"""The card play's two loops, written once for every game: ``playout`` (policies play a
card-play state to its end: the lookahead's rollouts, the tests) and ``play_tricks`` (a deal's
card play in the kernel, each decision asked through ``sim.engine.kernel.ask`` and recorded).

Both read only the shared header (``sim.engine.cardplay.HEADER``): the place to move
(``TO_MOVE``) is observed, the player deciding there (``PLAYER``: in Skat-en-deux the defender
decides for the blind) answers with his policy and his own stream. The game's functions come
as arguments; the loops are inlined into each game's cached entry points, so every game's
are compiled with its own functions, as ``sim.policies.lookahead`` and the solver are.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.engine.cardplay import HEADER
from sim.engine.kernel import leave_state
from sim.engine.net import net_action, net_policy
from sim.engine.seats import HEURISTIC, KIND_BITS, KIND_MASK, NET
from sim.rng import STREAM_SEAT0


@numba.njit(cache=True, inline="always")
def playout(state, pols, rngs, net, length, finished, observe, step, decide, features):
    """Play ``state`` to its end: the player deciding (``PLAYER``) by policy ``pols[player]``
    from the observation (``length`` long) of the place to move, drawing from his own stream
    ``rngs[player]``; ``decide(pol, obs, rng)`` is the game's card-play dispatch. A ``net``
    player's card is his network's in ``net`` (read through the feature spec ``features``),
    as in the kernel (``play_tricks``); the heuristic's where the network does not play the
    decision."""
    obs = np.zeros(length, np.int64)
    while not finished(state):
        player = state[HEADER.PLAYER]
        observe(state, state[HEADER.TO_MOVE], obs)
        pol = pols[player]
        if pol >= 0 and (pol & KIND_MASK) == NET:
            action = net_action(net, pol >> KIND_BITS, features, obs)
            if action < 0:
                action = decide(HEURISTIC, obs, rngs[player])
        else:
            action = decide(pol, obs, rngs[player])
        step(state, action)


@numba.njit(cache=True, inline="always")
def play_tricks(state, obs, pols, streams, io, finished, observe, step, decision, after_step, features):
    """A deal's card play in the kernel, until it is over or the deal stops (a replay error,
    a person to ask, a solving player's card: ``io.err``). Whether it got to the end.

    The place to move is shown its observation ``obs``; ``decision(state, obs, pol, rng,
    io)`` is the game's question there (a card, or one of its own card-play decisions),
    asked of the deciding player's policy with his seat's stream ``streams[STREAM_SEAT0 +
    player]`` and recorded; the answer is stepped, and ``after_step(state, io)`` records what
    the step set off (the duel's marker events; ``nothing_after`` elsewhere). A ``net`` seat's
    card is its network's, read from the observation through the game's feature spec
    ``features`` (``net_policy``). At a solving player's stop the card-play state is left for
    him (``leave_state``)."""
    while not finished(state):
        player = state[HEADER.PLAYER]
        observe(state, state[HEADER.TO_MOVE], obs)
        pol = pols[player]
        if pol >= 0 and (pol & KIND_MASK) == NET:  # io.net untouched elsewhere: no reference counts
            pol = net_policy(pol, obs, io.net, features)
        action = decision(state, obs, pol, streams[STREAM_SEAT0 + player], io)
        if io.err[0]:
            leave_state(pol, state, obs, io)
            return False
        step(state, action)
        after_step(state, io)
    return True


@numba.njit(cache=True, inline="always")
def nothing_after(state, io):
    """``play_tricks``'s ``after_step`` of a game whose steps record nothing."""

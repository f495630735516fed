"""The lookahead player's card-play decision, the same for every game: sample worlds, play
each legal action out with the heuristic, take the best mean outcome.

At a card-play decision with more than one legal action, the player deals ``worlds``
times what the seat cannot see (the game's ``world``: from the observation alone, uniformly
among the deals consistent with it, ``sim.search.worlds``). In every world it plays each
legal action, then plays the deal to its end with the heuristic at every seat (the game's
compiled ``playout`` over its card-play state), and scores the end for the deciding
player's side (the game's ``value``). The rollouts of one world share their random streams
across the actions (common random numbers), and everything is drawn from the deciding
seat's own stream, so a deal stays reproducible whatever the jobs or shard size.

A decision's rollouts (the policy's option, ``lookahead:N``) are spread over its actions:
``max(1, N // actions)`` worlds, each played once per action. Ties go to the heuristic's own
choice, so where the rollouts cannot tell the actions apart it plays as the heuristic.

A decision before the card play (a bid, the skat, a discard, a declaration, a give-up) goes
through ``best_action`` (or ``action_values``, for the means themselves) with a world and a
step of its own, the game's ``pregame_world`` or ``declaration_world``.

A card-play decision is weighed by ``decision_values``, which each game binds to its
functions once (its package's ``lookahead.card_values``: the lookahead seat plays ``choose``
of it, and a learned player is taught from it, ``sim.learn``). These pieces are inlined into
the game's function that calls them: a compiled function that receives compiled functions as
arguments could not be cached with its caller, and the kernel's shard loop must be.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from sim.cards import lsb, popcount
from sim.engine.cardplay import HEADER
from sim.engine.net import no_net
from sim.engine.seats import HEURISTIC, KIND_BITS, KIND_MASK, LOOKAHEAD, NET
from sim.rng import mix64, next_u64

INLINE_NRT: Any = {"cache": True, "inline": "always", "_nrt": True}
"""Compile options of the search's pieces: inlined (see the module text), with reference
counting (they allocate their worlds' states)."""

@numba.njit(cache=True, inline="always")
def is_lookahead(pol):
    """Whether kernel id ``pol`` is the lookahead player."""
    return pol >= 0 and (pol & KIND_MASK) == LOOKAHEAD


@numba.njit(cache=True, inline="always")
def rollouts_of(pol):
    """The rollouts per decision of a lookahead kernel id (its option)."""
    return max(np.int64(1), pol >> KIND_BITS)


@numba.njit(cache=True, inline="always")
def simple(pol):
    """The policy that answers where the lookahead player has nothing to weigh (a single
    legal card): the heuristic for a lookahead id, else the id itself."""
    return HEURISTIC if is_lookahead(pol) else pol


@numba.njit(cache=True, inline="always")
def choose(actions, means, prefer):
    """The lookahead player's action among a decision's legal ``actions`` with their mean
    outcomes ``means`` (``decision_values``, ``action_values``): the best, ties going to
    ``prefer``, the heuristic's own choice; a single legal action is played as it is, and
    ``prefer`` where there is none."""
    n = actions.shape[0]
    if n <= 1:
        return actions[0] if n else prefer
    return actions[best_of(means, actions == prefer)]


@numba.njit(**INLINE_NRT)
def decision_values(obs, rng, rollouts, length, players, world, legal, step, playout, value, net):
    """The legal actions at a card-play decision and the mean outcome of each for the
    deciding player's side (``action_values``), from his observation ``obs`` alone: what the
    lookahead player weighs, and what a learned player is taught (``sim.learn``). A single
    legal action is not played out (its mean: 0).

    ``world(obs, rng, state)`` fills ``state`` (``length`` long) with a sampled world of the
    decision; ``legal``, ``step`` and ``playout(state, pols, rngs)`` are the game's card-play
    functions (``players`` players); ``value(state, player)`` scores a finished state for
    ``player``'s side. Each game binds its functions to it once (its ``card_values``), and
    its lookahead seat plays ``choose`` of what that gives."""
    base = np.empty(length, np.int64)
    world(obs, rng, base)
    mask = np.uint64(legal(base))
    n = popcount(mask)
    actions = np.empty(n, np.int64)
    m = mask
    for k in range(n):
        actions[k] = lsb(m)
        m &= m - np.uint64(1)
    if n <= 1:
        return actions, np.zeros(n)
    return actions, action_values(obs, rng, rollouts, actions, base, base[HEADER.PLAYER],
                                  players, world, step, playout, value, net)


@numba.njit(**INLINE_NRT)
def best_action(obs, rng, rollouts, prefer, actions, base, player, players, world, step,
                playout, value):
    """The action among ``actions`` with the best mean outcome for ``player``'s side
    (``action_values``); ties go to ``prefer``, the heuristic's own choice."""
    means = action_values(obs, rng, rollouts, actions, base, player, players, world, step,
                          playout, value, no_net())
    return choose(actions, means, prefer)


@numba.njit(cache=True, inline="always")
def best_of(means, preferred):
    """The index of the best of ``means``; among equal bests the first ``preferred`` one
    (the heuristic's choice), else the first."""
    best = -1
    for k in range(means.shape[0]):
        if best < 0 or means[k] > means[best] or (means[k] == means[best] and preferred[k]):
            best = k
    return best


@numba.njit(**INLINE_NRT)
def action_values(obs, rng, rollouts, actions, base, player, players, world, step, playout,
                  value, net):
    """The mean outcome for ``player``'s side of each of ``actions`` over
    ``max(1, rollouts // len(actions))`` worlds, each played once per action with the same
    streams (``base`` holds the first world; ``world`` deals the others). ``step(state,
    action)`` applies an action, ``playout`` plays the state out with the heuristic,
    ``value(state, player)`` scores it. A decision before the card play (a bid, the skat, a
    declaration) uses it with its own world and step."""
    n = actions.shape[0]
    worlds = max(1, rollouts // n)
    totals = np.zeros(n)
    state = np.empty(base.shape[0], np.int64)
    pols = np.full(players, NET if net.w1.shape[0] else HEURISTIC, np.int64)
    rngs = np.empty((players, 1), np.uint64)
    for w in range(worlds):
        if w:
            world(obs, rng, base)
        key = next_u64(rng)
        for k in range(n):
            state[:] = base
            step(state, actions[k])
            for p in range(players):
                rngs[p, 0] = mix64(key + np.uint64(p + 1) * np.uint64(0x9E3779B97F4A7C15))
            playout(state, pols, rngs, net)
            totals[k] += value(state, player)
    return totals / worlds

"""The card-play phase of every game as a state and pure functions (pgx's shape).

A card-play state is one flat ``int64`` array: everything the rest of the deal's card play
depends on (hands, the trick, points and tricks taken, the contract, what has been shown),
at offsets its game names with a ``NamedTuple`` of field sizes (``offsets``). Its first
fields are the same in every game (``Header``): who is to act, who decides there, what the
action means, and whether the card play is over.

Each game's card play module provides, compiled (``numba.njit``) so kernels and search can
call them:

* ``legal(state)``: the actions allowed now, as a mask (cards for a play; a game's own
  codes for its other card-play decisions, such as Skat-en-deux's offers);
* ``step(state, action)``: play it, in place (copy the array first to branch: ``state.copy()``
  is a whole independent position);
* ``observe(state, seat, obs)``: fill ``obs`` with what ``seat`` may know of the position,
  in the game's observation layout, exactly as the kernel shows it to that seat;
* ``finished(state)``: whether the card play is over;

and, for Python, a ``CardPlay`` in the game's declaration (``Game.card_play``) that also
builds the state of a recorded deal and reads its result. The kernels play their card
play through these same functions, so one rule lives in one place.

>>> from typing import NamedTuple
>>> class Demo(NamedTuple):
...     TO_MOVE: int = 1
...     PLAYER: int = 1
...     PHASE: int = 1
...     DONE: int = 1
...     HANDS: int = 2
>>> fields, length = offsets(Demo)
>>> fields.HANDS, length
(4, 6)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

import numpy as np


class Header(NamedTuple):
    """The fields every game's card-play state starts with, one value each."""

    TO_MOVE: int = 1
    """The seat (table place) whose turn it is."""
    PLAYER: int = 1
    """Who decides there: the seat's player (in Skat-en-deux the defender decides for the
    blind)."""
    PHASE: int = 1
    """What the next action means: ``PLAY`` (a card), or one of the game's own decisions."""
    DONE: int = 1
    """1 once the card play is over."""


PLAY = 0
"""``PHASE`` of a card to play: the action is the card's bit index."""

HEADER_FIELDS = Header._fields

F = TypeVar("F", bound=tuple[int, ...])


def offsets(layout: type[F]) -> tuple[F, int]:
    """The offsets of a layout whose fields' defaults are their sizes, and its length: the
    fields one after another in the order they are named.

    The layout's instance of offsets is what compiled code indexes with (``S.HANDS + seat``):
    numba reads a global ``NamedTuple`` as constants."""
    make: Any = layout
    at = 0
    out = []
    for size in make():
        out.append(at)
        at += size
    return make(*out), at


HEADER, _ = offsets(Header)
"""The header's offsets, the same in every game's state (``state[HEADER.PLAYER]``)."""


@dataclass(frozen=True)
class CardPlay:
    """A game's card-play phase for Python: its state layout and compiled functions, and how
    to set up a recorded deal's card play and read its result.

    ``start(columns, i, rows, rules=None)`` is the state when deal ``i`` of a played batch
    (its result ``columns`` and recorded action ``rows``, played under ``rules``; without
    them, the rules the record shows) reaches its card play, with the recorded card-play
    actions that follow as the state's actions; ``None`` for a deal without card play
    (thrown in, given up). ``result(state)`` is what a finished state says of the
    deal, by result column name, for comparing with the columns. ``playout(state, pols,
    rngs, net)`` plays a state to its end with the policies (kernel ids, one per player), each
    player drawing from its own stream ``rngs[player]`` (``uint64[players, 1]``), a ``net``
    player with his network in ``net`` (``sim.engine.net.NO_NET`` where none plays)."""

    fields: tuple[int, ...]
    """The state's offsets (a ``NamedTuple`` starting with ``Header``'s fields)."""
    length: int
    legal: Callable[[np.ndarray], Any]
    step: Callable[[np.ndarray, int], None]
    observe: Callable[[np.ndarray, int, np.ndarray], None]
    finished: Callable[[np.ndarray], bool]
    decide: Callable[[int, np.ndarray, np.ndarray], int]
    """``decide(pol, obs, rng)``: policy ``pol``'s action at a card-play decision, from the
    deciding player's observation and own stream (the game's dispatcher, ``sim.engine.seats``)."""
    playout: Callable[[np.ndarray, np.ndarray, np.ndarray, Any], None]
    start: Callable[..., tuple[np.ndarray, Sequence[int]] | None]
    result: Callable[[np.ndarray], dict[str, int]]
    action_values: Callable[[np.ndarray, np.ndarray, int, Any], tuple[np.ndarray, np.ndarray]] | None = None
    """``action_values(obs, rng, rollouts, net)``: the legal actions at a card-play decision
    and the lookahead's mean outcome of each for the deciding player's side, from his
    observation and a stream, the rollouts played by the heuristic or by the network in
    ``net`` (``sim.policies.lookahead.decision_values``); ``None`` for a game without the
    lookahead. The teacher of a learned player (``sim.learn``)."""
    opening: Callable[..., tuple[np.ndarray, Sequence[int]] | None] | None = None
    """``opening(columns, i, rows, rules=None)``: where a deal plays a round of tricks before
    the card play ``start`` begins (Doko-Skat's first round, which decides the teams), that
    round's state and recorded plays, as ``start``'s; the network plays it too and is taught
    from both (``sim.learn.decisions``). ``None``: no such round."""

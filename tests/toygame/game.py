"""A toy trick-taking game (``toy``), declared as a fifth game would be (docs/architecture.md).

What the game is
----------------
* Players: 2, seats 0 and 1; in deal ``d`` seat ``d % 2`` deals and the other leads.
* Deck: 12 cards, the aces, kings and queens of the four suits (``DECK``): 6 to each
  player, 72 card points (A 11, K 4, Q 3).
* Phases: deal; 6 two-card tricks, no trumps: follow suit if you can, the higher card of
  the suit led wins; settlement: each player scores his card points, plus
  ``last_trick_bonus`` for the last trick; the higher score wins the deal.
* Options: ``OPTIONS`` below.
* Policies: random, heuristic and lookahead.

The card play's rules, state and random and heuristic players live in ``toygame.cardplay``
(this module re-exports its names for the toy's users), the lookahead player in
``toygame.lookahead`` with its worlds in ``toygame.worlds``; the kernel asks every card of
``toygame.lookahead.decide``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numba
import numpy as np

from sim import actions as A
from sim import source_hash
from sim.cards import bit
from sim.engine.cardplay import CardPlay
from sim.engine.deals import Group, Layout
from sim.engine.game import Game, Outcome
from sim.engine.kernel import (
    KernelTag,
    ask,
    card_row,
    card_value,
    deal_scratch,
    implements,
    order_deck,
)
from sim.engine.kernel import play_deal as kernel_play_deal
from sim.engine.loops import nothing_after, play_tricks
from sim.engine.net import NO_FEATURES
from sim.options import Option, OptionTable
from sim.rng import STREAM_DEAL, STREAM_SEAT0, stream_key
from toygame.cardplay import (  # noqa: F401  (the toy's names, for its users)
    DECK,
    EFF,
    HAND,
    N_CARDS,
    N_PLAYERS,
    OB,
    POINTS,
    STATE_LENGTH,
    STRENGTH,
    SUIT_MASKS,
    TRICKS,
    S,
    finished,
    legal,
    observe,
    playout,
    start,
    step,
)
from toygame.lookahead import card_values, decide

NAME = "toy"

OPTIONS = OptionTable([
    Option("last_trick_bonus", 0, (0, 10), "points for taking the last trick", scoring_only=True),
])


def kernel_params(rules: dict) -> np.ndarray:
    """The rules as the kernel's parameter array: each option's index among its values."""
    return OPTIONS.codes(rules)


# --- one deal ------------------------------------------------------------------------------

class Columns(NamedTuple):
    """Result column offsets by name (``COLUMNS`` order)."""

    deal: int
    dealer: int
    starter: int
    points_0: int
    points_1: int
    tricks_0: int
    tricks_1: int
    last_trick: int
    score_0: int
    score_1: int
    hand_0: int
    hand_1: int
    replay_error: int


COLUMNS = (
    ("deal", "int64"), ("dealer", "int8"), ("starter", "int8"), ("points_0", "int16"),
    ("points_1", "int16"), ("tricks_0", "int8"), ("tricks_1", "int8"), ("last_trick", "int8"),
    ("score_0", "int16"), ("score_1", "int16"), ("hand_0", "uint32"), ("hand_1", "uint32"),
    ("replay_error", "int16"),
)
C = Columns(*range(len(COLUMNS)))
assert C._fields == tuple(name for name, _ in COLUMNS)


@numba.njit(cache=True)
def _deal(rng, perm, hands, preset):
    """Shuffle (or lay ``preset``) and deal six cards to each player, seat 0 first."""
    order_deck(rng, perm, preset, 0)
    for s in range(N_PLAYERS):
        h = np.uint64(0)
        for k in range(HAND):
            h |= bit(perm[HAND * s + k])
        hands[s] = h


@numba.njit(cache=True, inline="always")
def _decide(state, pol, obs, rng):
    return decide(pol, obs, rng)


@numba.njit(cache=True)
def _tricks(state, pols, rngs, obs, io):
    """The six tricks: the player to move sees his observation and plays."""
    play_tricks(state, obs, pols, rngs, io, finished, observe, step, _card, nothing_after, NO_FEATURES)


@numba.njit(cache=True, inline="always")
def _card_allowed(state, obs, card):
    """A replayed card as the engine holds it, or -1 when it may not be played now."""
    if 0 <= card < N_CARDS and (legal(state) >> np.uint64(card)) & np.uint64(1):
        return card
    return -1


@numba.njit(cache=True, inline="always")
def _card(state, obs, pol, rng, io):
    """The card the player to move plays (``play_tricks``'s decision)."""
    return ask(pol, state[S.PLAYER], obs, rng, _decide, _card_allowed, card_row, card_value,
               state, io)


@numba.njit(cache=True)
def settle(points0, points1, last, bonus):
    """Both scores: card points, plus ``bonus`` for the taker of the last trick."""
    return points0 + (bonus if last == 0 else 0), points1 + (bonus if last == 1 else 0)


def rescore(columns: dict[str, np.ndarray], rules: dict) -> dict[str, np.ndarray]:
    """Played deals' columns under another ``last_trick_bonus``."""
    last = columns["last_trick"].astype(np.int64)
    bonus = int(rules["last_trick_bonus"])
    out = dict(columns)
    for s in range(N_PLAYERS):
        out[f"score_{s}"] = (columns[f"points_{s}"] + np.where(last == s, bonus, 0)).astype(np.int16)
    return out


@numba.njit(cache=True)
def play_deal(seed, deal, params, pols, row, obs, rngs, hands, perm, state, io, preset):
    """Deal, play and score deal ``deal`` into ``row``."""
    for s in range(rngs.shape[0]):
        rngs[s, 0] = stream_key(seed, deal, s)
    dealer = deal % N_PLAYERS
    _deal(rngs[STREAM_DEAL], perm, hands, preset)
    row[:] = 0
    row[C.deal] = deal
    row[C.dealer] = dealer
    row[C.starter] = 1 - dealer
    row[C.hand_0] = np.int64(hands[0])
    row[C.hand_1] = np.int64(hands[1])
    row[C.last_trick] = -1
    io.cur[0] = 0
    io.nlog[0] = 0
    obs[:] = 0
    start(state, hands, 1 - dealer)
    _tricks(state, pols, rngs, obs, io)
    row[C.replay_error] = io.err[0]
    for s in range(N_PLAYERS):
        row[C.points_0 + s] = state[S.POINTS + s]
        row[C.tricks_0 + s] = state[S.TRICKS + s]
    row[C.last_trick] = state[S.LAST]
    bonus = OPTIONS_VALUES[params[0]]
    row[C.score_0], row[C.score_1] = settle(state[S.POINTS], state[S.POINTS + 1], state[S.LAST],
                                            bonus)


OPTIONS_VALUES = np.array(OPTIONS.by_name["last_trick_bonus"].allowed, np.int64)
"""``last_trick_bonus``'s values by code (``kernel_params``)."""


@implements(deal_scratch, NAME)
def _deal_scratch(game):
    return (np.zeros(OB.LENGTH, np.int64), np.zeros((STREAM_SEAT0 + N_PLAYERS, 1), np.uint64),
            np.zeros(N_PLAYERS, np.uint64), np.zeros(N_CARDS, np.int64),
            np.zeros(STATE_LENGTH, np.int64))


@implements(kernel_play_deal, NAME)
def _play_deal(game, seed, deal, params, pols, values, row, work, io,
               preset):
    obs, rngs, hands, perm, state = work
    play_deal(seed, deal, params, pols, row, obs, rngs, hands, perm, state, io, preset)


# --- for Python: a recorded deal's card play --------------------------------------------------

def _start_recorded(columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
                    rules: Mapping[str, Any] | None = None) -> tuple[np.ndarray, Sequence[int]]:
    """Deal ``i``'s state before its first trick and its recorded plays (the rules do not
    change the toy's card play)."""
    state = np.zeros(STATE_LENGTH, np.int64)
    hands = np.array([columns["hand_0"][i], columns["hand_1"][i]], np.uint64)
    start(state, hands, int(columns["starter"][i]))
    return state, [int(r[2]) for r in rows if r[0] == A.PLAY]


def _result(state: np.ndarray) -> dict[str, int]:
    return {"points_0": int(state[S.POINTS]), "points_1": int(state[S.POINTS + 1]),
            "tricks_0": int(state[S.TRICKS]), "tricks_1": int(state[S.TRICKS + 1]),
            "last_trick": int(state[S.LAST])}


def _seat_won(columns: Mapping[str, np.ndarray], seat: int) -> np.ndarray:
    mine = columns[f"score_{seat}"].astype(np.int64)
    other = columns[f"score_{1 - seat}"].astype(np.int64)
    return np.where(mine == other, -1, mine > other).astype(np.int8)


GAME = Game(
    name=NAME, n_players=N_PLAYERS, deck=DECK, tricks=TRICKS, options=OPTIONS, columns=COLUMNS,
    categories={}, outcome=Outcome("score", "points", lambda c: c["starter"], _seat_won),
    observation=OB, kernel=KernelTag(NAME, source_hash(Path(__file__).parent)),
    kernel_params=kernel_params, rescore=rescore,
    deal_layout=Layout((Group("hand of player 0", HAND), Group("hand of player 1", HAND)),
                       lambda cards, dealer: cards[0] + cards[1], lambda c: list(c["hands"])),
    trace_codec="toygame.trace", screen="toygame.screen:ToyScreen",
    policies=frozenset({"random", "heuristic", "lookahead", "python"}),
    card_play=CardPlay(S, STATE_LENGTH, legal, step, observe, finished, decide, playout,
                       _start_recorded, _result, card_values))
"""The toy game's declaration."""

"""What the search tests of every game share: a seat's observation of a true card-play
state, and a world dealt from an observation, for any game's ``observe`` and ``world``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from sim.engine.play import play


def observed(observe: Callable[..., None], length: int, state: np.ndarray,
             seat: int) -> np.ndarray:
    """``seat``'s observation of ``state`` (``length`` long; fields ``observe`` leaves are
    -7)."""
    obs = np.full(length, -7, np.int64)
    observe(state, seat, obs)
    return obs


def sampled(world: Callable[..., None], length: int, obs: np.ndarray, rng: np.ndarray,
            fill: int = -99) -> np.ndarray:
    """A world ``world`` deals from ``obs`` into a buffer ``length`` long filled with
    ``fill`` (nothing of it may survive)."""
    out = np.full(length, fill, np.int64)
    world(obs, rng, out)
    return out


def scoring_only_runs(game: Any, base: dict, scoring: dict, policies: list[str],
                      deals: int) -> tuple[Any, Any]:
    """The same ``deals`` (seed 23, recorded) played under ``base`` and under ``base`` with
    the scoring-only ``scoring`` on top; re-scoring the first under the second's rules must
    give the second's columns. Returns both batches, for the caller to compare the play."""
    default = play(game, 23, 0, deals, game.rules(base), policies, record=True)
    other_rules = game.rules({**base, **scoring})
    other = play(game, 23, 0, deals, other_rules, policies, record=True)
    assert default.actions is not None and other.actions is not None
    rescored = game.rescore(default.columns, other_rules)
    for key, column in other.columns.items():
        assert np.array_equal(column, rescored[key]), key
    return default, other

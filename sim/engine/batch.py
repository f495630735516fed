"""One call of a game's compiled kernel: a batch of deals played, their result columns and,
if asked for, their recorded actions (``run_kernel``, ``Batch``).

Callers name policies; this module takes their kernel ids (``sim.engine.seats``), with the
internal ones (a person, a solving seat, a replay). ``sim.engine.play.play`` is the call for
policy names.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim import actions as A
from sim.engine.game import Game
from sim.engine.kernel import E_ASK, E_SOLVE, SHUFFLED, ShardIO, play_shard
from sim.engine.net import NO_NET, Net, with_scratch

_SCRATCH = threading.local()
"""Each thread's reusable result buffers, by game (threads must not share one: a threaded
Dask worker plays several shards at once)."""


def _scratch(name: str, deals: int, cols: int) -> np.ndarray:
    """A reusable result buffer ``[column, deal]``: a worker plays shard after shard of
    one size, and a fresh buffer per shard costs page faults that show up in the deals
    per second. The kernel overwrites every deal it plays; callers copy columns out.
    Each thread has its own."""
    buffers: dict[str, np.ndarray] = _SCRATCH.__dict__.setdefault("buffers", {})
    buf = buffers.get(name)
    if buf is None or buf.shape[1] < deals or buf.shape[0] != cols:
        buf = buffers[name] = np.empty((cols, deals), np.int64)
    return buf[:, :deals]


@dataclass
class Batch:
    """Deals played by one call: result columns, and the recorded actions if asked for.

    ``views``: for a deal that stopped for a person's decision (``replay_error`` is
    ``E_ASK``) or a solving player's card (``E_SOLVE``), the observation of his seat then;
    ``None`` for the others. ``states``: for a solving player's stop, the card-play state
    (``sim.engine.solving`` alone reads it: a ``dd`` player's whole deal). ``askers``: for a
    person's stop, the seat whose policy decides (-1 for the others)."""

    columns: dict[str, np.ndarray]
    actions: list[np.ndarray] | None = None
    views: list[np.ndarray | None] | None = None
    states: list[np.ndarray | None] | None = None
    askers: list[int] | None = None

    def __len__(self) -> int:
        return len(self.columns["deal"])



def run_kernel(game: Game, seed: int, first: int, count: int, rules: dict[str, Any],
               pols: np.ndarray, record: bool = False,
               script: list[np.ndarray] | None = None,
               preset: np.ndarray | None = None, net: Net = NO_NET) -> Batch:
    """``sim.engine.play.play`` of ``game`` with the seats' kernel ids (``sim.engine.seats``;
    ``SOLVING``, ``PERSON`` and ``SCRIPTED`` included) and the networks of its ``net`` seats:
    one call of the game's compiled kernel."""
    params = game.kernel_params(rules)
    values = game.bid_values(rules)
    res = _scratch(game.name, count, len(game.columns))
    record = record or script is not None
    logs = np.zeros((count if record else 1, A.MAX_ACTIONS, A.ROW), np.int64)
    nlogs = np.zeros(count if record else 1, np.int64)
    if script is not None:
        starts = np.zeros(count + 1, np.int64)
        starts[1:] = np.cumsum([len(s) for s in script])
        flat = np.concatenate(script).astype(np.int64) if count else np.zeros((0, A.ROW), np.int64)
        flat = flat.reshape(-1, A.ROW)
    else:
        starts = np.zeros(1, np.int64)
        flat = np.zeros((0, A.ROW), np.int64)
    deck = SHUFFLED if preset is None else np.ascontiguousarray(preset, np.int64)
    play_shard(game.kernel, np.uint64(seed), first, count, params, pols, values, res,
               ShardIO(logs, nlogs, flat, starts, record, with_scratch(net)), deck)
    if record and count and nlogs.max() >= A.MAX_ACTIONS:
        raise RuntimeError(f"{game.name}: a deal needed more than {A.MAX_ACTIONS} action rows")
    columns = {name: res[j].astype(dtype) for j, (name, dtype) in enumerate(game.columns)}
    if not record:
        return Batch(columns)
    actions = [logs[i, :nlogs[i]].copy() for i in range(count)]
    size = game.observation.LENGTH
    errors = columns["replay_error"]
    views = [logs[i, nlogs[i]:].ravel()[:size].copy() if errors[i] in (E_ASK, E_SOLVE)
             else None for i in range(count)]
    states = None
    if game.card_play is not None and (errors == E_SOLVE).any():
        length = game.card_play.length
        states = [logs[i, nlogs[i]:].ravel()[size:size + length].copy()
                  if errors[i] == E_SOLVE else None for i in range(count)]
    askers = [int(logs[i, nlogs[i]:].ravel()[size]) if errors[i] == E_ASK else -1
              for i in range(count)]
    return Batch(columns, actions, views, states, askers)

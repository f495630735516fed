"""What every game module provides, and the one call that plays a batch of deals.

A game module (``sim.games.skat`` ...) opens with what the game is, declares its
``OPTIONS``, its result ``COLUMNS`` and a compiled ``play_shard`` kernel; a
``Game`` wraps it for the runner, the traces and the CLI.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from sim import actions as A
from sim.cards import Deck
from sim.games.kernel import E_ASK, SHUFFLED
from sim.options import OptionTable
from sim.policies import PERSON, SCRIPTED, SEATED, policy_ids

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
    ``E_ASK``), the observation of his seat then; ``None`` for the others."""

    columns: dict[str, np.ndarray]
    actions: list[np.ndarray] | None = None
    views: list[np.ndarray | None] | None = None

    def __len__(self) -> int:
        return len(self.columns["deal"])


@dataclass(frozen=True)
class Game:
    """A registered game: its metadata, options and kernel."""

    module: ModuleType

    @property
    def name(self) -> str:
        return self.module.NAME

    @property
    def n_players(self) -> int:
        return self.module.N_PLAYERS

    @property
    def deck(self) -> Deck:
        return self.module.DECK

    @property
    def options(self) -> OptionTable:
        return self.module.OPTIONS

    @property
    def columns(self) -> tuple[tuple[str, str], ...]:
        return self.module.COLUMNS

    @property
    def observation(self) -> ModuleType:
        """The module naming the fields of a seat's observation (``LENGTH`` of them)."""
        return self.module.OBSERVATION

    def rules(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """Every option's value, ``given`` overriding the defaults (validated)."""
        return self.options.resolve(given, self.name)

    def rescore(self, columns: dict[str, np.ndarray], rules: dict[str, Any]) -> dict[str, np.ndarray]:
        """Columns of deals played under rules with the same ``options.play_rules``,
        scored under ``rules`` (only scoring-only options may differ)."""
        return self.module.rescore(columns, rules)

    def play(self, seed: int, first: int, count: int, rules: dict[str, Any],
             policies: list[str], record: bool = False,
             script: list[np.ndarray] | None = None,
             preset: np.ndarray | None = None) -> Batch:
        """Play deals ``first .. first + count - 1`` under ``seed``.

        ``record`` keeps every deal's actions; ``script`` (one action array per
        deal) replays recorded actions instead of asking the policies: for every seat,
        or, where seats are named ``person``, for those only (the others play their
        policies), and a deal stops at a person's decision its script lacks
        (``Batch.views``). ``preset`` deals every deal from that order of the cards
        instead of shuffling (a deal given by hand).
        """
        m = self.module
        pols = np.array(policy_ids(policies, self.n_players, self.name, SEATED), np.int64)
        if script is None and PERSON in pols:
            raise ValueError("a person's seat needs a script (his decisions so far)")
        if script is not None and PERSON not in pols:
            pols[:] = SCRIPTED
        params = m.kernel_params(rules)
        values = m.bid_list(rules) if hasattr(m, "bid_list") else np.zeros(1, np.int64)
        res = _scratch(self.name, count, len(m.COLUMNS))
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
        m.play_shard(np.uint64(seed), first, count, params, pols, values, res, logs, nlogs,
                     flat, starts, record, deck)
        if record and count and nlogs.max() >= A.MAX_ACTIONS:
            raise RuntimeError(f"{self.name}: a deal needed more than {A.MAX_ACTIONS} action rows")
        columns = {name: res[j].astype(dtype) for j, (name, dtype) in enumerate(m.COLUMNS)}
        if not record:
            return Batch(columns)
        actions = [logs[i, :nlogs[i]].copy() for i in range(count)]
        size = self.observation.LENGTH
        views = [logs[i, nlogs[i]:].ravel()[:size].copy() if columns["replay_error"][i] == E_ASK
                 else None for i in range(count)]
        return Batch(columns, actions, views)

"""What every game declares, and the one call that plays a batch of deals.

A game module (``sim.games.skat`` ...) opens with what the game is, then its options,
result columns, phases and compiled kernel, and ends with one ``Game`` declaration that
the registry (``sim.registry``) collects for the runner, the traces, the table and the CLI.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from sim import actions as A
from sim.cards import Deck
from sim.deals import Layout
from sim.games.cardplay import CardPlay
from sim.games.kernel import E_ASK, E_SOLVE, SHUFFLED, KernelTag, play_shard
from sim.options import OptionTable
from sim.policies import PERSON, SCRIPTED, SEATED, is_solving, policy_ids

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
    (``sim.policies.solving`` alone reads it: a ``dd`` player's whole deal)."""

    columns: dict[str, np.ndarray]
    actions: list[np.ndarray] | None = None
    views: list[np.ndarray | None] | None = None
    states: list[np.ndarray | None] | None = None

    def __len__(self) -> int:
        return len(self.columns["deal"])


class ObservationLayout(Protocol):
    """A seat's observation layout: how many fields, and where its seat and its legal
    cards are (each game's ``FIELDS`` offsets have these and more)."""

    @property
    def LENGTH(self) -> int: ...

    @property
    def SEAT(self) -> int: ...

    @property
    def LEGAL(self) -> int: ...


@dataclass(frozen=True)
class Outcome:
    """How a deal's result reads the same in every game: what ``analysis`` needs.

    The runner writes ``start_seat`` and ``won_<s>`` columns from these into every shard,
    and the rest as file metadata (``sim.runner``), since ``analysis`` never imports
    ``sim``."""

    score: str
    """Per-seat score column prefix: ``score`` for ``score_0``, ``score_1`` ..."""
    unit: str
    """What a score counts, for tables and figures: ``points`` or ``VP``."""
    start_seat: Callable[[Mapping[str, np.ndarray]], np.ndarray]
    """The seat that leads the first trick, from a shard's columns."""
    seat_won: Callable[[Mapping[str, np.ndarray], int], np.ndarray]
    """Whether seat ``s``'s side won each deal: 1 won, 0 lost, -1 nobody won (thrown in, a
    draw, a ramsch all three lose)."""


def forehand(n_players: int) -> Callable[[Mapping[str, np.ndarray]], np.ndarray]:
    """``Outcome.start_seat`` of a game whose forehand, the seat after the dealer, leads."""
    return lambda columns: (columns["dealer"].astype(np.int64) + 1) % n_players


def no_bids(rules: dict[str, Any]) -> np.ndarray:
    """The bid values of a game without bidding: none (the kernel's ``values`` argument)."""
    return np.zeros(1, np.int64)


@dataclass(frozen=True)
class Game:
    """Everything the rest of the project needs of a game: the one declaration a game
    module ends with (``GAME``), collected by ``sim.registry``."""

    name: str
    """The game's id (RULES.md)."""
    n_players: int
    deck: Deck
    tricks: int
    """Tricks in a deal's main card play."""
    options: OptionTable
    columns: tuple[tuple[str, str], ...]
    """Result columns: name and Parquet type, in kernel order."""
    categories: Mapping[str, tuple[str, ...]]
    """Integer-coded columns written as labels: column -> label of code 0, 1, ... (-1: null)."""
    outcome: Outcome
    observation: ObservationLayout
    """What names the fields of a seat's observation (the game's observation module)."""
    kernel: KernelTag
    """The game's kernel tag: ``sim.games.kernel.play_shard`` plays the game's deals with the
    ``play_deal`` its module implements for it."""
    kernel_params: Callable[[dict[str, Any]], np.ndarray]
    """The rules as the kernel's parameter array."""
    rescore: Callable[[dict[str, np.ndarray], dict[str, Any]], dict[str, np.ndarray]]
    """Columns of deals played under rules with the same ``options.play_rules``, scored
    under other rules (only scoring-only options may differ)."""
    deal_layout: Layout
    """How a deal is written by hand and the order the kernel deals its cards from."""
    trace_codec: str
    """Import path of the module whose ``CODEC`` reads and writes the game's traces."""
    screen: str
    """``module:factory`` of the table screen (``stichsim play``), made with ``(game,
    rules, seat, number)``; imported only when a person sits down."""
    card_play: CardPlay | None = None
    """The card-play phase as a state and pure functions (``sim.games.cardplay``)."""
    bid_values: Callable[[dict[str, Any]], np.ndarray] = no_bids
    """The bid values reachable under the rules (the kernel's ``values``)."""

    def rules(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """Every option's value, ``given`` overriding the defaults (validated)."""
        return self.options.resolve(given, self.name)

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
        instead of shuffling (a deal given by hand). Solving players (``pimc``, ``dd``)
        choose their cards outside the kernel (``sim.policies.solving``).
        """
        pols = np.array(policy_ids(policies, self.n_players, self.name, SEATED), np.int64)
        if script is None and PERSON in pols:
            raise ValueError("a person's seat needs a script (his decisions so far)")
        if script is not None and PERSON not in pols:
            pols[:] = SCRIPTED
        elif any(is_solving(int(p)) for p in pols):
            from sim.policies.solving import play_solving  # the solvers compile only when used
            return play_solving(self, seed, first, count, rules, pols, record, script, preset)
        return self.run_kernel(seed, first, count, rules, pols, record, script, preset)

    def run_kernel(self, seed: int, first: int, count: int, rules: dict[str, Any],
                   pols: np.ndarray, record: bool = False,
                   script: list[np.ndarray] | None = None,
                   preset: np.ndarray | None = None) -> Batch:
        """``play`` with the seats' kernel ids (``sim.policies``; ``SOLVING``, ``PERSON`` and
        ``SCRIPTED`` included): one call of the game's compiled kernel."""
        params = self.kernel_params(rules)
        values = self.bid_values(rules)
        res = _scratch(self.name, count, len(self.columns))
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
        play_shard(self.kernel, np.uint64(seed), first, count, params, pols, values, res, logs, nlogs,
                     flat, starts, record, deck)
        if record and count and nlogs.max() >= A.MAX_ACTIONS:
            raise RuntimeError(f"{self.name}: a deal needed more than {A.MAX_ACTIONS} action rows")
        columns = {name: res[j].astype(dtype) for j, (name, dtype) in enumerate(self.columns)}
        if not record:
            return Batch(columns)
        actions = [logs[i, :nlogs[i]].copy() for i in range(count)]
        size = self.observation.LENGTH
        errors = columns["replay_error"]
        views = [logs[i, nlogs[i]:].ravel()[:size].copy() if errors[i] in (E_ASK, E_SOLVE)
                 else None for i in range(count)]
        states = None
        if self.card_play is not None and (errors == E_SOLVE).any():
            length = self.card_play.length
            states = [logs[i, nlogs[i]:].ravel()[size:size + length].copy()
                      if errors[i] == E_SOLVE else None for i in range(count)]
        return Batch(columns, actions, views, states)

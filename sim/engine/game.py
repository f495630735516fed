"""What every game declares: the one ``Game`` a game's package ends with (``GAME``), which
the registry (``sim.registry``) collects for the runner, the traces, the table and the CLI.

A declaration is data: what the game is, its options, result columns, kernel tag, card play and
codecs, and what it supports (its policies, its solver, its warm-up cost). Playing it is
``sim.engine.play.play``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from sim.cards import Deck
from sim.engine.cardplay import CardPlay
from sim.engine.deals import Layout
from sim.engine.kernel import KernelTag
from sim.engine.net import Spec
from sim.engine.seats import POLICIES
from sim.options import OptionTable


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


BASIC_POLICIES = frozenset({"random", "heuristic", "python"})
"""The policies every game supports: the random player, its heuristic and a player written in
Python (``python:FILE.py:FUNCTION``, asked through the game's table screen)."""
EVERY_POLICY = frozenset(POLICIES)
"""Every policy: a game with lookahead hooks and a solver supports them all."""


@dataclass(frozen=True)
class Solver:
    """A game's double-dummy solver, as its declaration names it."""

    module: str
    """Import path of the module with the solver's entry points, imported when first used:
    ``prepare``, ``question``, ``count``, ``bound``, ``counts_after``, ``new_workspace`` and
    ``TT_BITS`` (``stichsim solve``, hindsight, the bench), ``pimc_card``, ``dd_card`` and
    ``card_row`` (the solving players), ``pimc_values`` (the ``pimc:N`` teacher of a learned
    player, ``sim.learn``) and ``SAME_NAME_SAME_MOVE`` (whether two legal cards
    of one name are one move: not where they lie in two places, the duel's hand and
    pyramid)."""
    bench_positions: int
    """Trick-1 positions ``stichsim bench --solver`` times when none are asked for."""
    bench_target: int = 0
    """A count the bench also asks whether the maximizers reach, on every question of card
    points (``reach_61``: the declarer's win in the Skat family); 0: none."""


@dataclass(frozen=True)
class Answers:
    """The yes-or-no questions before the card play a game's network may answer (bids, the
    pickup ...) and how a learned player is taught them (``sim.learn.decisions``): each is
    shown with the answers 0 (no) and 1 (yes) as its legal actions."""

    phases: int
    """The questions, a mask over the observation's phase codes: a seat is asked them before
    any other decision of his (the discard, the declaration, the cards)."""
    values: Callable[[np.ndarray, np.ndarray, int, Any], tuple[np.ndarray, np.ndarray]]
    """``values(obs, rng, rollouts, net)``: the answers and the lookahead's mean outcome of
    each for the seat asked, from his observation (as ``CardPlay.action_values``)."""
    yes_kinds: frozenset[int]
    """The action kinds a recorded yes is written as (``sim.actions``); any other row a no."""
    declined: Mapping[int, int]
    """Phase -> the kind of its yes, for the questions whose no leaves no row (a person's
    script writes it as a ``DECLINE`` of that kind)."""


@dataclass(frozen=True)
class Learned:
    """A game's learned player (``net``), as its declaration names it."""

    features: Spec
    """The network's input: the game's feature spec (``sim.engine.net``)."""
    weights: str
    """Import path of the package holding the shipped weights, ``net.npz`` (written by
    ``stichsim train``)."""
    answers: Answers | None = None
    """The questions before the card play its network may answer, where its spec's head
    gives their phases; ``None``: the heuristic answers every one."""


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
    """The game's kernel tag: ``sim.engine.kernel.play_shard`` plays the game's deals with the
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
    """The card-play phase as a state and pure functions (``sim.engine.cardplay``)."""
    bid_values: Callable[[dict[str, Any]], np.ndarray] = no_bids
    """The bid values reachable under the rules (the kernel's ``values``)."""
    policies: frozenset[str] = BASIC_POLICIES
    """The policies the game supports (``sim.engine.seats.POLICIES``): ``lookahead`` needs
    its lookahead hooks in the game's dispatch, ``pimc`` and ``dd`` its ``solver``."""
    solver: Solver | None = None
    """The game's double-dummy solver, or ``None``."""
    net: Learned | None = None
    """The learned player's network (``net``): its input features and shipped weights."""
    restrictions: str | None = None
    """Import path of the module whose ``RESTRICTIONS`` names the game's restrictions of the
    ``restricted`` player (``sim.engine.restricted_player``); ``None``: none."""
    compile_seconds: int = 0
    """About how long the game's kernel takes to compile from a cold cache (on the machine
    the project's timings come from): ``sim.warm`` compiles the slowest first, so that the
    cores finish together."""

    def rules(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """Every option's value, ``given`` overriding the defaults (validated)."""
        return self.options.resolve(given, self.name)

    def table_screen(self, rules: dict[str, Any], seat: int, number: int) -> Any:
        """The table screen (``screen``) of a person at ``seat`` in deal ``number`` under
        ``rules``, its module imported only now: ``sim.play.screen_for`` types it."""
        module, _, factory = self.screen.partition(":")
        return getattr(importlib.import_module(module), factory)(self, rules, seat, number)


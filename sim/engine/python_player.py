"""A player written in Python: ``python:FILE.py:FUNCTION`` plays a seat by a function
``decide(d) -> action`` that a user writes.

The function receives a ``Decision``: what is asked and its legal actions by their names
(cards such as ``"CJ"``, bids such as ``"18"`` and ``"pass"``, games such as ``"grand"``), the
seat's observation as named fields, the rules, and a random stream of its own. It returns one
of the legal names (a discard: as many card names as ``pick``). It sees what its seat sees and
nothing else: the decision is made from the seat's observation alone, never the deal, and
holds neither the seed nor the deal's number.

The legal actions and their names are the table screen's (``Game.screen``, the questions a
person answers in ``stichsim play``), so a Python player is asked exactly what a person is.
``sim.engine.outside`` plays the deals: the kernel stops at each of the seat's decisions
(a person's seat to it), the function answers, and the deal is played again one decision on.
A bad answer, or an error raised in the function, is a ``PlayerError``: one line naming the
decision and the legal choices.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any, Protocol

import numpy as np

from sim.actions import PLAY, ROW
from sim.engine.game import Game
from sim.engine.seats import PolicyError, python_source

Row = tuple[int, int, int, int]


class PlayerError(PolicyError):
    """A Python player that cannot be loaded, raises, or answers with no legal action."""


class ChoiceLike(Protocol):
    """One legal choice of a table screen's question (``sim.screen.questions.Choice``)."""

    @property
    def label(self) -> str: ...
    @property
    def row(self) -> Row: ...
    @property
    def keys(self) -> tuple[str, ...]: ...


class QuestionLike(Protocol):
    """A table screen's question (``sim.screen.questions.Question``)."""

    @property
    def prompt(self) -> str: ...
    @property
    def choices(self) -> tuple[ChoiceLike, ...]: ...
    @property
    def pick(self) -> int: ...


class ScreenLike(Protocol):
    """What a Python player needs of a game's table screen: the question due."""

    def question(self, view: np.ndarray) -> QuestionLike: ...


@dataclass(frozen=True)
class Decision:
    """One decision of a seat, as a Python player reads it.

    >>> d = Decision("skat", 0, 0, "play", "Your card", ("CJ", "HA"), 1,
    ...              {"hand": ("CJ", "HA")}, {}, np.random.default_rng(0), np.zeros(1, np.int64))
    >>> d.legal, d.observation["hand"]
    (('CJ', 'HA'), ('CJ', 'HA'))
    """

    game: str
    """The game's id (``skat``, ``skat_en_deux``, ``doko_duell``, ``doko_skat``)."""
    seat: int
    """The seat deciding (its policy's place in the list of policies)."""
    position: int
    """The seat's position: in Skat 0 forehand, 1 middlehand, 2 rearhand; where the game has
    no positions, the cards already in the trick (0: it leads)."""
    kind: str
    """What is asked: ``play`` for a card to play (in every game and round), else the game's
    phase (``bid``, ``answer``, ``pickup``, ``discard``, ``declare``, ``offer`` ...)."""
    prompt: str
    """The question as the table asks a person."""
    legal: tuple[str, ...]
    """The legal actions by their names; return one of them."""
    pick: int
    """How many to name at once: 1, or the cards a discard puts away (return a list)."""
    observation: Mapping[str, Any]
    """The seat's observation by field (lower-case names, the game's observation fields):
    card sets as tuples of card names, single cards as a name or ``None``, fields kept per
    seat as tuples, the rest as whole numbers."""
    rules: Mapping[str, Any]
    """The rules the deal is played under (every option's value)."""
    rng: np.random.Generator
    """The decision's own random stream (keyed by the seed, the deal and the decision, so a
    deal plays the same however it is split)."""
    array: np.ndarray
    """The same observation as the engine's array (read-only), for players that compute."""


def legal_names(question: QuestionLike) -> list[str]:
    """The choices' names: the label up to its explanation in brackets (``offer raus``), or
    the whole label where that would name two different choices (the duel's ``CJ`` in the hand
    and ``CJ (p3)`` in the pyramid)."""
    short = [c.label.split(" (")[0] for c in question.choices]
    names = []
    for name, choice in zip(short, question.choices):
        same = {c.label for t, c in zip(short, question.choices) if t == name}
        names.append(name if len(same) == 1 else choice.label)
    return names


def choose(question: QuestionLike, names: list[str], answer: Any) -> Row | str:
    """The row a Python player's ``answer`` chooses, or why it chooses none (a few words).
    An answer is a legal name, matched exactly, else without regard to case, else by a word
    that names the choice at the table (``PASS``); a discard's answer is a list of card names
    (or one string of them)."""
    words: list[Any]
    if question.pick > 1:
        words = answer.split() if isinstance(answer, str) else list(answer) if isinstance(
            answer, (list, tuple)) else [answer]
        if len(words) != question.pick:
            return f"it must name {question.pick} cards"
    else:
        words = [answer]
    chosen: list[int] = []
    for word in words:
        if not isinstance(word, str):
            return f"{word!r} is not a name"
        hits = ([k for k, n in enumerate(names) if n == word]
                or [k for k, n in enumerate(names) if n.lower() == word.lower()]
                or [k for k, c in enumerate(question.choices) if word.upper() in c.keys])
        free = [k for k in hits if k not in chosen]
        if not free:
            return f"{word!r} is not legal" if not hits else f"{word!r} is named twice"
        chosen.append(free[0])
    first = question.choices[chosen[0]].row
    if question.pick == 1:
        return first
    mask = 0
    for k in chosen:
        mask |= question.choices[k].row[2]
    return (first[0], first[1], mask, first[3])


NOT_SHOWN = frozenset({"LEGAL", "LENGTH"})
"""Observation fields a decision leaves out: the legal cards (``Decision.legal`` names every
legal action; the field means cards only in the card play) and the layout's end."""


def observation_fields(game: Game, view: np.ndarray) -> dict[str, Any]:
    """The seat's observation ``view`` by field name (``Decision.observation``), read by the
    game's observation layout: its fields' sizes, and which are card masks (``CARD_SETS``)
    and single cards (``CARD_CODES``) as its module declares."""
    layout = game.observation
    module = sys.modules[type(layout).__module__]
    names = list(type(layout)._fields)  # type: ignore[attr-defined]
    sets = set(getattr(module, "CARD_SETS", ()))
    codes = set(getattr(module, "CARD_CODES", ()))
    deck = game.deck
    out: dict[str, Any] = {}
    for k, name in enumerate(names):
        if name in NOT_SHOWN:
            continue
        at = getattr(layout, name)
        end = getattr(layout, names[k + 1]) if k + 1 < len(names) else layout.LENGTH
        values = [int(v) for v in view[at:end]]
        if name in sets:
            read: list[Any] = [tuple(deck.name_list(v)) for v in values]
        elif name in codes:
            read = [deck.names[v] if 0 <= v < deck.n_cards else None for v in values]
        else:
            read = values
        out[name.lower()] = read[0] if len(read) == 1 else tuple(read)
    return out


def phase_names(game: Game) -> dict[int, str]:
    """The game's decision phases by code, named as its observation module names them
    (``PH_DISCARD``: ``discard``)."""
    module = sys.modules[type(game.observation).__module__]
    return {int(getattr(module, n)): n[3:].lower() for n in dir(module) if n.startswith("PH_")}


def position_of(game: Game, view: np.ndarray) -> int:
    """``Decision.position``: the observation's ``POSITION`` where the game has one, else the
    cards already in the trick."""
    layout = game.observation
    at = getattr(layout, "POSITION", None)
    if at is None:
        at = getattr(layout, "TRICK_N")
    return int(view[at])


_MODULES: dict[tuple[str, int], ModuleType] = {}


def load(source: str) -> Callable[[Decision], Any]:
    """The function ``FILE.py:FUNCTION`` names (the file read again when it changed); a file
    or function that is not there, or a file that does not import, is a ``PlayerError``."""
    file, _, function = source.rpartition(":")
    path = Path(file).resolve()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        raise PlayerError(f"python player {source}: there is no file {file}") from None
    module = _MODULES.get((str(path), stamp))
    if module is None:
        name = "stichsim_player_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as e:
            raise PlayerError(f"python player {source}: {file} does not import: "
                              f"{type(e).__name__}: {e}") from None
        _MODULES[(str(path), stamp)] = module
    found = getattr(module, function, None)
    if not callable(found):
        raise PlayerError(f"python player {source}: {file} has no function {function}")
    return found  # type: ignore[no-any-return]


def shown(names: Sequence[str], most: int = 12) -> str:
    """The legal names for a message: all of them, or where they are many the first few and
    the last.

    >>> shown(["pass", *map(str, range(18, 40))], most=4)
    'pass, 18, 19, ... 39 (23 in all)'
    """
    if len(names) <= most:
        return ", ".join(names)
    return ", ".join(names[:most - 1]) + f", ... {names[-1]} ({len(names)} in all)"


def check(policies: Sequence[str]) -> None:
    """Load every Python player among ``policies`` (a ``PlayerError`` for one that is not
    there), before any deal is played."""
    for name in policies:
        source = python_source(name)
        if source is not None:
            load(source)


class Asked:
    """What one seat of a batch of deals of ``game`` under ``rules`` is asked, read as a
    person at the table reads it: the screen's question and a ``Decision`` of it."""

    def __init__(self, game: Game, rules: dict[str, Any], seat: int) -> None:
        self.game = game
        self.seat = seat
        self.screen: ScreenLike = game.table_screen(rules, seat, 0)
        self.phases = phase_names(game)
        self.rules = MappingProxyType(dict(rules))

    def decision(self, view: np.ndarray, key: int) -> tuple[QuestionLike, list[str], Decision]:
        """The question at observation ``view``, its legal names and the decision (its
        stream keyed by ``key``)."""
        question = self.screen.question(view)
        names = legal_names(question)
        array = view.copy()
        array.setflags(write=False)
        layout = self.game.observation
        kind = "play" if all(c.row[0] == PLAY for c in question.choices) else self.phases.get(
            int(view[getattr(layout, "PHASE")]), "play")
        decision = Decision(self.game.name, self.seat, position_of(self.game, view), kind,
                            question.prompt, tuple(names), question.pick,
                            MappingProxyType(observation_fields(self.game, view)),
                            self.rules, np.random.default_rng(key), array)
        return question, names, decision


class PythonSeat(Asked):
    """The Python player ``source`` (``FILE.py:FUNCTION``) at one seat."""

    def __init__(self, game: Game, rules: dict[str, Any], seat: int, source: str) -> None:
        super().__init__(game, rules, seat)
        self.source = source
        self.function = load(source)

    def decide(self, view: np.ndarray, key: int) -> Row:
        """The row of the seat's decision at observation ``view``; ``key`` keys its stream."""
        question, names, decision = self.decision(view, key)
        try:
            answer = self.function(decision)
        except Exception as e:
            raise PlayerError(f"python player {self.source} raised {type(e).__name__}: {e} "
                              f"(seat {self.seat}, {decision.kind})") from None
        row = choose(question, names, answer)
        if isinstance(row, str):
            raise PlayerError(f"python player {self.source} answered {answer!r} at seat "
                              f"{self.seat}'s {decision.kind} ({question.prompt}): {row}; legal: "
                              f"{shown(names)}")
        assert len(row) == ROW
        return row

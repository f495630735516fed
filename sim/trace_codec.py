"""What a game's trace codec is built from (``TRACE.md``).

A game declares its codec module (``Game.trace_codec``, e.g. ``"sim.games.skat_family.trace"``);
that module's ``CODEC`` renders, parses and compares the game-specific parts of a trace
line (the ``cards``, ``actions`` and ``result`` blocks) and is a ``Codec``. ``sim.trace``
writes and replays traces with it. This module holds what codecs are built from: the
``Codec`` protocol, ``TraceError``, and the helpers every codec may use (card lists,
result column converters, JSON comparison, the action comparison). It imports nothing
of ``sim.trace``, so a codec module imports from here only.

>>> label(("none", "raus", "stich"))(2), player(-1), same_value(True, 1)
('stich', None, False)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeGuard, runtime_checkable

import numpy as np

from sim.cards import CardError, Deck


class TraceError(ValueError):
    """A trace line that cannot be read: bad JSON, unknown game, option, card or action,
    a missing field. The message is one line and names the line number."""


@runtime_checkable
class Codec(Protocol):
    """A traced game's ``cards``, ``actions`` and ``result`` blocks (its codec module's
    ``CODEC``): rendering from the result columns and action rows, parsing, comparing.

    A codec whose action objects do not name the kernel's exact action rows (a
    Doppelkopf card name stands for either copy of the card) also has
    ``script_rows(rows, columns, i) -> np.ndarray``: it turns a deal's parsed rows into
    the script the kernel replays, given the cards that deal ``i`` of ``columns`` dealt.
    ``sim.trace`` looks it up where present; codecs without it replay their parsed rows
    as they are."""

    def cards_json(self, columns: Mapping[str, np.ndarray], i: int) -> dict[str, Any]: ...
    def parse_cards(self, cards: Any) -> Any: ...
    def cards_diff(self, recorded: Any, columns: Mapping[str, np.ndarray], i: int) -> list[str]: ...
    def actions_json(self, rows: np.ndarray) -> list[dict[str, Any]]: ...
    def action_row(self, obj: Any) -> list[int]: ...
    def actions_diff(self, recorded: Sequence[Mapping[str, Any]],
                     replayed: Sequence[Mapping[str, Any]]) -> list[str]: ...
    def result_json(self, columns: Mapping[str, np.ndarray], i: int,
                    rows: np.ndarray) -> dict[str, Any]: ...
    def check_result(self, result: Any) -> None: ...
    def result_diff(self, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]: ...


# --- cards ---------------------------------------------------------------------------------

def card_names(mask: int, deck: Deck) -> list[str]:
    """Card names of a mask in deck order, one entry per physical card (both copies of a
    Doppelkopf card side by side, as the deck order of their kind)."""
    return [deck.names[i] for i in sorted(deck.cards(int(mask)), key=lambda i: (i % deck.n_kinds, i))]


def parse_names(value: Any, where: str, deck: Deck) -> int:
    """The mask of a list of card names (each copy of a card once, lowest copy first);
    ``where`` names the field in errors."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TraceError(f"{where} must be a list of card names, got {short(value)}")
    try:
        return deck.parse(value)
    except CardError as e:
        raise TraceError(f"{where}: {e}") from None


# --- result column converters --------------------------------------------------------------

def flag(v: int) -> bool:
    """A 0/1 column as ``true``/``false``."""
    return bool(v)


def number(v: int) -> int:
    """A plain integer column."""
    return int(v)


def player(v: int) -> int | None:
    """A player column, ``-1`` (nobody) as null."""
    return int(v) if v >= 0 else None


def trick_number(v: int) -> int | None:
    """A trick column (0 first), ``-1`` (none) as null."""
    return int(v) if v >= 0 else None


def label(labels: Sequence[str]) -> Callable[[int], str | None]:
    """A coded column written as its label, code 0 (none) as null."""
    def convert(v: int) -> str | None:
        return labels[v] if v > 0 else None
    return convert


# --- comparing and checking ----------------------------------------------------------------

def actions_diff(recorded: Sequence[Mapping[str, Any]], replayed: Sequence[Mapping[str, Any]],
                 deck: Deck) -> list[str]:
    """The first difference between recorded and replayed action objects, if any.

    Every field of the replayed object must be recorded with the same value (a
    ``cards`` list in any order); extra recorded fields are not checked.
    """
    def pos(name: Any) -> int:
        return deck.names.index(name) if name in deck.names else len(deck.names)

    for k, (q, r) in enumerate(zip(recorded, replayed)):
        for key, value in r.items():
            mine = q.get(key)
            if key == "cards" and isinstance(mine, list):
                same = sorted(mine, key=pos) == sorted(value, key=pos)
            else:
                same = same_value(mine, value)
            if not same:
                return [f"action {k} recorded {compact(q)}, replayed {compact(r)}"]
    if len(recorded) != len(replayed):
        more = recorded if len(recorded) > len(replayed) else replayed
        extra = compact(more[min(len(recorded), len(replayed))])
        return [f"{len(recorded)} actions recorded, {len(replayed)} replayed (first extra {extra})"]
    return []


def same_value(a: Any, b: Any) -> bool:
    """JSON equality that tells ``true`` from ``1`` and ``false`` from ``0`` (in lists and
    objects too)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return type(a) is type(b) and a == b if a is None or b is None else a == b


def require_fields(result: Any, fields: Sequence[str]) -> None:
    """Raise ``TraceError`` unless ``result`` is an object holding every one of ``fields``
    (the result fields TRACE.md requires of a game)."""
    if not isinstance(result, dict):
        raise TraceError(f"result must be an object, got {short(result)}")
    missing = [f for f in fields if f not in result]
    if missing:
        raise TraceError(f"result: missing field(s) {', '.join(missing)}")


def is_int(v: Any) -> TypeGuard[int]:
    """A JSON integer (not ``true``/``false``)."""
    return isinstance(v, int) and not isinstance(v, bool)


# --- messages ------------------------------------------------------------------------------

def compact(obj: Any) -> str:
    """JSON without spaces, for messages."""
    return json.dumps(obj, separators=(",", ":"))


def short(v: Any) -> str:
    """A value for an error message, cut to 60 characters."""
    text = json.dumps(v) if not isinstance(v, str) else repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = ["Codec", "TraceError", "actions_diff", "card_names", "compact", "flag", "is_int",
           "label", "number", "parse_names", "player", "require_fields", "same_value", "short"]

"""A Python player for the tests: it plays as ``examples/players/thrifty.py`` does and keeps
every decision it is handed (``SEEN``), so a test can look at what a seat was shown."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

_spec = importlib.util.spec_from_file_location(
    "thrifty", Path(__file__).resolve().parents[2] / "examples" / "players" / "thrifty.py")
assert _spec is not None and _spec.loader is not None
thrifty = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(thrifty)

SEEN: list[Any] = []
"""Every decision handed to ``decide``, in order."""


def decide(d: Any) -> Any:
    """Keep the decision, answer as the thrifty player."""
    SEEN.append(d)
    return thrifty.decide(d)


def wrong(d: Any) -> Any:
    """Answer with a card no deck has."""
    return "XX"


def broken(d: Any) -> Any:
    """Fail as a player with a bug does."""
    raise KeyError("hand")


def forbid_nothing(d: Any, card: str) -> bool:
    """A restriction that forbids no card."""
    return False


def no_hearts(d: Any, card: str) -> bool:
    """A restriction: never a heart (by the card's name)."""
    return card.startswith("H")

"""Rule options: one table per game that the CLI, configs, traces and docs all read.

Each game module declares its options (as python-chess declares its variants in
one registry): name, default, allowed values and a one-line description. A
``Rules`` value is a validated, complete mapping of option names to values; its
``codes()`` turn it into the small integer array that compiled kernels take.

>>> opts = OptionTable([Option("lost_factor", 2, (2, 1), "lost games count this many times")])
>>> r = opts.resolve({"lost_factor": 1})
>>> r["lost_factor"], opts.codes(r).tolist()
(1, [1])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np


class RuleError(ValueError):
    """An unknown option or a value the option does not allow."""


@dataclass(frozen=True)
class Option:
    """One rule option: its name, default, allowed values (default first) and meaning."""

    name: str
    default: Any
    allowed: tuple[Any, ...]
    doc: str
    scoring_only: bool = False
    """The option changes only how a played deal is scored and no policy reads it: an
    experiment sweeping it re-scores the same played deals instead of replaying them."""

    def __post_init__(self) -> None:
        if self.allowed[0] != self.default:
            raise ValueError(f"option {self.name}: the default must be listed first")

    def parse(self, value: Any) -> Any:
        """The allowed value that ``value`` names (``"true"``/``"1"`` strings accepted)."""
        for allowed in self.allowed:
            if type(allowed) is type(value) and allowed == value:
                return allowed
            if isinstance(value, str) and value.strip().lower() == str(allowed).lower():
                return allowed
        shown = ", ".join(_show(a) for a in self.allowed)
        raise RuleError(f"option {self.name}: value {_show(value)} is not allowed (allowed: {shown})")


def _show(value: Any) -> str:
    """A value as it is written in TOML and on the command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class OptionTable:
    """The ordered options of one game."""

    def __init__(self, options: Iterable[Option]) -> None:
        self.options = tuple(options)
        self.by_name = {o.name: o for o in self.options}

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def resolve(self, given: Mapping[str, Any] | None = None, game: str = "") -> dict[str, Any]:
        """Every option with its value: ``given`` overrides the defaults, validated."""
        rules = {o.name: o.default for o in self.options}
        for name, value in (given or {}).items():
            if name not in self.by_name:
                known = ", ".join(self.by_name) or "none"
                where = f" for game {game}" if game else ""
                raise RuleError(f"unknown option {name!r}{where} (options: {known})")
            rules[name] = self.by_name[name].parse(value)
        return rules

    def codes(self, rules: Mapping[str, Any]) -> np.ndarray:
        """The rules as indices into each option's allowed values (kernels read these)."""
        return np.array([o.allowed.index(rules[o.name]) for o in self.options], np.int64)

    def position(self, name: str) -> int:
        """Where option ``name``'s code lies in ``codes``."""
        return self.options.index(self.by_name[name])

    def code(self, name: str, value: Any) -> int:
        """The code ``codes`` gives option ``name``'s ``value``: its index among the allowed
        values."""
        return self.by_name[name].allowed.index(value)

    def parse_assignments(self, items: Iterable[str], game: str = "") -> dict[str, Any]:
        """Parse ``KEY=VALUE`` strings (the CLI's ``--rule``) into a partial rules mapping."""
        given: dict[str, Any] = {}
        for item in items:
            if "=" not in item:
                raise RuleError(f"--rule {item!r}: expected KEY=VALUE")
            key, value = item.split("=", 1)
            given[key.strip()] = value.strip()
        return self.resolve(given, game)

    def play_rules(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        """The part of ``rules`` that can change how deals are played (scoring-only
        options left out): variants with equal play rules play identical deals."""
        return {k: v for k, v in rules.items() if not self.by_name[k].scoring_only}

    def describe(self) -> list[dict[str, Any]]:
        """Rows for the rules table: name, default, allowed values, meaning."""
        return [dict(name=o.name, default=_show(o.default),
                     allowed=", ".join(_show(a) for a in o.allowed),
                     doc=o.doc + (" (scoring only)" if o.scoring_only else ""))
                for o in self.options]

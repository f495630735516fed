"""Rule options: one table per game that the CLI, configs, traces and docs all read.

Each game module declares its options (as python-chess declares its variants in
one registry): name, default, allowed values and a one-line description. A
``Rules`` value is a validated, complete mapping of option names to values; its
``codes()`` turn it into the small integer array that compiled kernels take.

>>> opts = OptionTable([Option("lost_factor", 2, (2, 1), "lost games count this many times")])
>>> r = opts.resolve({"lost_factor": 1})
>>> r["lost_factor"], opts.codes(r).tolist()
(1, [1])

A number a house rule may turn is an integer option: any integer in its range, which the
kernel takes as it is (its code is the value).

>>> opts = OptionTable([Option.integer("penalty", 60, 0, 200, "what giving up costs")])
>>> r = opts.resolve({"penalty": "75"})
>>> r["penalty"], opts.codes(r).tolist(), opts.describe()[0]["allowed"]
(75, [75], '0..200')
>>> opts.resolve({"penalty": 201})
Traceback (most recent call last):
...
sim.options.RuleError: option penalty: value 201 is not allowed (an integer in 0..200)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.errors import did_you_mean


class RuleError(ValueError):
    """An unknown option or a value the option does not allow."""


_INTEGER = re.compile(r"[+-]?\d+")
"""How an integer is written on the command line."""


@dataclass(frozen=True)
class Option:
    """One rule option: its name, default, allowed values (default first) and meaning; or,
    for an integer option (``Option.integer``), no list but the range ``low..high``."""

    name: str
    default: Any
    allowed: tuple[Any, ...]
    doc: str
    scoring_only: bool = False
    """The option changes only how a played deal is scored and no policy reads it: an
    experiment sweeping it re-scores the same played deals instead of replaying them."""
    low: int | None = None
    """An integer option's least value (``None``: the option lists its values)."""
    high: int | None = None
    """An integer option's greatest value."""
    beyond_rules: bool = False
    """stichsim's own option, not one of RULES.md's (a number a house rule may turn): its
    default is the seed's own value, so a trace written before the option existed, which
    names no value for it, was played under that default."""
    revision: int = 0
    """The RULES.md revision that made it an option, for one added after traces came to name
    every option (4 on; 0 for the others): its default is the game as played before, so a
    trace written before it existed, which names no value for it, was played under that
    default."""

    def __post_init__(self) -> None:
        if self.low is not None or self.high is not None:
            if self.low is None or self.high is None or self.allowed \
                    or not self.low <= self.default <= self.high:
                raise ValueError(f"option {self.name}: an integer option lists no values and "
                                 f"its default lies in {self.low}..{self.high}")
        elif self.allowed[0] != self.default:
            raise ValueError(f"option {self.name}: the default must be listed first")

    @classmethod
    def integer(cls, name: str, default: int, low: int, high: int, doc: str,
                scoring_only: bool = False, beyond_rules: bool = False) -> Option:
        """An option whose value is any integer in ``low..high`` (both included)."""
        return cls(name, default, (), doc, scoring_only, low, high, beyond_rules)

    @property
    def is_integer(self) -> bool:
        """Whether the option takes any integer of a range rather than one of a list."""
        return self.low is not None

    @property
    def shown_range(self) -> str:
        """The allowed values as the rules table and the error messages write them."""
        if self.is_integer:
            return f"{self.low}..{self.high}"
        return ", ".join(_show(a) for a in self.allowed)

    def parse(self, value: Any) -> Any:
        """The allowed value that ``value`` names (``"true"``/``"1"`` strings accepted; an
        integer option takes an integer, or a string writing one, in its range)."""
        if self.is_integer:
            return self._parse_integer(value)
        for allowed in self.allowed:
            if type(allowed) is type(value) and allowed == value:
                return allowed
            if isinstance(value, str) and value.strip().lower() == str(allowed).lower():
                return allowed
        raise RuleError(f"option {self.name}: value {_show(value)} is not allowed "
                        f"(allowed: {self.shown_range})"
                        f"{did_you_mean([_show(value)], map(_show, self.allowed))}")

    def _parse_integer(self, value: Any) -> int:
        assert self.low is not None and self.high is not None
        number: int | None = None
        if isinstance(value, int | np.integer) and not isinstance(value, bool):
            number = int(value)
        elif isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
            number = int(value.strip())
        if number is None or not self.low <= number <= self.high:
            raise RuleError(f"option {self.name}: value {_show(value)} is not allowed "
                            f"(an integer in {self.shown_range})")
        return number

    def code(self, value: Any) -> int:
        """What the kernel takes for ``value``: an integer option's value itself, else its
        index among the allowed values."""
        return int(value) if self.is_integer else self.allowed.index(value)


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

    def discrete(self) -> tuple[Option, ...]:
        """The options that list their values (``allowed``), in order."""
        return tuple(o for o in self.options if not o.is_integer)

    def integers(self) -> tuple[Option, ...]:
        """The integer options (``Option.integer``), in order."""
        return tuple(o for o in self.options if o.is_integer)

    def ranges(self) -> dict[str, tuple[int, int]]:
        """Each integer option's ``(low, high)``, by name.

        >>> OptionTable([Option("a", 1, (1, 2), "a"), Option.integer("b", 3, 0, 9, "b")]).ranges()
        {'b': (0, 9)}
        """
        return {o.name: (o.low, o.high) for o in self.options
                if o.low is not None and o.high is not None}

    def resolve(self, given: Mapping[str, Any] | None = None, game: str = "") -> dict[str, Any]:
        """Every option with its value: ``given`` overrides the defaults, validated."""
        rules = {o.name: o.default for o in self.options}
        for name, value in (given or {}).items():
            if name not in self.by_name:
                known = ", ".join(self.by_name) or "none"
                where = f" for game {game}" if game else ""
                raise RuleError(f"unknown option {name!r}{where} (options: {known})"
                                f"{did_you_mean([name], self.by_name)}")
            rules[name] = self.by_name[name].parse(value)
        return rules

    def codes(self, rules: Mapping[str, Any]) -> np.ndarray:
        """The rules as the kernels read them: each option's ``Option.code``, the index into
        its allowed values, or an integer option's value."""
        return np.array([o.code(rules[o.name]) for o in self.options], np.int64)

    def position(self, name: str) -> int:
        """Where option ``name``'s code lies in ``codes``."""
        return self.options.index(self.by_name[name])

    def code(self, name: str, value: Any) -> int:
        """The code ``codes`` gives option ``name``'s ``value`` (``Option.code``)."""
        return self.by_name[name].code(value)

    def parse_assignments(self, items: Iterable[str], game: str = "") -> dict[str, Any]:
        """Parse ``KEY=VALUE`` strings (the CLI's ``--rule``) into a partial rules mapping."""
        given: dict[str, Any] = {}
        for item in items:
            if "=" not in item:
                raise RuleError(f"--rule {item!r}: expected KEY=VALUE")
            key, value = item.split("=", 1)
            given[key.strip()] = value.strip()
        return self.resolve(given, game)

    def assignments(self, rules: Mapping[str, Any]) -> list[str]:
        """The ``KEY=VALUE`` strings (``parse_assignments`` reads them back) of the options
        whose value in ``rules`` is not the default, in table order.

        >>> OptionTable([Option("a", 1, (1, 2), "a"), Option("b", False, (False, True), "b")]
        ...             ).assignments({"a": 1, "b": True})
        ['b=true']
        """
        return [f"{o.name}={_show(rules[o.name])}" for o in self.options if rules[o.name] != o.default]

    def play_rules(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        """The part of ``rules`` that can change how deals are played (scoring-only
        options left out): variants with equal play rules play identical deals."""
        return {k: v for k, v in rules.items() if not self.by_name[k].scoring_only}

    def describe(self) -> list[dict[str, Any]]:
        """Rows for the rules table: name, default, allowed values (an integer option's
        range as ``low..high``), meaning (with whether it only scores and whether it is
        stichsim's own, beyond the rule book)."""
        return [dict(name=o.name, default=_show(o.default), allowed=o.shown_range,
                     doc=o.doc + (" (scoring only)" if o.scoring_only else "")
                     + (" (beyond the rule book)" if o.beyond_rules else ""))
                for o in self.options]

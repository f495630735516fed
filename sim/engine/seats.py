"""Policies: who decides at each seat. A policy sees its seat's observation only, except
``dd``, which sees every card (a ceiling, not a player: ``label`` says so wherever it shows).

Policies are named in experiments and on the command line; kernels receive
their integer ids. ``random`` picks uniformly among the choices offered at each
decision; ``heuristic`` plays like a club player (one module per game); ``lookahead``
decides every decision with a choice (cards, bids, the skat, discards, declarations,
give-ups, offers) by sampling the worlds its seat cannot tell apart and playing each choice
out with the heuristic (``sim.policies.lookahead``). ``pimc`` chooses its cards by perfect-
information Monte Carlo: it samples worlds as the lookahead does and solves each with the
double-dummy solver (``sim.engine.solving``); ``dd`` solves the deal itself. Both leave
their decisions before the card play to the heuristic. ``net``, the learned player, plays its
cards by its game's network from the observation (``sim.engine.net``), and the other
decisions its weights play (Skat-en-deux's yes-or-no questions before the card play and
between tricks); the rest as the heuristic; ``net:PATH`` plays the network of another
weights file.

A policy may take a whole-number option (``net``: a path) after a colon: ``lookahead:64`` is the lookahead
player with 64 rollouts per decision, ``pimc:32`` the pimc player with 32 worlds. The kernel
id holds the policy in its low ``KIND_BITS`` bits and the option above them (``option_of``).

>>> [policy_id("heuristic"), policy_id("lookahead:32")] == [HEURISTIC, LOOKAHEAD | 32 << KIND_BITS]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

RANDOM = 0
HEURISTIC = 1
LOOKAHEAD = 2
KIND_BITS = 8
KIND_MASK = (1 << KIND_BITS) - 1
"""The policy's own bits of a kernel id; a policy's option sits above them."""
DEFAULT_ROLLOUTS = 64
"""Rollouts per decision of plain ``lookahead``: 64 playouts spread over the legal actions
(16 worlds for each of four cards), the figure the speed target is set for."""
MAX_ROLLOUTS = 1 << 20
SCRIPTED = -1
"""Internal: replay a recorded deal's actions instead of deciding."""
PERSON = -2
"""Internal: a person at the table (``stichsim play``): the seat plays the script's rows,
and where they run out the deal stops and leaves the seat's observation to ask him."""
SOLVING = -3
"""Internal: a seat of a solving player (``pimc``, ``dd``) in the kernel. Its cards come from
the script, and where it runs out the deal stops as for a person, leaving the seat's
observation and the card-play state (``sim.engine.solving`` decides and plays the deal
again); its other decisions are the heuristic's."""
PIMC = 3
DD = 4
NET = 5
CHOSEN = 6
"""Internal: an action already chosen (the option bits): a ``net`` seat's card, which the
network picked from the observation before the kernel asks (``sim.engine.net``)."""
PYTHON = 7
"""A player written in Python (``python:FILE.py:FUNCTION``): a person's seat to the kernel,
whose decisions ``sim.engine.outside`` asks the function for."""
RESTRICTED = 8
"""The heuristic forbidden a kind of card (``restricted:heuristic:RESTRICTION``): a solving
seat to the kernel (its decisions before the card play are the heuristic's), whose cards
``sim.engine.restricted_player`` chooses. A heuristic forbidden a kind of game plays in the
kernel instead: ``HEURISTIC`` with the games it may not declare in its option bits."""
DEFAULT_WORLDS = 16
"""Worlds per decision of plain ``pimc``."""

POLICIES = {"random": RANDOM, "heuristic": HEURISTIC, "lookahead": LOOKAHEAD, "pimc": PIMC, "dd": DD,
            "net": NET, "python": PYTHON, "restricted": RESTRICTED}
"""Policy names a user can choose, with their kernel ids."""
SEATED = {**POLICIES, "person": PERSON}
"""Names a deal's seat may carry in a trace: a policy, or ``person`` for a seat a person
played in ``stichsim play``."""


def net_weights(name: str) -> str | None:
    """The weights a ``net`` policy name plays: ``""`` for the game's own, the path of
    ``net:PATH``; ``None`` for another policy.

    >>> net_weights("net"), net_weights("net:my.npz"), net_weights("heuristic")
    ('', 'my.npz', None)
    """
    base, _, option = name.partition(":")
    return option if base == "net" else None


def python_source(name: str) -> str | None:
    """The ``FILE.py:FUNCTION`` a ``python`` policy name plays; ``None`` for another policy.

    >>> python_source("python:players/first.py:decide"), python_source("heuristic")
    ('players/first.py:decide', None)
    """
    base, _, option = name.partition(":")
    return option if base == "python" else None


def is_python(pol: int) -> bool:
    """Whether kernel id ``pol`` is a player written in Python (``PYTHON``)."""
    return pol >= 0 and (pol & KIND_MASK) == PYTHON


def is_restricted(pol: int) -> bool:
    """Whether kernel id ``pol`` is a restricted player (``RESTRICTED``)."""
    return pol >= 0 and (pol & KIND_MASK) == RESTRICTED


def restriction_of(name: str) -> str | None:
    """The restriction a ``restricted`` policy name plays under; ``None`` for another policy.

    >>> restriction_of("restricted:heuristic:no_trump_lead"), restriction_of("heuristic")
    ('no_trump_lead', None)
    """
    base, _, option = name.partition(":")
    return option.partition(":")[2] if base == "restricted" else None


class PolicyError(ValueError):
    """An unknown policy name or a wrong number of seats."""


OPTIONS = {LOOKAHEAD: DEFAULT_ROLLOUTS, PIMC: DEFAULT_WORLDS}
"""The policies that take an option (``name:N``), with the option's default."""


def option_of(pol: int) -> int:
    """The option of a kernel id (``lookahead:N``: N)."""
    return pol >> KIND_BITS if pol >= 0 else 0


def policy_id(name: str, known: dict[str, int] = POLICIES) -> int:
    """The kernel id of one policy name, ``name`` or ``name:N``."""
    base, colon, option = name.partition(":")
    if base not in known:
        raise PolicyError(f"unknown policy {name!r} (policies: {', '.join(POLICIES)}; "
                          f"lookahead:N for N rollouts a decision, pimc:N for N worlds, "
                          f"python:FILE.py:FUNCTION for a player written in Python, "
                          f"restricted:heuristic:RESTRICTION for the heuristic forbidden a kind "
                          f"of move)")
    kind = known[base]
    if kind == PYTHON and not colon:
        raise PolicyError("policy 'python' names its player: python:FILE.py:FUNCTION")
    if kind == RESTRICTED and not colon:
        raise PolicyError("policy 'restricted' names its restriction: restricted:heuristic:RESTRICTION")
    if not colon:
        return kind | OPTIONS.get(kind, 0) << KIND_BITS
    if kind == NET:
        if not option:
            raise PolicyError(f"policy {name!r}: net:PATH names a weights file")
        return kind
    if kind == PYTHON:
        file, _, function = option.rpartition(":")
        if not file.endswith(".py") or not function.isidentifier():
            raise PolicyError(f"policy {name!r}: a Python player is python:FILE.py:FUNCTION")
        return kind
    if kind == RESTRICTED:
        inner, _, restriction = option.partition(":")
        if inner != "heuristic" or not restriction:
            raise PolicyError(f"policy {name!r}: a restricted player is restricted:heuristic:"
                              f"RESTRICTION (a restriction of the game's, or python:FILE.py:FUNCTION)")
        return kind
    if kind not in OPTIONS:
        raise PolicyError(f"policy {base!r} takes no option, got {name!r}")
    if not option.isdigit() or not 0 < int(option) <= MAX_ROLLOUTS:
        raise PolicyError(f"policy {name!r}: the rollouts or worlds per decision must be a whole "
                          f"number from 1 to {MAX_ROLLOUTS}")
    return kind | int(option) << KIND_BITS


SLOW = frozenset({"lookahead", "pimc", "dd", "python", "restricted"})
"""Base names of policies about a thousand times slower than the heuristic (or more): the
bench and the arena play fewer deals of them, in smaller tasks."""
OMNISCIENT = frozenset({"dd"})
"""Base names of policies that see every card (the double-dummy ``dd``): traces, arena
tables, reports and the table name them so."""


def base_name(name: str) -> str:
    """A policy's name without its option (``lookahead:8`` -> ``lookahead``)."""
    return name.partition(":")[0]


def is_slow(name: str) -> bool:
    """Whether policy ``name`` (``name`` or ``name:N``) is a slow one (``SLOW``)."""
    return base_name(name) in SLOW


def sees_every_card(name: str) -> bool:
    """Whether policy ``name`` sees every card (``OMNISCIENT``)."""
    return base_name(name) in OMNISCIENT


def label(name: str) -> str:
    """A policy's name as tables and reports show it: ``dd`` says that it sees every card.

    >>> label("dd"), label("pimc:16")
    ('dd (sees every card)', 'pimc:16')
    """
    return f"{name} (sees every card)" if sees_every_card(name) else name


def is_solving(pol: int) -> bool:
    """Whether kernel id ``pol`` is a solving player (``pimc``, ``dd``): played through
    ``sim.engine.solving``."""
    return pol >= 0 and (pol & KIND_MASK) in (PIMC, DD)


class Seated(Protocol):
    """What seating policies needs of a game (its declaration, ``sim.engine.game.Game``, has
    it)."""

    @property
    def name(self) -> str: ...

    @property
    def n_players(self) -> int: ...

    @property
    def policies(self) -> frozenset[str]: ...


def supported_ids(names: Sequence[str], game: Seated, known: dict[str, int] = POLICIES) -> list[int]:
    """Kernel ids of the named policies (names from ``known``), each one ``game`` supports
    (``Game.policies``): a policy it does not is refused with one line."""
    ids = [policy_id(n, known) for n in names]
    for name in names:
        base = base_name(name)
        if base in POLICIES and base not in game.policies:
            plays = ", ".join(p for p in POLICIES if p in game.policies)
            raise PolicyError(f"game {game.name} does not support policy {base!r} "
                              f"(its policies: {plays})")
    return ids


def policy_ids(names: Sequence[str], game: Seated, known: dict[str, int] = POLICIES) -> list[int]:
    """Kernel ids of the named policies, one per seat of ``game`` (names from ``known``;
    ``lookahead`` may carry its rollouts: ``lookahead:64``), each one the game supports."""
    if len(names) != game.n_players:
        raise PolicyError(f"game {game.name} has {game.n_players} seats but {len(names)} policies "
                          f"were given")
    if not all(isinstance(n, str) for n in names):
        raise PolicyError(f"policies must be names, got {names!r}")
    return supported_ids(names, game, known)

"""Policies: who decides at each seat. A policy sees its seat's observation only.

Policies are named in experiments and on the command line; kernels receive
their integer ids. ``random`` picks uniformly among the choices offered at each
decision; ``heuristic`` plays like a club player (one module per game).
"""

from __future__ import annotations

RANDOM = 0
HEURISTIC = 1
SCRIPTED = -1
"""Internal: replay a recorded deal's actions instead of deciding."""
PERSON = -2
"""Internal: a person at the table (``stichsim play``): the seat plays the script's rows,
and where they run out the deal stops and leaves the seat's observation to ask him."""

POLICIES = {"random": RANDOM, "heuristic": HEURISTIC}
"""Policy names a user can choose, with their kernel ids."""
SEATED = {**POLICIES, "person": PERSON}
"""Names a deal's seat may carry in a trace: a policy, or ``person`` for a seat a person
played in ``stichsim play``."""


class PolicyError(ValueError):
    """An unknown policy name or a wrong number of seats."""


def policy_ids(names: list[str], n_players: int, game: str,
               known: dict[str, int] = POLICIES) -> list[int]:
    """Kernel ids of the named policies, one per seat (names from ``known``)."""
    if len(names) != n_players:
        raise PolicyError(f"game {game} has {n_players} seats but {len(names)} policies were given")
    for name in names:
        if name not in known:
            raise PolicyError(f"unknown policy {name!r} (policies: {', '.join(POLICIES)})")
    return [known[n] for n in names]

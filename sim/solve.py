"""``stichsim solve``: each traced deal's card play solved from the start of a trick with
every card known (the double-dummy solver, ``sim.search.solver``).

For each deal of a trace the position at the start of trick ``K`` (for Doko-Skat the main
game's tricks) is rebuilt from the recorded actions and solved: each side's final card points
under best play by both (the points taken before trick ``K`` included, the skat or discards
counted as the rules count them), and the same after each card the player to move may play.
A null game says instead whether the declarer can be forced to take a trick.

>>> sides_of(0b010, [0, 1, 2])
[[1], [0, 2]]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sim.engine.cardplay import HEADER, PLAY
from sim.engine.solving import hooks
from sim.errors import StichsimError
from sim.search import solver
from sim.search.solver import Q_COUNTED, Q_SUM


class SolveError(StichsimError):
    """A ``solve`` request that cannot be answered (a trick the game does not have)."""


@dataclass(frozen=True)
class Position:
    """A traced deal's card play at the start of a trick, or why there is none."""

    game: Any
    deal: int
    trick: int
    state: np.ndarray | None
    seats: list[int]
    """The player at each place of the state."""
    why: str = ""


def players(game: Any, state: np.ndarray) -> list[int]:
    """The player at each place (Skat-en-deux's blind is played by the defender)."""
    fields = game.card_play.fields
    at = getattr(fields, "PLAYER_AT", None)
    if at is None:
        return list(range(game.n_players))
    return [int(state[at + p]) for p in range(3)]


def positions(path: Path, trick: int) -> Iterator[Position]:
    """The position at the start of trick ``trick`` (from 1) of every deal of the trace at
    ``path``, in the file's order of deals."""
    from sim.trace import read_lines, replayed_deals, runs

    lines = list(read_lines(path))
    for line in lines:
        if line.game.solver is None:
            raise SolveError(f"line {line.number}: {line.game.name} has no solver")
        if not 1 <= trick <= line.game.tricks:
            raise SolveError(f"line {line.number}: {line.game.name} has tricks 1 to "
                             f"{line.game.tricks}, not {trick}")
    found: dict[int, Position] = {}
    for run in runs(lines):
        _, played = replayed_deals(run)
        for line, (columns, i, log) in zip(run, played):
            found[line.number] = _position(line, columns, i, log, trick)
    for line in lines:
        yield found[line.number]


def _position(line: Any, columns: Any, i: int, log: np.ndarray, trick: int) -> Position:
    game = line.game
    cp = game.card_play
    if int(columns["replay_error"][i]):
        return Position(game, line.deal, trick, None, [], "its actions do not replay (stichsim replay)")
    started = cp.start(columns, i, log, line.rules)
    if started is None:
        return Position(game, line.deal, trick, None, [], "no card play")
    state, actions = started
    k = 0
    while not (state[cp.fields.TRICK_NO] == trick - 1 and state[cp.fields.TRICK_N] == 0
               and state[HEADER.PHASE] == PLAY) and not cp.finished(state):
        if k == len(actions):
            return Position(game, line.deal, trick, None, [], "the recorded play ends before")
        cp.step(state, actions[k])
        k += 1
    if cp.finished(state):
        return Position(game, line.deal, trick, None, [], f"the card play ended before trick {trick}")
    return Position(game, line.deal, trick, state, players(game, state))


def sides_of(counted: int, seats: list[int]) -> list[list[int]]:
    """The players of the counted places and of the others, each once, in order."""
    first = sorted({seats[p] for p in range(len(seats)) if (counted >> p) & 1 and seats[p] >= 0})
    rest = sorted({s for s in seats if s >= 0} - set(first))
    return [first, rest]


def solve_position(position: Position, ws: tuple[np.ndarray, ...]) -> dict[str, Any]:
    """A position solved, as ``stichsim solve --json`` writes it (``ws``: a workspace of the
    game's solver)."""
    game = position.game
    out: dict[str, Any] = {"deal": position.deal, "trick": position.trick}
    state = position.state
    if state is None:
        out["solved"] = False
        out["why"] = position.why
        return out
    module = hooks(game)
    module.prepare(state)
    q = np.zeros(solver.Q_LENGTH, np.int64)
    module.question(state, q)
    solver.clear(ws)
    count = int(module.count(state, q, ws))
    after = np.zeros(64, np.int64)
    legal = int(module.counts_after(state, q, ws, after))
    mover = int(state[HEADER.TO_MOVE])
    out["to_move"] = position.seats[mover]
    out["sides"] = sides_of(int(q[Q_COUNTED]), position.seats)
    null = solver.counts_tricks(q)
    maximizes = (int(q[solver.Q_MAXIMIZERS]) >> mover) & 1  # else he wants the count low

    def value(c: int) -> Any:
        return bool(c >= 1) if null else [c, int(q[Q_SUM]) - c]

    if null:
        out["declarer_takes_trick"] = value(count)
    else:
        out["points"] = value(count)
    moves: dict[str, Any] = {}
    best: dict[str, int] = {}
    for card in range(64):
        if not (legal >> card) & 1:
            continue
        name = game.deck.names[card]
        c = int(after[card])
        own = c if maximizes else -c
        if name not in best or own > best[name]:  # a name playable from two places: the better
            best[name] = own
            moves[name] = value(c)
    out["moves"] = moves
    return out


def format_solution(solved: dict[str, Any]) -> str:
    """A solved position as lines for people."""
    head = f"deal {solved['deal']}, trick {solved['trick']}"
    if not solved.get("solved", True):
        return f"{head}: not solved ({solved['why']})"
    a, b = solved["sides"]
    if "declarer_takes_trick" in solved:
        verdict = "takes a trick" if solved["declarer_takes_trick"] else "takes no trick"
        lines = [f"{head}: seat {solved['to_move']} to move; the declarer (seat "
                 f"{', '.join(map(str, a))}) {verdict} under best play"]
        width = max(len(n) for n in solved["moves"])
        for name, takes in solved["moves"].items():
            lines.append(f"  {name:<{width}}  {'takes a trick' if takes else 'no trick'}")
        return "\n".join(lines)
    pa, pb = solved["points"]
    lines = [f"{head}: seat {solved['to_move']} to move; best play: seats {a} {pa} : {pb} seats {b}"]
    width = max(len(n) for n in solved["moves"])
    for name, (ma, mb) in sorted(solved["moves"].items(), key=lambda kv: -kv[1][0]):
        lines.append(f"  {name:<{width}}  {ma:>3} : {mb:<3}")
    return "\n".join(lines)


def solve_trace(path: Path, trick: int) -> Iterator[dict[str, Any]]:
    """Every deal of the trace solved at trick ``trick``."""
    workspaces: dict[str, tuple[np.ndarray, ...]] = {}
    for position in positions(path, trick):
        name = position.game.name
        ws = workspaces.get(name)
        if ws is None:
            ws = workspaces[name] = hooks(position.game).new_workspace()
        yield solve_position(position, ws)

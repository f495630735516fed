"""One deal with a person at one seat and the simulator's players at the others.

The compiled kernels cannot call back into Python for a person's decision, so the
table replays the deal: the person's seat plays ``person`` (``sim.policies.PERSON``)
with his decisions so far as its script, the other seats their policy; the kernel
stops at the first decision of his that the script lacks and leaves his seat's
observation (``Moment.view``). Every seat's randomness comes from its own stream keyed
by the seed and the deal, so the other seats decide the same way on every replay, and
a deal is reproduced by its seed, its number and the person's decisions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.actions import ROW
from sim.engine.game import Game
from sim.engine.kernel import E_ASK
from sim.engine.play import play
from sim.screen.questions import Row


@dataclass(frozen=True)
class Moment:
    """Where the deal stands: every action so far (kernel rows, markers included), and
    either the person's observation for the decision due (``view``) or, once the deal is
    over, its result columns (one deal each)."""

    actions: np.ndarray
    view: np.ndarray | None
    columns: dict[str, np.ndarray] | None

    @property
    def finished(self) -> bool:
        return self.view is None


@dataclass
class Table:
    """Deal ``number`` under ``seed`` with a person at ``seat`` and ``policy`` at every
    other seat; ``preset`` deals the cards in that order instead (a deal given by hand)."""

    game: Game
    rules: dict[str, Any]
    seed: int
    number: int
    seat: int
    policy: str
    preset: np.ndarray | None = None
    decisions: list[Row] = field(default_factory=list)

    @property
    def policies(self) -> list[str]:
        """Policy name per seat, ``person`` at the person's seat (as the trace writes it)."""
        return ["person" if s == self.seat else self.policy for s in range(self.game.n_players)]

    def moment(self) -> Moment:
        """Play the deal with the person's decisions so far, up to his next one or the end."""
        script = np.array(self.decisions, np.int64).reshape(-1, ROW)
        batch = play(self.game, self.seed, self.number, 1, self.rules, self.policies, record=True,
                               script=[script], preset=self.preset)
        assert batch.actions is not None and batch.views is not None
        error = int(batch.columns["replay_error"][0])
        if error == E_ASK:
            return Moment(batch.actions[0], batch.views[0], None)
        if error:
            raise RuntimeError(f"the engine refused the person's decision {self.decisions[-1]} "
                               f"(replay error {error})")
        return Moment(batch.actions[0], None, batch.columns)

    def decide(self, row: Row) -> None:
        """Add the person's next decision."""
        kind, seat, a, b = row
        self.decisions.append((int(kind), int(seat), int(a), int(b)))

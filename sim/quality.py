"""The game-quality measures of a shard's deals: skill, the value of information, tension
and decisiveness, each per deal, as result columns beside the deal's own (``[quality]`` in an
experiment; ``analysis.quality`` reads them, ``docs/quality.md`` defines them).

* **Skill** of a rung pair (a better policy A and a weaker B): the deal played once for every
  seating of A and B (duplicate play, ``sim.arena.duplicate``), A's mean score per seat-slot less B's
  (``skill_<A>_vs_<B>``) and A's share of won seat-slots less B's (``skill_won_...``). The
  cards are the same in every seating, so what is left is what the players made of them.
* **Restricted play** (``restricted = ["no_trump_lead", ...]``, the game's restrictions or
  ``python:FILE.py:FUNCTION``): each a skill pair, the heuristic over the heuristic forbidden
  that kind of move (``restricted:heuristic:R``, ``sim.engine.restricted_player``), on the
  skill pairs' deals: what the kind of move is worth to it.
* **Value of information**: the same for a player that sees every card against the fair
  player of the same search (``dd`` against ``pimc``), as ``information`` /
  ``information_won``.
* **The course of the card play**, replayed trick by trick from the deal as played, asked
  the question the game's solver asks of it (``Game.solver``: one side's card points, or a
  null declarer's tricks) and read by the solver's own tally and win threshold
  (``outcome_line``: a Skat declarer's 61, a Doppelkopf side's 121, a null declarer's first
  trick):

  - ``lead_changes``: how often the side ahead in card points changed, trick by trick (a
    level score changes nothing; counted from the first trick on);
  - ``behind_at_half``: 1 where the side that won by the count was behind after half the
    tricks (a comeback), 0 where it was not;
  - ``settled_after``: with every card known, whether the count's side reaches its win
    threshold under best play from the start of each trick, and the number of tricks after
    which that verdict no longer changed (0: the cards decided it before the first card was
    played; the deal's own trick count: only the last trick did);
  - ``swings``: how often that verdict changed during the deal (each change is a mistake
    that handed the deal over).

  A ramsch (each player for himself) and a deal that ends before its cards are played out
  (an accepted offer, a give-up) have no course: ``-1``, as have the deals outside the
  sample that is measured; a null game (its count is tricks) no tension, only the verdicts.

Each measure is taken on the experiment's first deals (``Quality``'s sizes): a shard measures
those of its deals that lie below the size, so the columns are the same whatever the shards
or workers. Variants that share a play (scoring-only options) share the course; their skill
is scored under each one's rules (``Game.rescore``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.arena import duplicate
from sim.engine.game import Game
from sim.engine.play import check_seats, play
from sim.engine.seats import PolicyError, policy_ids
from sim.engine.solving import hooks
from sim.errors import ConfigError
from sim.search import solver

QUALITY_KEYS = ("skill", "skill_deals", "restricted", "information", "information_deals",
                "course_deals", "solver_deals")
"""Keys of an experiment's ``[quality]`` table."""
COURSE_COLUMNS = ("lead_changes", "behind_at_half", "settled_after", "swings")
"""The course's columns (``int8``; -1 where not measured)."""
NOT_MEASURED = -1


def pair_column(better: str, weaker: str) -> str:
    """The column of a skill pair's score difference (``skill_heuristic_vs_random``; the
    ``won`` column inserts ``won_``).

    >>> pair_column("lookahead:16", "heuristic")
    'skill_lookahead_16_vs_heuristic'
    """
    return "skill_" + re.sub(r"[^A-Za-z0-9]+", "_", f"{better}_vs_{weaker}").strip("_")


@dataclass(frozen=True)
class Quality:
    """What a shard measures beyond its own play: the skill pairs (better, weaker) on the
    first ``skill_deals`` deals, the information pair (omniscient, fair) on the first
    ``information_deals``, the course on the first ``course_deals``, solved trick by trick
    on the first ``solver_deals`` of those."""

    skill: tuple[tuple[str, str], ...] = ()
    skill_deals: int = 0
    information: tuple[str, str] = ("dd", "pimc")
    information_deals: int = 0
    course_deals: int = 0
    solver_deals: int = 0
    columns: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def of(cls, game: Game, table: Mapping[str, Any], deals: int, where: str = "[quality]") -> Quality:
        """Validate an experiment's ``[quality]`` table (sizes capped at its ``deals``); a
        ``ConfigError`` naming what is wrong."""
        def fail(message: str) -> ConfigError:
            return ConfigError(f"{where}: {message}")

        unknown = sorted(set(table) - set(QUALITY_KEYS))
        if unknown:
            raise fail(f"unknown key {unknown[0]!r} (keys: {', '.join(QUALITY_KEYS)})")
        pairs = tuple(_pair(p, game, "skill", fail) for p in _list(table.get("skill", []), "skill", fail))
        pairs += tuple(_pair(["heuristic", f"restricted:heuristic:{r}"], game, "restricted", fail)
                       for r in _names(table.get("restricted", []), "restricted", fail))
        info = _pair(table.get("information", ["dd", "pimc"]), game, "information", fail)
        given = {k: _size(table.get(k, 0), k, fail) for k in QUALITY_KEYS if k.endswith("_deals")}
        sizes = {k: min(v, deals) for k, v in given.items()}
        if sizes["skill_deals"] and not pairs:
            raise fail("skill_deals needs skill pairs (skill = [[\"heuristic\", \"random\"]])")
        if "restricted" in table and not sizes["skill_deals"]:
            raise fail("restricted needs skill_deals (the deals each restriction is measured on)")
        if given["solver_deals"] > given["course_deals"]:
            raise fail("solver_deals must not exceed course_deals (the solved deals are replayed)")
        if (sizes["solver_deals"] or sizes["information_deals"]) and game.solver is None:
            raise fail(f"game {game.name} has no solver (solver_deals and information_deals need one)")
        quality = cls(pairs, sizes["skill_deals"], info, sizes["information_deals"],
                      sizes["course_deals"], sizes["solver_deals"])
        return cls(**{**quality.__dict__, "columns": quality.column_names()})

    def column_names(self) -> tuple[str, ...]:
        """The columns the measures add to a shard, in order."""
        out: list[str] = []
        for a, b in self.skill if self.skill_deals else ():
            name = pair_column(a, b)
            out += [name, name.replace("skill_", "skill_won_", 1)]
        if self.information_deals:
            out += ["information", "information_won"]
        if self.course_deals:
            out += list(COURSE_COLUMNS)
        return tuple(out)

    def normalised(self) -> dict[str, Any]:
        """The table as the config hash sees it."""
        return {"skill": [list(p) for p in self.skill], "skill_deals": self.skill_deals,
                "information": list(self.information), "information_deals": self.information_deals,
                "course_deals": self.course_deals, "solver_deals": self.solver_deals}


def _list(value: Any, what: str, fail: Any) -> list[Any]:
    if not isinstance(value, list):
        raise fail(f"{what} must be a list of [better, weaker] policy pairs")
    return value


def _names(value: Any, what: str, fail: Any) -> list[str]:
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise fail(f"{what} must be a list of the game's restrictions (\"no_trump_lead\", ...)")
    return value


def _pair(value: Any, game: Game, what: str, fail: Any) -> tuple[str, str]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(p, str) for p in value)):
        raise fail(f"{what}: a pair is a list of two policy names, got {value!r}")
    try:
        for name in value:
            policy_ids([name] * game.n_players, game)
        check_seats(game, list(value))
    except PolicyError as e:
        raise fail(f"{what}: {e}") from None
    return value[0], value[1]


def _size(value: Any, what: str, fail: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise fail(f"{what} must be a whole number of deals (0: none), got {value!r}")
    return value


# --- the course of the card play -----------------------------------------------------------

@dataclass
class Course:
    """One deal's course (``COURSE_COLUMNS``, -1 where not measured), and what they were read
    from: each side's card points after every trick (the count's side first), the verdicts
    (the count's side reaches ``win`` under best play from the start of each trick solved,
    then at the end) and the count that wins."""

    lead_changes: int = NOT_MEASURED
    behind_at_half: int = NOT_MEASURED
    settled_after: int = NOT_MEASURED
    swings: int = NOT_MEASURED
    points: list[tuple[int, int]] = field(default_factory=list)
    verdicts: list[bool] = field(default_factory=list)
    win: int = 0


def settled(verdicts: Sequence[bool]) -> tuple[int, int]:
    """From the verdicts at the start of each trick and the deal's own at its end (the last),
    the tricks after which the verdict stopped changing and how often it changed.

    >>> settled([True, True, True])
    (0, 0)
    >>> settled([True, False, True, True])
    (2, 2)
    """
    final = verdicts[-1]
    after = len(verdicts) - 1
    while after > 0 and verdicts[after - 1] == final:
        after -= 1
    return after, sum(1 for x, y in zip(verdicts, verdicts[1:]) if x != y)


def tension(points: Sequence[tuple[int, int]], winner_counted: bool) -> tuple[int, int]:
    """From each side's card points after every trick (the count's side first), how often the
    side ahead changed (a level score keeps the last) and whether the winner was behind after
    half the tricks (1, else 0; -1 for fewer than two tricks).

    >>> tension([(10, 0), (10, 11), (30, 11), (30, 40)], winner_counted=True)
    (3, 1)
    """
    ahead, changes = 0, 0
    for mine, theirs in points:
        now = (mine > theirs) - (mine < theirs)
        if now and ahead and now != ahead:
            changes += 1
        ahead = now or ahead
    if len(points) < 2:
        return changes, NOT_MEASURED
    mine, theirs = points[len(points) // 2 - 1]
    behind = mine < theirs if winner_counted else theirs < mine
    return changes, int(behind)


def course(game: Game, columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
           rules: dict[str, Any], solve: bool, ws: Any) -> Course:
    """Deal ``i``'s course from its recorded ``rows`` (solved trick by trick with ``solve``,
    in the game's solver workspace ``ws``)."""
    cp = game.card_play
    assert cp is not None
    started = cp.start(columns, i, rows, rules)
    if started is None:
        return Course()
    state, actions = started
    module = hooks(game)
    q = np.zeros(solver.Q_LENGTH, np.int64)
    probe = state.copy()
    module.prepare(probe)
    module.question(probe, q)
    if solver.each_for_himself(q):
        return Course()
    trick_no = cp.fields.TRICK_NO  # type: ignore[attr-defined]
    trick_n = cp.fields.TRICK_N  # type: ignore[attr-defined]
    points: list[tuple[int, int]] = []
    verdicts: list[bool] = []
    seen, starts = -1, 0
    threshold = 0
    for k in range(len(actions) + 1):
        done = bool(cp.finished(state))
        if done or (state[trick_n] == 0 and state[trick_no] > seen):
            seen = int(state[trick_no])
            starts += not done
            probe = state.copy()
            module.prepare(probe)
            count, open_, threshold = (int(x) for x in module.outcome_line(probe, q))
            if seen > 0 or done:
                points.append((count, int(q[solver.Q_SUM]) - count - open_))
            if done:
                if not solver.counts_tricks(q) and starts < game.tricks:
                    return Course()  # ended by agreement (an offer, a give-up)
                verdicts.append(count >= threshold)
                break
            if solve:
                solver.clear(ws)
                verdicts.append(int(module.bound(probe, q, threshold, ws)) >= threshold)
        if k < len(actions):
            cp.step(state, int(actions[k]))
    if not cp.finished(state):
        return Course()  # the record stops before the end (a replay error)
    out = Course(points=points, verdicts=verdicts, win=threshold)
    if not solver.counts_tricks(q):
        out.lead_changes, out.behind_at_half = tension(points, verdicts[-1])
    if solve:
        out.settled_after, out.swings = settled(verdicts)
    return out


# --- a shard's columns ---------------------------------------------------------------------

def measure(game: Game, quality: Quality, seed: int, first: int, count: int,
            rules: dict[str, Any], policies: list[str],
            scored: Sequence[dict[str, Any]]) -> list[dict[str, np.ndarray]]:
    """The quality columns of deals ``first .. first + count - 1`` played by ``policies``
    under ``rules``, for each of ``scored`` (the rules each output is scored under): every
    measure on the deals below its size, -1 (NaN for a score) on the others."""
    outs: list[dict[str, np.ndarray]] = [{} for _ in scored]
    for a, b in quality.skill if quality.skill_deals else ():
        _pair_columns(outs, pair_column(a, b), game, seed, first, count, quality.skill_deals,
                      rules, a, b, scored)
    if quality.information_deals:
        _pair_columns(outs, "skill_information", game, seed, first, count,
                      quality.information_deals, rules, *quality.information, scored)
        for out in outs:
            out["information"] = out.pop("skill_information")
            out["information_won"] = out.pop("skill_won_information")
    if quality.course_deals:
        course_columns = _course_columns(game, quality, seed, first, count, rules, policies)
        for out in outs:
            out.update(course_columns)
    return outs


def _pair_columns(outs: list[dict[str, np.ndarray]], name: str, game: Game, seed: int, first: int,
                  count: int, size: int, rules: dict[str, Any], a: str, b: str,
                  scored: Sequence[dict[str, Any]]) -> None:
    n = max(0, min(count, size - first))
    played = duplicate(game, seed, first, n, rules, a, b, scored) if n else None
    for k, out in enumerate(outs):
        column = np.full(count, np.nan)
        won = np.full(count, np.nan)
        if played is not None:
            diff, won_a, won_b, slots = played[k]
            column[:n] = diff
            won[:n] = (won_a - won_b) / slots
        out[name] = column
        out[name.replace("skill_", "skill_won_", 1)] = won


def _course_columns(game: Game, quality: Quality, seed: int, first: int, count: int,
                    rules: dict[str, Any], policies: list[str]) -> dict[str, np.ndarray]:
    out = {name: np.full(count, NOT_MEASURED, np.int8) for name in COURSE_COLUMNS}
    n = max(0, min(count, quality.course_deals - first))
    if not n or game.card_play is None or game.solver is None:
        return out
    batch = play(game, seed, first, n, rules, policies, record=True)
    assert batch.actions is not None
    module = hooks(game)
    ws = module.new_workspace(module.TT_BITS)
    for i in range(n):
        c = course(game, batch.columns, i, batch.actions[i], rules,
                   first + i < quality.solver_deals, ws)
        for name in COURSE_COLUMNS:
            out[name][i] = getattr(c, name)
    return out

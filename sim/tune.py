"""The rule tuner: race rule sets on common deals and name the fairest (``stichsim tune``).

An experiment file with a ``[tune]`` table names what to search::

    [tune]
    options = ["equal_cards", "tie_rule"]       # default: every discrete option, every value
    # or a table: name = "all" | [values] | {low = 0, high = 4} (integer options need a range)
    measure = "start_edge"                      # or a list: several objectives, a Pareto front
    targets = {declarer_win_rate = 0.55}        # a measure's target where it has no fair value
    delta = 0.02                                # or {start_edge = 0.02, tie_rate = 0.002}
    constraints = ["tie_rate <= 0.01"]
    policies = ["heuristic", "random"]          # rungs: every seat plays that policy (or lists)
    first_round = 20000                         # deals of the first round (default: a shard)

Every candidate (the experiment's rules with the searched options set, every combination)
plays the same deal indices, in rounds of growing size (each twice the last, up to the
budget). Candidates whose rules differ only in scoring-only options share one play of each
shard, re-scored for each (as an experiment's variants do). After each round the race
(``analysis.race.judge``) lets go every candidate another beats by more than ``delta``,
with intervals that hold together over the whole race; it stops when one candidate is
left, when no deal within the budget could split those left, or at the budget.

A shard's per-deal measures of every candidate that played it are one Parquet file under
``<results>/<name>/race/``, written atomically: a killed tune run again resumes where it
stopped, and the decisions depend only on those files, so the outcome is the same for the
same seed whatever the workers or the backend.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

import sim
from analysis import balance, load
from analysis.race import Constraint, Estimates, Moments, Objective, Verdict, judge, pareto_front, quantile
from analysis.stats import ALPHA
from sim.engine.game import Game
from sim.engine.play import play
from sim.errors import ConfigError
from sim.options import Option, RuleError
from sim.quality import Quality
from sim.quality import measure as measure_quality
from sim.registry import find_game
from sim.runner import (
    COMPRESSION,
    Experiment,
    _canonical_json,
    _policies,
    _prepare,
    outcome_metadata,
    play_key,
    read_shard_metadata,
    shard_columns,
    shard_table,
    write_atomic_bytes,
)

TUNE_KEYS = ("options", "measure", "targets", "delta", "constraints", "policies", "first_round")
"""Keys of an experiment's ``[tune]`` table."""
MAX_CANDIDATES = 5000
"""The most rule sets one tune may race (their pairs are compared every round)."""
RACE = "race"
"""The folder of a tune's shard files under its results folder."""
_CONSTRAINT = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=|<|>)\s*([-+0-9.eE]+)\s*\Z")


# --- what a tune searches --------------------------------------------------------------------

@dataclass(frozen=True)
class Tune:
    """A validated tune: the experiment (game, seed, base rules, shard size), the candidates
    (complete rule sets), the objectives and constraints, the rungs of players and the
    round schedule up to ``budget`` deals a candidate."""

    experiment: Experiment
    searched: tuple[str, ...]
    candidates: tuple[dict[str, Any], ...]
    measures: tuple[str, ...]
    targets: Mapping[str, float]
    deltas: Mapping[str, float]
    constraints: tuple[Constraint, ...]
    rungs: tuple[tuple[str, ...], ...]
    budget: int
    first_round: int
    groups: tuple[tuple[int, ...], ...] = field(default=())
    """Candidates that play the same deals the same way (equal play rules), by index."""

    @cached_property
    def group_of(self) -> dict[int, int]:
        """Each candidate's play group (an index into ``groups``)."""
        return {c: g for g, members in enumerate(self.groups) for c in members}

    def rounds(self) -> list[int]:
        """Deals a candidate has played after each round: a first round, then each twice
        the last (whole shards), the last the budget."""
        size = self.experiment.shard_size
        ends, n = [], self.first_round
        while True:
            n = min(self.budget, -(-n // size) * size)
            ends.append(n)
            if n >= self.budget:
                return ends
            n *= 2

    @property
    def read(self) -> tuple[str, ...]:
        """Every measure a shard file holds: the raced ones, then those constrained."""
        return tuple(dict.fromkeys([*self.measures, *(c.measure for c in self.constraints)]))

    def objectives(self) -> list[tuple[str, int, Objective]]:
        """Each measure on each rung: ``(measure, rung, Objective)``."""
        return [(m, r, Objective(self.label(m, r), self.targets[m], self.deltas[m]))
                for r in range(len(self.rungs)) for m in self.measures]

    def limits(self) -> list[tuple[Constraint, int]]:
        """Each constraint on each rung."""
        return [(c, r) for r in range(len(self.rungs)) for c in self.constraints]

    def label(self, measure: str, rung: int) -> str:
        """A measure's name, with its rung's players where there are several rungs."""
        return measure if len(self.rungs) == 1 else f"{measure} ({', '.join(self.rungs[rung])})"

    def normalised(self) -> dict[str, Any]:
        """What the tune's hash is taken over: the experiment and everything raced."""
        return {"experiment": self.experiment.normalised(), "searched": list(self.searched),
                "candidates": [dict(c) for c in self.candidates], "measures": list(self.measures),
                "targets": dict(self.targets), "deltas": dict(self.deltas),
                "constraints": [str(c) for c in self.constraints],
                "rungs": [list(r) for r in self.rungs], "budget": self.budget,
                "first_round": self.first_round}

    def config_hash(self) -> str:
        return hashlib.sha256(_canonical_json(self.normalised()).encode()).hexdigest()


def load_tune(path: str | os.PathLike[str], budget: int | None = None) -> Tune:
    """Read an experiment file with a ``[tune]`` table (``budget``: the most deals one
    candidate plays; default the experiment's deals). Bad input raises ``ConfigError``."""
    exp = Experiment.load(path)
    raw = exp.tune
    source = exp.source

    def fail(message: str) -> ConfigError:
        return ConfigError(f"{source}: [tune] {message}")

    if not raw:
        raise ConfigError(f"{source}: no [tune] table (what to search: options, measure, delta ...)")
    if exp.extra_variants:
        raise ConfigError(f"{source}: a tune makes its own rule sets; remove the [[variants]]")
    unknown = [k for k in raw if k not in TUNE_KEYS]
    if unknown:
        raise fail(f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
                   f"(allowed: {', '.join(TUNE_KEYS)})")
    game = exp.game_obj
    columns = set(shard_columns(game)) | set(exp.quality.columns if exp.quality else ())
    searched, values = _searched(game, raw.get("options"), fail)
    measures = _names(raw.get("measure", "start_edge"), "measure", fail)
    constraints = tuple(_constraint(c, fail) for c in _names(raw.get("constraints", []), "constraints",
                                                               fail, empty=True))
    for name in [*measures, *(c.measure for c in constraints)]:
        _check_measure(name, columns, game, fail)
    targets = _numbers(raw.get("targets", {}), "targets", measures, fail)
    for m in measures:
        fair = balance.MEASURES[m].fair
        if m not in targets:
            if fair is None:
                raise fail(f"measure {m!r} has no fair value: give it one in targets ({m} = ...)")
            targets[m] = fair
    delta = raw.get("delta")
    if delta is None:
        raise fail("missing delta (the smallest difference that matters, in the measure's unit)")
    deltas = (dict.fromkeys(measures, _number(delta, "delta", fail)) if not isinstance(delta, Mapping)
              else _numbers(delta, "delta", measures, fail))
    if missing := [m for m in measures if m not in deltas]:
        raise fail(f"delta: missing for {', '.join(missing)}")
    if any(d < 0 for d in deltas.values()):
        raise fail("delta must not be negative")
    rungs = _rungs(raw.get("policies", [exp.policies]), game, fail)
    budget = exp.deals if budget is None else budget
    first = raw.get("first_round", exp.shard_size)
    if isinstance(first, bool) or not isinstance(first, int) or first < 1:
        raise fail(f"first_round must be a positive number of deals, got {first!r}")
    candidates = [game.rules({**exp.rules, **dict(zip(searched, combo, strict=True))})
                  for combo in itertools.product(*values)]
    if len(candidates) > MAX_CANDIDATES:
        raise fail(f"{len(candidates):,} rule sets to race (at most {MAX_CANDIDATES:,}): search fewer "
                   f"options or values")
    return Tune(exp, searched, tuple(candidates), measures, targets, deltas, constraints, rungs,
                budget, min(first, budget), _groups(game, candidates))


def _searched(game: Game, raw: Any, fail: Any) -> tuple[tuple[str, ...], list[list[Any]]]:
    """The options searched and the values of each."""
    options = game.options
    if raw is None:
        chosen = {o.name: "all" for o in options.discrete()}
    elif isinstance(raw, list) and all(isinstance(x, str) for x in raw):
        chosen = dict.fromkeys(raw, "all")
    elif isinstance(raw, Mapping):
        chosen = dict(raw)
    else:
        raise fail(f"options must be a list of option names or a table of name = values, got {raw!r}")
    if not chosen:
        raise fail("options: nothing to search")
    values = []
    for name, spec in chosen.items():
        if name not in options.by_name:
            raise fail(f"unknown option {name!r} for {game.name} (options: {', '.join(options.by_name)})")
        values.append(_values(options.by_name[name], spec, fail))
    return tuple(chosen), values


def _values(option: Option, spec: Any, fail: Any) -> list[Any]:
    """The values of ``option`` that ``spec`` names: ``"all"``, a list, or ``{low, high}``."""
    name = option.name
    try:
        if isinstance(spec, Mapping):
            if set(spec) - {"low", "high", "step"} or not {"low", "high"} <= set(spec):
                raise fail(f"options.{name}: a range is {{low = .., high = ..}} (step optional), "
                           f"got {spec!r}")
            low, high, step = spec["low"], spec["high"], spec.get("step", 1)
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in (low, high, step)) \
                    or step < 1 or high < low:
                raise fail(f"options.{name}: low <= high and step >= 1, integers, got {spec!r}")
            return [option.parse(v) for v in range(low, high + 1, step)]
        if spec == "all":
            if option.is_integer:
                raise fail(f"options.{name}: an integer option is searched over a range: "
                           f"{name} = {{low = .., high = ..}}")
            return list(option.allowed)
        if isinstance(spec, list) and spec:
            found = [option.parse(v) for v in spec]
            if len(set(map(repr, found))) < len(found):
                raise fail(f"options.{name}: a value is listed twice")
            return found
    except RuleError as e:
        raise fail(f"options: {e}") from None
    raise fail(f"options.{name}: \"all\", a list of values or {{low = .., high = ..}}, got {spec!r}")


def _names(raw: Any, what: str, fail: Any, empty: bool = False) -> tuple[str, ...]:
    names = [raw] if isinstance(raw, str) else raw
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names) or \
            (not names and not empty) or len(set(names)) < len(names):
        raise fail(f"{what} must be a name or a list of distinct names, got {raw!r}")
    return tuple(names)


def _check_measure(name: str, columns: set[str], game: Game, fail: Any) -> None:
    if name not in balance.MEASURES:
        raise fail(f"unknown measure {name!r} (measures: {', '.join(balance.MEASURES)})")
    if missing := [c for c in balance.MEASURES[name].needs if not balance.has_column(c, columns)]:
        raise fail(f"measure {name!r} is not available for {game.name} (its results have no "
                   f"{', '.join(missing)}: an experiment's [quality] table measures them)")


def _number(value: Any, what: str, fail: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise fail(f"{what} must be a number, got {value!r}")
    return float(value)


def _numbers(raw: Any, what: str, measures: Sequence[str], fail: Any) -> dict[str, float]:
    if not isinstance(raw, Mapping):
        raise fail(f"{what} must be a table of measure = number, got {raw!r}")
    if wrong := [k for k in raw if k not in measures]:
        raise fail(f"{what}: {', '.join(map(repr, wrong))} is not a raced measure ({', '.join(measures)})")
    return {k: _number(v, f"{what}.{k}", fail) for k, v in raw.items()}


def _constraint(text: str, fail: Any) -> Constraint:
    found = _CONSTRAINT.match(text)
    if not found:
        raise fail(f"constraint {text!r}: expected 'measure <= number' (or <, >=, >)")
    try:
        bound = float(found[3])
    except ValueError:
        raise fail(f"constraint {text!r}: {found[3]!r} is not a number") from None
    return Constraint(found[1], found[2], bound)


def _rungs(raw: Any, game: Game, fail: Any) -> tuple[tuple[str, ...], ...]:
    """Each rung's policy per seat: a name (every seat) or a list of one per seat."""
    if not isinstance(raw, list) or not raw:
        raise fail(f"policies must be a list of rungs (a policy name, or one per seat), got {raw!r}")
    rungs = [tuple(_policies(rung, game, "policies", fail)) for rung in raw]
    if len(set(rungs)) < len(rungs):
        raise fail("policies: a rung is listed twice")
    return tuple(rungs)


def _groups(game: Game, candidates: Sequence[Mapping[str, Any]]) -> tuple[tuple[int, ...], ...]:
    """Candidates with equal play rules, in order of their first member."""
    found: dict[str, list[int]] = {}
    for i, rules in enumerate(candidates):
        found.setdefault(play_key(game.options, rules), []).append(i)
    return tuple(tuple(g) for g in found.values())


# --- one shard of one group: play once, score every candidate --------------------------------

@dataclass(frozen=True)
class RaceTask:
    """One shard of one play group on one rung: small and picklable, for any worker."""

    game: str
    seed: int
    first: int
    count: int
    policies: tuple[str, ...]
    candidates: tuple[tuple[int, dict[str, Any]], ...]
    """``(index, rules)`` of the candidates still racing in the group; the first's rules play."""
    measures: tuple[str, ...]
    path: str
    metadata: dict[str, str]
    quality: Quality | None = None


def column(candidate: int, measure: str) -> str:
    """The column of a candidate's per-deal measure in a race shard file."""
    return f"{candidate}:{measure}"


def centre_column(candidate: int, measure: str) -> str:
    """The column of a standard deviation's per-deal mean (``Measure.centre``)."""
    return f"{candidate}:{measure}:centre"


def play_task(task: RaceTask) -> str:
    """Play the shard once, score it under each candidate's rules, write every candidate's
    per-deal measures (null where a rate leaves the deal out) atomically; the path."""
    game = find_game(task.game)
    rules = task.candidates[0][1]
    batch = play(game, task.seed, task.first, task.count, rules, list(task.policies))
    outcome = load.Outcome.from_json(outcome_metadata(game))
    arrays: dict[str, pa.Array] = {"deal": pa.array(batch.columns["deal"].astype(np.int64))}
    extras: list[dict[str, np.ndarray]] = [{} for _ in task.candidates]
    if task.quality is not None:
        extras = measure_quality(game, task.quality, task.seed, task.first, task.count, rules,
                         list(task.policies), [cand for _, cand in task.candidates])
    for (index, cand), extra in zip(task.candidates, extras, strict=True):
        columns = batch.columns if cand == rules else game.rescore(batch.columns, cand)
        frame = pl.from_arrow(shard_table(game, columns, {}, extra))
        assert isinstance(frame, pl.DataFrame)
        lazy = frame.lazy().with_columns(variant=pl.lit(str(index)))
        for m in task.measures:
            measure = balance.MEASURES[m]
            values = measure.per_deal(lazy, outcome).collect()["value"]
            arrays[column(index, m)] = values.cast(pl.Float64).to_arrow()
            if measure.centre is not None:
                centre = measure.centre(lazy, outcome).collect()["value"]
                arrays[centre_column(index, m)] = centre.cast(pl.Float64).to_arrow()
    table = pa.table(arrays).replace_schema_metadata(task.metadata)
    path = Path(task.path)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression=COMPRESSION)
    write_atomic_bytes(path, sink.getvalue().to_pybytes())
    return task.path


# --- the race --------------------------------------------------------------------------------

@dataclass
class Standing:
    """A candidate's place in the race: its measures at the last round it played, the deals
    it played and the round it left (None: still in)."""

    values: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    deals: int = 0
    left: int | None = None
    reason: str | None = None
    separate: int = 0


@dataclass
class Round:
    """One round: deals per candidate after it, the candidates in it and their measures."""

    deals: int
    entered: list[int]
    values: dict[str, list[tuple[float, float, float]]]
    z: float
    separate: list[int]
    """Per candidate: the deals an experiment of its own (independent deals) would need to
    judge it against the round's best as well as the race did (``separate_deals``)."""
    twins: list[list[int]]
    """Candidates whose every measure came out the same on every deal so far (their rules
    differ in options that changed nothing on these deals), in groups of two or more."""


def shard_file(root: Path, rung: int, group: int, shard: int) -> Path:
    return root / RACE / f"rung={rung}" / f"group={group:03d}" / f"shard={shard:05d}.parquet"


def _tasks(tune: Tune, root: Path, tune_hash: str, alive: set[int], start: int,
           end: int) -> Iterator[RaceTask]:
    """The shard files a round still lacks: every rung and group with a candidate still in,
    the shards from deal ``start`` to ``end``; a file of another race is removed."""
    exp = tune.experiment
    size = exp.shard_size
    for rung, policies in enumerate(tune.rungs):
        for g, members in enumerate(tune.groups):
            racing = tuple(i for i in members if i in alive)
            if not racing:
                continue
            for first in range(start, end, size):
                k = first // size
                path = shard_file(root, rung, g, k)
                meta = {"stichsim_version": sim.__version__, "engine_hash": sim.SOURCE_HASH,
                        "tune_hash": tune_hash, "candidates": json.dumps(racing)}
                found = read_shard_metadata(path) if path.exists() else None
                if found is not None and all(found.get(key) == v for key, v in meta.items()):
                    continue
                path.unlink(missing_ok=True)
                path.parent.mkdir(parents=True, exist_ok=True)
                yield RaceTask(exp.game, exp.seed, first, min(size, end - first), policies,
                               tuple((i, tune.candidates[i]) for i in racing), tune.read,
                               str(path), meta, exp.quality)


def _block(tune: Tune, root: Path, shard: int, keys: list[tuple[int, int, str, str]]) -> np.ndarray:
    """One shard's per-deal columns for ``keys`` (rung, candidate, measure, ``y`` or ``z``),
    the column of ones first: the rows the race's moments add up. A rate's ``z`` is whether
    it counts the deal, a standard deviation's the deal's mean (its ``centre`` column)."""
    parts: dict[tuple[int, int], pl.DataFrame] = {}
    out = []
    for rung, cand, measure, part in keys:
        g = tune.group_of[cand]
        if (rung, g) not in parts:
            parts[(rung, g)] = pl.read_parquet(shard_file(root, rung, g, shard))
        if part == "z" and balance.MEASURES[measure].centre is not None:
            out.append(parts[(rung, g)][centre_column(cand, measure)].cast(pl.Float64).to_numpy())
            continue
        values = parts[(rung, g)][column(cand, measure)]
        out.append((values.is_not_null() if part == "z" else values.fill_null(0.0)).cast(pl.Float64)
                   .to_numpy())
    n = len(out[0]) if out else 0
    return np.column_stack([np.ones(n), *out])


def _keys(tune: Tune, alive: Sequence[int]) -> list[tuple[int, int, str, str]]:
    """The moments' columns (after the ones): per rung, measure (raced or constrained) and
    candidate its ``y``, and its ``z`` where the measure is a rate among some deals or a
    standard deviation."""
    keys = []
    for rung in range(len(tune.rungs)):
        for m in tune.read:
            keys += [(rung, c, m, "y") for c in alive]
            if balance.MEASURES[m].among or balance.MEASURES[m].centre is not None:
                keys += [(rung, c, m, "z") for c in alive]
    return keys


def race(tune: Tune, root: Path, jobs: int = 1, backend: Any = "loky",
         progress: bool = True) -> dict[str, Any]:
    """Run the race (what its files lack) and return its outcome (``outcome``)."""
    from joblib import Parallel, delayed
    from tqdm import tqdm

    tune_hash = tune.config_hash()
    exp = tune.experiment
    ends = tune.rounds()
    alive = list(range(len(tune.candidates)))
    standing = [Standing() for _ in tune.candidates]
    rounds: list[Round] = []
    keys: list[tuple[int, int, str, str]] = []
    moments = Moments(0, np.zeros((1, 1)))
    start = 0
    bar = tqdm(total=len(ends), unit="round", desc=exp.name, file=sys.stderr,
               disable=None if progress else True, dynamic_ncols=True)
    try:
        for number, end in enumerate(ends, 1):
            todo = list(_tasks(tune, root, tune_hash, set(alive), start, end))
            if todo:
                parallel = Parallel(n_jobs=min(jobs, len(todo)), backend=backend,
                                    return_as="generator_unordered")
                for _ in parallel(delayed(play_task)(t) for t in todo):
                    pass
            racing = _keys(tune, alive)
            moments, keys = _restrict(moments, keys, racing), racing
            width = len(keys) + 1
            new = Moments.total((_block(tune, root, k, keys)
                                 for k in range(start // exp.shard_size, -(-end // exp.shard_size))),
                                width)
            moments = moments + new
            start = end
            verdict, record = _judge(tune, moments, keys, alive, len(ends), end)
            rounds.append(record)
            for j, cand in enumerate(alive):
                standing[cand].deals = end
                standing[cand].values = {name: vals[j] for name, vals in record.values.items()}
                standing[cand].separate = record.separate[j]
                if verdict.leaves[j]:
                    standing[cand].left = number
                    standing[cand].reason = "constraint" if verdict.violates[j] else "beaten"
            alive = [c for j, c in enumerate(alive) if not verdict.leaves[j]]
            bar.update(1)
            if len(alive) <= 1 or not verdict.split_possible:
                break
    finally:
        bar.close()
    return outcome(tune, standing, rounds, alive)


def _restrict(moments: Moments, old: list[tuple[int, int, str, str]],
              new: list[tuple[int, int, str, str]]) -> Moments:
    """The moments of the deals so far (over the columns ``old``), over the columns ``new``
    (those still racing)."""
    if moments.n == 0:
        return Moments(0, np.zeros((len(new) + 1, len(new) + 1)))
    at = {key: j + 1 for j, key in enumerate(old)}
    index = np.array([0] + [at[key] for key in new])
    return Moments(moments.n, moments.cross[np.ix_(index, index)])


def _judge(tune: Tune, moments: Moments, keys: list[tuple[int, int, str, str]], alive: list[int],
           rounds: int, end: int) -> tuple[Verdict, Round]:
    """The round's verdict and its record (each candidate's measures with 95 % intervals)."""
    at = {key: j + 1 for j, key in enumerate(keys)}

    def estimates(rung: int, measure: str) -> Estimates:
        m = balance.MEASURES[measure]
        y = [at[(rung, c, measure, "y")] for c in alive]
        if m.centre is not None:
            return Estimates.sd_of(moments, y, [at[(rung, c, measure, "z")] for c in alive])
        z = [at[(rung, c, measure, "z")] if m.among else 0 for c in alive]
        return Estimates.of(moments, y, z)

    objectives = tune.objectives()
    raced = [estimates(r, m) for m, r, _ in objectives]
    limits = [(c, estimates(r, c.measure)) for c, r in tune.limits()]
    verdict = judge(raced, [o for _, _, o in objectives], limits, rounds, tune.budget)
    values: dict[str, list[tuple[float, float, float]]] = {}
    shown = [(o.name, e) for (_, _, o), e in zip(objectives, raced, strict=True)]
    shown += [(f"{c.measure} (constraint{'' if len(tune.rungs) == 1 else f', rung {r}'})", e)
              for (c, r), (_, e) in zip(tune.limits(), limits, strict=True)]
    for name, est in shown:
        lo, hi = est.interval(ALPHA)
        values[name] = [(float(v), float(a), float(b)) for v, a, b in zip(est.value, lo, hi, strict=True)]
    separate = separate_deals(raced[0], objectives[0][2], end)
    same = np.ones((len(alive), len(alive)), bool)
    for est in [*raced, *(e for _, e in limits)]:
        same &= (est.pair_se() == 0) & (est.value[:, None] == est.value[None, :])
    return verdict, Round(end, list(alive), values, verdict.z, separate, twins(same, alive))


def twins(same: np.ndarray, alive: Sequence[int]) -> list[list[int]]:
    """The groups of two or more candidates that ``same`` (a symmetric relation of equal
    per-deal values, hence transitive) joins.

    >>> twins(np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]], bool), [4, 5, 6])
    [[4, 6]]
    """
    groups: list[list[int]] = []
    seen: set[int] = set()
    for j in range(len(alive)):
        if j in seen:
            continue
        members = [int(k) for k in np.flatnonzero(same[j])]
        seen.update(members)
        if len(members) > 1:
            groups.append([alive[k] for k in members])
    return groups


def separate_deals(est: Estimates, objective: Objective, n: int) -> list[int]:
    """For each candidate, the deals an experiment on deals of its own would need for its
    difference from the best (closest to the target) to be as precise as the race's paired
    one after ``n`` deals: ``n (var(c) + var(best)) / var(c - best)``, but no more than
    settle a difference of delta (a 95 % half width of delta / 2); the best and a candidate
    that plays every deal as the best does: ``n``."""
    best = int(np.argmin(np.abs(est.value - objective.target)))
    var = np.diag(est.cov)
    summed = var + var[best]
    paired = var + var[best] - 2 * est.cov[:, best]
    found = []
    for c in range(len(var)):
        need = float(n) if c == best or paired[c] <= 0 else n * summed[c] / paired[c]
        if objective.delta > 0:
            need = min(need, (quantile(ALPHA) * np.sqrt(summed[c]) / (objective.delta / 2)) ** 2)
        found.append(int(np.ceil(need)))
    return found


def outcome(tune: Tune, standing: list[Standing], rounds: list[Round], alive: list[int]) -> dict[str, Any]:
    """The tune's outcome as ``--json`` prints it: every candidate (rules, first objective's
    value and interval, deals, the round it left), the best group, the deals spent, the
    Pareto front of those left (several objectives) and the rounds."""
    objectives = tune.objectives()
    first = objectives[0][2]

    def distance(c: int, obj: Objective) -> float:
        return abs(standing[c].values[obj.name][0] - obj.target)

    best = sorted(alive, key=lambda c: (distance(c, first), c))
    distances = np.array([[distance(c, o) for _, _, o in objectives] for c in best])
    front = [c for c, on in zip(best, pareto_front(distances.reshape(len(best), len(objectives))),
                                strict=True) if on]
    plays = sum(len(tune.rungs) * _group_deals(tune, g, standing) for g in tune.groups)
    last = rounds[-1].deals
    candidates = []
    for i, rules in enumerate(tune.candidates):
        s = standing[i]
        value, lo, hi = s.values[first.name]
        candidates.append({"rules": {k: rules[k] for k in tune.searched}, "value": value, "lo": lo,
                           "hi": hi, "deals": s.deals, "eliminated_round": s.left,
                           "reason": s.reason,
                           "measures": {name: {"value": v, "lo": a, "hi": b}
                                        for name, (v, a, b) in s.values.items()}})
    return {
        "game": tune.experiment.game, "name": tune.experiment.name, "seed": tune.experiment.seed,
        "unit": tune.experiment.game_obj.outcome.unit,
        "rules": dict(tune.experiment.rules), "searched": list(tune.searched),
        "objectives": [{"name": o.name, "measure": m, "rung": list(tune.rungs[r]), "target": o.target,
                        "delta": o.delta} for m, r, o in objectives],
        "constraints": [str(c) for c in tune.constraints],
        "budget": tune.budget, "rounds_planned": len(tune.rounds()),
        "candidates": candidates, "best": best, "front": front,
        "deals_spent": plays,
        "candidate_deals": sum(s.deals for s in standing) * len(tune.rungs),
        "sweep_deals": len(tune.groups) * last * len(tune.rungs),
        "separate_deals": sum(s.separate for s in standing) * len(tune.rungs),
        "twins": [g for g in rounds[-1].twins if all(c in alive for c in g)],
        "rounds": [{"deals": r.deals, "entered": r.entered, "z": r.z, "values": r.values} for r in rounds],
    }


def _group_deals(tune: Tune, group: Sequence[int], standing: list[Standing]) -> int:
    """Deals a play group played: as many as its longest-racing candidate."""
    return max(standing[c].deals for c in group)


def run_tune(tune: Tune, results: str | os.PathLike[str] = Path("results"), jobs: int = 1,
             force: bool = False, progress: bool = True,
             backend: Any = "loky") -> tuple[Path, dict[str, Any]]:
    """Race ``tune`` in ``results/<name>`` (resuming what is there) and return the folder and
    the outcome."""
    root = Path(results) / tune.experiment.name
    _prepare(root, tune.experiment, tune.config_hash(), resume=not force, force=force,
             flag="--results")
    return root, race(tune, root.absolute(), jobs=jobs, backend=backend, progress=progress)


__all__ = ["MAX_CANDIDATES", "RACE", "TUNE_KEYS", "RaceTask", "Tune", "load_tune",
           "outcome", "play_task", "race", "run_tune"]

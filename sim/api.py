"""The command line's work as Python calls, for notebooks and scripts: ``run`` an experiment
and get its deals as a lazy polars frame, play an ``arena`` and get a table, write a ``report``,
race a ``tune``.

Each call does what its command does (``stichsim run``, ``arena``, ``report``, ``tune``: the
command line calls these), with the same checks and the same errors: bad input raises a
``StichsimError`` (or another ``ValueError`` the command line shows as one line, exit 2)
before anything is played or written. Results and reports go where the commands put them
unless told otherwise, and what is already there is resumed as the commands resume it.

>>> import inspect
>>> list(inspect.signature(arena).parameters)[:3]
['game', 'policies', 'deals']
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from sim.arena import DEFAULT_SEED
from sim.errors import StichsimError, did_you_mean
from sim.runner import Experiment
from sim.tune import Tune, load_tune

Source = str | Path | Experiment
"""An experiment: the path of its TOML file, or one already loaded."""


def _jobs(jobs: int | None) -> int:
    """``jobs`` or, where it is not given, every CPU."""
    from joblib import cpu_count

    return jobs or max(1, int(cpu_count()))


def _pool(backend: str, scheduler: str | None, jobs: int) -> contextlib.AbstractContextManager[str | None]:
    """Where the work runs (``sim.cluster.joblib_backend``): ``local``, a process pool here,
    or ``dask``, the cluster at ``scheduler`` (or a local one of ``jobs`` workers)."""
    from sim.cluster import joblib_backend

    return joblib_backend(backend, scheduler, jobs)


def _read(experiment: Source, deals: int | None = None) -> Experiment:
    """The experiment ``experiment`` names (a TOML path or an ``Experiment``), ``deals`` a
    variant if given."""
    exp = experiment if isinstance(experiment, Experiment) else Experiment.load(
        Path(experiment), deals=deals)
    if isinstance(experiment, Experiment) and deals is not None:
        exp = dataclasses.replace(exp, deals=deals)
    return exp


def load(experiment: Source, deals: int | None = None) -> Experiment:
    """The experiment ``experiment`` names (``_read``), its ``[report]`` table checked
    (``report_settings``)."""
    exp = _read(experiment, deals)
    report_settings(exp)
    return exp


def report_settings(exp: Experiment) -> tuple[list[str], str]:
    """The questions and the measure of ``exp``'s ``[report]`` table (default: every question
    its results will answer, ``start_edge``), checked against what ``analysis`` knows: ``run``
    and ``report`` refuse a wrong one before playing anything."""
    from analysis import balance
    from analysis import report as analysis_report
    from sim.runner import shard_columns

    columns = shard_columns(exp.game_obj) + list(exp.quality.columns if exp.quality else ())
    applicable = analysis_report.applicable(columns, asked=True)  # what its results will answer
    questions = list(exp.report.get("questions") or analysis_report.applicable(columns))
    wrong = [q for q in questions if q not in applicable]
    if wrong:
        raise StichsimError(f"{exp.source}: [report] question{'s' if len(wrong) > 1 else ''} "
                            f"{', '.join(map(repr, wrong))} not available for {exp.game} "
                            f"(questions: {', '.join(applicable)}){did_you_mean(wrong, applicable)}")
    measure = exp.report.get("measure", "start_edge")
    if measure not in balance.SWEEPABLE:
        raise StichsimError(f"{exp.source}: [report] unknown measure {measure!r} "
                            f"(measures: {', '.join(balance.SWEEPABLE)})"
                            f"{did_you_mean([measure], balance.SWEEPABLE)}")
    return questions, measure


def run_root(exp: Experiment, out: str | Path = "results", jobs: int | None = None,
             resume: bool = False, force: bool = False, progress: bool = False,
             backend: str = "local", scheduler: str | None = None) -> Path:
    """Play ``exp`` into ``out`` (``stichsim run``); the experiment's results folder."""
    from sim.runner import run_experiment

    workers = _jobs(jobs)
    with _pool(backend, scheduler, workers) as pool:
        return run_experiment(exp, out_dir=Path(out), jobs=workers, resume=resume, force=force,
                              progress=progress, backend=pool)


def run(experiment: Source, deals: int | None = None, out: str | Path = "results",
        jobs: int | None = None, resume: bool = True, force: bool = False,
        progress: bool = False, backend: str = "local", scheduler: str | None = None
        ) -> pl.LazyFrame:
    """Play an experiment (``stichsim run``) and return its deals, every variant's, as one lazy
    frame (``analysis.load.scan``: a row a deal, with ``variant``).

    Unlike the command, a run that is already there is resumed by default (``resume``), so
    a notebook's cell can run again; ``force`` plays it anew. ``backend``: ``local`` (a process
    pool here) or ``dask`` (at ``scheduler``, or a local cluster), as ``--backend``."""
    from analysis.load import scan

    exp = load(experiment, deals)
    return scan(run_root(exp, out, jobs, resume, force, progress, backend, scheduler))


def arena(game: str, policies: Sequence[str], deals: int | None = None,
          rules: Mapping[str, Any] | Sequence[str] | None = None, seed: int = DEFAULT_SEED,
          jobs: int | None = None, until_decided: bool = False, progress: bool = False,
          backend: str = "local", scheduler: str | None = None) -> pl.DataFrame:
    """Duplicate play of two or more policies (``stichsim arena``): a row per pair (``a``,
    ``b``), with A's mean gain over B in the game's unit a seat and deal (``diff``), its 95 %
    interval (``lo``, ``hi``), the deals, the won and ahead shares and whether it is decided.
    ``arena_report`` returns the whole report (the ranking too).

    ``rules``: option values, as a mapping or as ``name=value`` strings (``--rule``)."""
    return pl.DataFrame(arena_report(game, policies, deals, rules, seed, jobs, until_decided,
                                     progress, backend, scheduler)["pairs"])


def arena_report(game: str, policies: Sequence[str], deals: int | None = None,
                 rules: Mapping[str, Any] | Sequence[str] | None = None, seed: int = DEFAULT_SEED,
                 jobs: int | None = None, until_decided: bool = False, progress: bool = False,
                 backend: str = "local", scheduler: str | None = None) -> dict[str, Any]:
    """``arena``'s whole report (what ``stichsim arena --json`` prints): the pairs, the
    Bradley-Terry ranking, the unit, the policies that see every card."""
    from sim.arena import check_policies, run_arena
    from sim.registry import find_game

    found = find_game(game)
    names = [p.strip() for p in policies]
    check_policies(found.name, names)
    if isinstance(rules, Mapping):
        given = dict(rules)
    else:
        given = found.options.parse_assignments(list(rules or []), found.name)
    resolved = found.rules(given)
    workers = _jobs(jobs)
    with _pool(backend, scheduler, workers) as pool:
        return run_arena(found.name, names, deals, resolved, seed, workers, pool, until_decided,
                         progress=progress)


def report(experiments: Source | Sequence[Source], deals: int | None = None,
           out: str | Path | None = None, results: str | Path = "results",
           jobs: int | None = None, progress: bool = False, backend: str = "local",
           scheduler: str | None = None, done: Callable[[str, Path], None] | None = None,
           reports: str | Path = "reports") -> list[Path]:
    """Run what each experiment lacks and write its report (``stichsim report``): every file
    checked before the first plays. With ``deals`` a quick look, beside the full run (its
    name ends ``-n<deals>``). Each report goes to ``out``, else ``reports/<name>``. Returns each
    report's ``index.html``; ``done(name, index)`` is told of each as it is written."""
    from analysis import report as analysis_report
    from sim import robustness
    from sim.runner import run_experiment

    sources = [experiments] if isinstance(experiments, (str, Path, Experiment)) else list(experiments)
    if out is not None and len(sources) > 1:
        raise StichsimError("out names one report folder: give one experiment with it")
    exps = [_read(s, deals) for s in sources]
    if deals is not None:  # a quick look lives beside the full run, not over it
        exps = [dataclasses.replace(exp, name=f"{exp.name}-n{deals}") for exp in exps]
    settings = [report_settings(exp) for exp in exps]
    workers = _jobs(jobs)
    indexes = []
    for exp, (questions, measure) in zip(exps, settings, strict=True):
        with _pool(backend, scheduler, workers) as pool:
            root = run_experiment(exp, out_dir=Path(results), jobs=workers, resume=True,
                                  progress=progress, backend=pool, flag="--results")
            extra = robustness.run(robustness.derived(exp), Path(results), workers, progress, pool)
        folder = Path(out) if out is not None else Path(reports) / exp.name
        indexes.append(analysis_report.build(
            root, folder, questions=questions, measure=measure,
            one_at_a_time=extra.get("one-at-a-time"),
            rungs=[extra[k] for k in ("rungs", "pimc", "net") if k in extra]))
        if done is not None:
            done(exp.name, indexes[-1])
    return indexes


def tune(experiment: str | Path | Tune, budget: int | None = None, out: str | Path | None = None,
         results: str | Path = "results", jobs: int | None = None, force: bool = False,
         progress: bool = False, backend: str = "local", scheduler: str | None = None
         ) -> dict[str, Any]:
    """Race an experiment's rule candidates on common deals (``stichsim tune``) and write its
    report; returns the outcome (what ``--json`` prints), with ``report`` the report's
    ``index.html``. ``experiment``: a tune's TOML file, or one loaded (``sim.tune.load_tune``)."""
    from analysis import tune_report
    from sim.tune import run_tune

    plan = experiment if isinstance(experiment, Tune) else load_tune(Path(experiment), budget=budget)
    workers = _jobs(jobs)
    with _pool(backend, scheduler, workers) as pool:
        _, outcome = run_tune(plan, results=Path(results), jobs=workers, force=force,
                              progress=progress, backend=pool)
    folder = Path(out) if out is not None else Path("reports") / plan.experiment.name
    index = tune_report.build(outcome, folder)
    return {**outcome, "report": str(index)}


__all__ = ["arena", "arena_report", "load", "report", "report_settings", "run", "run_root", "tune"]

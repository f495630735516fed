"""The runs behind a report's robustness section: what moves the experiment's answer.

Two kinds of derived experiment, each on the first deals of the experiment's own seed (deal
``d`` is the same deal in every run, so every comparison is paired):

* **one at a time**: the experiment's base rules and policies, and one variant for every
  value of every rule option other than base's, an integer option one unit and a typical
  step either side of base's value (``readings``; scoring-only options re-score one play);
* **rungs**: the same deals with every seat ``random``, ``heuristic`` and ``lookahead``
  (base: ``heuristic``, the reference), and, on a smaller subsample because it is slow,
  ``pimc`` beside ``heuristic`` in a run of its own; and the learned player ``net`` beside
  ``heuristic`` in a run of its own, on as many deals as the answer's interval needs to be
  narrow (it is fast).

Each runs with ``sim.runner.run_experiment`` into a sibling of the experiment's results
folder (``<name>-one-at-a-time``, ``<name>-rungs``, ``<name>-pimc``, ``<name>-net``), resumed like any run;
a folder written by another config (the sizes changed) or engine is replaced, since the
report owns it. The sizes come from the experiment's ``[report]`` table (``SIZES``); 0
leaves a run out.

>>> exp = Experiment.from_dict(dict(name="demo", game="skat", deals=1000, seed=1,
...                                 shard_size=500, policies=["heuristic"] * 3))
>>> [v.name for v in one_at_a_time(exp, 100).variants()][:3]
['base', 'all_pass-ramsch', 'announcements-true']
>>> {kind: (e.name, e.deals) for kind, e in derived(exp).items()}
{'one-at-a-time': ('demo-one-at-a-time', 1000), 'rungs': ('demo-rungs', 300), 'net': ('demo-net', 1000)}
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sim
from sim.options import Option
from sim.runner import EXPERIMENT_FILE, REPORT_SIZES, Experiment, run_experiment

SIZES = dict(zip(REPORT_SIZES, (20_000, 300, 0, 20_000), strict=True))
"""The ``[report]`` keys of the runs' sizes in deals (``sim.runner.REPORT_SIZES``), with their
defaults: the one-at-a-time
run, the random / heuristic / lookahead rungs, the pimc rung (0: left out; pimc plays about
a Skat deal a second on two cores, and its solver is not compiled by ``make run``), the net
rung (as many deals as the one-at-a-time run, so its interval is about as narrow). Each is
capped at the experiment's deals."""
RUNGS = ("random", "lookahead")
"""The rungs besides ``heuristic`` (every seat the same policy)."""
SLOW_RUNG = "pimc"
"""The rung played on its own, smaller subsample."""
NET_RUNG = "net"
"""The learned player's rung, played on its own (larger) sample."""
SHARDS = 4
"""Shards a derived run is cut into (at most), so that the cores share it."""


@dataclass(frozen=True)
class Sizes:
    """How many deals each derived run plays (0: not run)."""

    robustness_deals: int
    rung_deals: int
    pimc_deals: int
    net_deals: int

    @classmethod
    def of(cls, exp: Experiment) -> Sizes:
        """The sizes ``exp``'s ``[report]`` table gives (``SIZES`` by default), capped at its deals."""
        return cls(**{k: min(int(exp.report.get(k, d)), exp.deals) for k, d in SIZES.items()})


def _derived(exp: Experiment, suffix: str, deals: int, policies: list[str],
             variants: list[dict[str, Any]]) -> Experiment:
    """An experiment on ``exp``'s first ``deals`` deals under its base rules: ``policies`` at
    every seat in base, and ``variants``."""
    return Experiment.from_dict(
        {"name": f"{exp.name}-{suffix}", "game": exp.game, "deals": deals, "seed": exp.seed,
         "shard_size": min(exp.shard_size, -(-deals // SHARDS)), "policies": policies,
         "rules": dict(exp.rules), "variants": variants}, source=f"{exp.source} ({suffix})")


def _shown(value: Any) -> str:
    """A rule value as TOML writes it (``true``, ``12``, ``last_trick``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def readings(option: Option, value: Any = None) -> tuple[Any, ...]:
    """The values one option is tried at: every allowed value; an integer option one unit and
    one typical step (a tenth of its range, at least 2) either side of ``value`` (default: its
    default), within its range, as a house rule would turn it: the ends of a range
    (``compensation = 30``) would swamp every other reading with a change nobody plays."""
    if not option.is_integer:
        return option.allowed
    assert option.low is not None and option.high is not None
    at = option.default if value is None else value
    step = max(2, round((option.high - option.low) / 10))
    near = sorted({min(max(at + d, option.low), option.high) for d in (-step, -1, 1, step)} - {at})
    return tuple(near)


def one_at_a_time(exp: Experiment, deals: int) -> Experiment:
    """``exp``'s base rules and policies on its first ``deals`` deals, and one variant
    ``<option>-<value>`` for every value (``readings``) of every option other than base's."""
    variants = [{"name": f"{o.name}-{_shown(value)}", "rules": {o.name: value}}
                for o in exp.game_obj.options for value in readings(o, exp.rules[o.name])
                if value != exp.rules[o.name]]
    return _derived(exp, "one-at-a-time", deals, list(exp.policies), variants)


def _everyone(exp: Experiment, policy: str) -> list[str]:
    return [policy] * exp.game_obj.n_players


def rungs(exp: Experiment, deals: int) -> Experiment:
    """``exp``'s first ``deals`` deals under its base rules with every seat ``heuristic``
    (base) and every seat each of ``RUNGS``."""
    return _derived(exp, "rungs", deals, _everyone(exp, "heuristic"),
                    [{"name": p, "policies": _everyone(exp, p)} for p in RUNGS])


def slow_rung(exp: Experiment, deals: int) -> Experiment:
    """``exp``'s first ``deals`` deals with every seat ``heuristic`` (base) and ``SLOW_RUNG``."""
    return _derived(exp, SLOW_RUNG, deals, _everyone(exp, "heuristic"),
                    [{"name": SLOW_RUNG, "policies": _everyone(exp, SLOW_RUNG)}])


def net_rung(exp: Experiment, deals: int) -> Experiment:
    """``exp``'s first ``deals`` deals with every seat ``heuristic`` (base) and ``NET_RUNG``."""
    return _derived(exp, NET_RUNG, deals, _everyone(exp, "heuristic"),
                    [{"name": NET_RUNG, "policies": _everyone(exp, NET_RUNG)}])


def derived(exp: Experiment) -> dict[str, Experiment]:
    """The runs ``exp``'s report needs, as its ``[report]`` sizes them (none of size 0), by
    kind: ``one-at-a-time``, ``rungs``, ``pimc``, ``net`` (their names' suffixes; ``net`` only
    for a game with a learned player)."""
    sizes = Sizes.of(exp)
    learned = exp.game_obj.net is not None
    runs = (one_at_a_time(exp, sizes.robustness_deals) if sizes.robustness_deals else None,
            rungs(exp, sizes.rung_deals) if sizes.rung_deals else None,
            slow_rung(exp, sizes.pimc_deals) if sizes.pimc_deals else None,
            net_rung(exp, sizes.net_deals) if sizes.net_deals and learned else None)
    return {r.name.removeprefix(f"{exp.name}-"): r for r in runs if r is not None}


def _replace(root: Path, exp: Experiment) -> bool:
    """Whether ``root`` holds results of another config or engine (to be replaced)."""
    try:
        found = json.loads((root / EXPERIMENT_FILE).read_text())
    except (OSError, ValueError):
        return False  # none yet (or unreadable: the run says so)
    return (found.get("config_hash"), found.get("stichsim_version"), found.get("engine_hash")) != \
        (exp.config_hash(), sim.__version__, sim.SOURCE_HASH)


def run(exps: dict[str, Experiment], out_dir: str | os.PathLike[str], jobs: int, progress: bool,
        backend: Any) -> dict[str, Path]:
    """Run what the derived experiments ``exps`` still lack under ``out_dir`` (replacing a
    folder of another config or engine). Their results folders, by the same keys."""
    roots = {}
    for kind, exp in exps.items():
        stale = _replace(Path(out_dir) / exp.name, exp)
        roots[kind] = run_experiment(exp, out_dir=out_dir, jobs=jobs, resume=True, force=stale,
                                     progress=progress, backend=backend)
    return roots


__all__ = ["RUNGS", "SIZES", "SLOW_RUNG", "Sizes", "derived", "one_at_a_time", "readings", "rungs", "run",
           "slow_rung"]

"""``stichsim bench``: deals per second and peak memory, measured the way a run works.

Worker processes are started and warmed up first (process start and JIT compile,
or loading the compiled kernels from the cache, are reported separately); then
the timed part plays shards of ``SHARD`` deals in every worker, doing what a run
does per deal: dealing, every decision, scoring and building the result table.
Parquet writing is timed on its own (MB/s and bytes per deal). Peak memory is the
sum over the main process and every worker of the resident size while a shard's
columns and table are held, the most a run needs; the warm-up's own peak (compiling
takes more than running) is reported with the start-up figures.

Beside the games the bench times, in the same way, the bare reference kernel of
``sim.registry.PACE_REFERENCE`` (dealing plus 30 follow-suit plays per deal: the machine's pace)
and gives each game's figure as a ratio to it; and a 10-variant scoring-only sweep
of the sweep game (``sweep_game``) run through the runner's own shard tasks (one play per shard,
re-scored and written for every variant), checking that a re-scored variant's file
equals the file of a full replay. ``--memory`` instead runs whole experiments through
``sim.runner.run_experiment`` at the given sizes and reports the peak resident memory
of the whole process tree, to show that it does not grow with the number of deals.

``--policies`` names the policies timed (default: random and heuristic). A slow policy
(``lookahead``, ``lookahead:N``, ``pimc``, ``pimc:N``, ``dd``; ``sim.policies.SLOW``) plays
``SLOW_DEALS`` deals unless ``--deals`` is given, in ``SLOW_SHARDS`` shards per worker, each
handed to the next worker free, after a warm-up of ``SLOW_WARM_DEALS`` deals. (Its deals
differ tenfold in cost: with four shards a worker, 25 ``pimc`` Skat deals of some 10 s each,
one run timed shard by shard had its workers finish at 31.5 and 37.2 s, so the figure
measured the split, not the player.) Its Parquet writing is not timed (its columns are the
heuristic's). Its row also has ``decisions``/``decisions_per_s`` and
``rollouts``/``rollouts_per_s``, counted from the timed deals' recorded actions (the timed
deals are played with recording on, which costs little beside the lookahead): a decision is
a card-play decision (every decision of the game's card-play state, ``Game.card_play``) with
more than one legal action, and it costs ``max(1, N // actions) * actions`` rollouts, as
``sim.policies.lookahead`` spreads ``N`` rollouts over the actions; for ``pimc:N`` the
``rollouts`` are the worlds it solves, N a decision (``dd``: one, the deal). Bidding,
declaration and other decisions outside the card-play state are not counted.
"""

from __future__ import annotations

import importlib
import itertools
import json
import math
import multiprocessing as mp
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import psutil

from sim.engine.game import Game
from sim.engine.play import play
from sim.engine.seats import is_slow
from sim.machine import describe, machine
from sim.registry import GAMES, PACE_REFERENCE, find_game

POLICIES = ("random", "heuristic")
"""Policies timed by default."""
DEFAULT_DEALS = 2_000_000
SLOW_DEALS = 200
"""Deals a slow policy plays when ``--deals`` is not given."""
SLOW_SHARDS = 20
"""Shards per worker of a slow policy's deals: the last shard, played while another worker
may have none left, is short."""
SLOW_WARM_DEALS = 4
"""Deals each worker plays with a slow policy before timing (its kernels compile)."""
SHARD = 100_000
WARM_DEALS = SHARD
"""Deals each worker plays per policy before timing: a whole shard, so that compiled
kernels are loaded and the result buffers a long run reuses are in place."""
SEED = 20261130
SWEEP_POLICY = "heuristic"
SWEEP_VARIANTS = 10
"""The scoring-only sweep: the first 10 combinations of the scoring-only options of the game
that has the most (``sweep_game``; ``doko_duell``'s 48 today)."""


def sweep_game() -> Game:
    """The registered game with the most combinations of discrete scoring-only options (the
    first registered of equals): the sweep's game."""
    def combinations(game: Game) -> int:
        return math.prod(len(o.allowed) for o in game.options.discrete() if o.scoring_only)
    return max(GAMES.values(), key=combinations)


def _peak_rss_mib() -> float:
    """This process's peak resident memory in MiB so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _rss_mib() -> float:
    """This process's resident memory now, in MiB."""
    rss: int = psutil.Process().memory_info().rss
    return rss / 2**20


def _warm(args: tuple[str, tuple[str, ...], Any]) -> tuple[int, float, float]:
    """Import and compile (or load) the kernels in this worker; wait for every worker.

    The barrier makes each worker take exactly one warm-up task.
    """
    name, policies, barrier = args
    import os

    start = time.perf_counter()
    game = find_game(name)
    rules = game.rules()
    for policy in policies:
        play(game, 1, 0, SLOW_WARM_DEALS if is_slow(policy) else WARM_DEALS, rules,
                  [policy] * game.n_players)
    seconds = time.perf_counter() - start
    barrier.wait()
    return os.getpid(), seconds, _peak_rss_mib()


def rollouts_of(policy: str) -> int:
    """The rollouts per decision of a lookahead policy name (``lookahead:N``: N), the worlds
    of a pimc one (``pimc:N``: N); ``dd`` solves one, the deal itself."""
    from sim.engine.seats import option_of, policy_id

    return option_of(policy_id(policy)) or 1


def count_decisions(game: Any, batch: Any, rules: dict[str, Any], rollouts: int,
                    spread: bool = True) -> tuple[int, int]:
    """The card-play decisions with more than one legal action in a recorded ``batch``, and
    the rollouts a lookahead player of ``rollouts`` per decision spends on them
    (``max(1, rollouts // actions) * actions`` each; without ``spread``, the worlds a
    solving player solves: ``rollouts`` each), replayed through ``game.card_play``."""
    cp = game.card_play
    if cp is None or batch.actions is None:
        return 0, 0
    decisions = spent = 0
    for i in range(len(batch)):
        started = cp.start(batch.columns, i, batch.actions[i], rules)
        if started is None:
            continue
        state, actions = started
        for action in actions:
            n = int(np.uint64(cp.legal(state))).bit_count()
            if n > 1:
                decisions += 1
                spent += max(1, rollouts // n) * n if spread else rollouts
            cp.step(state, action)
    return decisions, spent


def _play(args: tuple[str, str, int, int]) -> tuple[int, int, float, int, int]:
    """Play one shard and build its table, as ``run`` does (without writing it); a slow
    policy's shard is recorded and its decisions and rollouts counted."""
    import os

    from sim.runner import shard_table

    name, policy, first, count = args
    game = find_game(name)
    rules = game.rules()
    slow = is_slow(policy)
    batch = play(game, SEED, first, count, rules, [policy] * game.n_players, record=slow)
    table = shard_table(game, batch.columns, {})
    assert table.num_rows == count
    rss = _rss_mib()  # with this shard's columns and table still held
    spread = policy.partition(":")[0] == "lookahead"
    decisions, rollouts = (count_decisions(game, batch, rules, rollouts_of(policy), spread)
                           if slow else (0, 0))
    return os.getpid(), count, rss, decisions, rollouts


def _parquet(args: tuple[str, str, int]) -> dict[str, float]:
    """Time writing one shard's table to Parquet (in a worker, like a run)."""
    from sim.runner import shard_table, write_shard

    name, policy, count = args

    game = find_game(name)
    batch = play(game, SEED, 0, count, game.rules(), [policy] * game.n_players)
    table = shard_table(game, batch.columns, {})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "shard.parquet"
        start = time.perf_counter()
        write_shard(table, path)
        seconds = time.perf_counter() - start
        size = path.stat().st_size
    return {"deals": count, "seconds": round(seconds, 4), "mb_per_s": round(size / 1e6 / seconds, 1),
            "bytes_per_deal": round(size / count, 2)}


def policy_deals(policy: str, deals: int | None) -> int:
    """Deals timed for ``policy``: ``deals`` if given, else ``DEFAULT_DEALS`` (``SLOW_DEALS``
    for a slow policy)."""
    return deals or (SLOW_DEALS if is_slow(policy) else DEFAULT_DEALS)


def bench_game(name: str, deals: int | None, jobs: int,
               policies: tuple[str, ...] = POLICIES) -> dict[str, Any]:
    """Measure one game with every policy on ``jobs`` warmed-up workers (``deals``: per
    policy, ``None`` for each policy's default)."""
    ctx = mp.get_context("spawn")
    start = time.perf_counter()
    with ctx.Pool(jobs) as pool:
        barrier = ctx.Manager().Barrier(jobs)
        pids_ready = time.perf_counter()
        warm = pool.map(_warm, [(name, policies, barrier)] * jobs, chunksize=1)
        warmed = time.perf_counter()
        results = []
        for policy in policies:
            n = policy_deals(policy, deals)
            shard = max(1, -(-n // (SLOW_SHARDS * jobs))) if is_slow(policy) else SHARD
            tasks = [(name, policy, first, min(shard, n - first)) for first in range(0, n, shard)]
            t0 = time.perf_counter()
            done = pool.map(_play, tasks, chunksize=1)
            seconds = time.perf_counter() - t0
            peaks: dict[int, float] = {}
            for pid, _, rss, _, _ in done:
                peaks[pid] = max(peaks.get(pid, 0.0), rss)
            assert sum(d[1] for d in done) == n
            row: dict[str, Any] = {"game": name, "policy": policy, "deals": n,
                                   "seconds": round(seconds, 3), "deals_per_s": round(n / seconds, 1),
                                   "peak_rss_mib": round(_rss_mib() + sum(peaks.values()), 1)}
            if is_slow(policy):
                decisions, rollouts = sum(d[3] for d in done), sum(d[4] for d in done)
                row |= {"rollouts_per_decision": rollouts_of(policy), "decisions": decisions,
                        "decisions_per_s": round(decisions / seconds, 1), "rollouts": rollouts,
                        "rollouts_per_s": round(rollouts / seconds)}
            else:
                row["deals_per_s"] = round(n / seconds)
            results.append(row)
        parquet = {p: pool.apply(_parquet, ((name, p, min(SHARD, policy_deals(p, deals))),))
                   for p in policies if not is_slow(p)}
    startup = {"process_start_s": round(pids_ready - start, 3),
               "jit_and_import_s": round(max(s for _, s, _ in warm), 3),
               "warm_wall_s": round(warmed - pids_ready, 3),
               "warm_peak_rss_mib": round(_peak_rss_mib() + sum(r for _, _, r in warm), 1)}
    return {"results": results, "startup": startup, "parquet": parquet}


def _shards(deals: int) -> list[tuple[int, int]]:
    """``(first, count)`` of each shard of ``deals`` deals."""
    return [(first, min(SHARD, deals - first)) for first in range(0, deals, SHARD)]


def _warm_reference(barrier: Any) -> float:
    """Load (or compile) the reference kernel in this worker; wait for every worker."""
    play_reference = importlib.import_module(PACE_REFERENCE).play_reference

    start = time.perf_counter()
    play_reference(SEED, 0, WARM_DEALS)
    seconds = time.perf_counter() - start
    barrier.wait()
    return seconds


def _reference(args: tuple[int, int]) -> int:
    """Run the reference kernel over one shard."""
    play_reference = importlib.import_module(PACE_REFERENCE).play_reference

    first, count = args
    return len(play_reference(SEED, first, count))


def bench_reference(deals: int, jobs: int) -> dict[str, Any]:
    """Deals per second of the bare reference kernel on ``jobs`` warmed-up workers."""
    ctx = mp.get_context("spawn")
    with ctx.Pool(jobs) as pool:
        barrier = ctx.Manager().Barrier(jobs)
        warm = pool.map(_warm_reference, [barrier] * jobs, chunksize=1)
        t0 = time.perf_counter()
        done = pool.map(_reference, _shards(deals), chunksize=1)
        seconds = time.perf_counter() - t0
    assert sum(done) == deals
    return {"deals": deals, "seconds": round(seconds, 3), "deals_per_s": round(deals / seconds),
            "jit_and_import_s": round(max(warm), 3)}


def sweep_experiment(deals: int) -> Any:
    """The scoring-only sweep as an experiment: ``SWEEP_VARIANTS`` combinations of the values
    of the sweep game's discrete scoring-only options, the defaults (the first combination)
    as base."""
    from sim.runner import Experiment

    game = sweep_game()
    scoring = [o for o in game.options.discrete() if o.scoring_only]
    combos = list(itertools.product(*(o.allowed for o in scoring)))[:SWEEP_VARIANTS]
    variants = [{"name": f"v{k}", "rules": {o.name: v for o, v in zip(scoring, combo)}}
                for k, combo in enumerate(combos[1:], 1)]
    return Experiment.from_dict(dict(name="bench-sweep", game=game.name, deals=deals, seed=SEED,
                                     shard_size=SHARD, policies=[SWEEP_POLICY] * game.n_players,
                                     variants=variants))


def _warm_sweep(barrier: Any) -> float:
    """Load the sweep game's kernel and re-scoring in this worker; wait for every worker."""
    start = time.perf_counter()
    game = sweep_game()
    rules = game.rules()
    batch = play(game, SEED, 0, WARM_DEALS, rules, [SWEEP_POLICY] * game.n_players)
    game.rescore(batch.columns, rules)
    seconds = time.perf_counter() - start
    barrier.wait()
    return seconds


def replay_equals_rescored(exp: Any, root: Path, variant: str) -> bool:
    """Whether shard 0 of ``variant`` as written by the sweep (re-scored from the base's
    play) is byte-identical to the file of a full replay under the variant's own rules."""
    from sim.runner import shard_metadata, shard_path, shard_table, write_shard

    game = find_game(exp.game)
    v = exp.variant(variant)
    shard = exp.shards()[0]
    batch = play(game, exp.seed, shard.first, shard.count, v.rules, v.policies)
    replay = root / "replay.parquet"
    write_shard(shard_table(game, batch.columns, shard_metadata(exp, v, shard)), replay)
    return replay.read_bytes() == shard_path(root, exp.game, variant, 0).read_bytes()


def bench_sweep(deals: int, jobs: int) -> dict[str, Any]:
    """Time the scoring-only sweep as a run does it (``sim.runner.plan`` groups the
    variants into one task per shard; ``run_shard`` plays once, re-scores and writes
    every variant's file), then check a re-scored variant against a full replay.
    Written files are removed as shards finish (all but shard 0), so disk stays small."""
    from sim.runner import plan, run_shard

    exp = sweep_experiment(deals)
    ctx = mp.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp, ctx.Pool(jobs) as pool:
        root = Path(tmp) / exp.name
        tasks = list(plan(exp, root)[0])
        assert len(tasks) == exp.n_shards and len(tasks[0].outputs) == len(exp.variants())
        barrier = ctx.Manager().Barrier(jobs)
        pool.map(_warm_sweep, [barrier] * jobs, chunksize=1)
        rows = 0
        t0 = time.perf_counter()
        for written in pool.imap_unordered(run_shard, tasks):
            for path, count in written:
                rows += count
                if not path.endswith("shard=00000.parquet"):
                    Path(path).unlink()
        seconds = time.perf_counter() - t0
        checked = exp.variants()[-1].name
        equal = pool.apply(replay_equals_rescored, (exp, root, checked))
    n = len(exp.variants())
    assert rows == n * deals
    assert equal, f"sweep: variant {checked} re-scored differs from its full replay"
    return {"game": exp.game, "policy": SWEEP_POLICY, "variants": n, "deals": deals,
            "seconds": round(seconds, 3), "plays_per_s": round(deals / seconds),
            "variant_deals_per_s": round(n * deals / seconds), "checked_variant": checked,
            "rescored_equals_replay": equal}


class _PeakTreeRss:
    """Samples the resident memory of this process and all its descendants (every
    ``interval`` s, in a thread) and keeps the highest sum seen, in MiB."""

    def __init__(self, interval: float = 0.02) -> None:
        self.interval = interval
        self.peak_mib = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _tree_mib(self) -> float:
        me = psutil.Process()
        total = 0
        for proc in [me, *me.children(recursive=True)]:
            try:
                total += proc.memory_info().rss
            except psutil.Error:  # a worker that just exited
                pass
        return total / 2**20

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak_mib = max(self.peak_mib, self._tree_mib())
            self._stop.wait(self.interval)

    def __enter__(self) -> _PeakTreeRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def bench_memory(name: str, deals: int, jobs: int) -> dict[str, Any]:
    """Run a ``deals``-deal heuristic experiment of ``name`` through ``run_experiment``
    into a temp folder; its time, peak memory of the process tree and bytes on disk."""
    from sim.runner import Experiment, run_experiment

    game = find_game(name)
    exp = Experiment.from_dict(dict(name="bench-memory", game=name, deals=deals, seed=SEED,
                                    shard_size=SHARD, policies=["heuristic"] * game.n_players))
    with tempfile.TemporaryDirectory() as tmp:
        with _PeakTreeRss() as peak:
            t0 = time.perf_counter()
            root = run_experiment(exp, tmp, jobs=jobs, progress=False)
            seconds = time.perf_counter() - t0
        size = sum(p.stat().st_size for p in root.rglob("*.parquet"))
    return {"game": name, "policy": "heuristic", "deals": deals, "seconds": round(seconds, 2),
            "deals_per_s": round(deals / seconds), "peak_rss_mib": round(peak.peak_mib, 1),
            "bytes_per_deal": round(size / deals, 2)}


def run_bench(games: list[str], deals: int | None, jobs: int, as_json: bool,
              policies: tuple[str, ...] = POLICIES) -> int:
    """Benchmark ``games`` with ``policies``; print a table or (``as_json``) one JSON object.
    Returns 0."""
    given = deals
    deals = deals or DEFAULT_DEALS
    reference = bench_reference(deals, jobs)
    report: dict[str, Any] = {"machine": machine(), "results": [], "startup": {}, "parquet": {},
                              "jobs": jobs, "shard_size": SHARD, "reference": reference}
    if not as_json:
        print(describe(report["machine"]))
        print(f"reference kernel (deal + 30 follow-suit plays): {reference['deals_per_s']:,} deals/s")
    for name in games:
        one = bench_game(name, given, jobs, policies)
        for r in one["results"]:
            r["ratio_to_reference"] = float(f"{r['deals_per_s'] / reference['deals_per_s']:.4g}")
        report["results"] += one["results"]
        report["startup"][name] = one["startup"]
        report["parquet"][name] = one["parquet"]
        if not as_json:
            _print_game(name, one, jobs)
    report["sweep"] = sweep = bench_sweep(deals, jobs)
    if as_json:
        json.dump(report, sys.stdout)
        print()
    else:
        print(f"sweep: {sweep['game']} {sweep['policy']}, {sweep['variants']} scoring-only variants: "
              f"{sweep['variant_deals_per_s']:,} variant-deals/s ({sweep['plays_per_s']:,} plays/s); "
              f"re-scored {sweep['checked_variant']} equals its replay: {sweep['rescored_equals_replay']}")
    return 0


def run_memory(games: list[str], sizes: list[int], jobs: int, as_json: bool) -> int:
    """Measure whole runs of each game at each size (``--memory``); print a line per run
    or (``as_json``) one JSON object. Returns 0."""
    rows = []
    for name in games:
        for deals in sizes:
            rows.append(row := bench_memory(name, deals, jobs))
            if not as_json:
                print(f"{name} heuristic {deals:>12,} deals: {row['seconds']:>8.1f} s "
                      f"({row['deals_per_s']:,} deals/s), peak memory of all processes "
                      f"{row['peak_rss_mib']:.0f} MiB, {row['bytes_per_deal']} bytes/deal on disk")
                sys.stdout.flush()
    if as_json:
        json.dump({"memory": rows, "jobs": jobs, "shard_size": SHARD}, sys.stdout)
        print()
    return 0


def _print_game(name: str, one: dict[str, Any], jobs: int) -> None:
    s = one["startup"]
    print(f"{name}: {jobs} worker(s); process start {s['process_start_s']:.2f} s, "
          f"import + JIT/cache load {s['jit_and_import_s']:.2f} s "
          f"(peak {s['warm_peak_rss_mib']:.0f} MiB)")
    for r in one["results"]:
        print(f"  {r['policy']:<10} {r['deals']:>11,} deals  {r['seconds']:>8.2f} s  "
              f"{r['deals_per_s']:>11,} deals/s  ({r['ratio_to_reference']:.1%} of reference)  "
              f"peak {r['peak_rss_mib']:>7.1f} MiB")
        if "decisions" in r:
            print(f"  {'':<10} {r['decisions']:>11,} decisions ({r['decisions_per_s']:,} /s), "
                  f"{r['rollouts']:,} rollouts ({r['rollouts_per_s']:,} /s) at "
                  f"{r['rollouts_per_decision']} a decision")
    for policy, p in one["parquet"].items():
        print(f"  parquet ({policy}): {p['mb_per_s']} MB/s, {p['bytes_per_deal']} bytes/deal")
    sys.stdout.flush()

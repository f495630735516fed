"""``stichsim bench``: deals per second and peak memory, measured the way a run works.

Worker processes are started and warmed up first (process start and JIT compile,
or loading the compiled kernels from the cache, are reported separately); then
the timed part plays shards of ``SHARD`` deals in every worker, doing what a run
does per deal: dealing, every decision, scoring and building the result table.
Parquet writing is timed on its own (MB/s and bytes per deal). Peak memory is the
sum over the main process and every worker of the resident size while a shard's
columns and table are held, the most a run needs; the warm-up's own peak (compiling
takes more than running) is reported with the start-up figures.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

from sim.games import find_game

POLICIES = ("random", "heuristic")
DEFAULT_DEALS = 2_000_000
SHARD = 100_000
WARM_DEALS = SHARD
"""Deals each worker plays per policy before timing: a whole shard, so that compiled
kernels are loaded and the result buffers a long run reuses are in place."""


def _peak_rss_mib() -> float:
    """This process's peak resident memory in MiB so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _rss_mib() -> float:
    """This process's resident memory now, in MiB."""
    return psutil.Process().memory_info().rss / 2**20


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
        game.play(1, 0, WARM_DEALS, rules, [policy] * game.n_players)
    seconds = time.perf_counter() - start
    barrier.wait()
    return os.getpid(), seconds, _peak_rss_mib()


def _play(args: tuple[str, str, int, int]) -> tuple[int, int, float]:
    """Play one shard and build its table, as ``run`` does (without writing it)."""
    import os

    from sim.runner import shard_table

    name, policy, first, count = args
    game = find_game(name)
    batch = game.play(20261130, first, count, game.rules(), [policy] * game.n_players)
    table = shard_table(game, batch.columns, {})
    assert table.num_rows == count
    return os.getpid(), count, _rss_mib()  # with this shard's columns and table still held


def _parquet(args: tuple[str, str, int]) -> dict[str, float]:
    """Time writing one shard's table to Parquet (in a worker, like a run)."""
    from sim.runner import shard_table, write_shard

    name, policy, count = args

    game = find_game(name)
    batch = game.play(20261130, 0, count, game.rules(), [policy] * game.n_players)
    table = shard_table(game, batch.columns, {})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "shard.parquet"
        start = time.perf_counter()
        write_shard(table, path)
        seconds = time.perf_counter() - start
        size = path.stat().st_size
    return {"deals": count, "seconds": round(seconds, 4), "mb_per_s": round(size / 1e6 / seconds, 1),
            "bytes_per_deal": round(size / count, 2)}


def bench_game(name: str, deals: int, jobs: int) -> dict[str, Any]:
    """Measure one game with every policy on ``jobs`` warmed-up workers."""
    ctx = mp.get_context("spawn")
    start = time.perf_counter()
    with ctx.Pool(jobs) as pool:
        barrier = ctx.Manager().Barrier(jobs)
        pids_ready = time.perf_counter()
        warm = pool.map(_warm, [(name, POLICIES, barrier)] * jobs, chunksize=1)
        warmed = time.perf_counter()
        results = []
        for policy in POLICIES:
            tasks = [(name, policy, first, min(SHARD, deals - first)) for first in range(0, deals, SHARD)]
            t0 = time.perf_counter()
            done = pool.map(_play, tasks, chunksize=1)
            seconds = time.perf_counter() - t0
            peaks: dict[int, float] = {}
            for pid, _, rss in done:
                peaks[pid] = max(peaks.get(pid, 0.0), rss)
            assert sum(count for _, count, _ in done) == deals
            results.append({"game": name, "policy": policy, "deals": deals,
                            "seconds": round(seconds, 3), "deals_per_s": round(deals / seconds),
                            "peak_rss_mib": round(_rss_mib() + sum(peaks.values()), 1)})
        parquet = {p: pool.apply(_parquet, ((name, p, min(SHARD, deals)),)) for p in POLICIES}
    startup = {"process_start_s": round(pids_ready - start, 3),
               "jit_and_import_s": round(max(s for _, s, _ in warm), 3),
               "warm_wall_s": round(warmed - pids_ready, 3),
               "warm_peak_rss_mib": round(_peak_rss_mib() + sum(r for _, _, r in warm), 1)}
    return {"results": results, "startup": startup, "parquet": parquet}


def run_bench(games: list[str], deals: int | None, jobs: int, as_json: bool) -> int:
    """Benchmark ``games``; print a table or (``as_json``) one JSON object. Returns 0."""
    deals = deals or DEFAULT_DEALS
    report: dict[str, Any] = {"results": [], "startup": {}, "parquet": {}, "jobs": jobs,
                              "shard_size": SHARD}
    for name in games:
        one = bench_game(name, deals, jobs)
        report["results"] += one["results"]
        report["startup"][name] = one["startup"]
        report["parquet"][name] = one["parquet"]
        if not as_json:
            _print_game(name, one, jobs)
    if as_json:
        json.dump(report, sys.stdout)
        print()
    return 0


def _print_game(name: str, one: dict[str, Any], jobs: int) -> None:
    s = one["startup"]
    print(f"{name}: {jobs} worker(s); process start {s['process_start_s']:.2f} s, "
          f"import + JIT/cache load {s['jit_and_import_s']:.2f} s "
          f"(peak {s['warm_peak_rss_mib']:.0f} MiB)")
    for r in one["results"]:
        print(f"  {r['policy']:<10} {r['deals']:>11,} deals  {r['seconds']:>8.2f} s  "
              f"{r['deals_per_s']:>11,} deals/s  peak {r['peak_rss_mib']:>7.1f} MiB")
    for policy, p in one["parquet"].items():
        print(f"  parquet ({policy}): {p['mb_per_s']} MB/s, {p['bytes_per_deal']} bytes/deal")
    sys.stdout.flush()

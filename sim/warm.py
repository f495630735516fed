"""Compile every game's kernel (and, with ``--solvers``, the double-dummy solvers and the
players on them; with ``--search``, only the solvers' searches the quality measures ask,
``sim.quality``) before a run, one task a process on every core.

numba compiles a game's kernel the first time a process plays the game and keeps it in its
on-disk cache; in a fresh clone that costs minutes a game, paid one game after another by
whatever runs first. ``make run`` and ``make test`` call this first, so that the games
compile side by side and the reports and tests load them. A cache that is already warm is
loaded in seconds. Run as ``python -m sim.warm [--solvers | --search]``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import time

import numba
import numpy as np
from joblib import Parallel, delayed

from sim.engine.play import play
from sim.registry import GAMES, find_game
from sim.search.solver import Q_LENGTH


def solvers() -> dict[str, str]:
    """Each registered game's solver module (``Game.solver``), with the first game whose
    card-play state it solves."""
    found: dict[str, str] = {}
    for game in GAMES.values():
        if game.solver is not None:
            found.setdefault(game.solver.module, game.name)
    return found


def warm_kernel(name: str) -> tuple[str, float]:
    """Compile (or load) one game's kernel: play a deal. The seconds it took."""
    start = time.perf_counter()
    game = find_game(name)
    play(game, 1, 0, 1, game.rules(), ["heuristic"] * game.n_players)
    return name, time.perf_counter() - start


def warm_solver(module_name: str, players: bool = True) -> tuple[str, float]:
    """Compile (or load) a solver module's entry points for the argument types every caller
    passes (without running them: that needs the kernel): the search and the reading of a
    course (``sim.quality``), and with ``players`` the exact count, the counts after each card,
    the solving players and the ``pimc:N`` teacher's values (``sim.learn``): compiled here
    once, not by two test workers at the same time."""
    start = time.perf_counter()
    module = importlib.import_module(module_name)
    game = find_game(solvers()[module_name])
    assert game.card_play is not None
    ws = module.new_workspace(10)
    typeof = numba.typeof
    state = typeof(np.zeros(game.card_play.length, np.int64))
    q = typeof(np.zeros(Q_LENGTH, np.int64))
    obs = typeof(np.zeros(game.observation.LENGTH, np.int64))
    rng = typeof(np.zeros(1, np.uint64))
    workspace = typeof(ws)
    i64 = numba.int64
    module.bound.compile((state, q, i64, workspace))
    module.outcome_line.compile((state, q))
    if players:
        module.count.compile((state, q, workspace))
        module.counts_after.compile((state, q, workspace, typeof(np.zeros(64, np.int64))))
        module.pimc_card.compile((obs, rng, i64, i64, workspace))
        module.dd_card.compile((state, i64, workspace))
        module.pimc_values.compile((obs, rng, i64, workspace))
    return module_name, time.perf_counter() - start


def warm(with_solvers: bool = False, jobs: int | None = None,
         search: bool = False) -> list[tuple[str, float]]:
    """Compile every game's kernel (``warm_kernel``) and with ``with_solvers`` every solver
    module (``warm_solver``), with ``search`` only their searches, as many at once as there
    are cores."""
    names = sorted(GAMES, key=lambda n: -GAMES[n].compile_seconds)  # the slowest first
    tasks = [delayed(warm_kernel)(n) for n in names]
    if with_solvers or search:
        tasks[1:1] = [delayed(warm_solver)(m, with_solvers) for m in solvers()]
    jobs = jobs or min(len(tasks), os.cpu_count() or 1)
    done: list[tuple[str, float]] = Parallel(n_jobs=jobs)(tasks)
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.warm", description=__doc__.split("\n")[0])
    parser.add_argument("--solvers", action="store_true",
                        help="also the double-dummy solvers and the pimc and dd players")
    parser.add_argument("--search", action="store_true",
                        help="also the solvers' searches the quality measures ask (not the players)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    done = warm(args.solvers, search=args.search)
    tasks = ", ".join(f"{n} {s:.0f} s" for n, s in done)
    print(f"compiled or loaded: {tasks} ({time.perf_counter() - start:.0f} s in all)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Compile every game's kernel (and, with ``--solvers``, its double-dummy solver and the
players on it) before a run, one game a process on every core.

numba compiles a game's kernel the first time a process plays the game and keeps it in its
on-disk cache; in a fresh clone that costs minutes a game, paid one game after another by
whatever runs first. ``make run`` and ``make test`` call this first, so that the games
compile side by side and the reports and tests load them. A cache that is already warm is
loaded in seconds. Run as ``python -m sim.warm [--solvers]``.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from joblib import Parallel, delayed

from sim.registry import GAMES, find_game
from sim.search.solver import Q_LENGTH

COMPILE_ORDER = ("skat", "skat_en_deux", "doko_skat", "doko_duell")
"""The games, the slowest to compile first, so that the cores finish together."""


def warm_game(name: str, solvers: bool) -> tuple[str, float]:
    """Compile (or load) one game's kernel, and with ``solvers`` its solver entry points and
    the solving players' (a deal with ``dd`` and ``pimc:1`` seats); the seconds it took."""
    start = time.perf_counter()
    game = find_game(name)
    rules = game.rules()
    heuristic = ["heuristic"] * game.n_players
    game.play(1, 0, 1, rules, heuristic)
    if solvers:
        _warm_solver(name)
    return name, time.perf_counter() - start


def _warm_solver(name: str) -> None:
    """Compile one game's solver entry points on a position two tricks before the end of a
    heuristic deal, and its solving players on a deal with ``dd`` and ``pimc:1`` seats."""
    from sim.policies.solving import hooks

    game = find_game(name)
    rules = game.rules()
    cp = game.card_play
    assert cp is not None
    module = hooks(game)
    deal = 0
    while True:  # the first deal with a card play (not passed out, not given up)
        played = game.play(1, deal, 1, rules, ["heuristic"] * game.n_players, record=True)
        assert played.actions is not None
        started = cp.start(played.columns, 0, played.actions[0], rules)
        if started is not None:
            break
        deal += 1
    state, actions = started
    for action in actions[:len(actions) - 2 * game.n_players]:
        cp.step(state, action)
    module.prepare(state)
    q = np.zeros(Q_LENGTH, np.int64)
    module.question(state, q)
    ws = module.new_workspace(10)
    module.count(state, q, ws)
    module.counts_after(state, q, ws, np.zeros(64, np.int64))
    game.play(1, deal, 1, rules, ["dd"] + ["pimc:1"] * (game.n_players - 1))


def warm(solvers: bool = False, jobs: int | None = None) -> list[tuple[str, float]]:
    """Compile every game (``warm_game``), as many at once as there are cores."""
    names = [n for n in COMPILE_ORDER if n in GAMES] + [n for n in GAMES if n not in COMPILE_ORDER]
    jobs = jobs or min(len(names), os.cpu_count() or 1)
    done: list[tuple[str, float]] = Parallel(n_jobs=jobs)(delayed(warm_game)(n, solvers)
                                                          for n in names)
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.warm", description=__doc__.split("\n")[0])
    parser.add_argument("--solvers", action="store_true",
                        help="also the double-dummy solvers and the pimc and dd players")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    done = warm(args.solvers)
    games = ", ".join(f"{n} {s:.0f} s" for n, s in done)
    print(f"compiled or loaded: {games} ({time.perf_counter() - start:.0f} s in all)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

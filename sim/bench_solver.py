"""``stichsim bench --solver``: how long the double-dummy solver takes, on one core.

Positions are the start of trick 1 of recorded heuristic deals (seed ``SEED``, the games'
default rules, deals without card play skipped). Each question is timed per position after
a warm-up solve (compiling, or loading the compiled solver from the cache), with a fresh
transposition table each time: ``reach_61`` (does the declarer reach 61; the Skat family's
suit games and grand), ``exact`` (the card points under best play; a null game's
"does the declarer take a trick" in the Skat family). The figures are the median and the
90th percentile in milliseconds.
"""

from __future__ import annotations

import json
import time
from typing import Any

import numpy as np

from sim.engine.play import play
from sim.engine.solving import hooks
from sim.machine import describe, machine
from sim.registry import find_game
from sim.search import solver

SEED = 20261203


def positions(name: str, count: int) -> list[np.ndarray]:
    """``count`` trick-1 positions of recorded heuristic deals of game ``name``."""
    game = find_game(name)
    module = hooks(game)
    card_play = game.card_play
    assert card_play is not None
    rules = game.rules()
    found: list[np.ndarray] = []
    first = 0
    while len(found) < count:
        batch = play(game, SEED, first, 4 * count, rules, ["heuristic"] * game.n_players,
                          record=True)
        assert batch.actions is not None
        for i in range(len(batch)):
            started = card_play.start(batch.columns, i, batch.actions[i], rules)
            if started is not None and len(found) < count:
                state = started[0]
                module.prepare(state)
                found.append(state)
        first += 4 * count
    return found


def bench_solver(name: str, count: int | None = None) -> list[dict[str, Any]]:
    """The solver's timings for game ``name``, a row per question."""
    game = find_game(name)
    assert game.solver is not None
    module = hooks(game)
    ws = module.new_workspace()
    q = np.zeros(solver.Q_LENGTH, np.int64)
    states = positions(name, count or game.solver.bench_positions)
    target = game.solver.bench_target
    questions: dict[str, list[float]] = {"exact": []}
    for k, state in enumerate(states):
        module.question(state, q)
        asks = [("exact", lambda: module.count(state, q, ws))]
        if target and q[solver.Q_KIND] == solver.POINTS:
            asks.append((f"reach_{target}", lambda: module.bound(state, q, target, ws)))
        for label, ask in asks:
            if k == 0:
                solver.clear(ws)
                ask()  # warm-up: compile or load
            solver.clear(ws)
            start = time.perf_counter()
            ask()
            questions.setdefault(label, []).append(1000 * (time.perf_counter() - start))
    return [{"game": name, "question": label, "positions": len(ms),
             "median_ms": round(float(np.median(ms)), 3),
             "p90_ms": round(float(np.percentile(ms, 90)), 3)}
            for label, ms in sorted(questions.items()) if ms]


def run_solver_bench(games: list[str], count: int | None, as_json: bool) -> int:
    """Time the solver for each game; print a table or one JSON object."""
    rows = [row for name in games for row in bench_solver(name, count)]
    if as_json:
        print(json.dumps({"solver": rows, "machine": machine()}))
        return 0
    print(describe(machine()))
    print(f"{'game':<14} {'question':<10} {'positions':>9} {'median ms':>10} {'p90 ms':>10}")
    for r in rows:
        print(f"{r['game']:<14} {r['question']:<10} {r['positions']:>9} {r['median_ms']:>10.3f} "
              f"{r['p90_ms']:>10.3f}")
    return 0

"""The ``stichsim`` command: ``run``, ``report``, ``tune``, ``rules``, ``trace``, ``replay``,
``play``, ``serve``, ``arena``, ``bench``.

``report`` and ``tune`` are the places that use both packages: ``report`` runs what an
experiment still lacks with ``sim.runner`` and hands the results folder to
``analysis.report``; ``tune`` races rule sets with ``sim.tune`` (which judges each round
with ``analysis.race``) and hands the outcome to ``analysis.tune_report`` (each imported
only then).

Bad input (an unknown game, option, value or policy, a malformed experiment, a
non-positive count, a results folder in the way, a broken trace) ends with one
line ``stichsim: error: <message>`` on stderr and exit status 2, and leaves
nothing half-written. Other exceptions are bugs and keep their traceback.

>>> main(["rules", "skat"])  # doctest: +ELLIPSIS
skat: 6 options
...
0
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from sim import __version__
from sim.engine.seats import POLICIES, PolicyError, label
from sim.errors import StichsimError
from sim.options import RuleError
from sim.registry import GAMES, GameError

PROG = "stichsim"
EXIT_USAGE = 2


class CliError(StichsimError):
    """Bad command-line input found after parsing."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line and exit status 2, and which takes
    no abbreviation of an option (``--deal`` is not ``--deals``: ``play`` has both)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)  # subparsers are made by this class too
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{PROG}: error: {_one_line(message)} (see '{self.prog} --help')\n")


def _one_line(message: str) -> str:
    return " ".join(str(message).split())


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _positive(text: str) -> int:
    value = _int(text)
    if value is None or value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def _non_negative(text: str) -> int:
    value = _int(text)
    if value is None or value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}")
    return value


def _seed(text: str) -> int:
    value = _int(text)
    if value is None or not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be an integer from 0 to 2**64 - 1, got {text!r}")
    return value


def _default_jobs() -> int:
    from joblib import cpu_count

    count: int = cpu_count()
    return max(1, count)


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Treat SIGTERM like Ctrl-C while running, so the workers are stopped, not orphaned."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# --- commands ---------------------------------------------------------------------------

def _add_backend_arguments(p: argparse.ArgumentParser) -> None:
    """``--backend`` and ``--scheduler``, shared by ``run`` and ``report``."""
    from sim.cluster import BACKENDS

    p.add_argument("--backend", choices=BACKENDS, default=BACKENDS[0],
                   help="where the shards run: local (a process pool here, default) or dask "
                        "(a Dask cluster; needs stichsim[dask]); the files do not depend on it")
    p.add_argument("--scheduler", metavar="tcp://HOST:8786",
                   help="with --backend dask: the cluster's scheduler (default: start a local "
                        "cluster of --jobs worker processes)")


def _add_report_arguments(p: argparse.ArgumentParser, what: str) -> None:
    """``--out`` (the report), ``--results`` (resumed from), ``--jobs``, ``--no-progress`` and
    the backend's, shared by ``report`` and ``tune``; ``what`` does not depend on the workers."""
    p.add_argument("--out", type=Path, metavar="DIR", help="report folder (default: reports/<name>)")
    p.add_argument("--results", default=Path("results"), type=Path, metavar="DIR",
                   help="results root (default: results); what is there is resumed")
    p.add_argument("--jobs", type=_positive, metavar="N",
                   help=f"worker processes (default: every CPU); {what} not depend on it")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_backend_arguments(p)


def cmd_run(args: argparse.Namespace) -> int:
    """Run an experiment to Parquet files (its ``[report]`` table checked first)."""
    import time

    from sim import api

    exp = api.load(args.config, deals=args.deals)
    start = time.perf_counter()
    with _terminate_as_interrupt():
        root = api.run_root(exp, args.out, args.jobs, args.resume, args.force,
                            not args.no_progress, args.backend, args.scheduler)
    variants = exp.variants()
    print(f"{exp.name}: {exp.deals:,} deals x {len(variants)} variant"
          f"{'s' if len(variants) > 1 else ''} ({', '.join(v.name for v in variants)}), "
          f"{len(exp.shards())} shards each, in {root} ({time.perf_counter() - start:.1f} s)")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """Run what each experiment still lacks (its variants, and the runs behind the report's
    robustness section: ``sim.robustness``), then write its balance report; every file is
    checked before the first plays, and one process (one pool of workers) does them all."""
    from sim import api

    if args.out is not None and len(args.config) > 1:
        raise CliError("--out names one report folder: give one experiment file with it")
    with _terminate_as_interrupt():
        api.report(args.config, args.deals, args.out, args.results, args.jobs, not args.no_progress,
                   args.backend, args.scheduler, done=lambda name, index: print(
                       f"{name}: report in {index} (summary: {index.parent / 'summary.md'})"))
    return 0


def cmd_tune(args: argparse.Namespace) -> int:
    """Race rule sets on common deals and report the fairest (``sim.tune``), for each
    experiment file in turn (every one checked before the first plays)."""
    import json
    import time

    from analysis import tune_report
    from sim import api
    from sim.tune import load_tune

    if args.out is not None and len(args.config) > 1:
        raise CliError("--out names one report folder: give one experiment file with it")
    tunes = [load_tune(path, budget=args.budget) for path in args.config]
    for plan in tunes:
        start = time.perf_counter()
        with _terminate_as_interrupt():
            outcome = api.tune(plan, out=args.out, results=args.results, jobs=args.jobs,
                               force=args.force, progress=not args.no_progress,
                               backend=args.backend, scheduler=args.scheduler)
        index = outcome.pop("report")
        if args.json:
            print(json.dumps(outcome))
        else:
            for line in tune_report.headlines(outcome):
                print(line.replace("`", ""))
            print(f"{plan.experiment.name}: report in {index} ({time.perf_counter() - start:.1f} s)")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    """Print every rule option of a game: name, default, allowed values, meaning."""
    from sim.registry import find_game

    game = find_game(args.game)
    rows = game.options.describe()
    head = {"name": "option", "default": "default", "allowed": "allowed", "doc": "meaning"}
    keys = ("name", "default", "allowed")
    widths = {k: max(len(head[k]), *(len(r[k]) for r in rows)) if rows else len(head[k])
              for k in keys}
    print(f"{game.name}: {len(rows)} option{'s' if len(rows) != 1 else ''}")
    print()
    for row in [head, {k: "-" * widths[k] for k in keys} | {"doc": "-" * 7}, *rows]:
        print("  ".join(row[k].ljust(widths[k]) for k in keys) + "  " + row["doc"])
    return 0


def _atomic_output(out: Path) -> Path:
    """A hidden temp file beside ``out``, keeping its suffix."""
    return out.with_name(f".{out.stem}.tmp-{os.getpid()}{out.suffix}")


def cmd_trace(args: argparse.Namespace) -> int:
    """Write deal traces (TRACE.md) as JSON lines."""
    from sim.registry import find_game

    if args.config is not None:
        if args.game is not None:
            raise CliError("trace: give either GAME or --config, not both")
        for flag, value in (("--seed", args.seed), ("--policy", args.policy),
                            ("--policies", args.policies), ("--rule", args.rule or None)):
            if value is not None:
                raise CliError(f"trace: {flag} cannot be used with --config (the experiment sets it)")
        from sim.runner import Experiment

        exp = Experiment.load(args.config)
        variant = exp.variant(args.variant or "base")
        game = find_game(exp.game)
        seed, rules, policies = exp.seed, variant.rules, variant.policies
        deals = args.deals if args.deals is not None else exp.deals
    else:
        if args.game is None:
            raise CliError("trace: give a GAME (games: " + ", ".join(GAMES)
                           + ") or --config EXPERIMENT.toml")
        if args.variant is not None:
            raise CliError("trace: --variant needs --config")
        missing = [f for f, v in (("--deals", args.deals), ("--seed", args.seed)) if v is None]
        if missing:
            raise CliError(f"trace {args.game}: missing {' and '.join(missing)}")
        if args.policy is not None and args.policies is not None:
            raise CliError("trace: give either --policy or --policies, not both")
        game = find_game(args.game)
        rules = game.options.parse_assignments(args.rule or [], game.name)
        if args.policies is not None:
            policies = [p.strip() for p in args.policies.split(",")]
        else:
            policies = [args.policy or "heuristic"] * game.n_players
        from sim.engine.seats import policy_ids

        policy_ids(policies, game)
        seed, deals = args.seed, args.deals

    from sim.trace import write_trace

    out = Path(args.out)
    tmp = _atomic_output(out)
    try:
        written = write_trace(game, seed, args.first, deals, rules, policies, tmp)
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    print(f"{written} deals traced to {out}", file=sys.stderr)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a trace file through the engine; name every deal whose result differs."""
    from sim.trace import TraceError, replay_file

    path = Path(args.file)
    try:
        differ = replay_file(path)
    except TraceError as e:
        raise CliError(f"{path}: {e}") from None
    with path.open("rb") as f:
        deals = sum(1 for line in f if line.strip())
    for message in differ:
        print(message)
    print(f"{deals} deals replayed, {len(differ)} differ")
    return 1 if differ else 0


def cmd_solve(args: argparse.Namespace) -> int:
    """Solve each traced deal from the start of a trick with every card known."""
    import json

    from sim.solve import format_solution, solve_trace
    from sim.trace import TraceError

    path = Path(args.file)
    try:
        solved = solve_trace(path, args.trick)
        first = next(solved, None)  # bad input stops before anything is printed
    except TraceError as e:
        raise CliError(f"{path}: {e}") from None
    if first is None:
        return 0
    for solution in itertools.chain([first], solved):
        print(json.dumps(solution, separators=(",", ":")) if args.json
              else format_solution(solution))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play one deal against the AIs in the terminal."""
    import secrets

    from sim.engine.deals import deck_order
    from sim.engine.seats import policy_ids
    from sim.play import screen_for
    from sim.play.session import LeftTable, play_deal
    from sim.play.table import Table
    from sim.registry import find_game

    game = find_game(args.game)
    rules = game.rules(game.options.parse_assignments(args.rule or [], game.name))
    if not 0 <= args.seat < game.n_players:
        raise CliError(f"play {game.name}: --seat must be 0 to {game.n_players - 1}, got {args.seat}")
    policy_ids([args.policy] * game.n_players, game)
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    preset = None if args.deal is None else deck_order(game, args.deal, args.number % game.n_players)
    trace = args.trace or Path("traces") / f"play-{game.name}-seed{seed}-deal{args.number}.jsonl"
    table = Table(game, rules, seed, args.number, args.seat, args.policy, preset)
    screen = screen_for(game, rules, args.seat, args.number)
    changed = game.options.assignments(rules)
    header = [f"stichsim play {game.name}: deal {args.number} of seed {seed}"
              + (" (cards given by hand)" if preset is not None else "")
              + f"; you are seat {args.seat}, the others play {label(args.policy)}",
              "Rules: " + (", ".join(changed) or "the defaults")
              + ". Answer with the number shown, the card (CJ, HT) or the choice's word "
              "(grand, pass), a bid with its value (18); 'quit' leaves."]

    def read(prompt: str) -> str:
        return input(prompt)

    try:
        play_deal(game, table, screen, read, print, trace, header, hindsight=not args.no_hindsight)
    except (EOFError, LeftTable):
        print(f"\nLeft the table before the end; no trace written (replay this deal: "
              f"{_play_command(args, seed, changed)}).")
        return 0
    except KeyboardInterrupt:
        print("\nInterrupted: left the table; no trace written.")
        return 130
    return 0


def _play_command(args: argparse.Namespace, seed: int, rules: list[str]) -> str:
    """The ``stichsim play`` command that sits down at the same deal again: the game, the
    seed (the random one drawn, if none was given), the deal's number, the seat, the
    others' policy, the rules that differ from the defaults (``KEY=VALUE``) and the cards
    given by hand."""
    import shlex

    words = ["play", args.game, "--seed", str(seed), "--number", str(args.number),
             "--seat", str(args.seat), "--policy", args.policy]
    words += [w for rule in rules for w in ("--rule", rule)]
    words += ["--deal", args.deal] if args.deal is not None else []
    return shlex.join([PROG, *words])


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the table as a local web page (``sim.serve``) until interrupted."""
    import uvicorn

    from sim.engine.python_player import check
    from sim.engine.seats import PolicyError, python_source
    from sim.serve.app import build_app
    from sim.serve.tables import Tables

    players = tuple(args.player or ())
    for name in players:
        if python_source(name) is None:
            raise PolicyError(f"--player names a Python player, python:FILE.py:FUNCTION, got {name!r}")
    check(players)
    print(f"stichsim serve: open http://{args.host}:{args.port}/ (Ctrl-C stops)")
    uvicorn.run(build_app(Tables(players=players)), host=args.host, port=args.port,
                log_level="warning")
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    """Duplicate play of two or more policies against each other (``sim.arena``)."""
    import json

    from sim import api
    from sim.arena import format_report

    with _terminate_as_interrupt():
        report = api.arena_report(args.game, args.policies.split(","), args.deals, args.rule or [],
                                  args.seed, args.jobs, args.until_decided, not args.no_progress,
                                  args.backend, args.scheduler)
    if args.json:
        print(json.dumps(report))
    else:
        print(format_report(report))
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    """Train a game's learned player (``sim.learn.train``)."""
    import json

    from sim.learn.fit import HIDDEN
    from sim.learn.train import Settings, TrainError, train
    from sim.registry import find_game

    game = find_game(args.game)
    try:
        import jax  # noqa: F401
        import optax  # noqa: F401
    except ImportError:
        raise TrainError("training needs JAX and optax: pip install 'stichsim[train]'") from None
    settings = Settings(game.name, args.teacher, args.rounds, args.deals, args.seed, args.epochs,
                        HIDDEN, args.expert, tuple(args.rule or ()))
    out = Path(args.out or f"nets/{game.name}")
    with _terminate_as_interrupt():
        report = train(game, settings, out, args.resume, args.jobs or _default_jobs(),
                       progress=not args.no_progress, arena_deals=args.arena_deals,
                       teacher_deals=args.teacher_deals)
    if args.json:
        print(json.dumps(report, default=str))
    else:
        print((out / "MODEL.md").read_text(), end="")
        print(f"weights: {report['weights']}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Measure deals per second and peak memory."""
    from sim.registry import find_game

    if args.all and args.games:
        raise CliError("bench: give GAME names or --all, not both")
    games = list(args.games) if args.games else list(GAMES)
    for name in games:
        find_game(name)
    if args.solver:
        if args.policies is not None or args.memory:
            raise CliError("bench: --solver times the solver alone; it takes no --policies or --memory")
        from sim.bench_solver import run_solver_bench

        return run_solver_bench(games, args.deals, args.json)
    jobs = args.jobs or _default_jobs()
    if args.memory:
        if args.policies is not None:
            raise CliError("bench: --memory times heuristic runs; it takes no --policies")
        from sim.bench import run_memory

        return int(run_memory(games, args.memory, jobs, args.json))
    from sim.bench import POLICIES as BENCH_POLICIES
    from sim.bench import run_bench

    policies = BENCH_POLICIES
    if args.policies is not None:
        from sim.engine.play import check_seats
        from sim.engine.seats import supported_ids

        policies = tuple(p.strip() for p in args.policies.split(","))
        for name in games:
            supported_ids(policies, find_game(name))
            check_seats(find_game(name), list(policies))
    return int(run_bench(games, args.deals, jobs, args.json, policies))


# --- parser -----------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    """The ``stichsim`` argument parser with its subcommands."""
    games = ", ".join(GAMES)
    parser = _Parser(prog=PROG, description="Monte Carlo simulation of Skat-like card games.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("run", help="run an experiment (TOML) to Parquet files",
                       description="Play every shard of every variant of an experiment and write "
                                   "one Parquet file per shard under OUT/<name>/.")
    p.add_argument("config", metavar="CONFIG.toml", help="the experiment file")
    p.add_argument("--out", default=Path("results"), type=Path, metavar="DIR",
                   help="results root (default: results)")
    p.add_argument("--jobs", type=_positive, metavar="N",
                   help="worker processes (default: every CPU); the files do not depend on it")
    p.add_argument("--resume", action="store_true",
                   help="finish an earlier run of the same config (a missing folder simply runs)")
    p.add_argument("--force", action="store_true", help="replace an existing results folder")
    p.add_argument("--deals", type=_positive, metavar="N", help="override the experiment's deals")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_backend_arguments(p)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("report", help="run what an experiment lacks and write its balance report",
                       description="Finish the experiment's results (like 'run --resume'), and "
                                   "the runs on what moves its answer (its rules with one option "
                                   "changed at a time, every seat random, heuristic, lookahead, "
                                   "pimc, net: sized by [report] robustness_deals, rung_deals, "
                                   "pimc_deals, net_deals; in <results>/<name>-one-at-a-time, "
                                   "-rungs, -pimc, -net), "
                                   "and build reports/<name>/index.html, summary.md and the figures.")
    p.add_argument("config", metavar="EXPERIMENT.toml", nargs="+",
                   help="the experiment file (several: each in turn, in one process)")
    p.add_argument("--deals", type=_positive, metavar="N",
                   help="a quick look with N deals (results and report under <name>-nN)")
    _add_report_arguments(p, "the files do")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("tune", help="race rule sets on common deals and name the fairest",
                       description="Search the rule options of an experiment's [tune] table: every "
                                   "rule set plays the same deals in growing rounds, the clearly "
                                   "worse leave; write reports/<name>/index.html and tune.json.")
    p.add_argument("config", metavar="EXPERIMENT.toml", nargs="+",
                   help="an experiment file with a [tune] table (several: each in turn, in one process)")
    p.add_argument("--budget", type=_positive, metavar="DEALS",
                   help="the most deals one rule set plays (default: the experiment's deals)")
    p.add_argument("--force", action="store_true", help="replace an existing results folder")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    _add_report_arguments(p, "its outcome does")
    p.set_defaults(func=cmd_tune)

    p = sub.add_parser("rules", help="list a game's rule options",
                       description="Print every rule option of GAME: name, default, allowed "
                                   "values (default first) and meaning.")
    p.add_argument("game", metavar="GAME", help=f"game id ({games})")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("trace", help="write deal traces (JSON lines)",
                       description="Write one JSON line per deal (TRACE.md): either "
                                   "'trace GAME --deals N --seed S [--policy NAME | --policies "
                                   "A,B,C] [--rule KEY=VALUE ...]' or 'trace --config "
                                   "EXPERIMENT.toml [--variant NAME] [--deals N]'.")
    p.add_argument("game", nargs="?", metavar="GAME", help=f"game id ({games})")
    p.add_argument("--config", type=Path, metavar="EXPERIMENT.toml",
                   help="take game, seed, rules and policies from an experiment")
    p.add_argument("--variant", metavar="NAME", help="the experiment's variant (default: base)")
    p.add_argument("--deals", type=_positive, metavar="N",
                   help="deals to trace (with --config default: the experiment's deals)")
    p.add_argument("--first", type=_non_negative, default=0, metavar="D",
                   help="index of the first deal (default: 0)")
    p.add_argument("--seed", type=_seed, metavar="S", help="root seed")
    p.add_argument("--policy", metavar="NAME",
                   help=f"policy on every seat ({', '.join(POLICIES)}; python:FILE.py:FUNCTION "
                        f"for your own player; default: heuristic)")
    p.add_argument("--policies", metavar="A,B,C", help="one policy per seat, comma-separated")
    p.add_argument("--rule", action="append", metavar="KEY=VALUE",
                   help="a rule option (repeatable); see 'stichsim rules GAME'")
    p.add_argument("--out", required=True, type=Path, metavar="FILE.jsonl", help="trace file")
    p.set_defaults(func=cmd_trace)

    p = sub.add_parser("replay", help="replay a trace file and report differing deals",
                       description="Play each traced deal's actions through the engine and name "
                                   "every deal whose recorded result differs (exit 1 if any).")
    p.add_argument("file", metavar="FILE.jsonl", help="a trace file")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("solve", help="solve traced deals with every card known",
                       description="For each deal of a trace, the position at the start of a "
                                   "trick (Doko-Skat: of the main game) solved double dummy: "
                                   "each side's final card points under best play by both, and "
                                   "after each card the player to move may play (null: whether "
                                   "the declarer can be forced to take a trick).")
    p.add_argument("file", metavar="TRACE.jsonl", help="a trace file")
    p.add_argument("--trick", type=_positive, default=1, metavar="K",
                   help="solve from the start of trick K (default: 1)")
    p.add_argument("--json", action="store_true", help="one JSON object a deal")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("play", help="play a deal against the AIs in the terminal",
                       description="Sit at one seat of a deal and play it against the "
                                   "simulator's players: your seat's view, each decision with "
                                   "its legal choices (answer with the number, the card or the "
                                   "choice's word), the others' moves, the result with its "
                                   "score; the deal's trace "
                                   "is written for 'stichsim replay'; then the hindsight: each "
                                   "of your cards against the best under perfect play.")
    p.add_argument("game", metavar="GAME", help=f"game id ({games})")
    p.add_argument("--seat", type=_non_negative, default=0, metavar="N",
                   help="your seat (default: 0)")
    p.add_argument("--policy", default="heuristic", metavar="NAME",
                   help=f"the other seats' policy ({', '.join(POLICIES)}; python:FILE.py:FUNCTION "
                        f"for your own player; default: heuristic)")
    p.add_argument("--seed", type=_seed, metavar="S", help="root seed (default: a random one, shown)")
    p.add_argument("--number", type=_non_negative, default=0, metavar="D",
                   help="the deal's index under the seed; it decides who deals (default: 0)")
    p.add_argument("--rule", action="append", metavar="KEY=VALUE",
                   help="a rule option (repeatable); see 'stichsim rules GAME'")
    p.add_argument("--deal", metavar="CARDS",
                   help="play this deal: card groups separated by '/' in the order of the "
                        "trace's cards block (see docs/play.md)")
    p.add_argument("--trace", type=Path, metavar="FILE.jsonl",
                   help="where the deal's trace goes (default: traces/play-GAME-seedS-dealD.jsonl)")
    p.add_argument("--no-hindsight", action="store_true",
                   help="skip the hindsight at the end (each of your cards against the best "
                        "under perfect play, every card known)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("serve", help="play in the browser: a local web page of the table",
                       description="Serve the table of 'stichsim play' as a local web page: "
                                   "choose the game, seat, rules and the others' policy, play a "
                                   "series of deals with the cards drawn, download the traces.")
    p.add_argument("--port", type=_non_negative, default=8000, metavar="P",
                   help="the port (default: 8000)")
    p.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                   help="the address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--player", action="append", metavar="python:FILE.py:FUNCTION",
                   help="offer this Python player among the policies (repeatable)")
    p.set_defaults(func=cmd_serve)

    from sim.arena import DEFAULT_DEALS, DEFAULT_SEED, SLOW_DEFAULT_DEALS

    p = sub.add_parser("arena", help="play policies against each other by duplicate play",
                       description="Play every deal once for every way of seating each pair of "
                                   "policies (each alone against the other at every seat), so "
                                   "the cards cancel out; print each pair's mean score "
                                   "difference per seat per deal with a paired 95% interval, "
                                   "win rates and, for three or more policies, a Bradley-Terry "
                                   "ranking (see sim/arena.py).")
    p.add_argument("game", metavar="GAME", help=f"game id ({games})")
    p.add_argument("--policies", required=True, metavar="A,B[,C...]",
                   help=f"two or more policies, comma-separated ({', '.join(POLICIES)}; "
                        f"lookahead:N for N rollouts a decision, pimc:N for N worlds; dd sees "
                        f"every card; net:PATH plays a weights file; python:FILE.py:FUNCTION "
                        f"a player written in Python)")
    p.add_argument("--deals", type=_positive, metavar="N",
                   help=f"deals per pair (with --until-decided: at most); default {DEFAULT_DEALS:,}, "
                        f"{SLOW_DEFAULT_DEALS:,} when a lookahead, pimc or dd policy plays")
    p.add_argument("--rule", action="append", metavar="KEY=VALUE",
                   help="a rule option (repeatable); see 'stichsim rules GAME'")
    p.add_argument("--seed", type=_seed, default=DEFAULT_SEED, metavar="S",
                   help=f"root seed (default: {DEFAULT_SEED})")
    p.add_argument("--jobs", type=_positive, metavar="N",
                   help="worker processes (default: every CPU); the output does not depend on it")
    p.add_argument("--until-decided", action="store_true",
                   help="play in looks and stop a pair once its interval excludes zero "
                        "(Bonferroni over the looks: 95%% coverage kept), at most --deals")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_backend_arguments(p)
    p.set_defaults(func=cmd_arena)

    from sim.learn.train import ARENA_DEALS, TEACHER_DEALS

    p = sub.add_parser("train", help="train a game's learned player (net) from a search",
                       description="Self-play decisions labelled by the teacher (its value of "
                                   "every legal card), a network fitted to them, round after "
                                   "round (each round's deals played by the last round's "
                                   "network), then an arena against the heuristic and the "
                                   "teacher on deals the training never used. Writes OUT/net.npz "
                                   "(play it as net:OUT/net.npz) and a model card OUT/MODEL.md. "
                                   "Needs the extra [train] (JAX, optax).")
    p.add_argument("game", metavar="GAME", help=f"game id ({games})")
    p.add_argument("--teacher", default="lookahead:64", metavar="lookahead:N|pimc:N",
                   help="the teacher: the lookahead with N rollouts a decision, or pimc with N "
                        "worlds, every card solved in each (default: lookahead:64)")
    p.add_argument("--expert", action="store_true",
                   help="expert iteration: from round 1 on the lookahead's rollouts are played by "
                        "the last round's network")
    p.add_argument("--rounds", type=_positive, default=2, metavar="R", help="rounds (default: 2)")
    p.add_argument("--deals", type=_positive, default=50_000, metavar="N",
                   help="new deals a round (default: 50,000)")
    p.add_argument("--epochs", type=_positive, default=6, metavar="E",
                   help="passes over the decisions a round (default: 6)")
    p.add_argument("--seed", type=_seed, default=1, metavar="S",
                   help="root seed (default: 1); the arena plays seed S+1")
    p.add_argument("--out", metavar="DIR", help="output folder (default: nets/GAME)")
    p.add_argument("--resume", action="store_true", help="go on from the last whole round in OUT")
    p.add_argument("--rule", action="append", metavar="KEY=VALUE",
                   help="a rule option the deals are played under (repeatable; see 'stichsim "
                        "rules GAME'); the arena plays it too")
    p.add_argument("--jobs", type=_positive, metavar="N",
                   help="worker processes (default: every CPU); the weights do not depend on it")
    p.add_argument("--arena-deals", type=_non_negative, default=ARENA_DEALS, metavar="N",
                   help=f"arena deals against the heuristic (default: {ARENA_DEALS:,}; 0: none)")
    p.add_argument("--teacher-deals", type=_non_negative, default=TEACHER_DEALS, metavar="N",
                   help=f"arena deals against the teacher (default: {TEACHER_DEALS:,}; 0: none)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("bench", help="measure deals per second and peak memory",
                       description="Time warmed-up workers for each policy (default: random and "
                                   "heuristic; --policies for others).")
    p.add_argument("games", nargs="*", metavar="GAME", help=f"games ({games}; default: all)")
    p.add_argument("--all", action="store_true", help="every registered game")
    p.add_argument("--deals", type=_positive, metavar="N",
                   help="deals per measurement (default: 2,000,000; 200 for lookahead, pimc, dd)")
    p.add_argument("--policies", metavar="A,B,...",
                   help=f"policies to time, comma-separated ({', '.join(POLICIES)}; lookahead:N "
                        f"for N rollouts a decision, pimc:N for N worlds, python:FILE.py:FUNCTION; "
                        f"default: random,heuristic); lookahead, pimc, dd and python also get "
                        f"decisions/s and "
                        f"rollouts/s (pimc: worlds solved)")
    p.add_argument("--jobs", type=_positive, metavar="N", help="worker processes (default: every CPU)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--memory", type=_positive, nargs="+", metavar="DEALS",
                   help="instead: run heuristic experiments of these sizes (e.g. 1000000 10000000) "
                        "and report the peak memory of all processes for each")
    p.add_argument("--solver", action="store_true",
                   help="instead: time the double-dummy solver on one core (positions at trick 1 "
                        "of recorded heuristic deals; --deals: how many)")
    p.set_defaults(func=cmd_bench)
    return parser


def _user_errors() -> tuple[type[BaseException], ...]:
    """Exceptions that mean bad input: shown as one line, exit status 2."""
    errors: list[type[BaseException]] = [StichsimError, GameError, RuleError, PolicyError, OSError]
    trace = sys.modules.get("sim.trace")
    if trace is not None and isinstance(getattr(trace, "TraceError", None), type):
        errors.append(trace.TraceError)
    return tuple(errors)


def _describe(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        where = f": {error.filename}" if error.filename else ""
        return f"{error.strerror}{where}"
    return str(error) or type(error).__name__


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``stichsim`` command line; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, --version, usage errors
        return e.code if isinstance(e.code, int) else (0 if e.code is None else EXIT_USAGE)
    try:
        return int(args.func(args))
    except _user_errors() as e:
        print(f"{PROG}: error: {_one_line(_describe(e))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted (finished shards are kept: --resume finishes the run)",
              file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

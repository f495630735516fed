"""Deal traces (``TRACE.md``): write them, and replay them through the engine.

A trace is a window onto a simulation, not a second implementation: the trace of
deal ``d`` under seed ``s`` is what ``Game.play`` records for that deal with
``record=True``, rendered as one JSON object per line. Replaying a line feeds its
actions back to the same kernel as a script (every seat plays the recorded
actions), regenerates the cards from the seed and the deal index, re-scores the
deal and compares every recorded field.

The game-specific parts (cards block, action fields, result block) are each game's
codec: the ``CODEC`` of the module the game declares (``Game.trace_codec``); every
registered game is traced (``traced_games``). What codecs are built from (the ``Codec``
protocol, ``TraceError``, the helpers they share) is ``sim.trace_codec``.

>>> from sim.registry import find_game
>>> lines = list(trace_lines(find_game("skat"), 7, 0, 1, {}, ["random"] * 3))
>>> list(lines[0])[:6]
['game', 'rules', 'policies', 'seed', 'deal', 'dealer']
>>> lines[0]["actions"][0]["type"] in ("bid", "pass")
True
"""

from __future__ import annotations

import importlib
import json
import os
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sim import actions as A
from sim.engine.deals import DealError, trace_order
from sim.engine.game import Game
from sim.engine.play import play
from sim.engine.seats import SEATED, PolicyError, policy_ids, sees_every_card
from sim.options import RuleError
from sim.registry import GAMES, GameError, find_game
from sim.trace_codec import Codec, TraceError, short

CHUNK = 2_000
"""Deals per ``Game.play`` call when writing or replaying (each recorded deal keeps
a ``MAX_ACTIONS x 4`` log while its chunk is played: about 16 KiB)."""

FIELDS = ("game", "rules", "policies", "seed", "deal", "dealer", "cards", "actions", "result")
"""Fields of every trace line, in the order they are written."""


def trace_codec(game: Game) -> Codec:
    """``game``'s codec: the ``CODEC`` of the module its ``trace_codec`` names (imported on
    first use)."""
    codec = getattr(importlib.import_module(game.trace_codec), "CODEC", None)
    if not isinstance(codec, Codec):
        raise TypeError(f"game {game.name}: {game.trace_codec}.CODEC is not a trace codec "
                        f"(sim.trace_codec.Codec), got {type(codec).__name__}")
    return codec


def traced_games() -> list[str]:
    """Ids of the games that traces support: every registered game."""
    return list(GAMES)


# --- writing -------------------------------------------------------------------------------

def trace_lines(game: Game, seed: int, first: int, deals: int, rules: dict[str, Any] | None,
                policies: Sequence[str], chunk: int = CHUNK) -> Iterator[dict[str, Any]]:
    """The trace objects of deals ``first .. first + deals - 1``, in order.

    The arguments are checked at once; the deals are played ``chunk`` at a time as
    the objects are consumed.
    """
    if first < 0 or deals < 0:
        raise ValueError(f"deals must be a non-negative range, got first={first}, deals={deals}")
    codec = trace_codec(game)
    resolved = game.rules(rules)
    names = list(policies)
    policy_ids(names, game)
    return _trace_lines(game, codec, seed, first, deals, resolved, names, chunk)


def _trace_lines(game: Game, codec: Codec, seed: int, first: int, deals: int,
                 rules: dict[str, Any], policies: list[str], chunk: int) -> Iterator[dict[str, Any]]:
    for start in range(first, first + deals, chunk):
        count = min(chunk, first + deals - start)
        batch = play(game, seed, start, count, rules, policies, record=True)
        assert batch.actions is not None
        for i in range(count):
            yield trace_object(game, rules, policies, seed, batch.columns, i, batch.actions[i])


def trace_object(game: Game, rules: dict[str, Any], policies: Sequence[str], seed: int,
                 columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
                 given: bool = False) -> dict[str, Any]:
    """The trace object of deal ``i`` of ``columns`` played under ``rules`` with the action
    ``rows`` its kernel recorded; ``given``: the cards were given by hand (``stichsim play
    --deal``), so a replay deals them from the ``cards`` block (field ``given_deal``). The
    seats of a player that sees every card (``dd``) are listed (``sees_every_card``)."""
    codec = trace_codec(game)
    obj = {
        "game": game.name,
        "rules": dict(rules),
        "policies": list(policies),
        "seed": int(seed),
        "deal": int(columns["deal"][i]),
        "dealer": int(columns["dealer"][i]),
        "cards": codec.cards_json(columns, i),
        "actions": codec.actions_json(rows),
        "result": codec.result_json(columns, i, rows),
    }
    if given:
        obj["given_deal"] = True
    omniscient = [s for s, name in enumerate(policies) if sees_every_card(name)]
    if omniscient:  # a dd seat: its play is no fair player's
        obj["sees_every_card"] = omniscient
    return obj


def dump_line(obj: dict[str, Any]) -> str:
    """One trace object as its line (no newline): JSON, keys in written order."""
    return json.dumps(obj, ensure_ascii=False)


def write_trace(game: Game, seed: int, first: int, deals: int, rules: dict[str, Any] | None,
                policies: Sequence[str], out: Path, chunk: int = CHUNK) -> int:
    """Write the trace of deals ``first .. first + deals - 1`` to ``out``; return its lines.

    The file appears complete or not at all: it is written next to ``out`` under a
    temporary name and renamed when done; on any error the temporary file is removed.
    """
    out = Path(out)
    # fail on bad arguments before anything is created
    if first < 0 or deals < 0:
        raise ValueError(f"deals must be a non-negative range, got first={first}, deals={deals}")
    resolved = game.rules(rules)
    policy_ids(list(policies), game)
    trace_codec(game)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    n = 0
    try:
        with open(tmp, "x", encoding="utf-8", newline="\n") as f:
            for obj in trace_lines(game, seed, first, deals, resolved, policies, chunk):
                f.write(dump_line(obj) + "\n")
                n += 1
        os.replace(tmp, out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return n


# --- reading -------------------------------------------------------------------------------

@dataclass
class _Line:
    """One parsed trace line."""

    number: int
    game: Game
    rules: dict[str, Any]
    seed: int
    deal: int
    dealer: int
    cards: Any
    actions: list[dict[str, Any]]
    rows: np.ndarray
    result: dict[str, Any]
    preset: np.ndarray | None = None
    """The deck order of a deal given by hand (``given_deal``); None: dealt from the seed."""


def _fail(number: int, message: str) -> TraceError:
    return TraceError(f"line {number}: {message}")


def _int(value: Any, name: str, number: int, low: int = 0, high: int = 2 ** 63) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value < high:
        raise _fail(number, f"{name} must be an integer in {low}..{high - 1}, got {json.dumps(value)}")
    return value


def parse_line(text: str, number: int) -> _Line:
    """Check one trace line and convert its actions back to rows (``TraceError`` if bad)."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise _fail(number, f"not valid JSON ({e.msg} at column {e.colno})") from None
    if not isinstance(obj, dict):
        raise _fail(number, "not a JSON object")
    missing = [f for f in FIELDS if f not in obj]
    if missing:
        raise _fail(number, f"missing field(s) {', '.join(missing)}")
    name = obj["game"]
    try:
        if not isinstance(name, str):
            raise GameError(f"game must be a name, got {json.dumps(name)}")
        game = find_game(name)
    except GameError:
        raise _fail(number, f"unknown game {json.dumps(name)} (games: {', '.join(traced_games())})") from None
    codec = trace_codec(game)
    given = obj["rules"]
    if not isinstance(given, dict):
        raise _fail(number, "rules must be an object of option: value")
    try:
        rules = game.rules(given)
    except RuleError as e:
        raise _fail(number, str(e)) from None
    # a trace names every option of RULES.md; one of stichsim's own (``beyond_rules``) or
    # of a later revision (``revision``) it lacks was written before the option existed, so
    # it was played under the default
    lacking = [o.name for o in game.options
               if o.name not in given and not o.beyond_rules and not o.revision]
    if lacking:
        raise _fail(number, f"rules lack option(s) {', '.join(lacking)}")
    policies = obj["policies"]
    try:
        if not isinstance(policies, list) or not all(isinstance(p, str) for p in policies):
            raise PolicyError("policies must be a list of policy names")
        policy_ids(policies, game, SEATED)
    except PolicyError as e:
        raise _fail(number, str(e)) from None
    seed = _int(obj["seed"], "seed", number, 0, 2 ** 64)
    given = obj.get("given_deal", False)
    if not isinstance(given, bool):
        raise _fail(number, f"given_deal must be true or false, got {short(given)}")
    preset = None
    if given:
        try:
            preset = trace_order(game, obj["cards"], _int(obj["dealer"], "dealer", number, 0,
                                                          game.n_players))
        except DealError as e:
            raise _fail(number, f"cards: {e}") from None
    deal = _int(obj["deal"], "deal", number)
    dealer = _int(obj["dealer"], "dealer", number, 0, game.n_players)
    actions = obj["actions"]
    if not isinstance(actions, list):
        raise _fail(number, "actions must be a list")
    try:
        cards = codec.parse_cards(obj["cards"])
        codec.check_result(obj["result"])
    except TraceError as e:
        raise _fail(number, str(e)) from None
    rows = np.zeros((len(actions), A.ROW), np.int64)
    for k, action in enumerate(actions):
        try:
            rows[k] = codec.action_row(action)
        except TraceError as e:
            raise _fail(number, f"action {k}: {e}") from None
    return _Line(number, game, rules, seed, deal, dealer, cards, actions, rows, obj["result"], preset)


def read_lines(path: Path) -> Iterator[_Line]:
    """The parsed lines of a trace file (blank lines skipped)."""
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise _fail(number, "not valid UTF-8 text") from None
            if text.strip():
                yield parse_line(text, number)


# --- replaying -----------------------------------------------------------------------------

def replay_file(path: Path, chunk: int = CHUNK) -> list[str]:
    """Replay every deal of a trace file; one message per deal whose record differs.

    A deal differs when its actions cannot be replayed (one does not fit the
    deal or is illegal), when its recorded cards are not those its seed and index
    deal (a deal given by hand is dealt from its own ``cards``), or when a recorded
    action, the dealer or a result field differs from the replay. Raises ``TraceError``
    (naming the line) for a line that cannot be read.
    """
    messages: list[tuple[int, str]] = []
    pending: list[_Line] = []
    for line in read_lines(Path(path)):
        pending.append(line)
        if len(pending) >= chunk:
            messages += _replay(pending, chunk)
            pending = []
    messages += _replay(pending, chunk)
    return [m for _, m in sorted(messages)]


def _replay(lines: list[_Line], chunk: int) -> list[tuple[int, str]]:
    """Replay parsed lines, batching deals of the same game, rules and seed."""
    return [m for run in runs(lines, chunk) for m in _replay_run(run)]


def replayed_deals(run: list[_Line]) -> tuple[list[np.ndarray], list[tuple[Any, int, np.ndarray]]]:
    """Play lines holding consecutive deals of one game, rules and seed in one call, each
    from its recorded actions: the scripts the kernel read, and for each line ``(columns, i,
    log)``, its deal being ``i`` of the result ``columns``, with the actions the kernel
    logged (``replay_error`` says whether they fit)."""
    game, rules, seed, first = run[0].game, run[0].rules, run[0].seed, run[0].deal
    preset = run[0].preset
    codec = trace_codec(game)
    nobody = ["random"] * game.n_players  # a script decides for every seat
    # The kernel records a ``ramsch`` row but does not read one back from a script,
    # so the script leaves it out; should the kernel ever read it, the full rows are
    # tried for the deals that fail without it.
    scripts = [ln.rows for ln in run]
    script_rows = getattr(codec, "script_rows", None)
    if script_rows is not None:  # the codec needs the dealt cards to name the kernel's rows
        dealt = play(game, seed, first, len(run), rules, nobody, preset=preset).columns
        scripts = [script_rows(rows, dealt, i) for i, rows in enumerate(scripts)]
    stripped = [rows[rows[:, 0] != A.RAMSCH] for rows in scripts]
    batch = play(game, seed, first, len(run), rules, nobody, script=stripped, preset=preset)
    assert batch.actions is not None
    played = [(batch.columns, i, batch.actions[i]) for i in range(len(run))]
    for i, ln in enumerate(run):
        if batch.columns["replay_error"][i] and len(stripped[i]) != len(scripts[i]):
            again = play(game, seed, ln.deal, 1, rules, nobody, script=[scripts[i]], preset=preset)
            if not again.columns["replay_error"][0]:
                assert again.actions is not None
                played[i] = (again.columns, 0, again.actions[0])
    return scripts, played


def runs(lines: list[_Line], chunk: int = CHUNK) -> list[list[_Line]]:
    """Lines grouped for replaying: consecutive deals of one game, rules and seed (a deal
    given by hand alone), at most ``chunk`` a group."""
    groups: dict[tuple[Any, ...], list[_Line]] = {}
    for line in lines:
        # a deal given by hand is replayed alone, with its own cards
        key = (line.game.name, tuple(line.rules.items()), line.seed,
               None if line.preset is None else line.number)
        groups.setdefault(key, []).append(line)
    out: list[list[_Line]] = []
    for group in groups.values():
        group.sort(key=lambda ln: (ln.deal, ln.number))
        run: list[_Line] = []
        for line in group:
            if run and (line.deal != run[-1].deal + 1 or len(run) >= chunk):
                out.append(run)
                run = []
            run.append(line)
        if run:
            out.append(run)
    return out


def _replay_run(run: list[_Line]) -> list[tuple[int, str]]:
    """Replay lines holding consecutive deals of one game, rules and seed in one call."""
    codec = trace_codec(run[0].game)
    scripts, played = replayed_deals(run)
    out = []
    for ln, rows, (cols, i, log) in zip(run, scripts, played):
        diffs = codec.cards_diff(ln.cards, cols, i)
        if int(cols["dealer"][i]) != ln.dealer:
            diffs.append(f"dealer recorded {ln.dealer}, replayed {int(cols['dealer'][i])}")
        error = int(cols["replay_error"][i])
        if error:
            diffs.append(_replay_failure(ln, log, error))
        else:
            diffs += codec.actions_diff(ln.actions, codec.actions_json(log))
            diffs += codec.result_diff(ln.result, codec.result_json(cols, i, log))
        if diffs:
            out.append((ln.number, f"deal {ln.deal} (line {ln.number}): " + "; ".join(diffs)))
    return out


def _replay_failure(line: _Line, log: np.ndarray, error: int) -> str:
    """Which recorded action the kernel could not replay, and why: the kernel logs every
    action it replayed, so the first one not in its log (``marker`` rows are no actions;
    the logged card of a Doppelkopf deck may be the other copy of the one recorded)."""
    k = int(np.count_nonzero(log[:, 0] != A.MARKER)) if len(log) else 0
    why = "is illegal here" if error == 2 else "is not the decision due here"
    if k >= len(line.actions):
        return f"the actions end after {len(line.actions)} while the deal goes on"
    return f"action {k} {json.dumps(line.actions[k], separators=(',', ':'))} {why}"


__all__ = ["CHUNK", "FIELDS", "TraceError", "dump_line", "parse_line", "read_lines",
           "replay_file", "replayed_deals", "runs", "trace_codec", "trace_lines",
           "trace_object", "traced_games", "write_trace"]

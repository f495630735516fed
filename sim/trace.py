"""Deal traces (``TRACE.md``): write them, and replay them through the engine.

A trace is a window onto a simulation, not a second implementation: the trace of
deal ``d`` under seed ``s`` is what ``Game.play`` records for that deal with
``record=True``, rendered as one JSON object per line. Replaying a line feeds its
actions back to the same kernel as a script (every seat plays the recorded
actions), regenerates the cards from the seed and the deal index, re-scores the
deal and compares every recorded field.

The game-specific parts (cards block, action fields, result block) are each game's
codec: the ``CODEC`` of its module ``sim.games.<game>_trace`` (or of the module its
game module names in ``TRACE_CODEC``); every registered game with such a module is
traced (``traced_games``). Helpers every codec may use (card lists, result column
converters, JSON comparison, the action comparison) are at the end of this module.

>>> from sim.games import find_game
>>> lines = list(trace_lines(find_game("skat"), 7, 0, 1, {}, ["random"] * 3))
>>> list(lines[0])[:6]
['game', 'rules', 'policies', 'seed', 'deal', 'dealer']
>>> lines[0]["actions"][0]["type"] in ("bid", "pass")
True
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from sim import actions as A
from sim.cards import CardError, Deck
from sim.deals import DealError, trace_order
from sim.games import GAMES, Game, GameError, find_game
from sim.options import RuleError
from sim.policies import SEATED, PolicyError, policy_ids

CHUNK = 2_000
"""Deals per ``Game.play`` call when writing or replaying (each recorded deal keeps
a ``MAX_ACTIONS x 4`` log while its chunk is played: about 16 KiB)."""

FIELDS = ("game", "rules", "policies", "seed", "deal", "dealer", "cards", "actions", "result")
"""Fields of every trace line, in the order they are written."""


class TraceError(ValueError):
    """A trace line that cannot be read: bad JSON, unknown game, option, card or action,
    a missing field. The message is one line and names the line number."""


class Codec(Protocol):
    """A traced game's ``cards``, ``actions`` and ``result`` blocks (its codec module's
    ``CODEC``): rendering from the result columns and action rows, parsing, comparing."""

    def cards_json(self, columns: Mapping[str, np.ndarray], i: int) -> dict[str, Any]: ...
    def parse_cards(self, cards: Any) -> Any: ...
    def cards_diff(self, recorded: Any, columns: Mapping[str, np.ndarray], i: int) -> list[str]: ...
    def actions_json(self, rows: np.ndarray) -> list[dict[str, Any]]: ...
    def action_row(self, obj: Any) -> list[int]: ...
    def actions_diff(self, recorded: Sequence[Mapping[str, Any]],
                     replayed: Sequence[Mapping[str, Any]]) -> list[str]: ...
    def result_json(self, columns: Mapping[str, np.ndarray], i: int,
                    rows: np.ndarray) -> dict[str, Any]: ...
    def check_result(self, result: Any) -> None: ...
    def result_diff(self, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]: ...


class ScriptCodec(Codec, Protocol):
    """A codec whose action objects do not name the kernel's exact action rows (a
    Doppelkopf card name stands for either copy of the card): ``script_rows`` turns a
    deal's parsed rows into the script the kernel replays, given the cards that deal
    ``i`` of ``columns`` dealt. Codecs without it replay their parsed rows as they are."""

    def script_rows(self, rows: np.ndarray, columns: Mapping[str, np.ndarray], i: int) -> np.ndarray: ...


def codec_module(game: Game) -> str:
    """The module holding ``game``'s codec: the game module's ``TRACE_CODEC`` if it names
    one, else ``sim.games.<game>_trace``."""
    return getattr(game.module, "TRACE_CODEC", f"sim.games.{game.name}_trace")


def _has_codec(game: Game) -> bool:
    name = codec_module(game)
    try:
        return name in sys.modules or importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def trace_codec(game: Game) -> Codec:
    """``game``'s codec (its codec module's ``CODEC``, loaded on first use)."""
    if not _has_codec(game):
        raise TraceError(f"game {game.name} has no trace format yet "
                         f"(traced games: {', '.join(traced_games())})")
    # imported late: a codec module imports TraceError from here
    return importlib.import_module(codec_module(game)).CODEC  # type: ignore[no-any-return]


def traced_games() -> list[str]:
    """Ids of the registered games that traces support (those with a codec module)."""
    return [name for name, game in GAMES.items() if _has_codec(game)]


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
    policy_ids(names, game.n_players, game.name)
    return _trace_lines(game, codec, seed, first, deals, resolved, names, chunk)


def _trace_lines(game: Game, codec: Codec, seed: int, first: int, deals: int,
                 rules: dict[str, Any], policies: list[str], chunk: int) -> Iterator[dict[str, Any]]:
    for start in range(first, first + deals, chunk):
        count = min(chunk, first + deals - start)
        batch = game.play(seed, start, count, rules, policies, record=True)
        assert batch.actions is not None
        for i in range(count):
            yield trace_object(game, rules, policies, seed, batch.columns, i, batch.actions[i])


def trace_object(game: Game, rules: dict[str, Any], policies: Sequence[str], seed: int,
                 columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
                 given: bool = False) -> dict[str, Any]:
    """The trace object of deal ``i`` of ``columns`` played under ``rules`` with the action
    ``rows`` its kernel recorded; ``given``: the cards were given by hand (``stichsim play
    --deal``), so a replay deals them from the ``cards`` block (field ``given_deal``)."""
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
    policy_ids(list(policies), game.n_players, game.name)
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
        codec = trace_codec(game)
    except GameError:
        raise _fail(number, f"unknown game {json.dumps(name)} (games: {', '.join(traced_games())})") from None
    except TraceError as e:
        raise _fail(number, str(e)) from None
    given = obj["rules"]
    if not isinstance(given, dict):
        raise _fail(number, "rules must be an object of option: value")
    try:
        rules = game.rules(given)
    except RuleError as e:
        raise _fail(number, str(e)) from None
    lacking = [o.name for o in game.options if o.name not in given]
    if lacking:
        raise _fail(number, f"rules lack option(s) {', '.join(lacking)}")
    policies = obj["policies"]
    try:
        if not isinstance(policies, list) or not all(isinstance(p, str) for p in policies):
            raise PolicyError("policies must be a list of policy names")
        policy_ids(policies, game.n_players, game.name, SEATED)
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
    groups: dict[tuple[Any, ...], list[_Line]] = {}
    for line in lines:
        # a deal given by hand is replayed alone, with its own cards
        key = (line.game.name, tuple(line.rules.items()), line.seed,
               None if line.preset is None else line.number)
        groups.setdefault(key, []).append(line)
    out = []
    for group in groups.values():
        group.sort(key=lambda ln: (ln.deal, ln.number))
        run: list[_Line] = []
        for line in group:
            if run and (line.deal != run[-1].deal + 1 or len(run) >= chunk):
                out += _replay_run(run)
                run = []
            run.append(line)
        if run:
            out += _replay_run(run)
    return out


def _replay_run(run: list[_Line]) -> list[tuple[int, str]]:
    """Replay lines holding consecutive deals of one game, rules and seed in one call."""
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
        dealt = game.play(seed, first, len(run), rules, nobody, preset=preset).columns
        scripts = [script_rows(rows, dealt, i) for i, rows in enumerate(scripts)]
    stripped = [rows[rows[:, 0] != A.RAMSCH] for rows in scripts]
    batch = game.play(seed, first, len(run), rules, nobody, script=stripped, preset=preset)
    assert batch.actions is not None
    played = [(batch.columns, i, batch.actions[i]) for i in range(len(run))]
    for i, ln in enumerate(run):
        if batch.columns["replay_error"][i] and len(stripped[i]) != len(scripts[i]):
            again = game.play(seed, ln.deal, 1, rules, nobody, script=[scripts[i]], preset=preset)
            if not again.columns["replay_error"][0]:
                assert again.actions is not None
                played[i] = (again.columns, 0, again.actions[0])
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


# --- helpers for codecs --------------------------------------------------------------------

def card_names(mask: int, deck: Deck) -> list[str]:
    """Card names of a mask in deck order, one entry per physical card (both copies of a
    Doppelkopf card side by side, as the deck order of their kind)."""
    return [deck.names[i] for i in sorted(deck.cards(int(mask)), key=lambda i: (i % deck.n_kinds, i))]


def parse_names(value: Any, where: str, deck: Deck) -> int:
    """The mask of a list of card names (each copy of a card once, lowest copy first);
    ``where`` names the field in errors."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TraceError(f"{where} must be a list of card names, got {short(value)}")
    try:
        return deck.parse(value)
    except CardError as e:
        raise TraceError(f"{where}: {e}") from None


def flag(v: int) -> bool:
    """A 0/1 column as ``true``/``false``."""
    return bool(v)


def number(v: int) -> int:
    """A plain integer column."""
    return int(v)


def player(v: int) -> int | None:
    """A player column, ``-1`` (nobody) as null."""
    return int(v) if v >= 0 else None


def label(labels: Sequence[str]) -> Callable[[int], str | None]:
    """A coded column written as its label, code 0 (none) as null."""
    def convert(v: int) -> str | None:
        return labels[v] if v > 0 else None
    return convert


def actions_diff(recorded: Sequence[Mapping[str, Any]], replayed: Sequence[Mapping[str, Any]],
                 deck: Deck) -> list[str]:
    """The first difference between recorded and replayed action objects, if any.

    Every field of the replayed object must be recorded with the same value (a
    ``cards`` list in any order); extra recorded fields are not checked.
    """
    def pos(name: Any) -> int:
        return deck.names.index(name) if name in deck.names else len(deck.names)

    for k, (q, r) in enumerate(zip(recorded, replayed)):
        for key, value in r.items():
            mine = q.get(key)
            if key == "cards" and isinstance(mine, list):
                same = sorted(mine, key=pos) == sorted(value, key=pos)
            else:
                same = same_value(mine, value)
            if not same:
                return [f"action {k} recorded {compact(q)}, replayed {compact(r)}"]
    if len(recorded) != len(replayed):
        more = recorded if len(recorded) > len(replayed) else replayed
        extra = compact(more[min(len(recorded), len(replayed))])
        return [f"{len(recorded)} actions recorded, {len(replayed)} replayed (first extra {extra})"]
    return []


def same_value(a: Any, b: Any) -> bool:
    """JSON equality that tells ``true`` from ``1`` and ``false`` from ``0`` (in lists and
    objects too)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return type(a) is type(b) and a == b if a is None or b is None else a == b


def require_fields(result: Any, fields: Sequence[str]) -> None:
    """Raise ``TraceError`` unless ``result`` is an object holding every one of ``fields``
    (the result fields TRACE.md requires of a game)."""
    if not isinstance(result, dict):
        raise TraceError(f"result must be an object, got {short(result)}")
    missing = [f for f in fields if f not in result]
    if missing:
        raise TraceError(f"result: missing field(s) {', '.join(missing)}")


def is_int(v: Any) -> bool:
    """A JSON integer (not ``true``/``false``)."""
    return isinstance(v, int) and not isinstance(v, bool)


def compact(obj: Any) -> str:
    """JSON without spaces, for messages."""
    return json.dumps(obj, separators=(",", ":"))


def short(v: Any) -> str:
    """A value for an error message, cut to 60 characters."""
    text = json.dumps(v) if not isinstance(v, str) else repr(v)
    return text if len(text) <= 60 else text[:57] + "..."

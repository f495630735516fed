"""Experiments: a TOML file in, one Parquet file per shard and variant out.

An experiment names a game, its rules, a policy per seat, a number of deals, a
root seed and a shard size, and optionally rule/policy *variants* that replay
the same deals (common random numbers: deal ``d`` under seed ``s`` is dealt the
same way in every variant, so their differences are paired)::

    name = "skat-baseline"
    game = "skat"
    deals = 1_000_000
    seed = 20261130
    shard_size = 100_000
    policies = ["heuristic", "heuristic", "heuristic"]
    [rules]
    all_pass = "throw_in"
    [[variants]]
    name = "ramsch"
    rules = { all_pass = "ramsch" }

The base configuration is the variant named ``base``; a variant's rules are the
base rules updated by its own, its ``policies`` (if given) replace the base ones.

Shard ``k`` holds deals ``k * shard_size`` up to ``min((k + 1) * shard_size, deals)``
and is written to ``<out>/<name>/game=<game>/variant=<variant>/shard=<k:05d>.parquet``
(hive partition folders), atomically, with the key-value metadata in ``META_KEYS``.
Besides the game's own columns every shard carries how its deals came out in the same
terms for every game, from the game's ``Outcome``: ``start_seat`` (the seat that leads the
first trick) and ``won_0``, ``won_1`` ... (1 the seat's side won, 0 it lost, -1 nobody
won), and its ``stichsim.outcome`` metadata says how to read them (``OUTCOME_KEY``), so an
analysis needs nothing of the simulator.
``<out>/<name>/experiment.json`` holds the normalised config and its hash.
Workers (joblib) get a shard to play and write and hand back only its path and
row count, so the parent holds nothing that grows with the number of deals, and
the files are byte-identical whatever the number of workers or their order.

>>> exp = Experiment.from_dict(dict(name="demo", game="skat", deals=250, seed=1,
...                                 shard_size=100, policies=["random"] * 3))
>>> [(s.index, s.first, s.count) for s in exp.shards()]
[(0, 0, 100), (1, 100, 100), (2, 200, 50)]
>>> [v.name for v in exp.variants()]
['base']
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import sim
from sim.engine.game import Game
from sim.engine.play import check_seats, play, shipped
from sim.engine.restricted_player import restrictions
from sim.engine.seats import POLICIES, PolicyError, net_weights, policy_ids, restriction_of
from sim.errors import ConfigError, ResultsError, did_you_mean
from sim.options import OptionTable, RuleError
from sim.quality import Quality, measure
from sim.registry import GameError, find_game

BASE = "base"
"""Name of the variant that the experiment's own rules and policies make."""

KEYS = ("name", "game", "deals", "seed", "shard_size", "policies", "rules", "variants", "report",
        "tune", "quality")
"""Keys an experiment file may hold (``rules``, ``variants``, ``report``, ``tune`` and
``quality`` are optional; ``[tune]`` is read by ``sim.tune``, ``[quality]`` by
``sim.quality``: the measures each shard adds to its columns)."""
REPORT_SIZES = ("robustness_deals", "rung_deals", "pimc_deals", "net_deals")
"""Keys of an experiment's ``[report]`` table that size the runs behind the report's
robustness section (``sim.robustness``), in deals (0: left out)."""
REPORT_KEYS = ("questions", "measure", *REPORT_SIZES)
"""Keys of an experiment's ``[report]`` table: which balance questions ``stichsim report``
answers (default: every one that applies to the game), the measure that is the report's
answer (a sweep compares it) and the sizes of the robustness runs. They say how to read the
results, not how to play them, so they are not in the config hash."""
REQUIRED = ("name", "game", "deals", "seed", "shard_size", "policies")
VARIANT_KEYS = ("name", "rules", "policies")

EXPERIMENT_FILE = "experiment.json"
OUTCOME_KEY = "stichsim.outcome"
"""Metadata key of a shard's outcome columns, as JSON: ``{"players": 3, "score": ["score_0",
"score_1", "score_2"], "unit": "points", "start": "start_seat", "won": ["won_0", "won_1",
"won_2"]}`` (the per-seat score columns and what they count, the start seat's column, the
per-seat won columns)."""
META_KEYS = ("stichsim_version", "engine_hash", "config_hash", "experiment", "variant", "game", "seed",
             "rules", "policies", "first_deal", "deal_count", OUTCOME_KEY)
"""Parquet key-value metadata of every shard file (``rules``, ``policies`` and the outcome
as JSON)."""
START_COLUMN = "start_seat"
"""The column of the seat that leads the first trick (int8)."""
WON_PREFIX = "won_"
"""Prefix of the per-seat columns of whether the seat's side won (int8: 1, 0, -1 nobody)."""

INTERNAL_COLUMNS = frozenset({"replay_error"})
"""Result columns that are never written to Parquet."""

COMPRESSION = "zstd"

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\Z")
_MAX_DEALS = 2**62


@dataclass(frozen=True)
class Shard:
    """Deals ``first .. first + count - 1``, the ``index``-th shard of an experiment."""

    index: int
    first: int
    count: int


@dataclass(frozen=True)
class Variant:
    """One configuration an experiment plays every deal under."""

    name: str
    rules: dict[str, Any]
    policies: list[str]


@dataclass(frozen=True)
class Experiment:
    """A validated experiment (build it with ``load`` or ``from_dict``)."""

    name: str
    game: str
    deals: int
    seed: int
    shard_size: int
    policies: list[str]
    rules: dict[str, Any]
    extra_variants: tuple[Variant, ...] = ()
    source: str = field(default="config", compare=False)
    report: Mapping[str, Any] = field(default_factory=dict, compare=False)
    tune: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """The ``[tune]`` table as written (``sim.tune`` validates it; ``run`` ignores it)."""
    quality: Quality | None = None
    """The quality measures every shard adds (``[quality]``; ``None``: none)."""

    # --- building -------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike[str], deals: int | None = None) -> Experiment:
        """Read and validate the experiment file ``path`` (``deals`` overrides its deals)."""
        path = Path(path)
        try:
            with path.open("rb") as f:
                data = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path}: malformed TOML: {e}") from None
        except IsADirectoryError:
            raise ConfigError(f"{path}: is a folder, not an experiment file") from None
        except FileNotFoundError:
            raise ConfigError(f"{path}: no such experiment file") from None
        except UnicodeDecodeError as e:
            raise ConfigError(f"{path}: malformed TOML: not UTF-8 ({e.reason})") from None
        return cls.from_dict(data, source=str(path), deals=deals)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "config",
                  deals: int | None = None) -> Experiment:
        """Validate a parsed experiment (``deals`` overrides its deals)."""

        def fail(message: str) -> ConfigError:
            return ConfigError(f"{source}: {message}")

        if not isinstance(data, Mapping):
            raise fail("an experiment must be a TOML table")
        _check_keys(data, KEYS, "", fail)
        missing = [k for k in REQUIRED if k not in data]
        if missing:
            raise fail(f"missing key{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                       f"(required: {', '.join(REQUIRED)}; optional: rules, variants, report)")
        name = _name(data["name"], "name", fail)
        if not isinstance(data["game"], str):
            raise fail(f"game must be a string, got {_show(data['game'])}")
        try:
            game = find_game(data["game"])
        except GameError as e:
            raise fail(str(e)) from None
        if deals is not None:
            deals = _positive(deals, "--deals", fail, _MAX_DEALS)
        else:
            deals = _positive(data["deals"], "deals", fail, _MAX_DEALS)
        shard_size = _positive(data["shard_size"], "shard_size", fail, _MAX_DEALS)
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise fail(f"seed must be an integer from 0 to 2**64 - 1, got {_show(seed)}")
        given_rules = _table(data.get("rules", {}), "rules", fail)
        policies = _policies(data["policies"], game, "policies", fail)
        rules = _rules(game, given_rules, "[rules]", fail)

        variants: list[Variant] = []
        seen = {BASE}
        raw = data.get("variants", [])
        if not isinstance(raw, list):
            raise fail("variants must be an array of tables ([[variants]] sections)")
        for i, spec in enumerate(raw):
            where = f"variants[{i}]"
            if not isinstance(spec, Mapping):
                raise fail(f"{where} must be a table with name and optional rules, policies")
            _check_keys(spec, VARIANT_KEYS, f"{where}: ", fail)
            if "name" not in spec:
                raise fail(f"{where}: missing key name")
            vname = _name(spec["name"], f"{where}.name", fail)
            where = f"variant {vname!r}"
            if vname in seen:
                what = ("is the base configuration's name" if vname == BASE
                        else "is used twice")
                raise fail(f"{where}: the name {vname!r} {what} (variant names must be unique "
                           f"and not {BASE!r})")
            seen.add(vname)
            vgiven = {**given_rules, **_table(spec.get("rules", {}), f"{where}: rules", fail)}
            vrules = _rules(game, vgiven, f"{where}: rules", fail)
            vpolicies = (_policies(spec["policies"], game, f"{where}: policies", fail)
                         if "policies" in spec else list(policies))
            variants.append(Variant(vname, vrules, vpolicies))
        quality = None
        if "quality" in data:
            raw_quality = _table(data["quality"], "quality", fail)
            quality = Quality.of(game, raw_quality, deals, f"{source}: [quality]")
        return cls(name=name, game=game.name, deals=deals, seed=seed, shard_size=shard_size,
                   policies=policies, rules=rules, extra_variants=tuple(variants), source=source,
                   report=_report(data.get("report", {}), fail),
                   tune=_tune_table(data.get("tune", {}), fail), quality=quality)

    # --- what it plays --------------------------------------------------------------

    @property
    def game_obj(self) -> Game:
        """The registered game this experiment plays."""
        return find_game(self.game)

    def variants(self) -> list[Variant]:
        """Every configuration, the base (``"base"``) first, then the file's variants in order."""
        return [Variant(BASE, dict(self.rules), list(self.policies))] + [
            Variant(v.name, dict(v.rules), list(v.policies)) for v in self.extra_variants]

    def variant(self, name: str) -> Variant:
        """The variant called ``name``."""
        for v in self.variants():
            if v.name == name:
                return v
        names = [v.name for v in self.variants()]
        raise ConfigError(f"{self.source}: no variant {name!r} (variants: {', '.join(names)})"
                          f"{did_you_mean([name], names)}")

    def shards(self) -> list[Shard]:
        """The shards, in order: ranges of deal indices, the same for every variant."""
        return list(self.iter_shards())

    def iter_shards(self) -> Iterator[Shard]:
        """The shards, one at a time (``shards`` as a generator)."""
        for k, first in enumerate(range(0, self.deals, self.shard_size)):
            yield Shard(k, first, min(self.shard_size, self.deals - first))

    @property
    def n_shards(self) -> int:
        """Shards per variant."""
        return -(-self.deals // self.shard_size)

    def normalised(self) -> dict[str, Any]:
        """The config with every rule resolved, and the weights its ``net`` seats play
        (``net_weights``): what the hash is taken over."""
        out = {
            "name": self.name, "game": self.game, "deals": self.deals, "seed": self.seed,
            "shard_size": self.shard_size, "policies": list(self.policies),
            "rules": dict(self.rules),
            "variants": [{"name": v.name, "rules": dict(v.rules), "policies": list(v.policies)}
                         for v in self.extra_variants],
        }
        weights = self.net_weights()
        if weights:
            out["weights"] = weights
        if self.quality is not None:
            out["quality"] = self.quality.normalised()
        return out

    def net_weights(self) -> dict[str, str]:
        """Each ``net`` policy of the config with a hash of the weights file it plays (the
        game's shipped weights for ``net``): deals played by other weights, such as the
        shipped ones before they were trained again, belong to another config."""
        quality = self.quality
        measured = [p for pair in quality.skill for p in pair] if quality else []
        names = {p for v in self.variants() for p in [*v.policies, *measured]
                 if net_weights(p) is not None}
        game = find_game(self.game)
        out = {}
        for name in sorted(names):
            path = Path(net_weights(name) or (shipped(game) if game.net else ""))
            out[name] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "missing"
        return out

    def config_hash(self) -> str:
        """sha256 (hex) of the normalised config, stable across runs and machines."""
        return hashlib.sha256(_canonical_json(self.normalised()).encode()).hexdigest()


# --- validation helpers ---------------------------------------------------------------

def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


Fail = Callable[[str], ConfigError]
"""What the config checks raise with: the error for a message, naming the config's source."""


def _check_keys(data: Mapping[str, Any], allowed: tuple[str, ...], where: str, fail: Fail) -> None:
    unknown = [k for k in data if k not in allowed]
    if unknown:
        raise fail(f"{where}unknown key{'s' if len(unknown) > 1 else ''} "
                   f"{', '.join(map(repr, unknown))} (allowed: {', '.join(allowed)})"
                   f"{did_you_mean(unknown, allowed)}")


def _name(value: Any, what: str, fail: Fail) -> str:
    if not isinstance(value, str) or not _NAME.match(value):
        raise fail(f"{what} must be a name of letters, digits, '.', '_' and '-' that starts "
                   f"with a letter or digit, got {_show(value)}")
    return value


def _positive(value: Any, what: str, fail: Fail, limit: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 < value < limit:
        raise fail(f"{what} must be a positive integer, got {_show(value)}")
    return int(value)


def _non_negative(value: Any, what: str, fail: Fail) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < _MAX_DEALS:
        raise fail(f"{what} must be a whole number of deals, 0 or more, got {_show(value)}")
    return value


def _table(value: Any, what: str, fail: Fail) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise fail(f"{what} must be a table of option = value, got {_show(value)}")
    return dict(value)


def _rules(game: Game, given: dict[str, Any], where: str, fail: Fail) -> dict[str, Any]:
    try:
        return game.rules(given)
    except RuleError as e:
        raise fail(f"{where}: {e}") from None


def _policies(value: Any, game: Game, what: str, fail: Fail) -> list[str]:
    if isinstance(value, str):
        value = [value] * game.n_players
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise fail(f"{what} must be a list of {game.n_players} policy names "
                   f"(policies: {', '.join(POLICIES)}), got {_show(value)}")
    try:
        policy_ids(value, game)
        check_seats(game, value)
    except PolicyError as e:
        raise fail(f"{what}: {e}") from None
    return list(value)


def _report(value: Any, fail: Fail) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise fail(f"report must be a table ([report] with {', '.join(REPORT_KEYS)}), got {_show(value)}")
    _check_keys(value, REPORT_KEYS, "[report]: ", fail)
    questions = value.get("questions")
    if questions is not None and (not isinstance(questions, list) or not questions
                                  or not all(isinstance(q, str) for q in questions)):
        raise fail(f"[report]: questions must be a non-empty list of names, got {_show(questions)}")
    if "measure" in value and not isinstance(value["measure"], str):
        raise fail(f"[report]: measure must be a name, got {_show(value['measure'])}")
    for key in REPORT_SIZES:
        if key in value:
            _non_negative(value[key], f"[report]: {key}", fail)
    return dict(value)


def _tune_table(value: Any, fail: Fail) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise fail(f"tune must be a table ([tune] with options, measure, delta ...), got {_show(value)}")
    return dict(value)


def _canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


# --- files ------------------------------------------------------------------------------

def shard_path(root: Path, game: str, variant: str, index: int) -> Path:
    """Where shard ``index`` of ``variant`` lies under the experiment folder ``root``."""
    return root / f"game={game}" / f"variant={variant}" / f"shard={index:05d}.parquet"


def _temp_path(path: Path) -> Path:
    """A hidden temp file beside ``path`` (readers skip names starting with '.')."""
    return path.with_name(f".{path.name}.tmp-{os.getpid()}")


def _is_temp(path: Path) -> bool:
    return path.name.startswith(".") and ".tmp-" in path.name


def write_atomic_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temp file in the same folder."""
    tmp = _temp_path(path)
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_shard(table: pa.Table, path: Path) -> None:
    """Write one shard's table to ``path`` atomically (temp file, then ``os.replace``).

    The file depends on the table alone (no timestamps), so equal tables give
    byte-identical files.
    """
    tmp = _temp_path(path)
    try:
        pq.write_table(table, tmp, compression=COMPRESSION, row_group_size=max(1, table.num_rows))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def outcome_columns(game: Game) -> list[str]:
    """The columns every shard of ``game`` carries after its own: the start seat, then
    whether each seat won."""
    return [START_COLUMN] + [f"{WON_PREFIX}{s}" for s in range(game.n_players)]


def shard_columns(game: Game) -> list[str]:
    """Every column of a shard file of ``game``, in file order."""
    return [name for name, _ in game.columns if name not in INTERNAL_COLUMNS] + outcome_columns(game)


def outcome_metadata(game: Game) -> str:
    """The ``OUTCOME_KEY`` metadata of ``game``'s shards (canonical JSON)."""
    return _canonical_json({
        "players": game.n_players,
        "score": [f"{game.outcome.score}_{s}" for s in range(game.n_players)],
        "unit": game.outcome.unit,
        "start": START_COLUMN,
        "won": [f"{WON_PREFIX}{s}" for s in range(game.n_players)]})


def _outcome_arrays(game: Game, columns: Mapping[str, np.ndarray]) -> list[pa.Array]:
    """``start_seat`` and ``won_<s>`` of each deal (int8) from the game's ``Outcome``."""
    start = np.asarray(game.outcome.start_seat(columns))
    arrays = [pa.array(start.astype(np.int8))]
    for s in range(game.n_players):
        won = np.asarray(game.outcome.seat_won(columns, s))
        if won.size and (won.min() < -1 or won.max() > 1):
            raise RuntimeError(f"{game.name}: won_{s} out of -1, 0, 1")
        arrays.append(pa.array(won.astype(np.int8)))
    return arrays


def shard_table(game: Game, columns: Mapping[str, np.ndarray],
                metadata: Mapping[str, str], extra: Mapping[str, np.ndarray] | None = None) -> pa.Table:
    """The Parquet table of one played shard: the game's columns in their own dtypes
    (categorical ones as dictionary strings, internal ones left out), then the outcome's
    ``start_seat`` and ``won_<s>`` worked out from them, then ``extra`` (the quality
    measures, ``sim.quality``), plus ``metadata`` and the outcome's (``OUTCOME_KEY``)."""
    cats = game.categories
    arrays: list[pa.Array] = []
    names: list[str] = []
    for name, dtype in game.columns:
        if name in INTERNAL_COLUMNS:
            continue
        values = np.asarray(columns[name])
        if name in cats:
            labels = cats[name]
            if values.size and (values.min() < -1 or values.max() >= len(labels)):
                raise RuntimeError(f"column {name}: code out of range for {labels}")
            codes = values.astype(np.int8)
            indices = pa.array(codes, type=pa.int8(), mask=codes < 0)
            arrays.append(pa.DictionaryArray.from_arrays(indices, pa.array(labels, pa.string())))
        else:
            arrays.append(pa.array(values.astype(dtype, copy=False)))
        names.append(name)
    if clash := set(names) & set(outcome_columns(game)):
        raise RuntimeError(f"{game.name}: result columns {sorted(clash)} clash with the outcome's")
    arrays += _outcome_arrays(game, columns)
    names += outcome_columns(game)
    for name, values in (extra or {}).items():
        arrays.append(pa.array(values))
        names.append(name)
    return pa.Table.from_arrays(arrays, names=names).replace_schema_metadata(
        {**metadata, OUTCOME_KEY: outcome_metadata(game)})


def shard_metadata(exp: Experiment, variant: Variant, shard: Shard,
                   config_hash: str | None = None) -> dict[str, str]:
    """The key-value metadata of a shard file (``META_KEYS``)."""
    return {
        "stichsim_version": sim.__version__,
        "engine_hash": sim.SOURCE_HASH,
        "config_hash": config_hash or exp.config_hash(),
        "experiment": exp.name,
        "variant": variant.name,
        "game": exp.game,
        "seed": str(exp.seed),
        "rules": _canonical_json(variant.rules),
        "policies": _canonical_json(variant.policies),
        "first_deal": str(shard.first),
        "deal_count": str(shard.count),
        OUTCOME_KEY: outcome_metadata(exp.game_obj),
    }


def read_shard_metadata(path: Path) -> dict[str, str] | None:
    """A shard file's stichsim metadata and row count (``rows``), or None if unreadable."""
    try:
        meta = pq.read_metadata(path)
    except (OSError, pa.ArrowException):
        return None
    kv = {k.decode(): v.decode() for k, v in (meta.metadata or {}).items()
          if not k.startswith(b"ARROW:")}
    kv["rows"] = str(meta.num_rows)
    return kv


def shard_complete(path: Path, metadata: Mapping[str, str]) -> bool:
    """Whether ``path`` is a complete, readable shard file with exactly this ``metadata``."""
    found = read_shard_metadata(path)
    if found is None:
        return False
    return found.get("rows") == metadata["deal_count"] and all(
        found.get(k) == metadata[k]
        for k in ("stichsim_version", "engine_hash", "config_hash", "variant", "first_deal",
                  "deal_count", OUTCOME_KEY))


# --- running ----------------------------------------------------------------------------

@dataclass(frozen=True)
class ShardOutput:
    """One shard file a played shard is written to, with the rules it is scored under."""

    rules: dict[str, Any]
    path: str
    metadata: dict[str, str]


@dataclass(frozen=True)
class ShardTask:
    """Everything a worker needs to play one shard and write its files (small, picklable).

    Variants whose rules differ only in scoring-only options share a task: the shard is
    played once under ``rules`` and re-scored for each output."""

    game: str
    seed: int
    first: int
    count: int
    rules: dict[str, Any]
    policies: list[str]
    outputs: tuple[ShardOutput, ...]
    quality: Quality | None = None


def run_shard(task: ShardTask) -> list[tuple[str, int]]:
    """Play one shard, measure its quality where the experiment asks (``sim.quality``), and
    write its files; only paths and row counts go back. Threads may run shards side by side
    (each plays into its own buffers)."""
    game = find_game(task.game)
    batch = play(game, task.seed, task.first, task.count, task.rules, task.policies)
    extras: list[dict[str, np.ndarray]] = [{} for _ in task.outputs]
    if task.quality is not None:
        extras = measure(game, task.quality, task.seed, task.first, task.count, task.rules,
                         task.policies, [out.rules for out in task.outputs])
    written = []
    for out, extra in zip(task.outputs, extras, strict=True):
        columns = batch.columns if out.rules == task.rules else game.rescore(batch.columns, out.rules)
        table = shard_table(game, columns, out.metadata, extra)
        write_shard(table, Path(out.path))
        written.append((out.path, table.num_rows))
    return written


def _read_experiment_file(root: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((root / EXPERIMENT_FILE).read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise ResultsError(f"{root / EXPERIMENT_FILE} cannot be read ({e}): "
                           f"use --force to replace {root}") from None
    return data if isinstance(data, dict) else {}


def _prepare(root: Path, exp: Experiment, config_hash: str, resume: bool, force: bool,
             flag: str = "--out") -> None:
    """Make ``root`` ready: refuse, remove (force), keep (resume) or create it; ``flag``: the
    option that chooses another results root, as the refusals name it."""
    if root.exists() or root.is_symlink():
        if not root.is_dir():
            raise ResultsError(f"{root} exists and is not a folder: remove it or choose another {flag}")
        empty = not any(root.iterdir())
        if force:
            if not (root / EXPERIMENT_FILE).exists() and not empty:
                raise ResultsError(f"{root} is not a stichsim results folder (no {EXPERIMENT_FILE}): "
                                   f"not removing it; remove it yourself or choose another {flag}")
            shutil.rmtree(root)
        elif resume:
            found = _read_experiment_file(root)
            if found is None and not empty:
                raise ResultsError(f"{root} is not a stichsim results folder (no {EXPERIMENT_FILE}): "
                                   f"remove it or choose another {flag}")
            if found is not None and found.get("config_hash") != config_hash:
                old = str(found.get("config_hash"))[:12]
                raise ResultsError(f"{root} holds results of a different config (hash {old}, "
                                   f"this config {config_hash[:12]}): use --force to replace it "
                                   f"or {flag} to write elsewhere")
            if found is not None and (found.get("stichsim_version"), found.get("engine_hash")) \
                    != (sim.__version__, sim.SOURCE_HASH):
                raise ResultsError(f"{root} was written by stichsim {found.get('stichsim_version')} "
                                   f"(engine {str(found.get('engine_hash'))[:8]}), this is "
                                   f"{sim.__version__} (engine {sim.SOURCE_HASH[:8]}): its shards may "
                                   f"differ from new ones; use --force to replace it or {flag} to "
                                   f"write elsewhere")
        elif not empty:
            raise ResultsError(f"{root} exists: use --resume to finish it or --force to replace it")
    root.mkdir(parents=True, exist_ok=True)
    if _read_experiment_file(root) is None:
        doc = {"stichsim_version": sim.__version__, "engine_hash": sim.SOURCE_HASH,
               "config_hash": config_hash,
               "config": exp.normalised(), "restrictions": restriction_docs(exp)}
        write_atomic_bytes(root / EXPERIMENT_FILE,
                           (json.dumps(doc, indent=2, sort_keys=True) + "\n").encode())


def restriction_docs(exp: Experiment) -> dict[str, str]:
    """What each restriction of the experiment's restricted play forbids, by name (the report
    says it beside the restriction's cost; ``analysis`` cannot ask the game)."""
    own = restrictions(exp.game_obj)
    names = [restriction_of(b) for _, b in (exp.quality.skill if exp.quality else ())]
    return {r: own[r].doc if r in own else "a Python predicate" for r in names if r is not None}


def play_key(options: OptionTable, rules: Mapping[str, Any], policies: Sequence[str] = ()) -> str:
    """What decides how deals are played: the rules less the scoring-only options, and the
    policies. Configurations with equal keys play identical deals (one play, re-scored)."""
    return _canonical_json([options.play_rules(rules), list(policies)])


def plan(exp: Experiment, root: Path, resume: bool = False) -> tuple[Iterator[ShardTask], int, int]:
    """The shard tasks still to do under ``root`` (a lazy iterator), their number, and
    the number of shards already done.

    With ``resume`` a complete shard file with this config's metadata is kept; a
    stray temp file or a broken shard file is removed (now) and its shard redone.
    Nothing held here grows with the number of deals or shards.
    """
    h = exp.config_hash()
    variants = exp.variants()
    done = 0
    for variant in variants:
        folder = shard_path(root, exp.game, variant.name, 0).parent
        folder.mkdir(parents=True, exist_ok=True)
        if not resume:
            continue
        for stray in folder.iterdir():
            if _is_temp(stray):
                stray.unlink(missing_ok=True)
        for shard in exp.iter_shards():
            path = shard_path(root, exp.game, variant.name, shard.index)
            if path.exists():
                if shard_complete(path, shard_metadata(exp, variant, shard, h)):
                    done += 1
                else:
                    path.unlink()

    # variants that play the same deals the same way: one play, re-scored for each
    options = find_game(exp.game).options
    groups: dict[str, list[Variant]] = {}
    for variant in variants:
        groups.setdefault(play_key(options, variant.rules, variant.policies), []).append(variant)

    def tasks() -> Iterator[ShardTask]:
        for group in groups.values():
            for shard in exp.iter_shards():
                outputs = tuple(
                    ShardOutput(v.rules, str(path), shard_metadata(exp, v, shard, h))
                    for v in group
                    if not (path := shard_path(root, exp.game, v.name, shard.index)).exists())
                if outputs:
                    yield ShardTask(exp.game, exp.seed, shard.first, shard.count, outputs[0].rules,
                                    group[0].policies, outputs, exp.quality)

    return tasks(), len(variants) * exp.n_shards - done, done


def run_experiment(exp: Experiment, out_dir: str | os.PathLike[str] = Path("results"), jobs: int = 1,
                   resume: bool = False, force: bool = False, progress: bool = True,
                   backend: Any = "loky", flag: str = "--out") -> Path:
    """Play every shard of every variant of ``exp`` and write them under ``out_dir/exp.name``.

    Parameters
    ----------
    exp : the experiment.
    out_dir : results root; the experiment's folder is ``out_dir / exp.name``.
    jobs : worker processes (joblib ``n_jobs``); the files do not depend on it.
    resume : finish an earlier run of the same config (a missing folder simply runs).
    force : remove an existing results folder first (wins over ``resume``).
    progress : show a progress bar over shards (on a terminal).
    backend : joblib backend (``"loky"``; any registered one plugs in); ``None``: the one set
        by ``joblib.parallel_config`` around the call (how ``sim.cluster`` uses Dask's).
    flag : the command's option for another results root, as a refusal names it.

    Returns the experiment's results folder. An existing folder without ``resume``
    or ``force``, or a ``resume`` of a folder written by another config, raises
    ``ResultsError``.
    """
    from joblib import Parallel, delayed
    from tqdm import tqdm

    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ResultsError(f"jobs must be a positive integer, got {jobs!r}")
    root = Path(out_dir) / exp.name
    h = exp.config_hash()
    _prepare(root, exp, h, resume and not force, force, flag)
    # absolute paths in the tasks: a worker on another machine has its own working folder
    todo, n_todo, done = plan(exp, root.absolute(), resume=resume and not force)
    bar = tqdm(total=n_todo + done, initial=done, unit="shard", desc=exp.name, file=sys.stderr,
               disable=None if progress else True, dynamic_ncols=True)
    try:
        if n_todo:
            parallel = Parallel(n_jobs=min(jobs, n_todo), backend=backend,
                                return_as="generator_unordered")
            results: Iterator[list[tuple[str, int]]] = parallel(delayed(run_shard)(t) for t in todo)
            for written in results:
                bar.update(len(written))
    finally:
        bar.close()
    return root


__all__ = ["BASE", "EXPERIMENT_FILE", "META_KEYS", "OUTCOME_KEY", "START_COLUMN", "WON_PREFIX", "Experiment",
           "Shard", "ShardOutput", "ShardTask", "Variant",
           "outcome_columns", "outcome_metadata", "plan", "play_key", "read_shard_metadata", "run_experiment",
           "run_shard", "shard_columns", "shard_complete", "shard_metadata", "shard_path", "shard_table",
           "write_shard"]

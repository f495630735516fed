"""The shape every game shares: modules that import on their own, one complete declaration
per game, analysis apart from the simulator."""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from sim.engine.cardplay import HEADER_FIELDS, CardPlay
from sim.engine.game import BASIC_POLICIES, Game, Outcome
from sim.engine.kernel import KernelTag
from sim.engine.seats import POLICIES
from sim.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent


def _modules(package: str) -> list[str]:
    names = []
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


MODULES = _modules("sim") + _modules("analysis")

_IMPORT_EACH = """
import importlib, json, sys
failed = {}
leaks = []
for name in json.loads(sys.argv[1]):
    for loaded in [m for m in sys.modules if m.split(".")[0] in ("sim", "analysis")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as e:
        failed[name] = f"{type(e).__name__}: {e}"
    if name.split(".")[0] == "analysis" and any(m.split(".")[0] == "sim" for m in sys.modules):
        leaks.append(name)
print(json.dumps({"failed": failed, "leaks": leaks}))
"""


def test_every_module_imports_on_its_own() -> None:
    """Each module of ``sim`` and ``analysis``, imported first with none of the project's
    modules loaded, imports (no cycle needs a friendlier order); importing an ``analysis``
    module loads nothing of ``sim``."""
    assert len(MODULES) > 40
    done = subprocess.run([sys.executable, "-c", _IMPORT_EACH, json.dumps(MODULES)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["failed"] == {}
    assert result["leaks"] == []


@pytest.mark.parametrize("name", ["sim.games.skat_family.heuristic", "sim.games.doko_skat.heuristic",
                                  "sim.games.skat_family.trace", "sim.trace", "sim.games.doko_skat.screen"])
def test_a_fresh_interpreter_imports_a_module_first(name: str) -> None:
    """What a notebook does first: import a heuristic (or a codec, the table) on its own."""
    subprocess.run([sys.executable, "-c", f"import {name}"], cwd=ROOT, check=True)


def check_declaration(game: Game) -> None:
    """A declaration is whole: every field set, and the parts agree with each other (columns
    the outcome and categories name exist, the codec and the screen load, the kernel's
    parameters and bid values come from the rules, the card play's state starts with the
    common header)."""
    assert isinstance(game, Game)
    for field in dataclasses.fields(Game):
        assert field.name in ("solver", "net", "restrictions") or getattr(game, field.name) is not None, \
            field.name
    assert BASIC_POLICIES <= game.policies <= set(POLICIES)
    if "net" in game.policies:
        assert game.net is not None, "the learned player needs the game's features and weights"
        assert game.net.features.rows[0, 0] == game.observation.SEAT
    if {"pimc", "dd"} & game.policies:
        assert game.solver is not None, "a solving player needs the game's solver"
    if game.solver is not None:
        hooks = importlib.import_module(game.solver.module)
        for entry in ("prepare", "question", "count", "bound", "counts_after", "new_workspace",
                      "pimc_card", "dd_card", "card_row", "pimc_values"):
            assert callable(getattr(hooks, entry)), entry
        assert hooks.TT_BITS > 0 and isinstance(hooks.SAME_NAME_SAME_MOVE, bool)
        assert game.solver.bench_positions > 0
    assert game.compile_seconds >= 0
    columns = [c for c, _ in game.columns]
    assert len(set(columns)) == len(columns)
    for s in range(game.n_players):
        assert f"{game.outcome.score}_{s}" in columns
    assert set(game.categories) <= set(columns)
    assert isinstance(game.outcome, Outcome) and game.outcome.unit in ("points", "VP")
    assert game.deck.n_cards == sum(g.size for g in game.deal_layout.groups if not g.among)
    assert game.observation.LENGTH > 0
    rules = game.rules()
    params = game.kernel_params(rules)
    assert params.dtype == np.int64 and params.ndim == 1
    assert game.bid_values(rules).dtype == np.int64
    codec = importlib.import_module(game.trace_codec).CODEC
    assert hasattr(codec, "cards_json") and hasattr(codec, "result_json")
    module, _, factory = game.screen.partition(":")
    assert callable(getattr(importlib.import_module(module), factory))
    assert isinstance(game.kernel, KernelTag) and game.kernel.game == game.name
    assert callable(game.rescore)
    assert columns[-1] == "replay_error"
    assert isinstance(game.card_play, CardPlay)
    assert game.card_play.fields._fields[:len(HEADER_FIELDS)] == HEADER_FIELDS
    assert "HANDS" in game.card_play.fields._fields


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_declares_every_field(name: str) -> None:
    """Every registered game's declaration is whole (``check_declaration``)."""
    assert GAMES[name].name == name
    check_declaration(GAMES[name])


def test_each_game_module_ends_with_its_declaration() -> None:
    """Each registered game of ``sim.games`` is the ``GAME`` of exactly one module of its
    family's package."""
    modules = [importlib.import_module(m) for m in MODULES if m.startswith("sim.games.")]
    for name, game in GAMES.items():
        if not game.trace_codec.startswith("sim."):
            continue  # a game declared outside the simulator (the toy game of the tests)
        owners = [m.__name__ for m in modules if getattr(m, "GAME", None) is game]
        assert len(owners) == 1, (name, owners)
        assert owners[0].count(".") == 3  # sim.games.<family>.<module>


_PLAY_ONE = """
import sys
from sim.engine.play import play
from sim.registry import GAMES
from sim.engine.kernel import play_shard
for name in sys.argv[1:] or GAMES:
    game = GAMES[name]
    play(game, 1, 0, 2, game.rules(), ["random"] * game.n_players)
print(sum(play_shard.stats.cache_hits.values()), sum(play_shard.stats.cache_misses.values()))
"""


def _play_one(*names: str) -> subprocess.CompletedProcess[str]:
    """A fresh process that plays two deals of each game named (every game if none)."""
    return subprocess.run([sys.executable, "-c", _PLAY_ONE, *names], cwd=ROOT,
                          capture_output=True, text=True, check=True)


def test_the_one_shard_loop_is_cached_across_processes() -> None:
    """A second process loads every game's compiled shard loop from numba's cache: no
    compilation (a kernel that took a jitted function as an argument would compile anew in
    every process). The first processes compile what a cold cache lacks, the Skat family's
    games and the Doppelkopf games side by side (both cores; a cache entry that two
    processes race to write is filled in by the one after them)."""
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda names: _play_one(*names),
                      [[n for n in GAMES if n.startswith("skat")],
                       [n for n in GAMES if not n.startswith("skat")]]))
    _play_one()
    hits, misses = map(int, _play_one().stdout.split())
    assert (hits, misses) == (len(GAMES), 0)


def test_the_cache_folder_holds_when_numba_is_imported_first() -> None:
    """A script that imports numba before stichsim still caches compiled code in the folder
    keyed by the engine's source hash, not next to the sources (where numba checks only the
    defining file's time stamp, and a changed helper in another file would go unseen)."""
    script = ("import os, numba, sim; print(numba.config.CACHE_DIR == os.environ"
              "['NUMBA_CACHE_DIR'], sim.SOURCE_HASH in numba.config.CACHE_DIR)")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, check=True, env=env).stdout.split()
    assert out == ["True", "True"]


def test_a_kernel_tag_with_another_version_is_another_compiled_loop() -> None:
    """A game declared outside ``sim`` (the toy) versions its kernel tag with its sources:
    numba keys the cached shard loop on the tag's type, so a changed game is compiled anew
    instead of loading a stale loop; the games of ``sim`` need no version."""
    import numba

    from sim import source_hash

    assert numba.typeof(KernelTag("toy", "a")) != numba.typeof(KernelTag("toy", "b"))
    assert numba.typeof(KernelTag("toy", "a")) == numba.typeof(KernelTag("toy", "a"))
    assert all(GAMES[name].kernel.version == "" for name in ("skat", "doko_duell"))
    toy = ROOT / "tests" / "toygame"
    assert source_hash(toy) != source_hash(ROOT / "sim" / "engine")

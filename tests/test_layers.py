"""Layers that only point down, and games named only where they live: every import of ``sim``
(at the top of a module or inside a function, read from the source) goes to the importer's
own layer or one below it; outside the game packages and the registry no code names a
game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sim.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
SIM = ROOT / "sim"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundation", ("sim", "sim.numba_cache", "sim.errors", "sim.cards", "sim.rng", "sim.tricks",
                    "sim.actions", "sim.options", "sim.trace_codec")),
    ("engine", ("sim.engine",)),
    ("shared players, search and screen parts", ("sim.policies", "sim.search", "sim.screen")),
    ("game packages", ("sim.games",)),
    ("registry", ("sim.registry",)),
    ("applications", ("sim.runner", "sim.trace", "sim.arena", "sim.bench", "sim.bench_solver",
                      "sim.solve", "sim.tune", "sim.warm", "sim.robustness", "sim.cluster",
                      "sim.machine", "sim.learn", "sim.quality")),
    ("people at the table", ("sim.play", "sim.serve", "sim.env")),
    ("command line", ("sim.api", "sim.cli")),
)
"""The layers, lowest first, each with the modules and packages it holds."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(SIM.rglob("*.py"))}


def layer_of(module: str) -> int:
    """The index of the layer holding ``module`` (the longest prefix that names it)."""
    best, found = -1, -1
    for k, (_, members) in enumerate(LAYERS):
        for m in members:
            if (module == m or (m != "sim" and module.startswith(m + "."))) and len(m) > best:
                best, found = len(m), k
    if found < 0:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS")
    return found


def game_package(module: str) -> str | None:
    """``sim.games.<family>`` of a module in a game's package, else None."""
    parts = module.split(".")
    return ".".join(parts[:3]) if len(parts) > 2 and parts[:2] == ["sim", "games"] else None


def imports(module: str) -> list[tuple[int, str]]:
    """Every ``sim`` module ``module`` imports, with the line: at the top and inside
    functions, ``from package import submodule`` read as the submodule."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "sim"]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            if base.split(".")[0] != "sim":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((node.lineno, sub if sub in MODULES else base))
    return found


def test_every_module_is_in_a_layer() -> None:
    assert len(MODULES) > 60
    for name in MODULES:
        layer_of(name)


def test_imports_only_point_down() -> None:
    """No module imports one of a higher layer; no game package imports another's."""
    wrong = []
    for name in MODULES:
        mine = layer_of(name)
        for line, target in imports(name):
            theirs = layer_of(target)
            if theirs > mine:
                wrong.append(f"{MODULES[name].relative_to(ROOT)}:{line} imports {target} "
                             f"({LAYERS[theirs][0]}) from {LAYERS[mine][0]}")
            elif game_package(name) and game_package(target) and game_package(name) != game_package(target):
                wrong.append(f"{MODULES[name].relative_to(ROOT)}:{line} imports {target}, "
                             f"another game's package")
    assert wrong == []


def test_the_check_finds_an_import_that_points_up(tmp_path: Path) -> None:
    """The walk sees imports inside functions too (where the old circles closed)."""
    source = "def f():\n    from sim.registry import GAMES\n    return GAMES\n"
    MODULES["sim.engine._probe"] = tmp_path / "probe.py"
    (tmp_path / "probe.py").write_text(source)
    try:
        assert imports("sim.engine._probe") == [(2, "sim.registry")]
        assert layer_of("sim.registry") > layer_of("sim.engine._probe")
    finally:
        del MODULES["sim.engine._probe"]


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of a module's docstring nodes (their examples may name any game)."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            for stmt in node.body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    ids.add(id(stmt.value))  # a string under a statement: its docstring
    return ids


GAME_WORDS = sorted({*GAMES, *(m.split(".")[2] for m in MODULES if game_package(m)
                              and m.count(".") >= 2)} - {"__init__"})
"""Every registered game's id and every game package's name."""


@pytest.mark.parametrize("name", [m for m in MODULES
                                  if not game_package(m) and m not in ("sim.registry", "sim.games")])
def test_no_code_outside_the_games_names_a_game(name: str) -> None:
    """Outside ``sim.games.<family>`` and ``sim.registry`` no string in code (docstrings
    aside) and no import names a game: what a module needs of a game comes from its
    declaration."""
    tree = ast.parse(MODULES[name].read_text())
    skip = _docstrings(tree)
    named = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            named += [f"{node.lineno}: {node.value!r}" for w in GAME_WORDS if node.value == w
                      or f"games.{w}" in node.value]
        elif isinstance(node, ast.ImportFrom) and node.module:
            named += [f"{node.lineno}: imports {node.module}" for w in GAME_WORDS
                      if node.module.startswith(f"sim.games.{w}")]
    assert named == []


MAX_PARAMETERS = 12
LONG_BY_DESIGN = {"sim.search.pimc.next_search"}
"""The compiled search's hot loop: the race's state, array by array (its docstring says why)."""


def test_no_function_takes_more_than_twelve_parameters() -> None:
    """A function's inputs come as a few named records (``DealIO``, the deal's scratch, a
    ``Contract``), not long lists, except the one the search's hot loop documents."""
    long = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                count = (len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + bool(a.vararg)
                         + bool(a.kwarg))
                if count > MAX_PARAMETERS and f"{name}.{node.name}" not in LONG_BY_DESIGN:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({count})")
    assert long == []

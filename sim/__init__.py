"""stichsim: Monte Carlo simulation of trick-taking card games.

Compiled kernels are cached on disk. Numba keys a cached kernel on its own
source file only, so a change to a helper it calls in another module would
leave a stale kernel: the cache folder is therefore keyed by a hash of every
engine source file (set ``NUMBA_CACHE_DIR`` to override).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

__version__ = "0.1.0"


ENGINE_SOURCES = (
    "cards.py", "rng.py", "tricks.py", "actions.py", "options.py", "engine", "games", "policies",
    "search",
)
"""What deals depend on: the engine, the games' kernels, the policies, the search and their
helpers (not the games' trace codecs and table screens, the CLI, the runner or the bench)."""
NOT_ENGINE = ("screen.py", "trace.py", "trace_skat_en_deux.py", "python_player.py",
              "restricted_player.py", "restrictions.py")
"""Files that no kernel reaches: a game's table screen, trace codecs and restrictions, the
readable decisions of a player written in Python and the restricted player's choice
(``sim.engine.python_player``, ``sim.engine.restricted_player``)."""


def source_hash(root: Path, names: tuple[str, ...] = (".",), leave_out: tuple[str, ...] = ()) -> str:
    """A hash of the Python sources ``names`` under ``root`` (a file, or a folder read whole,
    less the file names ``leave_out``): what compiled kernels depend on. A game declared
    outside ``sim`` versions its kernel tag with its own folder's."""
    digest = hashlib.sha256()
    for name in names:
        paths = [root / name] if name.endswith(".py") else sorted(
            p for p in (root / name).rglob("*.py") if p.name not in leave_out)
        for path in paths:
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


SOURCE_HASH = source_hash(Path(__file__).parent, ENGINE_SOURCES, NOT_ENGINE)
"""Hash of the engine's source: results and compiled kernels are tied to it."""

if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = str(
        Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "stichsim" / f"numba-{SOURCE_HASH}")
if "numba" in sys.modules:
    # numba read its configuration when it was imported, before this package: without this it
    # would cache next to the sources, where an edit to a helper in another file goes unseen
    sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]

from sim.numba_cache import install as _lock_the_cache  # noqa: E402  (after the folder is set)

_lock_the_cache()

"""stichsim: Monte Carlo simulation of trick-taking card games.

Compiled kernels are cached on disk. Numba keys a cached kernel on its own
source file only, so a change to a helper it calls in another module would
leave a stale kernel: the cache folder is therefore keyed by a hash of every
source file of the package (set ``NUMBA_CACHE_DIR`` to override).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__version__ = "0.1.0"


def _source_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


SOURCE_HASH = _source_hash()
"""Hash of the package's source: results and compiled kernels are tied to it."""

if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = str(
        Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "stichsim" / f"numba-{SOURCE_HASH}")

"""Numba's on-disk cache made safe for processes that compile at once.

Numba keeps each cached function's compiled versions in numbered data files listed by one
index file. Saving a version reads the index, takes the first free number and writes the
index and the data file. Two processes that save different versions of one function at the
same time (a test worker and a bench worker, say) can both take the same number: one index
entry is lost, and the surviving entry may name the other version's code, which a later
run would load for the wrong signature. ``install`` makes each save hold an exclusive lock
on the cache folder (each load a shared one), so index and data change together.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

from numba.core import caching

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: the cache stays as numba made it
    fcntl = None  # type: ignore[assignment]

LOCK_FILE = ".stichsim-cache.lock"
"""The lock file in each cache folder."""


def _holding_lock(method: Callable[..., Any], exclusive: bool) -> Callable[..., Any]:
    """``method`` of numba's ``IndexDataCacheFile``, run while holding the folder's lock."""
    @functools.wraps(method)
    def locked(self: Any, *args: Any) -> Any:
        os.makedirs(self._cache_path, exist_ok=True)
        with open(os.path.join(self._cache_path, LOCK_FILE), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            return method(self, *args)  # closing the file releases the lock

    locked.holds_lock = True  # type: ignore[attr-defined]
    return locked


def install() -> None:
    """Make numba's cache files lock their folder while saving and loading (once)."""
    cache_file = caching.IndexDataCacheFile
    if fcntl is None or getattr(cache_file.save, "holds_lock", False):
        return
    cache_file.save = _holding_lock(cache_file.save, exclusive=True)  # type: ignore[method-assign]
    cache_file.load = _holding_lock(cache_file.load, exclusive=False)  # type: ignore[method-assign]

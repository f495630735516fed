"""Numba's on-disk cache under processes that save at once (``sim.numba_cache``)."""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import threading
from pathlib import Path

from numba.core.caching import IndexDataCacheFile

import sim  # noqa: F401  (installs the lock)
from sim.numba_cache import LOCK_FILE

WRITERS, KEYS = 6, 12


def _cache_file(folder: Path) -> IndexDataCacheFile:
    return IndexDataCacheFile(str(folder), "kernel-1.py311", "stamp")


def _save_many(folder: str, writer: int, start) -> None:
    cache = _cache_file(Path(folder))
    start.wait()
    for k in range(KEYS):
        cache.save((writer, k), f"code of {writer}, {k}")


def test_a_save_waits_for_the_folders_lock(tmp_path) -> None:
    cache = _cache_file(tmp_path)
    with open(tmp_path / LOCK_FILE, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process saving
        saver = threading.Thread(target=cache.save, args=(("sig",), "code"))
        saver.start()
        saver.join(0.5)
        assert saver.is_alive() and cache._load_index() == {}
    saver.join(10)
    assert not saver.is_alive() and cache.load(("sig",)) == "code"


def test_processes_saving_at_once_lose_nothing(tmp_path) -> None:
    # Unlocked, writers that read the same index take the same data file's number: entries
    # are lost, and others name another writer's code.
    context = multiprocessing.get_context("fork")
    start = context.Barrier(WRITERS)
    writers = [context.Process(target=_save_many, args=(str(tmp_path), w, start))
               for w in range(WRITERS)]
    for w in writers:
        w.start()
    for w in writers:
        w.join(60)
        assert w.exitcode == 0
    cache = _cache_file(tmp_path)
    for w in range(WRITERS):
        for k in range(KEYS):
            assert cache.load((w, k)) == f"code of {w}, {k}"
    assert len([p for p in os.listdir(tmp_path) if p.endswith(".nbc")]) == WRITERS * KEYS

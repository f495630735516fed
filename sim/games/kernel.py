"""Kernel helpers every game shares: recording actions, replaying recorded ones.

A kernel records each decision as a row ``[type, seat, a, b]`` (``sim.actions``).
When it replays a deal, a scripted seat takes the next recorded row instead of
asking its policy; a row that does not fit sets the deal's replay error.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.actions import MARKER, ROW

E_NONE, E_MISMATCH, E_ILLEGAL = 0, 1, 2
"""Replay errors: none; a recorded action of the wrong kind or seat (or left over);
an action the rules do not allow there."""


@numba.njit(cache=True, inline="always")
def record(log, nlog, kind, seat, a, b):  # type: ignore[no-untyped-def]
    """Append ``[kind, seat, a, b]`` to the deal's action log (if it has room)."""
    n = nlog[0]
    if n < log.shape[0]:
        log[n, 0] = kind
        log[n, 1] = seat
        log[n, 2] = a
        log[n, 3] = b
        nlog[0] = n + 1


@numba.njit(cache=True)
def scripted(script, cur, kind, seat, err):  # type: ignore[no-untyped-def]
    """Next recorded action's ``a`` if it is of ``kind`` by ``seat``; else flag a mismatch."""
    i = cur[0]
    if i >= script.shape[0] or script[i, 0] != kind or script[i, 1] != seat:
        err[0] = E_MISMATCH
        return -1
    cur[0] = i + 1
    return script[i, 2]


@numba.njit(cache=True)
def scripted_either(script, cur, yes, no, seat, value, err):  # type: ignore[no-untyped-def]
    """A recorded yes/no decision: 1 for action ``yes`` (carrying ``value``), 0 for ``no``."""
    i = cur[0]
    if i < script.shape[0] and script[i, 1] == seat and script[i, 0] in (yes, no):
        if script[i, 0] == yes and script[i, 2] != value:
            err[0] = E_ILLEGAL
            return 0
        cur[0] = i + 1
        return 1 if script[i, 0] == yes else 0
    err[0] = E_MISMATCH
    return 0


@numba.njit(cache=True)
def scripted_optional(script, cur, kind, seat):  # type: ignore[no-untyped-def]
    """A decision whose "no" leaves no row (a declined offer, no Contra): 1 and its ``a``
    if the next row is ``kind`` by ``seat`` (consumed), else 0."""
    i = cur[0]
    if i < script.shape[0] and script[i, 0] == kind and script[i, 1] == seat:
        cur[0] = i + 1
        return 1, script[i, 2]
    return 0, 0


@numba.njit(cache=True)
def next_value(values, current):  # type: ignore[no-untyped-def]
    """The first of the ascending ``values`` above ``current`` (0: none)."""
    for v in values:
        if v > current:
            return v
    return 0


@numba.njit(cache=True, inline="always")
def skip_markers(script, cur):  # type: ignore[no-untyped-def]
    """Step over recorded marker rows (no decisions) in a replayed deal."""
    while cur[0] < script.shape[0] and script[cur[0], 0] == MARKER:
        cur[0] += 1


@numba.njit(cache=True, inline="always")
def shard_scratch(res):  # type: ignore[no-untyped-def]
    """The bookkeeping every shard loop reuses deal after deal: replay error, log length,
    script cursor, a one-row log for deals not recorded, and the result row."""
    return (np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64),
            np.zeros((1, ROW), np.int64), np.zeros(res.shape[0], np.int64))


@numba.njit(cache=True, inline="always")
def deal_views(i, logs, scratch, script, starts, record):  # type: ignore[no-untyped-def]
    """Deal ``i``'s action log (the scratch row when not recording) and its recorded
    actions to replay (``script[starts[i]:starts[i+1]]``; the whole script when no starts)."""
    log = logs[i] if record else scratch
    sc = script[starts[i]:starts[i + 1]] if starts.shape[0] > 1 else script
    return log, sc


@numba.njit(cache=True, inline="always")
def store_deal(i, row, res, error_col, replayed, script, cur, record, nlogs, nlog):  # type: ignore[no-untyped-def]
    """After deal ``i``: flag recorded decisions left over in a replay (marker rows are no
    decisions), store the result row as column ``i`` of ``res`` and the log's length."""
    if replayed and row[error_col] == E_NONE:
        skip_markers(script, cur)
        if cur[0] != script.shape[0]:
            row[error_col] = E_MISMATCH
    res[:, i] = row
    if record:
        nlogs[i] = nlog[0]

"""Kernel helpers every game shares: recording actions, replaying recorded ones.

A kernel records each decision as a row ``[type, seat, a, b]`` (``sim.actions``).
When it replays a deal, a scripted seat takes the next recorded row instead of
asking its policy; a row that does not fit sets the deal's replay error.

A person's seat (``PERSON``, ``stichsim play``) is a scripted seat whose script holds
only his decisions so far: where it runs out, the deal stops (``person_waits``) with his
observation left for the caller, who asks him and plays the deal again with one row more.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.actions import DECLINE, MARKER, ROW
from sim.policies import PERSON
from sim.rng import shuffle

E_NONE, E_MISMATCH, E_ILLEGAL, E_ASK = 0, 1, 2, 3
"""Replay errors: none; a recorded action of the wrong kind or seat (or left over);
an action the rules do not allow there; no error but a stop: a person must decide
(``person_waits``)."""


@numba.njit(cache=True)
def person_waits(pol, script, cur, obs, err, log, nlog):  # type: ignore[no-untyped-def]
    """Whether the deal stops here for a person: the deciding seat is a person's and his
    script is used up. Then the deal's error is ``E_ASK`` and his observation ``obs``
    (filled for this decision) is left in the log's free rows after the actions, ``ROW``
    values a row; the caller returns without another decision or record."""
    if pol != PERSON or cur[0] < script.shape[0]:
        return False
    err[0] = E_ASK
    n = nlog[0]
    for k in range(min(obs.shape[0], (log.shape[0] - n) * ROW)):
        log[n + k // ROW, k % ROW] = obs[k]
    return True


SHUFFLED = np.zeros(0, np.int64)
"""The empty ``preset``: deals are shuffled from their streams (``order_deck``)."""


@numba.njit(cache=True, inline="always")
def order_deck(state, perm, preset, offset):  # type: ignore[no-untyped-def]
    """Put the cards in the order they are dealt from: shuffled from the dealing stream,
    or, for a deal given by hand (``preset`` not empty), ``preset[offset:]``. The stream
    moves on the same either way, so later draws (a redeal) do not depend on it and a
    deal's own order given back reproduces it whole."""
    shuffle(state, perm)
    if preset.shape[0]:
        perm[:] = preset[offset:offset + perm.shape[0]]


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
    if the next row is ``kind`` by ``seat`` (consumed), else 0 (a person's ``DECLINE`` row
    for it consumed)."""
    i = cur[0]
    if i < script.shape[0] and script[i, 1] == seat:
        if script[i, 0] == kind:
            cur[0] = i + 1
            return 1, script[i, 2]
        if script[i, 0] == DECLINE and script[i, 2] == kind:
            cur[0] = i + 1
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

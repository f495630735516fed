"""Action codes shared by every game's kernel, its trace writer and its replay.

A kernel that records a deal writes one row ``[type, seat, a, b]`` per decision
(``a`` and ``b`` depend on the type: a bid value, a card, a card mask, a
declaration code, a pyramid position). The trace writer turns rows into the
objects of ``TRACE.md`` and the replay turns those objects back into rows.
"""

from __future__ import annotations

BID, HOLD, PASS, PICKUP, HAND, GIVE_UP, DISCARD, DECLARE, RAMSCH, OFFER, ACCEPT, REJECT, \
    CONTRA, RE, PLAY, MARKER = range(16)

NAMES = ("bid", "hold", "pass", "pickup", "hand", "give_up", "discard", "declare", "ramsch",
         "offer", "accept", "reject", "contra", "re", "play", "marker")
"""Trace names of the action codes, by code. ``marker`` rows are no decisions: a kernel
records a marker event there (``a`` its kind, ``b`` the trick) and a trace shows them in
its result, not among the actions."""

CODES = {name: code for code, name in enumerate(NAMES)}

DECLINE = len(NAMES)
"""Only in a person's script (``stichsim play``), never in a log or a trace: ``[DECLINE,
seat, kind, 0]`` is his "no" to a question whose "no" leaves no row (no ``give_up``,
``offer``, ``contra`` or ``re`` of type ``kind``)."""

ROW = 4
"""Ints per recorded action: type, seat, a, b."""

MAX_ACTIONS = 512
"""Room for one deal's actions (long biding wars included)."""

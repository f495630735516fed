"""The Doppelkopf duel's parts of a deal trace (``TRACE.md``): cards, actions, result.

``sim.trace`` writes and replays traces for every game and asks this module for
its ``CODEC``:

* ``cards``: ``hands`` (2 lists of 8, by player, in deck order) and ``pyramids``
  (2 lists of 12: the cards at positions ``p0`` ... ``p11`` in order);
* ``actions``: only ``play``, with ``card`` (a name such as ``"HT"``) and ``from``
  (``"hand"`` or the pyramid position ``"p0"`` ... ``"p11"``); ``seat`` is the
  player. The kernel's marker rows are no decisions: they appear in the result;
* ``result``: the TRACE.md fields ``points``, ``tricks``, ``a_markers``,
  ``b_markers`` (one per player), ``winner`` (player or null), ``vp`` (one per
  player), then ``starter``, ``tie``, ``supply_exhausted``, ``last_trick_winner``,
  ``b_events`` (each B event per kind and player, awarded or not:
  ``{"fox": [n0, n1], ...}``) and ``events``: every marker event in the order the
  kernel recorded it, ``{"trick": t, "player": p, "kind": k}`` with ``trick`` null
  for an A marker at the deal and ``kind`` ``"A"`` or one of ``doko_duell.B_EVENTS``
  (events beyond the first of a trick under ``b_one_per_trick``, and events once the
  box is empty, are listed though no marker is awarded).

Both copies of a Doppelkopf card print the same, so a trace's ``card`` does not say
which physical copy was played; ``script_rows`` finds it from the dealt cards when a
trace is replayed (the pyramid position names it; from the hand either copy there
will do, both being alike).

>>> CODEC.from_name(0), CODEC.from_name(12)
('hand', 'p11')
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from sim import actions as A
from sim.games.doko_duell import game as G
from sim.trace_codec import (
    TraceError,
    actions_diff,
    card_names,
    compact,
    flag,
    is_int,
    number,
    parse_names,
    player,
    require_fields,
    same_value,
    short,
)

PLAY_FROM = ("hand",) + tuple(f"p{k}" for k in range(G.PYRAMID))
"""A ``play``'s ``from`` by the row's ``b`` code: 0 the hand, ``1 + k`` pyramid position k."""

RESULT_FIELDS = ("points", "tricks", "a_markers", "b_markers", "winner", "vp")
"""Result fields TRACE.md requires of a ``doko_duell`` line."""

EXTRA_RESULT = (("starter", number), ("tie", flag), ("supply_exhausted", flag),
                ("last_trick_winner", player))
"""``(field, converter)``: result columns written after the TRACE.md fields (then
``b_events`` and ``events``)."""

MARKER_KINDS = ("A",) + G.B_EVENTS
"""An event's ``kind`` by the marker row's ``a`` code."""


class DokoDuellTrace:
    """The ``cards``, ``actions`` and ``result`` blocks of ``doko_duell``."""

    name = G.NAME
    n_players = G.N_PLAYERS
    deck = G.DECK

    # cards

    def cards_json(self, columns: Mapping[str, np.ndarray], i: int) -> dict[str, Any]:
        """The ``cards`` block of deal ``i``: ``hands`` (deck order), ``pyramids`` (by position)."""
        return {"hands": [card_names(columns[f"hand_{s}"][i], self.deck) for s in range(2)],
                "pyramids": [self._pyramid(columns, i, s) for s in range(2)]}

    def _pyramid(self, columns: Mapping[str, np.ndarray], i: int, s: int) -> list[str]:
        return [self.deck.names[int(columns[f"pyramid_{s}_{k}"][i])] for k in range(G.PYRAMID)]

    def parse_cards(self, cards: Any) -> dict[str, Any]:
        """A trace's ``cards`` block, checked: hands in deck order, pyramids by position."""
        if not isinstance(cards, dict):
            raise TraceError(f"cards must be an object, got {short(cards)}")
        for key in ("hands", "pyramids"):
            if key not in cards:
                raise TraceError(f"cards: missing field {key!r}")
        hands, pyramids = cards["hands"], cards["pyramids"]
        if not isinstance(hands, list) or len(hands) != 2:
            raise TraceError("cards.hands must be 2 lists of card names")
        if not isinstance(pyramids, list) or len(pyramids) != 2:
            raise TraceError(f"cards.pyramids must be 2 lists of {G.PYRAMID} card names")
        out: dict[str, Any] = {
            "hands": [card_names(parse_names(h, f"cards.hands[{s}]", self.deck), self.deck)
                      for s, h in enumerate(hands)],
            "pyramids": []}
        for s, p in enumerate(pyramids):
            parse_names(p, f"cards.pyramids[{s}]", self.deck)
            if len(p) != G.PYRAMID:
                raise TraceError(f"cards.pyramids[{s}] must be {G.PYRAMID} card names "
                                 f"(p0 ... p11), got {len(p)}")
            out["pyramids"].append([name.strip().upper() for name in p])
        return out

    def cards_diff(self, recorded: Mapping[str, Any], columns: Mapping[str, np.ndarray],
                   i: int) -> list[str]:
        """Where the parsed ``recorded`` cards differ from the cards dealt to deal ``i``."""
        pairs = [(f"cards.hands[{s}]", recorded["hands"][s],
                  card_names(columns[f"hand_{s}"][i], self.deck)) for s in range(2)]
        pairs += [(f"cards.pyramids[{s}]", recorded["pyramids"][s], self._pyramid(columns, i, s))
                  for s in range(2)]
        return [f"{where} recorded [{' '.join(mine)}], dealt [{' '.join(dealt)}]"
                for where, mine, dealt in pairs if mine != dealt]

    # actions

    @staticmethod
    def from_name(b: int) -> str:
        """A ``play``'s ``from`` for the row's ``b`` code."""
        return PLAY_FROM[b]

    def actions_json(self, rows: np.ndarray) -> list[dict[str, Any]]:
        """The ``play`` objects of a deal's recorded rows, in order (marker rows left out)."""
        return [{"type": "play", "seat": seat, "card": self.deck.names[a], "from": PLAY_FROM[b]}
                for kind, seat, a, b in np.asarray(rows, np.int64).reshape(-1, A.ROW).tolist()
                if kind == A.PLAY]

    def action_row(self, obj: Any) -> list[int]:
        """The row ``[PLAY, seat, card, from]`` of one action object (checked); ``card`` is
        the card's first copy until ``script_rows`` names the copy dealt."""
        if not isinstance(obj, dict):
            raise TraceError(f"an action must be an object, got {short(obj)}")
        kind = obj.get("type")
        if kind != "play":
            raise TraceError(f"unknown action type {short(kind)} (types: play)")
        seat = obj.get("seat")
        if not is_int(seat) or not 0 <= seat < 2:
            raise TraceError(f"play: seat must be 0..1, got {short(seat)}")
        missing = [f for f in ("card", "from") if f not in obj]
        if missing:
            raise TraceError(f"play: missing field(s) {', '.join(missing)}")
        card = obj["card"]
        if not isinstance(card, str) or card not in self.deck.names:
            raise TraceError(f"play: unknown card {short(card)}")
        if obj["from"] not in PLAY_FROM:
            raise TraceError(f"play: unknown from {short(obj['from'])} "
                             f"(allowed: hand, p0 ... p{G.PYRAMID - 1})")
        return [A.PLAY, seat, self.deck.names.index(card), PLAY_FROM.index(obj["from"])]

    def script_rows(self, rows: np.ndarray, columns: Mapping[str, np.ndarray], i: int) -> np.ndarray:
        """The kernel's script for a deal's parsed rows, given the cards deal ``i`` of
        ``columns`` dealt: each card becomes the physical copy at the named place (the
        card at the pyramid position; from the hand the lowest copy still there). A card
        that is not at the named place keeps its first copy, which the kernel then finds
        illegal or taken from elsewhere: the replay reports that action."""
        rows = np.array(rows, np.int64).reshape(-1, A.ROW)
        hands = [int(columns[f"hand_{s}"][i]) for s in range(2)]
        n_kinds = self.deck.n_kinds
        for row in rows:
            if row[0] != A.PLAY:
                continue
            seat, kind, b = int(row[1]), int(row[2]) % n_kinds, int(row[3])
            if not 0 <= seat < 2:
                continue
            if b > 0:
                card = int(columns[f"pyramid_{seat}_{b - 1}"][i])
                if card % n_kinds == kind:
                    row[2] = card
                continue
            for copy in range(self.deck.copies):
                card = copy * n_kinds + kind
                if hands[seat] >> card & 1:
                    hands[seat] &= ~(1 << card)
                    row[2] = card
                    break
        return rows

    def actions_diff(self, recorded: Sequence[Mapping[str, Any]],
                     replayed: Sequence[Mapping[str, Any]]) -> list[str]:
        """The first difference between recorded and replayed action objects, if any."""
        return actions_diff(recorded, replayed, self.deck)

    # result

    def result_json(self, columns: Mapping[str, np.ndarray], i: int,
                    rows: np.ndarray) -> dict[str, Any]:
        """The ``result`` block of deal ``i`` from its result columns and its recorded rows
        (the marker rows give ``events``)."""
        def col(name: str) -> int:
            return int(columns[name][i])

        def both(name: str) -> list[int]:
            return [col(f"{name}_{s}") for s in range(2)]

        out: dict[str, Any] = {
            "points": both("points"),
            "tricks": both("tricks"),
            "a_markers": both("a_markers"),
            "b_markers": both("b_markers"),
            "winner": player(col("winner")),
            "vp": both("vp"),
        }
        for field, convert in EXTRA_RESULT:
            out[field] = convert(col(field))
        out["b_events"] = {kind: both(kind) for kind in G.B_EVENTS}
        out["events"] = [{"trick": t if t >= 0 else None, "player": seat, "kind": MARKER_KINDS[a]}
                         for kind, seat, a, t in np.asarray(rows, np.int64).reshape(-1, A.ROW).tolist()
                         if kind == A.MARKER]
        return out

    def check_result(self, result: Any) -> None:
        """Raise ``TraceError`` unless ``result`` holds the fields TRACE.md requires."""
        require_fields(result, RESULT_FIELDS)

    def result_diff(self, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
        """Every field of the replayed result that the recorded result gives differently
        (fields the recorded result lacks are not compared); ``events`` names its first
        differing event."""
        out = []
        for key, value in replayed.items():
            if key not in recorded or same_value(recorded[key], value):
                continue
            mine = recorded[key]
            if key == "events" and isinstance(mine, list):
                k = next((k for k, (q, r) in enumerate(zip(mine, value)) if not same_value(q, r)),
                         min(len(mine), len(value)))
                first = (f"event {k} recorded {compact(mine[k]) if k < len(mine) else 'none'}, "
                         f"replayed {compact(value[k]) if k < len(value) else 'none'}")
                out.append(f"result.events recorded {len(mine)} events, replayed {len(value)} "
                           f"({first})")
                continue
            out.append(f"result.{key} recorded {json.dumps(mine)}, replayed {json.dumps(value)}")
        return out


CODEC = DokoDuellTrace()
"""The Doppelkopf duel's codec."""

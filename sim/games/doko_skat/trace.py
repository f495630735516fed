"""Doko-Skat's parts of a deal trace (``TRACE.md``): cards, actions, result.

``sim.trace`` writes and replays traces for every game and asks this module for
its ``CODEC``:

* ``cards``: ``stock`` (3 lists of 12, by seat), ``skat`` (3), ``turned_up`` (the card
  that set the first round's game), ``first_round_hands`` (3 lists of 3); where nobody
  declared also ``second_turned_up`` and ``extra`` (3 lists: the cards each seat was
  given in the redeal). Lists are in deck order, both copies of a card side by side;
* ``actions``: ``play`` (``card``, ``from`` always ``"hand"``: the first 9 are the first
  round, the rest the main game), ``declare`` (``game`` ``suit``/``grand``/``bridge``,
  ``trump`` ``C S H D`` or null in grand), ``pass`` and ``discard`` (``cards``);
* ``result``: the TRACE.md fields ``pair``, ``lone``, ``declarer``, ``declaring_side``,
  ``game``, ``trump``, ``side_points``, ``first_round_tricks``, ``special_points``,
  ``spitzen``, ``winner_side``, ``scores``; then ``first_round_game``,
  ``first_round_trump``, ``nobody_declared``, ``declarer_turn`` (0-2, the declarer's place
  in the declaration order, or null), ``lone_both`` (by the ``both_copies`` reading),
  ``lone_both_by`` (where his cards first hold both: ``first_round``, ``stock``, ``skat`` or
  null), ``first_round_copies`` (per seat, the copies of the turned-up card each took in
  first-round tricks), ``spitzen_copies`` and ``spitzen_ranks`` (the declaring side's
  Spitzen by each ``spitzen`` reading) and ``spitzen_declarer_copies`` and
  ``spitzen_declarer_ranks`` (the declarer's own, ``spitzen_of``), so that a line can be
  scored again under another reading, ``tie``, ``value`` (what each player
  of the scoring side scores before ``zero_sum``), ``points`` and ``tricks`` (main game,
  per seat), ``first_round_points`` (per seat), ``discard_points`` (``{"pair": p, "lone":
  q}``) and ``discards`` (per seat, the cards each put away). All of it comes from the
  result columns.

Both copies of a Doppelkopf card print the same, so a trace does not say which copy a
seat played or put away; a card name parses to its first copy and the kernel, replaying,
takes whichever copy the seat holds (``values.held_copy``).

>>> CODEC.declaration({"type": "declare", "seat": 0, "game": "bridge", "trump": "H"})
7
>>> CODEC.declare_fields(4)
{'game': 'grand', 'trump': None}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from sim import actions as A
from sim.cards import SUITS
from sim.games.doko_skat import game as G
from sim.games.doko_skat.values import (
    BOTH_PLACES,
    BRIDGE_BASE,
    GAME_TRUMP,
    GAME_TYPE,
    GAME_TYPES,
    GRAND,
    GRAND_CODE,
    SIDES,
    SPITZEN_COLUMNS,
)
from sim.trace_codec import (
    TraceError,
    actions_diff,
    card_names,
    is_int,
    parse_names,
    player,
    require_fields,
    same_value,
    short,
)

ACTION_FIELDS = {"play": ("card", "from"), "declare": ("game", "trump"), "pass": (),
                 "discard": ("cards",)}
"""Fields each action type carries beyond ``type`` and ``seat``."""

RESULT_FIELDS = ("pair", "lone", "declarer", "declaring_side", "game", "trump", "side_points",
                 "first_round_tricks", "special_points", "spitzen", "winner_side", "scores")
"""Result fields TRACE.md requires of a ``doko_skat`` line."""

DEAL_CARDS = ("stock", "skat", "turned_up", "first_round_hands")
REDEAL_CARDS = ("second_turned_up", "extra")
"""``cards`` fields of every line, and those only a redeal has."""



class DokoSkatTrace:
    """The ``cards``, ``actions`` and ``result`` blocks of ``doko_skat``."""

    name = G.NAME
    n_players = G.N_PLAYERS
    deck = G.DECK

    # cards

    def _names(self, mask: int) -> list[str]:
        return card_names(int(mask), self.deck)

    def _per_seat(self, columns: Mapping[str, np.ndarray], name: str, i: int) -> list[list[str]]:
        return [self._names(columns[f"{name}_{s}"][i]) for s in range(self.n_players)]

    def cards_json(self, columns: Mapping[str, np.ndarray], i: int) -> dict[str, Any]:
        """The ``cards`` block of deal ``i``; ``second_turned_up`` and ``extra`` only where
        nobody declared."""
        out: dict[str, Any] = {
            "stock": self._per_seat(columns, "stock", i),
            "skat": self._names(columns["skat"][i]),
            "turned_up": self.deck.names[int(columns["turned_up"][i])],
            "first_round_hands": self._per_seat(columns, "first_round", i),
        }
        if columns["nobody_declared"][i]:
            out["second_turned_up"] = self.deck.names[int(columns["second_turned_up"][i])]
            out["extra"] = self._per_seat(columns, "extra", i)
        return out

    def parse_cards(self, cards: Any) -> dict[str, Any]:
        """A trace's ``cards`` block, checked, its lists in deck order (redeal fields None
        where absent)."""
        if not isinstance(cards, dict):
            raise TraceError(f"cards must be an object, got {short(cards)}")
        missing = [key for key in DEAL_CARDS if key not in cards]
        if missing:
            raise TraceError(f"cards: missing field(s) {', '.join(missing)}")
        return {
            "stock": self._seat_lists(cards["stock"], "cards.stock"),
            "skat": self._names(parse_names(cards["skat"], "cards.skat", self.deck)),
            "turned_up": self._card(cards["turned_up"], "cards.turned_up"),
            "first_round_hands": self._seat_lists(cards["first_round_hands"], "cards.first_round_hands"),
            "second_turned_up": (self._card(cards["second_turned_up"], "cards.second_turned_up")
                                 if "second_turned_up" in cards else None),
            "extra": self._seat_lists(cards["extra"], "cards.extra") if "extra" in cards else None,
        }

    def _seat_lists(self, value: Any, where: str) -> list[list[str]]:
        if not isinstance(value, list) or len(value) != self.n_players:
            raise TraceError(f"{where} must be {self.n_players} lists of card names")
        return [self._names(parse_names(v, f"{where}[{s}]", self.deck)) for s, v in enumerate(value)]

    def _card(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise TraceError(f"{where} must be a card name, got {short(value)}")
        return self._names(parse_names([value], where, self.deck))[0]

    def cards_diff(self, recorded: Mapping[str, Any], columns: Mapping[str, np.ndarray],
                   i: int) -> list[str]:
        """Where the parsed ``recorded`` cards differ from those deal ``i`` of ``columns``
        dealt. The redeal's cards are compared once the replay has come that far (it has
        when it redealt or met no error; recorded and replayed absence are alike)."""
        dealt = self.cards_json(columns, i)
        keys: tuple[str, ...] = DEAL_CARDS
        if columns["nobody_declared"][i] or not columns["replay_error"][i]:
            keys += REDEAL_CARDS
        return [f"cards.{key} recorded {_text(recorded[key])}, dealt {_text(dealt.get(key))}"
                for key in keys if recorded[key] != dealt.get(key)]

    # actions

    @staticmethod
    def declare_fields(code: int) -> dict[str, Any]:
        """``game`` and ``trump`` of game code ``code`` (0-8)."""
        trump = int(GAME_TRUMP[code])
        return {"game": GAME_TYPES[GAME_TYPE[code]], "trump": SUITS[trump] if trump >= 0 else None}

    @staticmethod
    def declaration(obj: Mapping[str, Any]) -> int:
        """The game code (0-8) of a ``declare`` object (checked)."""
        game, trump = obj["game"], obj["trump"]
        if game not in GAME_TYPES:
            raise TraceError(f"declare: unknown game {short(game)} (games: {', '.join(GAME_TYPES)})")
        if game == GAME_TYPES[GRAND]:
            if trump is not None:
                raise TraceError(f"declare: a grand has no trump suit (null), got {short(trump)}")
            return GRAND_CODE
        if not isinstance(trump, str) or trump not in SUITS:
            raise TraceError(f"declare: trump must be one of {', '.join(SUITS)} in a {game} game, "
                             f"got {short(trump)}")
        return SUITS.index(trump) + (BRIDGE_BASE if game == "bridge" else 0)

    def actions_json(self, rows: np.ndarray) -> list[dict[str, Any]]:
        """The action objects of a deal's recorded rows, in order."""
        out: list[dict[str, Any]] = []
        for kind, seat, a, _ in np.asarray(rows, np.int64).reshape(-1, A.ROW).tolist():
            obj: dict[str, Any] = {"type": A.NAMES[kind], "seat": seat}
            if kind == A.PLAY:
                obj["card"], obj["from"] = self.deck.names[a], "hand"
            elif kind == A.DECLARE:
                obj.update(self.declare_fields(a))
            elif kind == A.DISCARD:
                obj["cards"] = self._names(a)
            out.append(obj)
        return out

    def action_row(self, obj: Any) -> list[int]:
        """The row ``[type, seat, a, b]`` of one action object (checked); a card is its
        first copy until ``script_rows`` names the copy dealt."""
        if not isinstance(obj, dict):
            raise TraceError(f"an action must be an object, got {short(obj)}")
        kind = obj.get("type")
        if kind not in ACTION_FIELDS:
            raise TraceError(f"unknown action type {short(kind)} (types: {', '.join(ACTION_FIELDS)})")
        seat = obj.get("seat")
        if not is_int(seat) or not 0 <= seat < self.n_players:
            raise TraceError(f"{kind}: seat must be 0..{self.n_players - 1}, got {short(seat)}")
        missing = [f for f in ACTION_FIELDS[kind] if f not in obj]
        if missing:
            raise TraceError(f"{kind}: missing field(s) {', '.join(missing)}")
        a = 0
        if kind == "play":
            card = obj["card"]
            if not isinstance(card, str) or card not in self.deck.names:
                raise TraceError(f"play: unknown card {short(card)}")
            if obj["from"] != "hand":
                raise TraceError(f"play: unknown from {short(obj['from'])} (allowed: hand)")
            a = self.deck.names.index(card)
        elif kind == "declare":
            a = self.declaration(obj)
        elif kind == "discard":
            a = parse_names(obj["cards"], "discard.cards", self.deck)
        return [A.CODES[kind], seat, a, 0]

    def actions_diff(self, recorded: Sequence[Mapping[str, Any]],
                     replayed: Sequence[Mapping[str, Any]]) -> list[str]:
        """The first difference between recorded and replayed action objects, if any
        (``sim.trace_codec.actions_diff``: discarded cards in any order)."""
        return actions_diff(recorded, replayed, self.deck)

    # result

    def result_json(self, columns: Mapping[str, np.ndarray], i: int,
                    rows: np.ndarray | None = None) -> dict[str, Any]:
        """The ``result`` block of deal ``i`` from its result columns (the action ``rows``
        are not needed)."""
        def col(name: str) -> int:
            return int(columns[name][i])

        def seats(name: str) -> list[int]:
            return [col(f"{name}_{s}") for s in range(self.n_players)]

        def sides(name: str) -> dict[str, int]:
            return {side: col(f"{name}_{side}") for side in SIDES}

        return {
            "pair": [col("pair_0"), col("pair_1")],
            "lone": col("lone"),
            "declarer": player(col("declarer")),
            "declaring_side": _side(col("declaring_side")),
            "game": GAME_TYPES[col("game")],
            "trump": _suit(col("trump")),
            "side_points": sides("points"),
            "first_round_tricks": seats("fr_tricks"),
            "special_points": sides("special"),
            "spitzen": col("spitzen"),
            "winner_side": _side(col("winner_side")),
            "scores": seats("score"),
            "first_round_game": GAME_TYPES[col("fr_game")],
            "first_round_trump": _suit(col("fr_trump")),
            "nobody_declared": bool(col("nobody_declared")),
            "declarer_turn": player(col("declarer_turn")),
            "lone_both": bool(col("lone_both")),
            "lone_both_by": BOTH_PLACES[col("lone_both_by")] if col("lone_both_by") >= 0 else None,
            "first_round_copies": seats("fr_copies"),
            **{name: col(name) for name in SPITZEN_COLUMNS},
            "tie": bool(col("tie")),
            "value": col("value"),
            "points": seats("points"),
            "tricks": seats("tricks"),
            "first_round_points": seats("fr_points"),
            "discard_points": sides("discard_points"),
            "discards": self._per_seat(columns, "discard", i),
        }

    def check_result(self, result: Any) -> None:
        """Raise ``TraceError`` unless ``result`` holds the fields TRACE.md requires."""
        require_fields(result, RESULT_FIELDS)

    def result_diff(self, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
        """Every field of the replayed result that the recorded result gives differently
        (fields the recorded result lacks are not compared)."""
        return [f"result.{key} recorded {json.dumps(recorded[key])}, replayed {json.dumps(value)}"
                for key, value in replayed.items()
                if key in recorded and not same_value(recorded[key], value)]


def _side(code: int) -> str | None:
    """A side column (``pair``, ``lone``; -1 none as null)."""
    return SIDES[code] if code >= 0 else None


def _suit(code: int) -> str | None:
    """A trump column (suit letter; -1, a grand, as null)."""
    return SUITS[code] if code >= 0 else None


def _text(value: Any) -> str:
    """Recorded or dealt cards for a message: a list as ``[CA CA ...]``, absence as none."""
    if value is None:
        return "none"
    if isinstance(value, str):
        return value
    if value and isinstance(value[0], list):
        return " ".join(_text(v) for v in value)
    return "[" + " ".join(value) + "]"


CODEC = DokoSkatTrace()
"""Doko-Skat's codec."""

"""Skat's parts of a deal trace (``TRACE.md``): cards, actions, result.

``sim.trace`` writes and replays traces for every game; this module holds what is
particular to Skat, so that ``skat_en_deux`` can reuse the declaration, action
and result helpers:

* the ``cards`` block (``hands`` by seat, ``skat``), card names in deck order;
* recorded action rows ``[type, seat, a, b]`` <-> the action objects of a trace,
  with the declaration code (``game | DECL_OUVERT | DECL_SCHNEIDER | DECL_SCHWARZ``)
  <-> the six ``declare`` fields;
* the ``result`` block built from the result columns, the fields a trace must
  carry, and the field-by-field comparison a replay reports.

Functions that read a trace raise ``sim.trace.TraceError`` with a message that
names the field; ``sim.trace`` adds the line number.

>>> declaration_fields(4 | 8 | 16 | 32, hand=True)["ouvert"]
True
>>> declaration_code({"game": "grand", "ouvert": True, "schneider_announced": True,
...                   "schwarz_announced": True})
60
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from sim import actions as A
from sim.cards import SKAT_DECK, CardError
from sim.games import skat_obs as O
from sim.games.skat_values import GAME_NAMES, NULL
from sim.trace import TraceError

N_PLAYERS = 3
DECK = SKAT_DECK

DECLARED_GAMES = GAME_NAMES[:6]
"""Names a ``declare`` may give: ``C S H D grand null`` (codes 0-5)."""

ACTION_TYPES = ("bid", "hold", "pass", "pickup", "hand", "discard", "declare", "ramsch", "play")
"""Action types a ``skat`` trace may hold."""

PLAY_FROM = ("hand",)
"""Where a played card may come from, by the row's ``b`` code (Skat: the hand only)."""

ACTION_FIELDS = {"bid": ("value",), "hold": ("value",), "discard": ("cards",),
                 "declare": ("game", "hand", "ouvert", "open_level", "schneider_announced",
                             "schwarz_announced"),
                 "play": ("card", "from")}
"""Fields each action type carries beyond ``type`` and ``seat``."""

RESULT_FIELDS = ("passed_out", "declarer", "game", "bid", "matadors", "declarer_points",
                 "declarer_tricks", "schneider", "schwarz", "overbid", "won", "game_value",
                 "scores")
"""Result fields of a declared or passed-out deal (TRACE.md)."""
RAMSCH_FIELDS = ("ramsch", "points", "scores")
"""Result fields of a ramsch deal (TRACE.md)."""

GAME_FIELDS = ("game", "bid", "matadors", "declarer_points", "declarer_tricks", "schneider",
               "schwarz", "overbid", "won", "game_value")
"""Fields that TRACE.md lets a writer give as null, 0 or false where no game was declared."""


# --- cards ---------------------------------------------------------------------------------

def names(mask: int, deck=DECK) -> list[str]:  # type: ignore[no-untyped-def]
    """Card names of a mask, in deck order."""
    return deck.name_list(int(mask))


def parse_names(value: Any, where: str, deck=DECK) -> int:  # type: ignore[no-untyped-def]
    """The mask of a list of card names; ``where`` names the field in errors."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TraceError(f"{where} must be a list of card names, got {_short(value)}")
    try:
        return deck.parse(value)
    except CardError as e:
        raise TraceError(f"{where}: {e}") from None


def cards_json(columns: Mapping[str, np.ndarray], i: int) -> dict[str, Any]:
    """The ``cards`` block of deal ``i``: ``hands`` (by seat) and ``skat``."""
    return {"hands": [names(columns[f"hand_{s}"][i]) for s in range(N_PLAYERS)],
            "skat": names(columns["skat"][i])}


def parse_cards(cards: Any) -> dict[str, Any]:
    """A trace's ``cards`` block as masks: ``{"hands": [m0, m1, m2], "skat": m}``."""
    if not isinstance(cards, dict):
        raise TraceError(f"cards must be an object, got {_short(cards)}")
    for key in ("hands", "skat"):
        if key not in cards:
            raise TraceError(f"cards: missing field {key!r}")
    hands = cards["hands"]
    if not isinstance(hands, list) or len(hands) != N_PLAYERS:
        raise TraceError(f"cards.hands must be {N_PLAYERS} lists of card names")
    return {"hands": [parse_names(h, f"cards.hands[{s}]") for s, h in enumerate(hands)],
            "skat": parse_names(cards["skat"], "cards.skat")}


def cards_diff(recorded: Mapping[str, Any], columns: Mapping[str, np.ndarray], i: int) -> list[str]:
    """Where the parsed ``recorded`` cards differ from the cards dealt to deal ``i``."""
    out = []
    for s in range(N_PLAYERS):
        dealt = int(columns[f"hand_{s}"][i])
        if recorded["hands"][s] != dealt:
            out.append(f"cards.hands[{s}] recorded {_names_text(recorded['hands'][s])}, "
                       f"dealt {_names_text(dealt)}")
    if recorded["skat"] != int(columns["skat"][i]):
        out.append(f"cards.skat recorded {_names_text(recorded['skat'])}, "
                   f"dealt {_names_text(int(columns['skat'][i]))}")
    return out


def _names_text(mask: int) -> str:
    return "[" + " ".join(names(mask)) + "]"


# --- declarations --------------------------------------------------------------------------

def declaration_fields(code: int, hand: bool, open_level: int = 0) -> dict[str, Any]:
    """The ``declare`` fields of declaration ``code`` (``game | flags``).

    ``hand``: whether the declarer plays without the skat (the code does not say);
    ``open_level``: ``skat_en_deux``'s level (0 in ``skat``).
    """
    code = int(code)
    return {"game": DECLARED_GAMES[code & 7], "hand": bool(hand),
            "ouvert": bool(code & O.DECL_OUVERT), "open_level": int(open_level),
            "schneider_announced": bool(code & O.DECL_SCHNEIDER),
            "schwarz_announced": bool(code & O.DECL_SCHWARZ)}


def declaration_code(fields: Mapping[str, Any]) -> int:
    """The declaration code of a ``declare`` object's fields (``hand`` is not part of it)."""
    game = fields.get("game")
    if game not in DECLARED_GAMES:
        raise TraceError(f"declare: unknown game {_short(game)} (games: {', '.join(DECLARED_GAMES)})")
    code = DECLARED_GAMES.index(game)
    for key, flag in (("ouvert", O.DECL_OUVERT), ("schneider_announced", O.DECL_SCHNEIDER),
                      ("schwarz_announced", O.DECL_SCHWARZ)):
        value = fields.get(key)
        if not isinstance(value, bool):
            raise TraceError(f"declare: {key} must be true or false, got {_short(value)}")
        code |= flag if value else 0
    return code


# --- actions -------------------------------------------------------------------------------

def actions_json(rows: np.ndarray) -> list[dict[str, Any]]:
    """The action objects of a deal's recorded rows, in order."""
    out: list[dict[str, Any]] = []
    hand_game = False
    for kind, seat, a, b in np.asarray(rows, np.int64).reshape(-1, A.ROW).tolist():
        obj: dict[str, Any] = {"type": A.NAMES[kind], "seat": seat}
        if kind in (A.BID, A.HOLD):
            obj["value"] = a
        elif kind == A.HAND:
            hand_game = True
        elif kind == A.DISCARD:
            obj["cards"] = names(a)
        elif kind == A.DECLARE:
            obj.update(declaration_fields(a, hand_game))
        elif kind == A.PLAY:
            obj["card"] = DECK.names[a]
            obj["from"] = PLAY_FROM[b]
        out.append(obj)
    return out


def action_row(obj: Any) -> list[int]:
    """The row ``[type, seat, a, b]`` of one action object (checked)."""
    if not isinstance(obj, dict):
        raise TraceError(f"an action must be an object, got {_short(obj)}")
    kind = obj.get("type")
    if kind not in ACTION_TYPES:
        raise TraceError(f"unknown action type {_short(kind)} (types: {', '.join(ACTION_TYPES)})")
    seat = obj.get("seat")
    if not _is_int(seat) or not 0 <= seat < N_PLAYERS:
        raise TraceError(f"{kind}: seat must be 0..{N_PLAYERS - 1}, got {_short(seat)}")
    missing = [f for f in ACTION_FIELDS.get(kind, ()) if f not in obj]
    if missing:
        raise TraceError(f"{kind}: missing field(s) {', '.join(missing)}")
    code = A.CODES[kind]
    a = b = 0
    if kind in ("bid", "hold"):
        a = obj["value"]
        if not _is_int(a):
            raise TraceError(f"{kind}: value must be a number, got {_short(a)}")
    elif kind == "discard":
        a = parse_names(obj["cards"], "discard.cards")
    elif kind == "declare":
        a = declaration_code(obj)
        if not isinstance(obj["hand"], bool):
            raise TraceError(f"declare: hand must be true or false, got {_short(obj['hand'])}")
        if not _is_int(obj["open_level"]):
            raise TraceError(f"declare: open_level must be a number, got {_short(obj['open_level'])}")
    elif kind == "play":
        card = obj["card"]
        if not isinstance(card, str) or card not in DECK.names:
            raise TraceError(f"play: unknown card {_short(card)}")
        a = DECK.names.index(card)
        if obj["from"] not in PLAY_FROM:
            raise TraceError(f"play: unknown from {_short(obj['from'])} (allowed: {', '.join(PLAY_FROM)})")
        b = PLAY_FROM.index(obj["from"])
    return [code, seat, a, b]


def actions_diff(recorded: Sequence[Mapping[str, Any]], replayed: Sequence[Mapping[str, Any]]) -> list[str]:
    """The first difference between recorded and replayed action objects, if any.

    Every field of the replayed object must be recorded with the same value
    (discarded cards in any order); extra recorded fields are not checked.
    """
    for k, (q, r) in enumerate(zip(recorded, replayed)):
        for key, value in r.items():
            mine = q.get(key)
            if key == "cards" and isinstance(mine, list):
                same = sorted(mine, key=_deck_pos) == sorted(value, key=_deck_pos)
            else:
                same = same_value(mine, value)
            if not same:
                return [f"action {k} recorded {_compact(q)}, replayed {_compact(r)}"]
    if len(recorded) != len(replayed):
        more = recorded if len(recorded) > len(replayed) else replayed
        extra = _compact(more[min(len(recorded), len(replayed))])
        return [f"{len(recorded)} actions recorded, {len(replayed)} replayed (first extra {extra})"]
    return []


def _deck_pos(name: Any) -> int:
    return DECK.names.index(name) if name in DECK.names else len(DECK.names)


# --- result --------------------------------------------------------------------------------

def result_json(columns: Mapping[str, np.ndarray], i: int) -> dict[str, Any]:
    """The ``result`` block of deal ``i`` from its result columns.

    Passed out or ramsch: ``declarer``, ``game`` (``"ramsch"`` for ramsch) and
    ``matadors`` are null, the other game fields 0 or false. A null game has no
    matadors (null). ``points`` (card points per seat, skat with the taker of the
    last trick) and ``durchmarsch`` belong to ramsch (null / false otherwise).
    """
    def col(name: str) -> int:
        return int(columns[name][i])

    passed, ramsch = bool(col("passed_out")), bool(col("ramsch"))
    declared = not passed and not ramsch and col("declarer") >= 0
    game = col("game")
    return {
        "passed_out": passed,
        "declarer": col("declarer") if declared else None,
        "game": GAME_NAMES[game] if game >= 0 else None,
        "bid": col("bid"),
        "matadors": col("matadors") if declared and game != NULL else None,
        "declarer_points": col("declarer_points"),
        "declarer_tricks": col("declarer_tricks"),
        "schneider": bool(col("schneider")),
        "schwarz": bool(col("schwarz")),
        "overbid": bool(col("overbid")),
        "won": bool(col("won")),
        "game_value": col("game_value"),
        "scores": [col(f"score_{s}") for s in range(N_PLAYERS)],
        "ramsch": ramsch,
        "points": [col(f"ramsch_points_{s}") for s in range(N_PLAYERS)] if ramsch else None,
        "durchmarsch": bool(col("durchmarsch")),
    }


def check_result(result: Any) -> None:
    """Raise ``TraceError`` unless ``result`` holds the fields TRACE.md requires."""
    if not isinstance(result, dict):
        raise TraceError(f"result must be an object, got {_short(result)}")
    need = RAMSCH_FIELDS if result.get("ramsch") is True else RESULT_FIELDS
    missing = [f for f in need if f not in result]
    if missing:
        raise TraceError(f"result: missing field(s) {', '.join(missing)}")


def result_diff(recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
    """Every field of the replayed result that the recorded result gives differently.

    Fields the recorded result lacks are not compared (``check_result`` has made
    sure the required ones are there). Where no game was declared (passed out,
    ramsch) the game fields may be given as null, 0 or false alike (a ramsch's
    ``game`` as ``"ramsch"`` or null); so may a null game's matadors.
    """
    undeclared = replayed["passed_out"] or replayed["ramsch"]
    out = []
    for key, value in replayed.items():
        if key not in recorded:
            continue
        mine = recorded[key]
        if same_value(mine, value):
            continue
        if key == "game" and replayed["ramsch"] and mine is None:
            continue
        loose = (undeclared and key in GAME_FIELDS) or (key == "matadors" and value is None)
        if loose and _empty(mine) and _empty(value):
            continue
        out.append(f"result.{key} recorded {json.dumps(mine)}, replayed {json.dumps(value)}")
    return out


# --- helpers -------------------------------------------------------------------------------

def same_value(a: Any, b: Any) -> bool:
    """JSON equality that tells ``true`` from ``1`` and ``false`` from ``0``."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return type(a) is type(b) and a == b if a is None or b is None else a == b


def _empty(v: Any) -> bool:
    return v is None or v is False or (type(v) is int and v == 0)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _compact(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


def _short(v: Any) -> str:
    text = json.dumps(v) if not isinstance(v, str) else repr(v)
    return text if len(text) <= 60 else text[:57] + "..."

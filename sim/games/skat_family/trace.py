"""The Skat family's parts of a deal trace (``TRACE.md``): cards, actions, result.

``sim.trace`` writes and replays traces for every game and asks the codec module each
game declares (``Game.trace_codec``) for its ``CODEC``. Skat and Skat-en-deux share
one codec class, ``SkatFamilyTrace``, set up from the game module and what the
game adds; this module holds it and Skat's instance:

* the ``cards`` block (``hands`` by player, any further places such as
  Skat-en-deux's ``blind``, ``skat``), card names in deck order;
* recorded action rows ``[type, seat, a, b]`` <-> the action objects of a trace,
  with the declaration code (``game | DECL_OUVERT | DECL_SCHNEIDER | DECL_SCHWARZ
  | open_level << DECL_OPEN_SHIFT``) <-> the six ``declare`` fields;
* the ``result`` block built from the result columns (the fields TRACE.md names,
  then the game's extra columns), the fields a trace must carry, and the
  field-by-field comparison a replay reports.

Functions that read a trace raise ``sim.trace_codec.TraceError`` with a message that
names the field; ``sim.trace`` adds the line number. The helpers any game's codec
may use (card lists, result column converters ``flag``/``number``/``player``/``label``,
``same_value``, the action comparison) live in ``sim.trace_codec``.

>>> declaration_fields(4 | 8 | 16 | 32, hand=True)["ouvert"]
True
>>> declaration_code({"game": "grand", "ouvert": True, "schneider_announced": True,
...                   "schwarz_announced": True, "open_level": 0})
60
>>> declaration_fields(1 | 2 << 6, hand=False)["open_level"]
2
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from sim import actions as A
from sim import trace_codec as T
from sim.cards import SKAT_DECK, Deck
from sim.games.skat_family import skat
from sim.games.skat_family.observation import DECL_OPEN_SHIFT, DECL_OUVERT, DECL_SCHNEIDER, DECL_SCHWARZ
from sim.games.skat_family.values import GAME_NAMES, NULL
from sim.trace_codec import TraceError, flag, same_value
from sim.trace_codec import is_int as _is_int
from sim.trace_codec import short as _short

__all__ = ["ACTION_FIELDS", "CODEC", "DECLARED_GAMES", "GAME_FIELDS", "OPEN_LEVELS",
           "RAMSCH_FIELDS", "RESULT_FIELDS", "SkatFamilyTrace", "declaration_code",
           "declaration_fields", "names", "parse_names"]

DECLARED_GAMES = GAME_NAMES[:6]
"""Names a ``declare`` may give: ``C S H D grand null`` (codes 0-5)."""

OPEN_LEVELS = (0, 1, 2)
"""A ``declare``'s ``open_level`` (TRACE.md); only ``skat_en_deux`` plays levels above 0."""

ACTION_FIELDS = {"bid": ("value",), "hold": ("value",), "discard": ("cards",),
                 "declare": ("game", "hand", "ouvert", "open_level", "schneider_announced",
                             "schwarz_announced"),
                 "offer": ("offer",),
                 "play": ("card", "from")}
"""Fields each action type carries beyond ``type`` and ``seat`` (types not named: none)."""

RESULT_FIELDS = ("passed_out", "declarer", "game", "bid", "matadors", "declarer_points",
                 "declarer_tricks", "schneider", "schwarz", "overbid", "won", "game_value",
                 "scores")
"""Result fields of a declared, given-up or passed-out deal (TRACE.md)."""
RAMSCH_FIELDS = ("ramsch", "points", "scores")
"""Result fields of a ramsch deal (TRACE.md)."""

GAME_FIELDS = ("game", "bid", "matadors", "declarer_points", "declarer_tricks", "schneider",
               "schwarz", "overbid", "won", "game_value")
"""Fields that TRACE.md lets a writer give as null, 0 or false where no game was declared
(and, ``bid`` aside, where the declarer gave up)."""


# --- cards ---------------------------------------------------------------------------------

def names(mask: int, deck: Deck = SKAT_DECK) -> list[str]:
    """Card names of a mask, in deck order (``sim.trace_codec.card_names``)."""
    return T.card_names(mask, deck)


def parse_names(value: Any, where: str, deck: Deck = SKAT_DECK) -> int:
    """The mask of a list of card names; ``where`` names the field in errors."""
    return T.parse_names(value, where, deck)


# --- declarations --------------------------------------------------------------------------

def declaration_fields(code: int, hand: bool) -> dict[str, Any]:
    """The ``declare`` fields of declaration ``code`` (``game | flags | level << shift``).

    ``hand``: whether the declarer plays without the skat (the code does not say).
    """
    code = int(code)
    return {"game": DECLARED_GAMES[code & 7], "hand": bool(hand),
            "ouvert": bool(code & DECL_OUVERT),
            "open_level": (code >> DECL_OPEN_SHIFT) & 3,
            "schneider_announced": bool(code & DECL_SCHNEIDER),
            "schwarz_announced": bool(code & DECL_SCHWARZ)}


def declaration_code(fields: Mapping[str, Any]) -> int:
    """The declaration code of a ``declare`` object's fields (``hand`` is not part of it).

    ``open_level`` may be left out (0)."""
    game = fields.get("game")
    if game not in DECLARED_GAMES:
        raise TraceError(f"declare: unknown game {_short(game)} (games: {', '.join(DECLARED_GAMES)})")
    code = DECLARED_GAMES.index(game)
    for key, bit in (("ouvert", DECL_OUVERT), ("schneider_announced", DECL_SCHNEIDER),
                     ("schwarz_announced", DECL_SCHWARZ)):
        value = fields.get(key)
        if not isinstance(value, bool):
            raise TraceError(f"declare: {key} must be true or false, got {_short(value)}")
        code |= bit if value else 0
    level = fields.get("open_level", 0)
    if not _is_int(level) or level not in OPEN_LEVELS:
        raise TraceError(f"declare: open_level must be 0, 1 or 2, got {_short(level)}")
    return code | level << DECL_OPEN_SHIFT


# --- one game's codec ----------------------------------------------------------------------

class SkatFamilyTrace:
    """The ``cards``, ``actions`` and ``result`` blocks of one Skat-family game.

    ``game``: the game module (``N_PLAYERS``, ``DECK``, result ``COLUMNS`` with
    ``hand_<player>``, ``skat``, ``score_<player>``, ``ramsch_points_<player>`` and the
    Skat result columns). What a game adds to Skat's format:

    * ``actions``: the action types its traces may hold, in ``sim.actions`` order;
    * ``play_from``: where a played card may come from, by the row's ``b`` code;
    * ``places``: card columns written between ``hands`` and ``skat`` (``blind``);
    * ``offers``: the labels of an ``offer`` row's ``a`` code (code 0 is no offer);
    * ``extra_result``: ``(field, converter)`` pairs written after the TRACE.md result
      fields, each read from the result column of the same name and compared on replay.
    """

    def __init__(self, game: ModuleType, actions: Sequence[str], play_from: Sequence[str],
                 places: Sequence[str] = (), offers: Sequence[str] = (),
                 extra_result: Sequence[tuple[str, Callable[[int], Any]]] = ()) -> None:
        columns = {name for name, _ in game.COLUMNS}
        unknown = [a for a in actions if a not in A.CODES]
        lacking = [c for c in list(places) + [f for f, _ in extra_result] if c not in columns]
        if unknown or lacking:
            raise ValueError(f"{game.NAME} trace: unknown action(s) {unknown}, column(s) {lacking}")
        self.name: str = game.NAME
        self.n_players: int = game.N_PLAYERS
        self.deck: Deck = game.DECK
        self.action_types = tuple(actions)
        self.play_from = tuple(play_from)
        self.places = tuple(places)
        self.offers = tuple(offers)
        self.extra_result = tuple(extra_result)

    # cards

    def cards_json(self, columns: Mapping[str, np.ndarray], i: int) -> dict[str, Any]:
        """The ``cards`` block of deal ``i``: ``hands`` (by player), the places, ``skat``."""
        out: dict[str, Any] = {"hands": [self._names(columns[f"hand_{s}"][i])
                                         for s in range(self.n_players)]}
        for place in self.places:
            out[place] = self._names(columns[place][i])
        out["skat"] = self._names(columns["skat"][i])
        return out

    def parse_cards(self, cards: Any) -> dict[str, Any]:
        """A trace's ``cards`` block as masks: ``{"hands": [m0, ...], <place>: m, "skat": m}``."""
        if not isinstance(cards, dict):
            raise TraceError(f"cards must be an object, got {_short(cards)}")
        for key in ("hands",) + self.places + ("skat",):
            if key not in cards:
                raise TraceError(f"cards: missing field {key!r}")
        hands = cards["hands"]
        if not isinstance(hands, list) or len(hands) != self.n_players:
            raise TraceError(f"cards.hands must be {self.n_players} lists of card names")
        out: dict[str, Any] = {"hands": [parse_names(h, f"cards.hands[{s}]", self.deck)
                                         for s, h in enumerate(hands)]}
        for key in self.places + ("skat",):
            out[key] = parse_names(cards[key], f"cards.{key}", self.deck)
        return out

    def cards_diff(self, recorded: Mapping[str, Any], columns: Mapping[str, np.ndarray],
                   i: int) -> list[str]:
        """Where the parsed ``recorded`` cards differ from the cards dealt to deal ``i``."""
        pairs = [(f"cards.hands[{s}]", recorded["hands"][s], int(columns[f"hand_{s}"][i]))
                 for s in range(self.n_players)]
        pairs += [(f"cards.{key}", recorded[key], int(columns[key][i]))
                  for key in self.places + ("skat",)]
        return [f"{where} recorded {self._names_text(mine)}, dealt {self._names_text(dealt)}"
                for where, mine, dealt in pairs if mine != dealt]

    def _names(self, mask: int) -> list[str]:
        return names(mask, self.deck)

    def _names_text(self, mask: int) -> str:
        return "[" + " ".join(self._names(mask)) + "]"

    # actions

    def actions_json(self, rows: np.ndarray) -> list[dict[str, Any]]:
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
                obj["cards"] = self._names(a)
            elif kind == A.DECLARE:
                obj.update(declaration_fields(a, hand_game))
            elif kind == A.GIVE_UP:
                obj["game"] = DECLARED_GAMES[a - 1] if a else None
            elif kind == A.OFFER:
                obj["offer"] = self.offers[a]
            elif kind == A.PLAY:
                obj["card"] = self.deck.names[a]
                obj["from"] = self.play_from[b]
            out.append(obj)
        return out

    def action_row(self, obj: Any) -> list[int]:
        """The row ``[type, seat, a, b]`` of one action object (checked)."""
        if not isinstance(obj, dict):
            raise TraceError(f"an action must be an object, got {_short(obj)}")
        kind = obj.get("type")
        if kind not in self.action_types:
            raise TraceError(f"unknown action type {_short(kind)} "
                             f"(types: {', '.join(self.action_types)})")
        seat = obj.get("seat")
        if not _is_int(seat) or not 0 <= seat < self.n_players:
            raise TraceError(f"{kind}: seat must be 0..{self.n_players - 1}, got {_short(seat)}")
        missing = [f for f in ACTION_FIELDS.get(kind, ()) if f not in obj]
        if missing:
            raise TraceError(f"{kind}: missing field(s) {', '.join(missing)}")
        code = A.CODES[kind]
        a = b = 0
        if kind in ("bid", "hold"):
            a = obj["value"]
            if not _is_int(a):
                raise TraceError(f"{kind}: value must be a number, got {_short(a)}")
        elif kind == "give_up":
            game = obj.get("game")
            if game is not None and game not in DECLARED_GAMES[:NULL]:
                raise TraceError(f"give_up: unknown game {_short(game)} (games: "
                                 f"{', '.join(DECLARED_GAMES[:NULL])}, or null at 18)")
            a = 0 if game is None else DECLARED_GAMES.index(game) + 1
        elif kind == "discard":
            a = parse_names(obj["cards"], "discard.cards", self.deck)
        elif kind == "declare":
            a = declaration_code(obj)
            if not isinstance(obj["hand"], bool):
                raise TraceError(f"declare: hand must be true or false, got {_short(obj['hand'])}")
        elif kind == "offer":
            offers = self.offers[1:]
            if obj["offer"] not in offers:
                raise TraceError(f"offer: unknown offer {_short(obj['offer'])} "
                                 f"(offers: {', '.join(offers)})")
            a = self.offers.index(obj["offer"])
        elif kind == "play":
            card = obj["card"]
            if not isinstance(card, str) or card not in self.deck.names:
                raise TraceError(f"play: unknown card {_short(card)}")
            a = self.deck.names.index(card)
            if obj["from"] not in self.play_from:
                raise TraceError(f"play: unknown from {_short(obj['from'])} "
                                 f"(allowed: {', '.join(self.play_from)})")
            b = self.play_from.index(obj["from"])
        return [code, seat, a, b]

    def actions_diff(self, recorded: Sequence[Mapping[str, Any]],
                     replayed: Sequence[Mapping[str, Any]]) -> list[str]:
        """The first difference between recorded and replayed action objects, if any
        (``sim.trace_codec.actions_diff``: discarded cards in any order)."""
        return T.actions_diff(recorded, replayed, self.deck)

    # result

    def result_json(self, columns: Mapping[str, np.ndarray], i: int,
                    rows: np.ndarray | None = None) -> dict[str, Any]:
        """The ``result`` block of deal ``i`` from its result columns (its action ``rows``
        are not needed).

        Passed out or ramsch: ``declarer``, ``game`` (``"ramsch"`` for ramsch) and
        ``matadors`` are null, the other game fields 0 or false. A given-up game
        names its declarer and bid; its ``matadors`` are null, its ``game`` the game he named
        when he gave up after the pickup (null at 18). A null
        game has no matadors (null). ``points`` (card points per player as the
        game's ramsch counts them: in Skat the skat's where ``ramsch_skat`` puts them)
        belongs to ramsch (null otherwise); ``scores`` follow the scoring options. Then the
        game's extra fields.
        """
        def col(name: str) -> int:
            return int(columns[name][i])

        passed, ramsch = bool(col("passed_out")), bool(col("ramsch"))
        given_up = "give_up" in columns and bool(col("give_up"))
        declared = not passed and not ramsch and col("declarer") >= 0
        game = col("game")
        n = self.n_players
        out = {
            "passed_out": passed,
            "declarer": col("declarer") if declared else None,
            "game": GAME_NAMES[game] if game >= 0 else None,
            "bid": col("bid"),
            "matadors": col("matadors") if declared and 0 <= game < NULL and not given_up
            else None,
            "declarer_points": col("declarer_points"),
            "declarer_tricks": col("declarer_tricks"),
            "schneider": bool(col("schneider")),
            "schwarz": bool(col("schwarz")),
            "overbid": bool(col("overbid")),
            "won": bool(col("won")),
            "game_value": col("game_value"),
            "scores": [col(f"score_{s}") for s in range(n)],
            "ramsch": ramsch,
            "points": [col(f"ramsch_points_{s}") for s in range(n)] if ramsch else None,
        }
        for field, convert in self.extra_result:
            out[field] = convert(col(field))
        return out

    def check_result(self, result: Any) -> None:
        """Raise ``TraceError`` unless ``result`` holds the fields TRACE.md requires."""
        ramsch = isinstance(result, dict) and result.get("ramsch") is True
        T.require_fields(result, RAMSCH_FIELDS if ramsch else RESULT_FIELDS)

    def result_diff(self, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
        """Every field of the replayed result that the recorded result gives differently.

        Fields the recorded result lacks are not compared (``check_result`` has made
        sure the required ones are there). Where no game was declared (passed out,
        ramsch) the game fields may be given as null, 0 or false alike (a ramsch's
        ``game`` as ``"ramsch"`` or null); so may a given-up game's (its bid aside)
        and a null game's matadors.
        """
        undeclared = replayed["passed_out"] or replayed["ramsch"]
        given_up = replayed.get("give_up") is True
        out = []
        for key, value in replayed.items():
            if key not in recorded:
                continue
            mine = recorded[key]
            if same_value(mine, value):
                continue
            if key == "game" and replayed["ramsch"] and mine is None:
                continue
            loose = ((undeclared and key in GAME_FIELDS)
                     or (given_up and key in GAME_FIELDS and key != "bid")
                     or (key == "matadors" and value is None))
            if loose and _empty(mine) and _empty(value):
                continue
            out.append(f"result.{key} recorded {json.dumps(mine)}, replayed {json.dumps(value)}")
        return out


CODEC = SkatFamilyTrace(
    skat,
    actions=("bid", "hold", "pass", "pickup", "hand", "discard", "declare", "ramsch", "play"),
    play_from=("hand",),
    extra_result=(("durchmarsch", flag),),
)
"""Skat's codec: three hands and the skat; ``durchmarsch`` beyond the TRACE.md result."""


# --- helpers -------------------------------------------------------------------------------

def _empty(v: Any) -> bool:
    return v is None or v is False or (type(v) is int and v == 0)

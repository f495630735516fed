"""The toy game's parts of a deal trace: ``cards`` (both hands), ``play`` actions, and a
``result`` of points, tricks, the last trick's taker and the scores."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from sim import actions as A
from sim.trace_codec import (
    TraceError,
    actions_diff,
    card_names,
    is_int,
    parse_names,
    require_fields,
    same_value,
    short,
)
from toygame.game import DECK, N_PLAYERS

RESULT_FIELDS = ("points", "tricks", "last_trick", "score")


class ToyTrace:
    """The toy game's codec (``sim.trace_codec.Codec``)."""

    def cards_json(self, columns: Mapping[str, np.ndarray], i: int) -> dict[str, Any]:
        return {"hands": [card_names(columns[f"hand_{s}"][i], DECK) for s in range(N_PLAYERS)]}

    def parse_cards(self, cards: Any) -> dict[str, Any]:
        if not isinstance(cards, dict) or not isinstance(cards.get("hands"), list) \
                or len(cards["hands"]) != N_PLAYERS:
            raise TraceError(f"cards must hold two hands, got {short(cards)}")
        return {"hands": [card_names(parse_names(h, f"cards.hands[{s}]", DECK), DECK)
                          for s, h in enumerate(cards["hands"])]}

    def cards_diff(self, recorded: Any, columns: Mapping[str, np.ndarray], i: int) -> list[str]:
        dealt = self.cards_json(columns, i)["hands"]
        return [f"cards.hands[{s}] recorded [{' '.join(recorded['hands'][s])}], dealt "
                f"[{' '.join(dealt[s])}]" for s in range(N_PLAYERS) if recorded["hands"][s] != dealt[s]]

    def actions_json(self, rows: np.ndarray) -> list[dict[str, Any]]:
        return [{"type": "play", "seat": seat, "card": DECK.names[a]}
                for kind, seat, a, _ in np.asarray(rows, np.int64).reshape(-1, A.ROW).tolist()
                if kind == A.PLAY]

    def action_row(self, obj: Any) -> list[int]:
        if not isinstance(obj, dict) or obj.get("type") != "play":
            raise TraceError(f"an action must be a play, got {short(obj)}")
        seat, card = obj.get("seat"), obj.get("card")
        if not is_int(seat) or not 0 <= seat < N_PLAYERS:
            raise TraceError(f"seat must be 0 or 1, got {short(seat)}")
        if not isinstance(card, str) or card.strip().upper() not in DECK.names:
            raise TraceError(f"unknown card {short(card)}")
        return [A.PLAY, seat, DECK.names.index(card.strip().upper()), 0]

    def actions_diff(self, recorded: Sequence[Mapping[str, Any]],
                     replayed: Sequence[Mapping[str, Any]]) -> list[str]:
        return actions_diff(recorded, replayed, DECK)

    def result_json(self, columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray) -> dict[str, Any]:
        def both(name: str) -> list[int]:
            return [int(columns[f"{name}_{s}"][i]) for s in range(N_PLAYERS)]

        return {"points": both("points"), "tricks": both("tricks"),
                "last_trick": int(columns["last_trick"][i]), "score": both("score")}

    def check_result(self, result: Any) -> None:
        require_fields(result, RESULT_FIELDS)

    def result_diff(self, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
        return [f"result.{k} recorded {json.dumps(recorded[k])}, replayed {json.dumps(v)}"
                for k, v in replayed.items() if k in recorded and not same_value(recorded[k], v)]


CODEC = ToyTrace()
"""The toy game's codec."""

"""The cards a person at a seat may know at a moment of a deal, worked out from the deal's
result columns and the actions so far (never from an observation): what the table screens
(terminal and browser) may show. Skat-family games: ``test_play.knowable``."""

from __future__ import annotations

from typing import Any

import numpy as np
from test_play import knowable as skat_knowable

from sim import actions as A
from sim.cards import DOKO_DECK_48
from sim.games.doko_duell import game as G

FACE_DOWN = [k for k in range(G.PYRAMID) if not G.FACE_UP_AT_DEAL >> k & 1]


def doko_duell_knowable(c: dict[str, Any], seat: int, actions: np.ndarray) -> set[str]:
    """Every card name some copy of which is neither in the other hand unplayed nor face
    down in a pyramid (a pyramid card turns up at the end of the trick that frees it)."""
    deck = G.DECK
    plays = [r for r in actions.tolist() if r[0] == A.PLAY]
    played = {r[2] for r in plays}
    present = [(1 << G.PYRAMID) - 1] * 2
    for r in plays[:len(plays) // 2 * 2]:
        if r[3]:
            present[r[1]] &= ~(1 << (r[3] - 1))
    hidden = {c[f"pyramid_{s}_{k}"] for s in range(2) for k in FACE_DOWN
              if present[s] & int(G.COVERED_BY[k])}
    forbidden = (set(deck.cards(c[f"hand_{1 - seat}"])) - played) | hidden
    return {deck.names[card] for card in range(deck.n_cards) if card not in forbidden}


def doko_skat_knowable(c: dict[str, Any], seat: int, actions: np.ndarray) -> set[str]:
    """His first-round cards, the turned-up card, cards played; his stock once the first
    round is over and the skat if he plays alone; after a redeal the cards given him and
    the second turned-up card."""
    deck = DOKO_DECK_48

    def names(mask: int) -> set[str]:
        return set(deck.name_list(int(mask)))

    rows = actions.tolist()
    plays = [r[2] for r in rows if r[0] == A.PLAY]
    known = names(c[f"first_round_{seat}"]) | {deck.names[c["turned_up"]]} \
        | {deck.names[card] for card in plays}
    if len(plays) >= 9:
        known |= names(c[f"stock_{seat}"])
        if c["lone"] == seat:
            known |= names(c["skat"])
    if sum(r[0] == A.PASS for r in rows) == 3:
        known |= names(c[f"extra_{seat}"]) | {deck.names[c["second_turned_up"]]}
    return known


def knowable(name: str, columns: dict[str, np.ndarray], seat: int, actions: np.ndarray) -> set[str]:
    """The card names a person at ``seat`` of deal 0 of ``columns`` (one deal's result
    columns) may know after ``actions``."""
    if name in ("skat", "skat_en_deux"):
        return skat_knowable(name, columns, seat, actions)
    c = {k: v[0].item() for k, v in columns.items()}
    return (doko_duell_knowable if name == "doko_duell" else doko_skat_knowable)(c, seat, actions)

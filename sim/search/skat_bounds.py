"""The points each side of a Skat-family card play takes for sure from a trick's start: the
solver's quick bounds (``sim.search.solve_skat_family.bounds``), which prune a search before
it plays a card.

Two kinds of tricks are sure, whoever plays what:

* **the leader's quick tricks** (``led_for_sure``): he leads his cards that lie above every
  other live card of their suit, so each wins and he keeps the lead. His top trumps come
  first. When they draw every opponent's trumps, his other trumps win too (unless a partner
  still holds trumps that could take the lead from him), and so do his top cards of the plain
  suits. Otherwise a top plain card wins only for as many rounds as every opponent who still
  holds trumps must follow that suit;
* **trumps above every opponent's** (``trumps_above``): such a trump wins the trick it is
  played in for its side, whenever that is (partners may hold two of them in one trick).

Each such trick brings its winning cards and, from every other player, at least his
cheapest cards. All masks here are in *order space* (``solver.card_order``: by effective
suit, the strongest first), where a suit's top cards are its lowest bits.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import popcount
from sim.games.skat_cardplay import S
from sim.games.skat_values import EFF, JIT, POINTS, STRENGTH
from sim.search.solver import card_order, in_order

ORDER, PERM, SPAN = card_order(EFF, STRENGTH)
"""Each game type's cards by effective suit and strength (``solver.card_order``)."""
TRUMP = 4
"""The trumps' effective suit in every game type that has trumps."""
CLASS_POINTS = np.array(sorted({int(p) for p in POINTS}), np.int64)
"""The card values, the cheapest first (0, 2, 3, 4, 10, 11)."""


def _order_masks() -> tuple[np.ndarray, np.ndarray]:
    """``SUITS[game, eff]``: each effective suit's cards, and ``CLASSES[game, k]``: the cards
    worth ``CLASS_POINTS[k]``, in each game type's order space."""
    suits = np.zeros((len(ORDER), TRUMP + 1), np.uint64)
    classes = np.zeros((len(ORDER), len(CLASS_POINTS)), np.uint64)
    values = [int(v) for v in CLASS_POINTS]
    for game, row in enumerate(ORDER):
        for i, card in enumerate(row):
            suits[game, EFF[game][card]] |= np.uint64(1 << i)
            classes[game, values.index(int(POINTS[card]))] |= np.uint64(1 << i)
    return suits, classes


SUITS, CLASSES = _order_masks()


@numba.njit(inline="always", **JIT)
def hands_in_order(state, game):
    """Each place's cards in order space (a third place without cards in a two-player
    ramsch)."""
    perm = PERM[game]
    return (in_order(np.uint64(state[S.HANDS]), perm),
            in_order(np.uint64(state[S.HANDS + 1]), perm),
            in_order(np.uint64(state[S.HANDS + 2]), perm) if state[S.PLACES] == 3
            else np.uint64(0))


@numba.njit(inline="always", **JIT)
def _above(live, mine):
    """The cards of ``mine`` above every other ``live`` card of their suit (one suit)."""
    others = live & ~mine
    if others == 0:
        return mine
    return mine & ((others & (~others + np.uint64(1))) - np.uint64(1))


@numba.njit(inline="always", **JIT)
def _worth(cards, classes):
    """The points of ``cards``."""
    total = 0
    for k in range(1, len(CLASS_POINTS)):
        total += popcount(cards & classes[k]) * CLASS_POINTS[k]
    return total


@numba.njit(inline="always", **JIT)
def _cheapest(hand, n, classes):
    """The fewest points ``n`` cards of ``hand`` can be worth."""
    total = 0
    for k in range(len(CLASS_POINTS)):
        if n <= 0:
            break
        take = min(n, popcount(hand & classes[k]))
        total += take * CLASS_POINTS[k]
        n -= take
    return total


@numba.njit(inline="always", **JIT)
def led_for_sure(state, game, side, hands):
    """The points the leader's side (``side``, a mask over places) takes for sure from his
    quick tricks (see the module text)."""
    suits = SUITS[game]
    classes = CLASSES[game]
    leader = state[S.LEADER]
    places = state[S.PLACES]
    live = hands[0] | hands[1] | hands[2]
    mine = hands[leader]
    partner_trumps = np.uint64(0)
    for p in range(places):
        if p != leader and (side >> p) & 1:
            partner_trumps |= hands[p] & suits[TRUMP]
    won = _above(live & suits[TRUMP], mine & suits[TRUMP])
    rounds = popcount(won)
    holding = 0  # the opponents who still hold trumps after those rounds
    for p in range(places):
        if not (side >> p) & 1 and popcount(hands[p] & suits[TRUMP]) > rounds:
            holding |= 1 << p
    total = _worth(won, classes)
    for e in range(TRUMP):
        top = _above(live & suits[e], mine & suits[e])
        if top == 0:
            continue
        n = popcount(top)
        for p in range(places):
            if (holding >> p) & 1:
                n = min(n, popcount(hands[p] & suits[e]))
        if n:
            rounds += n
            total += _worth(top, classes) if n == popcount(top) else _cheapest(top, n, classes)
    if holding == 0 and partner_trumps == 0:
        rest = mine & suits[TRUMP] & ~won
        rounds += popcount(rest)
        total += _worth(rest, classes)
    if rounds == 0:
        return 0
    for p in range(places):
        if p != leader:
            total += _cheapest(hands[p], rounds, classes)
    return total


@numba.njit(inline="always", **JIT)
def trumps_above(state, game, side, hands):
    """The points ``side`` takes for sure with its trumps above every opponent's (see the
    module text): at least one trick for each of its players' worth of them."""
    trumps = SUITS[game][TRUMP]
    classes = CLASSES[game]
    places = state[S.PLACES]
    ours = np.uint64(0)
    theirs = np.uint64(0)
    members = 0
    for p in range(places):
        if (side >> p) & 1:
            ours |= hands[p]
            members += 1
        else:
            theirs |= hands[p]
    top = _above((ours | theirs) & trumps, ours & trumps)
    if top == 0:
        return 0
    tricks = (popcount(top) + members - 1) // members
    total = _worth(top, classes)
    for p in range(places):
        if not (side >> p) & 1:
            total += _cheapest(hands[p], tricks, classes)
    return total


__all__ = ["ORDER", "PERM", "SPAN", "hands_in_order", "led_for_sure", "trumps_above"]

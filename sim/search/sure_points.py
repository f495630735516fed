"""The points each side of a card play takes for sure from a trick's start, whoever plays
what: the quick bounds of the games' solvers (their ``bounds`` hooks), which prune a search
before it plays a card. Written once for every game here, where a trick goes to its highest
trump, else to the highest card of the led suit. A card counts as above another player's only
when it is stronger: an equal card blocks it, so the bounds hold whichever of two equal cards
wins (the duel's ``equal_cards``). The duel takes only the trumps above the other's (its
covered pyramid cards may let a player dodge a suit).

Two kinds of tricks are sure:

* **the leader's quick tricks** (``led_for_sure``): he leads his cards that lie above every
  other live card of their suit, so each wins and he keeps the lead. His top trumps come
  first. When they draw every opponent's trumps, his other trumps win too (unless a partner
  still holds trumps that could take the lead from him), and so do his top cards of the plain
  suits. Otherwise a top plain card wins only for as many rounds as every opponent who still
  holds trumps must follow that suit. Only a side that wants its own points takes these;
* **trumps above every opponent's** (``trumps_above``): such a trump wins the trick it is
  played in for its side, whenever that is (partners may hold two of them in one trick).

Each such trick brings its winning cards and, from every other player, at least his
cheapest cards. All masks here are in a table's *order space* (``solver.card_order``: by
effective suit, the strongest first), where a suit's top cards are its lowest bits.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import popcount
from sim.search.solver import JIT_INLINE, in_order
from sim.tricks import TRUMP

CLASS_POINTS = np.array([0, 2, 3, 4, 10, 11], np.int64)
"""Every card value of the Skat and the Doppelkopf decks, the cheapest first."""


def order_masks(order: np.ndarray, eff: np.ndarray, strength: np.ndarray,
                points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each table of ``solver.card_order``'s ``order``: ``suits[table, eff]``, each
    effective suit's cards; ``classes[table, k]``, the cards worth ``CLASS_POINTS[k]``;
    ``twins[table]``, the positions whose next position holds an equal card (as strong, in
    the same effective suit), which a card at the next position ties rather than loses to."""
    eff2, strength2 = np.atleast_2d(eff), np.atleast_2d(strength)
    values = [int(v) for v in CLASS_POINTS]
    suits = np.zeros((len(order), TRUMP + 1), np.uint64)
    classes = np.zeros((len(order), len(values)), np.uint64)
    twins = np.zeros(len(order), np.uint64)
    for table, row in enumerate(order):
        for i, card in enumerate(row):
            if eff2[table, card] < 0:  # not in this table's deck
                continue
            suits[table, eff2[table, card]] |= np.uint64(1 << i)
            classes[table, values.index(int(points[card]))] |= np.uint64(1 << i)
            if i + 1 < len(row):
                after = row[i + 1]
                if (eff2[table, after] == eff2[table, card]
                        and strength2[table, after] == strength2[table, card]):
                    twins[table] |= np.uint64(1 << i)
    return suits, classes, twins


@numba.njit(**JIT_INLINE)
def hands_in_order(a, b, c, perm):
    """Three places' cards (card masks) in order space."""
    return (in_order(np.uint64(a), perm), in_order(np.uint64(b), perm),
            in_order(np.uint64(c), perm))


@numba.njit(**JIT_INLINE)
def _above(live, mine, twins):
    """The cards of ``mine`` above every other ``live`` card of their suit (one suit): an
    equal card of another player blocks as a stronger one does."""
    others = live & ~mine
    if others == 0:
        return mine
    block = others | ((others >> np.uint64(1)) & twins)
    return mine & ((block & (~block + np.uint64(1))) - np.uint64(1))


@numba.njit(**JIT_INLINE)
def _worth(cards, classes):
    """The points of ``cards``."""
    total = 0
    for k in range(1, len(CLASS_POINTS)):
        total += popcount(cards & classes[k]) * CLASS_POINTS[k]
    return total


@numba.njit(**JIT_INLINE)
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


@numba.njit(**JIT_INLINE)
def led_for_sure(hands, places, leader, side, suits, classes, twins):
    """The points the side (``side``, a mask over ``places``) of the ``leader`` takes for sure
    from his quick tricks (see the module text); ``hands``, each place's cards, and the
    table's ``suits``, ``classes`` and ``twins`` in order space (``order_masks``)."""
    live = hands[0] | hands[1] | hands[2]
    mine = hands[leader]
    partner_trumps = np.uint64(0)
    for p in range(places):
        if p != leader and (side >> p) & 1:
            partner_trumps |= hands[p] & suits[TRUMP]
    won = _above(live & suits[TRUMP], mine & suits[TRUMP], twins)
    rounds = popcount(won)
    holding = 0  # the opponents who still hold trumps after those rounds
    for p in range(places):
        if not (side >> p) & 1 and popcount(hands[p] & suits[TRUMP]) > rounds:
            holding |= 1 << p
    total = _worth(won, classes)
    for e in range(TRUMP):
        top = _above(live & suits[e], mine & suits[e], twins)
        if top == 0:
            continue
        n = popcount(top)
        for p in range(places):
            if (holding >> p) & 1:
                n = min(n, popcount(hands[p] & suits[e]))
        if n:
            rounds += n
            total += _cheapest(top, n, classes)  # all of them: their worth
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


@numba.njit(**JIT_INLINE)
def trumps_above(hands, places, side, suits, classes, twins):
    """The points ``side`` takes for sure with its trumps above every opponent's (see the
    module text): at least one trick for each of its players' worth of them."""
    trumps = suits[TRUMP]
    ours = np.uint64(0)
    theirs = np.uint64(0)
    members = 0
    for p in range(places):
        if (side >> p) & 1:
            ours |= hands[p]
            members += 1
        else:
            theirs |= hands[p]
    top = _above((ours | theirs) & trumps, ours & trumps, twins)
    if top == 0:
        return 0
    tricks = (popcount(top) + members - 1) // members
    total = _worth(top, classes)
    for p in range(places):
        if not (side >> p) & 1:
            total += _cheapest(hands[p], tricks, classes)
    return total



@numba.njit(**JIT_INLINE)
def sure_bounds(hands, places, leader, ours, open_, suits, classes, twins, quick):
    """``(low, high)``: the least and the most the counted side ``ours`` (a mask over
    ``places``) adds from a trick's start, ``open_`` points still out: each side's trumps
    above the other's and, when ``quick``, the leader's quick tricks for his side."""
    theirs = ((1 << places) - 1) & ~ours
    low = trumps_above(hands, places, ours, suits, classes, twins)
    high = open_ - trumps_above(hands, places, theirs, suits, classes, twins)
    if not quick:
        return low, high
    if (ours >> leader) & 1:
        return max(low, led_for_sure(hands, places, leader, ours, suits, classes, twins)), high
    return low, min(high, open_ - led_for_sure(hands, places, leader, theirs, suits, classes, twins))


__all__ = ["CLASS_POINTS", "hands_in_order", "led_for_sure", "order_masks", "sure_bounds",
           "trumps_above"]

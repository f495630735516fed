"""A card player's heuristic for the Doppelkopf duel (``doko_duell``).

It looks one trick ahead with what it can see: its hand, both pyramids' face-up
cards and the played cards. Every legal card gets a score and the best one is
played:

* winning a trick is worth its card points, and more with a B-marker event in it
  (catching the fox, Karlchen, two identical cards, 22 points, Fuchs am Pin);
* a card that cannot win should cost few points; the fox (DA) is kept away from
  tricks the opponent can take, and held back for the 20th trick when it may win;
* high trumps are spent only when a trick is worth it;
* a pyramid card that frees face-down cards is worth playing (more choice later, and
  perhaps an A marker);
* leading, a card counts as a likely winner when no card the opponent may play beats
  it: his free pyramid cards (a covered card neither obliges him nor can be played, so
  a suit he holds only under cover is one he may dodge) and the cards nobody has seen;
  a plain card is taken to be trumped only when he shows no free card of its suit and
  his unseen hand is likely void in it (hypergeometric chance above ``VOID_RISK``).

The scores' weights are constants below.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import DOKO_DECK_40, lsb, popcount
from sim.games.doko_duell.observation import FIELDS as O
from sim.tricks import TRUMP, build_table

_TABLE = build_table(DOKO_DECK_40, ("HT", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "DT",
                                    "DK"), "ATK")
EFF, STRENGTH, SUIT_MASKS = _TABLE.eff, _TABLE.strength, _TABLE.suit_masks
POINTS = DOKO_DECK_40.points.astype(np.int64)
KIND = np.array([i % DOKO_DECK_40.n_kinds for i in range(DOKO_DECK_40.n_cards)], np.int64)
FOX_KIND = DOKO_DECK_40.index("DA")
CHARLIE_KIND = DOKO_DECK_40.index("CJ")
HEART_TEN_KIND = DOKO_DECK_40.index("HT")
FULL = np.uint64((1 << DOKO_DECK_40.n_cards) - 1)
ONE = np.uint64(1)

COVERED_BY = np.zeros(12, np.int64)
for _k, _over in {4: (0, 1), 5: (1, 2), 6: (2, 3), 7: (4, 5), 9: (5, 6), 8: (7,), 10: (9,),
                  11: (8, 10)}.items():
    COVERED_BY[_k] = sum(1 << c for c in _over)

B_EVENT_VALUE = 9.0
"""A B marker in card points (a victory point is worth about a band of 30 points)."""
FOX_RISK = 14.0
"""What giving the opponent the chance to catch the fox costs."""
HIGH_TRUMP_COST = 0.35
"""Cost per strength step of a trump spent above the cheapest one that would do."""
FREE_VALUE = 2.5
"""Worth of each face-down card a pyramid play frees."""
LIKELY_WIN = 0.8
"""How sure a lead must be to count its win."""
VOID_RISK = 0.35
"""Chance of a void in the led suit above which a plain lead counts as trumped."""
TRICKS_PER_PLAYER = 20


@numba.njit(cache=True)
def _beats(first, second, equal_rule):
    """Whether ``second`` played after ``first`` wins."""
    if KIND[first] == KIND[second]:
        return equal_rule == 1 or (equal_rule == 2 and KIND[first] == HEART_TEN_KIND)
    if EFF[second] == TRUMP:
        return EFF[first] != TRUMP or STRENGTH[second] > STRENGTH[first]
    return EFF[first] != TRUMP and EFF[second] == EFF[first] and STRENGTH[second] > STRENGTH[first]


@numba.njit(cache=True)
def _events(first, second, winner_card, loser_card, trick_no):
    """Number of B-marker events in a trick of ``first`` and ``second``."""
    n = 0
    if KIND[loser_card] == FOX_KIND:
        n += 1
    if KIND[winner_card] == CHARLIE_KIND:
        n += 1
    if KIND[first] == KIND[second]:
        n += 1
    if POINTS[first] + POINTS[second] == 22:
        n += 1
    if trick_no == 19 and KIND[winner_card] == FOX_KIND:
        n += 1
    return n


@numba.njit(cache=True)
def _freed(obs, card):
    """Face-down cards of this player's pyramid that playing ``card`` uncovers."""
    if (np.uint64(obs[O.HAND]) >> np.uint64(card)) & ONE:
        return 0
    present = obs[O.OWN_PRESENT]
    pos = -1
    for k in range(12):
        if obs[O.OWN_PYRAMID + k] == card:
            pos = k
    if pos < 0:
        return 0
    after = present & ~(1 << pos)
    n = 0
    for k in range(12):
        if (present >> k) & 1 and obs[O.OWN_PYRAMID + k] < 0 and (present & COVERED_BY[k]) \
                and not (after & COVERED_BY[k]):
            n += 1
    return n


@numba.njit(cache=True)
def _opponent_cards(obs):
    """Cards the opponent may play next: his free pyramid cards, and the unseen cards
    (his hand is among them, with the face-down pyramid cards)."""
    seen = np.uint64(obs[O.HAND]) | np.uint64(obs[O.PLAYED]) | np.uint64(obs[O.PLAYED + 1]) \
        | np.uint64(obs[O.FACE_UP_CARDS])
    free = np.uint64(obs[O.OPP_FREE])
    return free, FULL & ~seen


@numba.njit(cache=True)
def _void_chance(unseen, of_suit, hand):
    """Chance that ``hand`` cards drawn from ``unseen`` hold none of the ``of_suit`` ones."""
    p = 1.0
    for i in range(hand):
        if unseen - i <= 0:
            break
        p *= max(unseen - of_suit - i, 0) / (unseen - i)
    return p


@numba.njit(cache=True)
def _cheapest_trump_strength(legal, first, equal_rule):
    """Strength of the weakest card of ``legal`` that beats ``first`` (0: none)."""
    best = 0
    m = np.uint64(legal)
    while m:
        c = lsb(m)
        m &= m - ONE
        if _beats(first, c, equal_rule) and (best == 0 or STRENGTH[c] < best):
            best = STRENGTH[c]
    return best


@numba.njit(cache=True)
def play(obs):
    """The card to play: the legal card with the best score."""
    legal = np.uint64(obs[O.LEGAL])
    equal_rule = obs[O.EQUAL_CARDS]
    trick_no = obs[O.TRICK_NO]
    best = -1
    best_score = -1e9
    if obs[O.TRICK_N] == 1:
        first = obs[O.TRICK_CARD]
        cheapest = _cheapest_trump_strength(legal, first, equal_rule)
        m = legal
        while m:
            c = lsb(m)
            m &= m - ONE
            score = FREE_VALUE * _freed(obs, c)
            if _beats(first, c, equal_rule):
                points = POINTS[first] + POINTS[c]
                score += points + B_EVENT_VALUE * _events(first, c, c, first, trick_no)
                score -= HIGH_TRUMP_COST * (STRENGTH[c] - cheapest)
                if KIND[c] == FOX_KIND and trick_no < 19:
                    score -= 4.0  # the fox is worth more at the pin
            else:
                points = POINTS[first] + POINTS[c]
                score -= points + B_EVENT_VALUE * _events(first, c, first, c, trick_no)
                score -= 0.05 * STRENGTH[c]
            if score > best_score:
                best, best_score = c, score
        return best
    # leading: will the opponent beat it? He must follow with a free pyramid card or a
    # hand card of the suit if he has one; only a void lets him trump a plain card.
    free, unseen = _opponent_cards(obs)
    theirs = free | unseen
    hand_left = TRICKS_PER_PLAYER - trick_no - popcount(obs[O.OPP_PRESENT])
    top = np.zeros(5, np.int64)
    kinds = np.uint64(0)
    rest = theirs
    while rest:
        o = lsb(rest)
        rest &= rest - ONE
        e = EFF[o]
        if STRENGTH[o] > top[e]:
            top[e] = STRENGTH[o]
        kinds |= ONE << np.uint64(KIND[o])
    m = legal
    while m:
        c = lsb(m)
        m &= m - ONE
        e = EFF[c]
        if e == TRUMP:
            beaten = top[TRUMP] > STRENGTH[c]
        else:
            beaten = top[e] > STRENGTH[c]
            if not beaten and top[TRUMP] > 0 and not (free & np.uint64(SUIT_MASKS[e])):
                beaten = _void_chance(popcount(unseen), popcount(unseen & np.uint64(SUIT_MASKS[e])),
                                      hand_left) > VOID_RISK
        if (kinds >> np.uint64(KIND[c])) & ONE and (
                equal_rule == 1 or (equal_rule == 2 and KIND[c] == HEART_TEN_KIND)):
            beaten = True
        score = FREE_VALUE * _freed(obs, c)
        if not beaten:
            score += LIKELY_WIN * (POINTS[c] + 4.0)
            if KIND[c] == CHARLIE_KIND:
                score += B_EVENT_VALUE
            if trick_no == 19 and KIND[c] == FOX_KIND:
                score += B_EVENT_VALUE
        else:
            score -= POINTS[c] + (FOX_RISK if KIND[c] == FOX_KIND else 0.0)
            score -= 0.1 * STRENGTH[c] if EFF[c] == TRUMP else 0.0
        if score > best_score:
            best, best_score = c, score
    return best

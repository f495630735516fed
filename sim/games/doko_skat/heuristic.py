"""A card player's heuristic for Doko-Skat (``doko_skat``).

It decides from what its seat sees (``observation``), with tables worked out once per
game type so that a decision costs a few mask operations:

* **Partners.** In the main game the teams are known. In the first round it works out
  what the played copies of the turned-up card tell: holding both copies makes it the
  lone player; its copy and one played by another make that player its partner; two
  copies played by the two others make it the lone player. Under ``team_cards = won``
  the copies taken tell it the same way (``_taken_partner``), and a trick that holds a
  copy, or may take its own, is fought for as one with ten points in it: who takes it
  settles the teams. Anyone it cannot place yet counts as an opponent, so it fights for
  the first-round tricks (two of them give its side the first say in the declaration).
* **Following.** A partner's card that nothing unseen can beat (or the last card of the
  trick) gets points smeared on it; otherwise the cheapest card goes. Against an
  opponent's card it wins with the cheapest card that wins when it plays last, with the
  cheapest card no unseen card can beat when an opponent plays after it, and throws its
  cheapest card when it cannot win. In a first round whose points do not count
  (``first_round_points`` false) only the tricks matter, so the weakest card that does
  the job goes.
* **Leading.** A trump that no unseen trump beats when its side holds at least half the
  trumps still out, else a plain card nothing unseen beats in a suit no opponent is known
  to lack, else its cheapest card from its shortest plain suit.
* **Declaration.** Each of the nine games gets a hand value: its trumps weighted by rank
  (``TRUMP_TOP`` at the top down to 1), plain aces and second-ranked cards, over the
  lone player's 12 best of 15 cards; the margin over a fair share of the cards still in
  play picks the game. It names that game when an opponent would speak next (passing
  hands him the choice), and otherwise only with a margin of at least ``MIN_MARGIN``.
* **Discards.** One card at a time, the best-scoring first: a plain card scores its
  points (banked for its side), plus 4 less its suit's length, plus 5 for a suit's last
  card (a void to trump in), less 14 for a suit's top card (it wins a trick of its own)
  or 3 for the second-ranked one; a trump goes only when nothing else is left.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import lsb, popcount
from sim.games.doko_skat.observation import FIELDS as O
from sim.games.doko_skat.observation import PH_FIRST_ROUND, PH_PLAY
from sim.games.doko_skat.values import (
    DECK,
    EFF,
    N_GAMES,
    N_KINDS,
    N_TABLES,
    POINTS,
    STRENGTH,
    SUIT_MASKS,
    TEAMS_BY_WON,
    TOP_KINDS,
    TOP_N,
    TRUMP_MASK,
    copies,
    table_of,
)
from sim.tricks import TRUMP, beats

ONE = np.uint64(1)
FULL = np.uint64((1 << DECK.n_cards) - 1)
TRUMP_TOP = 3.0
"""Declaration weight of the highest trump; the lowest weighs 1."""
PLAIN_TOP = 1.5
PLAIN_SECOND = 0.3
"""Declaration weight of a plain suit's top card and its second-ranked card."""
MIN_MARGIN = 0.0
"""Smallest hand-value margin over a fair share with which it names a game when passing
would not hand the choice to an opponent (its partner or the redeal comes next)."""
POOL = 39.0
"""Cards the main game's hands and discards draw on: 48 less the 9 first-round cards."""


def _tables() -> tuple[np.ndarray, ...]:
    """Per table and card: the stronger cards of its effective suit, play keys, weights."""
    n = DECK.n_cards
    above = np.zeros((N_TABLES, n), np.uint64)
    throw = np.zeros((N_TABLES, n), np.int64)
    win = np.zeros((N_TABLES, n), np.int64)
    smear = np.zeros((N_TABLES, n), np.int64)
    weight = np.zeros((N_TABLES, n), np.float64)
    for t in range(N_TABLES):
        top_rank = {int(TOP_KINDS[t, k]): k for k in range(TOP_N[t])}
        for c in range(n):
            trump = EFF[t, c] == TRUMP
            s = int(STRENGTH[t, c])
            for o in range(n):
                if EFF[t, o] == EFF[t, c] and STRENGTH[t, o] > s:
                    above[t, c] |= np.uint64(1 << o)
            throw[t, c] = POINTS[c] * 10 + ((300 + (s - 100) * 10) if trump else s)
            win[t, c] = ((s - 100) * 16 + 200 if trump else 0) - POINTS[c]
            smear[t, c] = POINTS[c] * 16 - ((s - 100) * 4 + 40 if trump else 0)
            if trump:
                r = top_rank[c % N_KINDS]
                weight[t, c] = 1.0 + (TRUMP_TOP - 1.0) * (TOP_N[t] - 1 - r) / max(TOP_N[t] - 1, 1)
            else:
                top = max(int(STRENGTH[t, o]) for o in range(n) if EFF[t, o] == EFF[t, c])
                weight[t, c] = PLAIN_TOP if s == top else PLAIN_SECOND if s == top - 1 else 0.0
    return above, throw, win, smear, weight


ABOVE, THROW_KEY, WIN_KEY, SMEAR_KEY, WEIGHT = _tables()
"""``ABOVE[t, c]``: cards of ``c``'s effective suit that beat it; keys to pick the card to
throw (lowest), to win with (lowest), to smear (highest); ``WEIGHT[t, c]``: declaration
weight."""
TOTAL_WEIGHT = WEIGHT.sum(axis=1)
WEAK_FIRST = STRENGTH.astype(np.int64)
WEAK_LAST = -WEAK_FIRST
"""Keys for first-round tricks whose points do not count: only winning them matters, so
the weakest card goes whether it is thrown, smeared or wins."""


@numba.njit(cache=True, inline="always")
def _lowest(mask, keys):
    """The card of the non-empty ``mask`` with the smallest key."""
    best = -1
    best_key = 1 << 40
    m = mask
    while m:
        c = lsb(m)
        m &= m - ONE
        if keys[c] < best_key:
            best, best_key = c, keys[c]
    return best


@numba.njit(cache=True, inline="always")
def _highest(mask, keys):
    """The card of the non-empty ``mask`` with the largest key."""
    best = -1
    best_key = -(1 << 40)
    m = mask
    while m:
        c = lsb(m)
        m &= m - ONE
        if keys[c] > best_key:
            best, best_key = c, keys[c]
    return best


@numba.njit(cache=True)
def first_round_partner(obs):
    """``(partner, lone)`` as far as the first round's cards tell: the partner's seat (-1:
    none or not known yet) and whether this seat is surely the lone player."""
    if obs[O.TEAM_CARDS] == TEAMS_BY_WON:
        return _taken_partner(obs)
    me = obs[O.SEAT]
    both = copies(obs[O.TURNED_UP])
    mine = popcount((np.uint64(obs[O.HAND]) | np.uint64(obs[O.FR_PLAYED + me])) & both)
    if mine == 2:
        return -1, True
    shown = -1
    n_shown = 0
    for s in range(3):
        if s != me and np.uint64(obs[O.FR_PLAYED + s]) & both:
            shown = s
            n_shown += 1
    if mine == 1 and n_shown == 1:
        return shown, False
    if n_shown == 2:
        return -1, True
    return -1, False


@numba.njit(cache=True)
def _taken_partner(obs):
    """``first_round_partner`` under ``team_cards = won``, from the copies each seat has
    taken: its copy and another's make that player its partner, both copies taken by one
    player make him the lone player (and the other two partners), two taken by the others
    make this seat the lone player."""
    me = obs[O.SEAT]
    mine = obs[O.FR_COPIES + me]
    if mine == 2:
        return -1, True
    for k in range(1, 3):
        s = (me + k) % 3
        if obs[O.FR_COPIES + s] == 2:
            return 3 - me - s, False
        if obs[O.FR_COPIES + s] == 1 and (mine == 1 or obs[O.FR_COPIES + 3 - me - s] == 1):
            return (s, False) if mine == 1 else (-1, True)
    return -1, False


@numba.njit(cache=True, inline="always")
def _team_trick(obs, legal):
    """Whether the trick in play decides the teams under ``team_cards = won``: it holds a
    copy of the turned-up card, or this seat may put one in."""
    if obs[O.TEAM_CARDS] != TEAMS_BY_WON or obs[O.PHASE] != PH_FIRST_ROUND:
        return False
    both = copies(obs[O.TURNED_UP])
    if legal & both:
        return True
    for k in range(obs[O.TRICK_N]):
        if obs[O.TRICK_CARD + k] % N_KINDS == obs[O.TURNED_UP]:
            return True
    return False


@numba.njit(cache=True, inline="always")
def _partner(obs):
    """This seat's partner (-1: none or not known)."""
    lone = obs[O.LONE]
    me = obs[O.SEAT]
    if lone < 0:
        return first_round_partner(obs)[0]
    if lone == me:
        return -1
    return 3 - me - lone


@numba.njit(cache=True, inline="always")
def _unseen(obs):
    """Cards this seat has not seen and that may still be played in this round."""
    if obs[O.PHASE] == PH_FIRST_ROUND:
        seen = np.uint64(obs[O.FR_PLAYED]) | np.uint64(obs[O.FR_PLAYED + 1]) \
            | np.uint64(obs[O.FR_PLAYED + 2])
    else:
        seen = np.uint64(obs[O.PLAYED]) | np.uint64(obs[O.PLAYED + 1]) | np.uint64(obs[O.PLAYED + 2]) \
            | np.uint64(obs[O.OUT]) | np.uint64(obs[O.DISCARDED])
    return FULL & ~(seen | np.uint64(obs[O.HAND]))


@numba.njit(cache=True)
def play(obs):
    """The card to play, one of ``obs[LEGAL]``."""
    legal = np.uint64(obs[O.LEGAL])
    if (legal & (legal - ONE)) == 0:
        return lsb(legal)
    t = obs[O.FR_TABLE] if obs[O.PHASE] == PH_FIRST_ROUND else obs[O.TABLE]
    me = obs[O.SEAT]
    partner = _partner(obs)
    unseen = _unseen(obs)
    n = obs[O.TRICK_N]
    nxt = (me + 1) % 3
    main = obs[O.PHASE] == PH_PLAY
    if main or obs[O.COUNT_FIRST_ROUND]:
        throw, win, smear = THROW_KEY[t], WIN_KEY[t], SMEAR_KEY[t]
    else:
        throw, win, smear = WEAK_FIRST[t], WEAK_FIRST[t], WEAK_LAST[t]
    if n == 0:
        return _lead(obs, legal, t, me, partner, unseen, main, throw, smear)
    leader = obs[O.TRICK_LEADER]
    best = obs[O.TRICK_CARD]
    best_seat = leader
    led = EFF[t, best]
    if n == 2:
        second = obs[O.TRICK_CARD + 1]
        if beats(second, best, led, EFF[t], STRENGTH[t]):
            best = second
            best_seat = (leader + 1) % 3
    last = n == 2
    if best_seat == partner:
        if last or _safe(obs, best, t, unseen, nxt, led, main):
            return _highest(legal, smear)
        return _lowest(legal, throw)
    winners = legal & ABOVE[t, best]
    if EFF[t, best] != TRUMP:
        winners |= legal & TRUMP_MASK[t]
    if winners:
        if last:
            return _lowest(winners, win)
        safe = np.uint64(0)
        m = winners
        while m:
            c = lsb(m)
            m &= m - ONE
            if _safe(obs, c, t, unseen, nxt, led, main):
                safe |= ONE << np.uint64(c)
        if safe:
            return _lowest(safe, win)
        if nxt != partner and (POINTS[best] >= 10 or _team_trick(obs, legal)):
            return _highest(winners, win)
    return _lowest(legal, throw)


@numba.njit(cache=True, inline="always")
def _safe(obs, card, t, unseen, nxt, led, main):
    """Whether ``card`` (best in the trick so far) stays best against the player after this
    seat: no unseen card of its effective suit beats it, and for a plain card that player is
    not known to lack the led suit while trumps are still out."""
    if unseen & ABOVE[t, card]:
        return False
    if EFF[t, card] == TRUMP:
        return True
    if not unseen & TRUMP_MASK[t]:
        return True
    if main and (obs[O.VOIDS + nxt] >> led) & 1:
        return False
    return popcount(unseen & SUIT_MASKS[t, led]) >= 2


@numba.njit(cache=True)
def _lead(obs, legal, t, me, partner, unseen, main, throw, smear):
    """The card to open a trick with."""
    trumps = legal & TRUMP_MASK[t]
    out_trumps = unseen & TRUMP_MASK[t]
    if trumps:
        top = _highest(trumps, STRENGTH[t])
        if not unseen & ABOVE[t, top] and (not main or 2 * popcount(trumps) >= popcount(out_trumps)):
            return top
    plain = legal & ~TRUMP_MASK[t]
    sure = np.uint64(0)
    m = plain
    while m:
        c = lsb(m)
        m &= m - ONE
        e = EFF[t, c]
        if unseen & ABOVE[t, c]:
            continue
        lacking = False
        if main:
            for s in range(3):
                if s != me and s != partner and (obs[O.VOIDS + s] >> e) & 1:
                    lacking = True
        if not lacking and (not out_trumps or popcount(unseen & SUIT_MASKS[t, e]) >= 3):
            sure |= ONE << np.uint64(c)
    if sure:
        return _highest(sure, smear)
    if plain:
        short = np.uint64(0)
        shortest = 99
        for e in range(4):
            mine = plain & SUIT_MASKS[t, e]
            k = popcount(mine)
            if k and k < shortest:
                short, shortest = mine, k
        return _lowest(short, throw)
    return _lowest(legal, throw)


@numba.njit(cache=True)
def hand_margin(cards, keep, t, out):
    """Hand value of the ``keep`` best of ``cards`` (at most 3 more) in table ``t`` less a
    fair share: ``keep`` cards' worth of the weight still in play (all but ``out``)."""
    w = WEIGHT[t]
    total = 0.0
    low0 = low1 = low2 = 1e9  # the three lowest weights, in case some are discarded
    m = np.uint64(cards)
    while m:
        c = lsb(m)
        m &= m - ONE
        x = w[c]
        total += x
        if x < low2:
            if x < low1:
                low2 = low1
                if x < low0:
                    low1, low0 = low0, x
                else:
                    low1 = x
            else:
                low2 = x
    extra = popcount(cards) - keep
    total -= (low0 if extra > 0 else 0.0) + (low1 if extra > 1 else 0.0) + (low2 if extra > 2 else 0.0)
    pool = TOTAL_WEIGHT[t]
    m = np.uint64(out)
    while m:
        c = lsb(m)
        m &= m - ONE
        pool -= w[c]
    return total - pool * keep / POOL


@numba.njit(cache=True)
def game_margin(obs, game):
    """How far the seat's hand (its best twelve) is above a fair share in ``game``."""
    out = obs[O.FR_PLAYED] | obs[O.FR_PLAYED + 1] | obs[O.FR_PLAYED + 2]
    return hand_margin(np.uint64(obs[O.HAND]), 12, table_of(game, obs[O.BRIDGE_SKAT]), out)


@numba.njit(cache=True)
def declare(obs, banned):
    """A game code to name, or -1 to pass; never a game the ``banned`` mask holds (bit ``g``
    for game code ``g``: a restricted heuristic, ``sim.engine.restricted_player``)."""
    best = -1
    best_margin = -1e9
    for g in range(N_GAMES):
        if (banned >> g) & 1:
            continue
        margin = game_margin(obs, g)
        if margin > best_margin:
            best, best_margin = g, margin
    nxt = obs[O.NEXT_SPEAKER]
    me = obs[O.SEAT]
    lone = obs[O.LONE]
    opponent_next = nxt >= 0 and (nxt == lone or me == lone)
    if opponent_next or best_margin >= MIN_MARGIN:
        return best
    return -1


@numba.njit(cache=True)
def discard(obs):
    """The ``obs[N_DISCARD]`` cards to put away: full cards of short plain suits first."""
    t = obs[O.TABLE]
    hand = np.uint64(obs[O.HAND])
    chosen = np.uint64(0)
    for _ in range(obs[O.N_DISCARD]):
        rest = hand & ~chosen
        best = -1
        best_score = -1e9
        m = rest
        while m:
            c = lsb(m)
            m &= m - ONE
            if EFF[t, c] == TRUMP:
                score = -100.0 - STRENGTH[t, c]
            else:
                suit = rest & SUIT_MASKS[t, EFF[t, c]]
                length = popcount(suit)
                score = POINTS[c] + 4.0 - length + (5.0 if length == 1 else 0.0)
                if WEIGHT[t, c] >= PLAIN_TOP:
                    score -= 14.0  # a top card: it wins a trick of its own
                elif WEIGHT[t, c] > 0.0:
                    score -= 3.0
            if score > best_score:
                best, best_score = c, score
        chosen |= ONE << np.uint64(best)
    return chosen

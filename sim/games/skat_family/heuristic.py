"""A club player's heuristic for Skat (``skat``; ``skat_en_deux`` reuses the card play).

Every function takes the seat's observation (``sim.games.skat_family.observation``) and nothing
else; the bidding and the game choice also take a mask of the games a restricted heuristic may
not declare (``NO_HAND``; 0 for the plain heuristic). The rules of thumb, documented in
``docs/skat.md``:

Hand evaluation
    A suit game counts trumps (jacks and the trump suit), the top jacks, side
    aces, tens guarded by their ace, and voids; a grand counts jacks, aces,
    guarded tens and long stood suits, and wants CJ or SJ and forehand's lead
    when weak; a null counts the suits whose low cards keep the declarer safe.
    A game is playable above a strength threshold.
Bidding
    Bid or hold up to the value of the best playable game: base value times
    (matadors of the ten cards + 1); a null game up to 23 (46 ouvert when safe).
Skat, discard, declaration
    Pick up unless the hand is far above the threshold. For every game, discard
    the two cards that are least worth keeping (blank tens first, singletons
    that leave a void, never an ace or trump when avoidable), then declare the
    strongest game whose value reaches the bid.
Card play
    The declarer draws trumps with his boss trumps while the defence may hold
    trumps, then cashes boss side cards, then leads low from long suits. The
    defenders cash aces, lead through or up to the declarer, make him trump,
    give points to a partner's sure trick ("schmieren") and otherwise keep
    their points. Every player wins cheaply when he is last or holds the boss,
    and throws his least useful card when he cannot win. Null: the declarer
    ducks with his highest card that still loses, the defenders play low under
    him and lead his weak suits. Ramsch: duck with the highest card that loses,
    shed points onto other players' tricks, and take forced tricks with high cards;
    where the skat goes to the loser, lead with the Jungfrau in mind (``_jungfrau_cost``).
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import bit, lsb, popcount
from sim.games.skat_family.observation import DECL_OPEN_SHIFT, DECL_OUVERT, DECL_SCHNEIDER, PH_FH18, PH_PICKUP
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.values import (
    BASE,
    CLUBS,
    EFF,
    GRAND,
    NULL,
    POINTS,
    RAMSCH,
    STRENGTH,
    SUIT_MASKS,
    matadors,
    null_value,
)
from sim.tricks import TRUMP, beats

ONE = np.uint64(1)
ZERO = np.uint64(0)
JACK_MASK = np.uint64((1 << 4) | (1 << 12) | (1 << 20) | (1 << 28))
ACE_RANK, TEN_RANK, KING_RANK = 0, 1, 2
FULL = np.uint64(0xFFFFFFFF)

SUIT_THRESHOLD = 5.8
"""Suit-game strength at which the win chance is ``win_chance(0)``."""
GRAND_THRESHOLD = 3.8
"""Grand strength at which the win chance is ``win_chance(0)``."""
NULL_SAFE_MARGIN = 1.5
"""Margin of a null hand whose every suit is safe; each unsafe suit costs NULL_UNSAFE_COST."""
NULL_UNSAFE_COST = 2.5
CHANCE_AT_THRESHOLD = 0.35
CHANCE_SLOPE = 0.85
"""Win chance model: logistic in the margin, fitted to heuristic-vs-heuristic play."""
BID_CHANCE = 0.72
"""Win chance (counting the skat's hope) a bidder wants before he bids a game."""
SKAT_HOPE = 0.8
"""Strength the skat is expected to add to a hand that picks it up."""
OPEN_RISK = np.array([0.0, 0.06, 0.12])
"""Win chance a game gives away by being played einmal / zweimal offen (skat_en_deux)."""
WIN_BONUS = 100.0
"""Bonus a club player counts for a won game (and against a lost one) when choosing."""
HAND_MARGIN = 3.0
"""How far above the threshold a hand must be to be played without the skat."""
ANNOUNCE_MARGIN = 3.0
"""Further margin before a hand game announces Schneider (with announcements on)."""
NO_HAND = 1 << 6
"""The bit of a ``banned`` mask that forbids hand games (bits 0-5 forbid the game of that
code): the bidding and game choice of a restricted heuristic (``restricted:heuristic:no_grand``,
``sim.engine.restricted_player``) leave those out, as a player who may not play them would."""


@numba.njit(cache=True, inline="always")
def _banned(banned, game):
    """Whether the ``banned`` mask forbids ``game``."""
    return (banned >> game) & 1 == 1


@numba.njit(cache=True, inline="always")
def _card(suit, rank):
    return suit * 8 + rank


@numba.njit(cache=True, inline="always")
def _has(mask, card):
    return (np.uint64(mask) >> np.uint64(card)) & ONE


@numba.njit(cache=True, inline="always")
def _plain(hand, suit):
    """Cards of a printed suit without its jack."""
    return np.uint64(hand) & (np.uint64(0xFF) << np.uint64(8 * suit)) & ~JACK_MASK


# --- hand evaluation -------------------------------------------------------------------------

@numba.njit(cache=True)
def _side_strength(hand, suit, grand):
    """Tricks a side suit is worth: aces, tens behind their ace, long stood suits, voids."""
    cards = _plain(hand, suit)
    n = popcount(cards)
    if n == 0:
        return 0.0 if grand else 0.6
    s = 0.0
    ace = _has(cards, _card(suit, ACE_RANK))
    ten = _has(cards, _card(suit, TEN_RANK))
    king = _has(cards, _card(suit, KING_RANK))
    if ace:
        s += 1.0
        if ten:
            s += 0.9
            if king and n >= 4:
                s += 0.6
        elif n >= 5:
            s += 0.4
    elif ten and n >= 2:
        s += 0.3 if king else 0.15
    # losers: low cards that will cost a trick
    losers = n - (1 if ace else 0) - (1 if (ace and ten) else 0)
    if losers > 2:
        losers = 2
    if grand:
        s -= 0.45 * losers
    else:
        s -= 0.3 * losers
    if n == 1 and not ace:
        s += 0.2  # a singleton soon becomes a void
    return s


@numba.njit(cache=True)
def suit_strength(hand, trump, forehand):
    """Strength of ``hand`` for a suit game in ``trump`` (comparable with SUIT_THRESHOLD)."""
    trumps = np.uint64(hand) & np.uint64(SUIT_MASKS[trump, TRUMP])
    n = popcount(trumps)
    s = 1.0 * n
    s += 0.8 * _has(hand, 4) + 0.5 * _has(hand, 12) + 0.25 * _has(hand, 20)
    s += 0.4 * _has(hand, _card(trump, ACE_RANK)) + 0.25 * _has(hand, _card(trump, TEN_RANK))
    for suit in range(4):
        if suit != trump:
            s += _side_strength(hand, suit, False)
    if forehand:
        s += 0.3
    if n <= 4:
        s -= 1.5 if n == 4 else 3.0  # club players want five trumps
    return s


@numba.njit(cache=True)
def grand_strength(hand, forehand):
    """Strength of ``hand`` for a grand (comparable with GRAND_THRESHOLD)."""
    jacks = popcount(np.uint64(hand) & JACK_MASK)
    s = 1.4 * jacks + 0.6 * _has(hand, 4) + 0.3 * _has(hand, 12)
    for suit in range(4):
        s += 1.2 * _side_strength(hand, suit, True)
    if forehand:
        s += 0.8
    if jacks <= 1:
        s -= 1.5
    if not (_has(hand, 4) or _has(hand, 12)):
        s -= 1.0
    return s


NULL_LOW_TO_RANK = np.array([7, 6, 5, 1, 4, 3, 2, 0], np.int64)
"""Rank index of the null order from the bottom: 7 8 9 T J Q K A."""


@numba.njit(cache=True)
def null_risk(hand):
    """Number of unsafe suits of ``hand`` in a null game.

    A suit is safe when its ``k``-th lowest card (null order 7 8 9 T J Q K A,
    counting from 0) is at most ``2k + 1`` ranks above the seven: the defenders
    then rarely force the declarer above them (a blank eight loses only when the
    seven is led and the third player cannot follow).
    """
    unsafe = 0
    for suit in range(4):
        k = 0
        bad = False
        for low in range(8):
            if _has(hand, _card(suit, NULL_LOW_TO_RANK[low])):
                if low > 2 * k + 1:
                    bad = True
                k += 1
        if bad:
            unsafe += 1
    return unsafe


@numba.njit(cache=True)
def win_chance(margin):
    """Estimated chance to win a game whose strength is ``margin`` above its threshold."""
    return 1.0 / (1.0 + np.exp(-(CHANCE_AT_THRESHOLD + CHANCE_SLOPE * margin)))


@numba.njit(cache=True)
def expected_score(value, chance):
    """What a club player expects from a game: won +value, lost -2 value, and the
    Seeger-Fabian list's +-WIN_BONUS for a won or lost game, which makes him
    prefer the safer of two games."""
    return value * (3.0 * chance - 1.0) + WIN_BONUS * (2.0 * chance - 1.0)


@numba.njit(cache=True)
def margin_of(hand, game, forehand):
    """Strength of ``hand`` (10 cards) for ``game`` minus that game's threshold."""
    if game == GRAND:
        return grand_strength(hand, forehand) - GRAND_THRESHOLD
    if game == NULL:
        unsafe = null_risk(hand)
        return NULL_SAFE_MARGIN if unsafe == 0 else NULL_SAFE_MARGIN - NULL_UNSAFE_COST * unsafe
    return suit_strength(hand, game, forehand) - SUIT_THRESHOLD


@numba.njit(cache=True)
def _value(hand, game, hand_game, ouvert):
    """Game value of ``game`` counting matadors on ``hand`` and no Schneider."""
    if game == NULL:
        return null_value(hand_game, ouvert)
    return BASE[game] * (abs(matadors(hand, game)) + 1 + hand_game)


@numba.njit(cache=True)
def _best_open_level(cards, game, hand_game, chance, max_open, bid):
    """The open level (0 .. ``max_open``) of a suit game or grand with the best expected
    score whose value reaches ``bid``: ``(level, value, score)``, level -1 if none does.

    Playing open gives the defence sight of the declarer's cards: each level costs
    ``OPEN_RISK[level]`` of win chance."""
    levels = abs(matadors(cards, game)) + 1 + hand_game
    best = -1
    best_value = 0
    best_ev = -1e9
    for level in range(max_open + 1):
        value = BASE[game] * (levels + level)
        if value < bid:
            continue
        ev = expected_score(value, max(chance - OPEN_RISK[level], 0.0))
        if ev > best_ev:
            best, best_value, best_ev = level, value, ev
    return best, best_value, best_ev


@numba.njit(cache=True)
def _bid_limit(obs, banned):
    """The highest value this hand would play for: the value of the game with the best
    expected score among those it expects to win often enough (and ``banned`` allows).

    The skat still to come is worth ``SKAT_HOPE`` of strength; a hand far above
    its threshold counts the hand level too.
    """
    hand = np.uint64(obs[O.HAND])
    forehand = obs[O.POSITION] == 0
    limit = 0
    best_ev = -1e9
    for game in range(6):
        if _banned(banned, game):
            continue
        if game == NULL:
            # the skat and the discard can take away the two most dangerous cards
            m = margin_of(hand & ~discard_for(hand, NULL), NULL, forehand)
        else:
            m = margin_of(hand, game, forehand) + SKAT_HOPE
        chance = win_chance(m)
        if chance < BID_CHANCE:
            continue
        if game == NULL:
            v = _value(hand, game, 0, 0)
            ev = expected_score(v, chance)
        else:
            hand_game = 1 if m >= HAND_MARGIN + SKAT_HOPE and not banned & NO_HAND else 0
            _, v, ev = _best_open_level(hand, game, hand_game, chance,
                                        0 if hand_game else obs[O.MAX_OPEN], 0)
        if ev > best_ev:
            limit, best_ev = v, ev
    return limit


@numba.njit(cache=True)
def bid(obs, values, banned):
    """Bid the next value while it stays within the hand's limit (the games ``banned``
    forbids left out)."""
    nxt = obs[O.NEXT_BID]
    if nxt and nxt <= _bid_limit(obs, banned):
        return nxt
    return 0


@numba.njit(cache=True)
def best_hand_game(hand, bid, forehand, max_open, banned=0):
    """The hand game (no skat) with the best expected score reaching ``bid``:
    ``(game, open level, score)``, game -1 if none reaches it (or ``banned`` forbids hand
    games)."""
    best = -1
    best_level = 0
    best_ev = -1e9
    for game in range(6):
        if _banned(banned, game) or banned & NO_HAND:
            continue
        chance = win_chance(margin_of(hand, game, forehand))
        if game == NULL:
            level = 0 if _value(hand, game, 1, 0) >= bid else -1
            ev = expected_score(_value(hand, game, 1, 0), chance)
        else:
            level, _, ev = _best_open_level(hand, game, 1, chance, max_open, bid)
        if level >= 0 and ev > best_ev:
            best, best_level, best_ev = game, level, ev
    return best, best_level, best_ev


@numba.njit(cache=True)
def yes(obs, banned):
    """Hold a bid, take 18 after two passes, or pick up the skat (the games ``banned``
    forbids left out)."""
    phase = obs[O.PHASE]
    if phase == PH_PICKUP:
        hand = np.uint64(obs[O.HAND])
        forehand = obs[O.POSITION] == 0
        game, _, _ = best_hand_game(hand, obs[O.BID], forehand, 0, banned)
        return game < 0 or margin_of(hand, game, forehand) < HAND_MARGIN
    limit = _bid_limit(obs, banned)
    if phase == PH_FH18:
        return 18 <= limit
    return obs[O.BID] <= limit


# --- skat: discard and declaration ------------------------------------------------------------

@numba.njit(cache=True)
def _keep_value(hand, card, game):
    """How much the declarer wants to keep ``card`` in ``game`` (lowest goes to the skat)."""
    if game == NULL:
        return -_null_danger(hand, card)
    if EFF[game, card] == TRUMP:
        return 100.0 + STRENGTH[game, card]
    suit = card // 8
    rank = card % 8
    cards = _plain(hand, suit)
    n = popcount(cards)
    ace = _has(cards, _card(suit, ACE_RANK))
    if rank == ACE_RANK:
        return 50.0 - n
    if rank == TEN_RANK:
        if ace:
            return 40.0
        return 2.0 - 4.0 * (n <= 2)  # a blank ten counts safely in the skat
    v = 10.0 + 2 * n - POINTS[card] * 0.5
    if n <= 2 and not ace:
        v -= 6.0  # towards a void
    return v - (7 - rank) * 0.1


@numba.njit(cache=True)
def _null_danger(hand, card):
    """How dangerous ``card`` is in a null game: its rank gap above what protects it."""
    suit = card // 8
    k = 0
    for low in range(8):
        c = _card(suit, NULL_LOW_TO_RANK[low])
        if c == card:
            return float(low - 2 * k - 1) + low * 0.01
        if _has(hand, c):
            k += 1
    return 0.0


@numba.njit(cache=True)
def discard_for(hand, game):
    """The two cards worth least to keep in ``game``."""
    return least_kept(hand, game, 2)


@numba.njit(cache=True)
def least_kept(hand, game, k):
    """The ``k`` cards of ``hand`` worth least to keep in ``game`` (a mask; equal worth: the
    lower card first)."""
    chosen = ZERO
    for _ in range(k):
        best = -1
        v_best = 1e9
        m = np.uint64(hand) & ~chosen
        while m:
            c = lsb(m)
            m &= m - ONE
            v = _keep_value(hand, c, game)
            if v < v_best:
                best, v_best = c, v
        chosen |= bit(best)
    return chosen


@numba.njit(cache=True)
def choose_game(hand12, bid, forehand, max_open, banned=0):
    """Game, discard and open level for a 12-card hand: the best expected score among
    games reaching ``bid`` (of those ``banned`` allows).

    Matadors count all twelve cards. When no game reaches the bid, the dearest
    one is declared (it will be lost as overbid).
    """
    best = -1
    best_put = ZERO
    best_level = 0
    best_ev = -1e9
    fallback = GRAND if not _banned(banned, GRAND) else CLUBS
    fallback_value = -1
    for game in range(6):
        if _banned(banned, game):
            continue
        put = discard_for(hand12, game)
        chance = win_chance(margin_of(hand12 & ~put, game, forehand))
        if game == NULL:
            value = _value(hand12, game, 0, 0)
            level = 0 if value >= bid else -1
            ev = expected_score(value, chance)
        else:
            level, value, ev = _best_open_level(hand12, game, 0, chance, max_open, bid)
            if level < 0:
                value = BASE[game] * (abs(matadors(hand12, game)) + 1 + max_open)
        if level < 0:
            if value > fallback_value:
                fallback, fallback_value = game, value
            continue
        if ev > best_ev:
            best, best_put, best_level, best_ev = game, put, level, ev
    if best < 0:
        return fallback, discard_for(hand12, fallback), 0 if fallback == NULL else max_open
    return best, best_put, best_level


@numba.njit(cache=True)
def discard(obs, banned):
    """Put away the two cards of the game about to be declared."""
    game, put, level = choose_game(np.uint64(obs[O.HAND]), obs[O.BID], obs[O.POSITION] == 0,
                                   obs[O.MAX_OPEN], banned)
    return np.int64(put)


@numba.njit(cache=True)
def declare(obs, announce, banned):
    """Declare the game with the best expected score whose value reaches the bid (of those
    ``banned`` allows)."""
    hand = np.uint64(obs[O.HAND])
    bid = obs[O.BID]
    forehand = obs[O.POSITION] == 0
    if obs[O.HAND_GAME]:
        game, level, ev = best_hand_game(hand, bid, forehand, obs[O.MAX_OPEN], banned & ~NO_HAND)
        if game < 0 and not _banned(banned, GRAND):
            return GRAND | (obs[O.MAX_OPEN] << DECL_OPEN_SHIFT)
        if game < 0:  # the dearest game allowed, lost as overbid
            game, _, level = choose_game(hand, 1 << 20, forehand, obs[O.MAX_OPEN], banned)
        if game == NULL:
            if _null_ouvert_safe(hand) and null_value(1, 1) >= bid:
                return NULL | DECL_OUVERT
            return NULL
        if announce and margin_of(hand, game, forehand) >= HAND_MARGIN + ANNOUNCE_MARGIN:
            return game | DECL_SCHNEIDER
        return game | (level << DECL_OPEN_SHIFT)
    # after pickup the discard was chosen for the same game; recover it from the hand
    game, _, level = choose_game(hand | np.uint64(obs[O.SKAT]), bid, forehand, obs[O.MAX_OPEN],
                                 banned)
    if game == NULL:
        if _null_ouvert_safe(hand) and null_value(0, 1) >= bid:
            return NULL | DECL_OUVERT
        return NULL
    return game | (level << DECL_OPEN_SHIFT)


@numba.njit(cache=True)
def _null_ouvert_safe(hand):
    """A null hand safe even with its cards open: safe suits, each holding its seven."""
    if null_risk(hand) != 0:
        return False
    for suit in range(4):
        if _plain(hand, suit) | (np.uint64(hand) & bit(_card(suit, 4))):
            if not _has(hand, _card(suit, 7)):
                return False
    return True


# --- card play --------------------------------------------------------------------------------

def _card_keys() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per game type and card: how little it is worth keeping, how well it feeds a
    partner's trick, how cheap it is as a winner and how high as a loser (the sort keys
    of the card choosers below)."""
    trump = EFF == TRUMP
    points = POINTS[None, :].astype(np.float64)
    keep = points * 4.0 + STRENGTH * 0.1 + 25.0 * trump
    spare = np.where(points < 10, 30.0, 8.0)
    feed = points * 4.0 - STRENGTH * 0.01 - spare * (trump & (np.arange(7) != NULL)[:, None])
    win = STRENGTH + points * 0.5
    lose = STRENGTH + points * 0.1
    return keep, feed, win, lose


KEEP_KEY, FEED_KEY, WIN_KEY, LOSER_KEY = _card_keys()


@numba.njit(cache=True)
def _pick(mask, keys, highest):
    """The card of ``mask`` with the lowest (or ``highest``) key; ties go to the lower card."""
    best = -1
    best_key = 0.0
    m = np.uint64(mask)
    while m:
        c = lsb(m)
        m &= m - ONE
        if best < 0 or (keys[c] > best_key if highest else keys[c] < best_key):
            best, best_key = c, keys[c]
    return best


@numba.njit(cache=True)
def _beating(mask, best, led_eff, game):
    """The cards of ``mask`` that beat ``best``, the trick's current winner."""
    out = ZERO
    m = np.uint64(mask)
    while m:
        c = lsb(m)
        m &= m - ONE
        if beats(c, best, led_eff, EFF[game], STRENGTH[game]):
            out |= bit(c)
    return out


@numba.njit(cache=True)
def _cheapest(mask, game):
    """The card of ``mask`` least worth keeping: few points, no trump, low rank."""
    return _pick(mask, KEEP_KEY[game], False)


@numba.njit(cache=True)
def _richest(mask, game):
    """The card of ``mask`` to give to a partner's trick: most points, trumps spared."""
    return _pick(mask, FEED_KEY[game], True)


@numba.njit(cache=True)
def _highest(mask, game):
    """The strongest card of ``mask`` (trumps above plain cards)."""
    return _pick(mask, STRENGTH[game], True)


@numba.njit(cache=True)
def _lowest_winner(mask, best, led_eff, game):
    """The weakest card of ``mask`` that beats ``best`` (-1: none)."""
    return _pick(_beating(mask, best, led_eff, game), WIN_KEY[game], False)


@numba.njit(cache=True)
def _highest_loser(mask, best, led_eff, game):
    """The strongest card of ``mask`` that does not beat ``best``, following suit first (-1: none)."""
    losers = np.uint64(mask) & ~_beating(mask, best, led_eff, game)
    follow = losers & np.uint64(SUIT_MASKS[game, led_eff])
    return _pick(follow if follow else losers, LOSER_KEY[game], True)


@numba.njit(cache=True)
def _boss(card, outstanding, game):
    """Whether ``card`` beats every outstanding card of its effective suit."""
    e = EFF[game, card]
    rest = outstanding & np.uint64(SUIT_MASKS[game, e])
    while rest:
        c = lsb(rest)
        rest &= rest - ONE
        if STRENGTH[game, c] > STRENGTH[game, card]:
            return False
    return True


@numba.njit(cache=True)
def _void(obs, seat, eff):
    return (obs[O.VOIDS] >> (5 * seat + eff)) & 1


@numba.njit(cache=True)
def _trick_state(obs, game):
    """Current best card of the trick, who played it, the led effective suit, trick points."""
    n = obs[O.TRICK_N]
    leader = obs[O.TRICK_LEADER]
    nplayers = obs[O.TRICK_SIZE]
    first = obs[O.TRICK_CARD]
    led = EFF[game, first]
    best = first
    best_k = 0
    pts = POINTS[first]
    for k in range(1, n):
        c = obs[O.TRICK_CARD + k]
        pts += POINTS[c]
        if beats(c, best, led, EFF[game], STRENGTH[game]):
            best = c
            best_k = k
    return best, (leader + best_k) % nplayers, led, pts


@numba.njit(cache=True)
def _outstanding(obs, hand):
    """Cards this seat cannot see yet (in other hands or the unknown skat)."""
    seen = np.uint64(hand) | np.uint64(obs[O.SKAT]) | np.uint64(obs[O.OPEN_HAND]) \
        | np.uint64(obs[O.KNOWN])
    for s in range(obs[O.TRICK_SIZE]):
        seen |= np.uint64(obs[O.PLAYED + s])
    for k in range(obs[O.TRICK_N]):
        seen |= bit(obs[O.TRICK_CARD + k])
    seen |= np.uint64(obs[O.BLIND])
    return FULL & ~seen


@numba.njit(cache=True)
def play(obs):
    """The card to play (one of ``obs[LEGAL]``)."""
    legal = np.uint64(obs[O.LEGAL])
    if popcount(legal) == 1:
        return lsb(legal)
    game = obs[O.GAME]
    if game == NULL:
        return _play_null(obs, legal)
    if game == RAMSCH:
        return _play_ramsch(obs, legal)
    if obs[O.SEAT] == obs[O.DECLARER]:
        return _play_declarer(obs, legal, game)
    return _play_defender(obs, legal, game)


@numba.njit(cache=True)
def _play_declarer(obs, legal, game):
    hand = np.uint64(obs[O.HAND])
    out = _outstanding(obs, hand)
    trump_mask = np.uint64(SUIT_MASKS[game, TRUMP])
    n = obs[O.TRICK_N]
    if n == 0:
        my_trumps = hand & trump_mask
        out_trumps = out & trump_mask
        if my_trumps and out_trumps:
            top = _highest(my_trumps, game)
            if _boss(top, out, game):
                return top
            if popcount(my_trumps) + 1 >= popcount(out_trumps):
                return _cheapest(my_trumps, game)
        # cash boss side cards
        side = hand & ~trump_mask
        m = side
        while m:
            c = lsb(m)
            m &= m - ONE
            if _boss(c, out, game) and (not out_trumps or POINTS[c] >= 10):
                return c
        if side:
            # lead low from the longest side suit
            best = -1
            best_len = -1
            for e in range(4):
                cards = side & np.uint64(SUIT_MASKS[game, e])
                if cards and popcount(cards) > best_len:
                    best_len = popcount(cards)
                    best = _cheapest(cards, game)
            return best
        return _highest(my_trumps, game)
    best, best_seat, led, pts = _trick_state(obs, game)
    winner = _lowest_winner(legal, best, led, game)
    if winner >= 0:
        if n == 2:
            if pts > 0 or EFF[game, winner] != TRUMP or popcount(legal & ~trump_mask) == 0:
                return winner
            return _cheapest(legal, game)
        # a defender plays after me: win only with a card he cannot beat
        safe = _lowest_safe_winner(obs, legal, best, out, led, game, (obs[O.SEAT] + 1) % 3)
        if safe >= 0:
            return safe
        if pts >= 10:
            return _highest(legal, game)
    return _cheapest(legal, game)


@numba.njit(cache=True)
def _safe_win(obs, card, out, led, game, nxt):
    """Whether ``card`` holds the trick against seat ``nxt``, who plays after this seat."""
    e = EFF[game, card]
    if not _void(obs, nxt, led):
        return e != led or _boss(card, out, game)
    if _void(obs, nxt, TRUMP) or not (out & np.uint64(SUIT_MASKS[game, TRUMP])):
        return True
    return e == TRUMP and _boss(card, out, game)


@numba.njit(cache=True)
def _play_defender(obs, legal, game):
    hand = np.uint64(obs[O.HAND])
    out = _outstanding(obs, hand)
    seat = obs[O.SEAT]
    decl = obs[O.DECLARER]
    trump_mask = np.uint64(SUIT_MASKS[game, TRUMP])
    n = obs[O.TRICK_N]
    if n == 0:
        side = legal & ~trump_mask
        # cash an ace (or a boss ten) where the declarer still follows
        m = side
        while m:
            c = lsb(m)
            m &= m - ONE
            if POINTS[c] >= 10 and _boss(c, out, game) and not _void(obs, decl, EFF[game, c]):
                return c
        # make the declarer trump: a suit he is void in
        m = side
        while m:
            c = lsb(m)
            m &= m - ONE
            if _void(obs, decl, EFF[game, c]) and not _void(obs, decl, TRUMP):
                return _cheapest(side & np.uint64(SUIT_MASKS[game, EFF[game, c]]), game)
        # lead low from a suit without a lone ten to protect
        best = -1
        best_key = 1e9
        for e in range(4):
            cards = side & np.uint64(SUIT_MASKS[game, e])
            if cards:
                c = _cheapest(cards, game)
                ten_alone = 0
                mm = cards
                while mm:
                    x = lsb(mm)
                    mm &= mm - ONE
                    if POINTS[x] == 10 and not _boss(x, out, game):
                        ten_alone = 1
                key = POINTS[c] * 2.0 + 15.0 * ten_alone - popcount(cards) * 0.5
                if (decl - seat) % 3 == 1:
                    key += popcount(cards) * 1.0  # declarer next: lead short ("long way")
                if key < best_key:
                    best, best_key = c, key
        if best >= 0:
            return best
        return _cheapest(legal, game)
    best, best_seat, led, pts = _trick_state(obs, game)
    declarer_after = ((decl - obs[O.TRICK_LEADER]) % 3) > n
    if best_seat != decl:
        # partner is winning: give points if his trick is safe
        if not declarer_after or _partner_safe(obs, best, out, led, game):
            return _richest(legal, game)
        safe = _lowest_safe_winner(obs, legal, best, out, led, game, decl)
        if safe >= 0 and EFF[game, safe] != TRUMP:
            return safe
        return _cheapest(legal, game)
    # the declarer has played and is winning: beat him when it pays
    winner = _lowest_winner(legal, best, led, game)
    if winner >= 0 and (pts > 0 or EFF[game, winner] != TRUMP):
        return winner
    return _cheapest(legal, game)


@numba.njit(cache=True)
def _lowest_safe_winner(obs, legal, best, out, led, game, nxt):
    """The weakest card of ``legal`` that beats ``best`` and holds against ``nxt`` (-1: none)."""
    out_card = -1
    m = np.uint64(legal)
    while m:
        c = lsb(m)
        m &= m - ONE
        if beats(c, best, led, EFF[game], STRENGTH[game]) and _safe_win(obs, c, out, led, game, nxt):
            if out_card < 0 or STRENGTH[game, c] < STRENGTH[game, out_card]:
                out_card = c
    return out_card


@numba.njit(cache=True)
def _partner_safe(obs, best, out, led, game):
    """Whether the partner's winning card holds against the declarer playing last."""
    decl = obs[O.DECLARER]
    if not _void(obs, decl, led):
        return _boss(best, out & np.uint64(SUIT_MASKS[game, led]), game) or \
            EFF[game, best] == TRUMP and _boss(best, out, game)
    if EFF[game, best] == TRUMP:
        return _boss(best, out, game)
    return bool(_void(obs, decl, TRUMP))


@numba.njit(cache=True)
def _play_null(obs, legal):
    hand = np.uint64(obs[O.HAND])
    n = obs[O.TRICK_N]
    decl = obs[O.DECLARER]
    seat = obs[O.SEAT]
    out = _outstanding(obs, hand)
    if seat == decl:
        if n == 0:
            # lead the card least likely to be beaten: fewest outstanding cards below it
            best = -1
            best_key = 1e9
            m = legal
            while m:
                c = lsb(m)
                m &= m - ONE
                below = 0
                above = 0
                rest = out & np.uint64(SUIT_MASKS[NULL, EFF[NULL, c]])
                while rest:
                    x = lsb(rest)
                    rest &= rest - ONE
                    if STRENGTH[NULL, x] < STRENGTH[NULL, c]:
                        below += 1
                    else:
                        above += 1
                key = below * 10.0 - above - (100.0 if above == 0 and below == 0 else 0.0)
                if key < best_key:
                    best, best_key = c, key
            return best
        best, best_seat, led, pts = _trick_state(obs, NULL)
        follow = legal & np.uint64(SUIT_MASKS[NULL, led])
        if follow:
            c = _highest_loser(follow, best, led, NULL)
            return c if c >= 0 else _highest(follow, NULL)
        # void: throw the most dangerous card
        worst = -1
        worst_key = -1e9
        m = legal
        while m:
            c = lsb(m)
            m &= m - ONE
            key = _null_danger(hand, c)
            if key > worst_key:
                worst, worst_key = c, key
        return worst
    # defenders
    open_hand = np.uint64(obs[O.OPEN_HAND])
    if n == 0:
        best = -1
        best_key = 1e9
        m = legal
        while m:
            c = lsb(m)
            m &= m - ONE
            e = EFF[NULL, c]
            if _void(obs, decl, e):
                continue
            key = STRENGTH[NULL, c] * 1.0
            if open_hand:
                theirs = open_hand & np.uint64(SUIT_MASKS[NULL, e])
                if not theirs:
                    continue
                low = _cheapest(theirs, NULL)
                if STRENGTH[NULL, low] > STRENGTH[NULL, c]:
                    key -= 20.0
            if key < best_key:
                best, best_key = c, key
        return best if best >= 0 else _cheapest(legal, NULL)
    best, best_seat, led, pts = _trick_state(obs, NULL)
    if best_seat == decl:
        c = _highest_loser(legal, best, led, NULL)
        return c if c >= 0 else _highest(legal, NULL)
    return _cheapest(legal, NULL)


JUNGFRAU_BOSS_COST = 100.0
"""What leading a card that wins its trick (a boss) costs a ramsch player minding the Jungfrau:
more than any plain lead, less than a jack."""
JUNGFRAU_GIFT = 20.0
"""What the likely loser gains by leading a losing card into a suit a trickless player still
holds (he may have to take the trick, and then no longer doubles the loser's minus)."""


@numba.njit(cache=True)
def _jungfrau_cost(obs, card, outstanding):
    """How much worse leading ``card`` is with the Jungfrau in mind (each player who takes no
    trick doubles the loser's minus). A player without a trick keeps his zero, and the likely
    loser (most points so far) wants no more tricks: neither leads a boss. The likely loser
    leads rather where a trickless player has shown no void, to give him a trick."""
    me = obs[O.SEAT]
    mine = obs[O.POINTS + me]
    likely_loser = mine > 0
    for s in range(3):
        if s != me and obs[O.POINTS + s] > mine:
            likely_loser = False
    if _boss(card, outstanding, RAMSCH):
        return JUNGFRAU_BOSS_COST if obs[O.TRICKS + me] == 0 or likely_loser else 0.0
    if likely_loser:
        e = EFF[RAMSCH, card]
        for s in range(3):
            if s != me and obs[O.TRICKS + s] == 0 and not _void(obs, s, e):
                return -JUNGFRAU_GIFT
    return 0.0


@numba.njit(cache=True)
def _play_ramsch(obs, legal):
    """Ramsch: lead low from the shortest side suit, jacks last; follow with the highest card
    that loses, shed points when void; when forced to win as the last player, with a high
    card. Where the skat goes to the loser (``ramsch_skat`` ``loser``) the lead minds the
    Jungfrau (``_jungfrau_cost``); where it goes to the last trick the play is the one the
    engine baseline pins."""
    n = obs[O.TRICK_N]
    hand = np.uint64(obs[O.HAND])
    trump_mask = np.uint64(SUIT_MASKS[RAMSCH, TRUMP])
    if n == 0:
        minded = obs[O.SKAT_TO_LOSER] != 0
        outstanding = _outstanding(obs, hand) if minded else ZERO
        best = -1
        best_key = 1e9
        m = legal
        while m:
            c = lsb(m)
            m &= m - ONE
            e = EFF[RAMSCH, c]
            length = popcount(hand & np.uint64(SUIT_MASKS[RAMSCH, e]))
            key = STRENGTH[RAMSCH, c] * 1.0 + length * 2.0 + (50.0 if e == TRUMP else 0.0)
            if minded:
                key += _jungfrau_cost(obs, c, outstanding)
            if key < best_key:
                best, best_key = c, key
        return best
    best, best_seat, led, pts = _trick_state(obs, RAMSCH)
    c = _highest_loser(legal, best, led, RAMSCH)
    if c >= 0:
        if EFF[RAMSCH, c] != led:
            return _richest(legal & ~trump_mask, RAMSCH) if legal & ~trump_mask else c
        return c
    if n == obs[O.TRICK_SIZE] - 1:  # last to play and forced to win: with a high card
        return _highest(legal, RAMSCH)
    return _cheapest(legal, RAMSCH)

"""The Skat family's worlds (``skat``, ``skat_en_deux``): a card-play state dealt from one
seat's observation, and what a finished state is worth to a player's side.

What a place's cards are, seen from the observing place (``obs[SEAT]``):

* its own hand; the declarer's hand when it lies open (ouvert, Skat-en-deux's open levels);
  Skat-en-deux's blind once it is turned up after the opening lead, and the defender's
  other hand (``obs[KNOWN]``) to the defender; the declarer's discard to the declarer;
* hidden: every other hand, the skat (the declarer's discard to everyone else, the skat of
  a hand game even to the declarer), the blind while it lies face down (to both players),
  and in Skat-en-deux's ramsch the blind and the skat together, which stay out of play.

Each hidden hand holds ten cards less those its place has played, none of an effective
suit its place has failed to follow (``obs[VOIDS]``); the skat two. ``world`` deals the
unknown cards so (``sim.search.worlds.deal_world``, uniform among the consistent deals) and
sets up the state exactly as the observation shows the position: ``observe`` of the world
gives the observation back.

``declaration_world`` deals the declarer's world at his declaration the same way (the cards
he has not seen spread uniformly over the other places and, in a hand game, the skat), for
the lookahead player to play each game he could declare out; ``pregame_world`` deals the
world of a decision before the game is named (a bid, the pickup, the discard, a give-up),
where a plan (``plan``: hand or pickup, the discard, the game) is played out
(``plan_step``).

``value`` scores a finished state for a player's side as the default scoring does
(``lost_factor`` 2, the seed's scoring, no Jungfrau, the seed's rejection premium: the
scoring-only options do not change how anybody plays): a declared game is the declarer's
score for him and its negative for the defenders; a ramsch is each player's own score.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import popcount
from sim.engine.cardplay import PLAY
from sim.games.skat_family.cardplay import (
    LENGTH,
    TRICKS,
    S,
    begin,
    contract,
    declaration_of,
    declare,
    declarer_cards,
    declarer_points,
    laid_down,
    offer_outcome,
    ramsch,
    ramsch_loser,
    ramsch_points,
    sit,
)
from sim.games.skat_family.heuristic import choose_game, discard_for
from sim.games.skat_family.observation import (
    DECL_OPEN_SHIFT,
    OFFER_NONE,
    OFFER_RAUS,
    OFFER_STICH,
    PH_ACCEPT,
    PH_BID,
    PH_FH18,
    PH_PLAY,
)
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.values import (
    CLUBS,
    EFF,
    JIT,
    JIT_NRT,
    NULL,
    RAMSCH,
    REJECTION_PREMIUM,
    T_SCORE,
    Contract,
    Offers,
    card_points,
    game_terms,
    matadors,
)
from sim.policies.random import random_cards
from sim.search.worlds import deal_world

DECK = np.uint64((1 << 32) - 1)
"""Every card of the Skat deck."""
HAND_SIZE = 10
"""Cards each place holds before the first trick."""
DEFAULT_LOST_FACTOR = 2
"""``lost_factor``'s default (scoring only): a lost game costs twice its value."""

__all__ = ["LENGTH", "declaration_world", "plan", "plan_step", "pregame_bid", "pregame_world", "value",
           "world"]


@numba.njit(**JIT_NRT)
def world(obs, rng, state):
    """Fill ``state`` with one world of the position ``obs`` shows its place: the cards it
    cannot see dealt uniformly among the deals consistent with it (module text)."""
    seat = obs[O.SEAT]
    game = obs[O.GAME]
    places = obs[O.TRICK_SIZE]
    declarer = obs[O.DECLARER]
    blind = obs[O.BLIND_SEAT]
    ramsched = obs[O.RAMSCH] != 0
    play = obs[O.PHASE] == PH_PLAY
    trick_no = obs[O.TRICK_NO] if play else obs[O.TRICK_NO] + 1
    trick_n = obs[O.TRICK_N] if play else 0

    _trick_state(obs, state, places, blind, play, trick_no, trick_n)
    up = blind >= 0 and (trick_no > 0 or trick_n > 0)
    # the cards each place holds, where the seat knows them
    hands = np.zeros(3, np.uint64)
    known = np.zeros(3, np.bool_)
    hands[seat] = np.uint64(obs[O.HAND])
    known[seat] = True
    if declarer >= 0 and laid_down(state):
        hands[declarer] = np.uint64(obs[O.OPEN_HAND])
        known[declarer] = True
    if up:
        hands[blind] = np.uint64(obs[O.BLIND])
        known[blind] = True
    if blind >= 0 and seat != declarer and obs[O.KNOWN]:
        other = 3 - declarer - seat if seat != blind else 2 - declarer
        hands[other] = np.uint64(obs[O.KNOWN])
        known[other] = True
    skat_known = declarer == seat and obs[O.HAND_GAME] == 0 and not ramsched
    skat = np.uint64(obs[O.SKAT]) if skat_known else np.uint64(0)

    seen = skat
    for p in range(3):
        seen |= np.uint64(obs[O.PLAYED + p]) | hands[p]
    unknown = DECK & ~seen
    # the hidden places: the hands not known, then the cards out of the play (skat, and the
    # blind while it is out of a two-hand ramsch)
    counts = np.zeros(4, np.int64)
    allowed = np.zeros(4, np.uint64)
    where = np.zeros(4, np.int64)
    eff = EFF[game]
    voids = obs[O.VOIDS]
    n = 0
    for p in range(places):
        if not known[p]:
            counts[n] = HAND_SIZE - popcount(np.uint64(obs[O.PLAYED + p]))
            mask = np.uint64(0)
            for c in range(32):
                if not (voids >> (5 * p + eff[c])) & 1:
                    mask |= np.uint64(1) << np.uint64(c)
            allowed[n] = mask
            where[n] = p
            n += 1
    out_of_play = 0
    if not skat_known:
        out_of_play = 2 + (HAND_SIZE if places == 2 else 0)
        counts[n] = out_of_play
        allowed[n] = DECK
        where[n] = -1
        n += 1
    dealt = np.zeros(4, np.uint64)
    deal_world(unknown, counts[:n], allowed[:n], rng, dealt[:n])
    for k in range(n):
        if where[k] >= 0:
            hands[where[k]] = dealt[k]
        else:
            skat = dealt[k]
            if places == 2:  # the two of the twelve that are the skat
                skat = random_cards(dealt[k], 2, rng)
    _seat_and_contract(obs, state, hands, skat, places, declarer, blind, ramsched, seat)


@numba.njit(**JIT_NRT)
def declaration_world(obs, rng, state):
    """Fill ``state`` with one world of the declarer's declaration (``PH_DECLARE``, his
    observation ``obs``): the cards he cannot see (the other hands, Skat-en-deux's blind, the
    skat of a hand game) dealt uniformly among the places, and the contract of a suit game
    with the bid, the skat and the rules' offers; ``declare`` then names the game."""
    hand_game = obs[O.HAND_GAME]
    skat = np.uint64(obs[O.SKAT]) if hand_game == 0 else np.uint64(0)
    _opening(obs, rng, state, np.uint64(obs[O.HAND]), skat, obs[O.BID], hand_game)


@numba.njit(**JIT_NRT)
def pregame_world(obs, rng, state):
    """Fill ``state`` with one world of a decision before the game is named (his observation
    ``obs``): a bid or hold (at the bid it asks about), the pickup, the discard, a give-up.
    The cards he has not seen are dealt uniformly among the other places and, before the
    pickup, the skat; the contract is a hand game at that bid, for ``plan_step`` to pick up or
    not, put away and declare. After the pickup his twelve cards are his hand and the skat
    (which two is the skat does not matter: a plan picks it up)."""
    bid = pregame_bid(obs)
    hand = np.uint64(obs[O.HAND])
    skat = np.uint64(0)
    if popcount(hand) == HAND_SIZE + 2:
        skat = np.uint64(obs[O.SKAT]) if obs[O.SKAT] else random_cards(hand, 2, rng)
    _opening(obs, rng, state, hand & ~skat, skat, bid, 1)
    state[S.SKAT_TO_LOSER] = obs[O.SKAT_TO_LOSER]  # a ramsch plan's rule


@numba.njit(inline="always", **JIT)
def pregame_bid(obs):
    """The bid a decision before the game asks about: the next value at a bid or at
    forehand's 18, else the bid reached."""
    phase = obs[O.PHASE]
    return obs[O.NEXT_BID] if phase == PH_BID or phase == PH_FH18 else obs[O.BID]


@numba.njit(inline="always", **JIT_NRT)
def _opening(obs, rng, state, hand, skat, bid, hand_game):
    """The declarer's world before the opening lead: his ``hand``, the cards he has not seen
    dealt uniformly over the other places and, when ``skat`` is 0, the skat; the hands seated
    as the kernel seats them; a suit game's contract at ``bid`` with the rules' offers (the
    skat seen when it is no ``hand_game``)."""
    place = obs[O.SEAT]
    blind = obs[O.BLIND_SEAT]
    counts = np.array([HAND_SIZE, HAND_SIZE, 2], np.int64)
    allowed = np.full(3, DECK, np.uint64)
    dealt = np.zeros(3, np.uint64)
    places = 2 if skat else 3
    deal_world(DECK & ~hand & ~skat, counts[:places], allowed[:places], rng, dealt[:places])
    begin(state, 3, obs[O.FOREHAND], blind, obs[O.MAX_OPEN] if blind >= 0 else 0)
    k = 0
    for p in range(3):
        player = p if blind < 0 else (0 if p == place else 1)
        if p == place:
            sit(state, p, hand, player)
        else:
            sit(state, p, dealt[k], player)
            k += 1
    if not skat:
        skat = dealt[2]
    contract(state, CLUBS, place, 2 - place if blind >= 0 else -1, bid, hand_game, skat,
             skat if hand_game == 0 else np.uint64(0), obs[O.OFFERS_LEFT] != 0,
             obs[O.CONTRA_RE] != 0)


PICKUP = 1 << 8
"""A plan's flag: pick the skat up (else play hand)."""
CHOOSE = 1 << 9
"""A plan's flag: after the pickup the heuristic chooses the game and the discard
(``choose_game``) on the cards it finds."""
RAMSCH_PLAN = 1 << 10
"""A plan's flag: nobody declares, the ramsch is played (what passing last leads to when the
rules say ``all_pass`` ``ramsch``)."""
PUT_SHIFT = 16
"""A plan's discard (a mask of two cards) sits from this bit on; 0: the heuristic's discard
for the plan's game (``discard_for``)."""
DECL_MASK = (1 << 8) - 1
"""A plan's declaration code (``observation``: game, ouvert, announcements, open level)."""


@numba.njit(inline="always", **JIT)
def plan(decl, pickup, put):
    """A plan of the declarer's before the game: declare ``decl`` hand, or after the
    pickup (``pickup``) with the discard ``put`` (0: the heuristic's for the game)."""
    return np.int64(decl) | (PICKUP if pickup else 0) | (np.int64(put) << PUT_SHIFT)


@numba.njit(**JIT)
def plan_step(state, code):
    """Carry out plan ``code`` in a ``pregame_world``: pick the skat up and put two cards
    away, or play hand; then declare (``declare``). Or turn the world into the ramsch."""
    declarer = state[S.DECLARER]
    if code & RAMSCH_PLAN:
        _to_ramsch(state, declarer)
        return
    decl = code & DECL_MASK
    if code & PICKUP:
        cards = np.uint64(state[S.HANDS + declarer] | state[S.SKAT])
        put = np.uint64(code >> PUT_SHIFT)
        if code & CHOOSE:
            game, put, level = choose_game(cards, state[S.BID], state[S.FOREHAND] == declarer,
                                           state[S.MAX_OPEN])
            decl = game | (level << DECL_OPEN_SHIFT)
        elif put == 0:
            put = discard_for(cards, decl & 7)
        state[S.HANDS + declarer] = np.int64(cards & ~put)
        state[S.SKAT] = np.int64(put)
        state[S.SKAT_SEEN] = np.int64(put)
        state[S.HAND_GAME] = 0
    else:
        state[S.HAND_GAME] = 1
    declare(state, decl)


@numba.njit(**JIT)
def _to_ramsch(state, seat):
    """Set a ``pregame_world`` of ``seat`` (its place) up as the deal's ramsch, as the kernels
    seat it: Skat's three players with the skat aside (its rule as the world holds it);
    Skat-en-deux's forehand and rearhand in two-card tricks, the blind out, ``seat``'s player
    0 as in the world."""
    h0 = np.uint64(state[S.HANDS])
    h1 = np.uint64(state[S.HANDS + 1])
    h2 = np.uint64(state[S.HANDS + 2])
    skat = np.uint64(state[S.SKAT])
    to_loser = state[S.SKAT_TO_LOSER] != 0
    if state[S.BLIND_AT] >= 0:
        begin(state, 2, 0, -1, 2)
        sit(state, 0, h0, 0 if seat == 0 else 1)
        sit(state, 1, h2, 0 if seat != 0 else 1)
        ramsch(state, skat)
    else:
        begin(state, 3, state[S.FOREHAND], -1, 0)
        sit(state, 0, h0, 0)
        sit(state, 1, h1, 1)
        sit(state, 2, h2, 2)
        ramsch(state, skat, to_loser)


@numba.njit(inline="always", **JIT)
def _trick_state(obs, state, places, blind, play, trick_no, trick_n):
    """``begin`` the state and set the tricks as the observation shows them (between tricks
    it shows the trick just played, its leader, and the trick number before it)."""
    begin(state, places, obs[O.FOREHAND], blind, obs[O.MAX_OPEN])
    for k in range(O.TRICKS + 3 - O.PLAYED):
        state[S.PLAYED + k] = obs[O.PLAYED + k]
    state[S.TRICK_NO] = trick_no
    state[S.TRICK_N] = trick_n
    state[S.LEADER] = obs[O.NEXT_LEADER]
    state[S.LAST_LEADER] = obs[O.TRICK_LEADER] if not play else obs[O.NEXT_LEADER]
    state[S.DECLARER] = obs[O.DECLARER]
    state[S.OUVERT] = obs[O.OUVERT]
    state[S.OPEN_LEVEL] = obs[O.OPEN_LEVEL]
    if not play:
        for k in range(3):
            state[S.TRICK + k] = -1


@numba.njit(inline="always", **JIT)
def _seat_and_contract(obs, state, hands, skat, places, declarer, blind, ramsched, seat):
    """Seat the hands (who decides at each place), the contract or the ramsch, the offers so
    far and whose decision it is."""
    for p in range(places):
        if blind < 0 and places == 3:
            player = p
        elif ramsched:
            player = p
        else:
            player = 0 if p == declarer else 1
        sit(state, p, hands[p], player)
    if ramsched:
        ramsch(state, skat, obs[O.SKAT_TO_LOSER] != 0)
    else:
        defender = -1
        if blind >= 0:
            defender = 2 - declarer  # forehand 0 or rearhand 2, the one not declaring
        offers = obs[O.OFFERS_LEFT] != 0 or obs[O.OFFER] != OFFER_NONE
        decl = declaration_of(obs[O.GAME], obs[O.OUVERT], obs[O.SCHNEIDER_ANN],
                              obs[O.SCHWARZ_ANN], obs[O.OPEN_LEVEL])
        contract(state, decl, declarer, defender, obs[O.BID], obs[O.HAND_GAME], skat,
                 skat if obs[O.HAND_GAME] == 0 else np.uint64(0), offers, obs[O.CONTRA_RE] != 0)
        _offers(obs, state)
    phase = obs[O.PHASE]
    state[S.PHASE] = PLAY if phase == PH_PLAY else phase
    state[S.TO_MOVE] = seat
    state[S.PLAYER] = state[S.PLAYER_AT + seat]


@numba.njit(inline="always", **JIT)
def _offers(obs, state):
    """The offers made so far, from the latest one shown and those left: a "Stich" shown
    after a rejected first offer is a second offer when a "raus" could have come first
    (either reading scores and plays alike once both are rejected)."""
    latest = obs[O.OFFER]
    rejected = obs[O.REJECTED]
    if latest == OFFER_STICH and rejected and obs[O.PHASE] == PH_ACCEPT:
        state[S.OFFER] = OFFER_RAUS  # the Stich awaiting an answer follows a rejected raus
        state[S.SECOND_OFFER_TRICK] = state[S.TRICK_NO]
    else:
        state[S.OFFER] = latest
    if latest != OFFER_NONE:
        state[S.OFFER_TRICK] = state[S.TRICK_NO]
    state[S.REJECTED] = rejected
    state[S.SAID_CONTRA] = obs[O.CONTRA]
    state[S.SAID_RE] = obs[O.RE]


@numba.njit(**JIT)
def value(state, player):
    """What the finished ``state`` is worth to ``player``'s side under the default scoring:
    the declarer's score for him, its negative for a defender; a ramsch's own score."""
    game = state[S.GAME]
    if game == RAMSCH:
        return _ramsch_value(state, player)
    declarer = state[S.DECLARER]
    mat = 0 if game == NULL else matadors(declarer_cards(state), game)
    taken, rejected = offer_outcome(state[S.OFFER], state[S.SECOND_OFFER_TRICK],
                                    state[S.ACCEPTED] != 0, state[S.CONTRA_RE] != 0, False)
    contract = Contract(game, mat, state[S.HAND_GAME], state[S.OUVERT], state[S.SCHNEIDER_ANN],
                        state[S.SCHWARZ_ANN], state[S.OPEN_LEVEL])
    offers = Offers(taken, state[S.ACCEPTED], rejected, state[S.SAID_CONTRA], state[S.SAID_RE])
    t = game_terms(contract, declarer_points(state), state[S.TRICKS + declarer], TRICKS,
                   state[S.BID], offers, DEFAULT_LOST_FACTOR, REJECTION_PREMIUM)
    score = np.float64(t[T_SCORE])
    return score if state[S.PLAYER_AT + declarer] == player else -score


@numba.njit(**JIT)
def _ramsch_value(state, player):
    """A ramsch's score of ``player``: Skat's (the loser's points, a Durchmarsch 120; no
    Jungfrau) or Skat-en-deux's (the loser's points and the skat's)."""
    if state[S.PLACES] == 2:
        loser, _ = ramsch_loser(state)
        if state[S.PLAYER_AT + loser] != player:
            return 0.0
        return -np.float64(state[S.POINTS + loser] + card_points(np.uint64(state[S.SKAT])))
    place = player
    for p in range(3):
        if state[S.TRICKS + p] == TRICKS:
            return 120.0 if p == place else 0.0
    mine = ramsch_points(state, place)
    for p in range(3):
        if ramsch_points(state, p) > mine:
            return 0.0
    return -np.float64(mine)

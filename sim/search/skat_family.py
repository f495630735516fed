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
the lookahead player to play each game he could declare out.

``value`` scores a finished state for a player's side as the default scoring does
(``lost_factor`` 2, the seed's scoring, no Jungfrau: the scoring-only options do not change
how anybody plays): a declared game is the declarer's score for him and its negative for
the defenders; a ramsch is each player's own score.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import popcount
from sim.games.cardplay import PLAY
from sim.games.skat_cardplay import (
    LENGTH,
    TRICKS,
    S,
    begin,
    contract,
    declarer_cards,
    declarer_points,
    laid_down,
    offer_outcome,
    ramsch,
    ramsch_loser,
    ramsch_points,
    sit,
)
from sim.games.skat_obs import FIELDS as O
from sim.games.skat_obs import OFFER_NONE, OFFER_RAUS, OFFER_STICH, PH_ACCEPT, PH_PLAY
from sim.games.skat_values import (
    CLUBS,
    EFF,
    JIT,
    JIT_NRT,
    NULL,
    RAMSCH,
    T_SCORE,
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

__all__ = ["LENGTH", "declaration_world", "value", "world"]


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
    skat of a hand game) dealt uniformly among the places, the hands seated as the kernel
    seats them, and the contract of a suit game with the bid, the skat and the rules'
    offers; ``declare`` then names the game."""
    place = obs[O.SEAT]
    blind = obs[O.BLIND_SEAT]
    hand_game = obs[O.HAND_GAME]
    hand = np.uint64(obs[O.HAND])
    seen = np.uint64(obs[O.SKAT]) if hand_game == 0 else np.uint64(0)
    counts = np.array([HAND_SIZE, HAND_SIZE, 2], np.int64)
    allowed = np.full(3, DECK, np.uint64)
    dealt = np.zeros(3, np.uint64)
    places = 3 if hand_game else 2
    deal_world(DECK & ~hand & ~seen, counts[:places], allowed[:places], rng, dealt[:places])
    begin(state, 3, obs[O.FOREHAND], blind, obs[O.MAX_OPEN] if blind >= 0 else 0)
    k = 0
    for p in range(3):
        player = p if blind < 0 else (0 if p == place else 1)
        if p == place:
            sit(state, p, hand, player)
        else:
            sit(state, p, dealt[k], player)
            k += 1
    skat = dealt[2] if hand_game else seen
    contract(state, CLUBS, place, 2 - place if blind >= 0 else -1, obs[O.BID], hand_game, 0, 0, 0,
             0, skat, seen, obs[O.OFFERS_LEFT] != 0, obs[O.CONTRA_RE] != 0)


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
        contract(state, obs[O.GAME], declarer, defender, obs[O.BID], obs[O.HAND_GAME],
                 obs[O.OUVERT], obs[O.SCHNEIDER_ANN], obs[O.SCHWARZ_ANN], obs[O.OPEN_LEVEL],
                 skat, skat if obs[O.HAND_GAME] == 0 else np.uint64(0), offers,
                 obs[O.CONTRA_RE] != 0)
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
                                    state[S.ACCEPTED] != 0, state[S.CONTRA_RE] != 0)
    t = game_terms(game, mat, state[S.HAND_GAME], state[S.OUVERT], state[S.SCHNEIDER_ANN],
                   state[S.SCHWARZ_ANN], state[S.OPEN_LEVEL], declarer_points(state),
                   state[S.TRICKS + declarer], TRICKS, state[S.BID], taken, state[S.ACCEPTED],
                   rejected, state[S.SAID_CONTRA], state[S.SAID_RE], DEFAULT_LOST_FACTOR)
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

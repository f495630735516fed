"""The card play of the Skat family (``skat``, ``skat_en_deux``) as a state and pure functions
(``sim.engine.cardplay``).

A state is one flat ``int64`` array (``State``: field sizes, ``S``: their offsets) holding
everything the rest of a deal's card play depends on, by table place:

* Skat: the three players' seats; forehand leads the first trick.
* Skat-en-deux: forehand 0, the blind 1, rearhand 2, in three-card tricks forehand -> blind ->
  rearhand. The defender decides for the blind (``PLAYER_AT``), which is turned face up
  after the opening lead. An open game lays the declarer's hand down: zweimal offen and
  ouvert before the opening lead, einmal offen after the first trick. Before each trick
  from the second on the defender may offer "raus" (1) or "Stich" (2), once a game, when the
  rules allow offers (``OFFERS``): the declarer accepts (the card play ends) or rejects;
  after the rejection the defender may say Contra and then the declarer Re. These are
  decisions of the state too: ``PHASE`` ``OFFER`` (actions 0 none, 1 "raus", 2 "Stich"),
  ``ACCEPT`` (1 accept, 0 reject), ``CONTRA`` and ``RE`` (1 say it, 0 not).
  Its ramsch: forehand 0 and rearhand 1 play their own ten cards in two-card tricks; the
  blind stays out.

A null game ends at the declarer's first trick. ``observe`` fills the card-play part of a
seat's observation (``sim.games.skat_family.observation``: every field but the bidding's ``NEXT_BID``,
``PASSED`` and ``SEAT_BID`` and the rule ``ALL_PASS_RAMSCH``), exactly as the kernels show
it.

>>> from sim.cards import SKAT_DECK
>>> from sim.games.skat_family.values import GRAND
>>> state = np.zeros(LENGTH, np.int64)
>>> hands = np.array([SKAT_DECK.parse("CA CT"), SKAT_DECK.parse("C7 SJ"),
...                   SKAT_DECK.parse("C8 HA")], np.uint64)
>>> begin(state, 3, 1, -1, 0)
>>> for place in range(3):
...     sit(state, place, hands[place], place)
>>> contract(state, GRAND, 2, -1, 18, 1, np.uint64(0), np.uint64(0), 0, 0)
>>> for card in ("C7", "C8", "CA"):
...     step(state, SKAT_DECK.index(card))
>>> int(state[S.POINTS + 0]), int(state[S.TRICKS + 0]), int(state[S.TO_MOVE])
(11, 1, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numba
import numpy as np

from sim import actions as A
from sim.engine import loops
from sim.engine.cardplay import PLAY, offsets
from sim.games.skat_family.features import EN_DEUX_ROWS, ROWS
from sim.games.skat_family.observation import (
    BOTH_OFFERS,
    DECL_OPEN_SHIFT,
    DECL_OUVERT,
    DECL_SCHNEIDER,
    DECL_SCHWARZ,
    OFFER_NONE,
    OFFER_RAUS,
    OFFER_STICH,
    PH_ACCEPT,
    PH_CONTRA,
    PH_OFFER,
    PH_PLAY,
    PH_RE,
)
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.policies import decide
from sim.games.skat_family.values import (
    EFF,
    JIT,
    JIT_NRT,
    NULL,
    POINTS,
    RAMSCH,
    STRENGTH,
    SUIT_MASKS,
    card_points,
)
from sim.tricks import legal_mask, trick_winner

TRICKS = 10
"""Tricks in a deal of either game."""

OFFER, ACCEPT, CONTRA, RE = PH_OFFER, PH_ACCEPT, PH_CONTRA, PH_RE
"""``PHASE`` of Skat-en-deux's decisions between tricks (the observation's phase codes)."""
YES, NO = 1, 0
"""The actions of ``ACCEPT``, ``CONTRA`` and ``RE``; ``OFFER``'s are ``OFFER_NONE``,
``OFFER_RAUS``, ``OFFER_STICH``."""


class State(NamedTuple):
    """The card-play state's fields and their sizes (``offsets`` makes them offsets).

    The fields from ``PLAYED`` to ``TRICKS`` lie in the observation's order."""

    TO_MOVE: int = 1
    PLAYER: int = 1
    PHASE: int = 1
    DONE: int = 1
    HANDS: int = 3
    """Each table place's cards."""
    # who sits where
    PLACES: int = 1
    """Places in a trick: 3, or 2 in Skat-en-deux's ramsch."""
    PLAYER_AT: int = 3
    """The player who decides at each place (-1: nobody)."""
    FOREHAND: int = 1
    """The place that leads the first trick."""
    BLIND_AT: int = 1
    """The blind's place (Skat-en-deux's declared games), else -1."""
    # the contract
    GAME: int = 1
    DECLARER: int = 1
    """The declarer's place (-1 in ramsch)."""
    DEFENDER: int = 1
    """The place of the defender who makes offers, says Contra (Skat-en-deux), else -1."""
    BID: int = 1
    HAND_GAME: int = 1
    OUVERT: int = 1
    SCHNEIDER_ANN: int = 1
    SCHWARZ_ANN: int = 1
    OPEN_LEVEL: int = 1
    MAX_OPEN: int = 1
    """The highest open level the rules allowed this game (shown in the observation)."""
    SKAT: int = 1
    """The two cards that count for the declarer (his discard, or the skat of a hand game);
    in ramsch the skat."""
    SKAT_SEEN: int = 1
    """Those of them the declarer knows (his discard; none in a hand game)."""
    # the rules
    OFFERS: int = 1
    """Whether the defender may offer before the tricks from the second on (``offers``)."""
    CONTRA_RE: int = 1
    """Whether a rejected first offer raises the value and Contra and Re follow it
    (``contra_re``)."""
    SKAT_TO_LOSER: int = 1
    """Skat's ramsch: 1 when the skat's points go to the loser (``ramsch_skat`` ``loser``), 0
    when they go to the taker of the last trick."""
    # the tricks
    LAST_LEADER: int = 1
    """The leader of the trick played last (shown while the offers are asked)."""
    PLAYED: int = 3
    """Each place's cards played."""
    TRICK_NO: int = 1
    """The trick in progress (0-9): tricks played so far."""
    TRICK_N: int = 1
    """Cards of it played so far."""
    LEADER: int = 1
    """The place that leads it (after the last trick: its taker)."""
    TRICK: int = 3
    """Its cards by position in play (-1: not yet played)."""
    VOIDS: int = 1
    """Bit ``5 * place + eff``: the place has shown it cannot follow effective suit ``eff``."""
    POINTS: int = 3
    TRICKS: int = 3
    """Card points and tricks each place has taken."""
    # the offers
    OFFER: int = 1
    """The first offer made (``OFFER_*``; none yet: ``OFFER_NONE``)."""
    OFFER_TRICK: int = 1
    """The trick it came before (-1: none)."""
    SECOND_OFFER_TRICK: int = 1
    """The trick before which a "Stich" followed a rejected "raus" (-1: none)."""
    ACCEPTED: int = 1
    """1 when the declarer accepted an offer (the game ended as offered)."""
    REJECTED: int = 1
    """1 when he rejected the first offer."""
    SAID_CONTRA: int = 1
    SAID_RE: int = 1


S, LENGTH = offsets(State)

assert all(getattr(S, f) - S.PLAYED == getattr(O, o) - O.PLAYED for f, o in (
    ("TRICK_NO", "TRICK_NO"), ("TRICK_N", "TRICK_N"), ("LEADER", "TRICK_LEADER"),
    ("TRICK", "TRICK_CARD"), ("VOIDS", "VOIDS"), ("POINTS", "POINTS"), ("TRICKS", "TRICKS")))
"""``observe`` copies ``PLAYED`` .. ``TRICKS`` as one run: they lie in the observation's order."""


# --- setting a state up --------------------------------------------------------------------

@numba.njit(**JIT)
def begin(state, places, forehand, blind_at, max_open):
    """Set ``state`` before the opening lead: ``places`` in a trick, the leader ``forehand``,
    the blind's place (-1: none), the highest open level the rules allow (observation only).
    The places' cards and players follow (``sit``), then the contract (``contract``,
    ``ramsch``)."""
    state[:] = 0
    for p in range(3):
        state[S.PLAYER_AT + p] = -1
        state[S.TRICK + p] = -1
    state[S.PLACES] = places
    state[S.FOREHAND] = forehand
    state[S.BLIND_AT] = blind_at
    state[S.LEADER] = forehand
    state[S.LAST_LEADER] = forehand
    state[S.TO_MOVE] = forehand
    state[S.PLAYER] = -1
    state[S.PHASE] = PLAY
    state[S.MAX_OPEN] = max_open
    state[S.DECLARER] = -1
    state[S.DEFENDER] = -1
    state[S.OFFER_TRICK] = -1
    state[S.SECOND_OFFER_TRICK] = -1


@numba.njit(inline="always", **JIT)
def sit(state, place, cards, player):
    """Place ``place`` holds ``cards`` (a mask) and ``player`` decides there."""
    state[S.HANDS + place] = np.int64(cards)
    state[S.PLAYER_AT + place] = player
    if place == state[S.TO_MOVE]:
        state[S.PLAYER] = player


@numba.njit(**JIT)
def contract(state, decl, declarer, defender, bid, hand_game, skat, skat_seen, offers,
             contra_re):
    """The declared game: its declaration code ``decl`` (``declare``), the declarer's place
    (and the defender's who offers, -1 for none), the bid, hand, the cards that count for the
    declarer and those he saw, whether offers are allowed and whether ``contra_re`` holds
    (it implies offers; no offers in a null game)."""
    state[S.DECLARER] = declarer
    state[S.DEFENDER] = defender
    state[S.BID] = bid
    state[S.HAND_GAME] = hand_game
    state[S.SKAT] = np.int64(skat)
    state[S.SKAT_SEEN] = np.int64(skat_seen)
    state[S.OFFERS] = 1 if offers or contra_re else 0
    state[S.CONTRA_RE] = 1 if contra_re else 0
    declare(state, decl)


@numba.njit(**JIT)
def offer_before_lead(state):
    """``offer_timing`` ``from_declaration``: once the game is declared (``contract``) the
    defender may offer before the opening lead, while the blind and the skat are hidden, when
    the game allows offers."""
    if offers_left(state):
        state[S.PHASE] = OFFER
        _to_move(state, state[S.DEFENDER])


@numba.njit(**JIT)
def declaration_of(game, ouvert, schneider_announced, schwarz_announced, open_level):
    """The declaration code (``observation``: game | ``DECL_OUVERT`` | announcements | open
    level) of a game with these flags."""
    return (game | (DECL_OUVERT if ouvert else 0) | (DECL_SCHNEIDER if schneider_announced else 0)
            | (DECL_SCHWARZ if schwarz_announced else 0) | open_level << DECL_OPEN_SHIFT)


@numba.njit(**JIT)
def declare(state, decl):
    """The declaration code ``decl`` (``observation``: game | ``DECL_OUVERT`` | announcements
    | open level) as the contract's game, on a state ``contract`` set up for the same game
    type or any suit or grand (the declarer, bid, skat and the rules' offers stay): the
    contract's own, and each declaration the lookahead player weighs."""
    game = decl & 7
    state[S.GAME] = game
    state[S.OUVERT] = 1 if decl & DECL_OUVERT else 0
    state[S.SCHNEIDER_ANN] = 1 if decl & DECL_SCHNEIDER else 0
    state[S.SCHWARZ_ANN] = 1 if decl & DECL_SCHWARZ else 0
    state[S.OPEN_LEVEL] = (decl >> DECL_OPEN_SHIFT) & 3
    if game == NULL:
        state[S.OFFERS] = 0


@numba.njit(**JIT)
def ramsch(state, skat, skat_to_loser=False):
    """Nobody declared: ramsch (jacks trump, grand order), the ``skat`` aside; in Skat its
    points go to the loser when ``skat_to_loser``, else to the taker of the last trick."""
    state[S.GAME] = RAMSCH
    state[S.SKAT] = np.int64(skat)
    state[S.SKAT_TO_LOSER] = 1 if skat_to_loser else 0


# --- the rules of the card play ------------------------------------------------------------

@numba.njit(inline="always", **JIT)
def finished(state):
    """Whether the card play is over."""
    return state[S.DONE] != 0


@numba.njit(inline="always", **JIT)
def legal(state):
    """The actions allowed now: the cards the place to move may play (follow the led card's
    effective suit if it can), or the codes of an offer (0-2) or a yes/no (0-1)."""
    if state[S.DONE]:
        return np.uint64(0)
    phase = state[S.PHASE]
    if phase == PLAY:
        game = state[S.GAME]
        led = state[S.TRICK] if state[S.TRICK_N] else -1
        return legal_mask(np.uint64(state[S.HANDS + state[S.TO_MOVE]]), led, EFF[game],
                          SUIT_MASKS[game])
    if phase == OFFER:
        return offers_left(state) | np.uint64(1 << OFFER_NONE)
    return np.uint64(3)


@numba.njit(inline="always", **JIT)
def offers_left(state):
    """The offers the defender may still make (a mask over ``OFFER_RAUS``, ``OFFER_STICH``):
    each kind once, "Stich" after a rejected "raus" but not the other way round."""
    if not state[S.OFFERS] or state[S.ACCEPTED]:
        return np.uint64(0)
    first = state[S.OFFER]
    if first == OFFER_NONE:
        return np.uint64(BOTH_OFFERS)
    if first == OFFER_RAUS and state[S.SECOND_OFFER_TRICK] < 0:
        return np.uint64(1 << OFFER_STICH)
    return np.uint64(0)


@numba.njit(inline="always", **JIT)
def card_allowed(state, obs, card):
    """A replayed card (``kernel.ask``'s check): the card, or -1 when the place to move may
    not play it now."""
    if 0 <= card < 32 and (legal(state) >> np.uint64(card)) & np.uint64(1):
        return card
    return -1


@numba.njit(inline="always", **JIT)
def _to_move(state, place):
    state[S.TO_MOVE] = place
    state[S.PLAYER] = state[S.PLAYER_AT + place]


@numba.njit(inline="always", **JIT)
def _next_trick(state):
    """On to the next trick's opening lead."""
    state[S.PHASE] = PLAY
    _to_move(state, state[S.LEADER])


@numba.njit(inline="always", **JIT)
def _finish_trick(state, game, places):
    """The trick is complete: its taker takes its points and leads next; the card play ends
    after the tenth trick, or at the declarer's first trick in a null game; before the next
    trick the defender may offer."""
    leader = state[S.LEADER]
    taker = leader + trick_winner(state[S.TRICK:S.TRICK + places], places, EFF[game],
                                  STRENGTH[game])
    if taker >= places:  # no modulo by a number known only at run time: it divides
        taker -= places
    won = 0
    for k in range(places):
        won += POINTS[state[S.TRICK + k]]
        state[S.TRICK + k] = -1
    state[S.POINTS + taker] += won
    state[S.TRICKS + taker] += 1
    state[S.LAST_LEADER] = leader
    state[S.LEADER] = taker
    state[S.TRICK_N] = 0
    state[S.TRICK_NO] += 1
    _to_move(state, taker)
    if state[S.TRICK_NO] == TRICKS or (game == NULL and taker == state[S.DECLARER]):
        state[S.DONE] = 1
    elif offers_left(state):
        state[S.PHASE] = OFFER
        _to_move(state, state[S.DEFENDER])


@numba.njit(inline="always", **JIT)
def _play(state, card):
    """The place to move plays ``card``."""
    place = state[S.TO_MOVE]
    game = state[S.GAME]
    eff = EFF[game]
    k = state[S.TRICK_N]
    b = np.int64(1) << np.int64(card)
    state[S.HANDS + place] &= ~b
    state[S.PLAYED + place] |= b
    state[S.TRICK + k] = card
    if k:
        led = eff[state[S.TRICK]]
        if eff[card] != led:
            state[S.VOIDS] |= np.int64(1) << np.int64(5 * place + led)
    places = state[S.PLACES]
    if k + 1 < places:
        state[S.TRICK_N] = k + 1
        nxt = state[S.LEADER] + k + 1
        _to_move(state, nxt - places if nxt >= places else nxt)
    else:
        _finish_trick(state, game, places)


@numba.njit(inline="always", **JIT)
def _between_tricks(state, phase, action):
    """An offer, its answer, Contra or Re."""
    if phase == OFFER:
        if action == OFFER_NONE:
            _next_trick(state)
        else:
            if state[S.OFFER] == OFFER_NONE:
                state[S.OFFER] = action
                state[S.OFFER_TRICK] = state[S.TRICK_NO]
            else:
                state[S.SECOND_OFFER_TRICK] = state[S.TRICK_NO]
            state[S.PHASE] = ACCEPT
            _to_move(state, state[S.DECLARER])
    elif phase == ACCEPT:
        if action == YES:
            state[S.ACCEPTED] = 1
            state[S.DONE] = 1  # the game ends as offered
        elif state[S.SECOND_OFFER_TRICK] < 0 and state[S.CONTRA_RE]:
            state[S.REJECTED] = 1
            state[S.PHASE] = CONTRA
            _to_move(state, state[S.DEFENDER])
        else:
            if state[S.SECOND_OFFER_TRICK] < 0:
                state[S.REJECTED] = 1
            _next_trick(state)
    elif phase == CONTRA and action == YES:
        state[S.SAID_CONTRA] = 1
        state[S.PHASE] = RE
        _to_move(state, state[S.DECLARER])
    else:
        if phase == RE and action == YES:
            state[S.SAID_RE] = 1
        _next_trick(state)


@numba.njit(inline="always", **JIT)
def step(state, action):
    """Take ``action`` (one of ``legal(state)``) for the player to move, in place; a
    finished state stays as it is."""
    if state[S.DONE]:
        return
    phase = state[S.PHASE]
    if phase == PLAY:
        _play(state, action)
    else:
        _between_tricks(state, phase, action)


# --- what a seat sees ----------------------------------------------------------------------

@numba.njit(inline="always", **JIT)
def laid_down(state):
    """Whether the declarer's hand lies open: ouvert and zweimal offen from the start,
    einmal offen after the first trick."""
    level = state[S.OPEN_LEVEL]
    return state[S.DECLARER] >= 0 and (state[S.OUVERT] != 0 or level == 2
                                       or (level == 1 and state[S.TRICK_NO] >= 1))


@numba.njit(inline="always", **JIT)
def observe(state, seat, obs):
    """Fill ``obs`` with what the player deciding at place ``seat`` may see now: his place's
    cards (and the other ones he plays, ``KNOWN``), the contract, the cards played, the trick,
    the tricks taken, the declarer's open hand, the blind once the opening lead is out, the
    offers, the rules the card play follows; the discard for the declarer. The bidding's
    fields and ``ALL_PASS_RAMSCH`` are left as they are.

    ``LEGAL`` holds the actions allowed to the place to move: its cards, or between tricks
    (an offer, its answer, Contra, Re) their codes. There the trick shown is the one just
    played, its cards gathered."""
    phase = state[S.PHASE]
    play = phase == PLAY
    declarer = state[S.DECLARER]
    blind = state[S.BLIND_AT]
    places = state[S.PLACES]
    obs[O.SEAT] = seat
    obs[O.POSITION] = (seat - state[S.FOREHAND]) % 3
    obs[O.PHASE] = PH_PLAY if play else phase
    obs[O.HAND] = state[S.HANDS + seat]
    obs[O.LEGAL] = np.int64(legal(state)) if seat == state[S.TO_MOVE] else 0
    obs[O.BID] = state[S.BID]
    obs[O.DECLARER] = declarer
    obs[O.GAME] = state[S.GAME]
    obs[O.HAND_GAME] = state[S.HAND_GAME]
    obs[O.OUVERT] = state[S.OUVERT]
    obs[O.SCHNEIDER_ANN] = state[S.SCHNEIDER_ANN]
    obs[O.SCHWARZ_ANN] = state[S.SCHWARZ_ANN]
    obs[O.SKAT] = state[S.SKAT_SEEN] if seat == declarer else 0
    obs[O.OPEN_HAND] = state[S.HANDS + declarer] if laid_down(state) else 0
    for k in range(O.TRICKS + 3 - O.PLAYED):  # PLAYED .. TRICKS, in the same order
        obs[O.PLAYED + k] = state[S.PLAYED + k]
    if not play:
        obs[O.TRICK_NO] = state[S.TRICK_NO] - 1
        obs[O.TRICK_N] = places - 1
        obs[O.TRICK_LEADER] = state[S.LAST_LEADER]
    obs[O.FOREHAND] = state[S.FOREHAND]
    obs[O.RAMSCH] = state[S.GAME] == RAMSCH
    obs[O.TRICK_SIZE] = places
    up = blind >= 0 and (state[S.TRICK_NO] > 0 or state[S.TRICK_N] > 0)
    obs[O.BLIND] = state[S.HANDS + blind] if up else 0
    obs[O.BLIND_SEAT] = blind
    obs[O.OPEN_LEVEL] = state[S.OPEN_LEVEL]
    obs[O.MAX_OPEN] = state[S.MAX_OPEN]
    known = 0
    if blind >= 0 and (play or phase == OFFER) and seat != declarer:
        if seat == blind:
            known = state[S.HANDS + state[S.DEFENDER]]
        elif up:
            known = state[S.HANDS + blind]
    obs[O.KNOWN] = known
    obs[O.OFFER] = OFFER_STICH if state[S.SECOND_OFFER_TRICK] >= 0 else state[S.OFFER]
    obs[O.REJECTED] = state[S.REJECTED]
    obs[O.OFFERS_LEFT] = np.int64(offers_left(state))
    obs[O.GIVE_UP_GAMES] = 0
    obs[O.CONTRA] = state[S.SAID_CONTRA]
    obs[O.RE] = state[S.SAID_RE]
    obs[O.SKAT_TO_LOSER] = state[S.SKAT_TO_LOSER]
    obs[O.CONTRA_RE] = state[S.CONTRA_RE]
    obs[O.NEXT_LEADER] = state[S.LEADER]


@numba.njit(**JIT_NRT)
def playout(state, pols, rngs, net):
    """Play ``state`` to its end with the policies ``pols`` (kernel ids, by player), each
    player drawing from his own stream ``rngs[player]``; ``net`` holds the networks of its
    ``net`` players (``NO_NET``: none), read through their game's features (``features_of``)."""
    loops.playout(state, pols, rngs, net, O.LENGTH, finished, observe, step, decide,
                  features_of(state))


@numba.njit(inline="always", **JIT)
def features_of(state):
    """The feature rows a network of this state's game reads: Skat-en-deux's (a blind at the
    table, or its ramsch of two places) or Skat's."""
    return EN_DEUX_ROWS if state[S.BLIND_AT] >= 0 or state[S.PLACES] == 2 else ROWS


# --- results -------------------------------------------------------------------------------

@numba.njit(**JIT)
def declarer_points(state):
    """The declarer's card points: his tricks' and the two cards that count for him."""
    return state[S.POINTS + state[S.DECLARER]] + card_points(np.uint64(state[S.SKAT]))


@numba.njit(**JIT)
def declarer_cards(state):
    """The declarer's twelve cards (his hand and the skat, before he discarded): the cards
    his matadors are counted on."""
    d = state[S.DECLARER]
    return np.uint64(state[S.HANDS + d] | state[S.PLAYED + d] | state[S.SKAT])


@numba.njit(**JIT)
def ramsch_loser(state):
    """Skat-en-deux's ramsch: the place with more card points loses; with equal points the
    taker of the last trick. Returns the place and whether the points were equal."""
    p0 = state[S.POINTS]
    p1 = state[S.POINTS + 1]
    if p0 != p1:
        return (0 if p0 > p1 else 1), False
    return state[S.LEADER], True


@numba.njit(**JIT)
def ramsch_points(state, place):
    """Skat's ramsch, played out: the card points ``place`` is charged with, the skat's where
    ``ramsch_skat`` puts them: on the taker of the last trick, or on the loser found without
    them (every player with most points in his tricks, each of a tie)."""
    points = state[S.POINTS + place]
    if state[S.SKAT_TO_LOSER]:
        gets = points == max(state[S.POINTS], state[S.POINTS + 1], state[S.POINTS + 2])
    else:
        gets = place == state[S.LEADER]
    return points + (card_points(np.uint64(state[S.SKAT])) if gets else 0)


def skat_result(state: np.ndarray) -> dict[str, int]:
    """Skat's result columns the card play decides."""
    if state[S.GAME] == RAMSCH:
        out = {f"ramsch_points_{p}": int(ramsch_points(state, p)) for p in range(3)}
        out.update({f"ramsch_tricks_{p}": int(state[S.TRICKS + p]) for p in range(3)})
        out["ramsch_last_trick"] = int(state[S.LEADER])
        out["durchmarsch"] = int(any(state[S.TRICKS + p] == TRICKS for p in range(3)))
        return out
    return {"declarer_points": int(declarer_points(state)),
            "declarer_tricks": int(state[S.TRICKS + state[S.DECLARER]])}


def en_deux_result(state: np.ndarray) -> dict[str, int]:
    """Skat-en-deux's result columns the card play decides."""
    if state[S.GAME] == RAMSCH:
        loser, tie = ramsch_loser(state)
        out = {f"ramsch_points_{state[S.PLAYER_AT + p]}": int(state[S.POINTS + p])
               for p in range(2)}
        out["ramsch_loser"] = int(state[S.PLAYER_AT + loser])
        out["ramsch_tie_last_trick"] = int(tie)
        return out
    return {"declarer_points": int(declarer_points(state)),
            "declarer_tricks": int(state[S.TRICKS + state[S.DECLARER]]),
            "offer": int(state[S.OFFER]), "offer_trick": int(state[S.OFFER_TRICK]),
            "second_offer_trick": int(state[S.SECOND_OFFER_TRICK]),
            "accepted": int(state[S.ACCEPTED]), "contra": int(state[S.SAID_CONTRA]),
            "re": int(state[S.SAID_RE])}


@numba.njit(**JIT)
def offer_outcome(first, second_trick, accepted, contra_re, second_counts):
    """What the offers did to a game: the offer accepted (``OFFER_*``; none: the game was
    played out) and how many rejections raise its value: under ``contra_re`` the first
    offer's, and with ``second_counts`` (``second_rejection`` ``counts``) a second offer's
    too. ``first`` is the first offer, ``second_trick`` the trick of a "Stich" after a
    rejected "raus" (-1: none)."""
    taken = (OFFER_STICH if second_trick >= 0 else first) if accepted else OFFER_NONE
    rejected = 0
    if contra_re and first != OFFER_NONE and (second_trick >= 0 or not accepted):
        rejected = 1
        if second_counts and second_trick >= 0 and not accepted:
            rejected = 2
    return taken, rejected


# --- a recorded deal's card play -----------------------------------------------------------

CARD_PLAY_ROWS = (A.PLAY, A.OFFER, A.ACCEPT, A.REJECT, A.CONTRA, A.RE)
"""Recorded actions of the card play."""


def _state_actions(state: np.ndarray, rows: np.ndarray) -> list[int]:
    """The state's actions that replay the recorded card play ``rows`` (a declined offer,
    Contra or Re leaves no row: its "no" is put in)."""
    mine = [r for r in np.asarray(rows).reshape(-1, A.ROW).tolist() if r[0] in CARD_PLAY_ROWS]
    s = state.copy()
    out: list[int] = []
    j = 0
    while not finished(s):
        phase = int(s[S.PHASE])
        kind = mine[j][0] if j < len(mine) else -1
        if phase == PLAY:
            if kind != A.PLAY:
                break
            action = mine[j][2]
        elif phase == OFFER:
            action = mine[j][2] if kind == A.OFFER else OFFER_NONE
        elif phase == ACCEPT:
            if kind not in (A.ACCEPT, A.REJECT):
                break
            action = YES if kind == A.ACCEPT else NO
        else:
            action = YES if kind == (A.CONTRA if phase == CONTRA else A.RE) else NO
        if action != NO or phase in (PLAY, ACCEPT):
            j += 1
        out.append(int(action))
        step(s, int(action))
    return out


def _hands(columns: Mapping[str, np.ndarray], i: int, names: Sequence[str]) -> np.ndarray:
    return np.array([int(columns[n][i]) for n in names], np.uint64)


def _pickup(hands: np.ndarray, place: int, columns: Mapping[str, np.ndarray],
            i: int) -> tuple[int, int]:
    """The declarer's hand after the skat: the cards that count for him and those he saw."""
    skat = int(columns["skat"][i])
    if columns["hand"][i]:
        return skat, 0
    put = int(columns["discard"][i])
    hands[place] = (int(hands[place]) | skat) & ~put
    return put, put


def start_skat(columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
               rules: Mapping[str, Any] | None = None) -> tuple[np.ndarray, list[int]] | None:
    """Skat deal ``i``'s state before the opening lead and its recorded card play as state
    actions; ``None`` for a deal thrown in. A ramsch's ``ramsch_skat`` comes from its rule
    column of that name."""
    if columns["passed_out"][i]:
        return None
    hands = _hands(columns, i, ("hand_0", "hand_1", "hand_2"))
    state = np.zeros(LENGTH, np.int64)
    ramsched = bool(columns["ramsch"][i])
    if not ramsched:
        d = int(columns["declarer"][i])
        skat, seen = _pickup(hands, d, columns, i)
    begin(state, 3, (int(columns["dealer"][i]) + 1) % 3, -1, 0)
    for p in range(3):
        sit(state, p, hands[p], p)
    if ramsched:
        ramsch(state, np.uint64(columns["skat"][i]), bool(columns["ramsch_skat"][i]))
    else:
        decl = declaration_of(int(columns["game"][i]), int(columns["ouvert"][i]),
                              int(columns["schneider_announced"][i]),
                              int(columns["schwarz_announced"][i]), 0)
        contract(state, decl, d, -1, int(columns["bid"][i]), int(columns["hand"][i]),
                 np.uint64(skat), np.uint64(seen), 0, 0)
    return state, _state_actions(state, rows)


FH, BLIND, RH = 0, 1, 2
"""Skat-en-deux's table places."""


def start_en_deux(columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray,
                  rules: Mapping[str, Any] | None = None) -> tuple[np.ndarray, list[int]] | None:
    """Skat-en-deux deal ``i``'s state before the opening lead and its recorded card play as
    state actions; ``None`` for a deal thrown in or given up.

    Without ``rules`` the card play's rules are read from the deal: offers are allowed when
    one was made (``offers``), before the opening lead when one was made there
    (``offer_timing``), Contra and Re when one was said (``contra_re``; a declined one
    changes nothing in the card play), the observation's highest open level is 2 for a
    pickup game or an open hand game (``open_hand``)."""
    if columns["passed_out"][i] or columns["give_up"][i]:
        return None
    dealer = int(columns["dealer"][i])
    fhp = 1 - dealer
    state = np.zeros(LENGTH, np.int64)
    if columns["ramsch"][i]:
        begin(state, 2, 0, -1, 2)
        sit(state, 0, np.uint64(columns[f"hand_{fhp}"][i]), fhp)
        sit(state, 1, np.uint64(columns[f"hand_{dealer}"][i]), dealer)
        ramsch(state, np.uint64(columns["skat"][i]))
        return state, _state_actions(state, rows)
    hands = _hands(columns, i, (f"hand_{fhp}", "blind", f"hand_{dealer}"))
    declarer = int(columns["declarer"][i])
    place = FH if declarer == fhp else RH
    skat, seen = _pickup(hands, place, columns, i)
    hand = int(columns["hand"][i])
    level = int(columns["open_level"][i])
    if rules is None:
        kinds = np.asarray(rows).reshape(-1, A.ROW)[:, 0]
        offers = bool(np.any(kinds == A.OFFER))
        contra_re = bool(np.any((kinds == A.CONTRA) | (kinds == A.RE)))
        open_hand = bool(hand and level)
        early = offers and int(columns["offer_trick"][i]) == 0
    else:
        offers, contra_re = bool(rules["offers"]), bool(rules["contra_re"])
        open_hand = bool(rules["open_hand"])
        early = rules["offer_timing"] == "from_declaration"
    begin(state, 3, FH, BLIND, 2 if (not hand or open_hand) else 0)
    for p in range(3):
        sit(state, p, hands[p], declarer if p == place else 1 - declarer)
    decl = declaration_of(int(columns["game"][i]), int(columns["ouvert"][i]), 0, 0, level)
    contract(state, decl, place, RH if place == FH else FH, int(columns["bid"][i]), hand,
             np.uint64(skat), np.uint64(seen), offers, contra_re)
    if early:
        offer_before_lead(state)
    return state, _state_actions(state, rows)

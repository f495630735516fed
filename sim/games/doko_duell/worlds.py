"""The Doppelkopf duel's worlds for search: what a seat cannot see, dealt from its
observation alone, and the score of a finished card play.

A duel seat sees his hand, every face-up pyramid card (both pyramids, covered or free, by
position) and every card played. He does not see the opponent's hand or any face-down
pyramid card, his own included; he knows how many there are and where the face-down ones
lie. ``world`` deals the unseen cards (``sim.search.worlds.deal_world``) to two places:

* the opponent's hand: 20 cards less those he played and those left in his pyramid, none
  of a suit he failed to follow (``VOIDS``: the duty to follow counts the hand and the
  free pyramid cards, and nothing ever enters a hand, so a hand void stays a void);
* the face-down pool: one card for each face-down position of either pyramid, with no
  constraint (a face-down card never obliged anyone); the pool's cards are then laid on
  the face-down positions in a random order, which keeps every consistent deal equally
  likely (the positions are exchangeable).

It then builds the card-play state at the decision (``sim.games.doko_duell.cardplay``)
from the observation: the hands, the pyramids' cards, positions present and face up, the
trick, the counts, the markers and the rules of the play (``equal_cards``,
``b_one_per_trick``, the box), all shown in the observation. A played pyramid position
keeps no card in the world (-1: nothing reads it); the B events per kind are left at 0
(only the result columns count them, and no rule or score reads them).

``value`` scores a finished state for a player: his VP minus the opponent's, under the
defaults of the scoring-only options (``a_marker_on_setup`` true, ``b_marker_mode`` v1,
``tie_rule`` draw, ``tie_win_base`` 0, the seed's VP per band and per marker, no
compensation), whatever the deal is played under, so re-scoring a lookahead deal under other
scoring options equals playing it under them. The A markers are
counted as the default counts them (``A_SETUP + A_PLAY``), not as the state holds them.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import bit, lsb, popcount
from sim.engine.cardplay import PLAY
from sim.games.doko_duell import cardplay as cp
from sim.games.doko_duell.observation import FIELDS as O
from sim.games.doko_duell.values import OPTIONS, settle
from sim.rng import below
from sim.search.worlds import deal_world
from sim.tricks import TRUMP

S = cp.S
PYRAMID = cp.PYRAMID
CARDS_EACH = cp.PYRAMID + cp.HAND_CARDS
"""Cards dealt to each player: his pyramid and his hand."""
FULL = np.uint64((1 << cp.N_CARDS) - 1)
ALL_POSITIONS = cp.ALL_PRESENT

DEFAULTS = OPTIONS.codes(OPTIONS.resolve())
"""The options' defaults as the kernel takes them, under which ``value`` scores."""


@numba.njit(cache=True, inline="always")
def _void_cards(voids):
    """The cards of the effective suits in the mask ``voids``."""
    out = np.uint64(0)
    for suit in range(TRUMP + 1):
        if (voids >> suit) & 1:
            out |= np.uint64(cp.SUIT_MASKS[suit])
    return out


@numba.njit(cache=True, inline="always")
def _shown(obs, at, present):
    """The positions of a pyramid (observation fields from ``at``) present and face up."""
    up = 0
    for k in range(PYRAMID):
        if (present >> k) & 1 and obs[at + k] >= 0:
            up |= 1 << k
    return up


@numba.njit(cache=True)
def unseen(obs):
    """What the observing seat cannot see: ``(unknown, opp_hand, down_own, down_opp,
    allowed_opp)``: the mask of the unseen cards, how many the opponent holds in his hand,
    the face-down positions of his own and of the opponent's pyramid (masks), and the cards
    the opponent's hand may hold (none of a suit he failed to follow)."""
    seat = obs[O.SEAT]
    opp = 1 - seat
    seen = (np.uint64(obs[O.HAND]) | np.uint64(obs[O.PLAYED]) | np.uint64(obs[O.PLAYED + 1])
            | np.uint64(obs[O.FACE_UP_CARDS]))
    unknown = FULL & ~seen
    own_present = obs[O.OWN_PRESENT]
    opp_present = obs[O.OPP_PRESENT]
    down_own = own_present & ~_shown(obs, O.OWN_PYRAMID, own_present)
    down_opp = opp_present & ~_shown(obs, O.OPP_PYRAMID, opp_present)
    opp_hand = CARDS_EACH - popcount(np.uint64(obs[O.PLAYED + opp])) - popcount(np.uint64(opp_present))
    allowed = FULL & ~_void_cards(obs[O.VOIDS + opp])
    return unknown, opp_hand, down_own, down_opp, allowed


@numba.njit(cache=True)
def world(obs, rng, state):
    """Fill ``state`` (``cp.LENGTH``) with one world of the decision ``obs`` shows (the
    observing seat to move), drawn from ``rng``: the unseen cards dealt uniformly among the
    deals consistent with the observation (see the module's text)."""
    seat = obs[O.SEAT]
    opp = 1 - seat
    unknown, opp_hand, down_own, down_opp, allowed_opp = unseen(obs)
    n_down = popcount(np.uint64(down_own)) + popcount(np.uint64(down_opp))
    counts = np.empty(2, np.int64)
    counts[0] = opp_hand
    counts[1] = n_down
    allowed = np.empty(2, np.uint64)
    allowed[0] = allowed_opp
    allowed[1] = FULL
    out = np.zeros(2, np.uint64)
    deal_world(unknown, counts, allowed, rng, out)
    # the pool's cards on the face-down positions in a random order (own pyramid first)
    pool = np.empty(n_down, np.int64)
    m = out[1]
    for i in range(n_down):
        pool[i] = lsb(m)
        m &= m - np.uint64(1)
    for i in range(n_down - 1, 0, -1):
        j = below(rng, i + 1)
        pool[i], pool[j] = pool[j], pool[i]

    state[:] = 0
    state[S.TO_MOVE] = seat
    state[S.PLAYER] = seat
    state[S.PHASE] = PLAY
    state[S.HANDS + seat] = obs[O.HAND]
    state[S.HANDS + opp] = np.int64(out[0])
    at = 0
    for side in range(2):
        who = seat if side == 0 else opp
        shown_at = O.OWN_PYRAMID if side == 0 else O.OPP_PYRAMID
        present = obs[O.OWN_PRESENT] if side == 0 else obs[O.OPP_PRESENT]
        down = down_own if side == 0 else down_opp
        base = S.PYRAMIDS + PYRAMID * who
        for k in range(PYRAMID):
            if not (present >> k) & 1:
                state[base + k] = -1
                continue
            if (down >> k) & 1:
                card = pool[at]
                at += 1
            else:
                card = obs[shown_at + k]
            state[base + k] = card
            state[S.WHERE + card] = k
        state[S.PRESENT + who] = present
        # a played position was face up when its card was played, and stays so
        state[S.FACE_UP + who] = (present & ~down) | (ALL_POSITIONS & ~present)
    state[S.STARTER] = obs[O.STARTER]
    state[S.EQUAL] = obs[O.EQUAL_CARDS]
    state[S.ONE_PER_TRICK] = obs[O.ONE_PER_TRICK]
    state[S.A_ON_SETUP] = 1
    state[S.SUPPLY] = obs[O.B_SUPPLY]
    state[S.EXHAUSTED] = 1 if obs[O.B_SUPPLY] == 0 else 0
    trick_no = obs[O.TRICK_NO]
    state[S.TRICK_NO] = trick_no
    state[S.LEADER] = obs[O.TRICK_LEADER]
    state[S.LAST_WINNER] = obs[O.TRICK_LEADER] if trick_no > 0 else 0
    state[S.TRICK_N] = obs[O.TRICK_N]
    if obs[O.TRICK_N]:
        state[S.TRICK] = obs[O.TRICK_CARD]
    for p in range(2):
        state[S.PLAYED + p] = obs[O.PLAYED + p]
        state[S.POINTS + p] = obs[O.POINTS + p]
        state[S.TRICKS + p] = obs[O.TRICKS + p]
        state[S.A_MARKERS + p] = obs[O.A_MARKERS + p]
        state[S.A_SETUP + p] = obs[O.A_SETUP + p]
        state[S.A_PLAY + p] = obs[O.A_PLAY + p]
        state[S.B_MARKERS + p] = obs[O.B_MARKERS + p]
        state[S.VOIDS + p] = obs[O.VOIDS + p]


@numba.njit(cache=True)
def value(state, player):
    """A finished state's score for ``player``: his VP minus the opponent's, settled under
    the scoring-only options' defaults (the A markers as ``a_marker_on_setup`` true counts
    them: top trumps face up at the deal, turned up or played from the hand)."""
    a0 = state[S.A_SETUP] + state[S.A_PLAY]
    a1 = state[S.A_SETUP + 1] + state[S.A_PLAY + 1]
    _, _, vp0, vp1, _ = settle(state[S.POINTS], state[S.POINTS + 1], state[S.TRICKS],
                               state[S.TRICKS + 1], a0, a1, state[S.B_MARKERS],
                               state[S.B_MARKERS + 1], state[S.STARTER], state[S.LAST_WINNER],
                               DEFAULTS)
    return float(vp0 - vp1) if player == 0 else float(vp1 - vp0)


@numba.njit(cache=True)
def hidden_cards(state, seat):
    """The cards of ``state`` that ``seat`` cannot see, as ``(opp_hand, face_down)`` masks
    (for tests: a world's dealt places)."""
    opp = 1 - seat
    down = np.uint64(0)
    for who in range(2):
        hidden = state[S.PRESENT + who] & ~state[S.FACE_UP + who]
        while hidden:
            k = lsb(hidden)
            hidden &= hidden - 1
            down |= bit(state[S.PYRAMIDS + PYRAMID * who + k])
    return np.uint64(state[S.HANDS + opp]), down

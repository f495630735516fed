"""The Doppelkopf duel's card play as a state and pure functions (``sim.engine.cardplay``).

Everything the 20 two-card tricks depend on lives in one ``int64`` array (``State``): both
hands, both pyramids with the positions still holding a card and those lying face up, the
trick rules copied in when the card play starts (``equal_cards``, ``b_one_per_trick``, the
box of B markers), the trick in progress, each player's played cards, card points,
tricks, A markers and B markers, and the marker events of the last step.

* ``legal(state)``: the hand cards and the free pyramid cards of the player to move, with
  the duty to follow counted over those only;
* ``step(state, card)``: plays it. A card held in the hand comes from the hand (an A marker
  for a top trump), else from its pyramid position. After the second card the trick goes
  to its winner with its B-marker events in their order (``B_EVENTS``; with
  ``b_one_per_trick`` only the first is awarded, and none once the box is empty), then
  every face-down card the trick freed is turned up (an A marker for a top trump). The
  marker events of the step stay in the state, ``N_NEW`` of them at ``NEW`` as
  ``(player, kind, trick)``, for the kernel to record (its ``MARKER`` rows);
* ``observe(state, seat, obs)``: the seat's observation (``sim.games.doko_duell.observation``);
* ``begin(...)``: the state at the deal, with the A markers of top trumps lying face up
  (``a_marker_on_setup``) as its first events.

The trick rule, the covering of the pyramid and the markers are defined here once: the
kernel (``sim.games.doko_duell.game``) plays every deal through these functions.

>>> S.TO_MOVE, S.HANDS, S.PYRAMIDS, LENGTH
(0, 4, 6, 149)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numba
import numpy as np

from sim import actions as A
from sim.cards import DOKO_DECK_40, bit, lsb
from sim.engine import loops
from sim.engine.cardplay import PLAY, offsets
from sim.games.doko_duell.features import ROWS
from sim.games.doko_duell.observation import FIELDS as O
from sim.games.doko_duell.observation import PH_PLAY
from sim.games.doko_duell.policies import decide
from sim.tricks import TRUMP, build_table, legal_mask

DECK = DOKO_DECK_40
N_CARDS = 40
TRICKS = 20
PYRAMID = 12
HAND_CARDS = 8

# --- cards ---------------------------------------------------------------------------------

TRUMPS = ("HT", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "DT", "DK")
"""The normal game's trumps from the highest down (each twice)."""
_TABLE = build_table(DECK, TRUMPS, "ATK")
EFF, STRENGTH, SUIT_MASKS = _TABLE.eff, _TABLE.strength, _TABLE.suit_masks
POINTS = DECK.points.astype(np.int64)
KIND = np.array([i % DECK.n_kinds for i in range(DECK.n_cards)], np.int64)
"""The card regardless of its copy: identical cards share a kind."""
TOP_TRUMPS = np.uint64(DECK.parse("HT HT CQ CQ"))
HEART_TEN = DECK.index("HT")
FOX = DECK.index("DA")
CHARLIE = DECK.index("CJ")

EQUAL_RULES = ("first_wins", "second_wins", "second_heart_ten")
"""``equal_cards`` by its code: of two identical cards the first wins, the second, or the
second only for the heart ten."""
SECOND_WINS, SECOND_HEART_TEN = 1, 2

# --- the pyramid ---------------------------------------------------------------------------

COVERED_BY = np.zeros(PYRAMID, np.int64)
"""``COVERED_BY[k]``: mask of the positions whose cards cover position ``k``."""
for _k, _over in {4: (0, 1), 5: (1, 2), 6: (2, 3), 7: (4, 5), 9: (5, 6), 8: (7,), 10: (9,),
                  11: (8, 10)}.items():
    COVERED_BY[_k] = sum(1 << c for c in _over)
FACE_UP_AT_DEAL = sum(1 << k for k in (0, 1, 2, 3, 7, 9))
"""Positions lying face up at the deal: row 1 and the two upper cards of row 3."""
ALL_PRESENT = (1 << PYRAMID) - 1

# --- markers -------------------------------------------------------------------------------

B_EVENTS = ("fox", "karlchen", "identical", "twenty_two", "pin")
"""B-marker events in the order they are awarded: the opponent's DA caught, the trick won
with CJ, two identical cards, exactly 22 points, the 20th trick won with DA."""
K_A = 0
"""Marker row kind of an A marker; B events are 1 + their index in ``B_EVENTS``."""
B_SUPPLY = 12
"""B markers in the box (``b_marker_supply`` 12); -1 in the state: no limit."""
MAX_EVENTS = 12
"""Room for one step's marker events: an A marker from the hand, at most five B events and
at most four top trumps turned up (or four at the deal)."""


# --- the state -----------------------------------------------------------------------------

class State(NamedTuple):
    """The fields of the card-play state and their sizes; ``S`` holds their offsets.
    Per-player fields ``F + p``; ``PYRAMIDS + 12 * p + k`` the card at position ``k`` of
    player ``p``; ``EVENT_COUNTS + 2 * kind + p`` B events of each kind per player
    (happened, awarded or not); ``NEW + 3 * e`` the last step's events."""

    TO_MOVE: int = 1
    PLAYER: int = 1
    PHASE: int = 1
    DONE: int = 1
    HANDS: int = 2
    """Hand cards per player (mask)."""
    PYRAMIDS: int = 2 * PYRAMID
    """The card dealt to each pyramid position (it stays there once played)."""
    WHERE: int = N_CARDS
    """Per card: the pyramid position it was dealt to (0 for a hand card), where ``step``
    finds a pyramid card played."""
    PRESENT: int = 2
    """Per player: mask of the positions still holding their card."""
    FACE_UP: int = 2
    """Per player: mask of the positions turned face up (a played card's stays set)."""
    STARTER: int = 1
    EQUAL: int = 1
    """The ``equal_cards`` code (``EQUAL_RULES``)."""
    ONE_PER_TRICK: int = 1
    """``b_one_per_trick``: 1 awards only the first B event of a trick."""
    A_ON_SETUP: int = 1
    """``a_marker_on_setup`` (used by ``begin``)."""
    SUPPLY: int = 1
    """B markers left in the box (-1: no limit)."""
    TRICK_NO: int = 1
    LEADER: int = 1
    TRICK_N: int = 1
    """Cards in the trick so far (0 or 1)."""
    TRICK: int = 2
    """The trick's cards in the order played."""
    PLAYED: int = 2
    """Per player: mask of the cards he played."""
    POINTS: int = 2
    TRICKS: int = 2
    A_MARKERS: int = 2
    """A markers awarded (at the deal only with ``a_marker_on_setup``)."""
    A_SETUP: int = 2
    """Top trumps face up at the deal (awarded or not)."""
    A_PLAY: int = 2
    """A markers for top trumps turned up or played from the hand."""
    B_MARKERS: int = 2
    EVENT_COUNTS: int = 2 * len(B_EVENTS)
    EXHAUSTED: int = 1
    """1 once a B event found the box empty or the box ran empty."""
    LAST_WINNER: int = 1
    """The taker of the last trick completed."""
    N_NEW: int = 1
    """How many marker events the last step (or ``begin``) had."""
    NEW: int = 3 * MAX_EVENTS
    """The last step's marker events: ``(player, kind, trick)`` each (trick -1: the deal)."""
    VOIDS: int = 2
    """Per player: the effective suits he failed to follow (bit ``1 << suit``): his hand
    holds none of them from then on."""


S, LENGTH = offsets(State)

RESULT_FIELDS = tuple((f"{name}_{p}", at + p) for name, at in (
    ("points", S.POINTS), ("tricks", S.TRICKS), ("a_markers", S.A_MARKERS),
    ("a_setup", S.A_SETUP), ("a_play", S.A_PLAY), ("b_markers", S.B_MARKERS))
    for p in range(2)) + tuple(
    (f"{kind}_{p}", S.EVENT_COUNTS + 2 * j + p) for j, kind in enumerate(B_EVENTS)
    for p in range(2)) + (("supply_exhausted", S.EXHAUSTED),)
"""``(result column, state offset)`` of what the card play counts, finished or not (the
kernel stores these when a deal stops early too); ``last_trick_winner`` is stored only for
a finished card play."""


# --- the rules of the play -----------------------------------------------------------------

@numba.njit(cache=True, inline="always")
def _free_positions(present, face_up):
    """Positions whose card may be played: present, face up, nothing covering it."""
    free = 0
    rest = present & face_up
    while rest:
        k = lsb(rest)
        rest &= rest - 1
        if not (present & COVERED_BY[k]):
            free |= 1 << k
    return free


@numba.njit(cache=True)
def free_positions(present, face_up):
    """Positions whose card may be played: present, face up, nothing covering it."""
    return _free_positions(present, face_up)


@numba.njit(cache=True)
def second_beats(first, second, equal_rule):
    """Whether ``second`` (played after ``first``) wins the two-card trick."""
    ef = EFF[first]
    es = EFF[second]
    if KIND[first] == KIND[second]:
        return equal_rule == SECOND_WINS or (equal_rule == SECOND_HEART_TEN
                                             and KIND[first] == KIND[HEART_TEN])
    if es == TRUMP:
        return ef != TRUMP or STRENGTH[second] > STRENGTH[first]
    return ef != TRUMP and es == ef and STRENGTH[second] > STRENGTH[first]


@numba.njit(cache=True, inline="always")
def _legal(state):
    """The cards the player to move may play: his hand and his free pyramid cards, those of
    the led suit if he has any among them."""
    if state[S.DONE]:
        return np.uint64(0)
    seat = state[S.TO_MOVE]
    free = _free_positions(state[S.PRESENT + seat], state[S.FACE_UP + seat])
    options = np.uint64(state[S.HANDS + seat])
    base = S.PYRAMIDS + PYRAMID * seat
    while free:
        options |= bit(state[base + lsb(free)])
        free &= free - 1
    led = state[S.TRICK] if state[S.TRICK_N] else -1
    return legal_mask(options, led, EFF, SUIT_MASKS)


@numba.njit(cache=True)
def legal(state):
    """The cards the player to move may play (``uint64`` mask; 0 once finished)."""
    return _legal(state)


@numba.njit(cache=True)
def finished(state):
    """Whether all 20 tricks are played."""
    return state[S.DONE] != 0


@numba.njit(cache=True, inline="always")
def source(state, card):
    """Where the player to move plays ``card`` (one he may play) from: 0 his hand, ``1 + k``
    his pyramid position ``k`` (the ``b`` of its ``PLAY`` row)."""
    if (np.uint64(state[S.HANDS + state[S.TO_MOVE]]) >> np.uint64(card)) & np.uint64(1):
        return 0
    return 1 + state[S.WHERE + card]


@numba.njit(cache=True, inline="always")
def _event(state, player, kind, trick, award):
    """A marker event of the step: noted for the kernel to record, counted, and (with
    ``award``) its marker given: an A marker, or a B marker while the box holds one."""
    e = state[S.N_NEW]
    state[S.NEW + 3 * e] = player
    state[S.NEW + 3 * e + 1] = kind
    state[S.NEW + 3 * e + 2] = trick
    state[S.N_NEW] = e + 1
    if kind == K_A:
        state[S.A_MARKERS + player] += 1
        if trick >= 0:
            state[S.A_PLAY + player] += 1
        return
    state[S.EVENT_COUNTS + 2 * (kind - 1) + player] += 1
    if not award:
        return
    supply = state[S.SUPPLY]
    if supply == 0:
        state[S.EXHAUSTED] = 1
        return
    state[S.B_MARKERS + player] += 1
    if supply > 0:
        state[S.SUPPLY] = supply - 1
        if supply == 1:
            state[S.EXHAUSTED] = 1


@numba.njit(cache=True, inline="always")
def _b_events(state, winner, first, second, second_won, trick):
    """The trick's B-marker events for its winner, in ``B_EVENTS`` order; with
    ``b_one_per_trick`` only the first is awarded."""
    win_card = second if second_won else first
    lose_card = first if second_won else second
    won = POINTS[first] + POINTS[second]
    awarded = 0
    for kind in range(len(B_EVENTS)):
        if kind == 0:
            happened = KIND[lose_card] == KIND[FOX]
        elif kind == 1:
            happened = KIND[win_card] == KIND[CHARLIE]
        elif kind == 2:
            happened = KIND[first] == KIND[second]
        elif kind == 3:
            happened = won == 22
        else:
            happened = trick == TRICKS - 1 and KIND[win_card] == KIND[FOX]
        if happened:
            _event(state, winner, 1 + kind, trick, awarded == 0 or state[S.ONE_PER_TRICK] == 0)
            awarded += 1


@numba.njit(cache=True, inline="always")
def _turn_up(state, trick):
    """Turn up every face-down card no card covers any more, player 0's first, each
    pyramid by position; a top trump turned up earns its A marker."""
    for s in range(2):
        present = state[S.PRESENT + s]
        up = state[S.FACE_UP + s]
        base = S.PYRAMIDS + PYRAMID * s
        down = present & ~up
        while down:
            k = lsb(down)
            down &= down - 1
            if not (present & COVERED_BY[k]):
                up |= 1 << k
                if (TOP_TRUMPS >> np.uint64(state[base + k])) & np.uint64(1):
                    _event(state, s, K_A, trick, True)
        state[S.FACE_UP + s] = up


@numba.njit(cache=True, inline="always")
def _end_trick(state, trick):
    """The trick to its winner: card points, the trick, its B events; then the cards it
    freed are turned up and the winner leads the next trick."""
    leader = state[S.LEADER]
    first = state[S.TRICK]
    second = state[S.TRICK + 1]
    second_won = second_beats(first, second, state[S.EQUAL])
    winner = 1 - leader if second_won else leader
    state[S.POINTS + winner] += POINTS[first] + POINTS[second]
    state[S.TRICKS + winner] += 1
    _b_events(state, winner, first, second, second_won, trick)
    _turn_up(state, trick)
    state[S.LAST_WINNER] = winner
    state[S.LEADER] = winner
    state[S.TO_MOVE] = winner
    state[S.PLAYER] = winner
    state[S.TRICK_N] = 0
    state[S.TRICK_NO] = trick + 1
    if trick + 1 == TRICKS:
        state[S.DONE] = 1


@numba.njit(cache=True, inline="always")
def step(state, card):
    """The player to move plays ``card`` (one of ``legal(state)``); a finished state stays
    as it is. The step's marker events are left at ``NEW`` (``N_NEW`` of them)."""
    if state[S.DONE]:
        return
    state[S.N_NEW] = 0
    seat = state[S.TO_MOVE]
    trick = state[S.TRICK_NO]
    n = state[S.TRICK_N]
    c = bit(card)
    hand = np.uint64(state[S.HANDS + seat])
    if hand & c:
        state[S.HANDS + seat] = np.int64(hand & ~c)
        if TOP_TRUMPS & c:
            _event(state, seat, K_A, trick, True)
    else:
        state[S.PRESENT + seat] &= ~(1 << state[S.WHERE + card])
    state[S.PLAYED + seat] |= np.int64(c)
    state[S.TRICK + n] = card
    if n and EFF[card] != EFF[state[S.TRICK]]:
        state[S.VOIDS + seat] |= 1 << EFF[state[S.TRICK]]
    if n == 0:
        state[S.TRICK_N] = 1
        state[S.TO_MOVE] = 1 - seat
        state[S.PLAYER] = 1 - seat
        return
    _end_trick(state, trick)


@numba.njit(cache=True, inline="always")
def observe(state, seat, obs):
    """Fill ``obs`` with what ``seat`` sees (``sim.games.doko_duell.observation``): his hand, both
    pyramids' face-up cards by position, the trick, every played card, points, tricks and
    markers, the box, the suits each player failed to follow, the rules of the play; his
    legal cards when he is to move (else none)."""
    opp = 1 - seat
    obs[O.SEAT] = seat
    obs[O.PHASE] = PH_PLAY
    obs[O.HAND] = state[S.HANDS + seat]
    moves = np.uint64(0)
    if seat == state[S.TO_MOVE]:
        moves = _legal(state)
    obs[O.LEGAL] = np.int64(moves)
    obs[O.TRICK_NO] = state[S.TRICK_NO]
    obs[O.TRICK_N] = state[S.TRICK_N]
    obs[O.TRICK_LEADER] = state[S.LEADER]
    obs[O.TRICK_CARD] = state[S.TRICK] if state[S.TRICK_N] else -1
    for p in range(2):
        obs[O.PLAYED + p] = state[S.PLAYED + p]
        obs[O.POINTS + p] = state[S.POINTS + p]
        obs[O.TRICKS + p] = state[S.TRICKS + p]
        obs[O.A_MARKERS + p] = state[S.A_MARKERS + p]
        obs[O.B_MARKERS + p] = state[S.B_MARKERS + p]
    obs[O.B_SUPPLY] = state[S.SUPPLY]
    obs[O.STARTER] = state[S.STARTER]
    obs[O.EQUAL_CARDS] = state[S.EQUAL]
    obs[O.ONE_PER_TRICK] = state[S.ONE_PER_TRICK]
    for p in range(2):
        obs[O.VOIDS + p] = state[S.VOIDS + p]
        obs[O.A_SETUP + p] = state[S.A_SETUP + p]
        obs[O.A_PLAY + p] = state[S.A_PLAY + p]
    up_cards = np.uint64(0)
    for side in range(2):
        who = seat if side == 0 else opp
        at = O.OWN_PYRAMID if side == 0 else O.OPP_PYRAMID
        present = state[S.PRESENT + who]
        face_up = state[S.FACE_UP + who]
        base = S.PYRAMIDS + PYRAMID * who
        obs[O.OWN_PRESENT if side == 0 else O.OPP_PRESENT] = present
        for k in range(PYRAMID):
            if (present >> k) & 1 and (face_up >> k) & 1:
                obs[at + k] = state[base + k]
                up_cards |= bit(state[base + k])
            else:
                obs[at + k] = -1
    obs[O.FACE_UP_CARDS] = np.int64(up_cards)
    free = _free_positions(state[S.PRESENT + opp], state[S.FACE_UP + opp])
    opp_free = np.uint64(0)
    base = S.PYRAMIDS + PYRAMID * opp
    while free:
        opp_free |= bit(state[base + lsb(free)])
        free &= free - 1
    obs[O.OPP_FREE] = np.int64(opp_free)


@numba.njit(cache=True)
def begin(state, hands, pyramid, starter, equal, one_per_trick, a_on_setup, supply):
    """The state at the deal: ``hands`` (two masks) and ``pyramid`` (``[player, position]``
    cards) dealt, ``starter`` to lead, the rules of the play copied in (``supply``: B
    markers in the box, -1 no limit). A top trump lying face up counts for ``A_SETUP``
    and, with ``a_on_setup``, earns its A marker: those are the state's first events."""
    state[:] = 0
    state[S.TO_MOVE] = starter
    state[S.PLAYER] = starter
    state[S.PHASE] = PLAY
    for s in range(2):
        state[S.HANDS + s] = np.int64(hands[s])
        for k in range(PYRAMID):
            state[S.PYRAMIDS + PYRAMID * s + k] = pyramid[s, k]
            state[S.WHERE + pyramid[s, k]] = k
        state[S.PRESENT + s] = ALL_PRESENT
        state[S.FACE_UP + s] = FACE_UP_AT_DEAL
    state[S.STARTER] = starter
    state[S.LEADER] = starter
    state[S.EQUAL] = equal
    state[S.ONE_PER_TRICK] = one_per_trick
    state[S.A_ON_SETUP] = a_on_setup
    state[S.SUPPLY] = supply
    for s in range(2):
        for k in range(PYRAMID):
            if (FACE_UP_AT_DEAL >> k) & 1 and (TOP_TRUMPS >> np.uint64(pyramid[s, k])) & np.uint64(1):
                state[S.A_SETUP + s] += 1
                if a_on_setup:
                    _event(state, s, K_A, -1, True)


@numba.njit(cache=True)
def playout(state, pols, rngs, net):
    """Play the state to its end: player ``p`` by policy ``pols[p]`` drawing from
    ``rngs[p]``; ``net`` holds the networks of its ``net`` players (``NO_NET``: none)."""
    loops.playout(state, pols, rngs, net, O.LENGTH, finished, observe, step, decide, ROWS)


# --- for Python: a state from the cards, its events, its result ----------------------------

class Rules(NamedTuple):
    """The rules the card play needs, as ``begin`` takes them."""

    equal: int = 0
    one_per_trick: int = 0
    a_on_setup: int = 1
    supply: int = B_SUPPLY


def new_state(hands: Sequence[int], pyramids: Sequence[Sequence[int]], starter: int,
              rules: Rules) -> np.ndarray:
    """A state at the deal (``begin``) from the cards dealt: two hand masks and two
    pyramids' cards by position."""
    state = np.zeros(LENGTH, np.int64)
    begin(state, np.array(hands, np.uint64), np.array(pyramids, np.int64).reshape(2, PYRAMID),
          starter, rules.equal, rules.one_per_trick, rules.a_on_setup, rules.supply)
    return state


def events(state: np.ndarray) -> list[tuple[int, int, int]]:
    """The marker events the last step (or ``begin``) left: ``(player, kind, trick)``."""
    n = int(state[S.N_NEW])
    return [tuple(int(x) for x in state[S.NEW + 3 * e:S.NEW + 3 * e + 3])  # type: ignore[misc]
            for e in range(n)]


def result(state: np.ndarray) -> dict[str, int]:
    """What the card play decided, by result column: card points, tricks, A markers (and
    their parts), B markers, B events per kind, whether the box ran empty, and for a
    finished state the taker of the last trick."""
    out = {name: int(state[at]) for name, at in RESULT_FIELDS}
    if state[S.DONE]:
        out["last_trick_winner"] = int(state[S.LAST_WINNER])
    return out


def _replays(state: np.ndarray, rows: np.ndarray, columns: Mapping[str, np.ndarray], i: int) -> bool:
    """Whether deal ``i``'s recorded ``rows`` replay from ``state`` (stepped on): each play by
    the player to move and legal, the marker rows the events of the steps, the result the
    columns'."""
    marks = [tuple(int(x) for x in r[1:]) for r in rows[rows[:, 0] == A.MARKER]]
    seen = events(state)
    for _, seat, card, _ in rows[rows[:, 0] == A.PLAY].tolist():
        if finished(state) or int(state[S.TO_MOVE]) != seat or not int(legal(state)) >> card & 1:
            return False
        step(state, card)
        seen += events(state)
    return seen == marks and all(int(columns[name][i]) == v for name, v in result(state).items())


def recorded_rules(columns: Mapping[str, np.ndarray], i: int, rows: np.ndarray) -> Rules:
    """The rules of the play as deal ``i``'s record shows them (its columns do not hold
    them): the first rules, the defaults first, under which its recorded plays replay to
    its marker events and result. A rule the deal never put to the test (no identical
    cards met, a box that never ran empty) is taken at its default: a state played on
    from there with other cards or other choices may then follow other rules than the
    deal did. ``a_marker_on_setup`` shows in the A markers where a top trump lay face up
    (and changes nothing where none did)."""
    rows = np.asarray(rows, np.int64).reshape(-1, A.ROW)
    hands = [int(columns[f"hand_{s}"][i]) for s in range(2)]
    pyramids = [[int(columns[f"pyramid_{s}_{k}"][i]) for k in range(PYRAMID)] for s in range(2)]
    starter = int(columns["starter"][i])
    a_on = int(not any(int(columns[f"a_setup_{s}"][i])
                       and int(columns[f"a_markers_{s}"][i]) == int(columns[f"a_play_{s}"][i])
                       for s in range(2)))
    for equal, one, supply in itertools.product(range(len(EQUAL_RULES)), (0, 1), (B_SUPPLY, -1)):
        rules = Rules(equal, one, a_on, supply)
        if _replays(new_state(hands, pyramids, starter, rules), rows, columns, i):
            return rules
    return Rules(a_on_setup=a_on)

"""Doko-Skat's card tables and counting rules (RULES.md, seed 004).

Shared by the kernel (``sim.games.doko_skat.game``), its heuristic, its trace codec and the
tests, so each rule lives once:

* game codes: a suit game in C S H D (0-3), grand (4), bridge in C S H D (5-8);
  ``game_of_card`` is the game a turned-up card sets;
* trick tables per game code (``table_of`` picks the bridge tables of ``bridge_order``):
  suit game CJ CJ SJ SJ HJ HJ DJ DJ then the trump suit A T K Q 9, plain suits A T K Q 9;
  grand the 8 jacks only; bridge only the named suit trump, jacks in their suits and
  every suit ranked A K Q J T 9 (``natural``) or A T K Q J 9 (``skat``);
* ``teams``: the holders of the turned-up card (``team_cards``) and the lone player;
  ``both_copies_at``
  and ``holds_both``: where his cards hold both copies of it, and whether that earns his
  special point under a ``both_copies`` reading;
* ``declaration_order``: who may name a game first, from the first-round tricks;
* ``spitzen``: consecutive top trumps a side (or the declarer, ``spitzen_of``) holds,
  copy by copy or rank by rank (``spitzen``);
* the settlement, term by term (``side_points``, ``special_points``, ``settle_terms``; the
  kernel, the re-scoring and the table screen all read these): each side's card points,
  the band (its points the ``points_band_*`` options, the seed's ``BAND_POINTS`` by
  default), Spitzen (doubled in grand), special points, the tie (``tie_special_points``),
  ``zero_sum``.

>>> GAME_LABELS[game_of_card(DECK.index("HA"))], GAME_LABELS[game_of_card(DECK.index("ST"))]
('bridge H', 'suit S')
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from sim.cards import DOKO_DECK_48, SUITS, bit, lsb, mask_points, popcount
from sim.tricks import TRUMP, build_table, stack_tables

JIT: Any = {"cache": True, "_nrt": False}
"""``numba.njit``'s options for Doko-Skat's compiled code (these tables and rules, the
kernel, its card play, the policy dispatch), as ``sim.games.skat_family.values.JIT`` for the Skat family:
cached, and without numba's reference counting (``_nrt``). They allocate nothing, and the
atomic counts numba keeps on each array handed to an inlined helper with branches
(``kernel.ask``, ``kernel.record``) cost more than a trick's rules."""
JIT_NRT: Any = {"cache": True, "_nrt": True}
"""The options of the few functions that allocate an array (or copy a slice)."""

DECK = DOKO_DECK_48
N_KINDS = DECK.n_kinds
N_CARDS = DECK.n_cards
"""24 different cards, each twice: card ``i`` and ``i + N_KINDS`` are the two copies."""
FIRST_ROUND_TRICKS = 3
"""Tricks in the first round, with 3 cards each."""
TRICKS = 12
"""Tricks in the main game."""
POINTS = DECK.points.astype(np.int64)
RANK_A, RANK_T, RANK_K, RANK_Q, RANK_J, RANK_9 = range(6)
"""Rank indices in ``DECK.ranks`` (``A T K Q J 9``)."""

SUIT_GAME, GRAND, BRIDGE = 0, 1, 2
GAME_TYPES = ("suit", "grand", "bridge")
"""Game types, by code."""
N_GAMES = 9
GRAND_CODE = 4
BRIDGE_BASE = 5
GAME_TYPE = np.array([SUIT_GAME] * 4 + [GRAND] + [BRIDGE] * 4, np.int64)
GAME_TRUMP = np.array([0, 1, 2, 3, -1, 0, 1, 2, 3], np.int64)
"""Type and trump suit (-1: grand) of each game code."""
GAME_LABELS = tuple([f"suit {s}" for s in SUITS] + ["grand"] + [f"bridge {s}" for s in SUITS])

JACKS = ("CJ", "SJ", "HJ", "DJ")
PLAIN = "ATKQ9"
"""Plain suits in suit games and grand (the jacks are trumps)."""
BRIDGE_ORDERS = ("AKQJT9", "ATKQJ9")
"""Every suit's order in a bridge: ``natural``, ``skat``."""


def trump_names(code: int, bridge_order: int = 0) -> tuple[str, ...]:
    """Trump card names of game ``code`` from the highest down (each stands for both copies)."""
    if GAME_TYPE[code] == GRAND:
        return JACKS
    suit = SUITS[GAME_TRUMP[code]]
    if GAME_TYPE[code] == SUIT_GAME:
        return JACKS + tuple(suit + r for r in PLAIN)
    return tuple(suit + r for r in BRIDGE_ORDERS[bridge_order])


def _tables() -> tuple[list[tuple[str, ...]], list[str]]:
    """Trumps and plain order of tables 0-12: game codes 0-8 (natural bridges), then the
    four bridges in the ``skat`` order."""
    trumps = [trump_names(g) for g in range(N_GAMES)]
    plain = [PLAIN] * BRIDGE_BASE + [BRIDGE_ORDERS[0]] * 4
    for g in range(BRIDGE_BASE, N_GAMES):
        trumps.append(trump_names(g, 1))
        plain.append(BRIDGE_ORDERS[1])
    return trumps, plain


_TRUMPS, _PLAIN = _tables()
N_TABLES = len(_TRUMPS)
EFF, STRENGTH, SUIT_MASKS = stack_tables([build_table(DECK, t, p) for t, p in zip(_TRUMPS, _PLAIN)])
"""``[table, card]`` effective suit and strength, ``[table, suit]`` masks."""
TOP_KINDS = np.full((N_TABLES, 12), -1, np.int64)
TOP_N = np.array([len(t) for t in _TRUMPS], np.int64)
"""``TOP_KINDS[t, :TOP_N[t]]``: the trump kinds of table ``t`` from the highest down."""
for _t, _names in enumerate(_TRUMPS):
    TOP_KINDS[_t, :len(_names)] = [DECK.index(n) for n in _names]
TRUMP_MASK = SUIT_MASKS[:, TRUMP].copy()
"""Every trump card of table ``t``."""


@numba.njit(inline="always", **JIT)
def game_of_card(card):
    """The game a turned-up card sets: K, T or 9 a suit game in its suit, A a bridge in its
    suit, Q or J grand."""
    kind = card % N_KINDS
    suit = kind // 6
    rank = kind % 6
    if rank == RANK_A:
        return BRIDGE_BASE + suit
    if rank == RANK_Q or rank == RANK_J:
        return GRAND_CODE
    return suit


@numba.njit(inline="always", **JIT)
def table_of(code, bridge_skat):
    """Trick table of game ``code`` (bridges in the ``skat`` order when ``bridge_skat``)."""
    if bridge_skat and code >= BRIDGE_BASE:
        return code + 4
    return code


@numba.njit(inline="always", **JIT)
def copies(card):
    """Mask of both copies of ``card``."""
    kind = card % N_KINDS
    return bit(kind) | bit(kind + N_KINDS)


@numba.njit(inline="always", **JIT)
def held_copy(card, hand):
    """``card``, or its other copy when ``hand`` holds only that one: the two copies look
    the same, so a replayed action naming a card means whichever copy the player holds."""
    if card < 0 or card >= N_CARDS or (hand >> np.uint64(card)) & np.uint64(1):
        return card
    other = (card + N_KINDS) % N_CARDS
    return other if (hand >> np.uint64(other)) & np.uint64(1) else card


@numba.njit(**JIT)
def held_copies(cards, hand):
    """``cards`` (a mask) with each card replaced by a copy ``hand`` holds (``held_copy``),
    no copy used twice."""
    out = np.uint64(0)
    m = np.uint64(cards)
    while m:
        c = lsb(m)
        m &= m - np.uint64(1)
        out |= bit(held_copy(c, hand & ~out))
    return out


TEAM_CARDS = ("first_round", "all", "won")
"""``team_cards``'s readings, by code: a holder of the turned-up card has a copy among his
first-round cards, anywhere in his cards (his stock too), or took one in a first-round
trick."""
TEAMS_BY_PLAY, TEAMS_BY_ALL, TEAMS_BY_WON = range(3)
MAIN_LEAD = ("forehand", "first_round_winner", "declarer")
"""``main_lead``'s readings, by code: who leads the main game."""
LEAD_FOREHAND, LEAD_FIRST_ROUND_WINNER, LEAD_DECLARER = range(3)


@numba.njit(**JIT)
def teams(first_round, stocks, turned_up, team_cards, taken):
    """The lone player. The holders of the turned-up card are those with a copy among their
    first-round cards (``team_cards`` code 0), among those and their stocks (1), or who
    took a copy in a first-round trick (2: ``taken[s]`` copies each). Two holders play
    together against the third; a single holder plays alone against the other two."""
    both = copies(turned_up)
    holders = 0
    holder = -1
    other = -1
    for s in range(3):
        if team_cards == TEAMS_BY_WON:
            holds = taken[s] > 0
        else:
            looked = first_round[s] | (stocks[s] if team_cards == TEAMS_BY_ALL else np.uint64(0))
            holds = (looked & both) != 0
        if holds:
            holders += 1
            holder = s
        else:
            other = s
    return holder if holders == 1 else other


BOTH_COPIES = ("team_cards", "stock", "skat")
"""``both_copies``'s readings, by code: the lone player's special point for both copies of
the turned-up card counts them among the cards ``team_cards`` looks at, among his
first-round cards and his stock, or among those and the skat he takes."""
BOTH_PLACES = ("first_round", "stock", "skat")
"""Where the lone player's cards first hold both copies (``both_copies_at``, the result
column ``lone_both_by``): among his first-round cards, with his stock, with the skat too."""


@numba.njit(**JIT)
def both_copies_at(first_round, stock, skat, turned_up):
    """The first of ``BOTH_PLACES`` by which a player with ``first_round`` cards, ``stock``
    and (the lone player's) ``skat`` holds both copies of the turned-up card; -1 when he
    does not hold both even with the skat."""
    both = copies(turned_up)
    if first_round & both == both:
        return 0
    if (first_round | stock) & both == both:
        return 1
    if (first_round | stock | skat) & both == both:
        return 2
    return -1


@numba.njit(inline="always", **JIT)
def holds_both(at, reading, team_cards, taken):
    """Whether the lone player, whose cards hold both copies by place ``at``
    (``both_copies_at``) and who took ``taken`` copies in first-round tricks, holds both
    under ``both_copies`` reading ``reading``: the ``team_cards`` reading looks as the teams
    do (``team_cards``' code: his first-round cards, those and his stock, or the copies he
    took), ``stock`` and ``skat`` as far as they name."""
    if reading == 0 and team_cards == TEAMS_BY_WON:
        return taken == 2
    last = reading if reading > 0 else (1 if team_cards == TEAMS_BY_ALL else 0)
    return 0 <= at <= last


@numba.njit(**JIT)
def declaration_order(first_round_tricks, lone, forehand, order):
    """Fill ``order[0:3]`` with the seats in the order they may name a game.

    The pair members go by first-round tricks (more first; equal: the one seated nearer
    forehand). The side with at least two first-round tricks comes first; the pair first
    puts the lone player between its members."""
    a = (lone + 1) % 3
    b = (lone + 2) % 3
    if first_round_tricks[b] > first_round_tricks[a] or (
            first_round_tricks[b] == first_round_tricks[a]
            and (b - forehand) % 3 < (a - forehand) % 3):
        a, b = b, a
    if first_round_tricks[a] + first_round_tricks[b] >= 2:
        order[0], order[1], order[2] = a, lone, b
    else:
        order[0], order[1], order[2] = lone, a, b


SPITZEN = ("copies", "ranks")
"""``spitzen``'s readings, by code (the kernel's flag ``ranks``)."""
SPITZEN_OF = ("side", "declarer")
"""``spitzen_of``'s readings, by code: the Spitzen are counted on the declaring side's cards
or on the declarer's own (the kernel's flag ``own``)."""
N_SPITZEN_COUNTS = len(SPITZEN) * len(SPITZEN_OF)
"""The Spitzen a deal is counted by every reading: ``spitzen_count(own, ranks)`` is where
each lies."""
SPITZEN_COLUMNS = ("spitzen_copies", "spitzen_ranks", "spitzen_declarer_copies",
                   "spitzen_declarer_ranks")
"""The result columns holding those counts, in their places."""


@numba.njit(inline="always", **JIT)
def spitzen_count(own, ranks):
    """Where the Spitzen counted on the declarer's ``own`` cards (else his side's), by
    ``ranks`` (else copies), lie among a deal's ``N_SPITZEN_COUNTS`` counts."""
    return 2 * own + ranks


@numba.njit(**JIT)
def spitzen(cards, table, ranks):
    """Consecutive top trumps in ``cards`` from the top of the trump order. By copies each
    copy is one Spitze and the run stops at the first trump of which ``cards`` lack a copy;
    by ``ranks`` each trump held at all is one and the run stops at the first trump of which
    they hold neither copy."""
    n = 0
    for k in range(TOP_N[table]):
        kind = TOP_KINDS[table, k]
        held = popcount(cards & (bit(kind) | bit(kind + N_KINDS)))
        if ranks:
            if held == 0:
                break
            n += 1
        else:
            n += held
            if held < 2:
                break
    return n


BAND_POINTS = (2, 3, 4, 6, 8)
"""The seed's points for each winner by the losers' band (``band_index``): 90 or more card
points, 60-89, 30-59, under 30, none: the defaults of the ``points_band_*`` options."""


@numba.njit(inline="always", **JIT)
def band_index(loser_points):
    """The losers' band of their card points: 0 at least 90, 1 60-89, 2 30-59, 3 under 30,
    4 none."""
    if loser_points == 0:
        return 4
    if loser_points < 30:
        return 3
    if loser_points < 60:
        return 2
    if loser_points < 90:
        return 1
    return 0


@numba.njit(inline="always", **JIT)
def band(loser_points):
    """The seed's points for each winner by the losers' card points (``BAND_POINTS``, the
    ``points_band_*`` defaults): 2; 3 under 90; 4 under 60; 6 under 30; 8 with none."""
    return BAND_POINTS[band_index(loser_points)]


PAIR, LONE = 0, 1
"""Sides: the pair, the lone player (-1: none)."""
SIDES = ("pair", "lone")


@numba.njit(inline="always", **JIT)
def game_code(game_type, trump):
    """The game code (0-8) of a game's type and trump suit (-1 in grand), the result
    columns ``game`` and ``trump``."""
    if game_type == GRAND:
        return GRAND_CODE
    return trump + (BRIDGE_BASE if game_type == BRIDGE else 0)


@numba.njit(**JIT)
def side_points(points, discards, fr_points, lone, fr_count):
    """The card points each side settles with, part by part: ``(pair, lone)``, each
    ``(main-game tricks, cards put away, first-round tricks)``, from each seat's main-game
    trick points ``points[s]``, discards ``discards[s]`` (a mask) and first-round trick
    points ``fr_points[s]``. The first-round tricks count (``fr_count``) under
    ``first_round_points`` when someone declared; else their part is 0."""
    pair_tricks = pair_put = pair_fr = 0
    lone_tricks = lone_put = lone_fr = 0
    for s in range(3):
        put = mask_points(discards[s], POINTS)
        fr = fr_points[s] if fr_count else 0
        if s == lone:
            lone_tricks += points[s]
            lone_put += put
            lone_fr += fr
        else:
            pair_tricks += points[s]
            pair_put += put
            pair_fr += fr
    return (pair_tricks, pair_put, pair_fr), (lone_tricks, lone_put, lone_fr)


@numba.njit(inline="always", **JIT)
def special_points(lone_both, lone_fr_tricks, redeal):
    """``(pair, lone)``: the special points each side earned in the first round (they count
    only for a side that scores): the lone player 1 for holding both turned-up cards
    (``lone_both``, as ``holds_both`` reads it), a side 1 for all three first-round tricks
    (the pair when the lone player took none); none after a redeal."""
    if redeal:
        return np.int64(0), np.int64(0)
    return (np.int64(lone_fr_tricks == 0),
            np.int64(lone_both) + np.int64(lone_fr_tricks == FIRST_ROUND_TRICKS))


@numba.njit(**JIT)
def settle_terms(points_pair, points_lone, declaring, grand, n_spitzen, special_pair, special_lone,
                 tie_special, zero_sum, bands):
    """The settlement of a played deal term by term: ``(winner_side, tie, band, spitzen,
    special, value, pair_score, lone_score)``.

    More card points wins (equal: the tie, no winner). Each winner scores ``value``: the
    ``band``, what ``bands`` (the ``points_band_*`` options, by ``band_index``) give for the
    losers' points, plus ``spitzen``, the declaring side's Spitzen (doubled in grand) if it
    won, plus ``special``, his side's special points. A tie gives each
    player of the non-declaring side ``band`` 1, never Spitzen, and with ``tie_special`` its
    special points on top; without a declaring side nobody scores (every term 0).
    ``pair_score`` is each pair member's score, ``lone_score`` the lone player's; with
    ``zero_sum`` the lone player wins or loses twice the value, each pair member once.
    """
    if points_pair == points_lone:
        if declaring < 0:
            return -1, True, 0, 0, 0, 0, 0, 0
        winner = -1
        scoring = 1 - declaring
        paid = 1
        spitzen_term = 0
        counted = tie_special != 0
    else:
        winner = PAIR if points_pair > points_lone else LONE
        scoring = winner
        paid = bands[band_index(points_lone if winner == PAIR else points_pair)]
        spitzen_term = n_spitzen * (2 if grand else 1) if declaring == winner else 0
        counted = True
    special = (special_pair if scoring == PAIR else special_lone) if counted else 0
    value = paid + spitzen_term + special
    tie = winner < 0
    if scoring == PAIR:
        return winner, tie, paid, spitzen_term, special, value, value, -2 * value if zero_sum else 0
    return (winner, tie, paid, spitzen_term, special, value, -value if zero_sum else 0,
            2 * value if zero_sum else value)


@numba.njit(**JIT)
def settle(points_pair, points_lone, declaring, grand, n_spitzen, special_pair, special_lone,
           tie_special, zero_sum, bands):
    """``(winner_side, tie, value, pair_score, lone_score)`` of a played deal: the totals of
    ``settle_terms``."""
    winner, tie, _, _, _, value, pair_score, lone_score = settle_terms(
        points_pair, points_lone, declaring, grand, n_spitzen, special_pair, special_lone,
        tie_special, zero_sum, bands)
    return winner, tie, value, pair_score, lone_score


@numba.njit(**JIT_NRT)
def settle_all(points_pair, points_lone, declaring, grand, spitzen_counts, both_at, team_cards,
               lone_taken, lone_fr_tricks, redeal, scoring):
    """Every deal of the arrays scored under the scoring rules (``scoring``: the
    ``both_copies`` reading, the Spitzen's place ``spitzen_count(own, ranks)`` of
    ``spitzen_of`` and ``spitzen``, ``tie_special``, ``zero_sum``, the ``bands``' points)
    from what its play decided: the side totals and declaring side, the Spitzen by every
    reading (``spitzen_counts[k]``: an array per place ``k``), where the lone player's cards
    hold both copies (``both_copies_at``), the ``team_cards`` code and the copies the lone
    player took in the first round, his first-round tricks and the redeal. Returns the
    arrays ``(lone_both, special_pair, special_lone, spitzen, winner_side, tie, value,
    pair_score, lone_score)``."""
    both_copies, counted, tie_special, zero_sum, bands = scoring
    n = points_pair.shape[0]
    lone_both = np.empty(n, np.bool_)
    special_pair = np.empty(n, np.int64)
    special_lone = np.empty(n, np.int64)
    n_spitzen = np.empty(n, np.int64)
    winner = np.empty(n, np.int64)
    tie = np.empty(n, np.bool_)
    value = np.empty(n, np.int64)
    pair_score = np.empty(n, np.int64)
    lone_score = np.empty(n, np.int64)
    for i in range(n):
        lone_both[i] = holds_both(both_at[i], both_copies, team_cards[i], lone_taken[i])
        special_pair[i], special_lone[i] = special_points(lone_both[i], lone_fr_tricks[i], redeal[i])
        n_spitzen[i] = spitzen_counts[counted][i]
        winner[i], tie[i], value[i], pair_score[i], lone_score[i] = settle(
            points_pair[i], points_lone[i], declaring[i], grand[i], n_spitzen[i], special_pair[i],
            special_lone[i], tie_special, zero_sum, bands)
    return (lone_both, special_pair, special_lone, n_spitzen, winner, tie, value, pair_score,
            lone_score)

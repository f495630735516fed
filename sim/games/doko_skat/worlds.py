"""Doko-Skat's worlds: a card-play state dealt from one seat's observation, played to the
end of the deal, and what the end is worth to a player's side.

What a seat cannot see (``sim.games.doko_skat.observation``), and so what ``world`` deals:

* **First round** (``obs[PHASE] == PH_FIRST_ROUND``): the first-round cards the other two
  still hold (three less those they played, none of an effective suit they failed to
  follow in this round, ``obs[FR_VOIDS]``), and the 39 cards of the three stocks and the
  skat, its own stock included: nobody has looked at his stock yet. The turned-up card is
  shown by its kind only (both copies look the same); it was the top of the nine
  first-round cards, so a deal whose nine hold both copies of it is twice as likely as one
  whose nine hold one (none: impossible). The sampler deals the first-round hands and the
  39 uniformly, keeps the deal with probability (copies among the nine) / 2, and splits
  the 39 uniformly into the stocks (12 each) and the skat (3).
* **Main game** (``PH_PLAY``): the cards the other two hold (12 less those they played,
  none of a suit they failed to follow in the main game, ``obs[VOIDS]``) and their
  discards: the lone player's three after a declaration (unless the seat is the lone
  player), everyone's four after a redeal. The first-round cards are all known by now; in
  a declared game they are out, after a redeal they are dealt again: each pair member was
  given four of the nine and the lone player one, so each other seat's cards hold exactly
  that many of them (less any it has shown). The skat, for every seat but the lone
  player, is three of the lone player's cards outside the nine (held, played or put
  away). With ``team_cards = all`` the teams also tell where the copies of the turned-up
  card lie (``teams`` over the first-round cards and the stocks must give the lone player
  the observation shows; with ``won`` every world does, who took the copies being seen).
  The sampler deals the hidden hands and discards
  (``sim.search.worlds.deal_world``, uniform under the voids), draws the skat uniformly
  among the lone player's candidates, and keeps the world only if the redeal's counts and
  the teams hold: rejection, so every consistent world is equally likely.

``world`` then sets the state up exactly as the observation shows the position (``observe``
of the world gives the observation back) with what the settlement needs of the hidden
cards: the Spitzen (``count_spitzen``) and where the lone player's cards hold both turned-up
cards. A first-round world also keeps the sampled stocks and skat behind the card-play
state (``STOCKS``, ``SKAT_DEALT``, so the state here is ``LENGTH`` long, longer than the card
play's): ``playout`` plays the first round out, forms the teams, asks the declaration and
the discards (or deals the redeal) as the kernel does, and plays the main game.

``value`` scores a finished deal for a player's side under the scoring-only options'
defaults (``both_copies`` team_cards, ``spitzen`` copies, ``spitzen_of`` side,
``tie_special_points`` true, ``zero_sum`` false, the seed's ``BAND_POINTS``: they do not
change how anybody plays): what each player of his side scores less what each player of
the other side scores.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import lsb, popcount
from sim.engine.cardplay import PLAY
from sim.engine.seats import HEURISTIC, KIND_MASK, NET
from sim.games.doko_skat import cardplay as CP
from sim.games.doko_skat.cardplay import (
    S,
    both_copies_at,
    count_spitzen,
    name_game,
    observe,
    put_away,
    redeal,
    settlement,
    start_main_game,
    take_up,
)
from sim.games.doko_skat.observation import FIELDS as O
from sim.games.doko_skat.observation import PH_DECLARE, PH_DISCARD, PH_FIRST_ROUND
from sim.games.doko_skat.policies import decide_declaration, decide_discard
from sim.games.doko_skat.values import (
    BAND_POINTS,
    FIRST_ROUND_TRICKS,
    JIT,
    JIT_NRT,
    N_CARDS,
    N_KINDS,
    SUIT_MASKS,
    TRICKS,
    copies,
    declaration_order,
    teams,
)
from sim.policies.random import random_cards
from sim.rng import below
from sim.search.worlds import deal_world

DECK = np.uint64((1 << N_CARDS) - 1)
"""Every card of the 48-card deck (one bit per copy)."""
STOCK = 12
SKAT_CARDS = 3
FIRST_ROUND_CARDS = 3
"""Cards in each stock, in the skat, in each first-round hand."""
LONE_EXTRA, PAIR_EXTRA = 1, 4
"""First-round cards a redeal gives the lone player and each pair member."""
LONE_DISCARDS, REDEAL_DISCARDS = 3, 4
"""Cards the lone player puts away after a declaration, and each seat after a redeal."""

STOCKS = CP.LENGTH
"""Behind the card-play state: the three stocks a first-round world dealt..."""
SKAT_DEALT = CP.LENGTH + 3
"""... and its skat (both 0 in a main-game world: the card-play state holds them)..."""
STAGE = CP.LENGTH + 4
"""... where a world between the rounds stands (``IN_PLAY``: in a round of tricks)..."""
NEXT = CP.LENGTH + 5
"""... and who decides next there: the index in the declaration order, or the discarding
seat of a redeal counted from forehand."""
LENGTH = CP.LENGTH + 6
"""The search state's length."""
IN_PLAY, DECLARING, LONE_DISCARD, REDEAL_DISCARD, READY = range(5)
"""``STAGE``: in a round; the declaration; the lone player's discard; the redeal's discards;
the main game about to start."""

DEFAULT_BOTH_COPIES = 0
"""``both_copies``'s default, ``team_cards`` (its code; scoring only)."""
DEFAULT_SPITZEN = 0
"""The Spitzen ``spitzen``'s and ``spitzen_of``'s defaults count, the side's by copies
(``spitzen_count(0, 0)``; scoring only)."""
DEFAULT_TIE_SPECIAL = 1
"""``tie_special_points``'s default, true (scoring only)."""
DEFAULT_ZERO_SUM = False
"""``zero_sum``'s default, false (scoring only)."""
TRIES = 1 << 16
"""Worlds drawn before ``world`` gives up looking for one its checks accept and keeps the
last (a real observation is accepted within a few tries; see the module text)."""

__all__ = ["LENGTH", "playout", "pregame_step", "pregame_world", "value", "world"]


@numba.njit(inline="always", **JIT)
def _allowed(table, voids):
    """The cards a hand that has shown the ``voids`` (effective suits, a bit each) may hold
    under trick table ``table``."""
    out = DECK
    for e in range(5):
        if (voids >> e) & 1:
            out &= ~SUIT_MASKS[table, e]
    return out


@numba.njit(**JIT_NRT)
def world(obs, rng, state):
    """Fill ``state`` (``LENGTH`` long) with one world of the card-play position ``obs``
    shows its seat: the cards it cannot see dealt uniformly among the deals consistent with
    it (module text)."""
    seat = obs[O.SEAT]
    _shown(obs, state, seat)
    state[S.ROUND] = obs[O.PHASE]
    if obs[O.PHASE] == PH_FIRST_ROUND:
        state[S.N_TRICKS] = FIRST_ROUND_TRICKS
        _first_round_world(obs, rng, state, seat)
    else:
        state[S.N_TRICKS] = TRICKS
        _main_world(obs, rng, state, seat)


@numba.njit(inline="always", **JIT)
def _shown(obs, state, seat):
    """Set ``state`` to what the observation shows of the position: the rounds, teams,
    games and redeal, the seat's cards and whose decision it is (nothing else yet)."""
    state[:] = 0
    for k in range(O.DECLARER + 1 - O.FOREHAND):
        state[S.FOREHAND + k] = obs[O.FOREHAND + k]
    for k in range(O.OUT + 1 - O.REDEAL):
        state[S.REDEAL + k] = obs[O.REDEAL + k]
    for k in range(O.MAIN_LEAD + 1 - O.TEAM_CARDS):
        state[S.TEAM_CARDS + k] = obs[O.TEAM_CARDS + k]
    state[S.TO_MOVE] = seat
    state[S.PLAYER] = seat
    state[S.PHASE] = PLAY
    state[S.DONE] = 0
    state[S.HANDS + seat] = obs[O.HAND]


@numba.njit(**JIT_NRT)
def pregame_world(obs, rng, state):
    """Fill ``state`` (``LENGTH`` long) with one world of a decision between the rounds
    (``PH_DECLARE``, ``PH_DISCARD``: the seat's observation ``obs``), uniformly among the
    deals consistent with it: the other two seats' cards (their stocks, the lone player's
    with the skat; after a redeal their sixteen, of which each pair member holds four of the
    nine first-round cards and the lone player one), none of the nine before a redeal, the
    teams as shown; the skat, for a seat that is not the lone player, three of the lone
    player's cards outside the nine; a seat that put its cards away before this one, four
    of its sixteen at random. ``STAGE`` and ``NEXT`` say where the decision stands, for
    ``pregame_step`` and ``playout`` to go on from."""
    seat = obs[O.SEAT]
    _shown(obs, state, seat)
    state[S.ROUND] = PH_FIRST_ROUND
    state[S.N_TRICKS] = FIRST_ROUND_TRICKS
    state[S.DONE] = 1
    lone = obs[O.LONE]
    redealt = obs[O.REDEAL] != 0
    forehand = obs[O.FOREHAND]
    first_round = np.zeros(3, np.uint64)
    nine = np.uint64(0)
    for s in range(3):
        first_round[s] = np.uint64(obs[O.FR_PLAYED + s])
        nine |= first_round[s]
    cards = np.zeros(3, np.uint64)
    cards[seat] = np.uint64(obs[O.HAND]) | np.uint64(obs[O.DISCARDED])
    unknown = DECK & ~cards[seat] & ~(np.uint64(0) if redealt else nine)
    counts = np.zeros(2, np.int64)
    allowed = np.full(2, DECK, np.uint64)
    dealt = np.zeros(2, np.uint64)
    for k in range(2):
        o = (seat + 1 + k) % 3
        counts[k] = STOCK + PAIR_EXTRA if redealt else STOCK + (SKAT_CARDS if o == lone else 0)
    stocks = np.zeros(3, np.uint64)
    skat = np.uint64(obs[O.SKAT])
    for _ in range(TRIES):
        deal_world(unknown, counts, allowed, rng, dealt)
        for k in range(2):
            cards[(seat + 1 + k) % 3] = dealt[k]
        if seat != lone:
            skat = random_cards(cards[lone] & ~nine, SKAT_CARDS, rng)
        if _consistent(obs, cards, nine, skat, first_round, stocks, seat, lone, redealt):
            break
    discarding = (seat - forehand) % 3
    for k in range(2):
        o = (seat + 1 + k) % 3
        state[S.HANDS + o] = np.int64(cards[o])
        if redealt and (o - forehand) % 3 < discarding:
            put_away(state, o, random_cards(cards[o], REDEAL_DISCARDS, rng))
    state[S.DISCARDS + seat] = obs[O.DISCARDED]
    state[S.SKAT] = np.int64(skat)
    state[S.BOTH_AT] = both_copies_at(first_round[lone], stocks[lone], skat, obs[O.TURNED_UP])
    if obs[O.PHASE] == PH_DECLARE:
        order = np.zeros(3, np.int64)
        declaration_order(state[S.FR_TRICKS:S.FR_TRICKS + 3], lone, forehand, order)
        state[STAGE] = DECLARING
        state[NEXT] = np.argmax(order == seat)
    elif redealt:
        state[STAGE] = REDEAL_DISCARD
        state[NEXT] = discarding
    else:
        state[STAGE] = LONE_DISCARD


@numba.njit(**JIT)
def pregame_step(state, action):
    """The seat to move decides in a ``pregame_world``: at the declaration a game code or -1
    to pass, at a discard the cards it puts away."""
    seat = state[S.TO_MOVE]
    stage = state[STAGE]
    if stage == DECLARING:
        if action >= 0:
            name_game(state, seat, action)
            state[STAGE] = LONE_DISCARD
        else:
            state[NEXT] += 1
        return
    put_away(state, seat, np.uint64(action))
    if stage == REDEAL_DISCARD:
        state[NEXT] += 1
    else:
        state[STAGE] = READY


@numba.njit(**JIT_NRT)
def _first_round_world(obs, rng, state, seat):
    """The others' first-round cards left, the stocks and the skat (module text)."""
    table = obs[O.FR_TABLE]
    both = copies(obs[O.TURNED_UP])
    known = np.uint64(obs[O.HAND])
    for s in range(3):
        known |= np.uint64(obs[O.FR_PLAYED + s])
    shown = popcount(known & both)  # copies of the turned-up card seen among the nine
    counts = np.zeros(3, np.int64)
    allowed = np.zeros(3, np.uint64)
    dealt = np.zeros(3, np.uint64)
    for k in range(2):
        o = (seat + 1 + k) % 3
        counts[k] = FIRST_ROUND_CARDS - popcount(np.uint64(obs[O.FR_PLAYED + o]))
        allowed[k] = _allowed(table, obs[O.FR_VOIDS + o])
    counts[2] = 3 * STOCK + SKAT_CARDS
    allowed[2] = DECK
    for _ in range(TRIES):
        deal_world(DECK & ~known, counts, allowed, rng, dealt)
        nine = shown + popcount((dealt[0] | dealt[1]) & both)
        if nine == 2 or (nine == 1 and below(rng, 2) == 0):
            break
    for k in range(2):
        state[S.HANDS + (seat + 1 + k) % 3] = np.int64(dealt[k])
    rest = dealt[2]
    for s in range(3):
        stock = random_cards(rest, STOCK, rng)
        state[STOCKS + s] = np.int64(stock)
        rest &= ~stock
    state[SKAT_DEALT] = np.int64(rest)


@numba.njit(**JIT_NRT)
def _main_world(obs, rng, state, seat):
    """The others' hands and discards and the skat, then the settlement's facts of them
    (module text)."""
    lone = obs[O.LONE]
    redealt = obs[O.REDEAL] != 0
    table = obs[O.TABLE]
    nine = np.uint64(0)
    played = np.uint64(0)
    first_round = np.zeros(3, np.uint64)
    for s in range(3):
        first_round[s] = np.uint64(obs[O.FR_PLAYED + s])
        nine |= first_round[s]
        played |= np.uint64(obs[O.PLAYED + s])
    known = np.uint64(obs[O.HAND]) | np.uint64(obs[O.DISCARDED]) | played
    if not redealt:
        known |= nine
    # the hidden places: each other seat's hand, then its discards where it has hidden ones
    counts = np.zeros(4, np.int64)
    allowed = np.zeros(4, np.uint64)
    hand_at = np.full(3, -1, np.int64)
    put_at = np.full(3, -1, np.int64)
    n = 0
    for k in range(2):
        o = (seat + 1 + k) % 3
        counts[n] = STOCK - popcount(np.uint64(obs[O.PLAYED + o]))
        allowed[n] = _allowed(table, obs[O.VOIDS + o])
        hand_at[o] = n
        n += 1
        put = REDEAL_DISCARDS if redealt else (LONE_DISCARDS if o == lone else 0)
        if put:
            counts[n] = put
            allowed[n] = DECK
            put_at[o] = n
            n += 1
    dealt = np.zeros(4, np.uint64)
    cards = np.zeros(3, np.uint64)  # each seat's main-game cards and discards
    stocks = np.zeros(3, np.uint64)
    skat = np.uint64(obs[O.SKAT])
    for _ in range(TRIES):
        deal_world(DECK & ~known, counts[:n], allowed[:n], rng, dealt[:n])
        for s in range(3):
            if s == seat:
                cards[s] = np.uint64(obs[O.HAND]) | np.uint64(obs[O.DISCARDED])
            else:
                cards[s] = dealt[hand_at[s]]
                if put_at[s] >= 0:
                    cards[s] |= dealt[put_at[s]]
            cards[s] |= np.uint64(obs[O.PLAYED + s])
        if seat != lone:
            skat = random_cards(cards[lone] & ~nine, SKAT_CARDS, rng)
        if _consistent(obs, cards, nine, skat, first_round, stocks, seat, lone, redealt):
            break
    for k in range(2):
        o = (seat + 1 + k) % 3
        state[S.HANDS + o] = np.int64(dealt[hand_at[o]])
        if put_at[o] >= 0:
            state[S.DISCARDS + o] = np.int64(dealt[put_at[o]])
    state[S.DISCARDS + seat] = obs[O.DISCARDED]
    state[S.SKAT] = np.int64(skat)
    state[S.BOTH_AT] = both_copies_at(first_round[lone], stocks[lone], skat, obs[O.TURNED_UP])
    count_spitzen(state)


@numba.njit(**JIT)
def _consistent(obs, cards, nine, skat, first_round, stocks, seat, lone, redealt):
    """Whether a dealt main-game world fits what the seat knows beyond the voids: after a
    redeal each other seat's cards hold as many of the nine first-round cards as it was
    given; the stocks (``stocks`` is filled) and first-round cards give the teams shown."""
    for s in range(3):
        stocks[s] = cards[s] & ~nine
        if s == lone:
            stocks[s] &= ~skat
        if redealt and s != seat and popcount(cards[s] & nine) != (
                LONE_EXTRA if s == lone else PAIR_EXTRA):
            return False
    return teams(first_round, stocks, obs[O.TURNED_UP], obs[O.TEAM_CARDS],
                 obs[O.FR_COPIES:O.FR_COPIES + 3]) == lone


# --- the rest of the deal ------------------------------------------------------------------

@numba.njit(**JIT_NRT)
def playout(state, pols, rngs, net):
    """Play a search state to the end of the deal with the policies (kernel ids, one per
    seat; each seat draws from ``rngs[seat]``; ``net`` holds the networks of its ``net``
    seats): from the first round on, or from a decision between the rounds (``STAGE``),
    through the teams, the declaration, the discards or the redeal and the main game, as the
    kernel does."""
    if state[S.ROUND] == PH_FIRST_ROUND:
        if state[STAGE] == IN_PLAY:
            CP.playout(state, pols, rngs, net)
            _teams(state)
        _between_rounds(state, _without_nets(pols), rngs)
    CP.playout(state, pols, rngs, net)


@numba.njit(**JIT_NRT)
def _without_nets(pols):
    """``pols`` with each ``net`` seat's id the heuristic's: a network plays the main game's
    cards only, its seat's declaration and discards are the heuristic's (as ``kernel.ask``
    answers them)."""
    out = pols.copy()
    for p in range(out.shape[0]):
        if out[p] >= 0 and (out[p] & KIND_MASK) == NET:
            out[p] = HEURISTIC
    return out


@numba.njit(**JIT_NRT)
def _teams(state):
    """After the first round: the teams, everyone takes up his stock (the lone player the
    skat); the declaration is next."""
    first_round = np.zeros(3, np.uint64)
    stocks = np.zeros(3, np.uint64)
    for s in range(3):
        first_round[s] = np.uint64(state[S.FR_PLAYED + s])
        stocks[s] = np.uint64(state[STOCKS + s])
    lone = teams(first_round, stocks, state[S.TURNED_UP], state[S.TEAM_CARDS],
                 state[S.FR_COPIES:S.FR_COPIES + 3])
    take_up(state, stocks, np.uint64(state[SKAT_DEALT]), lone)
    state[STAGE] = DECLARING
    state[NEXT] = 0


@numba.njit(**JIT_NRT)
def _between_rounds(state, pols, rngs):
    """From where ``STAGE`` and ``NEXT`` stand: the declaration's speakers left; the lone
    player's discards, or the redeal and the discards left; the main game's first lead."""
    lone = state[S.LONE]
    forehand = state[S.FOREHAND]
    obs = np.zeros(O.LENGTH, np.int64)
    if state[STAGE] == DECLARING:
        order = np.zeros(3, np.int64)
        declaration_order(state[S.FR_TRICKS:S.FR_TRICKS + 3], lone, forehand, order)
        for i in range(state[NEXT], 3):
            s = order[i]
            observe(state, s, obs)
            obs[O.PHASE] = PH_DECLARE
            obs[O.NEXT_SPEAKER] = order[i + 1] if i < 2 else -1
            code = decide_declaration(pols[s], obs, rngs[s])
            if code >= 0:
                name_game(state, s, code)
                state[STAGE] = LONE_DISCARD
                break
        if state[STAGE] == DECLARING:
            first_round = np.zeros(3, np.uint64)
            for s in range(3):
                first_round[s] = np.uint64(state[S.FR_PLAYED + s])
            _redeal(state, first_round, lone, rngs[lone])
            state[STAGE] = REDEAL_DISCARD
            state[NEXT] = 0
    if state[STAGE] == LONE_DISCARD:
        _discard(state, obs, lone, LONE_DISCARDS, pols, rngs)
    elif state[STAGE] == REDEAL_DISCARD:
        for r in range(state[NEXT], 3):
            _discard(state, obs, (forehand + r) % 3, REDEAL_DISCARDS, pols, rngs)
    state[STAGE] = IN_PLAY
    start_main_game(state)


@numba.njit(**JIT)
def _discard(state, obs, seat, n, pols, rngs):
    """``seat`` puts ``n`` of his cards away, as his policy says."""
    observe(state, seat, obs)
    obs[O.PHASE] = PH_DISCARD
    obs[O.N_DISCARD] = n
    put_away(state, seat, decide_discard(pols[seat], obs, rngs[seat]))


@numba.njit(**JIT_NRT)
def _redeal(state, first_round, lone, rng):
    """Nobody declared: one of the nine first-round cards turned up sets the game; the nine
    go 4 to each pair member and 1 to the lone player, at random."""
    nine = first_round[0] | first_round[1] | first_round[2]
    second = lsb(random_cards(nine, 1, rng)) % N_KINDS
    extra = np.zeros(3, np.uint64)
    rest = nine
    for s in range(3):
        extra[s] = random_cards(rest, LONE_EXTRA if s == lone else PAIR_EXTRA, rng)
        rest &= ~extra[s]
    redeal(state, second, extra)


@numba.njit(**JIT)
def value(state, player):
    """What the finished deal is worth to ``player``'s side under the scoring-only
    options' defaults: each of its players' score less each of the other side's."""
    _, _, terms = settlement(state, DEFAULT_BOTH_COPIES, DEFAULT_SPITZEN, DEFAULT_TIE_SPECIAL,
                             DEFAULT_ZERO_SUM, BAND_POINTS)
    pair_score = terms[6]
    lone_score = terms[7]
    if player == state[S.LONE]:
        return np.float64(lone_score - pair_score)
    return np.float64(pair_score - lone_score)


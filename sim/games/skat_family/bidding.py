"""Decisions shared by the Skat family (``skat``, ``skat_en_deux``): the bidding, yes/no,
discard, declaration and card questions a kernel puts to a seat (which policy answers is
``sim.games.skat_family.policies``).

A "seat" here is the place whose observation is filled (``observation``); the
"player" is who decides, as the trace names him (in Skat both are the same; in
Skat-en-deux the defender decides for the blind's place too).
Compiled as ``values.JIT`` says (without numba's reference counting).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numba
import numpy as np

from sim import actions as A
from sim.cards import bit, popcount
from sim.engine.game import Answers, Outcome, forehand
from sim.engine.kernel import answer_of, ask, discard_row, discard_value, next_value, order_deck
from sim.engine.net import net_policy
from sim.engine.seats import CHOSEN, KIND_BITS, KIND_MASK
from sim.games.skat_family.features import YES_OR_NO, rows_of
from sim.games.skat_family.lookahead import (
    answer_values,
    decide_bid,
    decide_card,
    decide_declaration,
    decide_discard,
    decide_yes,
)
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.observation import PH_BID, PH_DECLARE, PH_DISCARD, PH_GIVE_UP
from sim.games.skat_family.values import JIT, JIT_NRT, declaration_choices

SeatWon = Callable[[Mapping[str, np.ndarray], int], np.ndarray]
"""Whether a seat won each deal (``Outcome.seat_won``: 1, 0, -1 nobody)."""


def ramsch_by_score(n_players: int) -> SeatWon:
    """Who won a ramsch by its scores: those with the best score when it is not a loss (no
    loss, or the Durchmarsch); nobody when every seat lost points."""

    def won(columns: Mapping[str, np.ndarray], seat: int) -> np.ndarray:
        scores = np.stack([columns[f"score_{s}"].astype(np.int64) for s in range(n_players)])
        best = scores.max(axis=0)
        return np.where(best >= 0, scores[seat] == best, -1).astype(np.int8)

    return won


def outcome(n_players: int, ramsch_won: SeatWon | None = None) -> Outcome:
    """How a Skat-family deal reads in the analysis: scores in game points; forehand
    leads; a declared game is won by the declarer's side or the defenders (``won``); a
    ramsch as ``ramsch_won`` says (by default ``ramsch_by_score``); a deal thrown in by
    nobody."""
    in_ramsch = ramsch_won or ramsch_by_score(n_players)

    def seat_won(columns: Mapping[str, np.ndarray], seat: int) -> np.ndarray:
        ramsch = columns["ramsch"].astype(bool)
        declared = (columns["declarer"] >= 0) & ~ramsch
        out = np.full(ramsch.shape[0], -1, np.int8)
        out[ramsch] = in_ramsch(columns, seat)[ramsch]
        out[declared] = (columns["declarer"][declared] == seat) == columns["won"][declared].astype(bool)
        return out

    return Outcome("score", "points", forehand(n_players), seat_won)


YES_NO = 0b11
"""``LEGAL`` at a yes or no before the card play: the answers 0 (no, pass) and 1 (yes, bid the
next value), which a network scores as it scores cards (``sim.engine.net``)."""

ANSWERS = Answers(
    phases=YES_OR_NO, values=answer_values,
    yes_kinds=frozenset({A.BID, A.HOLD, A.PICKUP, A.GIVE_UP}), declined={PH_GIVE_UP: A.GIVE_UP})
"""The Skat family's yes-or-no questions before the card play, as a learned player is taught
them (``Learned.answers``): a bid, a hold, 18, the pickup, a give-up at 18 (Skat-en-deux's
only no without a row)."""

W_CHOICES, W_LEN = 0, 36
"""Scratch space of one shard (``work``), reused by every deal: room for the declarations
offered (``W_CHOICES`` on)."""


@numba.njit(inline="always", **JIT)
def private(obs, seat, position, hand):
    """Fill the deciding seat's private fields; the rest of ``obs`` is public."""
    obs[O.SEAT] = seat
    obs[O.POSITION] = position
    obs[O.HAND] = np.int64(hand)
    obs[O.LEGAL] = 0
    obs[O.SKAT] = 0


# --- the questions (``kernel.ask``) ---------------------------------------------------------

@numba.njit(inline="always", **JIT)
def _decide_bid(ctx, pol, obs, rng):
    return decide_bid(pol, obs, rng, ctx[0])


@numba.njit(inline="always", **JIT)
def _check_bid(ctx, obs, v):
    """A pass (0), or one of the bid ``values`` above the bid so far."""
    values, bid = ctx
    if v == 0:
        return 0
    for w in values:
        if w == v and v > bid:
            return v
    return -1


@numba.njit(inline="always", **JIT)
def _bid_row(ctx, v):
    return (A.BID, v, 0) if v else (A.PASS, 0, 0)


@numba.njit(inline="always", **JIT)
def _bid_value(ctx, kind, a, b):
    if kind == A.PASS:
        return 0
    return answer_of(kind, A.BID, a) if a else -2


@numba.njit(inline="always", **JIT)
def _decide_yes(ctx, pol, obs, rng):
    return 1 if decide_yes(pol, obs, rng) else 0


@numba.njit(inline="always", **JIT)
def _check_yes(ctx, obs, yes):
    return yes


@numba.njit(inline="always", **JIT)
def _yes_row(ctx, yes):
    """Yes as ``yes_kind`` carrying ``value``, no as ``no_kind`` (no row when it is -1)."""
    yes_kind, no_kind, value = ctx
    return (yes_kind, value, 0) if yes else (no_kind, 0, 0)


@numba.njit(inline="always", **JIT)
def _yes_value(ctx, kind, a, b):
    yes_kind, no_kind, value = ctx
    if kind == yes_kind:
        return 1 if a == value else -2
    if kind == no_kind or (no_kind < 0 and kind == A.DECLINE and a == yes_kind):
        return 0
    return -1


@numba.njit(inline="always", **JIT)
def answer_yes(pol, player, yes_kind, no_kind, obs, state, io, value):
    """``player``'s yes or no (1/0), his observation ``obs`` filled (``LEGAL``: the answers
    allowed), recorded as ``yes_kind`` (carrying ``value``) or ``no_kind``; with ``no_kind``
    -1 a no leaves no row (a person's no is a ``DECLINE`` row in his script). A ``net`` seat's
    network answers where its weights say so (``net_policy``, as at a card). 0 after a replay
    error or at a person's stop."""
    yes = ask(net_policy(pol, obs, io.net, rows_of(obs)), player, obs, state, _decide_yes,
              _check_yes, _yes_row, _yes_value, (yes_kind, no_kind, value), io)
    return max(yes, 0)


@numba.njit(**JIT)
def ask_bid(bidder, player, position, bid, obs, hand, pol, state, values, io):
    """Seat ``bidder`` (``player`` in the trace) names a higher value or passes (0): a yes or
    no to the next value (``LEGAL``: ``YES_NO``, or the pass alone when no value is left),
    which a ``net`` seat's network may answer (``net_policy``)."""
    private(obs, bidder, position, hand)
    obs[O.PHASE] = PH_BID
    obs[O.BID] = bid
    nxt = next_value(values, bid)
    obs[O.NEXT_BID] = nxt
    obs[O.LEGAL] = YES_NO if nxt else 1
    pol = net_policy(pol, obs, io.net, rows_of(obs))
    if pol >= 0 and (pol & KIND_MASK) == CHOSEN and pol >> KIND_BITS:
        pol = CHOSEN | nxt << KIND_BITS
    v = ask(pol, player, obs, state, _decide_bid, _check_bid, _bid_row, _bid_value,
            (values, bid), io)
    if v > 0:
        obs[O.SEAT_BID + bidder] = v
    elif v == 0:
        obs[O.PASSED] |= 1 << bidder
    return max(v, 0)


@numba.njit(**JIT)
def ask_yes(seat, player, position, phase, yes_kind, no_kind, obs, hand, pol, state, io, value):
    """A yes/no decision by ``seat`` in ``phase`` before the card play (``answer_yes``)."""
    private(obs, seat, position, hand)
    obs[O.PHASE] = phase
    obs[O.LEGAL] = YES_NO
    return answer_yes(pol, player, yes_kind, no_kind, obs, state, io,
                      value)


@numba.njit(inline="always", **JIT_NRT)
def deal_three_hands(state, perm, hands, preset):
    """Shuffle the 32 cards (or take them as ``preset`` lays them: ``order_deck``) and
    deal 10 to each of ``hands[0..2]``; return the skat."""
    order_deck(state, perm, preset, 0)
    for s in range(3):
        h = np.uint64(0)
        for k in range(10):
            h |= bit(perm[10 * s + k])
        hands[s] = h
    return bit(perm[30]) | bit(perm[31])


@numba.njit(inline="always", **JIT)
def _decide_discard(ctx, pol, obs, rng):
    return np.int64(decide_discard(pol, obs, rng))


@numba.njit(inline="always", **JIT)
def _check_discard(full, obs, put):
    """Two of the cards the declarer holds (``full``)."""
    return put if popcount(np.uint64(put)) == 2 and not (np.uint64(put) & ~full) else -1


@numba.njit(inline="always", **JIT)
def ask_discard(seat, player, position, full, skat, obs, pol, state, io):
    """The declarer, holding ``full`` (his hand and the ``skat`` he picked up), puts two
    cards away; returns them (0 when a replayed discard does not fit)."""
    private(obs, seat, position, full)
    obs[O.PHASE] = PH_DISCARD
    obs[O.SKAT] = np.int64(skat)
    put = ask(pol, player, obs, state, _decide_discard, _check_discard, discard_row,
              discard_value, full, io)
    return np.uint64(max(put, 0))


@numba.njit(inline="always", **JIT)
def _decide_declaration(ctx, pol, obs, rng):
    flags, announce, buf = ctx
    return decide_declaration(pol, obs, rng, flags, announce, buf)


@numba.njit(inline="always", **JIT)
def check_declaration(ctx, obs, decl):
    """One of the declarations offered now (``declaration_choices``)."""
    flags, _, buf = ctx
    n = declaration_choices(obs, flags, buf)
    for k in range(n):
        if buf[k] == decl:
            return decl
    return -1


@numba.njit(inline="always", **JIT)
def _declaration_row(ctx, decl):
    return A.DECLARE, decl, 0


@numba.njit(inline="always", **JIT)
def _declaration_value(ctx, kind, a, b):
    return answer_of(kind, A.DECLARE, a)


@numba.njit(inline="always", **JIT)
def ask_declaration(seat, player, position, hand, skat_known, obs, pol, state, flags, announce,
                    buf, io):
    """The declarer names his game among those offered (``flags``: the announcement or
    open-level bits allowed); returns the declaration (-1 when a replayed one does not fit)."""
    private(obs, seat, position, hand)
    obs[O.PHASE] = PH_DECLARE
    obs[O.SKAT] = np.int64(skat_known)
    return ask(pol, player, obs, state, _decide_declaration, check_declaration,
               _declaration_row, _declaration_value, (flags, announce, buf), io)


@numba.njit(inline="always", **JIT)
def decide_play(ctx, pol, obs, rng):
    """The policy's card (``kernel.ask``'s ``decide`` for a card)."""
    return decide_card(pol, obs, rng)

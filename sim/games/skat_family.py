"""Decisions shared by the Skat family (``skat``, ``skat_en_deux``): the bidding, yes/no,
discard, declaration and card questions a kernel puts to a seat (which policy answers is
``sim.policies.skat_family``).

A "seat" here is the place whose observation is filled (``skat_obs``); the
"player" is who decides, as the trace names him (in Skat both are the same; in
Skat-en-deux the defender decides for the blind's place too).
Compiled as ``skat_values.JIT`` says (without numba's reference counting).
"""

from __future__ import annotations

from collections.abc import Mapping

import numba
import numpy as np

from sim import actions as A
from sim.cards import bit, popcount
from sim.games import skat_obs as O
from sim.games.base import Outcome, forehand
from sim.games.kernel import (
    E_ILLEGAL,
    next_value,
    order_deck,
    person_waits,
    record,
    scripted,
    scripted_either,
    scripted_optional,
)
from sim.games.skat_values import JIT, JIT_NRT, declaration_choices
from sim.policies.skat_family import (
    decide_bid,
    decide_declaration,
    decide_discard,
    decide_yes,
)


def outcome(n_players: int) -> Outcome:
    """How a Skat-family deal reads in the analysis: scores in game points; forehand
    leads; a declared game is won by the declarer's side or the defenders (``won``); a
    ramsch by the best score (no loss, or the Durchmarsch; nobody when every seat lost
    points); a deal thrown in by nobody."""

    def seat_won(columns: Mapping[str, np.ndarray], seat: int) -> np.ndarray:
        scores = np.stack([columns[f"score_{s}"].astype(np.int64) for s in range(n_players)])
        best = scores.max(axis=0)
        ramsch = columns["ramsch"].astype(bool)
        declared = (columns["declarer"] >= 0) & ~ramsch
        out = np.full(best.shape[0], -1, np.int8)
        on_top = ramsch & (best >= 0)
        out[on_top] = scores[seat][on_top] == best[on_top]
        out[declared] = (columns["declarer"][declared] == seat) == columns["won"][declared].astype(bool)
        return out

    return Outcome("score", "points", forehand(n_players), seat_won)


W_POINTS, W_TRICKS, W_CHOICES, W_LEN = 0, 3, 12, 48
"""Scratch space of one shard (``work``), reused by every deal: room for the declarations
offered (``W_CHOICES`` on); a trick result given by hand to ``skat_en_deux._settle`` puts
points and tricks per place at ``W_POINTS`` and ``W_TRICKS``."""


@numba.njit(**JIT)
def allowed_declaration(decl, obs, flags, buf):
    """Whether ``decl`` is among the declarations offered now."""
    n = declaration_choices(obs, flags, buf)
    for k in range(n):
        if buf[k] == decl:
            return True
    return False


@numba.njit(inline="always", **JIT)
def private(obs, seat, position, hand):
    """Fill the deciding seat's private fields; the rest of ``obs`` is public."""
    obs[O.SEAT] = seat
    obs[O.POSITION] = position
    obs[O.HAND] = np.int64(hand)
    obs[O.LEGAL] = 0
    obs[O.SKAT] = 0


@numba.njit(**JIT)
def ask_bid(bidder, player, position, bid, obs, hand, pol, state, values, script, cur, err,
            log, nlog):
    """Seat ``bidder`` (``player`` in the trace) names a higher value or passes (0)."""
    private(obs, bidder, position, hand)
    obs[O.PHASE] = O.PH_BID
    obs[O.BID] = bid
    obs[O.NEXT_BID] = next_value(values, bid)
    if pol < 0:
        if person_waits(pol, script, cur, obs, err, log, nlog):
            return 0
        i = cur[0]
        if i < script.shape[0] and script[i, 1] == player and script[i, 0] == A.PASS:
            cur[0] = i + 1
            v = 0
        else:
            v = scripted(script, cur, A.BID, player, err)
            if err[0]:
                return 0
            ok = False
            for w in values:
                ok = ok or (w == v and v > bid)
            if not ok:
                err[0] = E_ILLEGAL
                return 0
    else:
        v = decide_bid(pol, obs, state, values)
    if v:
        record(log, nlog, A.BID, player, v, 0)
        obs[O.SEAT_BID + bidder] = v
    else:
        record(log, nlog, A.PASS, player, 0, 0)
        obs[O.PASSED] |= 1 << bidder
    return v


@numba.njit(**JIT)
def ask_yes(seat, player, position, phase, yes_kind, no_kind, obs, hand, pol, state, script,
            cur, err, log, nlog, value):
    """A yes/no decision by ``seat`` in ``phase``, recorded as ``yes_kind``/``no_kind``."""
    private(obs, seat, position, hand)
    obs[O.PHASE] = phase
    return answer_yes(pol, player, yes_kind, no_kind, obs, state, script, cur, err, log, nlog,
                      value)


@numba.njit(**JIT)
def answer_yes(pol, player, yes_kind, no_kind, obs, state, script, cur, err, log, nlog, value):
    """``player``'s yes or no (1/0), his observation ``obs`` filled, recorded as ``yes_kind``
    (carrying ``value``) or ``no_kind``; 0 after a replay error or at a person's stop."""
    if pol < 0:
        if person_waits(pol, script, cur, obs, err, log, nlog):
            return 0
        yes = scripted_either(script, cur, yes_kind, no_kind, player, value, err)
        if err[0]:
            return 0
    else:
        yes = decide_yes(pol, obs, state)
    record(log, nlog, yes_kind if yes else no_kind, player, value if yes else 0, 0)
    return 1 if yes else 0


@numba.njit(**JIT)
def ask_optional(seat, player, position, phase, kind, obs, hand, pol, state, script, cur, err,
                 log, nlog):
    """A yes/no decision whose "no" leaves no action (give up, Contra, Re): yes is
    recorded as ``kind``."""
    private(obs, seat, position, hand)
    obs[O.PHASE] = phase
    return answer_optional(pol, player, kind, obs, state, script, cur, err, log, nlog)


@numba.njit(**JIT)
def answer_optional(pol, player, kind, obs, state, script, cur, err, log, nlog):
    """``player``'s yes or no (1/0) to a question whose "no" leaves no action, his
    observation ``obs`` filled; yes is recorded as ``kind``."""
    if pol < 0:
        if person_waits(pol, script, cur, obs, err, log, nlog):
            return 0
        yes, _ = scripted_optional(script, cur, kind, player)
    else:
        yes = decide_yes(pol, obs, state)
    if yes:
        record(log, nlog, kind, player, 0, 0)
    return 1 if yes else 0


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
def ask_discard(seat, player, position, full, skat, obs, pol, state, script, cur, err, log,
                nlog):
    """The declarer, holding ``full`` (his hand and the ``skat`` he picked up), puts two
    cards away; returns them (0 when a replayed discard does not fit)."""
    private(obs, seat, position, full)
    obs[O.PHASE] = O.PH_DISCARD
    obs[O.SKAT] = np.int64(skat)
    if pol < 0:
        if person_waits(pol, script, cur, obs, err, log, nlog):
            return np.uint64(0)
        put = np.uint64(scripted(script, cur, A.DISCARD, player, err))
        if err[0] or popcount(put) != 2 or (put & ~full):
            err[0] = max(err[0], E_ILLEGAL)
            return np.uint64(0)
    else:
        put = np.uint64(decide_discard(pol, obs, state))
    record(log, nlog, A.DISCARD, player, np.int64(put), 0)
    return put


@numba.njit(inline="always", **JIT)
def ask_declaration(seat, player, position, hand, skat_known, obs, pol, state, flags, announce,
                    buf, script, cur, err, log, nlog):
    """The declarer names his game among those offered (``flags``: the announcement or
    open-level bits allowed); returns the declaration (-1 when a replayed one does not fit)."""
    private(obs, seat, position, hand)
    obs[O.PHASE] = O.PH_DECLARE
    obs[O.SKAT] = np.int64(skat_known)
    if pol < 0:
        if person_waits(pol, script, cur, obs, err, log, nlog):
            return -1
        decl = scripted(script, cur, A.DECLARE, player, err)
        if err[0] or not allowed_declaration(decl, obs, flags, buf):
            err[0] = max(err[0], E_ILLEGAL)
            return -1
    else:
        decl = decide_declaration(pol, obs, state, flags, announce, buf)
    record(log, nlog, A.DECLARE, player, decl, 0)
    return decl

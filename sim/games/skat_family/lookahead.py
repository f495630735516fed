"""Which policy decides at a Skat-family seat, the lookahead player included: the entry
points the kernels (``sim.games.skat_family.bidding``, ``skat``, ``skat_en_deux``) ask.

The lookahead player (``sim.policies.lookahead``) decides every decision of the deal by
playing sampled worlds out (``sim.games.skat_family.worlds``):

* the card play: the card, and in Skat-en-deux the defender's offer, the declarer's answer,
  Contra and Re;
* the declaration: each game offered (announcements and open levels included) in the same
  worlds of the hidden cards;
* before the game is named, plans (``plan``): pick the skat up (the heuristic then names the
  game and the discard on the cards found) or play the heuristic's best hand game when it
  is worth weighing (``HAND_CHANCE``); after the pickup, each game worth weighing with each discard worth
  considering (``DISCARD_CARDS``). Their mean scores at the bid in question set the bid
  limit (bid or hold while the best plan expects more than passing, which scores 0 under
  the default scoring; forehand after two passes weighs the ramsch when the rules play
  one, ``_take_18``), the pickup (the best plan), the discard (the best plan's) and
  Skat-en-deux's give-ups (give up when that costs less than the best plan expects).
  ``answer_values`` prices both answers of each yes-or-no question the same way: what a
  learned player is taught there.

Every other policy goes to ``sim.games.skat_family.policies`` as before.
"""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import bit, lsb, popcount
from sim.engine.net import no_net
from sim.engine.seats import HEURISTIC
from sim.games.skat_family import policies as base
from sim.games.skat_family.cardplay import LENGTH, S, declare, legal, playout, step
from sim.games.skat_family.heuristic import (
    best_hand_game,
    choose_game,
    discard_for,
    least_kept,
    margin_of,
    win_chance,
)
from sim.games.skat_family.observation import (
    DECL_OUVERT,
    PH_ACCEPT,
    PH_CONTRA,
    PH_FH18,
    PH_GIVE_UP,
    PH_PICKUP,
    PH_RE,
)
from sim.games.skat_family.observation import FIELDS as O
from sim.games.skat_family.values import (
    GIVE_UP_SCORE,
    JIT,
    JIT_NRT,
    NULL,
    cheapest_give_up,
    declaration_choices,
    null_value,
)
from sim.games.skat_family.worlds import (
    CHOOSE,
    DEFAULT_LOST_FACTOR,
    PICKUP,
    PUT_SHIFT,
    RAMSCH_PLAN,
    declaration_world,
    plan,
    plan_step,
    pregame_bid,
    pregame_world,
    value,
    world,
)
from sim.policies.lookahead import (
    action_values,
    best_action,
    best_of,
    choose,
    decision_values,
    is_lookahead,
    rollouts_of,
)

PLAYERS = 3
"""Players of the card-play state's streams (Skat-en-deux uses two of them)."""
HAND_CHANCE = 0.5
"""A game is weighed before it is named when the heuristic's estimate gives it at least this
chance to win (or it is the heuristic's own choice): the rollouts of hopeless games would
be spent in vain, and every plan more thins the worlds of the others and raises the best
mean by chance alone."""
DISCARD_CARDS = 3
"""The discards weighed for a game: each pair of the three cards the heuristic least wants
to keep in it (``least_kept``)."""
GAMES = 6
"""Suit games, grand and null: the game types a plan may name."""


@numba.njit(**JIT_NRT)
def card_values(obs, rng, rollouts, net):
    """The legal actions at a card-play decision and the lookahead's mean outcome of each for
    the deciding player's side, with ``rollouts`` rollouts, from his observation alone: what
    the lookahead seat weighs (``_card_play``) and a learned player is taught
    (``CardPlay.action_values``, ``sim.learn``). The rollouts are the heuristic's, or the
    network's in ``net`` (expert iteration; the lookahead seat passes ``no_net()``)."""
    return decision_values(obs, rng, rollouts, LENGTH, PLAYERS, world, legal, step, playout,
                           value, net)


@numba.njit(**JIT_NRT)
def _card_play(pol, obs, rng, prefer):
    """The lookahead player's action at a card-play decision (``prefer``: the heuristic's).
    Compiled with reference counting: the search allocates its worlds' states."""
    actions, means = card_values(obs, rng, rollouts_of(pol), no_net())
    return choose(actions, means, prefer)


@numba.njit(**JIT)
def decide(pol, obs, rng):
    """A card-play decision as the card-play state's action (``CardPlay.decide``)."""
    if is_lookahead(pol):
        return _card_play(pol, obs, rng, base.decide(HEURISTIC, obs, rng))
    return base.decide(pol, obs, rng)


@numba.njit(inline="always", **JIT)
def decide_card(pol, obs, rng):
    """The card to play, one of ``obs[LEGAL]``."""
    if is_lookahead(pol):
        return _card_play(pol, obs, rng, base.decide_card(HEURISTIC, obs, rng))
    return base.decide_card(pol, obs, rng)


@numba.njit(**JIT)
def decide_offer(pol, obs, rng):
    """The defender's offer before a trick (none, "raus", "Stich")."""
    if is_lookahead(pol):
        return _card_play(pol, obs, rng, base.decide_offer(HEURISTIC, obs, rng))
    return base.decide_offer(pol, obs, rng)


@numba.njit(**JIT)
def decide_yes(pol, obs, rng):
    """A yes or no: in the card play (accepting an offer, Contra, Re) and before the game (hold,
    take 18, pick up, give up at 18) the lookahead's for a lookahead seat."""
    if not is_lookahead(pol):
        return base.decide_yes(pol, obs, rng)
    phase = obs[O.PHASE]
    yes = base.decide_yes(HEURISTIC, obs, rng)
    if phase == PH_ACCEPT or phase == PH_CONTRA or phase == PH_RE:
        return _card_play(pol, obs, rng, 1 if yes else 0) == 1
    if phase == PH_PICKUP:
        return _pickup(pol, obs, rng, yes)
    if phase == PH_GIVE_UP:
        return _best_plan_mean(pol, obs, rng) < -GIVE_UP_SCORE
    if phase == PH_FH18 and obs[O.ALL_PASS_RAMSCH]:
        return _take_18(pol, obs, rng)
    return _best_plan_mean(pol, obs, rng) > 0  # hold a bid, take 18


@numba.njit(**JIT)
def decide_bid(pol, obs, rng, values):
    """A bid value above ``obs[BID]`` or 0 to pass: for a lookahead seat the next value while
    the best plan at it expects more than passing."""
    if not is_lookahead(pol):
        return base.decide_bid(pol, obs, rng, values)
    nxt = obs[O.NEXT_BID]
    return nxt if nxt and _best_plan_mean(pol, obs, rng) > 0 else 0


@numba.njit(**JIT_NRT)
def _declaration(pol, obs, rng, prefer, flags, buf):
    """The lookahead player's declaration among those offered (``declaration_choices``),
    each played out in the same worlds (``prefer``: the heuristic's)."""
    n = declaration_choices(obs, flags, buf)
    if n <= 1:
        return buf[0] if n else prefer
    state = np.empty(LENGTH, np.int64)
    declaration_world(obs, rng, state)
    declarer = state[S.PLAYER_AT + obs[O.SEAT]]
    return best_action(obs, rng, rollouts_of(pol), prefer, buf[:n], state, declarer, PLAYERS,
                       declaration_world, declare, playout, value)


@numba.njit(**JIT)
def decide_declaration(pol, obs, rng, flags, announce, buf):
    """A declaration code: the lookahead's for a lookahead seat (the heuristic's game is its
    tie-break; it may name any game offered, announcements and open levels included)."""
    if is_lookahead(pol):
        prefer = base.decide_declaration(HEURISTIC, obs, rng, flags, announce, buf)
        return _declaration(pol, obs, rng, prefer, flags, buf)
    return base.decide_declaration(pol, obs, rng, flags, announce, buf)


@numba.njit(**JIT)
def decide_discard(pol, obs, rng):
    """The two cards to put away: the best discard plan's for a lookahead seat (the
    heuristic's discard wins a tie)."""
    prefer = np.int64(base.decide_discard(HEURISTIC if is_lookahead(pol) else pol, obs, rng))
    if not is_lookahead(pol):
        return prefer
    return _discard(pol, obs, rng, prefer)


@numba.njit(**JIT)
def decide_give_up(pol, obs, rng):
    """Skat-en-deux after the pickup: play on (0), or give up naming one of
    ``obs[GIVE_UP_GAMES]`` (its code + 1). A lookahead seat names the cheapest of them
    (lost as overbid, at the default ``lost_factor``) when that costs less than the best
    discard plan expects."""
    if not is_lookahead(pol):
        return base.decide_give_up(pol, obs, rng)
    cheapest, cost = cheapest_give_up(obs[O.GIVE_UP_GAMES], obs[O.BID])
    if cheapest < 0:
        return 0
    return cheapest + 1 if -DEFAULT_LOST_FACTOR * cost > _best_plan_mean(pol, obs, rng) else 0


# --- plans before the game is named ---------------------------------------------------------

@numba.njit(**JIT_NRT)
def _plan_means(obs, rng, rollouts, plans, net):
    """Each plan's mean score for the declarer over ``rollouts`` rollouts, played out in the
    same ``pregame_world``s by the heuristic, or by the network in ``net``."""
    state = np.empty(LENGTH, np.int64)
    pregame_world(obs, rng, state)
    declarer = state[S.PLAYER_AT + obs[O.SEAT]]
    return action_values(obs, rng, rollouts, plans, state, declarer, PLAYERS, pregame_world,
                         plan_step, playout, value, net)


@numba.njit(**JIT_NRT)
def _plan_values(pol, obs, rng, plans):
    """Each plan's mean score for the declarer, as the lookahead seat ``pol`` weighs them."""
    return _plan_means(obs, rng, rollouts_of(pol), plans, no_net())


@numba.njit(**JIT_NRT)
def answer_values(obs, rng, rollouts, net):
    """The answers at a yes or no before the card play (0 no, 1 yes: ``bidding.YES_NO``) and
    the lookahead's mean score of each for the seat asked, over ``rollouts`` rollouts played
    by the heuristic or by the network in ``net``, from his observation alone: what a learned
    player is taught there (``Learned.answers``, ``sim.learn``). As the lookahead seat weighs
    them: yes to a bid, a hold or 18 is worth the best plan's mean at the bid in question, no
    nothing (a ramsch's mean when passing last leads to one); picking up is weighed against
    the heuristic's best hand game, whatever its chance (only picking up where there is
    none); giving up at 18 costs ``GIVE_UP_SCORE``, playing on the best plan's mean."""
    phase = obs[O.PHASE]
    actions = np.arange(2)
    means = np.zeros(2)
    if phase == PH_PICKUP:
        plans = _pickup_plans(obs)
        found = _plan_means(obs, rng, rollouts, plans, net)
        if plans.shape[0] == 1:
            return actions[1:], found
        means[0], means[1] = found[1], found[0]
    elif phase == PH_GIVE_UP:
        means[0] = _plan_means(obs, rng, rollouts, _plans(obs), net).max()
        means[1] = -GIVE_UP_SCORE
    elif phase == PH_FH18 and obs[O.ALL_PASS_RAMSCH]:
        found = _plan_means(obs, rng, rollouts, _ramsch_last(obs), net)
        means[0], means[1] = found[-1], found[:-1].max()
    else:
        means[1] = _plan_means(obs, rng, rollouts, _plans(obs), net).max()
    return actions, means


@numba.njit(**JIT_NRT)
def _plans(obs):
    """The plans weighed now: after the pickup the discard plans, else the game plans."""
    if popcount(np.uint64(obs[O.HAND])) > 10:
        return _discard_plans(obs)
    return _game_plans(obs)


@numba.njit(**JIT_NRT)
def _best_plan_mean(pol, obs, rng):
    """What the best of the plans weighed now expects (``_plans``)."""
    return _plan_values(pol, obs, rng, _plans(obs)).max()


@numba.njit(**JIT_NRT)
def _game_plans(obs):
    """Before the pickup: pick up (then the heuristic's game and discard on the cards found:
    ``CHOOSE``) first, then the heuristic's best hand game at the bid in question when it
    gives it ``HAND_CHANCE``."""
    hand = np.uint64(obs[O.HAND])
    forehand = obs[O.POSITION] == 0
    plans = np.empty(2, np.int64)
    plans[0] = PICKUP | CHOOSE
    game, _, _ = best_hand_game(hand, pregame_bid(obs), forehand, 0)
    if game >= 0 and win_chance(margin_of(hand, game, forehand)) >= HAND_CHANCE:
        plans[1] = plan(game, False, 0)
        return plans
    return plans[:1]


@numba.njit(**JIT_NRT)
def _pickup_plans(obs):
    """Picking up (``CHOOSE``), then the heuristic's best hand game at the bid when there is
    one, whatever its chance: both answers of the pickup priced (``answer_values``)."""
    game, _, _ = best_hand_game(np.uint64(obs[O.HAND]), pregame_bid(obs), obs[O.POSITION] == 0, 0)
    plans = np.empty(2, np.int64)
    plans[0] = PICKUP | CHOOSE
    plans[1] = plan(game, False, 0)
    return plans if game >= 0 else plans[:1]


@numba.njit(**JIT_NRT)
def _discard_plans(obs):
    """After the pickup (twelve cards): the heuristic's game and each game it gives
    ``HAND_CHANCE`` after its discard, each with every pair of its ``DISCARD_CARDS``
    least-kept cards. A null may only be declared if its value reaches the bid: null, else
    null ouvert, else none."""
    cards = np.uint64(obs[O.HAND])
    forehand = obs[O.POSITION] == 0
    bid = obs[O.BID]
    chosen, _, _ = choose_game(cards, bid, forehand, obs[O.MAX_OPEN])
    pairs = DISCARD_CARDS * (DISCARD_CARDS - 1) // 2
    plans = np.empty(GAMES * pairs, np.int64)
    n = 0
    for game in range(GAMES):
        if game != chosen and win_chance(
                margin_of(cards & ~discard_for(cards, game), game, forehand)) < HAND_CHANCE:
            continue
        decl = game
        if game == NULL and null_value(0, 0) < bid:
            if null_value(0, 1) < bid:
                continue
            decl = NULL | DECL_OUVERT
        low = least_kept(cards, game, DISCARD_CARDS)
        first = low
        while first:
            a = bit(lsb(first))
            first &= ~a
            rest = first
            while rest:
                b = bit(lsb(rest))
                rest &= ~b
                plans[n] = plan(decl, True, a | b)
                n += 1
    return plans[:n]


@numba.njit(**JIT_NRT)
def _discard(pol, obs, rng, prefer):
    """The discard of the best discard plan (``prefer``, the heuristic's, breaks a tie)."""
    plans = _discard_plans(obs)
    puts = plans >> PUT_SHIFT
    return puts[best_of(_plan_values(pol, obs, rng, plans), puts == prefer)]


@numba.njit(**JIT_NRT)
def _pickup(pol, obs, rng, prefer):
    """Pick the skat up when that plan expects the most (``prefer``, the heuristic's answer,
    breaks a tie)."""
    plans = _game_plans(obs)
    if plans.shape[0] == 1:
        return True  # no hand game worth weighing
    means = _plan_values(pol, obs, rng, plans)
    hand_best = means[1:].max()
    return means[0] > hand_best or (means[0] == hand_best and prefer)


@numba.njit(**JIT_NRT)
def _take_18(pol, obs, rng):
    """Forehand after two passes, when passing means the ramsch: take 18 when the best game
    plan expects more than the ramsch, played out in the same worlds."""
    means = _plan_values(pol, obs, rng, _ramsch_last(obs))
    return means[:-1].max() > means[-1]


@numba.njit(**JIT_NRT)
def _ramsch_last(obs):
    """The game plans (``_game_plans``), then the ramsch: what forehand weighs at 18 when
    passing leads to the ramsch."""
    games = _game_plans(obs)
    n = games.shape[0]
    plans = np.empty(n + 1, np.int64)
    plans[:n] = games
    plans[n] = RAMSCH_PLAN
    return plans

"""What every game's kernel shares: the shard loop, asking a seat, recording actions and
replaying recorded ones.

One compiled loop plays a shard for every game (``play_shard``): it takes the game's
kernel tag (``KernelTag``, ``Game.kernel``) and calls ``play_deal`` and ``deal_scratch``
for it; each game implements those two for its tag (``implements``, numba's ``overload``),
so the choice is made when numba types the loop, and the on-disk cache holds one compiled
loop per game (a jitted function handed to a cached kernel as an argument would be compiled
again in every process).

A kernel records each decision as a row ``[type, seat, a, b]`` (``sim.actions``).
When it replays a deal, a scripted seat takes the next recorded row instead of
asking its policy; a row that does not fit sets the deal's replay error.

A person's seat (``PERSON``, ``stichsim play``) is a scripted seat whose script holds
only his decisions so far: where it runs out, the deal stops (``person_waits``) with his
observation left for the caller, who asks him and plays the deal again with one row more.
A solving player's seat (``SOLVING``: ``pimc``, ``dd``) stops the same way at its cards
(``card_policy``), with the card-play state left after the observation (``leave_state``) for
``sim.engine.solving``; its other decisions are the heuristic's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numba
import numpy as np
from numba.core import types
from numba.extending import NativeValue, models, overload, register_model, typeof_impl, unbox

from sim.actions import DISCARD, MARKER, PLAY, ROW
from sim.engine.seats import CHOSEN, HEURISTIC, KIND_BITS, KIND_MASK, NET, PERSON, SCRIPTED, SOLVING
from sim.rng import shuffle

E_NONE, E_MISMATCH, E_ILLEGAL, E_ASK, E_SOLVE = 0, 1, 2, 3, 4
"""Replay errors: none; a recorded action of the wrong kind or seat (or left over);
an action the rules do not allow there; no error but a stop: a person must decide
(``person_waits``); no error but a stop: a solving player must choose a card
(``leave_state``)."""


@numba.njit(cache=True)
def person_waits(pol, player, obs, io):
    """Whether the deal stops here for a person: the deciding seat is a person's and his
    script is used up. Then the deal's error is ``E_ASK`` and his observation ``obs``
    (filled for this decision) is left in the log's free rows after the actions, ``ROW``
    values a row, followed by ``player``, the seat whose policy decides (in Skat-en-deux the
    defender decides for the blind, whose seat the observation names); the caller returns
    without another decision or record. A solving seat's stop writes its card-play state
    over the player (``leave_state``)."""
    if pol != PERSON or io.cur[0] < io.script.shape[0]:
        return False
    io.err[0] = E_ASK
    n = io.nlog[0]
    room = (io.log.shape[0] - n) * ROW
    for k in range(min(obs.shape[0], room)):
        io.log[n + k // ROW, k % ROW] = obs[k]
    at = obs.shape[0]
    if at < room:
        io.log[n + at // ROW, at % ROW] = player
    return True


@numba.njit(cache=True, inline="always")
def card_policy(pol, solvable):
    """Who is asked for a card: a solving player's seat stops like a person's where its
    game can be solved (``solvable``), else the heuristic plays; any other seat its policy."""
    if pol != SOLVING:
        return pol
    return PERSON if solvable else HEURISTIC


@numba.njit(cache=True, inline="always")
def leave_state(pol, state, obs, io):
    """At a solving seat's stop for a card (``pol`` the seat's, ``err`` ``E_ASK``): the stop
    is ``E_SOLVE``, with the card-play ``state`` in the log's free rows after the
    observation ``obs``."""
    if pol != SOLVING or io.err[0] != E_ASK:
        return
    io.err[0] = E_SOLVE
    n = io.nlog[0]
    at = obs.shape[0]
    for k in range(min(state.shape[0], (io.log.shape[0] - n) * ROW - at)):
        io.log[n + (at + k) // ROW, (at + k) % ROW] = state[k]


SHUFFLED = np.zeros(0, np.int64)
"""The empty ``preset``: deals are shuffled from their streams (``order_deck``)."""


@numba.njit(cache=True, inline="always")
def order_deck(state, perm, preset, offset):
    """Put the cards in the order they are dealt from: shuffled from the dealing stream,
    or, for a deal given by hand (``preset`` not empty), ``preset[offset:]``. The stream
    moves on the same either way, so later draws (a redeal) do not depend on it and a
    deal's own order given back reproduces it whole."""
    shuffle(state, perm)
    if preset.shape[0]:
        perm[:] = preset[offset:offset + perm.shape[0]]


@numba.njit(cache=True, inline="always")
def record(log, nlog, kind, seat, a, b):
    """Append ``[kind, seat, a, b]`` to the deal's action log (if it has room)."""
    n = nlog[0]
    if n < log.shape[0]:
        log[n, 0] = kind
        log[n, 1] = seat
        log[n, 2] = a
        log[n, 3] = b
        nlog[0] = n + 1


@numba.njit(cache=True)
def next_value(values, current):
    """The first of the ascending ``values`` above ``current`` (0: none)."""
    for v in values:
        if v > current:
            return v
    return 0


@numba.njit(cache=True, inline="always")
def skip_markers(script, cur):
    """Step over recorded marker rows (no decisions) in a replayed deal."""
    while cur[0] < script.shape[0] and script[cur[0], 0] == MARKER:
        cur[0] += 1


@numba.njit(cache=True, inline="always")
def shard_scratch(res):
    """The bookkeeping every shard loop reuses deal after deal: replay error, log length,
    script cursor, a one-row log for deals not recorded, and the result row."""
    return (np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64),
            np.zeros((1, ROW), np.int64), np.zeros(res.shape[0], np.int64))


class ShardIO(NamedTuple):
    """A shard's recorded actions, both ways: the logs its deals write and the actions a
    replay reads (``play_shard``)."""

    logs: Any
    """``[deal, row, ROW]``: each deal's action rows (one deal's worth when not recording)."""
    nlogs: Any
    """Each deal's number of action rows."""
    script: Any
    """``[row, ROW]``: the recorded actions to replay, every deal's one after another."""
    starts: Any
    """Where each deal's actions start in ``script`` (and where the last ends); a single 0:
    the whole script is every deal's."""
    record: Any
    """Whether the deals' actions are kept."""
    net: Any
    """The networks ``net`` seats play (``sim.engine.net.Net``; ``NO_NET`` for none)."""


class DealIO(NamedTuple):
    """One deal's input and log, handed down through its phases as one record."""

    script: Any
    """The deal's recorded actions to replay (``[row, ROW]``)."""
    cur: Any
    """The replay's cursor into ``script`` (one value)."""
    err: Any
    """The deal's replay error (one value, ``E_*``)."""
    log: Any
    """The deal's action log (``[row, ROW]``)."""
    nlog: Any
    """The log's length (one value)."""
    net: Any
    """The shard's networks (``ShardIO.net``)."""


@numba.njit(cache=True, inline="always")
def deal_io(i, shard, scratch, cur, err, nlog):
    """Deal ``i``'s record: its action log (the scratch row when not recording) and its
    recorded actions to replay (``script[starts[i]:starts[i+1]]``; the whole script when no
    starts), with the shard's cursor, error and log length."""
    log = shard.logs[i] if shard.record else scratch
    starts = shard.starts
    sc = shard.script[starts[i]:starts[i + 1]] if starts.shape[0] > 1 else shard.script
    return DealIO(sc, cur, err, log, nlog, shard.net)


@numba.njit(cache=True, inline="always")
def store_deal(i, row, res, replayed, shard, io):
    """After deal ``i``: flag recorded decisions left over in a replay (marker rows are no
    decisions), store the result row as column ``i`` of ``res`` (its last entry the replay
    error) and the log's length."""
    error_col = res.shape[0] - 1
    if replayed and row[error_col] == E_NONE:
        skip_markers(io.script, io.cur)
        if io.cur[0] != io.script.shape[0]:
            row[error_col] = E_MISMATCH
    res[:, i] = row
    if shard.record:
        shard.nlogs[i] = io.nlog[0]


# --- asking a seat ---------------------------------------------------------------------------
#
# A question a kernel puts to a seat is four functions of the question's context ``ctx``
# (anything the question needs: the state, the bid values, the action kinds):
#
# * ``decide(ctx, pol, obs, rng)``: the policy's answer, a value >= 0;
# * ``check(ctx, obs, value)``: a recorded answer as the engine holds it, or -1 if the rules
#   do not allow it now;
# * ``row(ctx, value)``: the action row ``(kind, a, b)`` an answer is recorded as; a kind < 0
#   records nothing (a "no" that leaves no row, such as a declined offer);
# * ``value_of(ctx, kind, a, b)``: the answer a recorded row stands for: -1 if the row
#   answers another question, -2 if it answers this one in a way the rules never allow.

@numba.njit(cache=True, inline="always")
def ask(pol, player, obs, rng, decide, check, row, value_of, ctx, io):
    """One decision of ``player``, whoever makes it, recorded (the question's four
    functions: above).

    A person's seat (``PERSON``) stops the deal here once his script is used up
    (``person_waits``: returns -1); a scripted seat takes its answer from the next recorded
    row (``replayed``); any other seat asks its policy, a solving player's seat the heuristic
    (its cards are asked through ``card_policy``), a ``net`` seat too (its cards come
    ``CHOSEN`` by its network: ``sim.engine.net.net_policy``). The answer is recorded as
    ``row(ctx, value)`` and returned (-1 after an error)."""
    if pol == SOLVING or (pol >= 0 and (pol & KIND_MASK) == NET):
        pol = HEURISTIC
    if pol >= 0 and (pol & KIND_MASK) == CHOSEN:
        value = pol >> KIND_BITS
    elif pol < 0:
        if person_waits(pol, player, obs, io):
            return -1
        value = replayed(player, obs, check, row, value_of, ctx, io)
        if value < 0:
            return -1
    else:
        value = decide(ctx, pol, obs, rng)
    kind, a, b = row(ctx, value)
    if kind >= 0:
        record(io.log, io.nlog, kind, player, a, b)
    return value


@numba.njit(cache=True, inline="always")
def replayed(player, obs, check, row, value_of, ctx, io):
    """``player``'s recorded answer, from the next row of ``script``, as the engine holds it.

    A row of another player or question is a mismatch (``E_MISMATCH``), unless the question's
    "no" leaves no row: then the answer is no (0) and the row stays for a later question. A
    row the rules do not allow (``value_of`` -2, ``check`` -1, or its ``b`` not the one the
    answer is recorded with) is ``E_ILLEGAL``. Returns -1 after an error."""
    i = io.cur[0]
    value = -1
    if i < io.script.shape[0] and io.script[i, 1] == player:
        value = value_of(ctx, io.script[i, 0], io.script[i, 2], io.script[i, 3])
    if value == -1:
        if row(ctx, 0)[0] < 0:
            return 0
        io.err[0] = E_MISMATCH
        return -1
    io.cur[0] = i + 1
    if value >= 0:
        value = check(ctx, obs, value)
    if value >= 0:
        kind, _, b = row(ctx, value)
        if kind < 0 or b == io.script[i, 3]:
            return value
    io.err[0] = E_ILLEGAL
    return -1


@numba.njit(cache=True, inline="always")
def answer_of(kind, want, a):
    """A ``value_of`` for a question answered by one kind of row: the row's ``a`` if it is of
    kind ``want`` (-2 if negative), else -1."""
    if kind != want:
        return -1
    return a if a >= 0 else -2


@numba.njit(cache=True, inline="always")
def card_row(ctx, card):
    """A card's row when its ``b`` carries nothing: ``(PLAY, card, 0)``."""
    return PLAY, card, 0


@numba.njit(cache=True, inline="always")
def card_value(ctx, kind, a, b):
    """The card a ``PLAY`` row names (-1: another question's row)."""
    return answer_of(kind, PLAY, a)


@numba.njit(cache=True, inline="always")
def discard_row(ctx, cards):
    """A discard's row: ``(DISCARD, cards, 0)``, the cards a mask."""
    return DISCARD, cards, 0


@numba.njit(cache=True, inline="always")
def discard_value(ctx, kind, a, b):
    """The cards a ``DISCARD`` row puts away (-1: another question's row)."""
    return answer_of(kind, DISCARD, a)


# --- one loop for every game -----------------------------------------------------------------

def play_deal(game, seed, deal, params, pols, values, row, work, io, preset):
    """Deal, play and score deal ``deal`` of ``game`` (its kernel tag) into ``row``, with
    ``work`` the scratch ``deal_scratch`` made and ``io`` the deal's record (``DealIO``).
    Each game implements it for its tag (``implements``); compiled code picks the game's
    when numba types the call, plain Python (``NUMBA_DISABLE_JIT``) here."""
    return _PLAIN[play_deal, game.game](game, seed, deal, params, pols, values, row, work, io, preset)


def deal_scratch(game):
    """The arrays one shard's deals reuse, as a tuple (``play_deal``'s ``work``). Each game
    implements it for its tag (``implements``)."""
    return _PLAIN[deal_scratch, game.game](game)


_PLAIN: dict[tuple[Callable[..., Any], str], Callable[..., Any]] = {}
"""Each game's implementations by (stub, game), for plain Python (``NUMBA_DISABLE_JIT``)."""


class KernelTag:
    """A game's kernel tag (``Game.kernel``): handed to ``play_shard``, it tells numba which
    game's ``play_deal`` and ``deal_scratch`` to compile the loop with. Each game's tag has a
    numba type of its own (``KernelTagType``), so the compiled loops never mix.

    ``version`` names the game's sources where ``sim.SOURCE_HASH`` does not cover them (a
    game declared outside ``sim``, such as the toy game of the tests): the cached loop is
    keyed on its type, so a changed game compiles anew instead of loading a stale loop."""

    def __init__(self, game: str, version: str = "") -> None:
        self.game = game
        self.version = version

    def __repr__(self) -> str:
        return f"KernelTag({self.game!r}{f', {self.version!r}' if self.version else ''})"


class KernelTagType(types.Dummy):
    """The numba type of one game's ``KernelTag``: it carries no data, only the game (and
    the version of its sources, if it has one)."""

    def __init__(self, game: str, version: str = "") -> None:
        self.game = game
        super().__init__(f"KernelTag({game}{'@' + version if version else ''})")


register_model(KernelTagType)(models.OpaqueModel)


@typeof_impl.register(KernelTag)
def _typeof_tag(tag: KernelTag, context: Any) -> KernelTagType:
    return KernelTagType(tag.game, tag.version)


@unbox(KernelTagType)
def _unbox_tag(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


_CACHED: Any = {"cache": True}
"""An overload's compile options: cached on disk like every kernel (numba's type hints lack
the key)."""


def implements(stub: Callable[..., Any], game: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the decorated function as ``stub`` (``play_deal`` or ``deal_scratch``) for the
    game named ``game``; it takes the stub's arguments."""

    def mine(tag) -> bool:
        return isinstance(tag, KernelTagType) and tag.game == game

    def register(impl: Callable[..., Any]) -> Callable[..., Any]:
        # numba wants the typing function's arguments spelled out as the stub's
        if stub is play_deal:
            @overload(play_deal, jit_options=_CACHED)
            def _deal(game, seed, deal, params, pols, values, row, work, io, preset):
                return impl if mine(game) else None
        elif stub is deal_scratch:
            @overload(deal_scratch, jit_options=_CACHED)
            def _scratch(game):
                return impl if mine(game) else None
        else:
            raise ValueError(f"{stub.__name__} is not implemented per game")
        _PLAIN[stub, game] = impl
        return impl

    return register


@numba.njit(cache=True)
def play_shard(game, seed, first, count, params, pols, values, res, shard, preset):
    """Play deals ``first .. first+count-1`` of ``game`` (its kernel tag) into ``res``, one
    column per deal (``res[c, i]``); the last column is the replay error.

    ``shard`` (``ShardIO``): with ``record`` the actions go to ``logs[i]`` (``nlogs[i]``
    rows); a scripted seat (replay) reads deal ``i``'s actions from
    ``script[starts[i]:starts[i+1]]``. A non-empty ``preset`` is the order the cards lie in
    before dealing, for every deal (a deal given by hand)."""
    work = deal_scratch(game)
    err, nlog, cur, scratch, row = shard_scratch(res)
    for i in range(count):
        err[0] = 0
        io = deal_io(i, shard, scratch, cur, err, nlog)
        play_deal(game, seed, first + i, params, pols, values, row, work, io, preset)
        store_deal(i, row, res, pols[0] == SCRIPTED, shard, io)

"""Decisions labelled by a teacher: what a learned player is taught from.

Deals are played by the given policies (self-play) and recorded. Every card-play decision
with more than one legal action (and every such card of a round played before the card
play, Doko-Skat's first round: ``CardPlay.opening``) is then replayed and shown to the
deciding player as the kernel shows it (``CardPlay.observe``), and the teacher labels it from that observation
alone, with its value of *every* legal action, not only the action it would choose
(``Teacher``). Where the game's network may answer yes-or-no questions before the card play
(``Learned.answers``: bids, the pickup ...), a lookahead teacher labels those too: each
seat's decisions are replayed in the kernel as a person's (``sim.engine.play``), so the deal
stops at each of them with the observation the kernel showed.

* ``lookahead:N``: the mean outcome for the deciding player's side of each action over
  ``N`` rollouts (``CardPlay.action_values``), played out by the heuristic, or by a network
  (``Teacher.rollout_net``: expert iteration, the search improving on the network it
  teaches);
* ``pimc:N``: each card's mean utility over ``N`` worlds, each world solved double dummy
  for every card (``sim.search.pimc.totals``); cards only, so a game's other card-play
  decisions (Skat-en-deux's offers) are not labelled.

A learned policy fitted to these values can rank the actions the way the search does.

Each decision draws the teacher's worlds from a stream of its own, keyed by the seed, the
deal and the decision's number in the deal (``LABEL_STREAM``), so the labels are the same
whatever the chunks or the workers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sim import SOURCE_HASH
from sim import actions as A
from sim.engine import net as N
from sim.engine.cardplay import HEADER, PLAY, CardPlay
from sim.engine.game import Answers, Game
from sim.engine.play import play
from sim.engine.solving import hooks, workspace
from sim.rng import stream_key

ACTIONS = 64
"""Action codes of a card-play decision lie below 64 (its legal actions are a 64-bit mask):
the width of ``Decisions.values``."""
LABEL_STREAM = 1 << 21
"""Stream numbers of the teacher's decisions: ``LABEL_STREAM + k`` for a deal's k-th, apart
from the seats' and the solving players' streams (``sim.rng``, ``sim.engine.solving``)."""
ANSWER_STREAM = 1 << 22
"""Stream numbers of the teacher's answers before the card play: ``ANSWER_STREAM + 64 *
player + k`` for the player's answer that follows the deal's k answers labelled before it."""
BEFORE_PLAY = -1
"""``Decisions.phase`` of an answer to a question before the card play."""
CHUNK = 50
"""Deals a worker labels at a time."""


@dataclass(frozen=True)
class Teacher:
    """Who labels the decisions: ``kind`` ``lookahead`` with ``n`` rollouts a decision, played
    out by the heuristic or by the network in the weights file ``rollout_net``; or ``pimc``
    with ``n`` worlds a decision, every card solved in each."""

    kind: str
    n: int
    rollout_net: str | None = None


@dataclass(frozen=True)
class Decisions:
    """Labelled card-play decisions, one row each, in the order of their deals and of play."""

    deal: np.ndarray
    """The deal's number (``int64``)."""
    player: np.ndarray
    """Who decided (the card-play state's ``PLAYER``)."""
    phase: np.ndarray
    """What the action meant (the state's ``PHASE``: a card, or one of the game's own
    card-play decisions); ``BEFORE_PLAY`` for an answer before the card play (its
    observation's phase says to what)."""
    obs: np.ndarray
    """The deciding player's observation (``[decision, field]``, the game's layout)."""
    values: np.ndarray
    """The teacher's mean outcome of each legal action for the deciding side
    (``[decision, ACTIONS]``, ``float32``; NaN where the action is not legal)."""
    chosen: np.ndarray
    """The action the deal's own policy played."""

    def __len__(self) -> int:
        return int(self.deal.shape[0])

    def legal(self) -> np.ndarray:
        """Which actions each decision allows (``[decision, ACTIONS]``, bool)."""
        legal: np.ndarray = ~np.isnan(self.values)
        return legal


Row = tuple[int, int, int, np.ndarray, np.ndarray, int]
"""A labelled decision: deal, player, phase, observation, values, the action played."""


def card_play_of(game: Game, teacher: Teacher) -> CardPlay:
    """The game's card play, or a ``ValueError`` naming what the teacher misses: the
    lookahead's ``CardPlay.action_values``, pimc's solver."""
    cp = game.card_play
    if cp is None or (teacher.kind == "lookahead" and cp.action_values is None):
        raise ValueError(f"game {game.name} has no lookahead to teach a learned player "
                         f"(its card play declares no action_values)")
    if teacher.kind == "pimc" and game.solver is None:
        raise ValueError(f"game {game.name} has no solver to teach a learned player")
    return cp


def label_deals(game: Game, seed: int, first: int, count: int, rules: dict[str, Any],
                policies: Sequence[str], teacher: Teacher) -> Decisions:
    """The labelled decisions of deals ``first .. first + count - 1`` played by
    ``policies`` under ``rules``, each labelled by ``teacher``."""
    cp = card_play_of(game, teacher)
    label = _labeller(game, cp, teacher)
    batch = play(game, seed, first, count, rules, list(policies), record=True)
    assert batch.actions is not None
    length = game.observation.LENGTH
    answered = _answers(game, seed, first, rules, policies, teacher, batch.actions)
    rows: list[Row] = []
    for i in range(count):
        rows += answered[i]
        k = 0
        for state, plays in _segments(cp, batch.columns, i, batch.actions[i], rules, teacher):
            for action in plays:
                legal = int(cp.legal(state))
                if legal & (legal - 1) and (teacher.kind != "pimc" or state[HEADER.PHASE] == PLAY):
                    obs = np.zeros(length, np.int64)
                    cp.observe(state, int(state[HEADER.TO_MOVE]), obs)
                    rng = np.array([stream_key(seed, first + i, LABEL_STREAM + k)], np.uint64)
                    actions, means = label(obs, rng)
                    values = np.full(ACTIONS, np.nan, np.float32)
                    values[actions] = means
                    rows.append((first + i, int(state[HEADER.PLAYER]), int(state[HEADER.PHASE]),
                                 obs, values, int(action)))
                cp.step(state, int(action))
                k += 1
    return _decisions(rows, length)


def _answers(game: Game, seed: int, first: int, rules: dict[str, Any], policies: Sequence[str],
             teacher: Teacher, actions: list[np.ndarray]) -> list[list[Row]]:
    """Each deal's labelled answers to the yes-or-no questions before the card play that the
    game's network may answer (``Learned.answers`` within its spec's head; a lookahead
    teacher only), player by player in the order asked.

    A player's decisions are replayed in the kernel as a person's, his recorded rows so far
    as his script: the deal stops at his next decision with the observation the kernel
    shows there (``Batch.views``), while they are such questions (they come before his
    discard, declaration and cards)."""
    count = len(actions)
    out: list[list[Row]] = [[] for _ in range(count)]
    learned = game.net
    if learned is None or learned.answers is None or teacher.kind != "lookahead":
        return out
    answers = learned.answers
    head = learned.features.rows[0]
    asked = answers.phases & int(head[3])
    if not asked:
        return out
    net = rollout_net(game, teacher.rollout_net)
    for player in range(game.n_players):
        seats = [*policies]
        seats[player] = "person"
        own = [a[(a[:, 1] == player) & (a[:, 0] != A.MARKER)] for a in actions]
        scripts: list[list[np.ndarray]] = [[] for _ in range(count)]
        active = set(range(count))
        while active:
            batch = play(game, seed, first, count, rules, seats, record=True,
                         script=[np.array(sc, np.int64).reshape(-1, A.ROW) for sc in scripts])
            assert batch.views is not None
            for i in sorted(active):
                view = batch.views[i]
                phase = -1 if view is None else int(view[head[2]])
                if view is None or not (answers.phases >> phase) & 1:
                    active.discard(i)
                    continue
                row = _answer_row(answers, phase, own[i], scripts[i], player)
                if row is None:
                    active.discard(i)
                    continue
                legal = int(view[head[4]])
                if (asked >> phase) & 1 and legal & (legal - 1):
                    k = len(out[i])
                    rng = np.array([stream_key(seed, first + i, ANSWER_STREAM + 64 * player + k)],
                                   np.uint64)
                    obs = np.ascontiguousarray(view, np.int64)
                    codes, means = answers.values(obs, rng, teacher.n, net)
                    values = np.full(ACTIONS, np.nan, np.float32)
                    values[codes] = means
                    out[i].append((first + i, player, BEFORE_PLAY, obs, values,
                                   int(row[0] in answers.yes_kinds)))
                scripts[i].append(row)
    return out


def _answer_row(answers: Answers, phase: int, own: np.ndarray, script: list[np.ndarray],
                player: int) -> np.ndarray | None:
    """The recorded answer to the question a player's replay stopped at: his next recorded
    row, or a ``DECLINE`` where the question's no leaves no row and that row is no yes to it;
    ``None`` when his rows are used up."""
    used = sum(1 for r in script if r[0] != A.DECLINE)
    nxt = own[used] if used < own.shape[0] else None
    yes = answers.declined.get(phase)
    if yes is not None and (nxt is None or nxt[0] != yes):
        return np.array([A.DECLINE, player, yes, 0], np.int64)
    return nxt


def _segments(cp: CardPlay, columns: Any, i: int, rows: np.ndarray, rules: dict[str, Any],
              teacher: Teacher) -> list[tuple[np.ndarray, Sequence[int]]]:
    """Deal ``i``'s rounds of tricks to label, each as a state and its recorded actions: the
    game's opening round (``CardPlay.opening``) unless the teacher is pimc (its solver
    solves the card play alone), then the card play; none for a deal without card play."""
    started = cp.start(columns, i, rows, rules)
    if started is None:
        return []
    opened = None if cp.opening is None or teacher.kind == "pimc" else cp.opening(columns, i, rows, rules)
    return [started] if opened is None else [opened, started]


def _labeller(game: Game, cp: CardPlay, teacher: Teacher) -> Any:
    """``label(obs, rng)``: the teacher's legal actions at a decision and its value of each,
    from the deciding player's observation and the decision's own stream."""
    if teacher.kind == "pimc":
        module = hooks(game)
        ws = workspace(module)
        return lambda obs, rng: module.pimc_values(obs, rng, teacher.n, ws)
    assert cp.action_values is not None
    net = rollout_net(game, teacher.rollout_net)
    return lambda obs, rng: cp.action_values(obs, rng, teacher.n, net)


def rollout_net(game: Game, path: str | None) -> N.Net:
    """The network the lookahead's rollouts are played by (slot 0), or ``NO_NET``: the
    heuristic plays them."""
    if path is None:
        return N.NO_NET
    if game.net is None:
        raise ValueError(f"game {game.name} has no learned player to roll out with")
    return N.stack([N.load(path, game.name, game.net.features)])


def _decisions(rows: list[Row], length: int) -> Decisions:
    def column(k: int, dtype: Any) -> np.ndarray:
        return np.array([r[k] for r in rows], dtype)

    return Decisions(
        deal=column(0, np.int64), player=column(1, np.int64), phase=column(2, np.int64),
        obs=np.array([r[3] for r in rows], np.int64).reshape(len(rows), length),
        values=np.array([r[4] for r in rows], np.float32).reshape(len(rows), ACTIONS),
        chosen=column(5, np.int64))


def concat(parts: Sequence[Decisions], length: int) -> Decisions:
    """The decisions of ``parts`` one after another (``length``: the observation's)."""
    if not parts:
        return _decisions([], length)
    return Decisions(*(np.concatenate([getattr(p, f) for p in parts])
                       for f in ("deal", "player", "phase", "obs", "values", "chosen")))


def label(game: Game, seed: int, deals: int, rules: dict[str, Any], policies: Sequence[str],
          teacher: Teacher, jobs: int = 1, first: int = 0) -> Decisions:
    """``label_deals`` of ``deals`` deals from ``first``, in chunks of ``CHUNK`` deals over
    ``jobs`` worker processes; the same decisions and labels for any ``jobs``."""
    card_play_of(game, teacher)
    starts = range(first, first + deals, CHUNK)
    tasks = [(s, min(CHUNK, first + deals - s)) for s in starts]
    if jobs == 1 or len(tasks) == 1:
        parts = [label_deals(game, seed, s, n, rules, policies, teacher) for s, n in tasks]
    else:
        from joblib import Parallel, delayed
        work = delayed(_label_chunk)
        parts = Parallel(n_jobs=jobs)(work(game.name, seed, s, n, rules, list(policies), teacher)
                                      for s, n in tasks)
    return concat(parts, game.observation.LENGTH)


def _label_chunk(name: str, seed: int, first: int, count: int, rules: dict[str, Any],
                 policies: list[str], teacher: Teacher) -> Decisions:
    """``label_deals`` in a worker process, the game found by its name."""
    from sim.registry import find_game
    return label_deals(find_game(name), seed, first, count, rules, policies, teacher)


FIELDS = ("deal", "player", "phase", "obs", "values", "chosen")


def save(decisions: Decisions, path: Path, about: dict[str, Any]) -> None:
    """Write ``decisions`` to ``path`` (``.npz``) with ``about`` (the game, the rules, the
    teacher, the seed: JSON) and the engine's source hash, whole or not at all."""
    tmp = path.with_name(path.name + ".partial.npz")
    meta = json.dumps({**about, "engine": SOURCE_HASH}, sort_keys=True)
    np.savez_compressed(tmp, about=np.array(meta), **{f: getattr(decisions, f) for f in FIELDS})
    os.replace(tmp, path)


def load(path: Path) -> tuple[Decisions, dict[str, Any]]:
    """The decisions ``save`` wrote to ``path``, and what it said about them."""
    with np.load(path) as data:
        about = json.loads(str(data["about"]))
        return Decisions(*(data[f] for f in FIELDS)), about

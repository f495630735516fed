"""PettingZoo environments of the four games: ``make(game, **rules)`` returns an AEC
environment (``pettingzoo.AECEnv``) for multi-agent learning libraries (RLlib, TorchRL,
Tianshou), played by stichsim's own engine under the game's rules.

* **Agents** ``seat_0`` ... ``seat_{n-1}``: the seats ``seats`` names ``"agent"`` (every seat
  by default); the others are played inside the engine by the policy named there
  (``make("skat", seats=["agent", "heuristic", "heuristic"])``).
* **Observation** of the agent to act: ``{"observation": its seat's observation, the engine's
  int64 array (the game's observation layout, ``Game.observation``), "action_mask": int8, 1
  for each legal action}``; an agent not to act sees its observation of its last decision
  (zeros before its first) with an empty mask.
* **Actions** are the game's action codes (``action_codes``, the same for every deal under
  the rules): first one per card of the deck (play it, or put it away: a discard of k cards is
  k steps of the same agent), then the bids, then the other answers (pass, hold, pick up, hand,
  give up, declarations, offers ...). ``action_names(env)`` names them.
* **Rewards** come at the end of the deal: each seat's score (the game's ``score_<s>``
  column: game points in the Skat family, the Doppelkopf games' points or the duel's victory
  points); every step before gives 0.

``reset(seed=s)`` starts deal 0 of seed ``s``; a plain ``reset()`` the next deal of the same
seed: every deal is the simulator's deal of that number (a deal in which no agent decides
anything is passed over). The deal is played by the engine from its start after each
decision, as a person's table plays it (``sim.play.table``), so every step costs one replay:
fine for learning from thousands of deals, not millions. Needs the extra ``stichsim[env]``
(pettingzoo).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from sim import actions as A
from sim.engine.game import Game
from sim.engine.kernel import E_ASK
from sim.engine.play import play
from sim.engine.python_player import QuestionLike, ScreenLike
from sim.engine.seats import SEATED, policy_ids
from sim.play import screen_for
from sim.registry import find_game

AGENT = "agent"
"""A seat's entry in ``seats`` for a learning agent (any other entry is a policy's name)."""
ANSWERS = (A.HOLD, A.PASS, A.PICKUP, A.HAND, A.ACCEPT, A.REJECT, A.CONTRA, A.RE, A.RAMSCH)
"""Answers that carry nothing in ``a`` (a hold's value is the bid standing)."""
GIVE_UPS = 6
"""A give-up's ``a``: 0 at 18, else the game named + 1 (five games)."""
DECLARATIONS = 256
"""A declaration's ``a``: the game's code with its flags, below 256 in every game."""
OFFERS = (1, 2)


def action_codes(game: Game, rules: dict[str, Any]) -> list[tuple[int, int]]:
    """The game's actions under ``rules``, by code: ``(PLAY, card)`` for each card of the deck
    (a play, or a card put away), ``(BID, value)`` for each bid value, then ``(kind, a)`` for
    the other answers, give-ups, declarations, offers and each "no" that leaves no row
    (``(DECLINE, kind)``)."""
    codes = [(A.PLAY, c) for c in range(game.deck.n_cards)]
    codes += [(A.BID, int(v)) for v in game.bid_values(rules) if v > 0]
    codes += [(kind, 0) for kind in ANSWERS]
    codes += [(A.GIVE_UP, g) for g in range(GIVE_UPS)]
    codes += [(A.DECLARE, d) for d in range(DECLARATIONS)]
    codes += [(A.OFFER, o) for o in OFFERS]
    codes += [(A.DECLINE, kind) for kind in range(len(A.NAMES))]
    return codes


def code_key(row: tuple[int, int, int, int]) -> tuple[int, int]:
    """The key of ``action_codes`` a choice's row stands for: a discard's card is its bit."""
    kind, _, a, _ = row
    if kind == A.DISCARD:
        return A.PLAY, int(a).bit_length() - 1
    if kind in ANSWERS:
        return kind, 0
    return kind, a


class StichsimEnv(AECEnv):
    """One game under one set of rules as a PettingZoo AEC environment (``make``)."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: Game, rules: dict[str, Any], seats: list[str],
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.rules = rules
        self.metadata = {**self.metadata, "name": f"stichsim_{game.name}_v0"}
        self.render_mode = render_mode
        self.seats = seats
        self.possible_agents = [f"seat_{s}" for s, who in enumerate(seats) if who == AGENT]
        self.codes = action_codes(game, rules)
        self.index = {key: k for k, key in enumerate(self.codes)}
        size = game.observation.LENGTH
        bound = np.iinfo(np.int64)
        self._observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(bound.min, bound.max, (size,), np.int64),
            "action_mask": gymnasium.spaces.Box(0, 1, (len(self.codes),), np.int8)})
            for a in self.possible_agents}
        self._action_spaces = {a: gymnasium.spaces.Discrete(len(self.codes))
                               for a in self.possible_agents}
        self.screens: dict[int, ScreenLike] = {
            s: screen_for(game, rules, s, 0) for s, who in enumerate(seats) if who == AGENT}
        self.seed_ = 0
        self.number = -1

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._action_spaces[agent]

    # --- the deal ------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal 0 of ``seed``, or the next deal of the seed in play."""
        if seed is not None:
            self.seed_, self.number = int(seed), -1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.views = {a: np.zeros(self.game.observation.LENGTH, np.int64) for a in self.agents}
        self.columns: dict[str, np.ndarray] | None = None
        while True:
            self.number += 1
            self.script: list[tuple[int, int, int, int]] = []
            self._advance()
            if self.columns is None:
                return

    def _advance(self) -> None:
        """Play the deal with the agents' decisions so far, up to the next one or its end."""
        policies = ["person" if who == AGENT else who for who in self.seats]
        batch = play(self.game, self.seed_, self.number, 1, self.rules, policies, record=True,
                     script=[np.array(self.script, np.int64).reshape(-1, A.ROW)])
        assert batch.views is not None and batch.askers is not None and batch.actions is not None
        self.actions = batch.actions[0]
        error = int(batch.columns["replay_error"][0])
        if error == E_ASK:
            seat = batch.askers[0]
            view = batch.views[0]
            assert view is not None
            self.agent_selection = f"seat_{seat}"
            self.views[self.agent_selection] = view
            self.question: QuestionLike = self.screens[seat].question(view)
            self.picked: list[int] = []
            return
        if error:
            raise RuntimeError(f"the engine refused an agent's action (replay error {error})")
        self.columns = batch.columns

    def _legal(self) -> dict[int, int]:
        """The selected agent's legal action codes, each with its choice's index."""
        legal: dict[int, int] = {}
        for k, choice in enumerate(self.question.choices):
            code = self.index[code_key(choice.row)]
            if k not in self.picked:
                legal.setdefault(code, k)
        return legal

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = np.zeros(len(self.codes), np.int8)
        if self.columns is None and agent == self.agent_selection:
            mask[list(self._legal())] = 1
        return {"observation": self.views[agent].copy(), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self._legal()
        if action is None or int(action) not in legal:
            raise ValueError(f"{agent}: action {action!r} is not legal now "
                             f"(legal: {sorted(legal)})")
        self._cumulative_rewards[agent] = 0.0
        self.picked.append(legal[int(action)])
        if len(self.picked) < self.question.pick:
            self._clear_rewards()
            return
        rows = [self.question.choices[k].row for k in self.picked]
        kind, seat, _, b = rows[0]
        mask = 0
        for row in rows:
            mask |= row[2]
        self.script.append((kind, seat, mask if self.question.pick > 1 else rows[0][2], b))
        self._advance()
        self._clear_rewards()
        if self.columns is not None:
            score = self.game.outcome.score
            for a in self.agents:
                self.rewards[a] = float(self.columns[f"{score}_{a.removeprefix('seat_')}"][0])
                self.terminations[a] = True
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The actions so far, one row ``[kind, seat, a, b]`` a line (``ansi``)."""
        if self.render_mode != "ansi":
            return None
        return "\n".join(f"{A.NAMES[r[0]]:>8} seat {r[1]}: {r[2]} {r[3]}"
                         for r in self.actions.tolist() if r[0] < len(A.NAMES))

    def close(self) -> None:
        """Nothing to release."""


def make(game: str, seats: list[str] | None = None, render_mode: str | None = None,
         **rules: Any) -> StichsimEnv:
    """The AEC environment of ``game`` under ``rules`` (option values; the rest their
    defaults), the seats ``seats`` names ``"agent"`` played by agents (every seat by default),
    the others by the policies named there."""
    found = find_game(game)
    resolved = found.rules(rules)
    chosen = list(seats) if seats is not None else [AGENT] * found.n_players
    policy_ids(["person" if who == AGENT else who for who in chosen], found, SEATED)
    if AGENT not in chosen:
        raise ValueError("seats: at least one seat is an agent ('agent')")
    return StichsimEnv(found, resolved, chosen, render_mode)


def action_names(env: StichsimEnv) -> list[str]:
    """Each action code's name: the card (``CJ``), ``bid 18``, ``pass``, ``declare 12`` ..."""
    names = []
    for kind, a in env.codes:
        if kind == A.PLAY:
            names.append(env.game.deck.names[a])
        elif kind == A.DECLINE:
            names.append(f"no {A.NAMES[a]}")
        elif kind in ANSWERS:
            names.append(A.NAMES[kind])
        else:
            names.append(f"{A.NAMES[kind]} {a}")
    return names

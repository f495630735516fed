"""The tables a ``stichsim serve`` holds: each a person's seat in a series of deals,
kept in memory under a random id, with a lock so one table takes one answer at a time.

A series plays deals ``0, 1, 2, ...`` of one seed, so the dealer rotates as in
``stichsim play --number``; every finished deal keeps its trace object (``sim.trace``),
from which the running score list and the download are made.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sim.engine.game import Game
from sim.engine.seats import PolicyError, policy_ids, python_source
from sim.options import RuleError
from sim.play import Screen, screen_for
from sim.play.table import Moment, Table
from sim.registry import GameError, find_game
from sim.screen.questions import Question, Row, answer
from sim.trace import dump_line, trace_object

MAX_TABLES = 200
"""Tables kept at once; the one used longest ago goes first (a closed tab's table lingers
until then)."""


class RequestError(Exception):
    """A request the table refuses: its one-line reason and the HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class SeatedTable:
    """A person's seat at ``game`` under ``rules`` against ``policy``: the deal in play
    (``table``, ``screen``, its latest ``moment``) and the finished deals of the series."""

    id: str
    game: Game
    rules: dict[str, Any]
    seat: int
    policy: str
    seed: int
    table: Table
    screen: Screen
    moment: Moment
    finished: list[dict[str, Any]] = field(default_factory=list)
    scores: list[list[int]] = field(default_factory=list)
    """Each finished deal's score per seat, from its result columns as the game's
    ``outcome`` names them (the duel's victory points)."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def number(self) -> int:
        """The deal in play (its number under the seed: the dealer is ``number % players``)."""
        return self.table.number

    def question(self) -> Question:
        """The decision due (``RequestError`` once the deal is over)."""
        if self.moment.view is None:
            raise RequestError("the deal is over: no decision is due", 409)
        return self.screen.question(self.moment.view)

    def decide(self, step: int, picks: list[int]) -> None:
        """Take the person's choices (indices into the question's choices, as many as it
        picks) at decision ``step`` (how many he made before: a stale page is refused)."""
        made = len(self.table.decisions)
        if step < made:
            raise RequestError(f"stale page: decision {step} was answered already", 409)
        if step > made:
            raise RequestError(f"decision {step} is not due yet: the table waits for decision "
                               f"{made}", 409)
        question = self.question()
        got = answer(question, " ".join(f"#{k + 1}" for k in picks))
        if isinstance(got, Question):
            raise RequestError(f"choose {question.pick} cards")
        if isinstance(got, str):
            raise RequestError(got)
        self.advance(got)

    def advance(self, row: Row) -> None:
        """Play the person's decision ``row`` and on to his next one or the deal's end."""
        self.table.decide(row)
        self.moment = self.table.moment()
        columns = self.moment.columns
        if columns is not None:
            self.finished.append(trace_object(self.game, self.rules, self.table.policies, self.seed,
                                              columns, 0, self.moment.actions))
            score = self.game.outcome.score
            self.scores.append([int(columns[f"{score}_{s}"][0]) for s in range(self.game.n_players)])

    def next_deal(self) -> None:
        """Start the series' next deal (the next number: the next dealer)."""
        if self.moment.columns is None:
            raise RequestError("the deal is not over yet", 409)
        self.table, self.screen, self.moment = start(self.game, self.rules, self.seed,
                                                     self.number + 1, self.seat, self.policy)

    def traces(self) -> str:
        """The finished deals' traces, one line each (``stichsim replay`` reads them)."""
        return "".join(dump_line(obj) + "\n" for obj in self.finished)


def start(game: Game, rules: dict[str, Any], seed: int, number: int, seat: int,
          policy: str) -> tuple[Table, Screen, Moment]:
    """Deal ``number`` with the person at ``seat``, played up to his first decision."""
    table = Table(game, rules, seed, number, seat, policy)
    return table, screen_for(game, rules, seat, number), table.moment()


class Tables:
    """The tables in memory, by id."""

    def __init__(self, limit: int = MAX_TABLES, players: tuple[str, ...] = ()) -> None:
        self.limit = limit
        self.players = players
        """The Python players (``python:FILE.py:FUNCTION``) the server was started with: the
        only ones a request may seat (a page may not run any file it names)."""
        self.tables: OrderedDict[str, SeatedTable] = OrderedDict()
        self.lock = threading.Lock()

    def open(self, game_name: Any, seat: Any, policy: Any, rules: Any, seed: Any) -> SeatedTable:
        """A new table (``RequestError`` naming the first thing wrong with the request)."""
        try:
            game = find_game(str(game_name))
        except GameError as e:
            raise RequestError(str(e)) from None
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.n_players:
            raise RequestError(f"seat must be 0 to {game.n_players - 1}, got {seat!r}")
        if not isinstance(rules, dict):
            raise RequestError("rules must be an object of option names and values")
        if seed is None:
            seed = secrets.randbits(32)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 63:
            raise RequestError(f"seed must be a whole number from 0 to 2**63 - 1, got {seed!r}")
        if python_source(str(policy)) is not None and policy not in self.players:
            raise RequestError(f"policy {policy!r} is not offered here (a Python player plays "
                               f"when the server is started with it: stichsim serve --player)")
        try:
            resolved = game.rules(rules)
            policy_ids([policy] * game.n_players, game)
        except (RuleError, PolicyError) as e:
            raise RequestError(str(e)) from None
        table, screen, moment = start(game, resolved, seed, 0, seat, policy)
        seated = SeatedTable(secrets.token_urlsafe(12), game, resolved, seat, policy, seed,
                             table, screen, moment)
        with self.lock:
            self.tables[seated.id] = seated
            while len(self.tables) > self.limit:
                self.tables.popitem(last=False)
        return seated

    def get(self, table_id: str) -> SeatedTable:
        """The table ``table_id`` (404 when there is none, e.g. the server restarted)."""
        with self.lock:
            seated = self.tables.get(table_id)
            if seated is None:
                raise RequestError("no such table (the server may have restarted): start a new one", 404)
            self.tables.move_to_end(table_id)
            return seated

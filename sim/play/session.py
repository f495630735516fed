"""``stichsim play``: a person at the table, in a terminal.

The loop: play the deal up to the person's next decision (``Table``), tell him what the
other seats did since (``Screen.narrate``), show what his seat sees and the question
with its legal choices, read an answer until it names one, and go on; at the end show
the result with the score broken down and write the deal's trace (one line, as
``stichsim trace`` writes them), so ``stichsim replay`` plays it again; then, asked for,
the hindsight: each of his cards against the best under perfect play (``sim.play.hindsight``,
only once the deal is over, since it sees every card).

Input and output are plain text lines (no colour, no cursor tricks), so a script can
play a whole deal through standard input.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from sim.engine.game import Game
from sim.play.hindsight import hindsight_lines, hindsight_of_record
from sim.play.table import Table
from sim.screen.board import Board, FinalBoard
from sim.screen.questions import Question, Row, answer
from sim.trace import dump_line, trace_object

QUIT = ("QUIT", "EXIT")
"""Words that leave the table at any question."""


class Screen(Protocol):
    """A game's table screen (``sim.play.SCREENS``), made for one person's seat."""

    def view_lines(self, view: np.ndarray) -> list[str]: ...
    def question(self, view: np.ndarray) -> Question: ...
    def narrate(self, actions: np.ndarray) -> list[str]: ...
    def result_lines(self, columns: dict[str, np.ndarray]) -> list[str]: ...
    def board(self, view: np.ndarray, actions: np.ndarray) -> Board: ...
    def final_board(self, columns: dict[str, np.ndarray], actions: np.ndarray,
                    cards: dict[str, Any]) -> FinalBoard: ...


class LeftTable(Exception):
    """The person left before the deal was over (end of input or ``quit``)."""


def write_trace_line(obj: dict[str, Any], out: Path) -> None:
    """Write one trace line to ``out``, whole or not at all (temp file, then rename)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(dump_line(obj) + "\n", encoding="utf-8")
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)


def ask(question: Question, read: Callable[[str], str], say: Callable[[str], None]) -> Row:
    """Ask until an answer names a legal choice (cards to pick may come a few at a time);
    ``LeftTable`` on ``quit``."""
    *choices, prompt = question.lines()
    for line in choices:
        say(line)
    while True:
        text = read(prompt + " ")
        if text.strip().upper() in QUIT:
            raise LeftTable("quit")
        got = answer(question, text)
        if isinstance(got, Question):
            question = got
            *choices, prompt = question.lines()
            for line in choices:
                say(line)
        elif isinstance(got, str):
            say(f"  {got}")
        else:
            return got


def play_deal(game: Game, table: Table, screen: Screen, read: Callable[[str], str],
              say: Callable[[str], None], trace: Path, header: list[str],
              hindsight: bool = False) -> dict[str, Any]:
    """Play one deal at ``table``; returns its trace object (also written to ``trace``).

    ``read(prompt)`` returns the person's next line (``EOFError`` at the end of input);
    ``say(line)`` shows one line; ``hindsight``: show the hindsight at the end."""
    for line in header:
        say(line)
    said = 0
    while True:
        moment = table.moment()
        told = screen.narrate(moment.actions)
        for line in told[said:]:
            say(line)
        said = len(told)
        if moment.finished:
            break
        assert moment.view is not None
        say("")
        for line in screen.view_lines(moment.view):
            say(line)
        table.decide(ask(screen.question(moment.view), read, say))
    assert moment.columns is not None
    say("")
    say("Deal over.")
    for line in screen.result_lines(moment.columns):
        say(line)
    obj = trace_object(game, table.rules, table.policies, table.seed, moment.columns, 0,
                       moment.actions, given=table.preset is not None)
    write_trace_line(obj, trace)
    say(f"Trace written to {trace} (replay it: stichsim replay {trace})")
    if hindsight:
        say("")
        decisions = hindsight_of_record(game, table.rules, moment.columns, 0, moment.actions,
                                        table.seat)
        for line in hindsight_lines(decisions):
            say(line)
    return obj

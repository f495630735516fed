"""Hindsight: after a deal, each of a person's decisions with the value of his choice and
of the best choice under perfect play, every card known (the double-dummy solver that
``stichsim solve`` uses: the game's declared solver, ``Game.solver``).

It sees every card, so it is for a finished deal only: a deal that is not over raises
``HindsightError``. Public API:

* ``hindsight(trace, seat=None)``: the decisions of ``seat`` (default: the seat whose policy
  is ``person``) in a trace object (one trace line as a dict, e.g. what
  ``sim.play.session.play_deal`` returns); replays it through the engine first.
* ``hindsight_of_record(game, rules, columns, i, log, seat)``: the same from a played batch
  (deal ``i`` of the result ``columns`` with its recorded action rows ``log``, as the
  table's last ``Moment`` holds them), without a replay.
* ``hindsight_lines(decisions)``: the decisions as lines for the terminal.

Both return a JSON-able list, one dict a decision of the seat, in the order he made them:

* every decision: ``seat``, ``decision`` (from 1), ``kind`` (the trace's action type: ``bid``,
  ``play``, ...), ``action`` (the trace's action object), ``solved`` (bool);
* one not solved: ``why``. Decisions before the card play (bids, the skat, declarations,
  discards, Doko-Skat's first round, which decides the teams rather than card points) and
  the card play's other decisions (Skat-en-deux's offers, Contra, Re) are not solved: the
  solver answers card play only;
* a card played: ``trick`` (from 1; Doko-Skat counts the main game's tricks), ``legal`` (the
  card names he could play), ``played``, ``measure`` (``"card points"``: his side's final
  card points; ``"own card points"``: a ramsch's, his alone against the two others taken as
  one side; ``"declarer takes a trick"``: a null game's, 1 or 0), ``better`` (``"higher"``
  or ``"lower"``: which way is better for him), ``side`` (the seats of his side),
  ``value`` (his card's), ``best`` (the best card's), ``value_range`` and ``best_range``
  (``[low, high]``, one number twice when exact), ``loss`` (how much worse his card was,
  0 for a best card; where capped, the least the ranges allow), ``capped`` (the search
  stopped at ``NODE_BUDGET``: ``value`` or ``best`` may be None, read the ranges),
  ``best_cards`` (the names that may reach ``best``) and ``moves`` (each legal name's
  ``[low, high]``: exact for his card and the best ones, a card surely worse than another
  may keep a range; where one name can be played from two places, the duel's hand and
  pyramid, the better of the two, while ``value`` is the one he played).

Values are the solver's counts under best play by both sides from the position before his
card (mid-trick positions included), the points taken before counted, the skat or discards
counted as ``stichsim solve`` counts them, narrowed by its null-window searches. One solver
table serves a deal's positions while the question stays the same, so the later positions
reuse the earlier searches. Speed (this 2-core machine): a Skat or Skat-en-deux deal about
0.1 s (at most 2 s of 100 deals), a Doko-Skat deal about 1 s, a duel deal 1 to 3 s; a rare
Doppelkopf opening reaches the budget (about 5 s a decision; a single search cannot be cut
short, one took 50 s) and shows ranges. Run it off the thread that serves a person.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.engine.cardplay import HEADER, PLAY
from sim.engine.game import Game
from sim.engine.solving import hooks
from sim.errors import StichsimError
from sim.search import solver
from sim.solve import players, sides_of

NOT_SOLVED = "not solved: the solver answers the card play only"
NODE_BUDGET = 30_000_000
"""Search nodes a decision may take (about 5 s here): past them its values are ranges
(``capped``). Counted, not timed, so that a deal's hindsight is the same everywhere."""
NOT_OVER = "the deal is not over: hindsight sees every card, so it waits for the end"


class HindsightError(StichsimError):
    """Hindsight asked of a deal it may not or cannot look at (not over, not a trace)."""


def hindsight(trace: Mapping[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
    """The decisions of ``seat`` in the finished deal of one trace object (module text)."""
    from sim.trace import TraceError, dump_line, parse_line, replayed_deals

    try:
        line = parse_line(dump_line(dict(trace)), 1)
    except TraceError as e:
        raise HindsightError(f"not a trace of a deal: {e}") from None
    if seat is None:
        people = [s for s, name in enumerate(trace["policies"]) if name == "person"]
        if len(people) != 1:
            raise HindsightError("name the seat: the trace has no single 'person' seat")
        seat = people[0]
    _, [(columns, i, log)] = replayed_deals([line])
    return hindsight_of_record(line.game, line.rules, columns, i, log, seat)


def hindsight_of_record(game: Game, rules: Mapping[str, Any],
                        columns: Mapping[str, np.ndarray] | None, i: int, log: np.ndarray,
                        seat: int) -> list[dict[str, Any]]:
    """The decisions of ``seat`` in deal ``i`` of a played batch (module text); raises
    ``HindsightError`` unless the deal is over (``columns`` None: it is not)."""
    if not 0 <= seat < game.n_players:
        raise HindsightError(f"{game.name} has seats 0 to {game.n_players - 1}, not {seat}")
    if columns is None or int(columns["replay_error"][i]):
        raise HindsightError(NOT_OVER)
    from sim.trace import trace_codec

    mine = [a for a in trace_codec(game).actions_json(log) if a.get("seat") == seat]
    solved = _card_play(game, rules, columns, i, log, seat)
    plays = [k for k, a in enumerate(mine) if a["type"] == "play"]
    # the card play's cards are his last plays (Doko-Skat's first round comes before)
    at = dict(zip(plays[len(plays) - len(solved):], solved))
    out = []
    for k, action in enumerate(mine):
        entry: dict[str, Any] = {"seat": seat, "decision": k + 1, "kind": action["type"],
                                 "action": action}
        found = at.get(k)
        if found is None:
            entry.update(solved=False, why=NOT_SOLVED)
        else:
            assert found["played"] == action["card"], (found, action)
            entry.update(solved=True, **found)
        out.append(entry)
    return out


def _card_play(game: Game, rules: Mapping[str, Any], columns: Mapping[str, np.ndarray], i: int,
               log: np.ndarray, seat: int) -> list[dict[str, Any]]:
    """Each card ``seat`` chose in the deal's card play, solved (``card_decision``)."""
    cp = game.card_play
    assert cp is not None  # every game of the registry has one
    started = cp.start(columns, i, log, rules)
    if started is None:
        return []
    state, actions = started
    table = Table(game)
    out = []
    for action in actions:
        if int(state[HEADER.PHASE]) == PLAY and int(state[HEADER.PLAYER]) == seat:
            out.append(card_decision(game, state, int(action), table))
        cp.step(state, int(action))
    if not cp.finished(state):
        raise HindsightError(NOT_OVER)
    return out


class Table:
    """A game's solver workspace kept across a deal's positions while they ask the same
    question (its table's bounds hold for that question only; a ramsch asks for the mover's
    points, so a new mover clears it)."""

    def __init__(self, game: Game) -> None:
        self.module = hooks(game)
        self.ws = self.module.new_workspace()
        self.question = np.full(solver.Q_LENGTH, -1, np.int64)

    def ask(self, q: np.ndarray) -> Any:
        """The workspace, cleared unless its entries answer ``q``."""
        if not np.array_equal(q, self.question):
            solver.clear(self.ws)
            self.question = q.copy()
        return self.ws


def card_decision(game: Game, state: np.ndarray, played: int,
                  table: Table | None = None) -> dict[str, Any]:
    """The card-play position ``state`` (its mover's card ``played``, a bit index) solved
    from the mover's side: the fields of a solved card (module text)."""
    table = table or Table(game)
    position = state.copy()
    table.module.prepare(position)
    q = np.zeros(solver.Q_LENGTH, np.int64)
    table.module.question(position, q)
    mover = int(position[HEADER.TO_MOVE])
    tricks, own = solver.counts_tricks(q), solver.each_for_himself(q)
    counted = int(q[solver.Q_COUNTED])
    in_count = bool((counted >> mover) & 1)
    total = int(q[solver.Q_SUM])
    if tricks:  # a null game: the declarer's tricks, the first ends the game
        measure, better, top = "declarer takes a trick", "lower" if in_count else "higher", 1
    else:
        measure = "own card points" if own else "card points"  # own: a ramsch
        better, top = "lower" if own else "higher", total

    def mine(low: int, high: int) -> list[int]:
        return [low, high] if in_count or tricks else [total - high, total - low]

    cp: Any = game.card_play
    legal = int(cp.legal(position))
    names = game.deck.names
    cards = [c for c in range(64) if (legal >> c) & 1]
    if table.module.SAME_NAME_SAME_MOVE:  # copies of a card in one hand are the same move
        one = {names[played]: played}
        for c in cards:
            one.setdefault(names[c], c)
        cards = sorted(one.values())
    up = bool((int(q[solver.Q_MAXIMIZERS]) >> mover) & 1)
    found, capped = _ranges(cp, table, position, q, cards, played, up, top)
    pick = max if better == "higher" else min
    sign = 1 if better == "higher" else -1
    moves: dict[str, list[int]] = {}
    for c in cards:  # a name playable from two places: the better
        r = mine(*found[c])
        if names[c] not in moves or sign * (r[0] - moves[names[c]][0]) > 0:
            moves[names[c]] = r
    best = [pick(r[0] for r in moves.values()), pick(r[1] for r in moves.values())]
    value = mine(*found[played])
    gap = min(sign * (best[0] - value[1]), sign * (best[1] - value[0]))  # the least loss
    seats = players(game, position)
    who = int(position[HEADER.PLAYER])
    return {"trick": int(position[cp.fields.TRICK_NO]) + 1, "legal": list(moves),
            "played": names[played], "measure": measure, "better": better,
            "side": next(s for s in sides_of(counted, seats) if who in s),
            "value": value[0] if value[0] == value[1] else None, "value_range": value,
            "best": best[0] if best[0] == best[1] else None, "best_range": best,
            "loss": max(gap, 0), "capped": capped,
            "best_cards": [n for n, r in moves.items() if sign * (r[1] - best[0]) >= 0],
            "moves": moves}


def _ranges(cp: Any, table: Table, position: np.ndarray, q: np.ndarray, cards: list[int],
            played: int, up: bool, top: int) -> tuple[dict[int, list[int]], bool]:
    """The count after each card of ``cards``, narrowed from ``[0, top]`` by null-window
    searches (``solver.probe``, fail-soft: each bound may jump past its target), one card
    after another, until the card ``played`` and every card that may be best (for a mover
    who wants the count high, ``up``, or low) are exact, or the searches have visited
    ``NODE_BUDGET`` nodes; and whether they stopped there. A card surely worse than
    another keeps its range."""
    ws = table.ask(q)
    stats = ws[solver.W_STATS]
    start = int(stats[solver.NODES])
    children = {}
    for c in cards:
        children[c] = position.copy()
        cp.step(children[c], c)
    found = {c: [0, top] for c in cards}
    while True:
        if up:
            sure = max(found[c][0] for c in cards)
            hopeful = [c for c in cards if found[c][1] >= sure]
        else:
            sure = min(found[c][1] for c in cards)
            hopeful = [c for c in cards if found[c][0] <= sure]
        open_ = [c for c in cards if found[c][0] < found[c][1] and (c == played or c in hopeful)]
        if not open_:
            return found, False
        if int(stats[solver.NODES]) - start > NODE_BUDGET:
            return found, True
        for c in open_:
            low, high = found[c]
            target = (low + high + 1) // 2
            v = int(table.module.bound(children[c], q, target, ws))
            if v >= target:
                found[c][0] = min(v, high)
            else:
                found[c][1] = max(v, low)


def _label(action: Mapping[str, Any]) -> str:
    """A trace action in a few words: ``bid 18``, ``discard CK DK``, ``declare grand hand``."""
    words = [str(action["type"])]
    for key, v in action.items():
        if key in ("type", "seat") or v is False or v is None or v == 0:
            continue
        if v is True:
            words.append(key.replace("_", " "))
        elif isinstance(v, list):
            words.extend(map(str, v))
        elif key in ("value", "card", "game", "cards") or isinstance(v, str):
            words.append(str(v))
        else:
            words.append(f"{key.replace('_', ' ')} {v}")
    return " ".join(words)


def _worth(entry: Mapping[str, Any], r: list[int]) -> str:
    """A value in words: ``58`` card points (``52-61`` where the search was capped), or
    whether the declarer takes a trick."""
    if entry["measure"] == "declarer takes a trick":
        if r[0] != r[1]:
            return "the declarer may take a trick"
        return "the declarer takes a trick" if r[0] else "the declarer takes no trick"
    return str(r[0]) if r[0] == r[1] else f"{r[0]}-{r[1]}"


def hindsight_lines(decisions: list[dict[str, Any]]) -> list[str]:
    """The decisions as lines for the terminal: each card with its value and the best one's,
    the decisions not solved in one line."""
    if not decisions:
        return ["Hindsight: you made no decision in this deal."]
    cards = [d for d in decisions if d["solved"]]
    out = ["Hindsight (perfect play by both sides from each of your cards, every card known):"]
    if cards:
        first = cards[0]
        if first["measure"] == "card points":
            others = [f"seat {s}" for s in first["side"] if s != first["seat"]]
            seats = ", ".join(["you", *others])
            out.append(f"  values: the final card points of your side ({seats})")
        elif first["measure"] == "own card points":
            out.append("  values: your final card points (lower is better in a ramsch)")
    for d in cards:
        head = f"  trick {d['trick']:>2}: {d['played']:<3} {_worth(d, d['value_range'])}"
        capped = " (search capped: ranges)" if d["capped"] else ""
        if d["played"] in d["best_cards"] and not d["loss"]:
            others = [n for n in d["best_cards"] if n != d["played"]]
            also = f" (so were {' '.join(others)})" if others else ""
            out.append(f"{head}, a best card{also}{capped}" if len(d["legal"]) > 1
                       else f"{head} (the only card)")
        else:
            least = "at least " if d["capped"] else ""
            unit = "" if d["measure"] == "declarer takes a trick" else f" ({least}{d['loss']} worse)"
            out.append(f"{head}; best {' '.join(d['best_cards'])}: "
                       f"{_worth(d, d['best_range'])}{unit}{capped}")
    rest = [_label(d["action"]) for d in decisions if not d["solved"]]
    if rest:
        out.append(f"  not solved (the solver answers card play only): {', '.join(rest)}")
    return out

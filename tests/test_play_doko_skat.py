"""``stichsim play`` for Doko-Skat: the screen's score breakdown against the engine's, whole
deals through the session loop (the redeal included), wrong entries, and hidden cards."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from knowable import doko_skat_knowable

from sim import actions as A
from sim.cards import DOKO_DECK_48 as DECK
from sim.engine.play import play as play_deals
from sim.games.doko_skat.observation import FIELDS as O
from sim.games.doko_skat.observation import PH_DECLARE, PH_DISCARD, PH_FIRST_ROUND, PH_PLAY
from sim.games.doko_skat.screen import DokoSkatScreen
from sim.play.session import play_deal
from sim.play.table import Table
from sim.registry import find_game
from sim.screen.questions import answer
from sim.trace import replay_file

GAME = find_game("doko_skat")
DEFAULT = GAME.rules({})
ZERO_SUM = GAME.rules({"zero_sum": True, "first_round_points": False})
TRICK = re.compile(r"^  (first-round )?trick \d+ to (.+) \((\d+) points\)$")


def names(mask: int) -> set[str]:
    return set(DECK.name_list(int(mask)))


def shown_cards(text: str) -> set[str]:
    """The words of ``text`` that are card names."""
    return set(re.findall(r"[A-Z0-9]+", text)) & set(DECK.names)


def first_choice(prompt: str) -> str:
    return "1"


def pass_first(prompt: str) -> str:
    """The first legal choice, but pass when asked for a game."""
    return "pass" if prompt.startswith("Your game") else "1"


def one_deal(columns: dict[str, np.ndarray], i: int) -> dict[str, np.ndarray]:
    return {k: v[i:i + 1] for k, v in columns.items()}


@cache
def redeal_deal(seat: int) -> int:
    """A seed whose deal 0 goes to the redeal when the person at ``seat`` takes the first
    legal card and passes, the other seats playing ``random``."""
    for seed in range(2000):
        table = Table(GAME, DEFAULT, seed, 0, seat, "random")
        screen = DokoSkatScreen(GAME, DEFAULT, seat, 0)
        while True:
            moment = table.moment()
            if moment.finished:
                break
            assert moment.view is not None
            if moment.view[O.PHASE] in (PH_DISCARD, PH_PLAY):
                if moment.view[O.REDEAL]:
                    return seed
                break
            choices = screen.question(moment.view).choices
            table.decide(choices[-1 if moment.view[O.PHASE] == PH_DECLARE else 0].row)  # pass last
    raise AssertionError("no redeal found")


# --- the score, as the engine settles it ----------------------------------------------------

READINGS = GAME.rules({"both_copies": "skat", "spitzen": "ranks", "tie_special_points": False})
REVISION_4 = GAME.rules({"team_cards": "won", "main_lead": "first_round_winner",
                         "spitzen_of": "declarer"})


@pytest.mark.parametrize("rules", [DEFAULT, ZERO_SUM, READINGS, REVISION_4],
                         ids=["default", "zero_sum", "readings", "revision_4"])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_the_score_breakdown_arrives_at_the_engines_value_and_scores(rules: dict, policy: str) -> None:
    n = 2000
    cols = play_deals(GAME, 18, 0, n, rules, [policy] * 3).columns  # 7 redeals with random play
    screen = DokoSkatScreen(GAME, rules, 0, 0)
    kinds: Counter[str] = Counter()
    for i in range(n):
        c = {k: v[i].item() for k, v in cols.items()}
        lines, pair, lone = screen.side_points(c)
        assert (pair, lone) == (c["points_pair"], c["points_lone"]), (i, lines)
        lines, value = screen.score_terms(c)
        assert value == c["value"], (i, lines, c)
        scores = screen.seat_scores(c, value)
        assert scores == [c[f"score_{s}"] for s in range(3)], (i, lines, scores)
        result = screen.result_lines(one_deal(cols, i))
        assert result[-1] == "Scores: " + ", ".join(
            f"{screen.player_name(s)} {scores[s]:+d}" for s in range(3))
        kinds["redeal"] += c["nobody_declared"]
        kinds["tie"] += c["tie"]
        kinds["spitzen"] += any("Spitzen" in line for line in lines)
        kinds["by_rank"] += any("Spitzen by rank" in line for line in lines)
        kinds["special"] += any("special point" in line for line in lines)
        kinds["with_skat"] += any("turned-up cards with the skat" in line for line in lines)
        kinds["own"] += any("Spitzen of the declarer's own cards" in line for line in lines)
        kinds["took_both"] += any("took both turned-up cards" in line for line in lines)
    assert kinds["spitzen"] > 100 and kinds["special"] > 100, kinds
    assert (kinds["own"] > 100) == (kinds["took_both"] > 10) == (rules is REVISION_4), kinds
    assert (kinds["by_rank"] > 100) == (rules is READINGS) and kinds["by_rank"] <= kinds["spitzen"]
    assert (kinds["with_skat"] > 0) == (rules is READINGS), kinds
    if policy == "random":
        assert kinds["redeal"] >= 1, kinds


@pytest.mark.parametrize(("given", "line"), [
    ({}, "the lone player 1 + 1 special point (the lone player held both turned-up cards among "
         "his first-round cards) = 2"),
    ({"zero_sum": True}, "the lone player 1 + 1 special point (the lone player held both "
                         "turned-up cards among his first-round cards) = 2"),
    ({"tie_special_points": False}, "the lone player 1 (special points do not count in a tie "
                                    "under these rules)"),
])
def test_a_tie_shows_the_special_points_it_counts(given: dict, line: str) -> None:
    """Deal 3311 under seed 2, random players: the pair declares and the sides tie 120 : 120;
    the lone player, holding both turned-up cards among his first-round cards, scores 1 and
    his special point on top, or 1 alone without ``tie_special_points``."""
    rules = GAME.rules(given)
    cols = play_deals(GAME, 2, 3311, 1, rules, ["random"] * 3).columns
    c = {k: v[0].item() for k, v in cols.items()}
    assert (c["tie"], c["declaring_side"], c["lone"], c["lone_both"]) == (True, 0, 1, True)
    screen = DokoSkatScreen(GAME, rules, 0, 3311)
    result = screen.result_lines(cols)
    assert f"Tie at 120 card points: the side that did not declare scores, {line}" in result
    value = 1 if given.get("tie_special_points") is False else 2
    lone_score = 2 * value if rules["zero_sum"] else value
    pair_score = -value if rules["zero_sum"] else 0
    assert result[-1] == f"Scores: you {pair_score:+d}, seat 1 (middlehand) {lone_score:+d}, " \
                         f"seat 2 (rearhand) {pair_score:+d}"


# --- whole deals through the session loop ---------------------------------------------------

def play(tmp_path: Path, seed: int, seat: int, policy: str, read: Callable[[str], str],
         rules: dict = DEFAULT) -> tuple[list[str], Table, DokoSkatScreen, Path]:
    table = Table(GAME, rules, seed, 0, seat, policy)
    screen = DokoSkatScreen(GAME, rules, seat, 0)
    said: list[str] = []
    trace = tmp_path / f"deal_{seed}_{seat}.jsonl"
    play_deal(GAME, table, screen, read, said.append, trace, [])
    return said, table, screen, trace


def check_whole_deal(said: list[str], table: Table, screen: DokoSkatScreen, trace: Path) -> None:
    """The end screen, the trace, and the narration: each trick's taker and points add up
    to the engine's per-seat points, and a prefix of the actions is told the same way."""
    moment = table.moment()
    assert moment.finished and moment.columns is not None
    c = {k: v[0].item() for k, v in moment.columns.items()}
    end = said[said.index("Deal over."):]
    assert end[1].startswith("Teams: ") and any(line.startswith("Each winner scores") or
                                                line.startswith("Tie") for line in end)
    assert any(line.startswith("Scores: ") and "you" in line for line in end)
    lines = trace.read_text().splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["policies"][table.seat] == "person"
    assert replay_file(trace) == []
    told = screen.narrate(moment.actions)
    for k in range(len(moment.actions) + 1):
        part = screen.narrate(moment.actions[:k])
        assert told[:len(part)] == part
    said_iter = iter(said)
    assert all(line in said_iter for line in told)  # every line told, in order
    taken = {"first-round ": Counter[str](), "": Counter[str]()}
    for line in told:
        m = TRICK.match(line)
        assert m or not line.startswith("  "), line
        if m:
            taken[m[1] or ""][m[2]] += int(m[3])
    for s in range(3):
        name = screen.player_name(s)
        assert taken["first-round "][name] == c[f"fr_points_{s}"]
        assert taken[""][name] == c[f"points_{s}"]


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_whole_deal_with_the_first_choice(tmp_path: Path, seat: int) -> None:
    said, table, screen, trace = play(tmp_path, 8, seat, "heuristic", first_choice)
    check_whole_deal(said, table, screen, trace)
    assert any(line.startswith("Declarer: ") for line in said)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_whole_deal_with_a_redeal(tmp_path: Path, seat: int) -> None:
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return pass_first(prompt)

    said, table, screen, trace = play(tmp_path, redeal_deal(seat), seat, "random", read)
    check_whole_deal(said, table, screen, trace)
    assert any(line.startswith("Nobody named a game: redeal") for line in said)
    assert any(line.startswith("Nobody declared: redeal. Second turned-up card") for line in said)
    assert any(line.startswith("Given to you in the redeal: ") for line in said)
    assert any(p.startswith("Put 4 cards away (they count for your side)") for p in prompts)
    moment = table.moment()
    assert moment.columns is not None and moment.columns["nobody_declared"][0]
    hidden = [line for line in said if re.match(r"seat \d \(\w+\): puts 4 cards away$", line)]
    assert len(hidden) == 2


def test_each_heuristic_decision_is_offered_and_replays_the_same_deal() -> None:
    """A person deciding as the heuristic did, through the screen's questions, gets the
    same deal: every game, pass, card and discard the heuristic chose is offered."""
    for seat in range(3):
        for number in range(5):
            ref = play_deals(GAME, 21, number, 1, DEFAULT, ["heuristic"] * 3, record=True)
            assert ref.actions is not None
            mine = [tuple(int(v) for v in r) for r in ref.actions[0] if r[1] == seat]
            table = Table(GAME, DEFAULT, 21, number, seat, "heuristic")
            screen = DokoSkatScreen(GAME, DEFAULT, seat, number)
            for row in mine:
                moment = table.moment()
                assert moment.view is not None
                question = screen.question(moment.view)
                if row[0] == A.DISCARD:
                    got = answer(question, " ".join(DECK.name_list(row[2])))
                    assert isinstance(got, tuple) and names(got[2]) == names(row[2])
                    table.decide(got)
                    continue
                same = [c.row for c in question.choices if c.row[:2] == row[:2] and (
                    DECK.names[c.row[2]] == DECK.names[row[2]] if row[0] == A.PLAY else c.row[2] == row[2])]
                assert len(same) == 1, (seat, number, row, question.prompt)
                table.decide(same[0])
            moment = table.moment()
            assert moment.finished and moment.columns is not None
            for key in ("value", "score_0", "score_1", "score_2", "points_pair", "declarer"):
                assert moment.columns[key][0] == ref.columns[key][0]


def test_the_screen_says_who_took_the_turned_up_cards_and_who_leads() -> None:
    """Under ``team_cards = won`` each first-round question shows the copies each seat has
    taken so far, the teams' rule; under ``main_lead = first_round_winner`` the questions
    between the rounds name the last trick's taker as the main game's leader, and the
    main game's first trick is his lead."""
    checked: Counter[str] = Counter()
    for seed, seat in [(seed, seat) for seed in range(6) for seat in range(3)]:
        table = Table(GAME, REVISION_4, seed, 0, seat, "heuristic")
        screen = DokoSkatScreen(GAME, REVISION_4, seat, 0)
        while (view := table.moment().view) is not None:
            lines = screen.view_lines(view)
            taken = ", ".join(f"{screen.player_name(p)} {int(view[O.FR_COPIES + p])}" for p in range(3))
            assert f"Copies of the turned-up card taken in the first round (their takers are the " \
                   f"team): {taken}" in lines
            leads = [line for line in lines if line.startswith("The main game is led by")]
            if view[O.PHASE] == PH_FIRST_ROUND:
                assert not leads
                checked["first round"] += 1
            elif view[O.PHASE] in (PH_DECLARE, PH_DISCARD):
                leader = int(view[O.FR_LAST])
                assert leads == [f"The main game is led by {screen.player_name(leader)}, "
                                 "who took the first round's last trick"]
                facts = dict(screen.board(view, table.moment().actions).facts)
                assert facts["Main game led by"] == screen.places(int(view[O.LONE]))[leader].name
                assert facts["Copies taken (the team)"].endswith(str(int(view[O.FR_COPIES + 2])))
                checked["between"] += 1
            elif view[O.TRICK_NO] == 0:
                assert int(view[O.TRICK_LEADER]) == int(view[O.FR_LAST])
                checked["first trick"] += 1
            question = screen.question(view)
            if view[O.PHASE] == PH_DISCARD:
                got = answer(question, " ".join(DECK.name_list(int(view[O.HAND]))[:int(view[O.N_DISCARD])]))
                assert isinstance(got, tuple)
                table.decide(got)
            else:
                table.decide(question.choices[0].row)
    assert checked["first round"] >= 40 and checked["between"] >= 5 and checked["first trick"] >= 10, checked


def declaration_view(seat: int) -> np.ndarray:
    """The observation of the first deal (seeds from 0) where ``seat`` is asked for a game."""
    for seed in range(50):
        table = Table(GAME, DEFAULT, seed, 0, seat, "heuristic")
        screen = DokoSkatScreen(GAME, DEFAULT, seat, 0)
        while (view := table.moment().view) is not None and view[O.PHASE] == PH_FIRST_ROUND:
            table.decide(screen.question(view).choices[0].row)
        if view is not None and view[O.PHASE] == PH_DECLARE:
            return view
    raise AssertionError("never asked")


def test_the_declaration_question() -> None:
    screen = DokoSkatScreen(GAME, DEFAULT, 0, 0)
    view = declaration_view(0).copy()
    view[O.NEXT_SPEAKER] = 1
    question = screen.question(view)
    labels = [c.label.split(" (")[0] for c in question.choices]
    assert labels == ["suit clubs", "suit spades", "suit hearts", "suit diamonds", "grand",
                      "bridge clubs", "bridge spades", "bridge hearts", "bridge diamonds", "pass"]
    assert answer(question, "H") == (A.DECLARE, 0, 2, 0)
    assert answer(question, "grand") == (A.DECLARE, 0, 4, 0)
    assert answer(question, "bh") == (A.DECLARE, 0, 7, 0)
    assert answer(question, "P") == answer(question, "pass") == (A.PASS, 0, 0, 0)
    assert question.lines()[-1] == "Your game (a number or a word such as clubs):"
    assert "dealt again" not in question.choices[-1].label
    view[O.NEXT_SPEAKER] = -1
    assert "dealt again" in screen.question(view).choices[-1].label


# --- wrong entries ------------------------------------------------------------------------

def test_a_wrong_entry_is_refused_and_asked_again(tmp_path: Path) -> None:
    """A number out of range, a card not held and a held card that may not be played now
    are each refused with a reason, the same question is asked again, and the deal goes on."""
    for seed in range(30):
        said: list[str] = []
        pending: list[str] = []
        wrong: dict[str, str] = {}
        table = Table(GAME, DEFAULT, seed, 0, 1, "heuristic")
        screen = DokoSkatScreen(GAME, DEFAULT, 1, 0)

        def read(prompt: str) -> str:
            if pending:
                return pending.pop(0)
            view = table.moment().view
            assert view is not None
            question = screen.question(view)
            if "range" not in wrong:
                wrong["range"] = f"there is no choice 99: choose 1 to {len(question.choices)}"
                pending.append("1")
                return "99"
            if view[O.PHASE] == PH_PLAY and "not held" not in wrong:
                held = names(view[O.HAND])
                card = next(n for n in DECK.names if n not in held)
                wrong["not held"] = f"{card} is not one of the choices"
                pending.append("1")
                return card.lower()
            if question.refusals and "illegal" not in wrong:
                card = next(iter(question.refusals))
                wrong["illegal"] = question.refusals[card]
                assert "may not be played now: you must follow" in wrong["illegal"]
                pending.append("1")
                return card
            return "1"

        play_deal(GAME, table, screen, read, said.append, tmp_path / "t.jsonl", [])
        if len(wrong) == 3:
            break
    assert len(wrong) == 3, wrong
    for reason in wrong.values():
        assert f"  {reason}" in said
    assert "Deal over." in said and replay_file(tmp_path / "t.jsonl") == []


# --- hidden information on the screen -------------------------------------------------------

@pytest.mark.parametrize("rules", [DEFAULT, GAME.rules({"team_cards": "all", "bridge_order": "skat"}),
                                   REVISION_4], ids=["default", "all_skat", "revision_4"])
def test_the_screen_never_shows_a_hidden_card(tmp_path: Path, rules: dict) -> None:
    """At every question, and at the end, the text said so far names only cards the person
    may know then: his first-round cards, his stock once the first round is over, the skat
    if he plays alone, the cards given him in a redeal, cards played, the turned-up cards.
    Other stocks, the skat and others' discards stay hidden (a name shows if any copy of it
    may be known)."""
    deals = [(seed, seat, "heuristic", first_choice) for seed in range(6) for seat in range(3)]
    if rules is DEFAULT:
        deals += [(redeal_deal(seat), seat, "random", pass_first) for seat in range(3)]
    checked = Counter[str]()
    for seed, seat, policy, reply in deals:
        said: list[str] = []
        seen: list[tuple[int, np.ndarray]] = []
        table = Table(GAME, rules, seed, 0, seat, policy)

        def read(prompt: str) -> str:
            seen.append((len(said), table.moment().actions.copy()))
            return reply(prompt)

        play_deal(GAME, table, DokoSkatScreen(GAME, rules, seat, 0), read, said.append,
                  tmp_path / "t.jsonl", [])
        moment = table.moment()
        assert moment.columns is not None
        c = {k: v[0].item() for k, v in moment.columns.items()}
        seen.append((len(said), moment.actions))
        for n_said, actions in seen:
            known = doko_skat_knowable(c, seat, actions)
            shown = shown_cards("\n".join(said[:n_said]))
            assert shown <= known, (seed, seat, shown - known)
            checked["questions"] += 1
            others = names(c["skat"]) if c["lone"] != seat else set()
            for s in range(3):
                others |= names(c[f"stock_{s}"]) if s != seat else set()
            checked["could show a hidden card"] += bool(others - known)
        checked["lone"] += c["lone"] == seat
        checked["redeal"] += c["nobody_declared"]
    assert checked["questions"] > 300 and checked["could show a hidden card"] > 200, checked
    assert checked["lone"] >= 2, checked
    if rules is DEFAULT:
        assert checked["redeal"] >= 3, checked

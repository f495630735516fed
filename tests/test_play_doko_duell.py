"""``stichsim play`` for the Doppelkopf duel: the screen's victory-point breakdown against
the engine's, its narration against the result columns, whole deals played through the
session loop, refused entries, hidden cards, and a card legal from hand and pyramid."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from knowable import doko_duell_knowable

from sim import actions as A
from sim.engine.play import play
from sim.games.doko_duell import game as G
from sim.games.doko_duell.screen import DokoDuellScreen
from sim.play.session import play_deal
from sim.play.table import Table
from sim.registry import find_game
from sim.screen.questions import Question, answer
from sim.trace import replay_file, trace_codec

GAME = find_game("doko_duell")
DECK = G.DECK
CARD = re.compile(r"\b[CSHD][ATKQJ]\b")


def column(cols: dict[str, np.ndarray], i: int) -> dict[str, np.ndarray]:
    """Deal ``i``'s result columns as 1-element arrays (what the screen is given)."""
    return {k: v[i:i + 1] for k, v in cols.items()}


class Recording:
    """A screen that keeps every question it asked."""

    def __init__(self, screen: DokoDuellScreen) -> None:
        self.screen = screen
        self.questions: list[Question] = []

    def view_lines(self, view: np.ndarray) -> list[str]:
        return self.screen.view_lines(view)

    def question(self, view: np.ndarray) -> Question:
        self.questions.append(self.screen.question(view))
        return self.questions[-1]

    def narrate(self, actions: np.ndarray) -> list[str]:
        return self.screen.narrate(actions)

    def result_lines(self, columns: dict[str, np.ndarray]) -> list[str]:
        return self.screen.result_lines(columns)


# --- the result ----------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [
    {}, {"b_marker_mode": "v2"}, {"tie_rule": "last_trick"},
    {"tie_rule": "last_trick", "tie_win_base": 1, "b_marker_mode": "v2"},
    {"tie_rule": "starter_loses", "b_marker_mode": "v2"}, {"tie_rule": "starter_wins"},
    {"tie_rule": "more_tricks"}, {"tie_rule": "b_markers", "b_marker_mode": "v2"},
    {"a_marker_on_setup": False, "b_one_per_trick": True, "b_marker_supply": "none"},
])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_the_vp_breakdown_arrives_at_the_engines_victory_points(rules: dict, policy: str) -> None:
    resolved = GAME.rules(rules)
    cols = play(GAME, 31, 0, 2000, resolved, [policy] * 2, record=False).columns
    seen = {"tie": 0, "tie won": 0, "floor": 0, "negative": 0}
    for i in range(2000):
        one = column(cols, i)
        c = {k: v[0].item() for k, v in one.items()}
        seat = i % 2
        screen = DokoDuellScreen(GAME, resolved, seat, c["deal"])
        winner, _ = screen.winner(c)
        lines, total = screen.vp_terms(c)
        assert winner == c["winner"], (i, lines, c)
        if winner < 0:
            assert total == 0 and c["vp_0"] == c["vp_1"] == 0
        else:
            assert (c[f"vp_{winner}"], c[f"vp_{1 - winner}"]) == (max(total, 0), max(-total, 0)), \
                (i, lines, c)
            assert f"  = {c['vp_raw']}" in lines, (lines, c["vp_raw"])
        assert lines[-1].endswith(f"you {c[f'vp_{seat}']}, player {1 - seat} {c[f'vp_{1 - seat}']}")
        shown = screen.result_lines(one)
        assert shown[-len(lines):] == lines
        seen["tie"] += c["tie"]
        seen["tie won"] += c["tie"] and winner >= 0
        seen["floor"] += winner >= 0 and c["vp_raw"] < 1
        seen["negative"] += winner >= 0 and c["vp_raw"] < 0
    assert seen["tie"] and seen["floor"] and seen["negative"], seen
    assert bool(seen["tie won"]) == (resolved["tie_rule"] != "draw"), seen


TIE = {"points_0": 120, "points_1": 120, "tricks_0": 11, "tricks_1": 9, "a_markers_0": 0,
       "a_markers_1": 1, "b_markers_0": 0, "b_markers_1": 0, "starter": 0, "last_trick_winner": 1}
"""A 120 : 120 in which player 1 took the 20th trick (and holds an A marker, which does not
count for him)."""


@pytest.mark.parametrize("base, mode, given, shown, total", [
    # tie_win_base 0: the loser at 120 earns the winner nothing; v1 raises 0 to 1
    (0, "v1", {}, ["  your card points 120 (120 : 120 won by the tie rule, tie_win_base 0): 0",
                   "  + your A markers: 0", "  + B markers player 1 0 - you 0: +0", "  = 0",
                   "  b_marker_mode v1: the winner scores at least 1: 1",
                   "Victory points: you 0, player 1 1"], 1),
    # v2: a total of 0 scores for nobody, though player 1 won the tie
    (0, "v2", {},
     ["  your card points 120 (120 : 120 won by the tie rule, tie_win_base 0): 0",
      "  + your A markers: 0", "  + B markers player 1 0 - you 0: +0", "  = 0",
      "  b_marker_mode v2: a total of 0: nobody scores", "Victory points: you 0, player 1 0"], 0),
    # the loser's two A markers and one B marker against the winner's three: 0 + 2 + 2 = 4
    (0, "v1", {"a_markers_0": 2, "b_markers_0": 1, "b_markers_1": 3},
     ["  your card points 120 (120 : 120 won by the tie rule, tie_win_base 0): 0",
      "  + your A markers: 2", "  + B markers player 1 3 - you 1: +2", "  = 4",
      "Victory points: you 0, player 1 4"], 4),
    # tie_win_base 1 (the engine before revision 3): 1 + 2 + 2 = 5
    (1, "v1", {"a_markers_0": 2, "b_markers_0": 1, "b_markers_1": 3},
     ["  your card points 120 (120 : 120 won by the tie rule, tie_win_base 1): 1",
      "  + your A markers: 2", "  + B markers player 1 3 - you 1: +2", "  = 5",
      "Victory points: you 0, player 1 5"], 5),
    # the loser's two B markers: 1 - 2 = -1, v1 keeps 1 for the winner
    (1, "v1", {"b_markers_0": 2},
     ["  your card points 120 (120 : 120 won by the tie rule, tie_win_base 1): 1",
      "  + your A markers: 0", "  + B markers player 1 0 - you 2: -2", "  = -1",
      "  b_marker_mode v1: the winner scores at least 1: 1", "Victory points: you 0, player 1 1"], 1),
    # ... and v2 hands the 1 to the loser
    (1, "v2", {"b_markers_0": 2},
     ["  your card points 120 (120 : 120 won by the tie rule, tie_win_base 1): 1",
      "  + your A markers: 0", "  + B markers player 1 0 - you 2: -2", "  = -1",
      "  b_marker_mode v2: a negative total goes to the loser: you 1",
      "Victory points: you 1, player 1 0"], -1),
])
def test_a_tie_won_by_the_last_trick_term_by_term(base: int, mode: str, given: dict, shown: list[str],
                                                   total: int) -> None:
    rules = GAME.rules({"tie_rule": "last_trick", "tie_win_base": base, "b_marker_mode": mode})
    c = {**TIE, **given}
    lines, got = DokoDuellScreen(GAME, rules, 0, 0).vp_terms(c)
    assert lines == ["120 : 120 (tie_rule last_trick: the taker of the 20th trick wins): player 1 wins.",
                     "Victory points of the winner (player 1):", *shown]
    assert got == total


@pytest.mark.parametrize("rules", [{}, {"equal_cards": "second_wins", "b_one_per_trick": True},
                                   {"equal_cards": "second_heart_ten"}])
def test_the_narration_adds_up_to_the_result(rules: dict) -> None:
    """Tricks, card points and markers as narrated per player are the result's."""
    resolved = GAME.rules(rules)
    batch = play(GAME, 8, 0, 300, resolved, ["heuristic"] * 2, record=True)
    assert batch.actions is not None
    for i in range(300):
        c = {k: v[i].item() for k, v in batch.columns.items()}
        screen = DokoDuellScreen(GAME, resolved, 0, c["deal"])
        text = screen.narrate(batch.actions[i])
        for p, who in enumerate(("you", "player 1")):
            taken = [int(m.group(1)) for line in text
                     if (m := re.fullmatch(rf"  trick \d+ to {who} \((\d+) points\)", line))]
            assert (len(taken), sum(taken)) == (c[f"tricks_{p}"], c[f"points_{p}"]), (i, p)
            verb = "get" if p == 0 else "gets"
            assert sum(f"{who} {verb} a B marker" in line for line in text) == c[f"b_markers_{p}"]
            assert sum(f"{who} {verb} an A marker" in line for line in text) == c[f"a_markers_{p}"]
        assert sum(line.startswith(("you: play ", "player 1: plays ")) for line in text) == 40


def test_an_empty_box_awards_no_b_marker() -> None:
    rules = GAME.rules({})
    screen = DokoDuellScreen(GAME, rules, 1, 0)
    rows = np.array([[A.MARKER, 0, 2, t] for t in range(13)], np.int64)
    text = screen.narrate(rows)
    assert text[:12] == ["  player 0 gets a B marker: Karlchen (trick won with CJ)"] * 12
    assert text[12] == "  player 0: Karlchen (trick won with CJ), no B marker (the box is empty)"


# --- whole deals -------------------------------------------------------------------------

@pytest.mark.parametrize("seat", [0, 1])
def test_a_whole_deal_answering_the_first_choice(tmp_path: Path, seat: int) -> None:
    rules = GAME.rules({})
    table = Table(GAME, rules, 12, 0, seat, "heuristic")
    screen = Recording(DokoDuellScreen(GAME, rules, seat, 0))
    said: list[str] = []
    path = tmp_path / "deal.jsonl"
    obj = play_deal(GAME, table, screen, lambda prompt: "1", said.append, path, [])
    assert "Deal over." in said
    assert any(line.startswith("Victory points: you ") for line in said)
    assert any(line.startswith("Victory points of the winner") or line.startswith("Nobody scores")
               for line in said)
    lines = path.read_text().splitlines()
    assert len(lines) == 1
    traced = json.loads(lines[0])
    assert sum(a["type"] == "play" for a in traced["actions"]) == 40
    assert traced["policies"][seat] == "person" and traced["policies"][1 - seat] == "heuristic"
    assert obj["actions"] == traced["actions"]
    assert replay_file(path) == []
    moment = table.moment()
    mine = [tuple(r) for r in moment.actions.tolist() if r[0] == A.PLAY and r[1] == seat]
    assert len(mine) == len(screen.questions) == 20
    assert mine == [q.choices[0].row for q in screen.questions]


@pytest.mark.parametrize("seat", [0, 1])
def test_each_heuristic_decision_is_offered_and_replays_the_same_deal(seat: int) -> None:
    """A person who plays as the heuristic did, choosing from the screen's questions, gets
    the same deal: every card the engine's player took is offered from the same place."""
    rules = GAME.rules({})
    codec = trace_codec(GAME)
    for number in range(4):
        ref = play(GAME, 21, number, 1, rules, ["heuristic"] * 2, record=True)
        assert ref.actions is not None
        mine = [tuple(r) for r in ref.actions[0].tolist() if r[0] == A.PLAY and r[1] == seat]
        table = Table(GAME, rules, 21, number, seat, "heuristic")
        screen = DokoDuellScreen(GAME, rules, seat, number)
        for row in mine:
            moment = table.moment()
            assert moment.view is not None
            same = [c.row for c in screen.question(moment.view).choices
                    if DECK.names[c.row[2]] == DECK.names[row[2]] and c.row[3] == row[3]]
            assert len(same) == 1, (number, row)
            table.decide(same[0])
        moment = table.moment()
        assert moment.columns is not None
        assert codec.result_json(moment.columns, 0, moment.actions) == \
            codec.result_json(ref.columns, 0, ref.actions[0])
        assert codec.actions_json(moment.actions) == codec.actions_json(ref.actions[0])


def test_a_wrong_entry_is_refused_and_asked_again(tmp_path: Path) -> None:
    rules = GAME.rules({})
    seat = 0
    table = Table(GAME, rules, 3, 0, seat, "heuristic")
    screen = DokoDuellScreen(GAME, rules, seat, 0)
    said: list[str] = []
    refused: list[str] = []
    entries: list[str] = []

    def read(prompt: str) -> str:
        if not entries:  # a new question: first the wrong entries
            moment = table.moment()
            assert moment.view is not None
            question = screen.question(moment.view)
            keys = {k for c in question.choices for k in c.keys}
            assert not keys & set(question.refusals)  # a refused name is no choice
            stranger = next(n for n in DECK.names if n not in keys and n not in question.refusals)
            entries.extend(["99", stranger, *question.refusals, "1"])
            refused.extend(question.refusals)
        return entries.pop(0)

    play_deal(GAME, table, screen, read, said.append, tmp_path / "t.jsonl", [])
    assert "Deal over." in said
    assert sum(bool(re.fullmatch(r"  there is no choice 99: choose 1 to \d+", s)) for s in said) == 20
    assert sum(bool(re.fullmatch(r"  [CSHD][ATKQJ] is not one of the choices", s)) for s in said) == 20
    assert sum(bool(re.fullmatch(r"  [CSHD][ATKQJ] may not be played now: .+", s)) for s in said) \
        == len(refused)
    follow = [s for s in said if "may not be played now: you must follow" in s]
    covered = [s for s in said if "may not be played now: it is still covered in your pyramid" in s]
    assert follow and covered, said


def test_the_screen_never_shows_a_hidden_card(tmp_path: Path) -> None:
    """Whatever the person is shown names only cards he may know then: a card name some
    copy of which is neither in the other hand unplayed nor face down in a pyramid."""
    rules = GAME.rules({})
    checked = 0
    for seed in range(6):
        for seat in range(2):
            full = {k: v[0].item() for k, v in play(GAME, seed, 0, 1, rules, ["random"] * 2).columns.items()}
            said: list[str] = []
            table = Table(GAME, rules, seed, 0, seat, "heuristic")

            def read(prompt: str) -> str:
                nonlocal checked
                actions = table.moment().actions
                allowed = doko_duell_knowable(full, seat, actions)
                shown = set(CARD.findall("\n".join(said + [prompt])))
                assert shown <= allowed, (seed, seat, len(actions), shown - allowed)
                checked += 1
                return "1"

            play_deal(GAME, table, DokoDuellScreen(GAME, rules, seat, 0), read, said.append,
                      tmp_path / "t.jsonl", [])
    assert checked == 6 * 2 * 20


def test_a_card_in_hand_and_pyramid_asks_which() -> None:
    """When a card name is legal from the hand and from the pyramid, the name alone is
    ambiguous and the screen asks for the number; ``P<k>`` picks the pyramid's."""
    rules = GAME.rules({})
    for seed in range(40):
        seat = seed % 2
        table = Table(GAME, rules, seed, 0, seat, "heuristic")
        screen = DokoDuellScreen(GAME, rules, seat, 0)
        while not (moment := table.moment()).finished:
            assert moment.view is not None
            question = screen.question(moment.view)
            hand = {DECK.names[c.row[2]] for c in question.choices if c.row[3] == 0}
            both = [c for c in question.choices if c.row[3] and DECK.names[c.row[2]] in hand]
            if both:
                pick = both[0]
                name = DECK.names[pick.row[2]]
                numbers = [str(k + 1) for k, c in enumerate(question.choices)
                           if DECK.names[c.row[2]] == name]
                reply = answer(question, name.lower())
                assert reply == f"{name} is there more than once ({', '.join(numbers)}): give its number"
                k = pick.row[3] - 1
                assert pick.label == f"{name} (p{k})"
                assert answer(question, f"p{k}") == pick.row
                assert answer(question, f"P{k}") == pick.row
                assert answer(question, str(question.choices.index(pick) + 1)) == pick.row
                table.decide(pick.row)  # and the engine takes the pyramid card
                after = table.moment().actions
                assert [A.PLAY, seat, pick.row[2], k + 1] in after.tolist()
                return
            table.decide(question.choices[0].row)
    pytest.fail("no card legal both from hand and pyramid in 40 deals")


def test_other_numbers_and_the_compensation_term_by_term() -> None:
    """170 : 70, the loser (you, player 1) holds an A marker, B markers 3 : 1; 4 VP for
    60-89, 2 per A marker, 3 per B marker: 4 + 2 + 6 = 12; you did not start: + 5."""
    rules = GAME.rules({"vp_band_60": 4, "vp_per_a_marker": 2, "vp_per_b_marker": 3,
                        "compensation": 5})
    c = {"points_0": 170, "points_1": 70, "tricks_0": 14, "tricks_1": 6, "a_markers_0": 0,
         "a_markers_1": 1, "b_markers_0": 3, "b_markers_1": 1, "starter": 0,
         "last_trick_winner": 0}
    lines, total = DokoDuellScreen(GAME, rules, 1, 0).vp_terms(c)
    assert lines == ["Player 0 wins with 170 card points.",
                     "Victory points of the winner (player 0):",
                     "  your card points 70 (60-89): 4",
                     "  + your A markers: 1 x 2 VP = +2",
                     "  + B markers player 0 3 - you 1: +2 x 3 VP = +6",
                     "  = 12",
                     "Compensation for not starting: you +5",
                     "Victory points: you 5, player 0 12"]
    assert total == 12

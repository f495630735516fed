"""``stichsim play``: a person's seat in the engine, deals given by hand, the Skat family's
screen, and the command driven through standard input for every game."""

from __future__ import annotations

import io
import json
import random
import re
import shlex

import numpy as np
import pytest

from sim import actions as A
from sim.cards import SKAT_DECK
from sim.cli import main
from sim.engine.deals import DealError, deck_order, order_of
from sim.engine.kernel import E_ASK
from sim.engine.play import play
from sim.games.skat_family.observation import DECL_OPEN_SHIFT, DECL_OUVERT
from sim.play import screen_for
from sim.play.session import play_deal
from sim.play.table import Table
from sim.registry import GAMES, find_game
from sim.screen.questions import Choice, Question, answer
from sim.trace import replay_file

SKAT = find_game("skat")
EN_DEUX = find_game("skat_en_deux")
NO_SCRIPT = np.zeros((0, A.ROW), np.int64)


# --- the engine: a person's seat --------------------------------------------------------

@pytest.mark.parametrize("name", list(GAMES))
def test_a_person_seat_stops_at_its_first_decision_with_its_observation(name: str) -> None:
    game = find_game(name)
    seat = 1
    policies = ["heuristic"] * game.n_players
    policies[seat] = "person"
    batch = play(game, 5, 0, 1, game.rules({}), policies, record=True, script=[NO_SCRIPT])
    assert batch.columns["replay_error"][0] == E_ASK
    assert batch.views is not None and batch.actions is not None
    view = batch.views[0]
    assert view is not None and view.shape == (game.observation.LENGTH,)
    # in Skat-en-deux the observation's seat is a place: deal 0's forehand is player 1
    assert view[game.observation.SEAT] == (0 if name == "skat_en_deux" else seat)
    # nothing the person decided is logged, and no other seat acted after the stop
    reference = play(game, 5, 0, 1, game.rules({}), ["heuristic"] * game.n_players, record=True)
    assert reference.actions is not None
    log = batch.actions[0]
    assert np.array_equal(log, reference.actions[0][:len(log)])


def test_a_person_needs_a_script() -> None:
    with pytest.raises(ValueError, match="script"):
        play(SKAT, 1, 0, 1, SKAT.rules({}), ["person", "random", "random"])


def screens_choice(question: Question, row: tuple[int, ...], deck) -> tuple[int, ...] | None:
    """The choice of ``question`` that makes the recorded ``row`` (cards by name), if any."""
    for choice in question.choices:
        c = choice.row
        if c[0] != row[0] or c[1] != row[1] or c[3] != row[3]:
            continue
        if row[0] == A.DISCARD:
            return None
        same = deck.names[c[2]] == deck.names[row[2]] if row[0] == A.PLAY else c[2] == row[2]
        if same:
            return c
    return None


def discard_choice(question: Question, row: tuple[int, ...], deck) -> tuple[int, ...] | None:
    """The discard row of ``question`` naming the cards of the recorded discard ``row``."""
    wanted = sorted(deck.names[c] for c in deck.cards(row[2]))
    words = " ".join(wanted)
    got = answer(question, words)
    assert not isinstance(got, (str, Question)), (got, words)
    assert sorted(deck.names[c] for c in deck.cards(got[2])) == wanted
    return got


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("seat", [0, 1])
def test_each_heuristic_decision_is_offered_and_replays_the_same_deal(name: str, seat: int) -> None:
    """A person who decides as the heuristic did, choosing from the screen's questions,
    gets the same deal: the screens offer every legal choice the engine's player took, and
    the table reproduces the other seats' play."""
    game = find_game(name)
    rules = game.rules({"contra_re": True} if name == "skat_en_deux" else {})
    from sim.trace import trace_codec

    codec = trace_codec(game)
    for number in range(6):
        ref = play(game, 21, number, 1, rules, ["heuristic"] * game.n_players, record=True)
        assert ref.actions is not None
        mine = [tuple(int(v) for v in r) for r in ref.actions[0]
                if r[1] == seat and r[0] not in (A.MARKER, A.RAMSCH)]  # no decisions
        table = Table(game, rules, 21, number, seat, "heuristic")
        screen = screen_for(game, rules, seat, number)
        k = 0
        while True:
            moment = table.moment()
            if moment.finished:
                break
            assert moment.view is not None
            question = screen.question(moment.view)
            if k < len(mine) and mine[k][0] == A.DISCARD and question.pick > 1:
                row = discard_choice(question, mine[k], game.deck)
            else:
                row = screens_choice(question, mine[k], game.deck) if k < len(mine) else None
            if row is None:  # a "no" that leaves no row in the log
                declines = [c.row for c in question.choices if c.row[0] == A.DECLINE]
                assert declines, (name, number, question.prompt, mine[k:k + 1])
                row = declines[0]
            else:
                k += 1
            table.decide(row)
        assert k == len(mine)
        assert moment.columns is not None
        same = codec.result_json(moment.columns, 0, moment.actions) == \
            codec.result_json(ref.columns, 0, ref.actions[0])
        assert same and codec.actions_json(moment.actions) == codec.actions_json(ref.actions[0])


# --- deals given by hand ------------------------------------------------------------------

def physical_groups(name: str, cols: dict[str, np.ndarray], i: int) -> list[list[int]]:
    """A deal's card groups (bit indices, copies told apart) from its result columns."""
    game = find_game(name)
    cards = game.deck.cards

    def mask(col: str) -> list[int]:
        return cards(int(cols[col][i]))

    if name == "skat":
        return [mask("hand_0"), mask("hand_1"), mask("hand_2"), mask("skat")]
    if name == "skat_en_deux":
        return [mask("hand_0"), mask("hand_1"), mask("blind"), mask("skat")]
    if name == "doko_duell":
        return [mask("hand_0"), mask("hand_1")] + [
            [int(cols[f"pyramid_{s}_{k}"][i]) for k in range(12)] for s in range(2)]
    first = [mask(f"first_round_{s}") for s in range(3)]
    turned = [c for g in first for c in g if c % 24 == int(cols["turned_up"][i])]
    return [mask(f"stock_{s}") for s in range(3)] + [mask("skat")] + first + [turned[:1]]


@pytest.mark.parametrize("name", list(GAMES))
def test_a_deal_given_back_as_its_own_order_replays_whole(name: str) -> None:
    """The layout is the exact inverse of the kernel's dealing: a deal's cards given back
    as a preset play the same deal, to the last action and result column."""
    game = find_game(name)
    policies = ["random"] * game.n_players
    batch = play(game, 17, 0, 120, game.rules({}), policies, record=True)
    assert batch.actions is not None
    for i in range(120):
        dealer = int(batch.columns["dealer"][i])
        groups = physical_groups(name, batch.columns, i)
        if game.deck.copies > 1:  # names do not tell a Doppelkopf card's copies apart
            order = np.array(game.deal_layout.order(groups, dealer), np.int64)
        else:
            order = order_of(game, [[game.deck.names[c] for c in g] for g in groups], dealer)
        again = play(game, 17, i, 1, game.rules({}), policies, record=True, preset=order)
        assert again.actions is not None
        for key, column in batch.columns.items():
            assert column[i] == again.columns[key][0], (name, i, key)
        assert np.array_equal(batch.actions[i], again.actions[0])


SKAT_DEAL = ("CJ SJ HJ DJ CA CT CK CQ C9 C8 / SA ST SK SQ S9 S8 S7 HA HT HK / "
             "HQ H9 H8 H7 DA DT DK DQ D9 D8 / C7 D7")


def test_a_skat_deal_in_card_notation_is_dealt_as_written() -> None:
    order = deck_order(SKAT, SKAT_DEAL, dealer=0)
    batch = play(SKAT, 3, 0, 1, SKAT.rules({}), ["heuristic"] * 3, preset=order)
    assert SKAT_DECK.format(int(batch.columns["hand_0"][0])) == "CA CT CK CQ CJ C9 C8 SJ HJ DJ"
    assert SKAT_DECK.format(int(batch.columns["skat"][0])) == "C7 D7"
    # forehand (seat 1) holds no jack and seat 0 all four: seat 0 plays
    assert batch.columns["declarer"][0] == 0


@pytest.mark.parametrize("name, text, fragment", [
    ("skat", "CJ SJ", "4 groups"),
    ("skat", SKAT_DEAL.replace("C8 /", "/"), "has 9 card(s), it needs 10"),
    ("skat", SKAT_DEAL.replace("C8 /", "XX /"), "unknown card 'XX'"),
    ("skat", SKAT_DEAL.replace("C8 /", "CJ /"), "appears more than 1 time"),
    ("doko_skat", " / ".join(["CA"] * 8), "has 1 card(s), it needs 12"),
])
def test_bad_deals_are_refused_with_a_reason(name: str, text: str, fragment: str) -> None:
    with pytest.raises(DealError, match=re.escape(fragment)):
        deck_order(find_game(name), text, dealer=0)


def test_doko_skat_turned_up_card_must_be_a_first_round_card() -> None:
    game = find_game("doko_skat")
    cols = play(game, 4, 0, 1, game.rules({}), ["random"] * 3).columns
    groups = [[game.deck.names[c] for c in g] for g in physical_groups("doko_skat", cols, 0)]
    first_round = {n for g in groups[4:7] for n in g}
    elsewhere = next(n for g in groups[:3] for n in g if n not in first_round)
    good = " / ".join(" ".join(g) for g in groups)
    assert len(deck_order(game, good, dealer=0)) == 48 + 9
    bad = " / ".join(" ".join(g) for g in groups[:7]) + " / " + elsewhere
    with pytest.raises(DealError, match="turned-up card .* must be one of the first-round cards"):
        deck_order(game, bad, dealer=0)


# --- the Skat family's game value ----------------------------------------------------------

@pytest.mark.parametrize("name, rules", [
    ("skat", {}), ("skat", {"announcements": True}), ("skat", {"lost_factor": 1}),
    ("skat", {"scoring": "seeger_fabian", "lost_factor": 1}),
    ("skat_en_deux", {}), ("skat_en_deux", {"contra_re": True}),
    ("skat_en_deux", {"open_hand": True, "give_up_after_pickup": True}),
])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_the_value_breakdown_arrives_at_the_engines_game_value(name: str, rules: dict, policy: str) -> None:
    game = find_game(name)
    resolved = game.rules(rules)
    cols = play(game, 99, 0, 3000, resolved, [policy] * game.n_players).columns
    screen = screen_for(game, resolved, 0, 0)
    declared = 0
    for i in range(3000):
        c = {k: v[i].item() for k, v in cols.items()}
        if c["passed_out"] or c["ramsch"] or c.get("give_up"):
            continue
        declared += 1
        lines, value = screen.value_lines(c)
        assert value == c["game_value"], (i, lines, c)
        score = c[f"score_{c['declarer']}"]
        assert lines[-1].endswith(f"{score:+d}"), (lines, score)
    assert declared > 500


def skat_result(rules: dict, **set_: int) -> list[str]:
    """The result screen of seat 0 in deal 0 (dealer 0) for hand-made result columns."""
    resolved = SKAT.rules(rules)
    row = {name: 0 for name, _ in SKAT.columns} | {"declarer": -1} | set_
    columns = {k: np.array([v], np.int64) for k, v in row.items()}
    return screen_for(SKAT, resolved, 0, 0).result_lines(columns)


def test_the_skat_result_names_each_term_of_the_scoring() -> None:
    # seat 1 loses grand with one, 24 x 2 = 48, under the list: - 2 x 48 - 50, + 40 each
    grand = dict(declarer=1, game=4, matadors=1, bid=18, declarer_points=50, declarer_tricks=4,
                 game_value=48, score_0=40, score_1=-146, score_2=40)
    lines = skat_result({"scoring": "seeger_fabian"}, **grand)
    assert lines[-3:] == ["Seeger-Fabian: defenders +40 each",
                          "Lost: seat 1 (forehand) -2 x 48 -50 (Seeger-Fabian) = -146",
                          "Scores: you +40, seat 1 (forehand) -146, seat 2 (middlehand) +40"]
    won = dict(grand, declarer_points=70, score_0=0, score_1=98, score_2=0)
    assert skat_result({"scoring": "seeger_fabian"}, **won)[-2] == \
        "Won: seat 1 (forehand) +48 +50 (Seeger-Fabian) = +98"
    assert skat_result({}, **won | {"score_1": 48})[-2] == "Won: seat 1 (forehand) +48"
    # a ramsch: seat 1 took no trick; seats 0 and 2 took 50 each, tied for most without the
    # skat's 20, take them each and lose 2 x 70
    ramsch = dict(ramsch=1, game=6, ramsch_skat_points=20, ramsch_last_trick=2,
                  ramsch_points_0=70, ramsch_points_1=0, ramsch_points_2=70, ramsch_tricks_0=5,
                  ramsch_tricks_1=0, ramsch_tricks_2=5, score_0=-140, score_1=0, score_2=-140)
    lines = skat_result({"all_pass": "ramsch", "ramsch_skat": "loser", "ramsch_jungfrau": True},
                        **ramsch)
    assert lines[1:] == [
        "The skat's 20 points went to each loser of the tie for most, found without them (you, "
        "seat 2 (middlehand)); the most points lose them",
        "Jungfrau: seat 1 (forehand) took no trick: x 2",
        "you -70 x 2 = -140", "seat 2 (middlehand) -70 x 2 = -140",
        "Scores: you -140, seat 1 (forehand) +0, seat 2 (middlehand) -140"]


# --- the whole command through standard input --------------------------------------------

def play_cli(monkeypatch, capsys, answers: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    status = main(["play", *argv])
    out, err = capsys.readouterr()
    return status, out, err


CARD = re.compile(r"\b[CSHD][AKQJT987]\b|\b[CSHD]9\b")


@pytest.mark.parametrize("name", list(GAMES))
def test_a_whole_deal_through_standard_input(monkeypatch, capsys, tmp_path, name) -> None:
    """A scripted person who always takes the first legal choice plays a whole deal; the
    final screen shows the result and the trace, which replays without a difference."""
    trace = tmp_path / "deal.jsonl"
    status, out, err = play_cli(monkeypatch, capsys, "#1\n" * 400, name, "--seed", "8", "--seat",
                                "1", "--trace", str(trace))
    assert status == 0, err
    assert "Deal over." in out and f"Trace written to {trace}" in out
    final = out.split("Deal over.")[1]
    assert "you" in final
    assert "Hindsight (perfect play" in final and "trick  1:" in final
    lines = trace.read_text().splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert obj["policies"][1] == "person" and obj["seed"] == 8 and obj["deal"] == 0
    assert replay_file(trace) == []
    # the same seed and answers give the same deal, word for word
    again = tmp_path / "again.jsonl"
    status, out2, _ = play_cli(monkeypatch, capsys, "#1\n" * 400, name, "--seed", "8", "--seat",
                               "1", "--trace", str(again))
    assert out2.replace(str(again), str(trace)) == out
    assert again.read_text() == trace.read_text()


def test_a_wrong_entry_is_refused_and_the_same_question_asked_again(monkeypatch, capsys, tmp_path) -> None:
    trace = tmp_path / "t.jsonl"
    status, out, _ = play_cli(monkeypatch, capsys, "99\nbanana\nSX\n" + "#1\n" * 200, "skat",
                              "--seed", "3", "--seat", "1", "--trace", str(trace), "--no-hindsight")
    assert status == 0
    first = out.split("Take the game at 18")
    assert len(first) >= 4  # asked, then asked again after each of the three wrong answers
    assert "99 is not a bid you may make now: type 18, bid or pass" in out
    assert "Hindsight" not in out
    assert "BANANA is not one of the choices" in out
    assert "SX is not one of the choices" in out
    assert "Deal over." in out


def test_a_choice_numbered_10_or_more_is_taken_by_its_number() -> None:
    choices = tuple(Choice(SKAT_DECK.names[c], (A.PLAY, 0, c, 0), (SKAT_DECK.names[c],))
                    for c in range(12))
    question = Question("Your card", choices)
    assert answer(question, "10") == choices[9].row and answer(question, "12") == choices[11].row
    assert answer(question, "c10") == choices[SKAT_DECK.index("CT")].row


def bidding_question(seed: int, seat: int) -> Question:
    """The first question of ``seat`` in deal 0 of ``seed``: here, his bid."""
    table = Table(SKAT, SKAT.rules({}), seed, 0, seat, "heuristic")
    view = table.moment().view
    assert view is not None
    return screen_for(SKAT, SKAT.rules({}), seat, 0).question(view)


def test_a_number_typed_at_the_bidding_is_the_bid() -> None:
    question = bidding_question(3, 2)  # middlehand, first to bid
    assert question.bids and question.lines()[-1] == ("Your bid (now none) (type the bid, "
                                                      "e.g. 18, or 'pass'):")
    assert question.lines()[0] == "  pass" and question.lines()[1].startswith("  bids: 18 20 22")
    assert answer(question, "18") == (A.BID, 2, 18, 0)
    assert answer(question, "54") == (A.BID, 2, 54, 0)
    assert answer(question, "pass") == (A.PASS, 2, 0, 0) == answer(question, "#1")
    assert answer(question, "19") == ("19 is not a bid you may make now: type 18, 20, 22, "
                                      "... 192 or pass")
    assert answer(question, "1").startswith("1 is not a bid you may make now")
    # elsewhere a number is still the choice's number
    hold = Question("Hold or pass", (Choice("hold 20", (A.HOLD, 0, 20, 0), ("HOLD", "20")),
                                     Choice("pass", (A.PASS, 0, 0, 0), ("PASS",))), bids=True)
    assert answer(hold, "20") == (A.HOLD, 0, 20, 0) and answer(hold, "hold") == (A.HOLD, 0, 20, 0)
    assert hold.lines()[-1] == "Hold or pass (type 20 or 'hold' or 'pass'):"


def test_typing_18_at_the_skat_bidding_bids_18_and_a_wrong_bid_is_asked_again(
        monkeypatch, capsys, tmp_path) -> None:
    trace = tmp_path / "t.jsonl"
    status, out, _ = play_cli(monkeypatch, capsys, "19\n18\n" + "#1\n" * 200, "skat", "--seed",
                              "3", "--seat", "2", "--trace", str(trace), "--no-hindsight")
    assert status == 0
    assert "19 is not a bid you may make now" in out
    assert out.count("Your bid (now none)") == 2  # asked again after 19
    first = json.loads(trace.read_text())["actions"][0]
    assert first == {"type": "bid", "seat": 2, "value": 18}


def test_a_card_that_may_not_be_played_is_refused_with_the_reason() -> None:
    game = SKAT
    rules = game.rules({})
    table = Table(game, rules, 3, 0, 1, "heuristic")
    screen = screen_for(game, rules, 1, 0)
    for row in [(A.BID, 1, 18, 0), (A.PICKUP, 1, 0, 0)]:
        table.decide(row)
    moment = table.moment()
    assert moment.view is not None
    question = screen.question(moment.view)
    assert question.pick == 2
    assert isinstance(answer(question, "CJ"), Question)  # one at a time: the second is asked
    table.decide(answer(question, "C8 S9"))
    table.decide((A.DECLARE, 1, 0, 0))  # clubs
    while True:
        moment = table.moment()
        assert moment.view is not None
        question = screen.question(moment.view)
        if question.refusals:
            break
        table.decide(question.choices[0].row)
    held = next(iter(question.refusals))
    assert answer(question, held) == question.refusals[held]
    assert "may not be played now: you must follow" in question.refusals[held]


def test_end_of_input_and_quit_leave_cleanly_without_a_trace(monkeypatch, capsys, tmp_path) -> None:
    trace = tmp_path / "t.jsonl"
    status, out, err = play_cli(monkeypatch, capsys, "1\n", "skat", "--seed", "3", "--seat", "1",
                                "--trace", str(trace))
    assert status == 0 and "Left the table" in out and "--seed 3" in out and not err
    assert not trace.exists()
    status, out, _ = play_cli(monkeypatch, capsys, "quit\n", "doko_duell", "--seed", "3",
                              "--trace", str(trace))
    assert status == 0 and "Left the table" in out and not trace.exists()


@pytest.mark.parametrize("argv", [
    ["skat", "--number", "1", "--seat", "2", "--policy", "random", "--rule", "all_pass=ramsch",
     "--rule", "announcements=true"],
    ["skat", "--deal", SKAT_DEAL, "--number", "2", "--seed", "5"],
    ["doko_duell", "--number", "3", "--seat", "1"],
])
def test_quit_names_the_command_that_sits_down_at_the_same_deal_again(monkeypatch, capsys, tmp_path,
                                                                      argv) -> None:
    """The hint after ``quit`` repeats every flag that makes the deal (the number, the seed
    drawn, the seat, the policy, the rules, the cards given): run, it shows the same table."""
    trace = tmp_path / "t.jsonl"
    status, out, _ = play_cli(monkeypatch, capsys, "quit\n", *argv, "--trace", str(trace))
    assert status == 0
    hint = re.search(r"replay this deal: (stichsim play .*)\)\.$", out, re.M)
    assert hint is not None, out
    again = shlex.split(hint.group(1))
    assert "--number" in again and again[again.index("--number") + 1] == argv[argv.index("--number") + 1]
    status, out2, _ = play_cli(monkeypatch, capsys, "quit\n", *again[2:], "--trace", str(trace))
    assert status == 0 and out2 == out


def test_the_prompt_says_what_answers_the_choices_take() -> None:
    """Cards are answered with a number or a card; other choices with a number or the word
    that names one: listed where they are few, one for example where they are many."""
    game = SKAT
    rules = game.rules({})
    table = Table(game, rules, 3, 0, 1, "heuristic")
    screen = screen_for(game, rules, 1, 0)
    table.decide((A.BID, 1, 18, 0))
    prompts = []
    for answered in ["pickup", "C8 S9", "clubs", "1"]:  # the skat taken, two cards away, clubs
        moment = table.moment()
        assert moment.view is not None
        question = screen.question(moment.view)
        prompts.append(question.lines()[-1])
        row = answer(question, answered)
        assert isinstance(row, tuple), row
        table.decide(row)
    assert prompts == ["Pick up the skat or play hand (a number, skat or hand):",
                       "Put two cards away (2 numbers or cards, or one at a time):",
                       "Your game (a number or a word such as clubs):",
                       "Your card (a number or a card):"]
    offer = Question("Accept the offer raus", (
        Choice("accept", (A.ACCEPT, 1, 0, 0), ("ACCEPT", "YES", "Y")),
        Choice("reject (play on)", (A.REJECT, 1, 0, 0), ("REJECT", "NO", "N"))))
    assert offer.lines()[-1] == "Accept the offer raus (a number, accept or reject):"
    unnamed = Question("Your game", (Choice("hearts Schneider announced", (A.DECLARE, 1, 66, 0)),))
    assert unnamed.lines()[-1] == "Your game (a number):"


def test_ctrl_c_leaves_cleanly(monkeypatch, capsys, tmp_path) -> None:
    def interrupt(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    status = main(["play", "skat", "--seed", "3", "--trace", str(tmp_path / "t.jsonl")])
    out, err = capsys.readouterr()
    assert status == 130 and "Interrupted" in out and "Traceback" not in out + err
    assert not (tmp_path / "t.jsonl").exists()


@pytest.mark.parametrize("argv, fragment", [
    (["skat", "--deal", "CJ SJ"], "4 groups"),
    (["skat", "--deal", SKAT_DEAL.replace("D7", "D8")], "appears more than 1 time"),
    (["skat", "--seat", "3"], "--seat must be 0 to 2"),
    (["skat", "--policy", "genius"], "unknown policy 'genius'"),
    (["skat", "--rule", "all_pass=maybe"], "all_pass"),
    (["bridge"], "unknown game"),
])
def test_bad_input_is_one_line_and_exit_2(monkeypatch, capsys, tmp_path, argv, fragment) -> None:
    trace = tmp_path / "t.jsonl"
    status, out, err = play_cli(monkeypatch, capsys, "1\n" * 50, *argv, "--trace", str(trace))
    assert status == 2 and err.count("\n") == 1 and err.startswith("stichsim: error: "), err
    assert fragment in err and "Traceback" not in err
    assert not trace.exists() and not out


def test_a_given_deal_is_played_and_its_trace_replays_from_its_cards(monkeypatch, capsys, tmp_path) -> None:
    trace = tmp_path / "given.jsonl"
    status, out, err = play_cli(monkeypatch, capsys, "#1\n" * 100, "skat", "--deal", SKAT_DEAL,
                                "--seat", "0", "--seed", "5", "--trace", str(trace))
    assert status == 0, err
    assert "(cards given by hand)" in out
    assert "Your hand: trumps CJ SJ HJ DJ | clubs CA CT CK CQ C9 C8" in out
    obj = json.loads(trace.read_text())
    assert obj["given_deal"] is True and obj["cards"]["skat"] == ["C7", "D7"]
    assert replay_file(trace) == []
    # the same seed without the given cards deals otherwise: the replay notices a changed line
    obj["given_deal"] = False
    trace.write_text(json.dumps(obj) + "\n")
    assert replay_file(trace) != []


# --- hidden information on the screen -----------------------------------------------------

def knowable(name: str, full: dict[str, np.ndarray], seat: int, actions: np.ndarray) -> set[str]:
    """The cards a person at ``seat`` (a player) may know after ``actions`` of a Skat-family
    deal whose result columns are ``full``, worked out from the deal and the actions (not
    from the observation): his hand, cards played, the skat once he picked it up, an open
    declarer's cards, Skat-en-deux's blind once the opening lead is out (outside ramsch)."""
    def names(mask: int) -> set[str]:
        return set(SKAT_DECK.name_list(int(mask)))

    rows = [tuple(int(v) for v in r) for r in actions]
    plays = [r for r in rows if r[0] == A.PLAY]
    known = names(full[f"hand_{seat}"][0]) | {SKAT_DECK.names[r[2]] for r in plays}
    pickers = {r[1] for r in rows if r[0] == A.PICKUP}
    skat = names(full["skat"][0])
    if seat in pickers:
        known |= skat
    for kind, declarer, code, _ in rows:
        level = (code >> DECL_OPEN_SHIFT) & 3
        if kind == A.DECLARE and (code & DECL_OUVERT or level == 2 or level == 1 and len(plays) >= 3):
            cards = names(full[f"hand_{declarer}"][0]) | (skat if declarer in pickers else set())
            known |= cards - names(sum(r[2] for r in rows if r[0] == A.DISCARD))
    if name == "skat_en_deux" and plays and not any(r[0] == A.RAMSCH for r in rows):
        known |= names(full["blind"][0])
    return known


@pytest.mark.parametrize("name, rules", [
    ("skat", {"all_pass": "ramsch"}), ("skat", {"announcements": True}),
    ("skat_en_deux", {"contra_re": True}), ("skat_en_deux", {"open_hand": True}),
])
def test_the_skat_screens_never_show_a_hidden_card(tmp_path, name, rules) -> None:
    """Whatever the person at the table is shown, up to the end of the deal, names only
    cards he may know then: other hands, the skat, an opponent's discard and the blind
    before the opening lead stay hidden."""
    game = find_game(name)
    resolved = game.rules(rules)
    checked = 0
    for seed in range(10):
        for seat in range(game.n_players):
            full = play(game, seed, 0, 1, resolved, ["heuristic"] * game.n_players).columns
            said: list[str] = []
            table = Table(game, resolved, seed, 0, seat, "heuristic")

            def read(prompt: str) -> str:
                nonlocal checked
                moment = table.moment()
                known = knowable(name, full, seat, moment.actions)
                shown = set(CARD.findall("\n".join(said + [prompt])))
                assert shown <= known, (seed, seat, shown - known)
                checked += 1
                return "#1"  # the first choice, also where a typed number would be a bid

            obj = play_deal(game, table, screen_for(game, resolved, seat, 0), read,
                            said.append, tmp_path / "t.jsonl", [])
            # ``full`` has the deal's cards (its play differs: the person took first choices);
            # the end shows no card the last moment did not
            last = table.moment()
            shown = set(CARD.findall("\n".join(said)))
            assert shown <= knowable(name, full, seat, last.actions), (seed, seat)
            assert obj["actions"]
    assert checked > 150


FUZZ_RULES = {"skat": [{}, {"all_pass": "ramsch", "announcements": True}],
              "skat_en_deux": [{}, {"contra_re": True, "open_hand": True},
                               {"give_up_after_pickup": True, "all_pass": "throw_in"}],
              "doko_duell": [{}, {"equal_cards": "second_wins", "b_one_per_trick": True}],
              "doko_skat": [{}, {"team_cards": "all", "bridge_order": "skat", "zero_sum": True}]}


@pytest.mark.parametrize("name", list(GAMES))
def test_a_person_answering_at_random_finishes_every_deal_and_its_trace_replays(name, tmp_path) -> None:
    """Random choices (and now and then a wrong answer) from every seat, under the game's
    default and other rules, with random and heuristic players: every deal ends and its
    trace replays without a difference."""
    game = find_game(name)
    rng = random.Random(7)
    for rules in FUZZ_RULES[name]:
        resolved = game.rules(rules)
        for seed in range(10):
            seat, number = seed % game.n_players, seed % 4
            table = Table(game, resolved, seed, number, seat, ("random", "heuristic")[seed % 2])
            screen = screen_for(game, resolved, seat, number)

            def read(prompt: str) -> str:
                view = table.moment().view
                assert view is not None
                question = screen.question(view)
                if rng.random() < 0.1:
                    return "zz"
                picks = rng.sample(range(1, len(question.choices) + 1), question.pick)
                return " ".join(f"#{k}" if question.bids else str(k) for k in picks)

            trace = tmp_path / f"{seed}.jsonl"
            obj = play_deal(game, table, screen, read, lambda line: None, trace, [])
            assert obj["policies"][seat] == "person"
            assert replay_file(trace) == [], (rules, seed)


def test_the_skat_en_deux_result_names_the_premium_and_the_compensation() -> None:
    # RULES.md's example (grand with one, zweimal offen, Schneider, raus rejected, Contra, Re)
    # at a premium of 20 %: 24 x 6 = 144 -> 173 -> 346 -> 692; you deal, so you do not start
    # and get the compensation of 9
    game = GAMES["skat_en_deux"]
    rules = game.rules({"contra_re": True, "rejection_premium_percent": 20, "compensation": 9})
    row = {name: 0 for name, _ in game.columns} | dict(
        declarer=1, game=4, matadors=1, open_level=2, declarer_points=95, declarer_tricks=8,
        bid=18, offer=1, second_offer_trick=-1, contra=1, re=1, won=1, game_value=692,
        score_0=9, score_1=692)
    columns = {k: np.array([v], np.int64) for k, v in row.items()}
    assert screen_for(game, rules, 0, 0).result_lines(columns)[2:] == [
        "Offer raus rejected: one level more, + 20 % (rounded up) = 173", "Contra: x 2 = 346",
        "Re: x 2 = 692", "Won: player 1 (forehand) +692", "Compensation for not starting: you +9",
        "Scores: you +9, player 1 (forehand) +692"]
    # the seed's premium reads as the seed says it
    seed = game.rules({"contra_re": True})
    assert "one level more, x 1.5 (rounded up) = 216" in \
        screen_for(game, seed, 0, 0).result_lines(columns)[2]

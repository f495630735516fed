"""Golden cases for the Doppelkopf duel (``doko_duell``), worked out by hand from RULES.md
(the ``doko_duell`` section) and the seed's examples (seed 000).

Four levels:

* the kernel's pieces with hand-made inputs: the trick rule (``second_beats``), the
  covering table (``free_positions``), the settlement (``settle``, ``base_vp``);
* a referee written here from RULES.md alone (its own trump order, covering table,
  follow duty, turning up, markers, box and settlement) that replays recorded deals play by
  play and must agree with every result column and every recorded marker event;
* scripted deals: scripts the referee builds (pyramid first, freshly turned cards first,
  ...) that the engine must accept, and single illegal plays it must refuse;
* searches through many recorded deals for the situations the rules single out (a covered
  face-up card that does not oblige, each B-marker event alone and several in one trick,
  the box running empty, ties), each then checked by the referee.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pytest

from sim import actions as A
from sim.cards import DOKO_DECK_40
from sim.engine.kernel import E_ILLEGAL, E_MISMATCH
from sim.engine.play import play
from sim.games.doko_duell import game as dd
from sim.registry import find_game

D = DOKO_DECK_40
GAME = find_game("doko_duell")
NAMES = D.names

# --- the rules, written out from RULES.md -------------------------------------------------------

TRUMPS = "HT CQ SQ HQ DQ CJ SJ HJ DJ DA DT DK".split()
"""The normal game's trumps, highest first (each card twice)."""
PLAIN = {"C": "ATK", "S": "ATK", "H": "AK"}
"""Plain suits, highest first."""
CARD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
COVER = {4: (0, 1), 5: (1, 2), 6: (2, 3), 7: (4, 5), 9: (5, 6), 8: (7,), 10: (9,), 11: (8, 10)}
"""Position -> the positions whose cards cover it."""
FACE_UP = (0, 1, 2, 3, 7, 9)
"""Face up at the deal: row 1 and the upper cards of the two stacks of row 3."""
TOP_TRUMPS = ("HT", "CQ")
EVENTS = ("fox", "karlchen", "identical", "twenty_two", "pin")
TIE_RULES = ("draw", "last_trick", "starter_loses", "starter_wins", "more_tricks", "b_markers")
EQUAL = ("first_wins", "second_wins", "second_heart_ten")
BOX = 12


def suit(card: int) -> str:
    """Effective suit: ``"trump"`` or the suit letter."""
    return "trump" if NAMES[card] in TRUMPS else NAMES[card][0]


def height(card: int) -> int:
    """Height within its effective suit (higher beats lower)."""
    name = NAMES[card]
    if name in TRUMPS:
        return len(TRUMPS) - TRUMPS.index(name)
    return len(PLAIN[name[0]]) - PLAIN[name[0]].index(name[1])


def points(card: int) -> int:
    return CARD_POINTS[NAMES[card][1]]


def beats(first: int, second: int, equal: str) -> bool:
    """Whether ``second``, played to ``first``, takes the two-card trick."""
    if NAMES[first] == NAMES[second]:
        return equal == "second_wins" or (equal == "second_heart_ten" and NAMES[first] == "HT")
    if suit(second) == "trump":
        return suit(first) != "trump" or height(second) > height(first)
    return suit(second) == suit(first) and height(second) > height(first)


def trick_events(first: int, second: int, second_won: bool, trick_no: int) -> list[str]:
    """The B-marker events of a two-card trick, for its winner, in RULES.md's order."""
    win, lose = (second, first) if second_won else (first, second)
    happened = {"fox": NAMES[lose] == "DA", "karlchen": NAMES[win] == "CJ",
                "identical": NAMES[first] == NAMES[second],
                "twenty_two": points(first) + points(second) == 22,
                "pin": trick_no == 19 and NAMES[win] == "DA"}
    return [e for e in EVENTS if happened[e]]


def base_points(loser_points: int, loser_tricks: int) -> int:
    """The seed's levels: keine 120, keine 90, keine 60, keine 30 (+1 bonus); Schwarz: 2 x 5."""
    if loser_tricks == 0:
        return 10
    return 1 + (loser_points < 90) + (loser_points < 60) + 2 * (loser_points < 30)


SEED_NUMBERS = {"vp_band_90": 1, "vp_band_60": 2, "vp_band_30": 3, "vp_band_under_30": 5,
                "vp_band_no_trick": 10, "vp_per_a_marker": 1, "vp_per_b_marker": 1,
                "compensation": 0}
"""The numbers of the settlement as RULES.md gives them, by the options beyond it that turn
them."""


def band_vp(loser_points: int, loser_tricks: int, numbers: dict[str, int]) -> int:
    """The base VP of the loser's band as ``numbers`` (the ``vp_band_*`` options) give it."""
    if loser_tricks == 0:
        return numbers["vp_band_no_trick"]
    band = "under_30" if loser_points < 30 else "30" if loser_points < 60 else \
        "60" if loser_points < 90 else "90"
    return numbers[f"vp_band_{band}"]


def ref_base(pts: list[int], tricks: list[int], winner: int, tie_win_base: int,
             numbers: dict[str, int] = SEED_NUMBERS) -> int:
    """The winner's base VP: the loser's band, or for a tie won by a rule ``tie_win_base``
    (the loser has 120: "keine 120" does not hold)."""
    if pts[0] == pts[1]:
        return tie_win_base
    return band_vp(pts[1 - winner], tricks[1 - winner], numbers)


def ref_raw(pts: list[int], tricks: list[int], a: list[int], b: list[int], winner: int,
            tie_win_base: int, numbers: dict[str, int] = SEED_NUMBERS) -> int:
    """The winner's VP before ``b_marker_mode``: the base, per A marker of the loser, per B
    marker the winner holds more."""
    loser = 1 - winner
    return (ref_base(pts, tricks, winner, tie_win_base, numbers)
            + numbers["vp_per_a_marker"] * a[loser] + numbers["vp_per_b_marker"] * (b[winner] - b[loser]))


def ref_settle(pts: list[int], tricks: list[int], a: list[int], b: list[int], starter: int,
               last: int, mode: str, tie_rule: str, tie_win_base: int = 0,
               numbers: dict[str, int] = SEED_NUMBERS) -> tuple[int, bool, int, int]:
    """``(winner, tie, vp0, vp1)`` by RULES.md, with the numbers beyond it (the player who
    did not start credited the compensation, whatever the result)."""
    tie = pts[0] == pts[1]
    winner = -1
    if not tie:
        winner = 0 if pts[0] > pts[1] else 1
    elif tie_rule == "last_trick":
        winner = last
    elif tie_rule == "starter_loses":
        winner = 1 - starter
    elif tie_rule == "starter_wins":
        winner = starter
    elif tie_rule == "more_tricks" and tricks[0] != tricks[1]:
        winner = int(tricks[1] > tricks[0])
    elif tie_rule == "b_markers" and b[0] != b[1]:
        winner = int(b[1] > b[0])
    vp = [0, 0]
    vp[1 - starter] = numbers["compensation"]
    if winner < 0:
        return -1, tie, vp[0], vp[1]
    loser = 1 - winner
    total = ref_raw(pts, tricks, a, b, winner, tie_win_base, numbers)
    if mode == "v1":
        total = max(total, 1)
    if total > 0:
        vp[winner] += total
    else:
        vp[loser] -= total
    return winner, tie, vp[0], vp[1]


def mask(cards: set[int] | list[int]) -> int:
    return sum(1 << c for c in cards)


def card_set(m: int) -> set[int]:
    return {c for c in range(40) if int(m) >> c & 1}


def cards(text: str) -> list[int]:
    return D.cards(D.parse(text))


# --- the referee --------------------------------------------------------------------------------

@dataclass
class Layout:
    """A deal's cards: hands and pyramids (``pyramid[s][k]``), the start player."""

    seed: int
    deal: int
    hands: list[set[int]]
    pyramid: list[list[int]]
    starter: int

    @staticmethod
    def of(columns: dict, i: int, seed: int) -> Layout:
        return Layout(seed, int(columns["deal"][i]),
                      [card_set(columns[f"hand_{s}"][i]) for s in range(2)],
                      [[int(columns[f"pyramid_{s}_{k}"][i]) for k in range(12)] for s in range(2)],
                      int(columns["starter"][i]))

    @staticmethod
    @functools.cache
    def dealt(seed: int, deal: int) -> Layout:
        c = play(GAME, seed, deal, 1, GAME.rules(), ["random"] * 2).columns
        return Layout.of(c, 0, seed)


@dataclass
class Trick:
    no: int
    leader: int
    cards: list[int]
    sources: list[int]
    winner: int
    events: list[str]
    awarded: int
    turned: list[tuple[int, int]]
    """(seat, position) turned face up at the end of this trick."""
    before: list[dict]
    """Per play: the player's free positions, covered face-up positions, hand, legal cards."""


@dataclass
class Duel:
    """A deal in progress, by RULES.md."""

    layout: Layout
    rules: dict
    hand: list[set[int]] = field(init=False)
    present: list[set[int]] = field(init=False)
    up: list[set[int]] = field(init=False)

    def __post_init__(self) -> None:
        self.hand = [set(h) for h in self.layout.hands]
        self.present = [set(range(12)) for _ in range(2)]
        self.up = [set(FACE_UP) for _ in range(2)]

    def free(self, s: int) -> set[int]:
        return {k for k in self.present[s]
                if k in self.up[s] and not set(COVER.get(k, ())) & self.present[s]}

    def covered_up(self, s: int) -> set[int]:
        """Face-up pyramid positions that still lie under another card."""
        return {k for k in self.present[s] if k in self.up[s]} - self.free(s)

    def card_at(self, s: int, k: int) -> int:
        return self.layout.pyramid[s][k]

    def playable(self, s: int) -> set[int]:
        return self.hand[s] | {self.card_at(s, k) for k in self.free(s)}

    def legal(self, s: int, led: int | None) -> set[int]:
        mine = self.playable(s)
        if led is None:
            return mine
        same = {c for c in mine if suit(c) == suit(led)}
        return same or mine

    def source(self, s: int, card: int) -> int:
        if card in self.hand[s]:
            return 0
        return 1 + next(k for k in self.present[s] if self.card_at(s, k) == card)

    def remove(self, s: int, card: int) -> int:
        src = self.source(s, card)
        if src == 0:
            self.hand[s].discard(card)
        else:
            self.present[s].discard(src - 1)
        return src

    def turn_up(self) -> list[tuple[int, int]]:
        turned = []
        for s in range(2):
            for k in sorted(self.present[s] - self.up[s]):
                if not set(COVER[k]) & self.present[s]:
                    self.up[s].add(k)
                    turned.append((s, k))
        return turned


Chooser = Callable[[Duel, int, set[int], int | None, int], int]


class Stop(Exception):
    """Raised by a chooser to end a script with a row of its own."""

    def __init__(self, row: list[int]) -> None:
        self.row = row


@dataclass
class Outcome:
    columns: dict[str, int]
    plays: list[list[int]]
    markers: list[tuple[int, int, int]]
    """(seat, kind, trick): kind 0 an A marker, 1 + index into ``EVENTS``."""
    tricks: list[Trick]
    duel: Duel


def referee(layout: Layout, rules: dict, choose: Chooser) -> Outcome:
    """Play a deal by RULES.md, ``choose`` picking each card among the legal ones."""
    duel = Duel(layout, rules)
    a = [0, 0]
    a_setup = [0, 0]
    a_play = [0, 0]
    b = [0, 0]
    ev = {(e, s): 0 for e in EVENTS for s in range(2)}
    pts = [0, 0]
    won = [0, 0]
    supply = BOX if rules["b_marker_supply"] == "12" else None
    markers: list[tuple[int, int, int]] = []
    plays: list[list[int]] = []
    tricks: list[Trick] = []
    for s in range(2):
        for k in FACE_UP:
            if NAMES[layout.pyramid[s][k]] in TOP_TRUMPS:
                a_setup[s] += 1
                if rules["a_marker_on_setup"]:
                    a[s] += 1
                    markers.append((s, 0, -1))
    leader = layout.starter
    for t in range(20):
        trick: list[int] = []
        sources: list[int] = []
        before = []
        for n in range(2):
            s = (leader + n) % 2
            led = trick[0] if n else None
            legal = duel.legal(s, led)
            before.append({"seat": s, "free": duel.free(s), "covered_up": duel.covered_up(s),
                           "hand": set(duel.hand[s]), "legal": set(legal),
                           "playable": duel.playable(s)})
            card = choose(duel, s, legal, led, t)
            assert card in legal, (f"deal {layout.deal} trick {t}: seat {s} played "
                                   f"{NAMES[card]}, legal {sorted(NAMES[c] for c in legal)}")
            src = duel.remove(s, card)
            plays.append([A.PLAY, s, card, src])
            trick.append(card)
            sources.append(src)
            if src == 0 and NAMES[card] in TOP_TRUMPS:
                a[s] += 1
                a_play[s] += 1
                markers.append((s, 0, t))
        second = beats(trick[0], trick[1], rules["equal_cards"])
        winner = (leader + second) % 2
        pts[winner] += points(trick[0]) + points(trick[1])
        won[winner] += 1
        events = trick_events(trick[0], trick[1], second, t)
        awarded = 0
        for e in events:
            ev[(e, winner)] += 1
            markers.append((winner, 1 + EVENTS.index(e), t))
            if rules["b_one_per_trick"] and awarded:
                continue
            if supply == 0:
                continue
            b[winner] += 1
            awarded += 1
            if supply is not None:
                supply -= 1
        turned = duel.turn_up()
        for s, k in turned:
            if NAMES[layout.pyramid[s][k]] in TOP_TRUMPS:
                a[s] += 1
                a_play[s] += 1
                markers.append((s, 0, t))
        tricks.append(Trick(t, leader, trick, sources, winner, events, awarded, turned, before))
        leader = winner
    assert not any(duel.hand) and not any(duel.present)
    numbers = {name: rules[name] for name in SEED_NUMBERS}
    w, tie, v0, v1 = ref_settle(pts, won, a, b, layout.starter, leader, rules["b_marker_mode"],
                                rules["tie_rule"], rules["tie_win_base"], numbers)
    raw = 0 if w < 0 else ref_raw(pts, won, a, b, w, rules["tie_win_base"], numbers)
    cols = {"deal": layout.deal, "dealer": layout.deal % 2, "starter": layout.starter,
            "supply_exhausted": int(supply == 0), "last_trick_winner": leader, "winner": w,
            "tie": int(tie), "vp_0": v0, "vp_1": v1, "vp_raw": raw, "replay_error": 0}
    for s in range(2):
        cols |= {f"points_{s}": pts[s], f"tricks_{s}": won[s], f"a_markers_{s}": a[s],
                 f"a_setup_{s}": a_setup[s], f"a_play_{s}": a_play[s], f"b_markers_{s}": b[s],
                 f"hand_{s}": mask(layout.hands[s])}
        cols |= {f"{e}_{s}": ev[(e, s)] for e in EVENTS}
        cols |= {f"pyramid_{s}_{k}": layout.pyramid[s][k] for k in range(12)}
    return Outcome(cols, plays, markers, tricks, duel)


def replaying(actions: np.ndarray) -> Chooser:
    """A chooser that plays a recorded deal's cards (and checks whose turn it is)."""
    rows = [[int(x) for x in r] for r in actions if r[0] == A.PLAY]
    it = iter(rows)

    def choose(duel: Duel, seat: int, legal: set[int], led: int | None, t: int) -> int:
        kind, s, card, src = next(it)
        assert s == seat, f"deal {duel.layout.deal} trick {t}: seat {s} played, {seat}'s turn"
        if card in legal:
            assert src == duel.source(seat, card), (
                f"deal {duel.layout.deal} trick {t}: {NAMES[card]} recorded from {src}, "
                f"it lay at {duel.source(seat, card)}")
        return card

    return choose


def check_deal(columns: dict, i: int, actions: np.ndarray, rules: dict, seed: int) -> Outcome:
    """Referee a recorded deal: every play legal, every column and marker as RULES.md says."""
    layout = Layout.of(columns, i, seed)
    out = referee(layout, rules, replaying(actions))
    plays = [[int(x) for x in r] for r in actions if r[0] == A.PLAY]
    assert plays == out.plays
    unchecked = set(columns) - set(out.columns)
    assert not unchecked, f"result columns the referee does not know: {sorted(unchecked)}"
    for key, value in out.columns.items():
        if key in columns:
            assert int(columns[key][i]) == value, (f"deal {layout.deal} ({rules}): column {key} "
                                                   f"is {int(columns[key][i])}, RULES.md: {value}")
    got = sorted((int(r[1]), int(r[2]), int(r[3])) for r in actions if r[0] == A.MARKER)
    assert got == sorted(out.markers), (layout.deal, got, sorted(out.markers))
    check_marker_timing(actions, out)
    return out


def check_marker_timing(actions: np.ndarray, out: Outcome) -> None:
    """Setup A markers come before any card; an A marker for a top trump played from the hand
    right after that card; B markers and the A markers of cards turned up at the end of trick
    ``t`` after both cards of trick ``t``, before the next trick's first card."""
    n_played = 0
    for r in actions:
        kind, seat, a, trick = (int(x) for x in r)
        if kind == A.PLAY:
            n_played += 1
            continue
        assert kind == A.MARKER
        if trick == -1:
            assert n_played == 0 and a == 0, f"setup marker {r.tolist()} after {n_played} cards"
            continue
        t = out.tricks[trick]
        if a == 0 and n_played == 2 * trick + 1:
            # between the two cards: only the leader's top trump from the hand
            assert seat == t.leader and t.sources[0] == 0 and NAMES[t.cards[0]] in TOP_TRUMPS, (
                f"deal {out.duel.layout.deal}: A marker {r.tolist()} in the middle of trick "
                f"{trick} that is not for a top trump the leader played from his hand (a "
                f"face-down card turned up before the end of the trick?)")
            continue
        assert n_played == 2 * trick + 2, (f"deal {out.duel.layout.deal}: marker {r.tolist()} of "
                                           f"trick {trick} recorded after {n_played} cards")


# --- recorded deals ------------------------------------------------------------------------------

RULE_SETS = {
    "default": {},
    "second_wins": {"equal_cards": "second_wins", "b_marker_supply": "none",
                    "b_one_per_trick": True, "a_marker_on_setup": False, "b_marker_mode": "v2",
                    "tie_rule": "last_trick", "tie_win_base": 1},
    "heart_ten": {"equal_cards": "second_heart_ten", "tie_rule": "b_markers",
                  "b_marker_mode": "v2"},
    "unlimited": {"b_marker_supply": "none", "tie_rule": "more_tricks"},
    "one_per_trick": {"b_one_per_trick": True, "tie_rule": "starter_wins"},
    "numbers": {"b_marker_supply": "none", "b_marker_mode": "v2", "tie_rule": "last_trick",
                "vp_band_90": 0, "vp_band_60": 4, "vp_band_30": 9, "vp_band_under_30": 17,
                "vp_band_no_trick": 30, "vp_per_a_marker": 3, "vp_per_b_marker": 10,
                "compensation": 30},
}


@functools.cache
def recorded(rule_set: str, policy: str, seed: int = 31, n: int = 1500) -> tuple[dict, list, dict]:
    rules = GAME.rules(RULE_SETS[rule_set])
    batch = play(GAME, seed, 0, n, rules, [policy] * 2, record=True)
    return batch.columns, batch.actions, rules


@functools.cache
def refereed(rule_set: str, policy: str, seed: int = 31, n: int = 1500) -> list[Outcome]:
    columns, actions, rules = recorded(rule_set, policy, seed, n)
    return [check_deal(columns, i, actions[i], rules, seed) for i in range(n)]


# --- the options registry ------------------------------------------------------------------------

def test_options_are_those_of_rules_md() -> None:
    opts = {o.name: o for o in GAME.options}
    assert opts["equal_cards"].allowed == EQUAL
    assert opts["a_marker_on_setup"].allowed == (True, False)
    assert opts["b_marker_supply"].allowed == ("12", "none")
    assert opts["b_one_per_trick"].allowed == (False, True)
    assert opts["b_marker_mode"].allowed == ("v1", "v2")
    assert opts["tie_rule"].allowed == TIE_RULES
    # revision 3: a tie won by a rule has base 0 by default (the loser has 120), 1 on request
    assert opts["tie_win_base"].allowed == (0, 1) and opts["tie_win_base"].default == 0
    scoring = {name for name, o in opts.items() if o.scoring_only}
    # the tie rule and its base, the mode and the setup A markers change only the scoring; the
    # trick rule, the box and one-per-trick change what happens during the play (the box is
    # visible); beyond the rule book, the numbers of the settlement and the compensation
    numbers = {*dd.BAND_OPTIONS, "vp_per_a_marker", "vp_per_b_marker", "compensation"}
    assert scoring == {"a_marker_on_setup", "b_marker_mode", "tie_rule", "tie_win_base", *numbers}
    assert set(GAME.options.ranges()) == numbers
    assert [opts[n].default for n in dd.BAND_OPTIONS] == [1, 2, 3, 5, 10]


def test_constants() -> None:
    for k in range(12):
        assert dd.COVERED_BY[k] == mask(set(COVER.get(k, ()))), k
    assert dd.FACE_UP_AT_DEAL == mask(set(FACE_UP))
    assert dd.B_EVENTS == EVENTS
    assert dd.N_CARDS == D.n_cards == 40 and dd.PYRAMID == 12 and dd.HAND_CARDS == 8
    assert sum(points(c) for c in range(40)) == 240
    # 24 trumps; plain suits C A T K, S A T K, H A K
    assert sum(suit(c) == "trump" for c in range(40)) == 24
    assert sorted({NAMES[c] for c in range(40) if suit(c) != "trump"}) == sorted(
        "CA CT CK SA ST SK HA HK".split())


# --- the trick rule ------------------------------------------------------------------------------

@pytest.mark.parametrize("first, second, rule, second_wins", [
    # identical cards: the tournament rule, the second, the second only for the heart ten
    ("DJ", "DJ", "first_wins", False), ("DJ", "DJ", "second_wins", True),
    ("DJ", "DJ", "second_heart_ten", False), ("HT", "HT", "first_wins", False),
    ("HT", "HT", "second_wins", True), ("HT", "HT", "second_heart_ten", True),
    ("CA", "CA", "first_wins", False), ("CA", "CA", "second_wins", True),
    ("CA", "CA", "second_heart_ten", False), ("DA", "DA", "second_heart_ten", False),
    # trumps beat plain cards, trump order HT CQ SQ HQ DQ CJ SJ HJ DJ DA DT DK
    ("CA", "DK", "first_wins", True), ("SA", "DA", "first_wins", True),
    ("HA", "HT", "first_wins", True), ("HT", "CQ", "first_wins", False),
    ("CQ", "HT", "first_wins", True), ("DQ", "CJ", "first_wins", False),
    ("CJ", "DQ", "first_wins", True), ("SJ", "CJ", "first_wins", True),
    ("DJ", "DA", "first_wins", False), ("DA", "DJ", "first_wins", True),
    ("DT", "DA", "first_wins", True), ("DK", "DT", "first_wins", True),
    ("DK", "HA", "first_wins", False), ("DK", "CA", "second_wins", False),
    # plain suits: follow and beat, or discard and lose
    ("CK", "CA", "first_wins", True), ("CA", "CT", "first_wins", False),
    ("CT", "CA", "first_wins", True), ("HK", "HA", "first_wins", True),
    ("HA", "HK", "first_wins", False), ("CA", "SA", "first_wins", False),
    ("SK", "HA", "second_wins", False), ("HA", "CA", "first_wins", False),
])
def test_second_beats(first: str, second: str, rule: str, second_wins: bool) -> None:
    f, s = D.index(first), D.index(second)
    if f == s:
        s = D.index(second, 1 << f)  # the other copy
    assert beats(f, s, rule) == second_wins  # the referee agrees with the hand-made case
    assert bool(dd.second_beats(f, s, EQUAL.index(rule))) == second_wins, (first, second, rule)
    assert dd.kernel_params(GAME.rules({"equal_cards": rule}))[dd.P_EQUAL] == EQUAL.index(rule)


def test_second_beats_every_pair() -> None:
    for rule in EQUAL:
        code = dd.kernel_params(GAME.rules({"equal_cards": rule}))[dd.P_EQUAL]
        for f in range(40):
            for s in range(40):
                if f != s:
                    assert bool(dd.second_beats(f, s, code)) == beats(f, s, rule), (
                        NAMES[f], NAMES[s], rule)


# --- the covering table --------------------------------------------------------------------------

def free(present: set[int], up: set[int]) -> set[int]:
    return card_set(dd.free_positions(mask(present), mask(up)))


ALL = set(range(12))


@pytest.mark.parametrize("gone, turned, expected", [
    ((), (), {0, 1, 2, 3}),                       # at the deal only row 1 is free
    ((0,), (), {1, 2, 3}),                        # p4 still lies under p1
    ((0, 1), (), {2, 3}),                         # p4 uncovered, but still face down
    ((0, 1), (4,), {2, 3, 4}),                    # ... turned up at the end of the trick
    ((1,), (), {0, 2, 3}),                        # p1 covers p4 and p5: both still covered
    ((0, 1, 2, 3), (4, 5, 6), {4, 5, 6}),         # p7 (face up) lies under p4 and p5
    ((0, 1, 2, 3, 4), (5, 6), {5, 6}),            # p7 still under p5
    ((0, 1, 2, 3, 5), (4, 6), {4, 6}),            # p7 still under p4, p9 still under p6
    ((0, 1, 2, 3, 4, 5), (6,), {6, 7}),           # p7 free only with p4 and p5 gone
    ((0, 1, 2, 3, 5, 6), (4,), {4, 9}),           # p9 free only with p5 and p6 gone
    ((0, 1, 2, 3, 4, 5, 6), (), {7, 9}),
    ((0, 1, 2, 3, 4, 5, 6, 7), (), {9}),          # p8 uncovered, face down until turned
    ((0, 1, 2, 3, 4, 5, 6, 7), (8,), {8, 9}),
    ((0, 1, 2, 3, 4, 5, 6, 7, 8), (8,), {9}),     # p11 still under p10 (under p9)
    ((0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (8, 10), {10}),
    ((0, 1, 2, 3, 4, 5, 6, 9, 10), (8, 10, 11), {7}),  # p11 still under p8 (under p7)
    ((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), (8, 10), set()),  # p11 uncovered, not yet turned
    ((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), (8, 10, 11), {11}),  # p11: p8 and p10 gone
])
def test_free_positions(gone: tuple, turned: tuple, expected: set[int]) -> None:
    present = ALL - set(gone)
    up = set(FACE_UP) | set(turned)
    assert free(present, up) == expected


def test_free_positions_every_layout() -> None:
    """Every set of positions left, with the face-up cards of the deal or all face up."""
    def mine(present: set[int], up: set[int]) -> set[int]:
        return {k for k in present if k in up and not set(COVER.get(k, ())) & present}

    for m in range(1 << 12):
        present = card_set(m)
        for up in (set(FACE_UP), ALL, set(FACE_UP) | {4, 5, 6}):
            assert free(present, up) == mine(present, up), (sorted(present), sorted(up))


# --- settlement: the seed's examples ---------------------------------------------------------------

def vp(winner_points: int, loser_a: int = 0, winner_b: int = 0, loser_b: int = 0,
       loser_tricks: int = 5, mode: str = "v1", winner: int = 0) -> tuple[int, int]:
    """``(winner's VP, loser's VP)`` from ``settle`` for a decided deal."""
    p = dd.kernel_params(GAME.rules({"b_marker_mode": mode}))
    pts = [winner_points, 240 - winner_points]
    tricks = [20 - loser_tricks, loser_tricks]
    a = [0, loser_a]
    b = [winner_b, loser_b]
    if winner == 1:
        pts, tricks, a, b = pts[::-1], tricks[::-1], a[::-1], b[::-1]
    w, tie, v0, v1, raw = dd.settle(pts[0], pts[1], tricks[0], tricks[1], a[0], a[1], b[0], b[1],
                                    0, 0, p)
    assert (int(w), bool(tie)) == (winner, False)
    band = base_points(pts[1 - winner], tricks[1 - winner])
    assert raw == band + loser_a + winner_b - loser_b  # before v1 floors it or v2 turns it
    ref = ref_settle(pts, tricks, a, b, 0, 0, mode, "draw")
    assert (int(w), bool(tie), int(v0), int(v1)) == ref
    return (int(v0), int(v1)) if winner == 0 else (int(v1), int(v0))


@pytest.mark.parametrize("winner", [0, 1])
def test_seed_125_to_115_against_two_a_markers_is_3(winner: int) -> None:
    # "Ich gewinne eins Spiel mit 125 - 115 Punkte und mein Gegner hatte beide Kreuz Damen
    # (hat 2 A Marker) ... Keine 12 +1VP 'Gegen Zwei' + 2 VP = 3 VP"
    assert vp(125, loser_a=2, winner=winner) == (3, 0)
    assert vp(125, loser_a=2, winner=winner, mode="v2") == (3, 0)


@pytest.mark.parametrize("winner", [0, 1])
def test_seed_loser_at_59_is_3_before_markers(winner: int) -> None:
    # "holt ein Spieler 59 Punkte ... keine 6 keine 9 keine 12 somit 3VP"
    assert vp(181, winner=winner) == (3, 0)
    assert int(dd.base_vp(59, 5)) == 3


@pytest.mark.parametrize("mode", ["v1", "v2"])
def test_seed_5_minus_2_loser_b_markers_is_3(mode: str) -> None:
    # "Keine 6 +1 keine 9 +1 keine 12 +1 gegen zwei +2 = 5 VP -2 VP durch die B-Marker die der
    # Verlierer errungen hat somit 3 VP fuer den Sieger"
    assert vp(190, loser_a=2, loser_b=2, mode=mode) == (3, 0)
    assert vp(190, loser_a=2, loser_b=2, mode=mode, winner=1) == (3, 0)


def test_seed_b_marker_lines() -> None:
    # winner 3 B markers: + 3; winner 3 and loser 1: + 2; winner 0 and loser 2: - 2
    for mode in ("v1", "v2"):
        # 130 : 110, keine 120 = 1
        assert vp(130, winner_b=3, mode=mode) == (1 + 3, 0)
        assert vp(130, winner_b=3, loser_b=1, mode=mode) == (1 + 2, 0)
        # 190 : 50, keine 60 keine 90 keine 120 = 3, - 2
        assert vp(190, loser_b=2, mode=mode) == (3 - 2, 0)
    # 150 : 90, keine 120 = 1, - 2 = - 1
    assert vp(150, loser_b=2, mode="v1") == (1, 0)  # v1: at least 1 for the winner
    assert vp(150, loser_b=2, mode="v2") == (0, 1)  # v2: the loser is credited 1


@pytest.mark.parametrize("winner", [0, 1])
def test_seed_v2_example_credits_1_to_the_loser(winner: int) -> None:
    # "keine 120 +1 gegen einen + 1 der Verlierer sticht mit beiden Kreuz Buben - 2 und holt
    # ein Karo As noch mal - 1 ... + 2VP fuer den Sieger - 3VP durch den Verlierer gleich
    # + 1 VP die dem Verlierer gut geschrieben werden"
    assert vp(125, loser_a=1, loser_b=3, mode="v2", winner=winner) == (0, 1)
    # version 1: the loser cannot turn the deal, the winner scores at least 1
    assert vp(125, loser_a=1, loser_b=3, mode="v1", winner=winner) == (1, 0)
    # v2: a total of exactly 0 scores for nobody
    assert vp(125, loser_a=1, loser_b=2, mode="v2", winner=winner) == (0, 0)
    assert vp(125, loser_a=1, loser_b=2, mode="v1", winner=winner) == (1, 0)


@pytest.mark.parametrize("loser_points, loser_tricks, base", [
    (119, 9, 1), (100, 8, 1), (90, 6, 1),          # at least 90: keine 120
    (89, 6, 2), (75, 5, 2), (60, 4, 2),            # 60-89: + keine 90
    (59, 4, 3), (45, 3, 3), (30, 2, 3),            # 30-59: + keine 60
    (29, 2, 5), (15, 1, 5), (4, 1, 5),             # under 30 with a trick: 4 + 1 bonus
    (0, 0, 10),                                    # Schwarz: 5 doubled
])
@pytest.mark.parametrize("mode", ["v1", "v2"])
def test_every_loser_band(loser_points: int, loser_tricks: int, base: int, mode: str) -> None:
    assert base_points(loser_points, loser_tricks) == base
    assert band_vp(loser_points, loser_tricks, SEED_NUMBERS) == base
    assert int(dd.base_vp(loser_points, loser_tricks)) == base
    for winner in (0, 1):
        assert vp(240 - loser_points, loser_tricks=loser_tricks, mode=mode,
                  winner=winner) == (base, 0)
        # + 1 per A marker of the loser, + the B-marker difference
        assert vp(240 - loser_points, loser_a=2, winner_b=3, loser_b=1,
                  loser_tricks=loser_tricks, mode=mode, winner=winner) == (base + 4, 0)
        # the loser's B markers outweigh everything: v1 keeps 1 for the winner, v2 turns it
        heavy = base + 2
        assert vp(240 - loser_points, loser_b=heavy, loser_tricks=loser_tricks, mode=mode,
                  winner=winner) == ((1, 0) if mode == "v1" else (0, 2))


# --- settlement: 120 : 120 --------------------------------------------------------------------------

def tie(rule: str, mode: str = "v1", tricks: tuple = (10, 10), a: tuple = (0, 0),
        b: tuple = (0, 0), starter: int = 0, last: int = 0,
        base: int = 0) -> tuple[int, bool, int, int]:
    """``(winner, tie, vp0, vp1)`` of a 120 : 120 from ``settle`` (``base``: ``tie_win_base``),
    checked against the referee's ``ref_settle``."""
    p = dd.kernel_params(GAME.rules({"tie_rule": rule, "b_marker_mode": mode,
                                     "tie_win_base": base}))
    got = dd.settle(120, 120, tricks[0], tricks[1], a[0], a[1], b[0], b[1], starter, last, p)
    got = tuple(int(x) if i != 1 else bool(x) for i, x in enumerate(got))[:4]
    assert got == ref_settle([120, 120], list(tricks), list(a), list(b), starter, last, mode, rule,
                             base)
    return got


@pytest.mark.parametrize("mode", ["v1", "v2"])
@pytest.mark.parametrize("base", [0, 1])
def test_tie_rules(mode: str, base: int) -> None:
    # draw: nobody scores, whatever the markers
    for starter in (0, 1):
        assert tie("draw", mode, (12, 8), (2, 0), (3, 0), starter, starter,
                   base) == (-1, True, 0, 0)
    # a tie won by a rule scores like a win with the loser at 120: base tie_win_base, + the
    # loser's A markers, + the B-marker difference; v1 floors the total at 1
    for seat in (0, 1):
        other = 1 - seat
        # no markers: base 0 is 0 (v1 raises it to 1, v2 leaves it: nobody scores), base 1 is 1
        got = tie("last_trick", mode, last=seat, base=base)
        bare = 0 if base == 0 and mode == "v2" else 1
        assert got == (seat, True) + ((bare, 0) if seat == 0 else (0, bare))
        assert tie("starter_wins", mode, starter=seat, last=other, base=base)[:1] == (seat,)
        assert tie("starter_loses", mode, starter=other, last=other, base=base)[:1] == (seat,)
        tricks = (11, 9) if seat == 0 else (9, 11)
        assert tie("more_tricks", mode, tricks=tricks, last=other, base=base)[:1] == (seat,)
        b = (2, 1) if seat == 0 else (1, 2)
        assert tie("b_markers", mode, b=b, last=other, base=base)[:1] == (seat,)
        # loser's A markers count: base + 2
        a = (0, 2) if seat == 0 else (2, 0)
        got = tie("last_trick", mode, a=a, last=seat, base=base)
        assert got[0] == seat and got[2 + seat] == base + 2 and got[2 + other] == 0
        # the B-marker rule: the winner has one more B marker: base + 1
        got = tie("b_markers", mode, b=b, base=base)
        assert got[0] == seat and got[2 + seat] == base + 1 and got[2 + other] == 0
        # starter rules
        got = tie("starter_wins", mode, a=a, starter=seat, base=base)
        assert got[0] == seat and got[2 + seat] == base + 2
        got = tie("starter_loses", mode, a=a, starter=other, base=base)
        assert got[0] == seat and got[2 + seat] == base + 2
        # the mode: the loser's 3 B markers outweigh the winner's base
        heavy = (0, 3) if seat == 0 else (3, 0)
        got = tie("last_trick", mode, b=heavy, last=seat, base=base)
        assert got[0] == seat
        if mode == "v1":
            assert got[2 + seat] == 1 and got[2 + other] == 0
        else:  # base - 3 < 0: the loser (of the tie rule) is credited 3 - base
            assert got[2 + seat] == 0 and got[2 + other] == 3 - base
    # equal tricks, equal B markers: a draw
    assert tie("more_tricks", mode, tricks=(10, 10), b=(3, 0), base=base) == (-1, True, 0, 0)
    assert tie("b_markers", mode, tricks=(12, 8), b=(2, 2), base=base) == (-1, True, 0, 0)
    assert tie("b_markers", mode, b=(0, 0), base=base) == (-1, True, 0, 0)


# 120 : 120, 10 tricks each, seat 1 took the 20th trick and wins by tie_rule last_trick. By
# hand: base (tie_win_base 0 or 1) + seat 0's A markers + (seat 1's B markers - seat 0's); v1
# raises a total below 1 to 1, v2 gives nobody anything at 0 and a negative total to seat 0.
# Columns: a0, a1 (A markers), b0, b1 (B markers), tie_win_base, mode, then the raw total and
# (vp0, vp1).
LAST_TRICK_TIES = [
    # no markers: "keine 120" does not hold for a loser at 120, so base 0 gives 0
    (0, 0, 0, 0, 0, "v1", 0, (0, 1)),     # 0, v1 floors it at 1
    (0, 0, 0, 0, 0, "v2", 0, (0, 0)),     # 0: nobody scores, though seat 1 won
    (0, 0, 0, 0, 1, "v1", 1, (0, 1)),     # the old reading: base 1
    (0, 0, 0, 0, 1, "v2", 1, (0, 1)),
    # the loser holds both CQ (2 A markers), the winner caught a fox (1 B marker)
    (2, 0, 0, 1, 0, "v1", 3, (0, 3)),     # 0 + 2 + 1
    (2, 0, 0, 1, 0, "v2", 3, (0, 3)),
    (2, 0, 0, 1, 1, "v1", 4, (0, 4)),     # 1 + 2 + 1
    (2, 0, 0, 1, 1, "v2", 4, (0, 4)),
    # the winner's own A markers do not count: 1 A marker for seat 1, none for the loser
    (0, 1, 0, 0, 0, "v1", 0, (0, 1)),
    # one A marker of the loser against his one more B marker: 0 + 1 - 1 = 0
    (1, 0, 1, 0, 0, "v1", 0, (0, 1)),     # v1: at least 1
    (1, 0, 1, 0, 0, "v2", 0, (0, 0)),     # v2: a total of 0 scores for nobody
    (1, 0, 1, 0, 1, "v2", 1, (0, 1)),     # base 1: 1 + 1 - 1 = 1
    # the loser's two B markers (Karlchen twice): 0 - 2 = -2
    (0, 0, 2, 0, 0, "v1", -2, (0, 1)),    # v1: the tie's winner still scores 1
    (0, 0, 2, 0, 0, "v2", -2, (2, 0)),    # v2: the loser is credited 2
    (0, 0, 2, 0, 1, "v1", -1, (0, 1)),
    (0, 0, 2, 0, 1, "v2", -1, (1, 0)),    # base 1: 1 - 2 = -1, the loser is credited 1
    # 2 A markers of the loser, 3 B markers of the winner and 1 of the loser: 0 + 2 + 2 = 4
    (2, 0, 1, 3, 0, "v1", 4, (0, 4)),
    (2, 0, 1, 3, 1, "v2", 5, (0, 5)),
]


@pytest.mark.parametrize("a0, a1, b0, b1, base, mode, raw, vp", LAST_TRICK_TIES)
def test_tie_won_by_the_last_trick_by_hand(a0: int, a1: int, b0: int, b1: int, base: int,
                                           mode: str, raw: int, vp: tuple[int, int]) -> None:
    rules = GAME.rules({"tie_rule": "last_trick", "b_marker_mode": mode, "tie_win_base": base})
    p = dd.kernel_params(rules)
    # seat 0 started and took more tricks and markers: only the 20th trick counts
    terms = dd.settlement(120, 120, 10, 10, a0, a1, b0, b1, 0, 1, p)
    (winner, tied, band, got_base, loser_a, a_vp, b_diff, b_vp, got_raw, total, compensation, vp0,
     vp1) = (int(x) for x in terms)
    assert (winner, bool(tied)) == (1, True)
    assert band == dd.TIE_BAND and got_base == base
    assert (loser_a, a_vp, b_diff, b_vp, got_raw, compensation) == (a0, a0, b1 - b0, b1 - b0, raw, 0)
    assert (vp0, vp1) == vp
    assert total == (max(raw, 1) if mode == "v1" else raw)
    # the same through the per-deal settlement and the Python one the screen shows
    c = {"points_0": 120, "points_1": 120, "tricks_0": 10, "tricks_1": 10, "a_markers_0": a0,
         "a_markers_1": a1, "b_markers_0": b0, "b_markers_1": b1, "starter": 0,
         "last_trick_winner": 1}
    assert tuple(int(x) for x in dd.settle(120, 120, 10, 10, a0, a1, b0, b1, 0, 1, p)) == \
        (1, 1, *vp, raw)
    assert dd.settle_deal(c, rules) == dd.Settlement(1, True, dd.TIE_BAND, base, a0, a0, b1 - b0,
                                                     b1 - b0, raw, total, 0, *vp)
    assert ref_settle([120, 120], [10, 10], [a0, a1], [b0, b1], 0, 1, mode, "last_trick",
                      base) == (1, True, *vp)


def test_tie_win_base_changes_only_ties_won_by_a_rule() -> None:
    # a decided deal keeps its band: 121 : 119 is keine 120 = 1 under either base
    for base in (0, 1):
        p = dd.kernel_params(GAME.rules({"tie_rule": "last_trick", "tie_win_base": base}))
        got = dd.settlement(121, 119, 10, 10, 0, 0, 0, 0, 0, 1, p)
        assert tuple(int(x) for x in got) == (0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1, 0)
        # a drawn tie stays a draw
        p = dd.kernel_params(GAME.rules({"tie_win_base": base}))
        got = dd.settlement(120, 120, 10, 10, 2, 0, 0, 3, 0, 1, p)
        assert tuple(int(x) for x in got) == (-1, 1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)


def test_tie_rule_names_map_to_the_kernel() -> None:
    for rule in TIE_RULES:
        # seat 0 starts, seat 1 took the last trick and more tricks, seat 0 more B markers
        got = tie(rule, tricks=(9, 11), b=(1, 0), starter=0, last=1)
        expected = {"draw": -1, "last_trick": 1, "starter_loses": 1, "starter_wins": 0,
                    "more_tricks": 1, "b_markers": 0}[rule]
        assert got[0] == expected, rule


# --- the deal --------------------------------------------------------------------------------------

def test_the_deal_and_the_start_player() -> None:
    c = play(GAME, 3, 0, 200, GAME.rules(), ["random"] * 2).columns
    layouts = set()
    for i in range(200):
        lay = Layout.of(c, i, 3)
        assert int(c["dealer"][i]) == i % 2 and lay.starter == (i + 1) % 2
        pyr = lay.pyramid[0] + lay.pyramid[1]
        assert len(lay.hands[0]) == len(lay.hands[1]) == 8
        assert sorted(pyr + sorted(lay.hands[0]) + sorted(lay.hands[1])) == list(range(40))
        layouts.add(tuple(pyr))
    assert len(layouts) == 200


# --- recorded deals, refereed --------------------------------------------------------------------

@pytest.mark.parametrize("rule_set", sorted(RULE_SETS))
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_recorded_deals_follow_the_rules(rule_set: str, policy: str) -> None:
    outcomes = refereed(rule_set, policy)
    columns = recorded(rule_set, policy)[0]
    assert (columns["replay_error"] == 0).all()
    assert len(outcomes) == 1500


def test_pyramid_cards_are_played_from_every_position() -> None:
    seen = {k: 0 for k in range(12)}
    for out in refereed("default", "random"):
        for kind, seat, card, src in out.plays:
            if src:
                seen[src - 1] += 1
    assert min(seen.values()) > 100, seen


# --- scripted deals ----------------------------------------------------------------------------------

def script_of(plays: list[list[int]]) -> np.ndarray:
    return np.array(plays, np.int64).reshape(-1, 4)


def engine(layout: Layout, rows: list[list[int]], **given: object) -> dict[str, int]:
    c = play(GAME, layout.seed, layout.deal, 1, GAME.rules(given), ["random"] * 2,
                  script=[script_of(rows)]).columns
    return {k: int(v[0]) for k, v in c.items()}


def scripted(layout: Layout, choose: Chooser, **given: object) -> Outcome:
    """Build a whole deal with ``choose`` by RULES.md; the engine must play it the same."""
    rules = GAME.rules(given)
    out = referee(layout, rules, choose)
    got = engine(layout, out.plays, **given)
    assert got["replay_error"] == 0, (layout.deal, got["replay_error"])
    for key, value in out.columns.items():
        if key in got:
            assert got[key] == value, (layout.deal, key, got[key], value)
    return out


def prefer(pick: Callable[[Duel, int, set[int]], list[int]]) -> Chooser:
    """A chooser that plays the first legal card of ``pick``'s list, else the lowest legal."""
    def choose(duel: Duel, seat: int, legal: set[int], led: int | None, t: int) -> int:
        for card in pick(duel, seat, legal):
            if card in legal:
                return card
        return min(legal)
    return choose


def pyramid_first(duel: Duel, seat: int, legal: set[int]) -> list[int]:
    return [duel.card_at(seat, k) for k in sorted(duel.free(seat))]


def hand_first(duel: Duel, seat: int, legal: set[int]) -> list[int]:
    return sorted(duel.hand[seat])


def highest_position_first(duel: Duel, seat: int, legal: set[int]) -> list[int]:
    return [duel.card_at(seat, k) for k in sorted(duel.free(seat), reverse=True)]


@pytest.mark.parametrize("pick", [pyramid_first, hand_first, highest_position_first])
def test_scripted_deals_play_as_the_rules_say(pick: Callable) -> None:
    for deal in range(12):
        layout = Layout.dealt(17, deal)
        for given in ({}, RULE_SETS["second_wins"], RULE_SETS["heart_ten"]):
            scripted(layout, prefer(pick), **given)


def test_scripted_turned_up_cards_next_trick() -> None:
    """Cards turned up at the end of trick t, played at once in trick t + 1 when legal."""
    fresh = 0
    for deal in range(20):
        layout = Layout.dealt(29, deal)
        turned_at: dict[tuple[int, int], int] = {}

        def choose(duel: Duel, seat: int, legal: set[int], led: int | None, t: int) -> int:
            for s in range(2):
                for k in duel.up[s] - set(FACE_UP):
                    turned_at.setdefault((s, k), t - 1)
            newest = [duel.card_at(seat, k) for (s, k), when in turned_at.items()
                      if s == seat and when == t - 1 and k in duel.free(seat)]
            for card in newest + pyramid_first(duel, seat, legal):
                if card in legal:
                    return card
            return min(legal)

        out = scripted(layout, choose)
        for i in range(1, 20):
            trick = out.tricks[i]
            for n in range(2):
                seat = (trick.leader + n) % 2
                if trick.sources[n] and (seat, trick.sources[n] - 1) in out.tricks[i - 1].turned:
                    fresh += 1
    assert fresh > 20


def illegal(layout: Layout, stop: Callable[[Duel, int, set[int], int | None, int],
                                             list[int] | None],
            base: Chooser = prefer(pyramid_first), **given: object) -> tuple[int, list[list[int]]]:
    """Script a deal with ``base`` until ``stop`` returns a row; the engine's replay error for
    the script ending with that row, and the script (0 and no rows if ``stop`` never fired)."""
    rows: list[list[int]] = []

    def choose(duel: Duel, seat: int, legal: set[int], led: int | None, t: int) -> int:
        row = stop(duel, seat, legal, led, t)
        if row is not None:
            raise Stop(row)
        card = base(duel, seat, legal, led, t)
        rows.append([A.PLAY, seat, card, duel.source(seat, card)])
        return card

    try:
        referee(layout, GAME.rules(given), choose)
    except Stop as s:
        rows.append(s.row)
        return engine(layout, rows, **given)["replay_error"], rows
    return 0, []


def test_scripted_covered_and_face_down_cards_may_not_be_played() -> None:
    """At every decision of scripted deals, each pyramid card that is not free (covered, or
    face down) is refused, with its true position; each free one is accepted as a lead."""
    refused = {"covered_up": 0, "face_down": 0}
    accepted = 0
    for deal in range(6):
        layout = Layout.dealt(41, deal)
        out = scripted(layout, prefer(pyramid_first))
        for t in (0, 3, 6, 9, 12, 15):
            trick = out.tricks[t]
            seat = trick.leader
            for k in range(12):
                # replay up to the lead of trick t, then try position k of the leader
                prefix = out.plays[:2 * t]
                duel = Duel(layout, GAME.rules())
                for _, s, card, _ in prefix:
                    duel.remove(s, card)
                # turned-up state: replay the referee's turned lists
                for earlier in out.tricks[:t]:
                    for s, kk in earlier.turned:
                        duel.up[s].add(kk)
                if k not in duel.present[seat]:
                    continue
                card = layout.pyramid[seat][k]
                err = engine(layout, prefix + [[A.PLAY, seat, card, 1 + k]])["replay_error"]
                if k in duel.free(seat):
                    # a free card is a legal lead: the replay stops short (rows missing)
                    assert err == E_MISMATCH, (deal, t, k, err)
                    accepted += 1
                else:
                    assert err == E_ILLEGAL, (f"deal {deal} trick {t}: seat {seat} led p{k} "
                                              f"({NAMES[card]}) although "
                                              f"{'covered' if k in duel.up[seat] else 'face down'}"
                                              f", engine error {err}")
                    refused["covered_up" if k in duel.up[seat] else "face_down"] += 1
    assert accepted > 50 and min(refused.values()) > 20, (accepted, refused)


def test_scripted_p7_needs_p4_and_p5_gone_p11_needs_p8_and_p10_gone() -> None:
    """Searched states: p4 gone but p5 there (p7 refused), p8 gone but p10 there (p11
    refused); and the plays of p7 / p11 in scripted deals come only after both covers."""
    cases = {"p7": 0, "p11": 0}

    def stop_p7(duel: Duel, seat: int, legal: set[int], led: int | None, t: int) -> list[int] | None:
        p = duel.present[seat]
        if 4 not in p and 5 in p and 7 in p:
            return [A.PLAY, seat, duel.card_at(seat, 7), 8]
        return None

    def stop_p11(duel: Duel, seat: int, legal: set[int], led: int | None, t: int) -> list[int] | None:
        p = duel.present[seat]
        if 8 not in p and 10 in p and 11 in p:
            return [A.PLAY, seat, duel.card_at(seat, 11), 12]
        return None

    for deal in range(40):
        layout = Layout.dealt(43, deal)
        for name, stop, pick in (("p7", stop_p7, pyramid_first),
                                 ("p11", stop_p11, pyramid_first)):
            err, rows = illegal(layout, stop, prefer(pick))
            if rows and rows[-1][3] in (8, 12):
                assert err == E_ILLEGAL, (name, deal, err)
                cases[name] += 1
    assert min(cases.values()) > 3, cases
    for deal in range(12):
        for pick in (pyramid_first, highest_position_first):
            out = scripted(Layout.dealt(43, deal), prefer(pick))
            gone: dict[int, set[int]] = {0: set(), 1: set()}
            for _, seat, _, src in out.plays:
                if src == 8:
                    assert {4, 5} <= gone[seat]
                if src == 12:
                    assert {8, 10} <= gone[seat]
                if src:
                    gone[seat].add(src - 1)


def test_scripted_wrong_source_or_card_not_held_is_refused() -> None:
    layout = Layout.dealt(47, 0)
    s = layout.starter
    hand_card = min(layout.hands[s])
    # a hand card said to come from the pyramid, a free pyramid card said to come from the hand
    assert engine(layout, [[A.PLAY, s, hand_card, 1]])["replay_error"] == E_ILLEGAL
    assert engine(layout, [[A.PLAY, s, layout.pyramid[s][0], 0]])["replay_error"] == E_ILLEGAL
    assert engine(layout, [[A.PLAY, s, layout.pyramid[s][0], 2]])["replay_error"] == E_ILLEGAL
    # the opponent's card, and the wrong seat
    other = min(layout.hands[1 - s])
    assert engine(layout, [[A.PLAY, s, other, 0]])["replay_error"] == E_ILLEGAL
    assert engine(layout, [[A.PLAY, 1 - s, other, 0]])["replay_error"] == E_MISMATCH
    # correct: stops short
    assert engine(layout, [[A.PLAY, s, hand_card, 0]])["replay_error"] == E_MISMATCH
    assert engine(layout, [[A.PLAY, s, layout.pyramid[s][0], 1]])["replay_error"] == E_MISMATCH


# --- follow duty with covered cards --------------------------------------------------------------

def dodges(outcomes: list[Outcome]) -> list[tuple[Outcome, Trick]]:
    """Tricks where the second player held a covered face-up card of the led suit, no free or
    hand card of it, and played a card of another suit."""
    found = []
    for out in outcomes:
        for trick in out.tricks:
            info = trick.before[1]
            led = suit(trick.cards[0])
            covered = [out.duel.layout.pyramid[info["seat"]][k] for k in info["covered_up"]]
            if any(suit(c) == led for c in covered) and \
                    not any(suit(c) == led for c in info["playable"]):
                assert suit(trick.cards[1]) != led
                found.append((out, trick))
    return found


def test_covered_face_up_card_does_not_oblige() -> None:
    found = dodges(refereed("default", "random")) + dodges(refereed("default", "heuristic"))
    assert len(found) > 50
    # among them, plain-suit dodges (discard) and trump dodges (trumping a plain lead)
    kinds = {("trump" if suit(t.cards[1]) == "trump" else "discard") for _, t in found
             if suit(t.cards[0]) != "trump"}
    assert kinds == {"trump", "discard"}
    assert any(suit(t.cards[0]) == "trump" for _, t in found)  # a covered trump: no duty either


def test_scripted_dodge_is_accepted_and_refusing_the_duty_is_not() -> None:
    """A recorded dodge replays; a player holding a free or hand card of the led suit who plays
    another card (or a covered card of the suit) is refused."""
    found = dodges(refereed("default", "random"))
    for out, trick in found[:10]:
        rows = out.plays[:2 * trick.no + 2]
        assert engine(out.duel.layout, rows)["replay_error"] == E_MISMATCH  # legal, stops short
        info = trick.before[1]
        seat = info["seat"]
        led = suit(trick.cards[0])
        covered = [k for k in info["covered_up"]
                   if suit(out.duel.layout.pyramid[seat][k]) == led]
        k = covered[0]
        bad = rows[:-1] + [[A.PLAY, seat, out.duel.layout.pyramid[seat][k], 1 + k]]
        assert engine(out.duel.layout, bad)["replay_error"] == E_ILLEGAL
    refused = 0
    for out in refereed("default", "random")[:200]:
        for trick in out.tricks:
            info = trick.before[1]
            led = suit(trick.cards[0])
            able = [c for c in info["playable"] if suit(c) == led]
            other = [c for c in info["playable"] if suit(c) != led]
            if able and other:
                seat = info["seat"]
                card = min(other)
                src = 0 if card in info["hand"] else 1 + out.duel.layout.pyramid[seat].index(card)
                rows = out.plays[:2 * trick.no + 1] + [[A.PLAY, seat, card, src]]
                assert engine(out.duel.layout, rows)["replay_error"] == E_ILLEGAL
                refused += 1
                break
    assert refused > 100


# --- trick winners, identical cards ---------------------------------------------------------------

@pytest.mark.parametrize("rule_set, rule", [("default", "first_wins"),
                                            ("second_wins", "second_wins"),
                                            ("heart_ten", "second_heart_ten")])
def test_identical_cards_in_play(rule_set: str, rule: str) -> None:
    seen: dict[str, int] = {}
    for policy in ("random", "heuristic"):
        for out in refereed(rule_set, policy):
            for t in out.tricks:
                if NAMES[t.cards[0]] == NAMES[t.cards[1]]:
                    second = t.winner != t.leader
                    expected = rule == "second_wins" or (rule == "second_heart_ten"
                                                         and NAMES[t.cards[0]] == "HT")
                    assert second == expected, (rule, NAMES[t.cards[0]])
                    seen[NAMES[t.cards[0]]] = seen.get(NAMES[t.cards[0]], 0) + 1
    assert "HT" in seen and len(seen) > 10, seen


# --- B markers --------------------------------------------------------------------------------------

def all_tricks(*keys: tuple[str, str]) -> list[tuple[Outcome, Trick]]:
    return [(out, t) for key in keys for out in refereed(*key) for t in out.tricks]


def test_every_b_event_alone_and_several_in_one_trick() -> None:
    tricks = all_tricks(("unlimited", "random"), ("unlimited", "heuristic"),
                        ("default", "random"), ("default", "heuristic"))
    alone = {e: 0 for e in EVENTS}
    several: dict[tuple[str, ...], int] = {}
    for out, t in tricks:
        if len(t.events) == 1:
            alone[t.events[0]] += 1
        elif len(t.events) > 1:
            several[tuple(t.events)] = several.get(tuple(t.events), 0) + 1
    assert min(alone.values()) > 0, alone
    # DA caught by DA: fox + identical + 22 (two aces); CA on CA: identical + 22; CJ on CJ
    # with the first winning: Karlchen + identical
    assert several.get(("fox", "identical", "twenty_two"), 0) > 0, several
    assert several.get(("identical", "twenty_two"), 0) > 0, several
    assert several.get(("karlchen", "identical"), 0) > 0, several
    assert max(len(k) for k in several) >= 3


def test_hand_counted_b_events() -> None:
    """A few tricks counted by hand against the referee's event list."""
    da, da2 = cards("DA DA")
    cj, cj2 = cards("CJ CJ")
    ca, ca2 = cards("CA CA")
    ha = D.index("HA")
    sk = D.index("SK")
    # the fox caught by the second CJ? no: CJ on DA wins with Karlchen and the fox
    assert trick_events(da, cj, beats(da, cj, "first_wins"), 5) == ["fox", "karlchen"]
    # DA on DA, first wins: the second player's DA is caught; identical; 22 points
    assert trick_events(da, da2, False, 5) == ["fox", "identical", "twenty_two"]
    # ... in the 20th trick also Fuchs am Pin
    assert trick_events(da, da2, False, 19) == ["fox", "identical", "twenty_two", "pin"]
    # the 20th trick won with DA over a plain ace: 22 points and the pin
    assert trick_events(ha, da, True, 19) == ["twenty_two", "pin"]
    # a plain ace led, the second ace discarded: identical and 22 points for the leader
    assert trick_events(ca, ca2, False, 3) == ["identical", "twenty_two"]
    # CJ on CJ, second wins: Karlchen and identical
    assert trick_events(cj, cj2, True, 3) == ["karlchen", "identical"]
    # nothing
    assert trick_events(sk, ca, False, 3) == []
    # own DA losing is not a catch for the loser; DA winning in trick 19 (not the 20th): none
    assert trick_events(sk, da, True, 18) == []


def test_b_marker_box_of_12() -> None:
    """With the box (12) never more than 12 awarded, in event order, then none; the box is
    exhausted exactly when 12 are out. Without it (none) every event is awarded. The card play
    of random players does not depend on the box, so the same deals compare."""
    capped, _, rules12 = recorded("default", "random", 5, 3000)
    free_, _, rules_none = recorded("unlimited", "random", 5, 3000)
    # 'unlimited' also changes the tie rule; compare the markers only
    events = sum(free_[f"{e}_{s}"].astype(int) for e in EVENTS for s in range(2))
    total12 = capped["b_markers_0"].astype(int) + capped["b_markers_1"].astype(int)
    total_none = free_["b_markers_0"].astype(int) + free_["b_markers_1"].astype(int)
    assert (total12 <= 12).all()
    assert np.array_equal(total_none, events)
    assert np.array_equal(total12, np.minimum(events, 12))
    assert np.array_equal(capped["supply_exhausted"], total12 == 12)
    assert not free_["supply_exhausted"].any()
    for key in ("points_0", "tricks_0", "fox_0", "fox_1", "pin_1"):
        assert np.array_equal(capped[key], free_[key]), key


def eventful(rules: dict) -> Chooser:
    """A script that hunts B events: the follower plays the card that makes the most events,
    the leader the card that lets the follower make the most."""
    def count(first: int, second: int, t: int) -> int:
        return len(trick_events(first, second, beats(first, second, rules["equal_cards"]), t))

    def choose(duel: Duel, seat: int, legal: set[int], led: int | None, t: int) -> int:
        if led is not None:
            return max(sorted(legal), key=lambda c: count(led, c, t))
        return max(sorted(legal),
                   key=lambda c: max(count(c, r, t) for r in duel.legal(1 - seat, c)))
    return choose


def test_b_marker_box_runs_empty_in_scripted_deals() -> None:
    """Scripted deals with more than 12 B events: with the box exactly 12 are awarded (the
    box empties, in the middle of a trick too), without it every event scores."""
    over = mid_trick = 0
    for deal in range(200):
        layout = Layout.dealt(5, deal)
        for given in ({}, {"b_marker_supply": "none"}, {"b_one_per_trick": True}):
            out = scripted(layout, eventful(GAME.rules(given)), **given)
            events = sum(len(t.events) for t in out.tricks)
            b = out.columns["b_markers_0"] + out.columns["b_markers_1"]
            if given.get("b_marker_supply") == "none":
                assert b == events and not out.columns["supply_exhausted"]
                continue
            if given:  # one per trick, with the box
                assert b == min(12, sum(min(1, len(t.events)) for t in out.tricks))
                continue
            assert b == min(events, 12)
            assert out.columns["supply_exhausted"] == (events >= 12)
            if events > 12:
                over += 1
                before = 0
                for t in out.tricks:
                    if before < 12 < before + len(t.events):
                        mid_trick += 1
                        assert t.awarded == 12 - before
                    before += t.awarded
    assert over > 3 and mid_trick > 0, (over, mid_trick)


def test_b_one_per_trick() -> None:
    for rule_set in ("one_per_trick", "second_wins"):
        for policy in ("random", "heuristic"):
            multi = 0
            for out in refereed(rule_set, policy):
                for t in out.tricks:
                    assert t.awarded <= 1
                    if len(t.events) > 1:
                        multi += 1
                    if rule_set == "second_wins":  # no box: one marker for any event
                        assert t.awarded == min(1, len(t.events))
            assert multi > 0
    columns = recorded("one_per_trick", "random")[0]
    events = sum(columns[f"{e}_{s}"].astype(int) for e in EVENTS for s in range(2))
    b = columns["b_markers_0"].astype(int) + columns["b_markers_1"].astype(int)
    assert (b <= events).all() and (b < events).any()


# --- A markers ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("on_setup", [True, False])
def test_a_markers_count_the_top_trumps(on_setup: bool) -> None:
    """A seat's A markers: its top trumps (HT, CQ) in the hand and at face-down positions
    (each is turned up at some point), plus those face up at the deal with
    ``a_marker_on_setup``. Playing a face-up-at-deal top trump from the pyramid earns none."""
    rules = GAME.rules({"a_marker_on_setup": on_setup})
    batch = play(GAME, 61, 0, 1500, rules, ["random"] * 2, record=True)
    c = batch.columns
    with_setup = 0
    setup_played = 0
    for i in range(1500):
        lay = Layout.of(c, i, 61)
        for s in range(2):
            top = lambda cs: sum(NAMES[x] in TOP_TRUMPS for x in cs)  # noqa: E731
            setup = top([lay.pyramid[s][k] for k in FACE_UP])
            hidden = top([lay.pyramid[s][k] for k in range(12) if k not in FACE_UP])
            assert c[f"a_setup_{s}"][i] == setup
            assert c[f"a_markers_{s}"][i] == top(lay.hands[s]) + hidden + (setup if on_setup else 0)
            with_setup += setup > 0
        assert c["a_markers_0"][i] + c["a_markers_1"][i] <= 4
        if on_setup:
            assert c["a_markers_0"][i] + c["a_markers_1"][i] == 4
        rows = batch.actions[i]
        setup_rows = [r for r in rows if r[0] == A.MARKER and r[3] == -1]
        assert len(setup_rows) == (c["a_setup_0"][i] + c["a_setup_1"][i] if on_setup else 0)
        assert all(r[2] == 0 for r in setup_rows)
        setup_played += sum(1 for r in rows if r[0] == A.PLAY and r[3] - 1 in FACE_UP
                            and NAMES[r[2]] in TOP_TRUMPS)
        if i < 300:
            check_deal(c, i, rows, rules, 61)
    assert with_setup > 300 and setup_played > 300


# --- 120 : 120 in play --------------------------------------------------------------------------------

def test_ties_in_play_under_every_tie_rule() -> None:
    columns, actions, _ = recorded("default", "random", 7, 4000)
    ties = np.flatnonzero(columns["points_0"] == 120)
    assert len(ties) > 10
    for rule in TIE_RULES:
        for mode, base in (("v1", 0), ("v2", 0), ("v1", 1), ("v2", 1)):
            rules = GAME.rules({"tie_rule": rule, "b_marker_mode": mode, "tie_win_base": base})
            re = GAME.rescore(columns, rules)
            replay = play(GAME, 7, 0, 4000, rules, ["random"] * 2).columns
            for i in ties:
                out = check_deal(replay, i, actions[i], rules, 7)
                assert out.columns["tie"] == 1
                for key in ("winner", "tie", "vp_0", "vp_1", "vp_raw"):
                    assert int(re[key][i]) == out.columns[key], (rule, mode, base, key)
            if rule == "draw":
                assert (replay["winner"][ties] == -1).all()
                assert (replay["vp_0"][ties] == 0).all() and (replay["vp_1"][ties] == 0).all()
            elif rule in ("last_trick", "starter_loses", "starter_wins"):
                assert (replay["winner"][ties] >= 0).all()
    # a decided deal is never a tie
    assert not columns["tie"][columns["points_0"] != 120].any()


# --- scoring-only options: re-scored equals replayed -------------------------------------------------

SCORING = [dict(a_marker_on_setup=a, b_marker_mode=m, tie_rule=t, tie_win_base=base)
           for a in (True, False) for m in ("v1", "v2") for t in TIE_RULES for base in (0, 1)]


@pytest.mark.parametrize("play_rule_set", ["default", "heart_ten"])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_rescoring_equals_replaying_from_any_scoring(play_rule_set: str, policy: str) -> None:
    """Deals played under one combination of the scoring-only options, re-scored under every
    other, equal the deals played under that one (the runner plays a group under whichever
    variant comes first)."""
    base = RULE_SETS[play_rule_set]
    replays = {}
    for scoring in SCORING:
        rules = GAME.rules({**base, **scoring})
        replays[tuple(scoring.values())] = play(GAME, 13, 0, 1500, rules, [policy] * 2).columns
    ties = int((replays[(True, "v1", "draw", 0)]["points_0"] == 120).sum())
    assert ties > 0
    for source in (dict(a_marker_on_setup=True, b_marker_mode="v1", tie_rule="draw",
                        tie_win_base=0),
                   dict(a_marker_on_setup=False, b_marker_mode="v2", tie_rule="b_markers",
                        tie_win_base=1)):
        played = replays[tuple(source.values())]
        for scoring in SCORING:
            rules = GAME.rules({**base, **scoring})
            rescored = GAME.rescore(played, rules)
            expected = replays[tuple(scoring.values())]
            for key, column in expected.items():
                assert np.array_equal(column, rescored[key]), (
                    f"played under {source}, re-scored under {scoring}: column {key} differs "
                    f"from replaying")

"""Numbers as options (issue 17): the integer options beyond the rule book, their ranges, the
settlements they turn (worked out by hand), re-scoring under them equal to playing under
them, and the compensation of the player who does not start.

* ``Option.integer``: any integer in its range from TOML or the command line, one line
  otherwise; the table says which options are ranges and which list their values;
* the duel's VP per band, per A and per B marker; Doko-Skat's points per band;
  Skat-en-deux's give-up penalty and rejection premium; the compensation in both two-player
  games: golden settlements by hand, the columns of a play under them equal to the default
  play re-scored;
* the compensation moves the start player's edge by exactly itself in every deal and
  changes nothing else (who won included).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sim.cli import main
from sim.engine.play import play as play_deals
from sim.errors import ConfigError
from sim.games.doko_duell import game as dd
from sim.games.doko_skat import game as dsk
from sim.games.doko_skat.values import LONE, PAIR, settle_terms
from sim.games.skat_family import skat_en_deux as sed
from sim.games.skat_family.observation import OFFER_RAUS
from sim.games.skat_family.values import DIAMONDS, GRAND, with_premium
from sim.options import Option, OptionTable, RuleError
from sim.registry import GAMES
from sim.runner import Experiment
from sim.trace import replay_file
from sim.trace_codec import TraceError

DUEL, DOKO_SKAT, EN_DEUX = GAMES["doko_duell"], GAMES["doko_skat"], GAMES["skat_en_deux"]


# --- the option ------------------------------------------------------------------------------

PENALTY = Option.integer("penalty", 60, 0, 200, "what giving up costs", scoring_only=True)
TABLE = OptionTable([Option("lost_factor", 2, (2, 1), "lost games count this many times"),
                     PENALTY])


@pytest.mark.parametrize("given, value", [(0, 0), (200, 200), (75, 75), ("75", 75), (" +7 ", 7),
                                          (np.int64(9), 9)])
def test_an_integer_option_takes_any_integer_in_its_range(given: object, value: int) -> None:
    rules = TABLE.resolve({"penalty": given})
    assert rules["penalty"] == value and type(rules["penalty"]) is int
    # the kernel gets the value itself, a listed option the index of its value
    assert TABLE.codes(TABLE.resolve({"penalty": given, "lost_factor": 1})).tolist() == [1, value]


@pytest.mark.parametrize("given", [201, -1, "300", 7.0, 7.5, "7.5", "seven", "", True, None])
def test_an_integer_option_refuses_anything_else_in_one_line(given: object) -> None:
    with pytest.raises(RuleError) as err:
        TABLE.resolve({"penalty": given})
    message = str(err.value)
    assert "\n" not in message and message.startswith("option penalty: value ")
    assert message.endswith("is not allowed (an integer in 0..200)")


def test_an_integer_option_is_declared_with_its_default_in_range() -> None:
    with pytest.raises(ValueError, match="0..10"):
        Option.integer("x", 11, 0, 10, "out of range")
    with pytest.raises(ValueError):
        Option("x", 1, (1, 2), "a list and a range", low=0, high=3)


def test_the_table_says_what_is_a_range_and_what_a_list() -> None:
    assert TABLE.discrete() == (TABLE.by_name["lost_factor"],)
    assert TABLE.integers() == (PENALTY,) and TABLE.ranges() == {"penalty": (0, 200)}
    assert [(o.name, o.is_integer) for o in TABLE] == [("lost_factor", False), ("penalty", True)]
    assert TABLE.describe()[1] == {"name": "penalty", "default": "60", "allowed": "0..200",
                                   "doc": "what giving up costs (scoring only)"}


SEED_VALUES = {
    "doko_duell": {"vp_band_90": 1, "vp_band_60": 2, "vp_band_30": 3, "vp_band_under_30": 5,
                   "vp_band_no_trick": 10, "vp_per_a_marker": 1, "vp_per_b_marker": 1,
                   "compensation": 0},
    "doko_skat": {"points_band_90": 2, "points_band_60": 3, "points_band_30": 4,
                  "points_band_under_30": 6, "points_band_zero": 8},
    "skat_en_deux": {"give_up_penalty": 60, "rejection_premium_percent": 50, "compensation": 0},
    "skat": {},
}
"""The numbers RULES.md (the seeds) gives, as the integer options beyond it name them."""


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_games_numbers_are_scoring_only_options_defaulting_to_the_seed(name: str) -> None:
    options = GAMES[name].options
    assert {o.name: o.default for o in options.integers()} == SEED_VALUES[name]
    assert all(o.scoring_only and o.beyond_rules for o in options.integers())
    assert not any(o.beyond_rules for o in options.discrete())  # RULES.md's own
    assert all(row["doc"].endswith("(scoring only) (beyond the rule book)")
               for row in options.describe() if row["name"] in SEED_VALUES[name])
    assert all(low == 0 and high >= 10 for low, high in options.ranges().values())
    assert set(options.ranges()) | {o.name for o in options.discrete()} == set(options.by_name)


def test_the_rules_table_and_configs_read_the_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "doko_duell"]) == 0
    out = capsys.readouterr().out
    assert any(line.split()[:3] == ["vp_band_60", "2", "0..30"] for line in out.splitlines())
    base = {"name": "n", "game": "skat_en_deux", "deals": 10, "seed": 1, "shard_size": 10,
            "policies": ["random", "random"]}
    exp = Experiment.from_dict({**base, "rules": {"give_up_penalty": 45},
                                "variants": [{"name": "c", "rules": {"compensation": "12"}}]})
    assert exp.variant("c").rules["compensation"] == 12 and exp.rules["give_up_penalty"] == 45
    with pytest.raises(ConfigError, match=r"value 4\.5 is not allowed \(an integer in 0\.\.100\)"):
        Experiment.from_dict({**base, "rules": {"compensation": 4.5}})


def test_a_bad_number_on_the_command_line_is_one_line(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    status = main(["trace", "doko_duell", "--deals", "1", "--seed", "1", "--rule",
                   "vp_band_60=31", "--out", str(tmp_path / "t.jsonl")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "option vp_band_60: value 31 is not allowed (an integer in 0..30)" in err


@pytest.mark.parametrize("name", ["doko_duell_random.jsonl", "doko_skat_random.jsonl",
                                  "skat_en_deux_heuristic.jsonl"])
def test_a_trace_from_before_the_numbers_replays_under_their_defaults(name: str,
                                                                       tmp_path: Path) -> None:
    """A trace names every option of RULES.md; one written before stichsim's own numbers,
    or before RULES.md's revision 4, existed lacks them and replays under their defaults.
    Lacking one of RULES.md's older options is still an error."""
    game = GAMES[name.rsplit("_", 1)[0]]
    lines = (Path(__file__).parent / "golden" / name).read_text().splitlines()
    old = tmp_path / "old.jsonl"

    def older(option: str) -> bool:
        return not (game.options.by_name[option].beyond_rules
                    or game.options.by_name[option].revision)

    old.write_text("".join(json.dumps({**obj, "rules": {k: v for k, v in obj["rules"].items()
                                                        if older(k)}})
                           + "\n" for obj in map(json.loads, lines)))
    assert replay_file(old) == []
    first = json.loads(lines[0])
    del first["rules"][game.options.discrete()[0].name]
    old.write_text(json.dumps(first) + "\n")
    with pytest.raises(TraceError, match="rules lack option"):
        replay_file(old)


# --- the duel, by hand -------------------------------------------------------------------------

def duel(pts: tuple[int, int], tricks: tuple[int, int], a: tuple[int, int], b: tuple[int, int],
         starter: int, **rules: object) -> tuple[int, ...]:
    """``settlement``'s terms of a deal (seat 1 took the last trick) under ``rules``."""
    p = dd.kernel_params(DUEL.rules(rules))
    return tuple(int(x) for x in dd.settlement(*pts, *tricks, *a, *b, starter, 1, p))


def test_golden_duel_settlements_under_other_numbers() -> None:
    # Seat 0 wins 170 : 70 (the loser in 60-89), the loser holds 1 A marker, B markers 3 : 1.
    # The seed: 2 + 1 + 2 = 5. With 4 VP for 60-89, 2 per A marker and 3 per B marker:
    # 4 + 2 x 1 + 3 x (3 - 1) = 12.
    seed = duel((170, 70), (14, 6), (0, 1), (3, 1), 0)
    assert seed[8:] == (5, 5, 0, 5, 0)
    terms = duel((170, 70), (14, 6), (0, 1), (3, 1), 0, vp_band_60=4, vp_per_a_marker=2,
                 vp_per_b_marker=3)
    winner, tie, band, base, loser_a, a_vp, b_diff, b_vp, raw, total, paid, vp0, vp1 = terms
    assert (winner, tie, band, base) == (0, 0, 1, 4)
    assert (loser_a, a_vp, b_diff, b_vp, raw, total) == (1, 2, 2, 6, 12, 12)
    assert (paid, vp0, vp1) == (0, 12, 0)
    # ... and seat 1, who did not start, gets a compensation of 5 on top of nothing
    assert duel((170, 70), (14, 6), (0, 1), (3, 1), 0, vp_band_60=4, vp_per_a_marker=2,
                vp_per_b_marker=3, compensation=5)[10:] == (5, 12, 5)
    # the loser's B markers weigh double: 95 points (90+: 1 VP), B markers 0 : 3,
    # 1 - 2 x 3 = -5; v1 keeps 1 for the winner, v2 credits the loser 5
    assert duel((145, 95), (12, 8), (0, 0), (0, 3), 1, vp_per_b_marker=2)[8:] == (-5, 1, 0, 1, 0)
    assert duel((145, 95), (12, 8), (0, 0), (0, 3), 1, vp_per_b_marker=2,
                b_marker_mode="v2")[8:] == (-5, -5, 0, 0, 5)
    # no trick for the loser: 30 instead of 10; under 30 with a trick: 0 instead of 5
    assert duel((240, 0), (20, 0), (0, 0), (0, 0), 0, vp_band_no_trick=30)[8:] == (30, 30, 0, 30, 0)
    assert duel((220, 20), (18, 2), (0, 0), (0, 0), 0, vp_band_under_30=0)[8:] == (0, 1, 0, 1, 0)
    # A markers worth nothing: only the base and the B markers
    assert duel((100, 140), (8, 12), (2, 0), (0, 0), 0, vp_per_a_marker=0)[4:9] == (2, 0, 0, 0, 1)


def test_golden_duel_compensation_whatever_the_result() -> None:
    # a drawn 120 : 120: nobody wins, the player who did not start still gets his 7
    for starter in (0, 1):
        terms = duel((120, 120), (10, 10), (2, 0), (0, 3), starter, compensation=7)
        assert terms[:2] == (-1, 1) and terms[8:10] == (0, 0)
        assert terms[11:] == ((0, 7) if starter == 0 else (7, 0))
    # the starter loses 110 : 130 and is credited nothing; the winner, who did not start,
    # scores 1 + 7
    assert duel((110, 130), (9, 11), (0, 0), (0, 0), 0, compensation=7)[10:] == (7, 0, 8)
    # the starter wins: 1 for him, 7 for the loser
    assert duel((130, 110), (11, 9), (0, 0), (0, 0), 0, compensation=7)[10:] == (7, 1, 7)


# --- Doko-Skat, by hand ------------------------------------------------------------------------

BANDS = (1, 5, 0, 12, 30)
"""Points for the losers at 90 or more, 60-89, 30-59, under 30, none."""


@pytest.mark.parametrize("args, value", [
    ((140, 100, PAIR, False, 0, 0, 0), 1),        # the losers at 100: 1
    ((150, 90, PAIR, False, 2, 0, 0), 1 + 2),     # 90 still the first band, + 2 Spitzen
    ((170, 70, PAIR, True, 2, 1, 0), 5 + 4 + 1),  # 60-89: 5, Spitzen doubled in grand, special
    ((195, 45, LONE, False, 3, 0, 0), 0),         # 30-59: 0, the defenders have no Spitzen
    ((20, 220, LONE, False, 3, 0, 1), 12 + 3 + 1),  # under 30: 12
    ((0, 240, LONE, True, 1, 0, 0), 30 + 2),      # none: 30
])
def test_golden_doko_skat_bands(args: tuple, value: int) -> None:
    terms = settle_terms(*args, True, False, BANDS)
    assert terms[5] == value
    # zero sum: the lone player wins or loses twice, each pair member once
    winner = terms[0]
    _, _, _, _, _, zs_value, pair_score, lone_score = settle_terms(*args, True, True, BANDS)
    sign = 1 if winner == PAIR else -1
    assert (zs_value, pair_score, lone_score) == (value, sign * value, -2 * sign * value)
    assert dsk.rule_bands(DOKO_SKAT.rules(dict(zip(dsk.BAND_OPTIONS, BANDS)))) == BANDS


# --- Skat-en-deux, by hand ---------------------------------------------------------------------

SEED_EXAMPLE = {"give_up": 0, "game": GRAND, "matadors": 1, "hand": 0, "ouvert": 0,
                "open_level": 2, "declarer_points": 95, "declarer_tricks": 8, "bid": 18,
                "offer": OFFER_RAUS, "second_offer_trick": -1, "accepted": 0, "contra": 1,
                "re": 1}
"""RULES.md's example: grand with one, zweimal offen, Schneider (24 x 5 = 120), the offer
rejected, Contra and Re."""


@pytest.mark.parametrize("premium, rejected", [(50, 216), (0, 144), (100, 288), (20, 173),
                                               (200, 432)])
def test_golden_rejection_premium(premium: int, rejected: int) -> None:
    # one more level: 24 x 6 = 144, then the premium rounded up (20 %: 172.8 -> 173); Contra
    # and Re double it twice
    rules = EN_DEUX.rules({"contra_re": True, "rejection_premium_percent": premium})
    t = sed.settlement_terms(SEED_EXAMPLE, rules)
    assert (t["level_value"], t["rejected_value"]) == (120, rejected)
    assert (t["contra_value"], t["re_value"], t["score"]) == (2 * rejected, 4 * rejected,
                                                              4 * rejected)
    assert with_premium(144, premium) == rejected


def test_golden_give_up_penalty() -> None:
    rules = EN_DEUX.rules({"give_up_penalty": 35, "lost_factor": 1})
    given_up = {**SEED_EXAMPLE, "give_up": 1, "game": -1, "offer": 0}
    assert sed.settlement_terms(given_up, rules)["score"] == -35
    assert sed.settlement_terms(given_up, EN_DEUX.rules({"give_up_penalty": 0}))["score"] == 0
    # a give-up after the pickup naming a game is lost as that game overbid, not the penalty:
    # diamonds at 63, 9 x 7, x lost_factor 1
    named = {**given_up, "game": DIAMONDS, "bid": 63}
    assert sed.settlement_terms(named, rules)["score"] == -63


# --- re-scored equals played ---------------------------------------------------------------------

PLAYED = [
    ("doko_duell", {"b_marker_supply": "none"}, ["heuristic", "random"], 1500,
     {"vp_band_90": 0, "vp_band_60": 30, "vp_band_30": 7, "vp_band_under_30": 1,
      "vp_band_no_trick": 30, "vp_per_a_marker": 10, "vp_per_b_marker": 10, "compensation": 30,
      "b_marker_mode": "v2"}),
    ("doko_duell", {}, ["heuristic", "heuristic"], 1500,
     {"vp_band_60": 5, "vp_per_b_marker": 0, "compensation": 2, "tie_rule": "starter_wins"}),
    ("doko_skat", {}, ["random"] * 3, 1500,
     {"points_band_90": 30, "points_band_60": 0, "points_band_30": 11, "points_band_under_30": 30,
      "points_band_zero": 30, "zero_sum": True}),
    ("skat_en_deux", {"contra_re": True}, ["random", "random"], 2000,
     {"rejection_premium_percent": 200, "lost_factor": 1, "compensation": 100}),
    ("skat_en_deux", {}, ["heuristic", "random"], 2000,
     {"give_up_penalty": 200, "compensation": 17}),
]


@pytest.mark.parametrize("name, play, policies, deals, scoring", PLAYED)
def test_rescored_under_other_numbers_equals_played_under_them(name: str, play: dict,
                                                              policies: list[str], deals: int,
                                                              scoring: dict) -> None:
    game = GAMES[name]
    rules = game.rules({**play, **scoring})
    default = play_deals(game, 29, 0, deals, game.rules(play), policies).columns
    played = play_deals(game, 29, 0, deals, rules, policies).columns
    rescored = game.rescore(default, rules)
    for key, column in played.items():
        assert column.dtype == rescored[key].dtype and np.array_equal(column, rescored[key]), key
    # and back: the deals played under the numbers re-scored under the defaults
    back = game.rescore(played, game.rules(play))
    for key, column in default.items():
        assert np.array_equal(column, back[key]), key
    # the numbers reached the scores, and they fit their columns
    score = game.outcome.score
    assert any(not np.array_equal(default[f"{score}_{s}"], played[f"{score}_{s}"])
               for s in range(game.n_players))
    if name == "skat_en_deux":
        # the deals the numbers change: offers rejected under contra_re, give-ups at 18
        rejected = (played["offer"] > 0) & ~(played["accepted"] & (played["second_offer_trick"] < 0))
        given_up = played["give_up"] & (played["game"] < 0)
        assert (rejected.sum() if play else given_up.sum()) > 100


def test_the_duel_columns_hold_the_largest_numbers() -> None:
    """Every number at its largest, B markers without limit: the VP columns (int16) hold what
    the settlement computes in Python integers."""
    rules = DUEL.rules({"b_marker_supply": "none", "b_marker_mode": "v2",
                        **{name: hi for name, (_, hi) in DUEL.options.ranges().items()}})
    columns = play_deals(DUEL, 3, 0, 400, rules, ["random", "random"]).columns
    raws = []
    for i in range(400):
        c = {k: v[i].item() for k, v in columns.items()}
        t = dd.settle_deal(c, rules)
        assert (c["vp_0"], c["vp_1"], c["vp_raw"]) == (t.vp_0, t.vp_1, t.raw)
        raws.append(abs(t.raw))
    assert max(raws) > 127  # beyond the int8 the columns had


# --- the compensation ----------------------------------------------------------------------------

@pytest.mark.parametrize("name, play, policies", [
    ("doko_duell", {}, ["heuristic", "random"]),
    ("doko_duell", {"tie_rule": "last_trick", "b_marker_mode": "v2"}, ["random", "random"]),
    ("skat_en_deux", {}, ["heuristic", "random"]),
    ("skat_en_deux", {"all_pass": "throw_in", "offers": True}, ["random", "heuristic"]),
])
def test_the_compensation_moves_the_start_players_edge_by_itself_alone(
        name: str, play: dict, policies: list[str]) -> None:
    game = GAMES[name]
    score, start = game.outcome.score, game.outcome.start_seat
    without = play_deals(game, 5, 0, 1000, game.rules(play), policies).columns
    for paid in (1, 9, max(game.options.ranges()["compensation"])):
        with_it = game.rescore(without, game.rules({**play, "compensation": paid}))
        starter = np.asarray(start(without))
        other = 1 - starter
        rows = np.arange(1000)
        for s in range(2):
            assert np.array_equal(np.asarray(start(with_it)), starter)
            # who won does not change: the compensation is a side payment
            assert np.array_equal(game.outcome.seat_won(with_it, s),
                                  game.outcome.seat_won(without, s))
        both = [np.stack([c[f"{score}_{s}"].astype(np.int64) for s in range(2)]) for c in
                (without, with_it)]
        # the starter's score as it was, the other player's up by the compensation, each deal
        assert np.array_equal(both[1][starter, rows], both[0][starter, rows])
        assert np.array_equal(both[1][other, rows], both[0][other, rows] + paid)
        edge = [b[starter, rows] - b[other, rows] for b in both]
        assert np.array_equal(edge[0] - edge[1], np.full(1000, paid))
        # nothing else moved
        for key, column in without.items():
            if not key.startswith(f"{score}_"):
                assert np.array_equal(column, with_it[key]), key

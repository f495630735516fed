"""Reports that lead with the answer: the one precision rule, the scales a player feels,
variants judged by their paired differences (never by overlapping intervals), and the tune's
answer in words (what the best group shares, whether any rule set is fair within delta, which
options decide the sign), its page opening with the answer box. Hand-made numbers whose
answers are known."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

from analysis import balance, load, report, stats, tune_report
from sim import robustness as planned
from sim.registry import find_game

# --- one precision rule ----------------------------------------------------------------------


@pytest.mark.parametrize("row, shown", [
    ((0.43, 0.36, 0.49), "+0.43 [0.36, 0.49]"),          # half width 0.065: two decimals
    ((0.006, -0.0001, 0.012), "+0.006 [0.000, 0.012]"),  # a bound that rounds to 0 is 0, never -0.000
    ((0.0, 0.0, 0.0), "0 (exact)"),                      # no width: exact, not +0.0 [0.0, 0.0]
    ((-30.0, -30.0, -30.0), "-30 (exact)"),
    ((52.0, 40.0, 64.0), "+52.0 [40.0, 64.0]"),          # at least one decimal
    ((-0.00004, -0.00009, 0.00001), "0.0000 [-0.0001, 0.0000]"),  # at most four
])
def test_the_decimals_follow_the_intervals_half_width(row: tuple[float, float, float], shown: str) -> None:
    assert report.estimate(dict(zip(("value", "lo", "hi"), row, strict=True)), sign=True) == shown


def test_the_scale_of_an_edge_per_evening_and_against_a_deals_payout() -> None:
    edge = {"value": 0.43, "lo": 0.36, "hi": 0.49}
    payout = {"value": 2.15, "lo": 2.1, "hi": 2.2}
    # 36 x 0.43 = 15.48 (half width 2.34: one decimal); 0.43 / 2.15 = 20.0 % (half width 3.0)
    assert report._scale(edge, "VP", payout) == (
        "+15.5 VP [13.0, 17.6] over an evening of 36 deals, or +20.0 % [16.7, 22.8] of what an average deal "
        "pays him (2.15 VP, won or lost)")


def test_the_payout_is_the_start_players_mean_absolute_score() -> None:
    outcome = load.Outcome(2, ("vp_0", "vp_1"), "VP", "start_seat", ("won_0", "won_1"))
    frame = pl.LazyFrame({"variant": ["base"] * 4 + ["other"] * 4, "deal": [0, 1, 2, 3] * 2,
                          "start_seat": [0, 1, 0, 1] * 2, "vp_0": [3, 0, -2, 1, 9, 9, 9, 9],
                          "vp_1": [0, 4, 0, 0, 0, 0, 0, 0]})
    found = balance.payout(frame, outcome)
    assert found["value"] == pytest.approx((3 + 4 + 2 + 0) / 4) and found["n"] == 4
    assert found["lo"] < found["value"] < found["hi"]


# --- paired, never overlapping ---------------------------------------------------------------


def test_a_rate_among_some_deals_is_compared_deal_by_deal() -> None:
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 400).astype(float)
    m = np.ones(400)
    # every deal counts: the delta method is the paired t interval
    assert stats.paired_ratio_difference(y, m, y * 0, m) == stats.paired_difference(y, y * 0)
    counted = (rng.random(400) < 0.7).astype(float)
    found = stats.paired_ratio_difference(y * counted, counted, y * 0, m)
    assert found.value == pytest.approx((y * counted).sum() / counted.sum())
    assert found.lo < found.value < found.hi


def test_compare_adds_each_variants_paired_difference_from_base() -> None:
    x = np.arange(40, dtype=float) % 7
    frame = pl.LazyFrame({"variant": ["base"] * 40 + ["up"] * 40, "deal": list(range(40)) * 2,
                          "x": np.concatenate([x, x + 0.5]),
                          "hit": [d % 3 == 0 for d in range(40)] + [d % 3 != 1 for d in range(40)]})
    table = balance.compare(frame, ["variant"], {"mean x": ("mean", pl.col("x")),
                                                 "hit rate": ("rate", pl.col("hit"))})
    up = table.filter(variant="up", metric="mean x").row(0, named=True)
    # the two intervals overlap, but every deal moved by 0.5: the paired difference is exact
    assert up["lo"] < table.filter(variant="base", metric="mean x")["hi"][0]
    assert (up["diff"], up["diff_lo"], up["diff_hi"]) == pytest.approx((0.5, 0.5, 0.5))
    hit = table.filter(variant="up", metric="hit rate").row(0, named=True)
    assert hit["diff"] == pytest.approx(27 / 40 - 14 / 40) and hit["diff_lo"] > 0


def test_a_variant_is_judged_by_its_paired_difference() -> None:
    row = {"variant": "v", "value": 0.45, "lo": 0.30, "hi": 0.60}
    rises = report._moves(row | {"diff": 0.02, "diff_lo": 0.01, "diff_hi": 0.03}, "0.45")
    assert rises == "rises to 0.45 (by +0.020 [0.010, 0.030] on the same deals)"
    unclear = report._moves(row | {"diff": 0.02, "diff_lo": -0.01, "diff_hi": 0.05}, "0.45")
    assert unclear.startswith("is 0.45 (the same deals cannot tell it from base: ")
    assert "overlap" not in rises + unclear


def test_the_fairest_and_those_the_same_deals_cannot_tell_from_it() -> None:
    base = np.tile([1.0, -1.0], 50) + 0.5
    frame = pl.LazyFrame({"variant": ["base"] * 100 + ["near"] * 100 + ["far"] * 100,
                          "deal": list(range(100)) * 3,
                          "vp_0": np.concatenate([base, base + 0.01, base + 0.25]) + 2,
                          "vp_1": np.full(300, 2.0), "start_seat": np.zeros(300, np.int8),
                          "won_0": np.ones(300, np.int8), "won_1": np.zeros(300, np.int8)})
    outcome = load.Outcome(2, ("vp_0", "vp_1"), "VP", "start_seat", ("won_0", "won_1"))
    table = balance.sweep(frame, outcome, "start_edge", ["base", "near", "far"])
    # every interval overlaps base's, but on the same deals both are surely farther from 0
    assert (table["lo"] < table["hi"][0]).all()
    assert balance.fairest_paired(table) == ("base", [])
    assert table.filter(variant="far")["gap_lo"][0] == pytest.approx(0.25)


# --- the one-at-a-time readings of an integer option ---------------------------------------------


def test_an_integer_option_is_tried_at_realistic_steps_not_its_range_ends() -> None:
    duel = {o.name: o for o in find_game("doko_duell").options}
    assert planned.readings(duel["compensation"]) == (1, 3)  # not 30
    assert planned.readings(duel["vp_band_no_trick"]) == (7, 9, 11, 13)
    assert planned.readings(duel["vp_band_60"], 0) == (1, 3)  # around the experiment's value, in range
    assert planned.readings(duel["equal_cards"]) == duel["equal_cards"].allowed


# --- the tune's answer -----------------------------------------------------------------------


def candidate(rules: dict[str, Any], value: float, half: float = 0.01) -> dict[str, Any]:
    return {"rules": rules, "value": value, "lo": value - half, "hi": value + half, "deals": 4000,
            "eliminated_round": None, "reason": None, "measures": {}}


def outcome(candidates: list[dict[str, Any]], best: list[int], delta: float = 0.05) -> dict[str, Any]:
    values = [[c["value"], c["lo"], c["hi"]] for c in candidates]
    return {"game": "doko_duell", "name": "t", "seed": 1, "unit": "VP", "rules": {},
            "searched": list(candidates[0]["rules"]),
            "objectives": [{"name": "start_edge", "measure": "start_edge", "rung": ["heuristic"] * 2,
                            "target": 0.0, "delta": delta}],
            "constraints": [], "budget": 4000, "rounds_planned": 1, "candidates": candidates, "best": best,
            "front": best[:1], "deals_spent": 8000, "candidate_deals": 16000, "sweep_deals": 8000,
            "separate_deals": 90000, "twins": [],
            "rounds": [{"deals": 4000, "entered": list(range(len(candidates))), "z": 2.5,
                        "values": {"start_edge": values}}]}


CARDS = ("first_wins", "second_wins")
TIES = ("draw", "starter_wins")


def race(edges: dict[tuple[str, str], float], best: list[int], **kwargs: Any) -> dict[str, Any]:
    return outcome([candidate({"equal_cards": e, "tie_rule": t}, edges[e, t]) for e in CARDS for t in TIES],
                   best, **kwargs)


def test_the_tune_says_what_the_best_group_shares_and_which_option_decides_the_sign() -> None:
    edges = {("first_wins", "draw"): 0.44, ("first_wins", "starter_wins"): 0.46,
             ("second_wins", "draw"): -0.21, ("second_wins", "starter_wins"): -0.22}
    out = race(edges, best=[2, 3])
    assert tune_report.shared_rules(out) == {"equal_cards": "second_wins"}
    assert tune_report.sign_deciders(out)[0] == ["equal_cards"]
    first, fair, sign = tune_report.answer(out)
    assert first.startswith("The closest to fair (start player's score edge = 0) is `equal_cards = "
                            "second_wins` and `tie_rule = draw`: -0.210 VP [-0.220, -0.200] a deal, -7.6 VP "
                            "[-7.9, -7.2] over an evening of 36 deals; ")
    assert "every one of the 2 rule sets the race could not tell apart from the best plays " \
           "`equal_cards = second_wins`" in first
    assert "candidate" not in first
    assert fair == ("No rule set tried is fair within delta (0 ± 0.05 VP per deal): every interval lies "
                    "outside it, the nearest 0.200 VP per deal from the target.")
    assert sign == "The sign is decided by `equal_cards` (first_wins above the target, second_wins below)."


def test_a_rule_set_fair_within_delta_and_no_sign_decider() -> None:
    edges = {("first_wins", "draw"): 0.03, ("first_wins", "starter_wins"): -0.3,
             ("second_wins", "draw"): -0.3, ("second_wins", "starter_wins"): 0.2}
    out = race(edges, best=[0])
    _, fair, sign = tune_report.answer(out)
    assert fair == "1 rule set is fair within delta (0 ± 0.05 VP per deal): its interval lies inside it."
    assert sign.startswith("No single option decides the sign; ")
    assert sign.endswith("`equal_cards` comes closest: its value gives the side of the target for 50 % of "
                         "the rule sets whose interval excludes it.")


def test_the_tune_page_opens_with_its_answer_box(tmp_path: Path) -> None:
    edges = {("first_wins", "draw"): 0.44, ("first_wins", "starter_wins"): 0.46,
             ("second_wins", "draw"): -0.21, ("second_wins", "starter_wins"): -0.22}
    index = tune_report.build(race(edges, best=[2, 3]), tmp_path)
    body = index.read_text().split("<body>", 1)[1]
    assert re.match(r'<h1>Rule tune: t</h1><aside class="answer"><p><strong>The answer.</strong> The closest',
                    body)
    assert "<strong>Rests on:</strong> players: heuristic at every seat; rule readings: 4 rule sets" in body
    assert '<section id="glossary">' in body
    summary = (tmp_path / "summary.md").read_text().splitlines()
    assert summary[:3] == ["# Rule tune: t", "", summary[2]] and summary[2].startswith("> **The answer.** ")
    assert "## Glossary" in summary and any(line.startswith("- **delta**: ") for line in summary)

"""The quality measures (``sim.quality``, ``analysis.quality``): each formula on hand-made
numbers, the course of hand-built and played deals read against the game's own results and
the solver, duplicate skill against itself and against a re-scored play, the columns the
same whatever the shards, and bad ``[quality]`` tables refused in one line."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis import quality as Q
from analysis.load import Outcome, scan
from sim.arena import duplicate
from sim.cli import main
from sim.engine.deals import deck_order
from sim.engine.play import play
from sim.engine.solving import hooks
from sim.errors import ConfigError
from sim.quality import COURSE_COLUMNS, Quality, course, measure, settled, tension
from sim.registry import find_game
from sim.runner import Experiment, run_experiment
from sim.search import solver

SKAT = find_game("skat")
DUEL = find_game("doko_duell")
SURE_GRAND = ("CJ SJ HJ DJ CA CT CK CQ C9 C8 / SA ST SK SQ S9 S8 S7 HA HT HK / "
              "HQ H9 H8 H7 DA DT DK DQ D9 D8 / C7 D7")
"""Seat 0 holds every jack and six clubs: his game is won before the first card."""


# --- the formulas, by hand ----------------------------------------------------------------------

def test_settled_counts_the_tricks_after_which_the_verdict_stood_and_its_changes() -> None:
    assert settled([True] * 11) == (0, 0)              # the cards decided it
    assert settled([False, True, True, True]) == (1, 1)  # settled at trick 1
    assert settled([True, False, True, False]) == (3, 3)  # the last trick decided it
    assert settled([False, False, True, True, False, False]) == (4, 2)


def test_tension_counts_lead_changes_and_a_comeback_by_hand() -> None:
    # the count's side leads, falls behind, leads, falls behind, leads: 4 changes; at half
    # time (after trick 2 of 5) it was behind (10 : 20) and won: a comeback
    points = [(10, 0), (10, 20), (40, 20), (40, 60), (80, 60)]
    assert tension(points, winner_counted=True) == (4, 1)
    assert tension(points, winner_counted=False) == (4, 0)
    # a level score changes nothing; a lead that never changes hands
    assert tension([(0, 0), (11, 0), (11, 11), (30, 11)], winner_counted=True) == (0, 0)
    assert tension([(0, 4), (0, 4), (11, 4), (11, 30)], winner_counted=False) == (2, 0)
    assert tension([(5, 0)], winner_counted=True) == (0, -1)


def test_evenings_totals_and_the_deal_that_decides_one() -> None:
    scores = np.array([[10, 0, 0], [0, 4, 0], [0, 4, 0],      # seat 0 first by 2: one deal decides
                       [5, 0, 0], [5, 0, 0], [0, 3, 0]])       # seat 0 first by 7: no deal decides
    totals, decided = Q.evenings(scores, evening=3)
    assert totals.tolist() == [[10, 8, 0], [10, 3, 0]]
    assert decided.tolist() == [True, False]
    assert Q.evenings(scores[:5], evening=3)[0].shape == (1, 3)  # only whole evenings


def frame(**columns: list) -> pl.LazyFrame:
    n = len(next(iter(columns.values())))
    return pl.LazyFrame({"variant": ["base"] * n, "deal": list(range(n)), **columns})


OUTCOME = Outcome(2, ("score_0", "score_1"), "points", "start_seat", ("won_0", "won_1"))


def test_skill_to_luck_is_the_mean_gain_over_a_seat_s_spread() -> None:
    d = [4.0, 2.0, 6.0, 0.0]
    s0, s1 = [10, -10, 20, 0], [-10, 10, -20, 0]   # mean 0: a seat's variance (100+100+400+0)/4
    table = Q.skill_to_luck(frame(skill_a_vs_b=d, score_0=s0, score_1=s1), OUTCOME, ["skill_a_vs_b"])
    row = table.row(0, named=True)
    assert row["metric"] == "a over b: skill to luck"
    assert row["value"] == pytest.approx(3.0 / math.sqrt(150.0))
    assert row["lo"] < row["value"] < row["hi"] and row["n"] == 4


def test_skill_table_reads_gain_ahead_share_and_won_share() -> None:
    t = Q.skill(frame(skill_a_vs_b=[2.0, 0.0, -1.0, float("nan")],
                      skill_won_a_vs_b=[0.5, 0.0, -0.5, float("nan")],
                      score_0=[1, 2, 3, 4], score_1=[0, 0, 0, 0]), OUTCOME)
    pick = {r["metric"]: r for r in t.iter_rows(named=True)}
    assert pick["a over b: score"]["value"] == pytest.approx(1 / 3) and pick["a over b: score"]["n"] == 3
    assert pick["a over b: ahead"]["value"] == pytest.approx(0.5)  # ahead, level (half), behind
    assert pick["a over b: won share"]["value"] == pytest.approx(0.0)


def test_decisiveness_and_tension_tables_leave_out_what_was_not_measured() -> None:
    f = frame(settled_after=[0, 0, 1, 3, -1], swings=[0, 0, 1, 3, -1], lead_changes=[1, 2, 0, -1, -1],
              behind_at_half=[1, 0, 0, -1, -1])
    dec = {r["metric"]: r for r in Q.decisiveness(f).iter_rows(named=True)}
    assert dec["settled by trick 0"]["value"] == pytest.approx(0.5) and dec["settled by trick 0"]["n"] == 4
    assert dec["settled by trick 1"]["value"] == pytest.approx(0.75)
    assert dec["settled by trick 3"]["value"] == 1.0
    assert dec["trick it settled after"]["value"] == pytest.approx(1.0)
    ten = {r["metric"]: r for r in Q.tension(f).iter_rows(named=True)}
    assert ten["lead changes"]["value"] == pytest.approx(1.0) and ten["lead changes"]["n"] == 3
    assert ten["comeback"]["value"] == pytest.approx(1 / 3)


def test_variety_shares_entropy_and_a_rule_hole() -> None:
    n = 400
    game = ["grand"] * 200 + ["C"] * 200
    won = [True] * 200 + [True] * 100 + [False] * 100  # grand always won: a hole
    t = Q.variety(frame(game=game, hand=[False] * n, ouvert=[False] * n, declarer=[0] * n, won=won,
                        ramsch=[False] * n))
    pick = {r["metric"]: r for r in t.iter_rows(named=True)}
    assert pick["game types: entropy (bits)"]["value"] == pytest.approx(1.0)
    assert pick["grand: share"]["value"] == pytest.approx(0.5)
    assert pick["C: won"]["value"] == pytest.approx(0.5)
    assert Q.holes(t) == [("grand", 1.0, 200)]


def test_a_bid_that_always_loses_is_a_rule_hole() -> None:
    n = 400
    bid = [18] * 150 + [20] * 150 + [72] * 100
    won = [True, False] * 75 + [True] * 150 + [False] * 100  # 20 always won, 72 never
    t = Q.variety(frame(game=["C", "S"] * 200, hand=[False] * n, ouvert=[False] * n,
                        declarer=[-1] + [0] * (n - 1), won=won, ramsch=[False] * n, bid=bid))
    pick = {r["metric"]: r for r in t.iter_rows(named=True)}
    assert pick["bid 18: won"]["value"] == pytest.approx(74 / 149)  # the undeclared deal left out
    assert Q.holes(t) == [("bid 20", 1.0, 150), ("bid 72", 0.0, 100)]
    few = Q.variety(frame(game=["C"] * 50, hand=[False] * 50, ouvert=[False] * 50,
                          declarer=[0] * 50, won=[True] * 50, ramsch=[False] * 50, bid=[18] * 50))
    assert not few["metric"].str.starts_with("bid ").any()  # under 100 games: no row, no hole


def test_spread_of_a_deal_and_an_evening() -> None:
    rng = np.random.default_rng(1)
    s0 = rng.integers(-50, 51, 720)
    t = Q.spread(frame(score_0=s0.tolist(), score_1=(-s0).tolist()), OUTCOME)
    pick = {r["metric"]: r for r in t.iter_rows(named=True)}
    both = np.concatenate([s0, -s0])
    sd = pick["score a deal: standard deviation"]
    assert sd["value"] == pytest.approx(np.std(both, ddof=1))
    assert sd["lo"] < sd["value"] < sd["hi"]
    q = pick["score a deal: 95 % quantile"]
    assert q["lo"] <= q["value"] <= q["hi"]
    assert pick["evening of 36: decided by one deal"]["n"] == 20
    assert pick["score a deal: mean absolute"]["value"] == pytest.approx(np.abs(s0).mean())


def test_fewer_deals_than_an_evening_have_no_evening_rows() -> None:
    t = Q.spread(frame(score_0=list(range(30)), score_1=[-x for x in range(30)]), OUTCOME)
    metrics = t["metric"].to_list()
    assert "score a deal: standard deviation" in metrics
    assert not any(m.startswith("evening") for m in metrics)


def test_a_quantile_s_paired_difference_follows_the_same_deals() -> None:
    rng = np.random.default_rng(2)
    s0 = rng.integers(-50, 51, 720)
    base = frame(score_0=s0.tolist(), score_1=(-s0).tolist())
    wider = frame(score_0=(2 * s0).tolist(), score_1=(-2 * s0).tolist()).with_columns(
        variant=pl.lit("wider"))
    t = Q.spread(pl.concat([base, wider]), OUTCOME)
    pick = {(r["variant"], r["metric"]): r for r in t.iter_rows(named=True)}
    q = pick[("wider", "score a deal: 95 % quantile")]
    b = pick[("base", "score a deal: 95 % quantile")]
    assert q["diff"] == pytest.approx(q["value"] - b["value"]) and q["diff"] > 30
    # every score doubled on the same deals: the 95 % quantile doubles in every draw
    assert q["diff_lo"] == pytest.approx(q["diff"], abs=6) and q["diff_lo"] > 0
    assert q["diff_lo"] <= q["diff"] <= q["diff_hi"]
    d, lo, hi = Q.paired_quantile_difference(
        np.column_stack([s0, -s0]).astype(float), np.column_stack([s0, -s0]).astype(float), 0.05)
    assert (d, lo, hi) == (0.0, 0.0, 0.0)  # the same scores: no difference in any draw
    shifted = rng.permutation(s0)  # other deals, the same distribution: unpaired noise only
    d, lo, hi = Q.paired_quantile_difference(
        np.column_stack([shifted, -shifted]).astype(float), np.column_stack([s0, -s0]).astype(float), 0.95)
    assert d == 0.0 and lo < 0 < hi


# --- the course of played deals --------------------------------------------------------------------

def played_course(game, seed: int, count: int, policies: list[str], rules=None, preset=None,
                  solved: int | None = None):
    """Deals ``0 .. count - 1`` played and their courses, the first ``solved`` (default all)
    solved at every trick."""
    rules = game.rules(rules or {})
    batch = play(game, seed, 0, count, rules, policies, record=True, preset=preset)
    module = hooks(game)
    ws = module.new_workspace(module.TT_BITS)
    solved = count if solved is None else solved
    return batch, [course(game, batch.columns, i, batch.actions[i], rules, i < solved, ws)
                   for i in range(count)]


def test_a_deal_won_before_the_first_card_is_settled_at_trick_0() -> None:
    order = deck_order(SKAT, SURE_GRAND, dealer=0)
    batch, (c,) = played_course(SKAT, 3, 1, ["heuristic"] * 3, preset=order)
    assert batch.columns["declarer"][0] == 0 and batch.columns["won"][0]
    assert c.win == 61 and all(c.verdicts)
    assert (c.settled_after, c.swings) == (0, 0)
    assert len(c.points) == 10 and c.points[-1][0] == batch.columns["declarer_points"][0]
    assert c.lead_changes >= 0 and c.behind_at_half == int(c.points[4][0] < c.points[4][1])


def test_skat_courses_agree_with_the_results_and_the_exact_solver() -> None:
    batch, courses = played_course(SKAT, 5, 120, ["random", "heuristic", "heuristic"])
    cols = batch.columns
    module = hooks(SKAT)
    ws = module.new_workspace(module.TT_BITS)
    seen = 0
    for i, c in enumerate(courses):
        game = SKAT.categories["game"][cols["game"][i]] if cols["game"][i] >= 0 else None
        if cols["declarer"][i] < 0 or game in ("ramsch", None) or cols["ramsch"][i]:
            assert c.settled_after == -1 and c.lead_changes == -1  # no course in a ramsch
            continue
        seen += 1
        assert c.verdicts, i
        assert 0 <= c.settled_after <= len(c.verdicts) - 1 and c.swings >= int(c.settled_after > 0)
        if game == "null":
            # the count is the declarer's tricks: the verdict "he takes one" is his loss
            assert c.verdicts[-1] == (int(cols["declarer_tricks"][i]) > 0)
            assert c.lead_changes == -1
            continue
        assert c.verdicts[-1] == (int(cols["declarer_points"][i]) >= 61)
        assert c.points[-1] == (cols["declarer_points"][i], 120 - cols["declarer_points"][i])
        assert 0 <= c.lead_changes <= 9 and c.behind_at_half in (0, 1)
    assert seen > 40
    # each solved verdict is the exact count's at the start of that trick
    state, actions = SKAT.card_play.start(cols, 0, batch.actions[0], SKAT.rules({}))
    if courses[0].verdicts and courses[0].lead_changes >= 0:
        q = np.zeros(solver.Q_LENGTH, np.int64)
        module.question(state, q)
        solver.clear(ws)
        assert (module.count(state, q, ws) >= 61) == courses[0].verdicts[0]


def test_duel_courses_read_player_0_s_points_against_121() -> None:
    batch, courses = played_course(DUEL, 7, 6, ["heuristic", "random"])
    for i, c in enumerate(courses):
        assert c.win == 121
        assert c.points[-1] == (batch.columns["points_0"][i], batch.columns["points_1"][i])
        assert c.verdicts[-1] == (batch.columns["points_0"][i] >= 121)
        assert len(c.points) == DUEL.tricks and 0 <= c.settled_after <= DUEL.tricks


# --- skill by duplicate play -------------------------------------------------------------------------

def test_a_policy_against_itself_gains_nothing_and_rescoring_matches_a_play_under_the_rules() -> None:
    rules = SKAT.rules({})
    ((diff, won_a, won_b, slots),) = duplicate(SKAT, 9, 0, 40, rules, "heuristic", "heuristic")
    assert not diff.any() and np.array_equal(won_a, won_b) and slots == 9
    other = SKAT.rules({"scoring": "seeger_fabian"})
    assert SKAT.options.play_rules(other) == SKAT.options.play_rules(rules)
    _, rescored = duplicate(SKAT, 9, 0, 40, rules, "heuristic", "random", [rules, other])
    (direct,) = duplicate(SKAT, 9, 0, 40, other, "heuristic", "random")
    assert np.array_equal(rescored[0], direct[0]) and np.array_equal(rescored[1], direct[1])
    assert rescored[0].mean() > 0  # the heuristic beats random on the same cards


QUALITY = dict(skill=[["heuristic", "random"]], skill_deals=60, course_deals=50, solver_deals=20)


def test_the_columns_are_the_same_whatever_the_shards(tmp_path: Path) -> None:
    def run(shard_size: int) -> pl.DataFrame:
        exp = Experiment.from_dict(dict(name=f"q{shard_size}", game="skat", deals=80, seed=4,
                                        shard_size=shard_size, policies=["heuristic"] * 3,
                                        quality=QUALITY,
                                        variants=[{"name": "sf", "rules": {"scoring": "seeger_fabian"}}]))
        root = run_experiment(exp, tmp_path, progress=False)
        return scan(root).collect().sort("variant", "deal")
    a, b = run(80), run(30)
    names = ["skill_heuristic_vs_random", "skill_won_heuristic_vs_random", *COURSE_COLUMNS]
    assert a.select(names).equals(b.select(names), null_equal=True)
    base = a.filter(pl.col("variant") == "base")
    assert base["skill_heuristic_vs_random"].is_nan().sum() == 20  # deals 60-79: not measured
    assert (base["settled_after"][50:] == -1).all() and (base["lead_changes"][50:] == -1).all()
    assert (base["settled_after"][20:50] == -1).all()  # replayed, not solved
    solved = base["settled_after"][:20]
    assert (solved >= -1).all() and (solved >= 0).sum() > 5
    sf = a.filter(pl.col("variant") == "sf")  # scored otherwise: its own skill, the same course
    assert sf.select(COURSE_COLUMNS).equals(base.select(COURSE_COLUMNS))
    assert not np.allclose(sf["skill_heuristic_vs_random"].to_numpy()[:60],
                           base["skill_heuristic_vs_random"].to_numpy()[:60])


def test_measure_gives_every_output_its_columns() -> None:
    quality = Quality.of(SKAT, QUALITY, 100)
    outs = measure(SKAT, quality, 4, 50, 30, SKAT.rules({}), ["heuristic"] * 3, [SKAT.rules({})])
    assert list(outs[0]) == list(quality.columns)
    assert all(v.shape == (30,) for v in outs[0].values())
    assert (outs[0]["settled_after"] == -1).all()  # deals 50-79 lie beyond solver_deals


@pytest.mark.parametrize("table, fragment", [
    ({"skil": []}, "unknown key 'skil'"),
    ({"skill": [["heuristic"]]}, "a pair is a list of two policy names"),
    ({"skill": [["heuristic", "nobody"]]}, "nobody"),
    ({"course_deals": 10, "solver_deals": 20}, "solver_deals must not exceed course_deals"),
    ({"course_deals": -1}, "course_deals must be a whole number"),
    ({"skill_deals": 10}, "skill_deals needs skill pairs"),
])
def test_a_bad_quality_table_is_one_line(table: dict, fragment: str, tmp_path: Path, capsys) -> None:
    with pytest.raises(ConfigError, match=fragment):
        Experiment.from_dict(dict(name="q", game="skat", deals=10, seed=1, shard_size=10,
                                  policies=["heuristic"] * 3, quality=table))
    path = tmp_path / "q.toml"
    lines = ['name = "q"', 'game = "skat"', "deals = 10", "seed = 1", "shard_size = 10",
             'policies = ["heuristic", "heuristic", "heuristic"]', "[quality]"]
    path.write_text("\n".join(lines) + "\n" + "\n".join(f"{k} = {toml(v)}" for k, v in table.items()) + "\n")
    assert main(["run", str(path), "--out", str(tmp_path / "r"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert fragment.split("'")[0] in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()


def toml(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return f'"{value}"' if isinstance(value, str) else str(value)


@pytest.mark.parametrize("name", ["skat_en_deux", "doko_skat"])
def test_every_course_is_whole_or_absent(name: str) -> None:
    """In the other games too: a measured course has a verdict for each trick solved and its
    end, settles within them, and its points after the last trick are every point in play
    (the count's side and the rest)."""
    game = find_game(name)
    rules = game.rules({})
    batch, courses = played_course(game, 2, 30, ["heuristic"] * game.n_players, solved=6)
    module = hooks(game)
    measured = [i for i, c in enumerate(courses) if c.verdicts]
    assert len(measured) >= 10
    for i in measured:
        c = courses[i]
        if i < 6:  # solved: a verdict at each trick's start (all of them where points count) and the end
            assert len(c.verdicts) == game.tricks + 1 or (c.lead_changes == -1 and len(c.verdicts) >= 2)
            assert 0 <= c.settled_after <= len(c.verdicts) - 1 and c.swings >= 0
        else:
            assert len(c.verdicts) == 1 and c.settled_after == -1
        if c.lead_changes >= 0:
            state, _ = game.card_play.start(batch.columns, i, batch.actions[i], rules)
            q = np.zeros(solver.Q_LENGTH, np.int64)
            module.question(state, q)
            assert len(c.points) == game.tricks and c.behind_at_half in (0, 1)
            assert sum(c.points[-1]) == q[solver.Q_SUM]  # every point in play, split in two
            assert c.verdicts[-1] == (c.points[-1][0] >= c.win)
    for c in courses:
        if not c.verdicts:
            assert (c.lead_changes, c.behind_at_half, c.settled_after, c.swings) == (-1, -1, -1, -1)


def test_the_information_pair_plays_by_duplicate_like_a_skill_pair() -> None:
    """``dd`` against itself: nothing gained on any deal; the deals beyond the sample NaN."""
    quality = Quality.of(SKAT, {"information": ["dd", "dd"], "information_deals": 3}, 10)
    (out,) = measure(SKAT, quality, 6, 0, 5, SKAT.rules({}), ["heuristic"] * 3, [SKAT.rules({})])
    assert list(out) == ["information", "information_won"]
    assert (out["information"][:3] == 0).all() and np.isnan(out["information"][3:]).all()

"""analysis.balance (and load.seats) on small hand-made frames whose answers are worked out
by hand below, one check of seats and start_player on real small runs of every game, and
one on a made-up game's results: analysis reads what the results say, nothing of a game.

The frames hold the columns each function reads, in the dtypes the Parquet files give them
(a game's labelled columns, e.g. ``declarer_position`` or ``winner_side``, as
categoricals), and the outcome columns the runner adds (``start_seat``, ``won_<s>``, from
the game's ``Outcome``) where the columns those read are given. Seat positions: the start
player (forehand) is ``dealer + 1``, so with three players dealer 0 puts seats 1, 2, 0 at
forehand, middlehand, rearhand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

from analysis import balance, load, report
from sim.registry import GAMES as SIM_GAMES
from sim.runner import Experiment, outcome_metadata, run_experiment

OUTCOMES = {name: load.Outcome.from_json(outcome_metadata(g)) for name, g in SIM_GAMES.items()}
"""Each game's outcome as its shards say it."""

DTYPES = {"bool": pl.Boolean, "int8": pl.Int8, "int16": pl.Int16, "int64": pl.Int64,
          "uint32": pl.UInt32, "uint64": pl.UInt64}


def game_dtypes(game: str) -> dict[str, pl.DataType]:
    """Each result column's polars dtype as a scan of the game's Parquet files gives it."""
    g = SIM_GAMES[game]
    dtypes: dict[str, Any] = {name: DTYPES[kind] for name, kind in g.columns}
    return dtypes | {name: pl.Categorical for name in g.categories}


def outcome_columns(game: str, columns: dict[str, list[Any]]) -> dict[str, list[int]]:
    """``start_seat`` and ``won_<s>`` as the runner writes them from the game's ``Outcome``,
    each where the columns it reads are given (labelled columns by their codes)."""
    g = SIM_GAMES[game]
    arrays = {k: np.array([-1 if x is None else g.categories[k].index(x) for x in v])
              if k in g.categories else np.array(v) for k, v in columns.items()}
    out: dict[str, list[int]] = {}
    try:
        out["start_seat"] = g.outcome.start_seat(arrays).tolist()
    except KeyError:
        pass
    try:
        out |= {f"won_{s}": g.outcome.seat_won(arrays, s).tolist() for s in range(g.n_players)}
    except KeyError:
        pass
    return out


def frame(game: str, columns: dict[str, list[Any]], variant: str = "base") -> pl.LazyFrame:
    """A hand-made results frame of one variant: deals 0, 1, ... with ``columns`` and the
    outcome columns worked out from them."""
    dtypes = game_dtypes(game) | {"start_seat": pl.Int8} | {f"won_{s}": pl.Int8 for s in range(3)}
    n = len(next(iter(columns.values())))
    data = {"variant": [variant] * n, "deal": list(range(n)), **columns, **outcome_columns(game, columns)}
    return pl.LazyFrame([pl.Series(k, v, dtype=dtypes.get(k, pl.String)) for k, v in data.items()])


def variants(game: str, by_variant: dict[str, dict[str, list[Any]]]) -> pl.LazyFrame:
    """Several variants of the same deals as one frame."""
    return pl.concat([frame(game, cols, name) for name, cols in by_variant.items()])


def per_seat(name: str, values: list[tuple[Any, ...]]) -> dict[str, list[Any]]:
    """Per-seat columns ``name_0``, ``name_1``, ... from one tuple per deal."""
    return {f"{name}_{s}": [v[s] for v in values] for s in range(len(values[0]))}


def row(table: pl.DataFrame, metric: str, **keys: Any) -> dict[str, Any]:
    """The one row of ``table`` for ``metric`` and the given key values."""
    found = table.filter(pl.col("metric") == metric, *[pl.col(k) == v for k, v in keys.items()])
    assert found.height == 1, (metric, keys, found)
    return found.row(0, named=True)


def check_rate(table: pl.DataFrame, metric: str, k: int, n: int, **keys: Any) -> None:
    """The row is ``k`` of ``n`` with Wilson's interval."""
    r = row(table, metric, **keys)
    assert r["n"] == n and r["value"] == pytest.approx(k / n), (metric, keys, r)
    assert (r["lo"], r["hi"]) == pytest.approx(proportion_confint(k, n, method="wilson"))


def t_interval(values: list[float] | np.ndarray) -> tuple[float, float]:
    """Student's 95 % interval of the mean of ``values`` (a point when they are all equal)."""
    x = np.asarray(values, float)
    if np.ptp(x) == 0:
        return x[0], x[0]
    return sps.t.interval(0.95, x.size - 1, x.mean(), sps.sem(x))


def check_mean(table: pl.DataFrame, metric: str, values: list[float], **keys: Any) -> None:
    """The row is the mean of ``values`` with Student's interval."""
    r = row(table, metric, **keys)
    x = np.asarray(values, float)
    assert r["n"] == x.size and r["value"] == pytest.approx(x.mean()), (metric, keys, r)
    assert (r["lo"], r["hi"]) == pytest.approx(t_interval(x))


# --- summarise ----------------------------------------------------------------------------

def test_summarise_rates_leave_nulls_out_and_means_get_t_intervals() -> None:
    data = pl.LazyFrame({"variant": ["a"] * 5 + ["b"] * 3,
                         "hit": [True, False, None, True, True, None, None, None],
                         "x": [1.0, 2.0, 4.0, 8.0, 5.0, 3.0, 3.0, 6.0]})
    table = balance.summarise(data, ["variant"], {"hit rate": ("rate", pl.col("hit")),
                                                  "mean x": ("mean", pl.col("x"))})
    assert table.columns == ["variant", "metric", "value", "lo", "hi", "n"]
    check_rate(table, "hit rate", 3, 4, variant="a")
    check_mean(table, "mean x", [1, 2, 4, 8, 5], variant="a")
    check_mean(table, "mean x", [3, 3, 6], variant="b")
    empty = row(table, "hit rate", variant="b")
    assert empty["n"] == 0 and np.isnan([empty["value"], empty["lo"], empty["hi"]]).all()


def test_summarise_refuses_an_unknown_kind() -> None:
    with pytest.raises(ValueError, match="rate or mean"):
        balance.summarise(pl.LazyFrame({"variant": ["a"], "x": [1]}), ["variant"],
                          {"x": ("median", pl.col("x"))})


# --- Skat: declared games -------------------------------------------------------------------

SKAT = {
    # deal:          0           1             2      3           4
    "dealer": [0, 1, 2, 0, 1],
    "declarer": [1, 0, -1, 0, 2],
    "declarer_position": ["forehand", "middlehand", None, "rearhand", "forehand"],
    "won": [True, False, False, True, False], "ramsch": [False] * 5,
    **per_seat("score", [(0, 24, 0), (-48, 0, 0), (0, 0, 0), (30, 0, 0), (0, 0, -36)]),
}
"""Deal 2 is thrown in; the others are declared and won or lost as ``won`` says."""


def test_start_player_skat() -> None:
    table = balance.start_player(frame("skat", SKAT), OUTCOMES["skat"])
    # forehand is seat 1, 2, 0, 1, 2; it wins deals 0 (declarer) and 1 (defender), loses 3, 4
    check_rate(table, "win rate", 2, 4, position="forehand")
    check_mean(table, "score", [24, 0, 0, 0, -36], position="forehand")
    # middlehand: seat 2, 0, 1, 2, 0: loses 0, 1 (declarer), 3, wins 4 (defender)
    check_rate(table, "win rate", 1, 4, position="middlehand")
    check_mean(table, "score", [0, -48, 0, 0, 0], position="middlehand")
    # rearhand: seat 0, 1, 2, 0, 1
    check_rate(table, "win rate", 3, 4, position="rearhand")
    check_mean(table, "score", [0, 0, 0, 30, 0], position="rearhand")
    assert table["position"].unique().sort().to_list() == ["forehand", "middlehand", "rearhand"]


def test_start_edge_skat() -> None:
    # per deal: forehand's score less the others' mean, his win less the others' mean win
    table = balance.start_edge(frame("skat", SKAT), OUTCOMES["skat"])
    check_mean(table, "score edge", [24 - 0, 0 - (-48 + 0) / 2, 0, 0 - (30 + 0) / 2, -36 - 0])
    check_mean(table, "win rate edge", [1 - 0, 1 - 1 / 2, 0, 0 - 1 / 2, 0 - 1])


def test_declarer_positions_skat() -> None:
    table = balance.declarer_positions(frame("skat", SKAT), OUTCOMES["skat"])
    # four declared games: forehand 2 (won 24, lost -36), middlehand 1 (-48), rearhand 1 (30)
    for position, games, wins, scores in (("forehand", 2, 1, [24, -36]), ("middlehand", 1, 0, [-48]),
                                          ("rearhand", 1, 1, [30])):
        check_rate(table, "share of games", games, 4, position=position)
        check_rate(table, "win rate", wins, games, position=position)
        check_mean(table, "declarer score", scores, position=position)


def test_declarer_positions_skat_en_deux() -> None:
    # two players: the dealer is rearhand, the other forehand; no middlehand
    data = frame("skat_en_deux", {
        "dealer": [0, 1, 0], "declarer": [1, 1, 0],
        "declarer_position": ["forehand", "rearhand", "rearhand"], "won": [True, False, True],
        **per_seat("score", [(0, 23), (0, -40), (18, 0)])})
    table = balance.declarer_positions(data, OUTCOMES["skat_en_deux"])
    assert set(table["position"]) == {"forehand", "rearhand"}
    check_rate(table, "share of games", 1, 3, position="forehand")
    check_rate(table, "share of games", 2, 3, position="rearhand")
    check_rate(table, "win rate", 1, 2, position="rearhand")
    check_mean(table, "declarer score", [23], position="forehand")
    check_mean(table, "declarer score", [-40, 18], position="rearhand")


# --- Skat: ramsch ---------------------------------------------------------------------------

SKAT_RAMSCH = {
    # deal 0: seat 0 loses 60 (with the skat, 10); 1: seat 1 loses 50, the skat (15) went to
    # seat 2; 2: seats 0 and 1 tie at 45 and both lose, seat 1 took the skat (4); 3: seat 1's
    # Durchmarsch; 4: a declared game; 5: all three tie at 40 and lose, seat 2 took the skat (5)
    "dealer": [0, 1, 2, 0, 1, 1],
    "declarer": [-1, -1, -1, -1, 1, -1],
    "won": [False, False, False, False, True, False],
    "ramsch": [True, True, True, True, False, True],
    "durchmarsch": [False, False, False, True, False, False],
    **per_seat("ramsch_points", [(60, 40, 20), (30, 50, 40), (45, 45, 30), (0, 120, 0), (0, 0, 0),
                                 (40, 40, 40)]),
    "ramsch_skat_points": [10, 15, 4, 7, 0, 5],
    "ramsch_last_trick": [0, 2, 1, 1, -1, 2],
    **per_seat("score", [(-60, 0, 0), (0, -50, 0), (-45, -45, 0), (0, 120, 0), (0, 24, 0),
                         (-40, -40, -40)]),
}


def test_seats_skat_ramsch() -> None:
    got = load.seats(frame("skat", SKAT_RAMSCH), OUTCOMES["skat"]).sort("deal", "seat").collect()
    assert got.columns == ["variant", "deal", "seat", "position", "score", "won"]
    # seats 0, 1, 2 at position (seat - dealer - 1) mod 3
    positions = [[2, 0, 1], [1, 2, 0], [0, 1, 2], [2, 0, 1], [1, 2, 0], [1, 2, 0]]
    # ramsch: who did not lose wins (the Durchmarsch: only its player); when all three lose
    # nobody wins; declared: the declarer's side by ``won``
    won = [[False, True, True], [True, False, True], [False, False, True], [False, True, False],
           [False, True, False], [None, None, None]]
    assert got["position"].to_list() == sum(positions, [])
    assert got["won"].to_list() == sum(won, [])
    assert got["score"].to_list() == [SKAT_RAMSCH[f"score_{s}"][d] for d in range(6) for s in range(3)]


def test_ramsch_skat() -> None:
    table = balance.ramsch(frame("skat", SKAT_RAMSCH), OUTCOMES["skat"])
    check_rate(table, "ramsch played", 5, 6)
    # a Durchmarsch has no loser: deals 0, 1, 2, 5 lose 60, 50, 45 and 40
    check_mean(table, "loser's card points", [60, 50, 45, 40])
    # the skat counts for the loser when he took the last trick (deal 1: the winner took it)
    check_mean(table, "skat's share of the loser's points", [10 / 60, 0, 4 / 45, 5 / 40])
    check_rate(table, "tie for most points (all tied lose)", 2, 5)
    check_rate(table, "Durchmarsch", 1, 5)
    # forehand (seats 1, 2, 0, -, -, 2) loses in deals 2 and 5
    check_rate(table, "forehand loses", 2, 4)


def test_ramsch_skat_to_the_loser_and_the_jungfrau() -> None:
    # the same deals with the skat to the loser (the rule column): every loser holds it; the
    # tricks per seat show a Jungfrau in deals 0 (seat 2) and 2 (seat 2), not in the
    # Durchmarsch (deal 3)
    data = {**SKAT_RAMSCH, "ramsch_skat": ["loser"] * 6,
            **per_seat("ramsch_tricks", [(6, 4, 0), (3, 4, 3), (5, 5, 0), (0, 10, 0), (0, 0, 0),
                                         (3, 4, 3)])}
    table = balance.ramsch(frame("skat", data), OUTCOMES["skat"])
    check_mean(table, "skat's share of the loser's points", [10 / 60, 15 / 50, 4 / 45, 5 / 40])
    check_rate(table, "a Jungfrau (a player without a trick; no Durchmarsch)", 2, 5)


def test_ramsch_skat_en_deux() -> None:
    # deal 0: seat 0 loses 70 + the skat's 10; 1: 55 : 55, seat 0 took the last trick and
    # loses 55 + 10; 2: a declared game
    data = frame("skat_en_deux", {
        "dealer": [0, 1, 0], "ramsch": [True, True, False],
        **per_seat("ramsch_points", [(70, 40), (55, 55), (0, 0)]),
        "ramsch_skat_points": [10, 10, 0], "ramsch_loser": [0, 0, -1],
        "ramsch_tie_last_trick": [False, True, False],
        **per_seat("score", [(-80, 0), (-65, 0), (0, 30)])})
    table = balance.ramsch(data, OUTCOMES["skat_en_deux"])
    check_rate(table, "ramsch played", 2, 3)
    check_mean(table, "loser's card points", [80, 65])
    check_mean(table, "skat's share of the loser's points", [10 / 80, 10 / 65])
    check_rate(table, "tie decided by the last trick", 1, 2)
    check_rate(table, "forehand loses", 1, 2)  # forehand is seat 1, then seat 0


# --- doko_duell -----------------------------------------------------------------------------

def duel_markers(mode: str) -> dict[str, list[Any]]:
    """Four deals scored under ``b_marker_mode`` ``mode``: deal 0 won by seat 0 with 3 VP;
    deal 1 by seat 0 with a total of -1 (v1: 1 VP, v2: seat 1 gets 1); deal 2 a draw after
    the box ran out; deal 3 won by seat 1 with a total of 0 (v1: 1 VP, v2: nobody scores)."""
    vp = [(3, 0), (1, 0), (0, 0), (0, 1)] if mode == "v1" else [(3, 0), (0, 1), (0, 0), (0, 0)]
    return {
        **per_seat("a_markers", [(1, 0), (0, 2), (0, 0), (1, 1)]),
        **per_seat("b_markers", [(2, 1), (0, 3), (6, 6), (0, 0)]),
        **per_seat("fox", [(1, 0), (0, 1), (0, 0), (0, 0)]),
        **per_seat("karlchen", [(0, 1), (0, 0), (0, 0), (0, 0)]),
        **per_seat("identical", [(1, 0), (0, 1), (2, 3), (0, 0)]),
        **per_seat("twenty_two", [(0, 0), (0, 1), (4, 3), (0, 0)]),
        **per_seat("pin", [(0, 0), (0, 0), (0, 0), (0, 0)]),
        "supply_exhausted": [False, False, True, False], "winner": [0, 0, -1, 1],
        "vp_raw": [3, -1, 0, 0], **per_seat("vp", vp)}


MARKERS = {"base": duel_markers("v1"), "v2": duel_markers("v2")}


def test_markers() -> None:
    table = balance.markers(variants("doko_duell", MARKERS))
    for variant in MARKERS:
        check_mean(table, "A markers per deal", [1, 2, 0, 2], variant=variant)
        check_mean(table, "A markers per player", [0.5, 1, 0, 1], variant=variant)
        check_mean(table, "B markers per deal", [3, 3, 12, 0], variant=variant)
        check_mean(table, "B markers per player", [1.5, 1.5, 6, 0], variant=variant)
        check_mean(table, "B events: fox", [1, 1, 0, 0], variant=variant)
        check_mean(table, "B events: identical", [1, 1, 5, 0], variant=variant)
        check_mean(table, "B events: pin", [0, 0, 0, 0], variant=variant)
        check_rate(table, "box of 12 runs out", 1, 4, variant=variant)
        # deals with a winner (0, 1, 3) by vp_raw 3, -1, 0
        check_rate(table, "total below 1 (v1 raises it)", 2, 3, variant=variant)
        check_rate(table, "total negative (v2: loser scores)", 1, 3, variant=variant)
        check_rate(table, "total zero (v2: nobody scores)", 1, 3, variant=variant)
    check_mean(table, "VP per deal", [3, 1, 0, 1], variant="base")
    check_mean(table, "VP per deal", [3, 1, 0, 0], variant="v2")


def test_vp_distribution() -> None:
    table = balance.vp_distribution(variants("doko_duell", MARKERS), variants=["v2", "base"])
    assert table["variant"].to_list() == ["v2"] * 3 + ["base"] * 3
    # VP handed out per deal: v1 3, 1, 0, 1; v2 3, 1, 0, 0
    expected = {"base": {0: 1, 1: 2, 3: 1}, "v2": {0: 2, 1: 1, 3: 1}}
    for r in table.iter_rows(named=True):
        k = expected[r["variant"]].pop(r["vp"])
        assert (r["deals"], r["n"], r["share"]) == (k, 4, pytest.approx(k / 4))
        assert (r["lo"], r["hi"]) == pytest.approx(proportion_confint(k, 4, method="wilson"))
    assert expected == {"base": {}, "v2": {}}


DUEL_TIE = {
    # deals 0 and 3 end 120 : 120; the starter (seat 1, 0, 1, 0) wins deal 1 with 3 VP and
    # loses deal 2 (2 VP); starter_loses hands deal 0 to seat 0 (1 VP), deal 3 to seat 1
    # (1 + an A marker)
    name: {"starter": [1, 0, 1, 0], "tie": [True, False, False, True], "winner": winner,
           **per_seat("vp", vp)}
    for name, winner, vp in (
        ("draw", [-1, 0, 0, -1], [(0, 0), (3, 0), (2, 0), (0, 0)]),
        ("starter_loses", [0, 0, 0, 1], [(1, 0), (3, 0), (2, 0), (0, 2)]))
}


def test_start_player_doko_duell() -> None:
    table = balance.start_player(frame("doko_duell", DUEL_TIE["draw"]), OUTCOMES["doko_duell"])
    check_rate(table, "win rate", 1, 2, position="start player")
    check_mean(table, "score", [0, 3, 0, 0], position="start player")
    check_rate(table, "win rate", 1, 2, position="other")
    check_mean(table, "score", [0, 0, 2, 0], position="other")


def test_tie_doko_duell() -> None:
    table = balance.tie(variants("doko_duell", DUEL_TIE), OUTCOMES["doko_duell"],
                        variants=["draw", "starter_loses"])
    assert table["variant"].unique(maintain_order=True).to_list() == ["draw", "starter_loses"]
    check_rate(table, "120 : 120 tie", 2, 4, variant="draw")
    check_rate(table, "tie with a winner named", 0, 2, variant="draw")
    check_mean(table, "VP per deal", [0, 3, 2, 0], variant="draw")
    check_mean(table, "score edge", [0, 3, -2, 0], variant="draw")
    check_mean(table, "win rate edge", [0, 1, -1, 0], variant="draw")
    check_rate(table, "120 : 120 tie", 2, 4, variant="starter_loses")
    check_rate(table, "tie with a winner named", 2, 2, variant="starter_loses")
    check_mean(table, "VP per deal", [1, 3, 2, 2], variant="starter_loses")
    check_mean(table, "score edge", [-1, 3, -2, -2], variant="starter_loses")
    check_mean(table, "win rate edge", [-1, 1, -1, -1], variant="starter_loses")


# --- doko_skat ------------------------------------------------------------------------------

DOKO_SKAT = {
    # deals 0-2 tie: the pair declared (the lone seat 2 scores 1), the lone player declared
    # (the pair, seats 1 and 2, score 1), nobody declared (nobody scores); deal 3 the pair
    # (0, 2) wins 3 each, deal 4 the lone seat 2 wins 4, deal 5 after a redeal the pair (1, 2)
    "dealer": [0, 1, 2, 0, 1, 2],
    "tie": [True, True, True, False, False, False],
    "declaring_side": ["pair", "lone", None, "pair", "lone", None],
    "winner_side": [None, None, None, "pair", "lone", "pair"],
    "lone": [2, 0, 1, 1, 2, 0],
    **per_seat("score", [(0, 0, 1), (0, 1, 1), (0, 0, 0), (3, 0, 3), (0, 0, 4), (0, 2, 2)]),
}


def test_start_player_doko_skat() -> None:
    table = balance.start_player(frame("doko_skat", DOKO_SKAT), OUTCOMES["doko_skat"])
    # forehand is seat 1, 2, 0, 1, 2, 0: of the decided deals 3-5 he wins only deal 4
    check_rate(table, "win rate", 1, 3, position="forehand")
    check_mean(table, "score", [0, 1, 0, 0, 4, 0], position="forehand")
    check_rate(table, "win rate", 2, 3, position="middlehand")  # seats 2, 0, 1 in deals 3-5
    check_mean(table, "score", [1, 0, 0, 3, 0, 2], position="middlehand")
    check_rate(table, "win rate", 2, 3, position="rearhand")  # seats 0, 1, 2
    check_mean(table, "score", [0, 1, 0, 3, 0, 2], position="rearhand")


def test_tie_doko_skat() -> None:
    table = balance.tie(frame("doko_skat", DOKO_SKAT), OUTCOMES["doko_skat"])
    check_rate(table, "tie", 3, 6)
    check_rate(table, "tie: a side declared (the other side scores)", 2, 3)
    # of the two ties with a declaring side, one went to each side
    check_rate(table, "tie: the lone player scores (the pair declared)", 1, 2)
    check_rate(table, "tie: the pair scores (the lone player declared)", 1, 2)
    check_mean(table, "tie: lone player's score", [1, 0, 0])
    check_mean(table, "tie: a pair member's score", [0, 1, 0])
    check_rate(table, "tie among declared games", 2, 4)


def test_tie_needs_a_tie_column() -> None:
    with pytest.raises(ValueError, match="no 120 : 120 tie"):
        balance.tie(frame("skat", SKAT), OUTCOMES["skat"])


# --- sweeps ---------------------------------------------------------------------------------

def duel_edges(edges: list[int]) -> dict[str, list[Any]]:
    """Duel deals (starter 1, 0, 1, ...) in which the starter's VP less the other's are
    ``edges``: the one ahead wins, 0 is a draw."""
    starter = [(d + 1) % 2 for d in range(len(edges))]
    vp = [(max(e, 0), max(-e, 0)) if s == 0 else (max(-e, 0), max(e, 0)) for e, s in zip(edges, starter)]
    winner = [-1 if e == 0 else s if e > 0 else 1 - s for e, s in zip(edges, starter)]
    return {"starter": starter, "winner": winner, **per_seat("vp", vp)}


SWEEP_EDGES = {"base": [5, 4, 6, 5], "a": [0, -1, 2, -1], "b": [1, 0, 2, 1]}


def test_sweep_and_fairest() -> None:
    data = variants("doko_duell", {k: duel_edges(e) for k, e in SWEEP_EDGES.items()})
    table = balance.sweep(data, OUTCOMES["doko_duell"], "start_edge", variants=["base", "a", "b"])
    assert table["variant"].to_list() == ["base", "a", "b"]
    assert set(table["measure"]) == {"start_edge"} and set(table["fair"]) == {0.0}
    for r in table.iter_rows(named=True):
        x = np.array(SWEEP_EDGES[r["variant"]], float)
        d = x - np.array(SWEEP_EDGES["base"], float)
        assert r["n"] == 4 and (r["value"], r["distance"]) == pytest.approx((x.mean(), abs(x.mean())))
        assert (r["lo"], r["hi"]) == pytest.approx(t_interval(x))
        assert (r["diff"], r["diff_lo"], r["diff_hi"]) == pytest.approx((d.mean(), *t_interval(d)))
    # a (mean 0) is fairest; with four deals a's own interval (-2.25, 2.25) is so wide that
    # even base, 5 higher on the same deals ([3.70, 6.30]), may lie as close to 0 (a at
    # -2.25, base 3.70 above it: 1.45 from 0): nobody is surely farther
    assert balance.fairest_paired(table) == ("a", ["base", "b"])


def test_sweep_pairs_the_deals() -> None:
    # the start edge swings by +-20 from deal to deal; "shift" takes 1 off it (2 off once)
    base = [20, -20, 18, -18, 22, -22, 16, -16]
    shift = [e - 1 for e in base]
    shift[0] -= 1
    data = variants("doko_duell", {"base": duel_edges(base), "shift": duel_edges(shift)})
    r = balance.sweep(data, OUTCOMES["doko_duell"]).row(1, named=True)
    assert r["variant"] == "shift" and r["diff"] == pytest.approx(-9 / 8)
    assert r["diff_lo"] < r["diff_hi"] < 0, "the paired interval excludes 0"
    assert r["unpaired_lo"] < 0 < r["unpaired_hi"], "independent deals could not tell"


# --- real runs ------------------------------------------------------------------------------

def won_by_hand(cols: dict[str, np.ndarray], game: str, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Per deal: whether anybody won, and whether ``seat``'s side did, from the columns."""
    if game == "doko_duell":
        return cols["winner"] >= 0, cols["winner"] == seat
    if game == "doko_skat":
        side = np.where(cols["lone"] == seat, "lone", "pair")
        return cols["winner_side"] != None, cols["winner_side"] == side  # noqa: E711
    n = SIM_GAMES[game].n_players
    scores = np.stack([cols[f"score_{s}"] for s in range(n)])
    best = scores.max(axis=0)
    ramsch_won = (scores[seat] == best) & (best >= 0)
    declared_won = (cols["declarer"] == seat) == cols["won"]
    decided = (cols["ramsch"] & (best >= 0)) | (~cols["ramsch"] & (cols["declarer"] >= 0))
    return decided, np.where(cols["ramsch"], ramsch_won, declared_won)


def start_player_by_hand(cols: dict[str, np.ndarray], game: str) -> list[tuple[int, int, float]]:
    """Per position: deals with a winner, the seat's wins and its mean score, from the columns."""
    n = SIM_GAMES[game].n_players
    start = cols["starter"] if game == "doko_duell" else (cols["dealer"].astype(int) + 1) % n
    prefix = "vp" if game == "doko_duell" else "score"
    out = []
    for p in range(n):
        seat = (start + p) % n
        decided, wins = np.zeros(seat.size, bool), np.zeros(seat.size, bool)
        for s in range(n):
            d, w = won_by_hand(cols, game, s)
            decided |= d & (seat == s)
            wins |= d & w & (seat == s)
        score = np.choose(seat, [cols[f"{prefix}_{s}"] for s in range(n)])
        out.append((int(decided.sum()), int(wins.sum()), float(score.mean())))
    return out


REAL_RUNS = {
    "skat": ["heuristic", "heuristic", "random"],
    "skat_en_deux": ["random", "heuristic"],
    "doko_duell": ["heuristic", "random"],
    "doko_skat": ["heuristic", "random", "heuristic"],
}


@pytest.mark.parametrize("game", list(REAL_RUNS))
def test_seats_and_start_player_on_a_real_run(game: str, tmp_path: Path) -> None:
    exp = Experiment.from_dict({
        "name": "small", "game": game, "deals": 60, "seed": 5, "shard_size": 25,
        "policies": REAL_RUNS[game],
        "variants": [{"name": "ramsch", "rules": {"all_pass": "ramsch"}}] if game == "skat" else []})
    root = run_experiment(exp, tmp_path, progress=False)
    data, outcome = load.scan(root), load.read_outcome(root)
    assert outcome == OUTCOMES[game]
    n = SIM_GAMES[game].n_players
    n_variants = 2 if game == "skat" else 1
    rows = load.seats(data, outcome).collect()
    assert rows.height == 60 * n * n_variants
    per_deal = rows.group_by("variant", "deal").agg(pl.col("position").sort(), pl.col("seat").sort())
    assert per_deal.height == 60 * n_variants
    assert per_deal["position"].to_list() == per_deal["seat"].to_list() == [list(range(n))] * per_deal.height

    table = balance.start_player(data, outcome)
    for (variant,), part in data.collect().partition_by("variant", as_dict=True).items():
        cols = {c: part[c].cast(pl.String).to_numpy() if part[c].dtype == pl.Categorical
                else part[c].to_numpy() for c in part.columns}
        for name, (decided, wins, score) in zip(load.POSITIONS[n], start_player_by_hand(cols, game)):
            rate = row(table, "win rate", variant=variant, position=name)
            assert (rate["n"], round(rate["value"] * rate["n"])) == (decided, wins)
            mean = row(table, "score", variant=variant, position=name)
            assert (mean["n"], mean["value"]) == (60, pytest.approx(score))


# --- a game analysis has never heard of -----------------------------------------------------

MADE_UP = {"players": 3, "score": ["pips_0", "pips_1", "pips_2"], "unit": "pips", "start": "leader",
           "won": ["took_0", "took_1", "took_2"]}
"""A three-player game's outcome, with column names of its own."""


def made_up_results(root: Path) -> Path:
    """A results folder of a made-up game, written by hand: two variants of four deals, the
    outcome in the metadata, no column any real game has but ``deal``."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "experiment.json").write_text(json.dumps({"config": {
        "name": "trio", "game": "trio", "deals": 4, "seed": 1, "shard_size": 4,
        "policies": ["greedy"] * 3, "rules": {"pips_per_trick": 1},
        "variants": [{"name": "double", "rules": {"pips_per_trick": 2}, "policies": ["greedy"] * 3}]}}))
    for variant, scale in (("base", 1), ("double", 2)):
        folder = root / "game=trio" / f"variant={variant}"
        folder.mkdir(parents=True)
        # deal:                  0  1   2  3 (3: nobody won)
        columns = {"deal": [0, 1, 2, 3], "leader": [0, 1, 2, 0],
                   "pips_0": [5, 0, 1, 0], "pips_1": [0, 4, 1, 0], "pips_2": [1, 0, 6, 0],
                   "took_0": [1, 0, 0, -1], "took_1": [0, 1, 0, -1], "took_2": [0, 0, 1, -1]}
        arrays = {k: pa.array([x * scale if k.startswith("pips") else x for x in v], pa.int8())
                  for k, v in columns.items()}
        table = pa.table(arrays).replace_schema_metadata({"stichsim.outcome": json.dumps(MADE_UP)})
        pq.write_table(table, folder / "shard=00000.parquet")
    return root


def test_a_made_up_games_results_answer_the_start_player_question(tmp_path: Path) -> None:
    root = made_up_results(tmp_path)
    outcome = load.read_outcome(root)
    assert outcome == load.Outcome(3, ("pips_0", "pips_1", "pips_2"), "pips", "leader",
                                   ("took_0", "took_1", "took_2"))
    frame = load.scan(root)
    rows = load.seats(frame, outcome).filter(variant="base").sort("deal", "seat").collect()
    assert rows["position"].to_list() == [0, 1, 2, 2, 0, 1, 1, 2, 0, 0, 1, 2]
    assert rows["won"].to_list() == [True, False, False, False, True, False, False, False, True,
                                     None, None, None]
    table = balance.start_player(frame, outcome)
    # the leader won deals 0-2 with 5, 4 and 6 pips (twice that in ``double``); deal 3: nobody
    for variant, scale in (("base", 1), ("double", 2)):
        check_rate(table, "win rate", 3, 3, variant=variant, position="forehand")
        check_mean(table, "score", [5 * scale, 4 * scale, 6 * scale, 0], variant=variant, position="forehand")
        check_rate(table, "win rate", 0, 3, variant=variant, position="middlehand")
        check_mean(table, "score", [0, 0, 1 * scale, 0], variant=variant, position="middlehand")
    edge = balance.start_edge(frame, outcome)
    check_mean(edge, "score edge", [5 - 0.5, 4, 6 - 1, 0], variant="base")
    assert report.applicable(frame.collect_schema().names()) == ["start_player", "sweep"]


def test_a_made_up_games_report(tmp_path: Path) -> None:
    index = report.build(made_up_results(tmp_path / "results"), tmp_path / "report")
    summary = (index.parent / "summary.md").read_text()
    assert "## Start-player advantage" in summary and "## Rule options compared" in summary
    assert "Forehand (the start player) wins 100.0 %" in summary and "pips per deal" in summary
    assert {p.name for p in index.parent.glob("*.png")} == {"start_player.png", "start_edge.png", "sweep.png"}


def test_results_that_do_not_say_their_outcome(tmp_path: Path) -> None:
    root = made_up_results(tmp_path)
    shard = root / "game=trio" / "variant=double" / "shard=00000.parquet"
    pq.write_table(pq.read_table(shard).replace_schema_metadata(None), shard)
    with pytest.raises(load.OutcomeMissing, match="does not say how its deals came out"):
        load.read_outcome(root)

"""The shards' outcome columns (``start_seat``, ``won_<s>``, from each game's ``Outcome``) say
what ``analysis.load`` worked out in polars before they existed: the same start seat and the
same winner per deal and seat on small runs of every game, scoring-only variants included."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analysis import load
from sim.runner import Experiment, run_experiment

RUNS = {
    "skat": (["heuristic", "heuristic", "random"],
             [{"name": "ramsch", "rules": {"all_pass": "ramsch"}},
              {"name": "lost-1", "rules": {"lost_factor": 1}}]),
    "skat_en_deux": (["random", "heuristic"], [{"name": "ramsch", "rules": {"all_pass": "ramsch"}}]),
    "doko_duell": (["heuristic", "random"],
                   [{"name": "starter-loses", "rules": {"tie_rule": "starter_loses"}},
                    {"name": "v2", "rules": {"b_marker_mode": "v2"}}]),
    "doko_skat": (["heuristic", "random", "heuristic"], [{"name": "zero-sum", "rules": {"zero_sum": True}}]),
}


@pytest.mark.parametrize("game", list(RUNS))
def test_outcome_columns_agree_with_the_old_polars_expressions(game: str, tmp_path: Path) -> None:
    policies, variants = RUNS[game]
    exp = Experiment.from_dict({"name": "agree", "game": game, "deals": 400, "seed": 7,
                                "shard_size": 150, "policies": policies, "variants": variants})
    frame = load.scan(run_experiment(exp, tmp_path, progress=False))
    spec = load.GAMES[game]
    n = spec.n_players
    old = frame.select("variant", "deal", start=spec.start().cast(pl.Int64),
                       **{f"old_{s}": spec.won(s) for s in range(n)},
                       **{f"won_{s}": pl.col(f"won_{s}") for s in range(n)},
                       start_seat=pl.col("start_seat")).collect()
    assert old.height == 400 * (1 + len(variants))
    assert (old["start"] == old["start_seat"].cast(pl.Int64)).all()
    for s in range(n):
        expected = old[f"old_{s}"].cast(pl.Int8).fill_null(-1)
        assert (expected == old[f"won_{s}"]).all(), (game, s)
        assert set(old[f"won_{s}"].unique()) <= {-1, 0, 1}
    # every value turns up somewhere: winners, losers, and (but in Doko-Skat) deals nobody won
    assert {1, 0} <= set(old["won_0"].unique())

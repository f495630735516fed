"""Reading results: an experiment's shards as one lazy polars frame, and each game's
deals as one row per seat.

A results folder is what ``stichsim run`` writes: ``<root>/experiment.json`` and
``<root>/game=<game>/variant=<variant>/shard=NNNNN.parquet``. ``scan`` reads every shard
lazily (nothing is loaded until ``collect``) and adds ``experiment``, ``game_id`` and
``variant`` columns (a Skat row already has a ``game`` column: the game declared);
``scan_results`` does it for every experiment under a results root, one frame per game.
``seats`` turns a game's rows into one row per deal and seat with the same meaning in
every game: the seat's ``position`` (0 = the start player), its ``score`` and whether
its side ``won`` (null where nobody won), so one balance function serves all four games.

>>> GAMES["doko_duell"].n_players
2
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

EXPERIMENT_FILE = "experiment.json"


class ResultsNotFound(FileNotFoundError):
    """A folder without the results an analysis asked for."""


@dataclass(frozen=True)
class GameSpec:
    """What the analysis needs to know of a game's result columns."""

    n_players: int
    score: str
    """Per-seat score column prefix (``score_0`` ...)."""
    start: Callable[[], pl.Expr]
    """The start player's seat (who leads the first trick)."""
    won: Callable[[int], pl.Expr]
    """Whether seat ``s``'s side won the deal (null: nobody won)."""


def _forehand(n: int) -> Callable[[], pl.Expr]:
    return lambda: (pl.col("dealer") + 1) % n


def _skat_won(seat: int) -> pl.Expr:
    """Declared: the declarer's side by ``won``; ramsch: the best score (not a loser, or the
    Durchmarsch; nobody when all three tie and lose); thrown in: nobody."""
    declared = pl.col("declarer") >= 0
    best = pl.max_horizontal(pl.col("^score_[0-9]$"))
    return (pl.when(pl.col("ramsch") & (best >= 0)).then(pl.col(f"score_{seat}") == best)
            .when(pl.col("ramsch")).then(None)
            .when(declared).then((pl.col("declarer") == seat) == pl.col("won"))
            .otherwise(None))


def _duel_won(seat: int) -> pl.Expr:
    return pl.when(pl.col("winner") >= 0).then(pl.col("winner") == seat).otherwise(None)


def _doko_skat_won(seat: int) -> pl.Expr:
    side = pl.when(pl.col("lone") == seat).then(pl.lit("lone")).otherwise(pl.lit("pair"))
    return (pl.when(pl.col("winner_side").is_not_null())
            .then(pl.col("winner_side").cast(pl.String) == side).otherwise(None))


GAMES: dict[str, GameSpec] = {
    "skat": GameSpec(3, "score", _forehand(3), _skat_won),
    "skat_en_deux": GameSpec(2, "score", _forehand(2), _skat_won),
    "doko_duell": GameSpec(2, "vp", lambda: pl.col("starter"), _duel_won),
    "doko_skat": GameSpec(3, "score", _forehand(3), _doko_skat_won),
}
"""The games the analysis knows, by id."""

POSITIONS = {2: ("start player", "other"), 3: ("forehand", "middlehand", "rearhand")}
"""Names of the positions 0, 1, 2 by number of players."""


def experiment_info(root: str | Path) -> dict[str, Any]:
    """The experiment's normalised config (``experiment.json``): name, game, deals, seed,
    policies, rules and variants (each with its rules and policies), ``base`` included
    first under ``variant_list``."""
    path = Path(root) / EXPERIMENT_FILE
    try:
        doc = json.loads(path.read_text())
    except FileNotFoundError:
        raise ResultsNotFound(f"{root}: no results here (no {EXPERIMENT_FILE}); run the "
                              f"experiment first") from None
    config = dict(doc["config"])
    config["variant_list"] = [{"name": "base", "rules": config["rules"],
                               "policies": config["policies"]}] + list(config["variants"])
    return config


def scan(root: str | Path) -> pl.LazyFrame:
    """Every shard of the experiment in ``root`` as one lazy frame, with ``experiment``,
    ``game_id`` and ``variant`` columns."""
    root = Path(root)
    info = experiment_info(root)
    files = sorted(root.glob(f"game={info['game']}/variant=*/shard=*.parquet"))
    if not files:
        raise ResultsNotFound(f"{root}: no shard files yet; run the experiment first")
    frames = [pl.scan_parquet(f, hive_partitioning=False).with_columns(
        experiment=pl.lit(info["name"]), game_id=pl.lit(info["game"]),
        variant=pl.lit(f.parent.name.removeprefix("variant=")))
        for f in files]
    return pl.concat(frames, how="vertical_relaxed")


def scan_results(results: str | Path = "results") -> dict[str, pl.LazyFrame]:
    """Every experiment under a results root, one lazy frame per game (experiments of one
    game stacked; ``experiment`` and ``variant`` tell them apart). Games keep separate
    frames because their columns differ."""
    by_game: dict[str, list[pl.LazyFrame]] = {}
    for info_file in sorted(Path(results).glob(f"*/{EXPERIMENT_FILE}")):
        root = info_file.parent
        if any(root.glob("game=*/variant=*/shard=*.parquet")):
            by_game.setdefault(experiment_info(root)["game"], []).append(scan(root))
    if not by_game:
        raise ResultsNotFound(f"{results}: no experiment results here")
    return {game: pl.concat(frames, how="diagonal_relaxed") for game, frames in by_game.items()}


def seats(frame: pl.LazyFrame, game: str) -> pl.LazyFrame:
    """One row per deal and seat: ``variant``, ``deal``, ``seat``, ``position`` (0 = the
    start player, then in playing order), ``score`` and ``won``."""
    spec = GAMES[game]
    n = spec.n_players
    per_seat = [frame.select(
        "variant", "deal", pl.lit(s, pl.Int8).alias("seat"),
        ((pl.lit(s) - spec.start()) % n).cast(pl.Int8).alias("position"),
        pl.col(f"{spec.score}_{s}").cast(pl.Float64).alias("score"),
        spec.won(s).alias("won"))
        for s in range(n)]
    return pl.concat(per_seat)

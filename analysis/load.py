"""Reading results: an experiment's shards as one lazy polars frame, how its deals came
out, and each deal as one row per seat.

A results folder is what ``stichsim run`` writes: ``<root>/experiment.json`` and
``<root>/game=<game>/variant=<variant>/shard=NNNNN.parquet``. ``scan`` reads every shard
lazily (nothing is loaded until ``collect``) and adds ``experiment``, ``game_id`` and
``variant`` columns (a Skat row already has a ``game`` column: the game declared);
``scan_results`` does it for every experiment under a results root, one frame per game.

Every shard says how its deals came out in the same terms for every game: its
``stichsim.outcome`` metadata names the per-seat score columns and what they count, the
column of the seat that leads the first trick and the per-seat columns of who won (1 won,
0 lost, -1 nobody won). ``read_outcome`` reads it as an ``Outcome``; ``seats`` turns the rows
into one row per deal and seat with the same meaning in every game: the seat's
``position`` (0 = the start player), its ``score`` and whether its side ``won`` (null
where nobody won), so one balance function serves every game, and a question applies to
a game whose results have the columns it reads.

>>> text = ('{"players": 2, "score": ["vp_0", "vp_1"], "unit": "VP", "start": "start_seat",'
...         ' "won": ["won_0", "won_1"]}')
>>> Outcome.from_json(text).per_deal
'VP per deal'
>>> POSITIONS[Outcome.from_json(text).players]
('start player', 'other')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq

EXPERIMENT_FILE = "experiment.json"
OUTCOME_KEY = "stichsim.outcome"
"""The shards' metadata key of their ``Outcome`` (JSON)."""


class ResultsNotFound(FileNotFoundError):
    """A folder without the results an analysis asked for."""


class OutcomeMissing(ResultsNotFound):
    """Shards that do not say how their deals came out (no ``stichsim.outcome`` metadata:
    written before stichsim wrote it), or disagree about it."""


@dataclass(frozen=True)
class Outcome:
    """How an experiment's deals came out, as its shards say (``stichsim.outcome``)."""

    players: int
    score: tuple[str, ...]
    """Each seat's score column (``score_0`` ... or the duel's ``vp_0`` ...)."""
    unit: str
    """What a score counts: ``points``, ``VP``."""
    start: str
    """The column of the seat that leads the first trick (the start player)."""
    won: tuple[str, ...]
    """Each seat's column of whether its side won: 1 won, 0 lost, -1 nobody won."""

    @classmethod
    def from_json(cls, text: str | bytes) -> Outcome:
        doc = json.loads(text)
        players = int(doc["players"])
        outcome = cls(players, tuple(doc["score"]), str(doc["unit"]), str(doc["start"]), tuple(doc["won"]))
        if players < 2 or len(outcome.score) != players or len(outcome.won) != players:
            raise ValueError(f"an outcome of {players} players needs a score and a won column for "
                             f"each: {text!r}")
        return outcome

    @property
    def columns(self) -> tuple[str, ...]:
        """Every column the outcome reads."""
        return (*self.score, self.start, *self.won)

    @property
    def per_deal(self) -> str:
        """What a mean score is counted in: ``points per deal``, ``VP per deal``."""
        return f"{self.unit} per deal"

    def start_seat(self) -> pl.Expr:
        """The start player's seat."""
        return pl.col(self.start)

    def score_of(self, seat: int) -> pl.Expr:
        """Seat ``seat``'s score (float)."""
        return pl.col(self.score[seat]).cast(pl.Float64)

    def won_by(self, seat: int) -> pl.Expr:
        """Whether seat ``seat``'s side won the deal (null: nobody won)."""
        won = pl.col(self.won[seat])
        return pl.when(won >= 0).then(won == 1).otherwise(None)


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
    config["restrictions"] = doc.get("restrictions", {})
    return config


def _shards(root: Path, info: dict[str, Any]) -> list[Path]:
    files = sorted(root.glob(f"game={info['game']}/variant=*/shard=*.parquet"))
    if not files:
        raise ResultsNotFound(f"{root}: no shard files yet; run the experiment first")
    return files


def _outcome_of(files: list[Path]) -> Outcome:
    """The ``Outcome`` the shard ``files`` say: each file's metadata, which must agree."""
    said: dict[bytes | None, Path] = {}
    for f in files:
        said.setdefault((pq.read_metadata(f).metadata or {}).get(OUTCOME_KEY.encode()), f)
    if None in said:
        raise OutcomeMissing(f"{said[None]}: the shard does not say how its deals came out (no "
                             f"{OUTCOME_KEY} metadata: written by an older stichsim); run the "
                             f"experiment again (--force)")
    if len(said) > 1:
        first, other = list(said.values())[:2]
        raise OutcomeMissing(f"{first} and {other} disagree on how their deals came out ({OUTCOME_KEY})")
    return Outcome.from_json(next(k for k in said if k is not None))


def read_outcome(root: str | Path) -> Outcome:
    """How the deals of the experiment in ``root`` came out, as its shards say (each
    shard's metadata; they must agree)."""
    root = Path(root)
    return _outcome_of(_shards(root, experiment_info(root)))


def scan(root: str | Path) -> pl.LazyFrame:
    """Every shard of the experiment in ``root`` as one lazy frame, with ``experiment``,
    ``game_id`` and ``variant`` columns."""
    root = Path(root)
    info = experiment_info(root)
    files = _shards(root, info)
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


def seats(frame: pl.LazyFrame, outcome: Outcome) -> pl.LazyFrame:
    """One row per deal and seat: ``variant``, ``deal``, ``seat``, ``position`` (0 = the
    start player, then in playing order), ``score`` and ``won``, as ``outcome`` reads them."""
    n = outcome.players
    per_seat = [frame.select(
        "variant", "deal", pl.lit(s, pl.Int8).alias("seat"),
        ((pl.lit(s) - outcome.start_seat()) % n).cast(pl.Int8).alias("position"),
        outcome.score_of(s).alias("score"),
        outcome.won_by(s).alias("won"))
        for s in range(n)]
    return pl.concat(per_seat)

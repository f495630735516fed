"""The engine plays as it did: every Parquet column identical to files written before.

``tests/golden/engine/results`` was written by the engine before the card-play-state
refactor (issue 13) from the experiments beside it (Skat-en-deux's again at rules revision
3, issue 14, whose rule changes change its deals), which between them set every rule
option to a non-default value and mix heuristic and random seats. Each is played again
here; every column of every committed shard must come back identical (a column added
since is allowed, and an integer column widened since, such as the duel's VP columns for
issue 17's numbers, with every value as it was). The metadata (version, source hash) is not
compared.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sim.runner import Experiment, run_experiment

ENGINE = Path(__file__).resolve().parent / "golden" / "engine"
EXPERIMENTS = sorted(ENGINE.glob("*.toml"))


@pytest.mark.parametrize("toml", EXPERIMENTS, ids=[p.stem for p in EXPERIMENTS])
def test_every_column_as_before(toml: Path, tmp_path: Path) -> None:
    exp = Experiment.load(toml)
    run_experiment(exp, tmp_path, jobs=1, progress=False)
    before = sorted((ENGINE / "results" / exp.name).rglob("*.parquet"))
    assert len(before) >= 4
    for old_path in before:
        rel = old_path.relative_to(ENGINE / "results")
        old = pq.read_table(old_path)
        new = pq.read_table(tmp_path / rel)
        assert new.num_rows == old.num_rows, rel
        for name in old.column_names:
            assert name in new.column_names, f"{rel}: column {name} is gone"
            was, now = old.column(name), new.column(name)
            if now.type != was.type:
                assert widened(was.type, now.type), f"{rel}: {name} type {was.type} -> {now.type}"
                was = was.cast(now.type)
            assert now.equals(was), f"{rel}: column {name} differs"


def widened(was: pa.DataType, now: pa.DataType) -> bool:
    """Whether ``now`` is a signed integer type wider than the signed integer type ``was``."""
    return (pa.types.is_signed_integer(was) and pa.types.is_signed_integer(now)
            and now.bit_width > was.bit_width)

"""Shards on a Dask cluster: the same files, byte for byte, as on the local process pool."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim import cluster
from sim.cli import main
from sim.runner import Experiment, run_experiment

EXPERIMENT = """\
name = "dask"
game = "skat"
deals = 3000
seed = 7
shard_size = 1000
policies = ["heuristic", "heuristic", "random"]

[[variants]]
name = "ramsch"
rules = { all_pass = "ramsch" }

[[variants]]
name = "lost-factor-1"
rules = { lost_factor = 1 }
"""
"""3 shards x 3 variants: one that plays differently (ramsch), one only re-scored."""


def all_files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by relative path, with its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def cli(capsys, *argv: object) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status: int, err: str, fragment: str) -> None:
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("stichsim: error: "), err
    assert fragment in err, err


@pytest.fixture(scope="module")
def config(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("config") / "dask.toml"
    path.write_text(EXPERIMENT)
    return path


@pytest.fixture(scope="module")
def local(config, tmp_path_factory) -> dict[str, bytes]:
    """The experiment's files from the default local backend."""
    out = tmp_path_factory.mktemp("local")
    files = all_files(run_experiment(Experiment.load(config), out, jobs=2, progress=False))
    assert len(files) == 1 + 3 * 3
    return files


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of an in-process Dask cluster with 2 single-threaded workers (quick to
    start; two workers in one process also show that shards are safe on threads)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address="127.0.0.1:0",
                                  scheduler_kwargs={"dashboard": False}) as local_cluster:
        yield local_cluster.scheduler_address


def closed_port() -> int:
    """A local TCP port that nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_scheduler_run_equals_local_run(config, local, scheduler, tmp_path) -> None:
    with cluster.joblib_backend("dask", scheduler) as backend:
        root = run_experiment(Experiment.load(config), tmp_path, jobs=2, progress=False,
                              backend=backend)
    assert all_files(root) == local


def test_cli_local_cluster_equals_local_run(capsys, config, local, tmp_path) -> None:
    pytest.importorskip("distributed")
    status, out, _ = cli(capsys, "run", config, "--out", tmp_path, "--jobs", "2", "--no-progress",
                         "--backend", "dask")
    assert status == 0 and "dask: 3,000 deals x 3 variants" in out
    assert all_files(tmp_path / "dask") == local


@pytest.mark.parametrize("command", ["run", "report"])
def test_missing_extra_is_one_line(capsys, monkeypatch, config, tmp_path, command) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    where = "--out" if command == "run" else "--results"
    status, _, err = cli(capsys, command, config, where, tmp_path / "res", "--backend", "dask")
    assert_one_line_error(status, err, "install stichsim[dask]")
    assert not (tmp_path / "res").exists()


def test_unreachable_scheduler_is_one_line(capsys, monkeypatch, config, tmp_path) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 1)
    address = f"tcp://127.0.0.1:{closed_port()}"
    status, _, err = cli(capsys, "run", config, "--out", tmp_path / "res", "--backend", "dask",
                         "--scheduler", address)
    assert_one_line_error(status, err, f"cannot reach the Dask scheduler at {address}")
    assert not (tmp_path / "res").exists()


@pytest.mark.parametrize("command", ["run", "report"])
def test_scheduler_needs_dask_backend(capsys, config, tmp_path, command) -> None:
    status, _, err = cli(capsys, command, config, "--scheduler", "tcp://127.0.0.1:8786")
    assert_one_line_error(status, err, "--scheduler needs --backend dask")


def test_unknown_backend_is_a_usage_error(capsys, config) -> None:
    status, _, err = cli(capsys, "run", config, "--backend", "spark")
    assert_one_line_error(status, err, "invalid choice: 'spark'")

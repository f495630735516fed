"""Where the shards run: joblib's local process pool, or a Dask cluster.

``--backend local`` (the default) plays the shards in a loky process pool on this
machine. ``--backend dask`` hands them to joblib's Dask backend: on the cluster whose
scheduler is ``--scheduler tcp://HOST:8786``, or without it on a local cluster of
``--jobs`` worker processes started here and closed afterwards. Every worker writes
its own shard files (so the results folder must be the same path on every machine)
and the files are byte-identical whatever the backend. Dask is an optional extra
(``pip install 'stichsim[dask]'``) imported only when it is asked for.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from types import ModuleType

from sim.errors import StichsimError

BACKENDS = ("local", "dask")
"""Values of ``--backend``: the first is the default."""

CONNECT_TIMEOUT_S = 5
"""How long to try reaching a ``--scheduler`` before giving up."""


class ClusterError(StichsimError):
    """A backend that cannot be used: Dask not installed, a scheduler out of reach."""


def _distributed() -> ModuleType:
    """The ``distributed`` package, or a ``ClusterError`` saying how to install it."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise ClusterError("--backend dask needs Dask: install stichsim[dask] "
                           "(pip install 'stichsim[dask]')") from None


@contextlib.contextmanager
def _local_cluster(distributed: ModuleType, workers: int) -> Iterator[object]:
    """A Dask cluster of ``workers`` single-threaded processes on this machine, closed after."""
    # no dashboard, and the scheduler's HTTP server on a free local port, not 8787
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address="127.0.0.1:0",
                                  scheduler_kwargs={"dashboard": False}) as cluster:
        yield cluster


def _client(distributed: ModuleType, address: object) -> contextlib.AbstractContextManager[object]:
    """A Dask client of ``address`` (a scheduler address or a cluster)."""
    try:
        client: contextlib.AbstractContextManager[object] = distributed.Client(
            address, timeout=CONNECT_TIMEOUT_S)
        return client
    except (OSError, TimeoutError, ValueError) as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {address} ({e})") from None


@contextlib.contextmanager
def joblib_backend(backend: str, scheduler: str | None = None, jobs: int = 1) -> Iterator[str | None]:
    """The ``backend`` argument of ``run_experiment`` for ``backend`` (``"local"`` or
    ``"dask"``), valid while inside.

    With ``"dask"`` a client of ``scheduler`` (or of a local cluster of ``jobs`` worker
    processes, started here) is the default Dask client and joblib's configured backend
    while inside (``None`` is yielded: use the configured one), and both are closed on the
    way out. Errors reaching the cluster are raised before anything is yielded.
    """
    if backend not in BACKENDS:
        raise ClusterError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if backend == "local":
        if scheduler is not None:
            raise ClusterError("--scheduler needs --backend dask")
        yield "loky"
        return
    import joblib

    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        address = scheduler if scheduler is not None else stack.enter_context(
            _local_cluster(distributed, jobs))
        stack.enter_context(_client(distributed, address))
        # configured, not named in Parallel: joblib 1.6 passes a named Dask backend a
        # nesting_level that ends up as an argument of every task
        stack.enter_context(joblib.parallel_config(backend="dask"))
        yield None


__all__ = ["BACKENDS", "CONNECT_TIMEOUT_S", "ClusterError", "joblib_backend"]

"""The Dask path with a real ``LocalCluster`` (processes): ``--scheduler`` and ``--cluster``."""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from distributed import Client, LocalCluster

from nimlab.errors import NimlabError
from nimlab.store import ResultStore, current_version
from nimlab.sweeps import (
    DaskExecutor,
    TaskOutcome,
    octal_task,
    parse_codes,
    run_sweep,
    scoring_task,
)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A real two-process Dask cluster, closed after the module's tests."""
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as cluster:
        yield str(cluster.scheduler_address)


def test_sweep_through_a_scheduler(cli: Any, tmp_path: Path, scheduler: str) -> None:
    store = str(tmp_path / "r.sqlite")
    args = ("--store", store, "--scheduler", scheduler, "--json")
    r = cli("sweep", "scoring", "--piles", "2", "--max", "4", *args)
    assert r.code == 0, r.err
    summary = r.json()
    assert (summary["total"], summary["computed"], summary["failed"]) == (10, 10, 0)
    assert (summary["executor"], summary["workers"]) == ("dask", 2)
    grundy = cli("sweep", "grundy", "--codes", "0.07,0.137", "--upto", "100", *args)
    assert grundy.json()["computed"] == 2
    again = cli("sweep", "scoring", "--piles", "2", "--max", "4", *args)
    assert (again.json()["computed"], again.json()["skipped"]) == (0, 10)
    with ResultStore(store) as opened:
        assert opened.count() == 12
        stored = opened.get("scoring(4,2)")
    assert stored is not None
    assert {**stored.payload, "cached": False} == cli("scoring", "4", "2", "--json").json()


def test_same_results_as_the_local_pool(cli: Any, tmp_path: Path, scheduler: str) -> None:
    local, dask = str(tmp_path / "local.sqlite"), str(tmp_path / "dask.sqlite")
    sweep = ("sweep", "grundy", "--codes", "0.4..0.7", "--upto", "60", "--json")
    assert cli(*sweep, "--store", local, "--workers", "1").code == 0
    assert cli(*sweep, "--store", dask, "--scheduler", scheduler).code == 0
    with ResultStore(local) as a, ResultStore(dask) as b:
        assert {r.spec: r.payload for r in a.results()} == {r.spec: r.payload for r in b.results()}


def test_unreachable_scheduler() -> None:
    executor = DaskExecutor("tcp://127.0.0.1:9", connect_timeout=0.5)
    with pytest.raises(NimlabError, match="no Dask scheduler answers at"), executor:
        pass


def test_a_failing_task_is_reported_and_the_rest_stored(tmp_path: Path, scheduler: str) -> None:
    too_large = scoring_task([400, 400, 400])  # refused by the solver's cell limit
    tasks = [scoring_task([1]), too_large, scoring_task([2, 2])]
    path = tmp_path / "r.sqlite"
    with DaskExecutor(scheduler) as executor:
        summary = run_sweep(tasks, store_path=path, executor=executor)
    assert (summary.total, summary.computed, summary.failed) == (3, 2, 1)
    ((spec, error),) = summary.failures
    assert spec == too_large.spec and error.startswith("TooLargeError") and "budget" in error
    with ResultStore(path) as store:
        assert store.present([t.spec for t in tasks], "grid", current_version()) == {
            "scoring(1)",
            "scoring(2,2)",
        }


def test_cluster_local_starts_and_closes_its_own_cluster(cli: Any, tmp_path: Path) -> None:
    store = str(tmp_path / "r.sqlite")
    args = ("--store", store, "--cluster", "local", "--workers", "1", "--json")
    r = cli("sweep", "grundy", "--codes", "0.07", "--upto", "50", *args)
    assert r.code == 0, r.err
    assert (r.json()["executor"], r.json()["workers"], r.json()["computed"]) == ("dask", 1, 1)


def test_more_tasks_than_one_batch(tmp_path: Path, scheduler: str) -> None:
    codes = parse_codes("0.001..0.777")[:300]  # more than a batch (256) of futures in flight
    tasks = [octal_task(code, 3, method="plain") for code in codes]
    path = tmp_path / "r.sqlite"
    with DaskExecutor(scheduler) as executor:
        summary = run_sweep(tasks, store_path=path, executor=executor)
    assert (summary.total, summary.computed, summary.failed) == (300, 300, 0)
    with ResultStore(path) as store:
        assert store.count() == 300


def test_sigkill_of_a_dask_worker_loses_nothing(tmp_path: Path, scheduler: str) -> None:
    tasks = [octal_task(code, 1500, method="plain") for code in ("0.07", "0.77", "0.137", "0.4")]
    with Client(scheduler) as client:
        pids = list(client.run(os.getpid).values())
    killed: list[int] = []

    def kill_a_worker(outcome: TaskOutcome) -> None:
        if not killed:
            killed.append(pids[0])
            os.kill(pids[0], signal.SIGKILL)

    path = tmp_path / "r.sqlite"
    with DaskExecutor(scheduler) as executor:
        summary = run_sweep(tasks, store_path=path, executor=executor, on_outcome=kill_a_worker)
    assert killed and (summary.computed, summary.failed) == (4, 0)
    with ResultStore(path) as store:
        assert store.count() == 4

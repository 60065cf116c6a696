"""A task that kills its worker process every time: the sweep ends, that task is reported
failed (``failed`` in the ``--json`` summary, exit code 0 as docs/sweeps.md says), every other
result is stored exactly once, and a rerun tries only the failed task again."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from functools import partial
from pathlib import Path
from typing import Any

import dask
import distributed  # noqa: F401  (registers its config defaults before dask.config.set below)
import pytest

from nimlab.sweeps import Task, run_sweep, run_task

SPECS = {f"scoring({k})" for k in range(1, 7)}
KILLER = "scoring(3)"


def _die_on_three(task: Task) -> dict[str, Any]:
    """Computes the task, except that the worker process dies at once on the pile (3,)."""
    if task.params["position"] == [3]:
        os._exit(13)
    return run_task(task)


def _counts(path: Path) -> dict[str, int]:
    with closing(sqlite3.connect(path)) as raw:
        rows = raw.execute("SELECT spec, COUNT(*) FROM results GROUP BY spec").fetchall()
    return dict(rows)


@pytest.mark.parametrize(
    ("executor", "message"),
    [
        (("--workers", "2"), "worker process died"),
        (
            ("--cluster", "local", "--workers", "2"),
            "died while computing this task, also alone (Dask",
        ),
    ],
    ids=["local-pool", "dask-local-cluster"],
)
def test_a_task_that_always_kills_its_worker(
    cli: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    executor: tuple[str, ...],
    message: str,
) -> None:
    import nimlab.sweeps.runner

    path = tmp_path / "r.sqlite"
    args = ("sweep", "scoring", "--piles", "1", "--max", "6", "--store", str(path), *executor)
    # the command imports the runner when it runs: patch it where it is looked up then
    killing = partial(run_sweep, fn=_die_on_three)
    monkeypatch.setattr(nimlab.sweeps.runner, "run_sweep", killing)
    # Dask gives up on a task after its workers died more than allowed-failures times; a
    # result held by a worker that died is computed again once the scheduler's attempt to
    # fetch it from there times out (30 s by default: shortened here)
    speedy = {
        "distributed.scheduler.allowed-failures": 1,
        "distributed.comm.timeouts.connect": "3s",
    }
    with dask.config.set(speedy):
        result = cli(*args, "--json")
    assert result.code == 0, result.err
    summary = result.json()
    assert (summary["total"], summary["computed"], summary["failed"]) == (6, 5, 1)
    assert [failure["spec"] for failure in summary["failures"]] == [KILLER]
    assert message in summary["failures"][0]["error"]
    assert _counts(path) == dict.fromkeys(SPECS - {KILLER}, 1)
    monkeypatch.undo()  # a rerun with the real task function computes only the failed task
    rerun_result = cli(*args, "--json")
    assert rerun_result.code == 0, rerun_result.err
    rerun = rerun_result.json()
    assert (rerun["computed"], rerun["skipped"], rerun["failed"]) == (1, 5, 0)
    assert _counts(path) == dict.fromkeys(SPECS, 1)

"""Interrupted sweeps (SIGKILL, SIGTERM) lose no finished result; reruns fill in the rest.

Also two sweeps writing to one store at once lose nothing. These run ``python -m nimlab`` as
real subprocesses on real work (octal Grundy sequences by the quadratic method).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import psutil

CODES = "0.07,0.77,0.137,0.4,0.6,0.17,0.37,0.71,0.16,0.26"
SWEEP = ["sweep", "grundy", "--codes", CODES, "--method", "plain"]
KILL_UPTO = 2000  # tasks of ~0.2 s: slow enough to interrupt midway


def _start(store: Path, *extra: str, upto: int = 1500) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "nimlab", *SWEEP, "--upto", str(upto), "--store", str(store)]
    command += [*extra, "--json"]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _counts(store: Path) -> dict[str, int]:
    if not store.exists():
        return {}
    with closing(sqlite3.connect(store, timeout=30)) as raw:
        try:
            rows = raw.execute("SELECT spec, COUNT(*) FROM results GROUP BY spec").fetchall()
        except sqlite3.OperationalError:  # the sweep has not created the table yet
            return {}
    return dict(rows)


def _wait_for_results(store: Path, process: subprocess.Popen[str], at_least: int) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        done = len(_counts(store))
        if done >= at_least:
            return done
        time.sleep(0.05)
    raise AssertionError(f"the sweep did not store {at_least} results in time")


def _pool_workers(pid: int) -> list[psutil.Process]:
    """The pool's worker processes (children of the sweep, or of its fork server)."""
    workers = []
    for child in psutil.Process(pid).children():
        command = " ".join(child.cmdline())
        if "forkserver" in command:
            workers += child.children()
        elif "resource_tracker" not in command:
            workers.append(child)
    return workers


def _workers_gone(workers: list[psutil.Process]) -> bool:
    _, alive = psutil.wait_procs(workers, timeout=10)
    return not alive


def test_sigterm_then_sigkill_then_rerun(tmp_path: Path) -> None:
    store = tmp_path / "r.sqlite"
    total = len(CODES.split(","))

    process = _start(store, "--workers", "2", upto=KILL_UPTO)
    _wait_for_results(store, process, 1)
    workers = psutil.Process(process.pid).children(recursive=True)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    summary = json.loads(out)
    assert summary["interrupted"] is True and summary["computed"] >= 1
    assert err.startswith("interrupted: ") and "rerun" in err
    assert _workers_gone(workers)
    after_term = _counts(store)
    assert len(after_term) == summary["computed"]

    process = _start(store, "--workers", "2", upto=KILL_UPTO)
    _wait_for_results(store, process, len(after_term) + 1)
    workers = psutil.Process(process.pid).children(recursive=True)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL
    assert _workers_gone(workers)  # they notice their parent died and exit
    after_kill = _counts(store)
    assert set(after_term) <= set(after_kill) and len(after_kill) < total

    command = [sys.executable, "-m", "nimlab", *SWEEP, "--upto", str(KILL_UPTO)]
    rerun = subprocess.run(
        [*command, "--store", str(store), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert rerun.returncode == 0, rerun.stderr
    final = json.loads(rerun.stdout)
    assert final["skipped"] == len(after_kill)
    assert final["computed"] == total - len(after_kill) and final["failed"] == 0
    counts = _counts(store)
    assert len(counts) == total and set(counts.values()) == {1}


def test_two_sweeps_at_once_lose_nothing(tmp_path: Path) -> None:
    store = tmp_path / "r.sqlite"
    first = _start(store, "--workers", "1", upto=1000)
    second = _start(store, "--workers", "1", upto=1000)
    outs = [process.communicate(timeout=120) for process in (first, second)]
    assert first.returncode == second.returncode == 0, outs
    total = len(CODES.split(","))
    for out, _ in outs:
        summary = json.loads(out)
        assert summary["computed"] + summary["skipped"] == total and summary["failed"] == 0
    counts = _counts(store)
    assert len(counts) == total and set(counts.values()) == {1}


def test_sigkill_of_a_worker_loses_nothing(tmp_path: Path) -> None:
    store = tmp_path / "r.sqlite"
    process = _start(store, "--workers", "2")
    _wait_for_results(store, process, 1)
    workers = _pool_workers(process.pid)
    assert len(workers) == 2
    workers[0].kill()
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    summary = json.loads(out)
    total = len(CODES.split(","))
    assert (summary["computed"], summary["failed"]) == (total, 0)
    counts = _counts(store)
    assert len(counts) == total and set(counts.values()) == {1}

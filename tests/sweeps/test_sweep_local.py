"""``nimlab sweep`` on the local process pool: results, resume, failures, contract keys."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from nimlab.octal import OctalCode, find_period, grundy_sequence
from nimlab.store import ResultStore
from nimlab.sweeps import LocalPoolExecutor, Task, run_sweep, run_task, scoring_task


def test_sweep_scoring_then_resume(cli: Any, tmp_path: Path) -> None:
    store = str(tmp_path / "r.sqlite")
    first = cli("sweep", "scoring", "--piles", "2", "--max", "3", "--store", store, "--json")
    assert first.code == 0, first.err
    summary = first.json()
    assert {"total", "computed", "skipped", "failed"} <= set(summary)
    assert (summary["total"], summary["computed"], summary["skipped"], summary["failed"]) == (
        6,
        6,
        0,
        0,
    )
    again = cli("sweep", "scoring", "--piles", "2", "--max", "4", "--store", store, "--json")
    assert again.json()["total"] == 10
    assert (again.json()["computed"], again.json()["skipped"]) == (4, 6)
    # the stored result is what `nimlab scoring 3 2 --json` prints
    shown = cli("store", "show", "scoring(3,2)", "--store", store, "--json").json()
    assert shown == {**cli("scoring", "3", "2", "--json").json(), "cached": True}
    human = cli("sweep", "scoring", "--piles", "2", "--max", "4", "--store", store)
    assert human.code == 0 and "skipped" in human.out


def test_sweep_grundy_results(cli: Any, tmp_path: Path) -> None:
    store = str(tmp_path / "r.sqlite")
    r = cli(
        "sweep", "grundy", "--codes", "0.07,.77,0.07", "--upto", "200", "--store", store,
        "--workers", "2", "--json",
    )  # fmt: skip
    assert r.code == 0, r.err
    assert (r.json()["total"], r.json()["computed"], r.json()["workers"]) == (2, 2, 2)
    shown = cli("store", "show", "octal(0.77;upto=200)", "--store", store, "--json").json()
    assert {"game", "values", "period", "preperiod"} <= set(shown)
    plain = cli("grundy", "octal", "--code", "0.77", "--upto", "200", "--json").json()
    assert (shown["cached"], plain["cached"]) == (True, False)
    assert {**shown, "cached": False} == plain
    code = OctalCode.parse("0.77")
    values = grundy_sequence(code, 200)
    periodicity = find_period(code, values)
    assert periodicity is not None
    assert shown["values"] == values
    assert (shown["period"], shown["preperiod"]) == (periodicity.period, periodicity.preperiod)
    # Guy-Smith: 0.77 (Kayles) has period 12 from n = 71 on
    assert (shown["period"], shown["preperiod"]) == (12, 71)


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["grundy", "--codes", "0.9", "--upto", "5"], 2, "bad octal code"),
        (["grundy", "--codes", "0.07", "--upto", "-1"], 2, "upto"),
        (["grundy", "--codes", "0.07", "--upto", "5", "--method", "magic"], 2, "unknown method"),
        (["scoring", "--piles", "0", "--max", "3"], 2, "--piles"),
        (["scoring", "--piles", "9", "--max", "99", "--max-tasks", "10"], 3, "--max-tasks"),
        (["solve", "xx", "--grid", "1,1"], 2, "unknown variant"),
        (["solve", "sn", "--grid", "3..1"], 2, "empty range"),
        (["scoring", "--piles", "1", "--max", "1", "--workers", "0"], 2, "--workers"),
        (["scoring", "--piles", "1", "--max", "1", "--cluster", "mars"], 2, "unknown cluster"),
        (
            ["scoring", "--piles", "1", "--max", "1", "--cluster", "local", "--scheduler", "x"],
            2,
            "not both",
        ),
    ],
)
def test_sweep_bad_input(
    cli: Any, tmp_path: Path, args: list[str], code: int, message: str
) -> None:
    r = cli("sweep", *args, "--store", str(tmp_path / "r.sqlite"), "--json")
    assert r.code == code and r.err.startswith("error:") and message in r.err, r.err
    assert r.out == ""


def test_sweep_solve(cli: Any, tmp_path: Path) -> None:
    from nimlab.sweeps import solve_available

    store = str(tmp_path / "r.sqlite")
    r = cli("sweep", "solve", "sn", "--grid", "3,1..3,1", "--store", store, "--json")
    if not solve_available():  # the solver is optional: then the sweep says so clearly
        assert r.code == 2 and "not available yet" in r.err
        return
    assert r.code == 0, r.err
    assert (r.json()["total"], r.json()["computed"]) == (3, 3), r.json()["failures"]
    shown = cli("store", "show", "sn(1,3,3)", "--store", store, "--json").json()
    assert {"variant", "position", "misere", "value", "exact", "nodes", "infosets"} <= set(shown)
    assert (shown["position"], shown["misere"], shown["exact"]) == ([3, 3, 1], False, True)
    assert shown["value"] == "1/3"  # SN(3,3,1) = 1/3 (seed 000, Fig. 2)
    direct = cli("solve", "sn", "3", "3", "1", "--json").json()
    timing = {"seconds", "timings", "cached"}
    assert {k: v for k, v in shown.items() if k not in timing} == {
        k: v for k, v in direct.items() if k not in timing
    }
    misere = cli("sweep", "solve", "sn", "--grid", "1,1", "--misere", "--store", store, "--json")
    assert misere.code == 0 and misere.json()["computed"] == 1
    assert cli("store", "show", "sn(1,1;misere)", "--store", store, "--json").json()["misere"]


def _crash_on_three(task: Task) -> dict[str, Any]:
    """A task function whose worker process dies on the position (3,)."""
    if task.params["position"] == [3]:
        os._exit(13)
    return run_task(task)


def _raise_on_two(task: Task) -> dict[str, Any]:
    if task.params["position"] == [2]:
        raise ValueError("no twos here")
    return run_task(task)


@pytest.mark.parametrize(
    ("fn", "bad", "message"),
    [(_crash_on_three, "scoring(3)", "worker process died"), (_raise_on_two, "scoring(2)", "twos")],
)
def test_a_failing_task_does_not_stop_the_sweep(
    tmp_path: Path, fn: Any, bad: str, message: str
) -> None:
    tasks = [scoring_task([k]) for k in range(1, 7)]
    path = tmp_path / "r.sqlite"
    with LocalPoolExecutor(workers=2) as executor:
        summary = run_sweep(tasks, store_path=path, executor=executor, fn=fn)
    assert (summary.computed, summary.failed) == (5, 1)
    ((spec, error),) = summary.failures
    assert spec == bad and message in error
    with ResultStore(path) as store:
        assert {r.spec for r in store.results()} == {t.spec for t in tasks} - {bad}
    with LocalPoolExecutor(workers=1) as executor:  # a rerun computes only the failed one
        rerun = run_sweep(tasks, store_path=path, executor=executor)
    assert (rerun.computed, rerun.skipped, rerun.failed) == (1, 5, 0)


def test_versions_are_separate_keys(tmp_path: Path) -> None:
    tasks = [scoring_task([1])]
    path = tmp_path / "r.sqlite"
    with LocalPoolExecutor(workers=1) as executor:
        run_sweep(tasks, store_path=path, executor=executor, version="0.0.1")
        summary = run_sweep(tasks, store_path=path, executor=executor, version="0.0.2")
    assert summary.computed == 1
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT COUNT(*) FROM results").fetchone() == (2,)


def test_progress_bar_on_a_terminal(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import nimlab.cli.sweep

    monkeypatch.setattr(nimlab.cli.sweep, "_on_terminal", lambda: True)
    store = str(tmp_path / "r.sqlite")
    args = ("sweep", "scoring", "--piles", "1", "--max", "3", "--store", store, "--workers", "1")
    r = cli(*args)
    assert r.code == 0, r.err
    assert "3/3" in r.err and "tasks/s" in r.err and "sweep summary" in r.out
    assert "3/3" not in r.out  # progress goes to stderr
    again = cli("sweep", "scoring", "--piles", "1", "--max", "4", "--store", store)
    assert "3 of 4 already in the store: skipped" in again.err
    assert cli(*args, "--json").json()["skipped"] == 3  # --json: stdout holds one object


def test_size_limits_fail_tasks_not_the_sweep(cli: Any, tmp_path: Path) -> None:
    store = str(tmp_path / "r.sqlite")
    args = ("sweep", "scoring", "--piles", "2", "--max", "3", "--store", store, "--json")
    limited = cli(*args, "--max-cells", "40", "--workers", "1")
    assert limited.code == 0, limited.err
    summary = limited.json()
    assert summary["failed"] >= 1 and summary["computed"] + summary["failed"] == 6
    assert all("TooLargeError" in f["error"] for f in summary["failures"])
    again = cli(*args, "--workers", "1").json()  # the default limit: the rest are computed
    assert (again["computed"], again["skipped"], again["failed"]) == (
        summary["failed"],
        6 - summary["failed"],
        0,
    )
    solve = cli("sweep", "solve", "sn", "--grid", "3,3", "--max-nodes", "5", "--store", store)
    if solve.code == 0:  # when the solver is installed: refused as too large, reported
        assert "failed" in solve.out and "TooLargeError" in solve.out

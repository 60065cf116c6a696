"""``nimlab reproduce hidden-games --out DIR`` as users run it (CONTRACT, added 2026-11-24)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.contract.conftest import Run


def test_the_report_is_written_with_progress_on_stderr(nimlab: Any, tmp_path: Path) -> None:
    """Piped, progress starts after NIMLAB_PROGRESS_AFTER seconds (2 by default; 0 here)."""
    out = tmp_path / "hidden"
    run: Run = nimlab(
        "reproduce",
        "hidden-games",
        "--out",
        str(out),
        "--reach",
        "2",
        env={"NIMLAB_PROGRESS_AFTER": "0"},
    )
    assert run.code == 0, run.err
    text = (out / "report.md").read_text()
    assert "# Hidden-information versions of catalogue games" in text
    assert "Theorem 3.1" in text and "L = Blue moves first" in text
    results = json.loads((out / "results.json").read_text())["results"]
    # S = {1,2}: a single heap of 4 is a first-player win with perfect information
    (four,) = [
        r
        for r in results
        if (r["family"], r["variant"], r["position"], r["misere"]) == ("sub12", "sn", "4", False)
    ]
    assert (four["value"], four["perfect"]) == ("1", 1)
    progress = run.err.strip().splitlines()
    assert len(progress) == len(results)
    assert "sn subtraction 4: 1" in run.err and "sn subtraction 4" not in run.out
    assert run.out.startswith("report written to")
    quiet = nimlab("reproduce", "hidden-games", "--out", str(out), "--reach", "1")
    assert quiet.code == 0 and quiet.err == ""  # a job of under two seconds says nothing


def test_a_reach_below_one_is_bad_input(nimlab: Any, tmp_path: Path) -> None:
    run: Run = nimlab("reproduce", "hidden-games", "--out", str(tmp_path / "x"), "--reach", "0")
    assert "--reach" in run.refused(2)


def test_a_reach_out_of_range_is_refused_before_the_folder_is_made(
    nimlab: Any, tmp_path: Path
) -> None:
    out = tmp_path / "hidden"
    assert "the reach must be 1 to 12" in nimlab(
        "reproduce", "hidden-games", "--out", str(out), "--reach", "13"
    ).refused(2)
    assert not out.exists()


def test_a_diagonal_over_the_budget_is_refused_with_its_estimate(
    nimlab: Any, tmp_path: Path
) -> None:
    out = tmp_path / "variants"
    run = nimlab("reproduce", "nim-variants", "--out", str(out), "--reach", "13", timeout=60)
    message = run.refused(3)
    assert (
        "the diagonal SN(n,n,1) and the sub-diagonal SN(n,n-1,1) for n = 9..13 would take"
        in message
    )
    assert "--max-seconds" in message
    assert not out.exists() and run.cpu < 10  # processor time, not the loaded wall clock
    # over in time only (about 12 min, under 2 GB): the option for memory is not named
    eleven = nimlab("reproduce", "nim-variants", "--out", str(out), "--reach", "11", timeout=60)
    assert eleven.refused(3).endswith("lift it with --max-seconds"), eleven.err


def test_a_grid_over_the_budget_is_refused_with_its_estimate(nimlab: Any, tmp_path: Path) -> None:
    out = tmp_path / "variants"
    run = nimlab("reproduce", "nim-variants", "--out", str(out), "--grid", "12", timeout=60)
    message = run.refused(3)
    assert "SN(n1,n2,1) for 4 <= n2 <= n1 <= 12 would take about" in message
    assert "--store" in message and not out.exists() and run.cpu < 20


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["nim-variants", "--grid", "3"], "--grid must be at least 4"),
        (["hidden-games", "--grid", "9"], "apply to the nim-variants report only"),
        (["hidden-games", "--store", "s.sqlite"], "apply to the nim-variants report only"),
    ],
)
def test_bad_grid_and_store_options_are_refused(
    nimlab: Any, tmp_path: Path, args: list[str], says: str
) -> None:
    out = tmp_path / "report"
    run = nimlab("reproduce", *args, "--out", str(out), timeout=60)
    assert says in run.refused(2) and not out.exists()

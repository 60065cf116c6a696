"""What the terminal shows, as users see it (the console script, stdout piped)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize(
    "args",
    [("kayles", "--upto", "40"), ("subtraction", "--set", "1,3,4", "--upto", "25")],
)
def test_grundy_rows_are_indexed_and_hold_the_json_values(
    nimlab: Any, args: tuple[str, ...]
) -> None:
    values = nimlab("grundy", *args, "--json").ok_json()["values"]
    lines = nimlab("grundy", *args).out.splitlines()
    rows = [line for line in lines if ":" in line and line.split(":")[0].strip().isdigit()]
    assert [int(row.split(":")[0]) for row in rows] == list(range(0, len(values), 10))
    shown = [int(v) for row in rows for v in row.split(":", 1)[1].split()]
    assert shown == values


@pytest.mark.parametrize("store", ["none", "a store"])
def test_a_long_solve_reports_its_rounds_on_stderr_when_piped(nimlab: Any, store: str) -> None:
    # with a store (the default), the first run is computed through it: its rounds show too
    # (piped, a line per round once the job has run NIMLAB_PROGRESS_AFTER seconds; 0 here)
    args = ("solve", "sn", "5", "5", "1", "--method", "restricted", "--json")
    env = {"NIMLAB_PROGRESS_AFTER": "0", **({"NIMLAB_STORE": ""} if store == "none" else {})}
    run = nimlab(*args, timeout=300, env=env)
    assert run.ok_json()["value"] == "3/13"  # stdout: exactly one JSON object
    assert run.ok_json()["cached"] is False
    rounds = [line for line in run.err.splitlines() if "round" in line and "<= v <=" in line]
    assert rounds, run.err
    # the parts are named by the place of L's first heap, never read as a heap's size
    assert {line.split(", round")[0] for line in rounds} == {
        "L first on heap #1",
        "L first on heap #3",
    }, run.err
    # a job shorter than the threshold (here an hour, so that a busy machine cannot cross it)
    # says not a word
    quiet = nimlab(*args, "--no-store", env={"NIMLAB_PROGRESS_AFTER": "3600"})
    assert quiet.code == 0 and quiet.err == ""


def test_sweeps_and_reports_show_progress_on_stderr_when_piped(nimlab: Any) -> None:
    """A plain line per task of a sweep and per game of a report, on stderr; stdout keeps
    the summary (or the JSON object) alone."""
    env = {"NIMLAB_PROGRESS_AFTER": "0"}
    sweep = nimlab("sweep", "solve", "kn", "--grid", "2..3,1..2", "--json", env=env)
    summary = sweep.ok_json()
    lines = sweep.err.strip().splitlines()
    assert len(lines) == summary["computed"] == 4
    assert lines[-1].startswith("4/4 kn(") and "computed" in lines[-1]
    again = nimlab("sweep", "solve", "kn", "--grid", "2..3,1..2", env=env)
    assert "4 of 4 already in the store: skipped" in again.err and "sweep summary" in again.out


@pytest.mark.parametrize("store", ["none", "a store"])
def test_a_single_long_table_reports_from_inside_the_engine(nimlab: Any, store: str) -> None:
    """One ``grundy`` computation says how far the octal engine has come, and ``scoring``
    what it is computing, on stderr, through the store or not; stdout keeps the JSON."""
    env = {"NIMLAB_PROGRESS_AFTER": "0", **({"NIMLAB_STORE": ""} if store == "none" else {})}
    grundy = nimlab("grundy", "grundy-game", "--upto", "70000", "--json", env=env)
    assert len(grundy.ok_json()["values"]) == 70_001
    assert "g(n) computed for n < 65,536 of 70,001" in grundy.err.splitlines()
    scoring = nimlab("scoring", "6", "5", "4", "--json", env=env)
    assert scoring.ok_json()["position"] == [6, 5, 4]
    assert any(line.startswith("f_N of ") for line in scoring.err.splitlines()), scoring.err


def test_tables_piped_are_wide_and_follow_columns(nimlab: Any) -> None:
    wide = nimlab("games", env={"COLUMNS": ""}).out.splitlines()
    assert max(len(line) for line in wide) > 80  # not a terminal's 80: rows are not wrapped
    rules = next(line for line in wide if line.split()[:1] == ["nim"])
    assert "Remove one or more counters from a single heap." in rules
    narrow = nimlab("games", env={"COLUMNS": "100"}).out.splitlines()
    assert max(len(line) for line in narrow) <= 100 < max(len(line) for line in wide)


def test_nim_numbers_heaps_from_one_like_its_moves(nimlab: Any) -> None:
    """The table's heap column and the winning move both count from 1 (the JSON stays 0-based)."""
    lines = nimlab("nim", "3", "4", "5").out.splitlines()
    rows = [line.split() for line in lines if line.split()[:1] in (["1"], ["2"], ["3"])]
    assert [row[:2] for row in rows] == [["1", "3"], ["2", "4"], ["3", "5"]]
    assert any("heap 1: 3 -> 1" in line for line in lines)
    assert nimlab("nim", "3", "4", "5", "--json").ok_json()["winning_moves"][0]["heap"] == 0

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
    args = ("solve", "sn", "7", "6", "1", "--method", "restricted", "--json")
    env = {"NIMLAB_STORE": ""} if store == "none" else None
    run = nimlab(*args, timeout=300, env=env)
    assert run.ok_json()["value"] == "13/55"  # stdout: exactly one JSON object
    assert run.ok_json()["cached"] is False
    rounds = [line for line in run.err.splitlines() if "round" in line and "<= v <=" in line]
    assert rounds, run.err  # a plain line per round once the job has run two seconds


def test_tables_piped_are_wide_and_follow_columns(nimlab: Any) -> None:
    wide = nimlab("games", env={"COLUMNS": ""}).out.splitlines()
    assert max(len(line) for line in wide) > 80  # not a terminal's 80: rows are not wrapped
    rules = next(line for line in wide if line.split()[:1] == ["nim"])
    assert "Remove one or more counters from a single heap." in rules
    narrow = nimlab("games", env={"COLUMNS": "100"}).out.splitlines()
    assert max(len(line) for line in narrow) <= 100 < max(len(line) for line in wide)

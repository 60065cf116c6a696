"""The contract's commands nim, nimber, lost, aesthetic: JSON keys, human output, exit codes."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest


def test_nim_json_keys_and_values(cli: Any) -> None:
    result = cli("nim", "3", "4", "5", "--json")
    assert result.code == 0 and result.err == ""
    data = result.json()
    assert data["position"] == [3, 4, 5]
    assert data["nim_sum"] == 2
    assert data["outcome"] == "N"
    assert data["winning_moves"] == [{"heap": 0, "from": 3, "to": 1}]


def test_nim_winning_moves_use_input_order_indices(cli: Any) -> None:
    data = cli("nim", "7", "1", "3", "3", "--json").json()
    # nim-sum 6: only heap 0 (7 -> 1) has 7 ^ 6 < 7.
    assert data["winning_moves"] == [{"heap": 0, "from": 7, "to": 1}]
    assert cli("nim", "1", "2", "3", "--json").json()["outcome"] == "P"


def test_nim_misere(cli: Any) -> None:
    data = cli("nim", "1", "1", "1", "--misere", "--json").json()
    assert data["outcome"] == "P" and data["winning_moves"] == []
    data = cli("nim", "1", "1", "--misere", "--json").json()
    assert data["outcome"] == "N" and data["winning_moves"][0]["to"] == 0


def test_nim_huge_heaps(cli: Any) -> None:
    big = 2**200 + 5
    data = cli("nim", str(big), str(big), "5", "--json").json()
    assert data["nim_sum"] == 5
    assert data["winning_moves"] == [
        {"heap": 0, "from": big, "to": 2**200},
        {"heap": 1, "from": big, "to": 2**200},
        {"heap": 2, "from": 5, "to": 0},
    ]


def test_nim_human_output_shows_binary_and_the_move(cli: Any) -> None:
    result = cli("nim", "3", "4", "5")
    assert result.code == 0
    assert "011" in result.out and "nim-sum" in result.out and "3 -> 1" in result.out


@pytest.mark.parametrize(
    ("args", "quoted"),
    [
        (["nim", "3", "-4", "5"], "'-4'"),
        (["nim", "3", "2.5"], "'2.5'"),
        (["nim", "x"], "'x'"),
        (["nim"], "no heaps"),
        (["nim", "3", "--json", "--bogus"], "--bogus"),
        (["frobnicate"], "frobnicate"),
        (["nimber", "sum", "1", "-2"], "'-2'"),
        (["nimber", "table", "--op", "div", "--size", "3"], "'div'"),
        (["lost", "--heaps", "0", "--max", "5"], "at least 1"),
        (["lost", "--heaps", "three", "--max", "5"], "--heaps"),
        (["aesthetic", "--heaps", "2"], "at least 3"),
    ],
)
def test_bad_input_exits_2_with_one_error_line(cli: Any, args: list[str], quoted: str) -> None:
    result = cli(*args)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("error:") and result.err.count("\n") == 1
    assert quoted in result.err


def test_too_large_enumeration_exits_3(cli: Any) -> None:
    result = cli("lost", "--heaps", "9", "--max", "200")
    assert result.code == 3
    assert result.err.startswith("error:") and "--max" in result.err


def test_nimber_commands(cli: Any) -> None:
    assert cli("nimber", "sum", "5", "3", "--json").json() == {
        "op": "sum",
        "args": [5, 3],
        "result": 6,
    }
    big = str(2**64)
    data = cli("nimber", "product", big, big, "--json").json()
    assert data == {"op": "product", "args": [2**64, 2**64], "result": 3 * 2**63}
    table = cli("nimber", "table", "--op", "product", "--size", "4", "--json").json()
    assert table == {
        "op": "product",
        "size": 4,
        "table": [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]],
    }
    human = cli("nimber", "table", "--op", "sum", "--size", "8")
    assert human.code == 0 and "nim-sum" in human.out


def test_lost_and_aesthetic_json(cli: Any) -> None:
    data = cli("lost", "--heaps", "3", "--max", "5", "--non-obvious", "--json").json()
    assert data == {"positions": [[1, 2, 3], [1, 4, 5]], "count": 2}
    data = cli("aesthetic", "--heaps", "9", "--json").json()
    assert data["heaps"] == 9 and data["total"] == 60
    assert data["positions"] == [[2, 3, 4, 5, 6, 8, 9, 11, 12], [2, 3, 4, 5, 7, 8, 9, 10, 12]]


def test_triangles_and_trapezoids(cli: Any) -> None:
    assert cli("triangles", "--upto", "12", "--json").json()["n"] == [0, 3, 7, 11]
    data = cli("trapezoids", "--min", "2", "--max", "9", "--json").json()
    assert data["count"] == 4


def test_help_and_tour(cli: Any) -> None:
    result = cli("--help")
    assert result.code == 0 and "nim" in result.out
    assert cli().code == 0
    assert cli("nim", "--help").code == 0
    tour = cli("tour")
    assert tour.code == 0 and "Sprague-Grundy" in tour.out


def test_module_and_console_script_entry_points() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nimlab", "nim", "1", "2", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and '"outcome": "N"' in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "nimlab", "nim", "-1"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("error:")


def test_ctrl_c_exits_130_with_one_error_line(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import nimlab.cli.nimber as nimber_cli

    def interrupted(*args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setitem(nimber_cli._OPERATIONS, "sum", interrupted)
    r = cli("nimber", "sum", "3", "5")
    assert r.code == 130
    assert r.err.startswith("error: interrupted") and r.err.count("\n") == 1

"""``nimlab scoring`` and ``nimlab scoring-table``: contract keys, N parsing, errors, outputs."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from nimlab.scoring.payoff import payoff_value

CONTRACT_KEYS = {"position", "breakpoints", "slope_left", "slope_right"}
WITH_N_KEYS = CONTRACT_KEYS | {"N", "payoff", "optimal_moves", "line"}


def test_contract_keys_without_n(cli: Any) -> None:
    r = cli("scoring", "5", "4", "2", "--json")
    assert r.code == 0, r.err
    data = r.json()
    assert set(data) >= CONTRACT_KEYS and "N" not in data
    assert data["position"] == [5, 4, 2]
    # f_N(5,4,2), seed 004 Fig. 2: minima at N = +-4, value 3 at N = 0
    assert ["-4", "1"] in data["breakpoints"] and ["0", "3"] in data["breakpoints"]
    assert isinstance(data["slope_left"], int) and isinstance(data["slope_right"], int)
    xs = [Fraction(x) for x, _ in data["breakpoints"]]
    assert xs == sorted(xs)


@pytest.mark.parametrize("args", [("--N=-7/2",), ("--N", "-7/2"), ("--N", "-3.5")])
def test_negative_rational_n(cli: Any, args: tuple[str, ...]) -> None:
    r = cli("scoring", "5", "4", "2", *args, "--json")
    assert r.code == 0, r.err
    data = r.json()
    assert set(data) >= WITH_N_KEYS
    assert data["N"] == "-7/2"
    assert Fraction(data["payoff"]) == payoff_value([5, 4, 2], Fraction(-7, 2))
    assert data["line"][0] == [5, 4, 2] and data["line"][-1] == [0, 0, 0]
    assert all(isinstance(p, list) for p in data["optimal_moves"])
    assert data["line"][1] in data["optimal_moves"]


def test_line_scores_match_payoff(cli: Any) -> None:
    data = cli("scoring", "10", "8", "1", "--N", "7", "--json").json()
    first, second = (Fraction(s) for s in data["scores"])
    assert first - second == Fraction(data["payoff"])
    assert first + second == 19 + 7  # constant sum |p| + N (seed 004, Sect. 3)


def test_exact_method_agrees(cli: Any) -> None:
    grid = cli("scoring", "6", "4", "1", "--N", "5/3", "--json").json()
    exact = cli("scoring", "6", "4", "1", "--N", "5/3", "--method", "exact", "--json").json()
    assert exact["method"] == "exact" and grid["method"] == "grid"
    assert {k: v for k, v in grid.items() if k != "method"} == {
        k: v for k, v in exact.items() if k != "method"
    }
    assert cli("scoring", "6", "--method", "magic").code == 2


def test_human_output(cli: Any) -> None:
    r = cli("scoring", "5", "4", "2", "--N", "3")
    assert r.code == 0, r.err
    assert "optimal moves by N" in r.out and "an optimal line of play" in r.out
    assert "1,4,2" in r.out


@pytest.mark.parametrize(
    "args",
    [("5", "-4"), ("5", "x"), ("2.5",), ("5", "--N", "abc"), ("5", "--N", "1/0"), ()],
)
def test_bad_input_exit_2(cli: Any, args: tuple[str, ...]) -> None:
    r = cli("scoring", *args, "--json")
    assert r.code == 2
    assert r.err.startswith("error:") and r.out == ""


@pytest.mark.parametrize("heaps", [("300", "400", "500"), ("10000000000000",)])
def test_too_large_exit_3(cli: Any, heaps: tuple[str, ...]) -> None:
    r = cli("scoring", *heaps, "--json")
    assert r.code == 3
    assert "--max-cells" in r.err and r.out == ""


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_plot(cli: Any, tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"f{suffix}"
    r = cli("scoring", "6", "4", "1", "--plot", str(target), "--json")
    assert r.code == 0, r.err
    assert target.stat().st_size > 1000
    assert cli("scoring", "6", "--plot", str(tmp_path / "f.pdf")).code == 2


def test_scoring_table_csv(cli: Any, tmp_path: Path) -> None:
    target = tmp_path / "t.csv"
    r = cli("scoring-table", "--piles", "3", "--max", "4", "--out", str(target), "--json")
    assert r.code == 0, r.err
    assert r.json()["count"] == 20  # multisets of 3 sizes from 1..4
    lines = target.read_text().splitlines()
    assert lines[0].startswith("position,")
    assert len(lines) == 21


def test_scoring_table_parquet(cli: Any, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    target = tmp_path / "t.parquet"
    assert cli("scoring-table", "--piles", "2", "--max", "3", "--out", str(target)).code == 0
    rows = pq.read_table(target).to_pylist()
    assert [r["position"] for r in rows] == ["1,1", "2,1", "3,1", "2,2", "3,2", "3,3"]
    assert rows[1]["breakpoints"] == [["0", "1"]]  # f_N(2,1) = 1 + |N| (seed 004, Prop. 4.1)
    assert cli("scoring-table", "--piles", "2", "--max", "3", "--out", "x.txt").code == 2
    assert cli("scoring-table", "--piles", "0", "--max", "3", "--out", str(target)).code == 2

"""The hidden-games report: its tables hold values that agree with independent facts.

Expected values come from outside the solver: Grundy values of the games (subtraction
``n mod (k+1)``, the Kayles and Dawson's Kayles sequences of Winning Ways, OEIS A002186 and
A002187), Bouton's rules for Nim and misère Nim, Berlekamp's rule for red-blue Hackenbush
stalks, the issue's statement on a Kriegspiel heap of 6, and Nim's own solver.
"""

from __future__ import annotations

import csv
import json
from fractions import Fraction
from functools import reduce
from operator import xor
from pathlib import Path
from typing import Any

import pytest

from nimlab.hidden.solve import solve
from nimlab.reports.hidden_games import DEFAULT_BUDGET, write_report

KAYLES = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
DAWSON = [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]], int]:
    out = tmp_path_factory.mktemp("hidden")
    lines: list[str] = []
    path = write_report(out, reach=3, budget=DEFAULT_BUDGET, progress=lines.append)
    results = json.loads((out / "results.json").read_text())["results"]
    return path, results, len(lines)


def _grundy(family: str, size: int) -> int:
    if family == "nim":
        return size
    if family.startswith("sub"):
        return size % _period(family)
    return (KAYLES if family == "kayles" else DAWSON)[size]


def _period(family: str) -> int:
    return {"sub12": 3, "sub123": 4}[family.split("-")[0]]


def _berlekamp(stalk: str) -> Fraction:
    """The value of a red-blue stalk: ±1 per edge until the colour first changes, then
    halving steps (Blue positive)."""
    value, step, changed = Fraction(0), Fraction(1), False
    for i, colour in enumerate(stalk):
        changed = changed or (i > 0 and colour != stalk[0])
        if changed:
            step /= 2
        value += step if colour == "B" else -step
    return value


def _normal_outcome(family: str, position: str) -> int:
    if family == "hackenbush":
        return 1 if sum(map(_berlekamp, position.split(","))) > 0 else -1
    sizes = [int(part) for part in position.split(",")]
    return 1 if reduce(xor, (_grundy(family, size) for size in sizes)) else -1


def test_report_is_written_with_its_sections(
    report: tuple[Path, list[dict[str, Any]], int],
) -> None:
    path, results, progress = report
    text = path.read_text()
    for heading in ("## Values", "Theorem 3.1", "Theorems 4.1 and 4.2", "Theorem 5.1", "Lemmas"):
        assert heading in text
    assert "L = Blue moves first" in text
    with (path.parent / "results.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == len(results) == progress
    assert {r["family"] for r in results} >= {"sub12", "sub123", "kayles", "hackenbush"}


def test_perfect_information_column_is_the_known_outcome(
    report: tuple[Path, list[dict[str, Any]], int],
) -> None:
    _, results, _ = report
    normal = [r for r in results if not r["misere"]]
    assert len(normal) > 100
    for r in normal:
        assert r["perfect"] == _normal_outcome(r["family"], r["position"]), r


def test_misere_nim_and_subtraction_column_is_bouton(
    report: tuple[Path, list[dict[str, Any]], int],
) -> None:
    _, results, _ = report
    checked = 0
    for r in results:
        if not r["misere"] or r["family"] not in ("nim", "sub12", "sub123") or "," in r["position"]:
            continue
        n = int(r["position"])
        if r["family"] == "nim":
            expected = -1 if n == 1 else 1
        else:
            expected = -1 if n % _period(r["family"]) == 1 else 1
        assert r["perfect"] == expected, r
        checked += 1
    assert checked > 20


def test_one_component_schrodinger_is_the_perfect_information_game(
    report: tuple[Path, list[dict[str, Any]], int],
) -> None:
    _, results, _ = report
    single = [
        r
        for r in results
        if r["variant"] in ("sn", "fsn")
        and "," not in r["position"]
        and not r["misere"]
        and r["family"] != "hackenbush"
    ]
    assert len(single) > 20 and all(r["value"] is not None for r in single)
    for r in single:
        assert (r["value"], r["exact"]) == (str(_normal_outcome(r["family"], r["position"])), True)


def test_kriegspiel_subtraction_heap_of_six_is_worth_zero(
    report: tuple[Path, list[dict[str, Any]], int],
) -> None:
    path, results, _ = report
    (six,) = [
        r
        for r in results
        if (r["family"], r["variant"], r["position"], r["misere"]) == ("sub12", "kn", "6", False)
    ]
    assert (six["value"], six["exact"], six["perfect"]) == ("0", True, -1)
    assert "(6) = 0 [claimed -1, perfect info -1]" in path.read_text()


def test_nim_rows_equal_the_nim_solver(report: tuple[Path, list[dict[str, Any]], int]) -> None:
    _, results, _ = report
    nim = [r for r in results if r["family"] == "nim" and r["value"] is not None]
    assert len(nim) >= 30
    for r in nim:
        heaps = tuple(int(h) for h in r["position"].split(","))
        expected = solve(r["variant"], heaps, misere=r["misere"]).value
        assert Fraction(r["value"]) == expected, r

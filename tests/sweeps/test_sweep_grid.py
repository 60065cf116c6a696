"""Grids, code lists and canonical specs of sweep tasks."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nimlab.errors import InvalidPositionError, TooLargeError, UnknownGameError
from nimlab.sweeps import (
    bounded_positions,
    octal_task,
    parse_codes,
    parse_grid,
    parse_spec,
    scoring_task,
    solve_task,
)


def test_grid_positions_are_multisets() -> None:
    positions = parse_grid("4..10,4..10,1")
    assert len(positions) == len(set(positions)) == 28  # pairs a >= b from 4..10
    assert all(p == tuple(sorted(p, reverse=True)) for p in positions)
    brute = {tuple(sorted(c, reverse=True)) for c in itertools.product(range(4, 11), repeat=2)}
    assert set(positions) == {(a, b, 1) for a, b in brute}
    assert parse_grid("3") == [(3,)]
    assert parse_grid("0..1, 2") == [(2, 0), (2, 1)]


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ("", "bad grid"),
        ("1,,2", "bad grid"),
        ("3..1", "empty range"),
        ("-1..2", "invalid heap"),
        ("1..x", "invalid heap"),
        ("1...3", "invalid heap"),
    ],
)
def test_bad_grids(grid: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        parse_grid(grid)


def test_grid_size_limit() -> None:
    with pytest.raises(TooLargeError, match="--max-tasks"):
        parse_grid("0..99,0..99", max_tasks=9_999)
    assert len(parse_grid("0..99,0..99", max_tasks=10_000)) == 5050


@pytest.mark.parametrize(("piles", "largest"), [(1, 5), (2, 4), (3, 3), (4, 2)])
def test_bounded_positions_match_brute_force(piles: int, largest: int) -> None:
    cells = itertools.product(range(1, largest + 1), repeat=piles)
    brute = {tuple(sorted(cell, reverse=True)) for cell in cells}
    assert bounded_positions(piles=piles, largest=largest) == sorted(brute)


def test_codes() -> None:
    assert parse_codes("0.07,.77,0.070") == ["0.07", "0.77"]
    assert parse_codes("4.0..4.2") == ["4.0", "4.1", "4.2"]
    assert len(parse_codes("0.01..0.77")) == 63
    for bad, message in [("0.8", "bad octal code"), ("0.1,,0.2", "bad code list")]:
        with pytest.raises(InvalidPositionError, match=message):
            parse_codes(bad)
    with pytest.raises(InvalidPositionError, match="same number of digits"):
        parse_codes("0.1..0.77")
    with pytest.raises(InvalidPositionError, match="empty code range"):
        parse_codes("0.7..0.1")
    with pytest.raises(TooLargeError):
        parse_codes("0.0001..0.7777", max_tasks=100)


def test_specs() -> None:
    assert octal_task("0.07", 1000).spec == "octal(0.07;upto=1000)"
    assert scoring_task([2, 4, 5]).spec == "scoring(5,4,2)"
    assert solve_task("sn", [1, 3, 3]).spec == "sn(3,3,1)"
    assert solve_task("kn-empty", [1, 3, 3], misere=True).spec == "kn-empty(3,3,1;misere)"
    with pytest.raises(UnknownGameError, match="known variants: sn, fsn, kn, kn-empty"):
        solve_task("xx", [1])
    with pytest.raises(InvalidPositionError, match="no chips"):
        solve_task("sn", [0, 0])
    for bad in ["octal(0.07)", "scoring(1;misere)", "sn(1;normal)", "nim(1)", "scoring()"]:
        with pytest.raises((InvalidPositionError, UnknownGameError)):
            parse_spec(bad)


heaps = st.lists(st.integers(0, 30), min_size=1, max_size=4)
chips = heaps.filter(any)
specs = st.one_of(
    st.builds(lambda h: scoring_task([x + 1 for x in h]), heaps),
    st.builds(
        solve_task, st.sampled_from(["sn", "fsn", "kn", "kn-empty"]), chips, misere=st.booleans()
    ),
    st.builds(octal_task, st.sampled_from(["0.07", "4.7", "0.137", "0.0"]), st.integers(0, 10**6)),
)


@given(specs)
def test_spec_round_trip(task: Any) -> None:
    assert parse_spec(task.spec) == task
    assert parse_spec(task.spec).spec == task.spec


axes = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3)), min_size=1, max_size=3)


@given(axes)
def test_grid_is_the_set_of_multisets_of_the_product(ranges: list[tuple[int, int]]) -> None:
    grid = ",".join(f"{a}..{a + k}" if k else str(a) for a, k in ranges)
    cells = itertools.product(*(range(a, a + k + 1) for a, k in ranges))
    assert parse_grid(grid) == sorted({tuple(sorted(cell, reverse=True)) for cell in cells})

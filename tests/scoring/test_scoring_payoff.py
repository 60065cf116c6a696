"""Exact payoff functions: the piecewise-linear algebra, both engines, the brute-force twin."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.scoring import payoff as payoff_module
from nimlab.scoring.payoff import (
    c_minus,
    c_plus,
    canonical,
    children,
    count_states,
    payoff_function,
    payoff_value,
    solve_payoffs,
    sub_positions,
)
from nimlab.scoring.piecewise import PiecewiseLinear, maximum

rationals = st.fractions(min_value=-30, max_value=30, max_denominator=12)
small_positions = st.lists(st.integers(min_value=0, max_value=6), min_size=0, max_size=3)


@st.composite
def functions(draw: st.DrawFn) -> PiecewiseLinear:
    xs = sorted(set(draw(st.lists(rationals, min_size=1, max_size=5))))
    ys = [draw(rationals) for _ in xs]
    return PiecewiseLinear.from_points(
        list(zip(xs, ys, strict=True)), draw(rationals), draw(rationals)
    )


@settings(max_examples=120, deadline=None)
@given(st.lists(functions(), min_size=1, max_size=4), st.lists(rationals, min_size=1, max_size=8))
def test_maximum_is_pointwise(fs: list[PiecewiseLinear], xs: list[Fraction]) -> None:
    m = maximum(fs)
    for x in xs:
        assert m(x) == max(f(x) for f in fs)
    # canonical: rebuilding from its own breakpoints gives the same object
    if m.breakpoints:
        assert PiecewiseLinear.from_points(m.breakpoints, m.slope_left, m.slope_right) == m
    # between and beyond breakpoints the maximum is linear (kinks are all listed)
    cuts = [x for x, _ in m.breakpoints] or [Fraction(0)]
    for a, b in zip([cuts[0] - 3, *cuts], [*cuts, cuts[-1] + 3], strict=True):
        mid = (a + b) / 2
        assert m(mid) * 2 == m(a) + m(b)
        assert max(f(mid) for f in fs) == m(mid)


@settings(max_examples=100, deadline=None)
@given(functions(), rationals, rationals)
def test_negation_and_shift(f: PiecewiseLinear, c: Fraction, x: Fraction) -> None:
    assert (-f)(x) == -f(x)
    assert (f + c)(x) == f(x) + c
    assert (c - f)(x) == c - f(x)


def test_from_points_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="at least one"):
        PiecewiseLinear.from_points([], 0, 0)
    with pytest.raises(ValueError, match="increasing"):
        PiecewiseLinear.from_points([(1, 0), (1, 2)], 0, 0)
    with pytest.raises(ValueError, match="no functions"):
        maximum([])


def test_sub_positions_match_count_and_children() -> None:
    for root in [(), (3,), (1, 2), (2, 2, 5), (1, 3, 3, 4)]:
        keys = sub_positions(root)
        assert len(keys) == len(set(keys)) == count_states(root)
        known = set(keys)
        for key in keys:
            for stones, child in children(key):
                assert child in known and sum(key) - sum(child) == stones
    # every distinct multiset after a move appears once
    assert sorted(c for _, c in children((2, 2))) == [(1, 2), (2,)]


def test_engines_agree_on_all_small_positions() -> None:
    for root in [(6, 6, 6), (4, 4, 4, 4), (12, 12)]:
        grid = solve_payoffs(root)
        exact = solve_payoffs(root, method="exact")
        assert grid.method == "grid" and exact.method == "exact"
        for key in grid.keys:
            assert grid.function(key) == exact.function(key), key


def test_compiled_kernel_matches_numpy() -> None:
    pytest.importorskip("numba")
    compiled = solve_payoffs([8, 8, 8], compiled=True)
    plain = solve_payoffs([8, 8, 8], compiled=False)
    assert compiled.functions() == plain.functions()
    assert compiled.function([8, 5, 3]) == solve_payoffs([8, 5, 3], method="exact").function(
        [8, 5, 3]
    )


@settings(max_examples=60, deadline=None)
@given(small_positions, rationals)
def test_function_matches_brute_force(heaps: list[int], bonus: Fraction) -> None:
    assert payoff_function(heaps)(bonus) == payoff_value(heaps, bonus)


def test_brute_force_on_a_larger_position() -> None:
    f = payoff_function([9, 7, 4])
    for bonus in [Fraction(-31, 3), -6, Fraction(-1, 2), 0, Fraction(5, 7), 11, 40]:
        assert f(bonus) == payoff_value([9, 7, 4], bonus)


def test_order_and_zero_piles_do_not_matter() -> None:
    assert canonical([0, 3, 1, 0]) == (1, 3)
    assert payoff_function([3, 0, 1]) == payoff_function([1, 3])


def test_terminal_position() -> None:
    f = payoff_function([])
    assert f.breakpoints == () and f(7) == -7  # f_N(0) = -N (seed 004, Sect. 3)


def test_c_plus_c_minus_definitions_match_tails() -> None:
    solution = solve_payoffs((5, 5, 5))
    for key in solution.keys:
        f = solution.function(key)
        assert c_plus(key) == f.intercept_right, key
        assert c_minus(key) == f.intercept_left, key


def test_invalid_input() -> None:
    with pytest.raises(InvalidPositionError):
        payoff_function([3, -1])
    with pytest.raises(InvalidPositionError):
        payoff_function([2.5])
    with pytest.raises(InvalidPositionError):
        solve_payoffs([2], method="magic")  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="not reachable"):
        solve_payoffs([2, 1]).function([3])


def test_too_large_gives_estimate() -> None:
    cells = count_states([30, 30, 30]) * (2 * 92 + 1)
    with pytest.raises(TooLargeError, match="--max-cells") as caught:
        payoff_function([30, 30, 30], max_cells=10_000)
    assert f"{cells} cells" in str(caught.value) and "would take about" in str(caught.value)
    payoff_function([30, 30, 30], max_cells=cells)  # the grid method fits its own cells
    with pytest.raises(TooLargeError, match="exact method"):  # 409 s measured
        payoff_function([30, 30, 30], method="exact", max_cells=cells)


def _synthetic_moves(
    table: list[list[tuple[int, int]]],
) -> list[tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]]:
    return [
        (
            np.array([t for t, _ in row], dtype=np.int64),
            np.array([c for _, c in row], dtype=np.intp),
        )
        for row in table
    ]


# state 0 = no stones (f = -N); state 1 takes 1 to state 0 (f = 1 + N); state 2 may take 1 to
# state 0 (1 + N) or "3" to state 1 (2 - N): they cross at N = 1/2, a kink between integers
# that no Nim position has (Prop. 3.1) but that the certificate must catch.
HALF_INTEGER_KINK = [[], [(1, 0)], [(1, 0), (3, 1)]]


@pytest.mark.parametrize("compiled", [False, True])
def test_certificates_catch_what_the_grid_cannot_see(compiled: bool) -> None:
    solve = payoff_module._solve_compiled if compiled else payoff_module._solve_grid
    if compiled:
        pytest.importorskip("numba")
    with pytest.raises(payoff_module._NotIntegralError):
        solve(_synthetic_moves(HALF_INTEGER_KINK), 4)
    # f_N(5) = 4 + |1 + N| has its kink at N = -1: a window [-1, 1] cannot certify the left tail
    keys = sub_positions((5,))
    with pytest.raises(payoff_module._WindowTooNarrowError):
        solve(payoff_module._moves_table(keys), 1)
    assert solve(payoff_module._moves_table(keys), 3)[-1].tolist() == [6, 5, 4, 5, 6, 7, 8]


def test_failed_certificate_falls_back_to_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise payoff_module._NotIntegralError

    monkeypatch.setattr(payoff_module, "_solve_grid", refuse)
    solution = solve_payoffs([4, 2, 1], compiled=False)
    assert solution.method == "exact"
    assert solution.function([4, 2, 1]) == solve_payoffs([4, 2, 1], method="exact").function(
        [4, 2, 1]
    )

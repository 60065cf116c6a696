"""Numeric lifting (:mod:`nimlab.equilibrium.lifting`) against python-flint's exact solve."""

from __future__ import annotations

from fractions import Fraction
from math import gcd

import flint
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nimlab.equilibrium.certify as certify_module
from nimlab.equilibrium.lifting import SparseExactSolver
from nimlab.hidden.solve import solve


@st.composite
def systems(draw: st.DrawFn) -> tuple[int, list[tuple[int, int, int]], list[int]]:
    """A square sparse integer matrix (often singular) and a right-hand side."""
    size = draw(st.integers(1, 9))
    cells = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1), st.integers(-9, 9))
    entries = {(i, j): v for i, j, v in draw(st.lists(cells, max_size=3 * size))}
    if draw(st.booleans()):  # a nonzero diagonal makes most of them regular
        entries.update({(k, k): draw(st.integers(1, 20)) for k in range(size)})
    rhs = draw(st.lists(st.integers(-50, 50), min_size=size, max_size=size))
    return size, [(i, j, v) for (i, j), v in entries.items()], rhs


def _flint(size: int, entries: list[tuple[int, int, int]]) -> flint.fmpq_mat:
    matrix = flint.fmpq_mat(size, size)
    for i, j, v in entries:
        matrix[i, j] = v
    return matrix


@settings(max_examples=300, deadline=None)
@given(systems(), st.booleans())
def test_lifting_gives_the_exact_solution_or_refuses(
    system: tuple[int, list[tuple[int, int, int]], list[int]], transposed: bool
) -> None:
    size, entries, rhs = system
    exact = _flint(size, entries)
    if transposed:
        exact = exact.transpose()
    try:
        found = SparseExactSolver.from_entries(size, entries).solve(rhs, transposed=transposed)
    except ArithmeticError:
        assert exact.det() == 0  # refused only when there is no unique solution
        return
    assert exact.det() != 0
    solved = exact.solve(flint.fmpq_mat(size, 1, rhs))
    assert found == [Fraction(int(solved[k, 0].p), int(solved[k, 0].q)) for k in range(size)]


@pytest.mark.parametrize("size", [8, 14])
def test_an_ill_conditioned_matrix_is_solved_exactly_or_refused(size: int) -> None:
    """Hilbert matrices scaled to integers: of order 8 (condition number about 1e10) lifting
    still gains bits and is exact; of order 14 (about 1e19, beyond float64) it cannot, and
    says so rather than answer wrongly (the certificate then uses the dense solve)."""
    scale = 1
    for k in range(1, 2 * size):
        scale = scale * k // gcd(scale, k)
    entries = [(i, j, scale // (i + j + 1)) for i in range(size) for j in range(size)]
    rhs = [1] * size
    if size == 14:
        with pytest.raises(ArithmeticError, match="ill-conditioned"):
            SparseExactSolver.from_entries(size, entries).solve(rhs)
        return
    found = SparseExactSolver.from_entries(size, entries).solve(rhs)
    solved = _flint(size, entries).solve(flint.fmpq_mat(size, 1, rhs))
    assert found == [Fraction(int(solved[k, 0].p), int(solved[k, 0].q)) for k in range(size)]


def test_the_certificate_falls_back_to_the_dense_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    """With rounding disabled and lifting failing, the dense rational solve certifies."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise ArithmeticError("refused for the test")

    monkeypatch.setattr(certify_module, "DENOMINATORS", (1,))
    monkeypatch.setattr(certify_module, "SparseExactSolver", refuse)
    result = solve("sn", (3, 3, 1))  # SN(3,3,1) = 1/3 (seed 000, Fig. 2)
    assert result.exact and result.value == Fraction(1, 3)
    assert result.certificate.method.endswith("exact optimal basis (python-flint)")
    monkeypatch.setattr(certify_module, "BASIS_LIMIT", 0)  # and without it, no certificate
    assert not solve("sn", (3, 2, 1)).exact

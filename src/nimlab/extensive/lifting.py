"""Exact solutions of sparse integer systems ``A x = b`` by numeric lifting (Wan's
numeric-symbolic iteration) with early rational reconstruction, each answer checked exactly
before it is returned.

The exact certificate of an LP re-solves the optimal basis in rationals. A dense rational
solve (python-flint's ``fmpq_mat.solve``) works to a Hadamard bound that, for the 1,168-square
basis of Leduc poker, is thousands of digits long, while the answer's denominators have 31
digits; it took 2.8 s per system. Here ``A`` is factored once in floating point (SuperLU,
through scipy), and each step solves for the current integer residual, scales the float
solution by a power of two as far as its accuracy allows, rounds it to integers and updates
the residual exactly: the scaled sum converges to the solution by some 20-40 bits a step.
After each step a candidate with one common denominator is read off by continued fractions
and checked against ``A x = b`` in exact integers (a sparse product); the first one that
passes is the solution. The transposed system reuses the factors. A matrix the float
factorisation cannot handle (singular or too ill-conditioned to gain bits) raises
:class:`ArithmeticError`, and the caller falls back to a dense rational solve.

>>> solver = SparseExactSolver(2, [(0, 0, 1), (0, 1, 4), (1, 0, 8), (1, 1, 3)])
>>> solver.solve([0, 1])
[Fraction(4, 29), Fraction(-1, 29)]
>>> solver.solve([0, 1], transposed=True)
[Fraction(8, 29), Fraction(-1, 29)]
>>> SparseExactSolver(2, [(0, 0, 1), (1, 0, 2)])
Traceback (most recent call last):
  ...
ArithmeticError: the matrix is singular in floating point
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np

__all__ = ["SparseExactSolver"]

MAX_STEPS = 400
"""Lifting steps before giving up (each gains at least :data:`MIN_BITS`)."""

MIN_BITS = 4
"""A step that gains fewer bits than this means the float factors are too inaccurate."""

MAX_BITS = 40
"""The most bits taken from one float solve (float64 has 53)."""


class SparseExactSolver:
    """A square sparse integer matrix, factored in floating point, solving ``A x = b`` and
    ``A^T x = b`` exactly.

    ``entries`` are ``(row, column, value)`` with integer values (others zero).
    """

    def __init__(self, size: int, entries: Iterable[tuple[int, int, int]]) -> None:
        import warnings

        from scipy.sparse import csc_matrix  # type: ignore[import-untyped]
        from scipy.sparse.linalg import MatrixRankWarning, splu  # type: ignore[import-untyped]

        self.size = size
        self.entries = [(i, j, int(v)) for i, j, v in entries if v]
        rows, cols, values = zip(*self.entries, strict=True) if self.entries else ((), (), ())
        self.matrix = csc_matrix((np.array(values, dtype=float), (rows, cols)), shape=(size, size))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", MatrixRankWarning)
                self.factors = splu(self.matrix)
        except (RuntimeError, MatrixRankWarning) as error:
            raise ArithmeticError("the matrix is singular in floating point") from error

    def solve(self, rhs: Sequence[int], *, transposed: bool = False) -> list[Fraction]:
        """The exact solution of ``A x = rhs`` (or ``A^T x = rhs``), checked before it is
        returned; :class:`ArithmeticError` if the float factors cannot reach it."""
        entries = [(j, i, v) for i, j, v in self.entries] if transposed else self.entries
        trans = "T" if transposed else "N"
        target = [int(b) for b in rhs]
        residual = list(target)
        numerators = [0] * self.size
        scale = 1  # the solution is numerators / scale + A^-1 residual / scale
        for _ in range(MAX_STEPS):
            if not any(residual):
                return [Fraction(n, scale) for n in numerators]
            approx = self.factors.solve(np.array(residual, dtype=float), trans=trans)
            if not np.all(np.isfinite(approx)):
                raise ArithmeticError("the float solve diverged")
            size = max(abs(r) for r in residual)
            product = (self.matrix.T if transposed else self.matrix) @ approx
            error = float(np.max(np.abs(np.array(residual, dtype=float) - product)))
            bits = MAX_BITS if error == 0 else min(MAX_BITS, int(math.log2(size / error)) - 1)
            if bits < MIN_BITS:
                raise ArithmeticError("the matrix is too ill-conditioned for float lifting")
            gained = 1 << bits
            digit = [round(v * gained) for v in approx.tolist()]
            product = _product(entries, digit, self.size)
            residual = [gained * r - a for r, a in zip(residual, product, strict=True)]
            numerators = [gained * n + d for n, d in zip(numerators, digit, strict=True)]
            scale *= gained
            found = _reconstruct(numerators, scale, entries, target)
            if found is not None:
                return found
        raise ArithmeticError(f"no exact solution found in {MAX_STEPS} lifting steps")


def _product(entries: list[tuple[int, int, int]], vector: Sequence[int], size: int) -> list[int]:
    """``A @ vector`` in exact integers."""
    product = [0] * size
    for i, j, v in entries:
        product[i] += v * vector[j]
    return product


def _reconstruct(
    numerators: list[int], scale: int, entries: list[tuple[int, int, int]], target: list[int]
) -> list[Fraction] | None:
    """The candidate read off ``numerators / scale`` with one common denominator (each
    entry's best approximation with a denominator up to about ``sqrt(scale)``), if it
    solves the system exactly."""
    limit = max(1, math.isqrt(scale) >> 2)
    denominator = 1
    for n in numerators:
        if (n * denominator) % scale:
            near = Fraction(n, scale) * denominator
            found = near.limit_denominator(limit)
            denominator *= found.denominator
            if denominator > limit:
                return None
    candidate = [round(Fraction(n * denominator, scale)) for n in numerators]
    product = _product(entries, candidate, len(target))
    if any(a != denominator * b for a, b in zip(product, target, strict=True)):
        return None
    return [Fraction(c, denominator) for c in candidate]

"""Exact solutions of sparse integer systems ``A x = b`` by numeric lifting (Wan's
numeric-symbolic iteration) with early rational reconstruction, each answer checked exactly
before it is returned.

The exact certificate of an LP re-solves the optimal basis in rationals. A dense rational
solve (python-flint's ``fmpq_mat.solve``) works to a Hadamard bound that, for the 1,168-square
basis of Leduc poker, is thousands of digits long, while the answer's denominators have 31
digits; it took 2.8 s per system. Here ``A`` is factored once in floating point, and each
step solves for the current integer residual, scales the float solution by a power of two
as far as its accuracy allows, rounds it to integers and updates the residual exactly: the
scaled sum converges to the solution by some 20-40 bits a step. After each step a
candidate with one common denominator is read off by continued fractions and checked
against ``A x = b`` in exact integers (a sparse product); the first one that passes is the
solution. The transposed system reuses the factors.

The factors are HiGHS's: ``A`` is passed as the constraint matrix of an LP whose columns are
all basic, and HiGHS's LU factorisation of that basis (made for the bases of sparse LPs,
which these are) solves with ``A`` and its transpose (``getBasisSolve``,
``getBasisTransposeSolve``). SciPy's SuperLU, used before, had not factored the
229,248-column basis of KN(6,4,1) after 10 minutes; HiGHS's factors lift it in 2.5 s
(``BENCHMARKS.md``, session 22).
The integer work is done on numpy arrays (``int64`` while the numbers fit, Python integers
in object arrays past that), not entry by entry.

A matrix HiGHS finds singular (it then swaps a slack into the basis) raises
:class:`ArithmeticError`, and so does one too ill-conditioned to gain bits; the caller falls
back to a dense rational solve.

>>> solver = SparseExactSolver.from_entries(2, [(0, 0, 1), (0, 1, 4), (1, 0, 8), (1, 1, 3)])
>>> solver.solve([0, 1])
[Fraction(4, 29), Fraction(-1, 29)]
>>> solver.solve([0, 1], transposed=True)
[Fraction(8, 29), Fraction(-1, 29)]
>>> SparseExactSolver.from_entries(2, [(0, 0, 1), (1, 0, 2)])
Traceback (most recent call last):
  ...
ArithmeticError: the matrix is singular in floating point
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from nimlab.equilibrium.csc import Csc
from nimlab.equilibrium.lp import configured_highs, pass_columnwise

__all__ = ["SparseExactSolver"]

MAX_STEPS = 400
"""Lifting steps before giving up (each gains at least :data:`MIN_BITS`)."""

MIN_BITS = 4
"""A step that gains fewer bits than this means the float factors are too inaccurate."""

MAX_BITS = 40
"""The most bits taken from one float solve (float64 has 53)."""

SAFE = 2**62
"""Integer vectors stay in ``int64`` while every sum they take part in stays below this."""

Integers = npt.NDArray[Any]
"""A vector of exact integers: ``int64``, or ``object`` holding Python integers."""


class SparseExactSolver:
    """A square sparse integer matrix, factored in floating point, solving ``A x = b`` and
    ``A^T x = b`` exactly. ``matrix`` is a SciPy sparse matrix or a
    :class:`~nimlab.equilibrium.csc.Csc` (no SciPy needed), with integer entries."""

    def __init__(self, matrix: Any) -> None:
        import highspy

        size = matrix.shape[0]
        if matrix.shape != (size, size):
            raise ValueError(f"a square matrix is needed, not {matrix.shape}")
        columns = _integer_columns(matrix)
        self.size = size
        # A x is a sum per column of A^T (held as columns), A^T x one per column of A
        self.products = (_Product(columns.transpose()), _Product(columns))
        self.highs = configured_highs()
        inf = highspy.kHighsInf
        free, zeros = (np.full(size, -inf), np.full(size, inf)), (np.zeros(size), np.zeros(size))
        status = pass_columnwise(self.highs, columns, np.zeros(size), free, zeros)
        if status != highspy.HighsStatus.kOk:
            raise ArithmeticError("HiGHS refused the matrix")
        basis = highspy.HighsBasis()
        basis.col_status = [highspy.HighsBasisStatus.kBasic] * size
        basis.row_status = [highspy.HighsBasisStatus.kLower] * size
        if self.highs.setBasis(basis) != highspy.HighsStatus.kOk:
            raise ArithmeticError("HiGHS could not factor the matrix")
        _, basic = self.highs.getBasicVariables()
        self.order = np.asarray(basic, dtype=np.int64)  # the column at each basis position
        if size and int(self.order.min()) < 0:  # HiGHS swapped a slack in: A is singular
            raise ArithmeticError("the matrix is singular in floating point")

    @classmethod
    def from_entries(cls, size: int, entries: Iterable[tuple[int, int, int]]) -> SparseExactSolver:
        """The solver of the ``size``-square matrix with ``entries`` ``(row, column, value)``
        (the others zero; repeated cells add up)."""
        from scipy.sparse import coo_matrix  # type: ignore[import-untyped]

        triples = np.array(list(entries), dtype=np.int64).reshape(-1, 3)
        matrix = coo_matrix((triples[:, 2], (triples[:, 0], triples[:, 1])), shape=(size, size))
        return cls(matrix)

    def _float_solve(self, rhs: npt.NDArray[np.float64], transposed: bool) -> Any:
        """``A^-1 rhs`` (or ``A^-T rhs``) in floating point, from HiGHS's factors."""
        if transposed:  # B = A[:, order]: B^T w = rhs[order] is A^T w = rhs
            return np.asarray(self.highs.getBasisTransposeSolve(rhs[self.order])[1])
        found = np.empty(self.size)
        found[self.order] = np.asarray(self.highs.getBasisSolve(rhs)[1])
        return found

    def solve(self, rhs: Sequence[int], *, transposed: bool = False) -> list[Fraction]:
        """The exact solution of ``A x = rhs`` (or ``A^T x = rhs``), checked before it is
        returned; :class:`ArithmeticError` if the float factors cannot reach it."""
        matrix = self.products[1 if transposed else 0]
        target = _integers([int(b) for b in rhs])
        residual = target
        numerators: Integers = np.zeros(self.size, dtype=object)
        scale = 1  # the solution is numerators / scale + A^-1 residual / scale
        for _ in range(MAX_STEPS):
            if not residual.any():
                return [Fraction(int(n), scale) for n in numerators]
            floats = residual.astype(np.float64)
            approx = self._float_solve(floats, transposed)
            if not np.all(np.isfinite(approx)):
                raise ArithmeticError("the float solve diverged")
            size = float(np.max(np.abs(floats)))
            error = float(np.max(np.abs(floats - matrix.floats(approx))))
            bits = MAX_BITS if error == 0 else min(MAX_BITS, int(math.log2(size / error)) - 1)
            if bits < MIN_BITS:
                raise ArithmeticError("the matrix is too ill-conditioned for float lifting")
            gained = 1 << bits
            digit = _integers(np.rint(approx * gained))
            residual = _integers(_scaled(residual, gained) - matrix.times(digit))
            numerators = numerators * gained + digit.astype(object)
            scale *= gained
            found = _reconstruct(numerators, scale, matrix, target)
            if found is not None:
                return found
        raise ArithmeticError(f"no exact solution found in {MAX_STEPS} lifting steps")


def _integers(values: Any) -> Integers:
    """``values`` (integers, or floats holding integers) as ``int64`` if they fit well
    within it, else as Python integers in an object array."""
    array = np.asarray(values)
    if array.dtype != object and (not array.size or float(np.max(np.abs(array))) < 2**52):
        return array.astype(np.int64)
    if array.dtype == object:
        return array
    return np.array([int(v) for v in array.tolist()], dtype=object)


def _scaled(vector: Integers, factor: int) -> Integers:
    """``factor * vector`` exactly."""
    if vector.dtype != object and float(np.max(np.abs(vector), initial=0)) * factor < SAFE:
        return vector * factor
    return vector.astype(object) * factor


def _integer_columns(matrix: Any) -> Csc:
    """``matrix`` (SciPy sparse or :class:`Csc`) as a :class:`Csc` of ``int64``."""
    if isinstance(matrix, Csc):
        try:
            data = matrix.data.astype(np.int64)
        except OverflowError as error:  # entries past 64 bits
            raise ArithmeticError("the matrix has entries past 64 bits") from error
        return Csc(matrix.shape, matrix.indptr, matrix.indices, data)
    from scipy.sparse import csc_matrix

    columns = csc_matrix(matrix, dtype=np.int64)
    columns.eliminate_zeros()
    columns.sort_indices()
    return Csc(
        (int(columns.shape[0]), int(columns.shape[1])),
        columns.indptr.astype(np.int64),
        columns.indices.astype(np.int64),
        columns.data,
    )


class _Product:
    """Exact products ``M @ x`` with an integer matrix ``M`` given by the columns of its
    transpose ``rows`` (a sum per column)."""

    def __init__(self, rows: Csc) -> None:
        self.rows = rows
        absolute = Csc(rows.shape, rows.indptr, rows.indices, np.abs(rows.data).astype(np.float64))
        self.widest = float(np.max(absolute.transposed_times(np.ones(rows.shape[0])), initial=0))
        """The largest sum of absolute values in a row of ``M``."""
        self.float_rows = Csc(rows.shape, rows.indptr, rows.indices, rows.data.astype(np.float64))

    def floats(self, vector: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """``M @ vector`` in floating point."""
        return self.float_rows.transposed_times(vector)

    def times(self, vector: Integers) -> Integers:
        """``M @ vector`` in exact integers."""
        if vector.dtype != object and float(np.max(np.abs(vector), initial=0)) * self.widest < SAFE:
            return np.asarray(self.rows.transposed_times(vector.astype(np.int64)), dtype=np.int64)
        return self.rows.transposed_times(vector.astype(object))


def _reconstruct(
    numerators: Integers, scale: int, matrix: _Product, target: Integers
) -> list[Fraction] | None:
    """The candidate read off ``numerators / scale`` with one common denominator (each
    entry's best approximation with a denominator up to about ``sqrt(scale)``), if it
    solves the system exactly. A few entries are tried first (:data:`SAMPLE`): while the
    scale is too small for them, as in most steps, the whole vector is not worked on."""
    limit = max(1, math.isqrt(scale) >> 2)
    if len(numerators) > 2 * SAMPLE:
        picked = numerators[:: len(numerators) // SAMPLE]
        if _common_denominator(picked, scale, limit, 1) is None:
            return None
    denominator = _common_denominator(numerators, scale, limit, 1)
    if denominator is None:
        return None
    candidate = (numerators * denominator + scale // 2) // scale
    product = matrix.times(candidate)
    if not np.array_equal(product.astype(object), target.astype(object) * denominator):
        return None
    return [Fraction(int(c), denominator) for c in candidate]


SAMPLE = 16
"""Entries tried before the whole vector in a reconstruction."""


def _common_denominator(
    numerators: Integers, scale: int, limit: int, denominator: int
) -> int | None:
    """A multiple of ``denominator`` up to ``limit`` near which every ``numerators / scale``
    times it is an integer, grown one entry at a time (``None`` past ``limit``)."""
    while True:  # grow the denominator until every entry is near a multiple of 1/denominator
        remainder = (numerators * denominator) % scale
        far = np.flatnonzero(np.minimum(remainder, scale - remainder) * limit > scale)
        if not len(far):
            return denominator
        near = Fraction(int(numerators[far[0]]), scale) * denominator
        found = near.limit_denominator(limit).denominator
        denominator *= found
        if found == 1 or denominator > limit:
            return None

"""The sequence-form linear program, solved in floating point with HiGHS.

L maximises ``f^T q`` over ``x >= 0`` and free ``q`` subject to ``F^T q - A^T x <= 0`` and
``E x = e`` (the dual of R's inner minimisation). The row duals of the first block are R's
realisation plan ``y``. Floats only *propose*: :mod:`nimlab.equilibrium.certify` disposes.

>>> from nimlab.hidden.tree import build_tree
>>> from nimlab.equilibrium.seqform import sequence_form
>>> solution = solve_lp(sequence_form(build_tree("sn", (2, 1))))
>>> round(solution.value, 9)
1.0
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from nimlab.equilibrium.seqform import SequenceForm
from nimlab.errors import NimlabError

if TYPE_CHECKING:
    from scipy.sparse import csc_matrix  # type: ignore[import-untyped]

__all__ = [
    "LpSolution",
    "ModelOptimum",
    "configured_highs",
    "lp_matrix",
    "optimum",
    "pass_columnwise",
    "quiet_highs",
    "read_optimum",
    "run_model",
    "solve_columns",
    "solve_lp",
]

Vector = npt.NDArray[np.float64]


@dataclass(frozen=True)
class LpSolution:
    """A floating-point optimum: value, both realisation plans, and HiGHS's optimal basis.

    ``basic_cols`` and ``basic_rows`` are boolean masks of the basic columns/rows of the LP of
    :func:`lp_matrix`; non-basic rows are tight. Non-basic columns are zero, except those of
    ``at_one``: columns of ``x`` bounded by 1 (a realisation plan never exceeds 1) that sit
    at that bound (:mod:`nimlab.equilibrium.warm` bounds them; :func:`solve_lp` does not).
    """

    value: float
    x: Vector
    y: Vector
    basic_cols: npt.NDArray[np.bool_]
    basic_rows: npt.NDArray[np.bool_]
    at_one: npt.NDArray[np.bool_] | None = None
    iterations: int = 0
    """Simplex iterations HiGHS took (from the kept basis, for a grown LP)."""
    values: Vector | None = None
    """Every column's value, ``x`` then ``q``, as HiGHS gave it."""
    duals: Vector | None = None
    """Every row's dual, R's sequences then L's information sets, as HiGHS gave it."""


def lp_matrix(form: SequenceForm) -> csc_matrix:
    """The constraint matrix ``[[-A^T, F^T], [E, 0]]`` over the columns ``(x, q)``."""
    from scipy.sparse import bmat

    return bmat([[-form.A.T, form.F.T], [form.E, None]], format="csc")


_FD_GUARD = threading.Lock()


def quiet_highs() -> Any:
    """A silenced ``highspy.Highs`` solver whose construction writes nothing to standard output.

    HiGHS's constructor prints a banner on file descriptor 1 before any option can stop it
    (highspy 1.16: "Running HiGHS ..."), which would corrupt ``--json`` output. File
    descriptor 1 is pointed at ``os.devnull`` while the object is built (under a lock, since
    the descriptor is shared by every thread), and the solver is silenced before it is used.

    >>> type(quiet_highs()).__name__  # nothing printed (the contract tests watch fd 1)
    'Highs'
    """
    import highspy

    with _FD_GUARD:
        sys.stdout.flush()
        try:
            saved = os.dup(1)
        except OSError:  # no file descriptor 1 at all: nothing to protect
            saved = -1
        try:
            if saved >= 0:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.close(devnull)
            solver = highspy.Highs()  # type: ignore[no-untyped-call]
        finally:
            if saved >= 0:
                os.dup2(saved, 1)
                os.close(saved)
    solver.silent()
    return solver


def solve_lp(form: SequenceForm, *, tolerance: float = 1e-10) -> LpSolution:
    """Solve the sequence-form LP with HiGHS (dual simplex) and return plans and basis (the
    LP of a growing tree is kept and extended instead: :mod:`nimlab.equilibrium.warm`)."""
    nx, nq = form.E.shape[1], form.F.shape[0]
    ny, ne = form.F.shape[1], form.E.shape[0]
    return solve_columns(lp_matrix(form), (nx, nq, ny, ne), tolerance=tolerance)


def solve_columns(
    matrix: Any, sizes: tuple[int, int, int, int], *, tolerance: float = 1e-10
) -> LpSolution:
    """Solve the LP of :func:`lp_matrix` given as compressed columns (a SciPy CSC matrix or a
    :class:`~nimlab.equilibrium.csc.Csc`, with attributes ``indptr``, ``indices`` and
    ``data``) of the sizes ``(nx, nq, ny, ne)``: L's sequences, R's information sets and
    the empty sequence, R's sequences, L's information sets and the empty sequence."""
    import highspy

    nx, nq, ny, ne = sizes
    inf = highspy.kHighsInf
    lp = highspy.HighsLp()
    lp.num_col_ = nx + nq
    lp.num_row_ = ny + ne
    cost = np.zeros(nx + nq)
    cost[nx] = -1.0  # minimise -q_0
    lp.col_cost_ = cost
    lp.col_lower_ = np.concatenate([np.zeros(nx), np.full(nq, -inf)])
    lp.col_upper_ = np.full(nx + nq, inf)
    rhs = np.zeros(ne)
    rhs[0] = 1.0
    lp.row_lower_ = np.concatenate([np.full(ny, -inf), rhs])
    lp.row_upper_ = np.concatenate([np.zeros(ny), rhs])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = matrix.indptr.astype(np.int32)
    lp.a_matrix_.index_ = matrix.indices.astype(np.int32)
    lp.a_matrix_.value_ = matrix.data.astype(np.float64)
    h = configured_highs(tolerance)
    h.passModel(lp)
    return optimum(run_model(h), np.arange(nx + nq), np.arange(ny + ne), nx, ny)


def configured_highs(tolerance: float = 1e-10) -> Any:
    """A silenced HiGHS solver set up for sequence-form LPs (dual simplex, tight tolerances)."""
    h = quiet_highs()
    for option, setting in (
        ("primal_feasibility_tolerance", tolerance),
        ("dual_feasibility_tolerance", tolerance),
        ("solver", "simplex"),
    ):
        h.setOptionValue(option, setting)
    return h


def pass_columnwise(
    h: Any,
    matrix: csc_matrix,
    cost: Vector,
    col_bounds: tuple[Vector, Vector],
    row_bounds: tuple[Vector, Vector],
) -> Any:
    """Pass HiGHS solver ``h`` the LP minimising ``cost`` over the columns of the CSC
    ``matrix`` within ``col_bounds`` and ``row_bounds`` (lower, upper), every column
    continuous; return HiGHS's status."""
    import highspy

    width, height = matrix.shape[1], matrix.shape[0]
    return h.passModel(
        width,
        height,
        matrix.nnz,
        int(highspy.MatrixFormat.kColwise),
        int(highspy.ObjSense.kMinimize),
        0.0,
        cost,
        col_bounds[0],
        col_bounds[1],
        row_bounds[0],
        row_bounds[1],
        matrix.indptr[:-1].astype(np.int32),
        matrix.indices.astype(np.int32),
        matrix.data.astype(np.float64),
        np.zeros(width, dtype=np.int32),
    )


@dataclass(frozen=True)
class ModelOptimum:
    """HiGHS's optimum in the model's own columns and rows: primal values, row duals, which
    columns and rows are basic, and the simplex iterations taken."""

    values: Vector
    duals: Vector
    basic_cols: npt.NDArray[np.bool_]
    basic_rows: npt.NDArray[np.bool_]
    iterations: int


def run_model(h: Any) -> ModelOptimum:
    """Run HiGHS on the model it holds and read the optimum (an error if there is none)."""
    h.run()
    return read_optimum(h)


def read_optimum(h: Any) -> ModelOptimum:
    """The optimum HiGHS found on the model it holds (an error if it found none)."""
    import highspy

    if h.getModelStatus() == highspy.HighsModelStatus.kMemoryLimit:
        raise MemoryError("HiGHS ran out of memory solving the sequence-form LP")
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        raise NimlabError(
            f"HiGHS did not find an optimum: {h.modelStatusToString(h.getModelStatus())}"
        )
    solution = h.getSolution()
    values = np.asarray(solution.col_value)
    basic_cols, basic_rows = _basic_masks(h, len(values), h.getNumRow())
    return ModelOptimum(
        values,
        np.asarray(solution.row_dual),
        basic_cols,
        basic_rows,
        int(h.getInfo().simplex_iteration_count),
    )


def optimum(
    found: ModelOptimum,
    columns: npt.NDArray[np.int64],
    rows: npt.NDArray[np.int64],
    nx: int,
    ny: int,
) -> LpSolution:
    """The solution of the LP of :func:`lp_matrix` read off ``found``, the optimum of a model
    whose column ``j`` and row ``i`` are the LP's ``columns[j]`` and ``rows[i]``; the first
    ``nx`` columns are ``x``, the first ``ny`` rows are R's sequences."""
    col_value = found.values[columns]
    row_dual = found.duals[rows]
    basic_cols, basic_rows = found.basic_cols[columns], found.basic_rows[rows]
    # a non-basic x sits at one of its bounds, 0 or 1 (only the kept models bound x by 1)
    at_one = np.zeros(len(columns), dtype=np.bool_)
    at_one[:nx] = ~basic_cols[:nx] & (col_value[:nx] > 0.5)
    return LpSolution(
        value=float(col_value[nx]),
        x=np.clip(col_value[:nx], 0.0, None),
        y=np.abs(row_dual[:ny]),
        basic_cols=basic_cols,
        basic_rows=basic_rows,
        at_one=at_one if at_one.any() else None,
        iterations=found.iterations,
        values=col_value,
        duals=row_dual,
    )


def _basic_masks(h: Any, width: int, height: int) -> tuple[npt.NDArray[np.bool_], ...]:
    """Which of the model's columns and rows are basic, read from HiGHS's array of basic
    variables (a column ``j`` as ``j``, a row ``i`` as ``-1 - i``): one numpy array rather
    than a Python object per status, which cost seconds a round on large models."""
    import highspy

    status, basic = h.getBasicVariables()
    if status != highspy.HighsStatus.kOk:
        raise NimlabError("HiGHS has no basis for the sequence-form LP it solved")
    cols, rows = np.zeros(width, dtype=np.bool_), np.zeros(height, dtype=np.bool_)
    cols[basic[basic >= 0]] = True
    rows[-1 - basic[basic < 0]] = True
    return cols, rows

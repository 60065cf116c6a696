"""Exact certification: rational behaviour strategies and exact best-response values.

Given any pair of behaviour strategies, the exact value of R's best response to L's strategy
is a lower bound on the game value and the value of L's best response to R's strategy an upper
bound; when they coincide the pair is an equilibrium and the common number *is* the value.
All arithmetic here is on Python integers and fractions; terminal payoffs are integers of any
size (see :class:`~nimlab.equilibrium.seqform.SequenceTree`), so the bounds are in the tree's
payoff unit.

>>> from nimlab.hidden.tree import build_tree
>>> tree = build_tree("sn", (2, 1))
>>> uniform = [tuple(Fraction(1, len(i.actions)) for _ in i.actions) for i in tree.infosets]
>>> best_response_value(tree, 1, realisation_plan(tree, 0, uniform))
Fraction(-1, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np
import numpy.typing as npt

from nimlab.equilibrium.csc import Csc
from nimlab.equilibrium.lifting import SparseExactSolver
from nimlab.equilibrium.lp import LpSolution, lp_matrix
from nimlab.equilibrium.seqform import (
    LpColumns,
    SequenceForm,
    SequenceTree,
    infoset_fields,
    integer_array,
    largest_payoff,
)

__all__ = [
    "BASIS_LIMIT",
    "DENOMINATORS",
    "ROUNDING_TOLERANCE",
    "Behaviour",
    "Certificate",
    "behaviour_from_plan",
    "best_response_value",
    "certify",
    "certify_lp",
    "exact_plans_from_basis",
    "realisation_plan",
]

Behaviour = list[tuple[Fraction, ...]]
"""Action probabilities per information set of the tree (entries of the other player unused)."""


@dataclass(frozen=True)
class Certificate:
    """Exact best-response bounds ``lower <= value <= upper``; certified when they are equal."""

    lower: Fraction
    upper: Fraction
    method: str

    @property
    def certified(self) -> bool:
        """True when the bounds meet, proving the equilibrium and its value."""
        return self.lower == self.upper


def behaviour_from_plan(
    tree: SequenceTree,
    player: int,
    plan: npt.NDArray[np.float64] | Sequence[float] | Sequence[Fraction],
    denominator: int | None = None,
    *,
    tolerance: float | None = None,
) -> Behaviour | None:
    """Rational behaviour of ``player`` from a realisation plan (float or exact).

    Each probability ``x(sa)/x(s)`` is clamped at 0 and, for a float plan, rounded to the
    nearest fraction with denominator at most ``denominator``; each distribution is then
    re-normalised to sum exactly to 1. Information sets the plan does not reach get their
    first action. The result is always a valid behaviour strategy; with ``tolerance``,
    ``None`` when some rounded probability is further than that from the float one (then a
    certificate from this rounding is hopeless, and not worth computing).

    A numpy plan takes a vectorised path (:func:`_behaviour_from_array`) giving the same
    result as this scalar loop, which handles lists of floats or fractions.

    >>> from nimlab.hidden.tree import build_tree
    >>> tree = build_tree("sn", (2, 1))
    >>> behaviour_from_plan(tree, 0, np.array([1.0, 0.0, 1.0, 0.0]), 10)[0]
    (Fraction(0, 1), Fraction(1, 1), Fraction(0, 1))
    >>> behaviour_from_plan(tree, 0, [1.0, 0.0, 1.0, 0.0], 10)[0]
    (Fraction(0, 1), Fraction(1, 1), Fraction(0, 1))
    """
    if isinstance(plan, np.ndarray):
        return _behaviour_from_array(tree, player, plan, denominator, tolerance)
    result: Behaviour = []
    cache: dict[float, Fraction] = {}
    for info in tree.infosets:
        k = len(info.actions)
        if info.player != player:
            result.append(())
            continue
        weights = [
            _ratio(plan[info.first_seq + a], plan[info.parent_seq], denominator, cache)
            for a in range(k)
        ]
        if tolerance is not None and float(plan[info.parent_seq]) > 1e-12:
            reach = float(plan[info.parent_seq])
            for a, w in enumerate(weights):
                if abs(float(plan[info.first_seq + a]) / reach - float(w)) > tolerance:
                    return None
        result.append(_normalised(weights))
    return result


def _normalised(weights: Sequence[Fraction]) -> tuple[Fraction, ...]:
    total = sum(weights, Fraction(0))
    if total == 0:
        return (Fraction(1),) + (Fraction(0),) * (len(weights) - 1)
    if total == 1:
        return tuple(weights)
    return tuple(w / total for w in weights)


def _behaviour_from_array(
    tree: SequenceTree,
    player: int,
    plan: npt.NDArray[np.float64],
    denominator: int | None,
    tolerance: float | None,
) -> Behaviour | None:
    """The vectorised twin of the scalar loop of :func:`behaviour_from_plan`.

    Ratios are computed with numpy (the same IEEE divisions), each *distinct* ratio is
    rounded once, and each distinct pattern of rounded weights is normalised once.
    """
    plan = np.asarray(plan, dtype=np.float64)
    seq_infoset = np.asarray(tree.seq_infoset[player][1:], dtype=np.int64)
    parent_of_infoset = infoset_fields(tree)[1]
    whole = plan[parent_of_infoset[seq_infoset]]
    part = plan[1:]
    reached = whole > 1e-12
    raw = np.zeros(len(part))
    np.divide(part, whole, out=raw, where=reached)
    distinct, pattern = np.unique(np.maximum(raw, 0.0), return_inverse=True)
    rounded = [
        Fraction(r).limit_denominator(denominator) if denominator else Fraction(r)
        for r in distinct.tolist()
    ]
    if tolerance is not None:
        error = np.abs(raw - np.array([float(q) for q in rounded])[pattern])
        if bool(np.any(reached & (error > tolerance))):
            return None
    ids = pattern.tolist()
    result: Behaviour = []
    normal: dict[tuple[int, ...], tuple[Fraction, ...]] = {}
    for info in tree.infosets:
        if info.player != player:
            result.append(())
            continue
        key = tuple(ids[info.first_seq - 1 : info.first_seq - 1 + len(info.actions)])
        found = normal.get(key)
        if found is None:
            found = normal[key] = _normalised([rounded[i] for i in key])
        result.append(found)
    return result


def _ratio(
    part: float | Fraction,
    whole: float | Fraction,
    denominator: int | None,
    cache: dict[float, Fraction],
) -> Fraction:
    if isinstance(part, Fraction) and isinstance(whole, Fraction):
        return max(part / whole, Fraction(0)) if whole > 0 else Fraction(0)
    if float(whole) <= 1e-12:
        return Fraction(0)
    ratio = max(float(part) / float(whole), 0.0)
    found = cache.get(ratio)
    if found is None:
        exact = Fraction(ratio)
        found = cache[ratio] = exact.limit_denominator(denominator) if denominator else exact
    return found


def realisation_plan(tree: SequenceTree, player: int, behaviour: Behaviour) -> list[Fraction]:
    """The exact realisation plan (probability of each sequence) of a behaviour strategy."""
    plan = [Fraction(0)] * tree.sequence_count(player)
    plan[0] = Fraction(1)
    owner, parents, firsts, _ = (column.tolist() for column in infoset_fields(tree))
    for index, mover in enumerate(owner):  # parents are created before children
        if mover != player:
            continue
        reach = plan[parents[index]]
        if reach:
            for a, p in enumerate(behaviour[index]):
                plan[firsts[index] + a] = reach * p
    return plan


def _scaled(plan: Sequence[Fraction]) -> tuple[list[int], int]:
    scale = lcm(*(q.denominator for q in plan if q))
    return [q.numerator * (scale // q.denominator) for q in plan], scale


def _contributions(
    tree: SequenceTree, player: int, opponent_plan: Sequence[Fraction]
) -> tuple[list[int], int]:
    """Per own sequence: sum of payoff x opponent reach over its terminals (scaled to ints)."""
    ints, scale = _scaled(opponent_plan)
    own = integer_array(tree.term_seq[player])
    other = integer_array(tree.term_seq[1 - player])
    payoff = integer_array(tree.term_payoff)
    n = tree.sequence_count(player)
    assert own is not None and other is not None  # sequence numbers fit in 64 bits
    if payoff is not None and max(ints) * largest_payoff(payoff) * max(len(payoff), 1) < 2**62:
        weights = np.asarray(ints, dtype=np.int64)[other] * payoff.astype(np.int64)
        order = np.argsort(own, kind="stable")
        sums = np.zeros(n, dtype=np.int64)
        if len(order):
            keys = own[order]
            starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
            sums[keys[starts]] = np.add.reduceat(weights[order], starts)
        return [int(v) for v in sums], scale
    contributions = [0] * n
    payoffs = tree.term_payoff if payoff is None else payoff.tolist()  # Python ints
    for s, o, u in zip(own.tolist(), other.tolist(), payoffs, strict=True):
        contributions[s] += u * ints[o]
    return contributions, scale


def best_response_value(
    tree: SequenceTree, player: int, opponent_plan: Sequence[Fraction]
) -> Fraction:
    """The exact payoff to L when ``player`` best-responds to the opponent's realisation plan
    (L = 0 maximises, R = 1 minimises), by backward induction over ``player``'s information sets."""
    best, scale = _contributions(tree, player, opponent_plan)
    pick = max if player == 0 else min
    owner, parents, firsts, widths = (column.tolist() for column in infoset_fields(tree))
    for index in range(len(owner) - 1, -1, -1):
        if owner[index] == player:
            first = firsts[index]
            best[parents[index]] += pick(best[first : first + widths[index]])
    return Fraction(best[0], scale)


def certify(
    tree: SequenceTree, behaviours: tuple[Behaviour, Behaviour], method: str
) -> Certificate:
    """Exact bounds from both players' behaviour strategies (``behaviours[p]`` for player p)."""
    x = realisation_plan(tree, 0, behaviours[0])
    y = realisation_plan(tree, 1, behaviours[1])
    return Certificate(best_response_value(tree, 1, x), best_response_value(tree, 0, y), method)


def exact_plans_from_basis(
    tree: SequenceTree,
    matrix: object,
    basic_cols: npt.NDArray[np.bool_],
    basic_rows: npt.NDArray[np.bool_],
    sizes: tuple[int, int, int, int],
    at_one: npt.NDArray[np.bool_] | None = None,
) -> tuple[list[Fraction], list[Fraction], str] | None:
    """Re-solve the LP's optimal basis in exact rationals: by numeric lifting on the sparse
    basis (:mod:`nimlab.equilibrium.lifting`), or, if its float factors fail, by python-flint's
    dense rational solve (``None`` for a basis over :data:`BASIS_LIMIT`).

    The primal ``(x, q)`` solves the tight rows restricted to the basic columns, the other
    columns being zero, or one for those of ``at_one``; the dual ``y`` solves the transposed
    system with the cost vector. Returns L's and R's realisation plans and how they were
    found.
    """
    nx, nq, ny, ne = sizes
    cols = np.flatnonzero(basic_cols)
    rows = np.flatnonzero(~basic_rows)
    rhs_full = [0] * (ny + ne)
    rhs_full[ny] = 1
    cost = [0] * (nx + nq)
    cost[nx] = -1
    ones = np.flatnonzero(at_one) if at_one is not None else np.zeros(0, dtype=np.int64)
    fixed: Any = None
    if isinstance(matrix, Csc):  # no SciPy
        sub: Any = matrix.select(rows, cols)
        if len(ones):
            fixed = matrix.column_sums(ones)
    else:
        from scipy.sparse import csc_matrix  # type: ignore[import-untyped]

        sub = csc_matrix(matrix)[rows][:, cols]
        if len(ones):
            fixed = np.asarray(csc_matrix(matrix)[:, ones].sum(axis=1)).ravel()
    if fixed is not None:  # move the columns fixed at one to the right-hand side
        rhs_full = [v - int(f) for v, f in zip(rhs_full, fixed.tolist(), strict=True)]
    primal_rhs, dual_rhs = [rhs_full[r] for r in rows], [cost[c] for c in cols]
    how = "numeric lifting"
    try:
        solver = SparseExactSolver(sub)
        primal = solver.solve(primal_rhs)
        dual = solver.solve(dual_rhs, transposed=True)
    except ArithmeticError:
        if len(rows) > BASIS_LIMIT:
            return None
        primal, dual = _dense_solve(sub, primal_rhs, dual_rhs)
        how = "python-flint"
    x = [Fraction(0)] * nx
    for one in ones.tolist():
        x[one] = Fraction(1)
    for k, c in enumerate(cols.tolist()):
        if c < nx:
            x[c] = primal[k]
    y = [Fraction(0)] * ny
    for k, r in enumerate(rows):
        if r < ny:
            y[r] = abs(dual[k])
    return x, y, how


def _dense_solve(
    matrix: Any, primal_rhs: list[int], dual_rhs: list[int]
) -> tuple[list[Fraction], list[Fraction]]:
    """``A x = primal_rhs`` and ``A^T y = dual_rhs`` by python-flint's dense rational solve
    (``A`` the square SciPy sparse ``matrix``)."""
    import flint

    size = matrix.shape[0]
    dense = flint.fmpq_mat(size, size)
    if isinstance(matrix, Csc):
        triplets = (matrix.indices, matrix.columns(), matrix.data)
    else:
        entries = matrix.tocoo()
        triplets = (entries.row, entries.col, entries.data)
    for i, j, v in zip(*(t.tolist() for t in triplets), strict=True):
        dense[i, j] = int(v)
    answers = []
    for system, rhs in ((dense, primal_rhs), (dense.transpose(), dual_rhs)):
        solved = system.solve(flint.fmpq_mat(size, 1, rhs))
        answers.append([Fraction(int(solved[k, 0].p), int(solved[k, 0].q)) for k in range(size)])
    return answers[0], answers[1]


DENOMINATORS = (100, 10_000, 1_000_000, 10_000_000, 1_000_000_000)
"""Denominator bounds tried, in turn, when rounding the LP's behaviour strategies."""

ROUNDING_TOLERANCE = 1e-7
"""A rounding that moves some reached probability further than this is not even certified
(except with the last, finest denominator bound)."""

LIFTING_LIMIT = 1_000_000
"""Largest optimal basis (basic columns) re-solved exactly when rounding does not certify:
KN(6,4,1)'s 229,248-column basis took 2.5 s and its 354,483-column one 3.4 s, each under
1 GB with its tree (``BENCHMARKS.md``, session 22)."""
BASIS_LIMIT = 1500
"""Largest optimal basis re-solved by the dense rational solve when numeric lifting fails."""


NOISE_BOUND = 1_000_000
"""A rounding to this bound or finer whose fractions come near the bound fits the floats'
noise (LP ratios are good to about ``1e-12``, and ``p/q`` is told apart from its neighbours
to within ``1/q^2``): with ``quick``, finer bounds are not tried before the exact basis."""


def _saturated(largest: int, bound: int) -> bool:
    """With ``quick``, a rounding whose largest denominator ``q`` has ``q * q`` over its
    bound is passed over at first (a fraction ``p/q`` is only told apart from its neighbours
    to within ``1/q^2``): the LP's numbers are then no small fractions (Leduc poker's value
    has 31-digit denominators), and its certificate would fail at the cost of an exact pass.

    >>> _saturated(3, 100), _saturated(11, 100), _saturated(999_983, 10**9)
    (False, True, True)
    """
    return largest * largest > bound


Found = tuple[Certificate, tuple[Behaviour, Behaviour]]


def certify_lp(
    tree: SequenceTree, form: SequenceForm | LpColumns, lp: LpSolution, *, quick: bool = False
) -> Found:
    """Exact bounds from the LP's plans: rounded with finer and finer denominators, then, if
    that does not close the gap, re-solved exactly from the optimal basis (small bases).
    ``form`` is the LP's sequence form, or its exact columns
    (:func:`~nimlab.equilibrium.seqform.lp_columns`, which spare the import of SciPy).

    With ``quick``, roundings whose fractions come near their denominator bound (see
    :func:`_saturated`) are tried only after the exact basis, so that a game whose value is
    no small fraction pays for one exact certificate, not one per denominator bound; the
    same certificates are tried in the end."""
    basis: Found | None = None
    if quick:
        found = _rounded(tree, lp, unsaturated=True)
        if found is None or not found[0].certified:
            basis = _from_basis(tree, form, lp, found)
            found = basis or found
        if found is not None and found[0].certified:
            return found
    rounded = _rounded(tree, lp) or (Certificate(Fraction(-1), Fraction(1), "none"), ([], []))
    if rounded[0].certified:
        return rounded
    if quick:  # the basis was tried already
        gap = rounded[0].upper - rounded[0].lower
        return basis if basis and basis[0].upper - basis[0].lower <= gap else rounded
    return _from_basis(tree, form, lp, rounded) or rounded


def _rounded(tree: SequenceTree, lp: LpSolution, *, unsaturated: bool = False) -> Found | None:
    """The certificate of the first rounding that certifies, or of the last one tried
    (``None`` when none is tried); with ``unsaturated``, only roundings whose denominators
    stay well under their bound are tried, each within :data:`ROUNDING_TOLERANCE`, and the
    first saturated one from :data:`NOISE_BOUND` on ends the pass."""
    found: Found | None = None
    for denominator in DENOMINATORS:
        last = denominator == DENOMINATORS[-1]
        tolerance = None if last and not unsaturated else ROUNDING_TOLERANCE
        bx = behaviour_from_plan(tree, 0, lp.x, denominator, tolerance=tolerance)
        if bx is None:  # hopeless: R's rounding need not be computed
            continue
        if unsaturated and _saturated(_largest_denominator(bx), denominator):
            if denominator >= NOISE_BOUND:
                break  # finer bounds only fit the floats' noise more closely
            continue
        by = behaviour_from_plan(tree, 1, lp.y, denominator, tolerance=tolerance)
        if by is None:
            continue
        if unsaturated and _saturated(_largest_denominator(by), denominator):
            if denominator >= NOISE_BOUND:
                break
            continue
        behaviours = (bx, by)
        found = certify(tree, behaviours, f"rounding (denominators <= {denominator})"), behaviours
        if found[0].certified:
            break
    return found


def _largest_denominator(*behaviours: Behaviour) -> int:
    """The largest denominator of the probabilities of ``behaviours`` (each distinct
    distribution read once)."""
    seen = {id(d): d for b in behaviours for d in b}
    return max((p.denominator for d in seen.values() for p in d), default=1)


def _from_basis(
    tree: SequenceTree, form: SequenceForm | LpColumns, lp: LpSolution, found: Found | None
) -> Found | None:
    """The certificate of the optimal basis re-solved exactly, when it is no wider than that
    of ``found`` (``None`` otherwise, or when the basis is too large or fails)."""
    if int(lp.basic_cols.sum()) > LIFTING_LIMIT:
        return None
    if isinstance(form, LpColumns):
        sizes, matrix = form.sizes, form.exact
    else:
        sizes = (form.E.shape[1], form.F.shape[0], form.F.shape[1], form.E.shape[0])
        matrix = lp_matrix(form)
    plans = exact_plans_from_basis(tree, matrix, lp.basic_cols, lp.basic_rows, sizes, lp.at_one)
    if plans is None:
        return None
    x, y, how = plans
    exact_x, exact_y = behaviour_from_plan(tree, 0, x), behaviour_from_plan(tree, 1, y)
    if exact_x is None or exact_y is None:
        return None
    candidate = certify(tree, (exact_x, exact_y), f"exact optimal basis ({how})")
    gap = 2 if found is None else found[0].upper - found[0].lower
    if candidate.upper - candidate.lower <= gap:
        return candidate, (exact_x, exact_y)
    return None

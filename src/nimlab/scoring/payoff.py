"""The payoff f_N(p) of Scoring Nim as an exact piecewise-linear function of the bonus N.

Scoring Nim (Oginuma and Shinoda, 2025): each stone taken scores 1, taking the last stone also
scores the bonus ``N``. ``f_N(p)`` is the score of the player to move minus the opponent's, from
``p`` on, under optimal play. Recursion (2) of the paper: ``f_N(0) = -N`` (the opponent has just
taken the bonus) and ``f_N(p) = max over moves p -> p' of (|p| - |p'| - f_N(p'))``.

Two engines compute every sub-position's function, and a brute-force twin checks both:

* ``"grid"`` (default): integer arrays of values at every integer N of a window, numpy
  vectorised. It assumes nothing: at each position it *certifies* that no kink hides between two
  integers (some maximal option is maximal at both ends of each unit interval) and that the
  window holds every kink (the tails' slopes agree); it widens the window, or falls back to the
  exact engine, when a certificate fails. Prop. 3.1 of the paper is thereby checked everywhere.
  Large jobs run the same loop compiled by numba (:mod:`nimlab.scoring.kernels`) if installed.
* ``"exact"``: :func:`~nimlab.scoring.piecewise.maximum` of exact rational functions, crossings
  found wherever they are.
* :func:`payoff_value`: the plain memoised recursion at one fixed rational N.

Zero piles are irrelevant and piles are unordered, so functions are memoised on the sorted
tuple of non-empty piles.

>>> f = payoff_function([5, 4, 2])
>>> [(str(x), str(y)) for x, y in f.breakpoints]
[('-4', '1'), ('-2', '3'), ('-1', '2'), ('0', '3'), ('1', '2'), ('2', '3'), ('4', '1')]
>>> f(3), payoff_value([5, 4, 2], 3)
(Fraction(2, 1), Fraction(2, 1))
>>> payoff_function([1, 1]) == payoff_function([0, 1, 0, 1], method="exact")
True
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from functools import reduce
from operator import xor
from typing import TYPE_CHECKING, Literal

from nimlab.budget import CLI_BUDGET, Budget, Cost, abridged, check_cost, saturated
from nimlab.core.heaps import Heaps, check_heaps
from nimlab.errors import InvalidPositionError
from nimlab.progress import report
from nimlab.scoring.piecewise import PiecewiseLinear, maximum

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "CLI_MAX_CELLS",
    "COMPILE_ABOVE_CELLS",
    "DEFAULT_MAX_CELLS",
    "Method",
    "PayoffSolution",
    "c_minus",
    "c_plus",
    "canonical",
    "cells_budget",
    "children",
    "count_states",
    "in_p_minus",
    "in_p_plus",
    "payoff_cost",
    "payoff_function",
    "payoff_value",
    "solve_payoffs",
    "sub_positions",
]

Method = Literal["grid", "exact"]

_REPORT_EVERY = 50_000
"""Positions between two progress reports (:mod:`nimlab.progress`)."""

DEFAULT_MAX_CELLS = 20_000_000
"""Default limit on sub-positions x grid width for one computation (the library's, the web's
and the sweeps'): about 18 s and 480 MB."""

# Calibrated (BENCHMARKS.md): the grid engine takes about 0.9 µs and 24 bytes per cell
# (reachable position x value of N); the exact engine about 1e-5 s x S^2 x (K/3)^2 per
# reachable position (S stones in K piles): 30,30,30 took 409 s.
_CELL_SECONDS = 9e-7
_CELL_BYTES = 24
_EXACT_SECONDS = 1e-5

CLI_MAX_CELLS = int(min(CLI_BUDGET.seconds / _CELL_SECONDS, CLI_BUDGET.bytes / _CELL_BYTES))
"""The command line's default ``--max-cells``: the cells that fit :data:`CLI_BUDGET`."""


def cells_budget(max_cells: int) -> Budget:
    """The budget ``max_cells`` cells of the grid engine stand for (``--max-cells``).

    >>> cells_budget(CLI_MAX_CELLS).bytes <= CLI_BUDGET.bytes
    True
    """
    return Budget(max_cells * _CELL_SECONDS, max_cells * _CELL_BYTES)


def payoff_cost(states: int, width: int, root: Sequence[int], method: Method) -> Cost:
    """The estimated cost of solving ``root`` (``states`` reachable positions, ``width``
    values of N each) by ``method``.

    >>> round(payoff_cost(5456, 185, (30, 30, 30), "exact").seconds)
    442
    """
    cells = saturated(states * width)
    size = int(min(cells * _CELL_BYTES, 2.0**62))
    if method == "exact":
        stones, piles = saturated(sum(root)), len(root)
        seconds = _EXACT_SECONDS * saturated(states) * min(stones**2, 1e300) * (piles / 3) ** 2
        return Cost(seconds, size)
    return Cost(cells * _CELL_SECONDS, size)


def canonical(heaps: Iterable[int]) -> Heaps:
    """The memo key of a position: its non-empty piles in increasing order.

    >>> canonical([5, 0, 2, 4])
    (2, 4, 5)
    """
    return tuple(sorted(h for h in heaps if h))


def _validated(heaps: Iterable[object]) -> Heaps:
    return canonical(check_heaps(heaps))


def children(key: Heaps) -> Iterator[tuple[int, Heaps]]:
    """``(stones taken, canonical position)`` for every move, each resulting multiset once.

    >>> list(children((1, 2)))
    [(1, (2,)), (2, (1,)), (1, (1, 1))]
    """
    count = len(key)
    for i, pile in enumerate(key):
        if i + 1 < count and key[i + 1] == pile:
            continue  # the same multisets are reached from the last copy of this size
        head, tail = key[:i], key[i + 1 :]
        yield pile, head + tail
        for smaller in range(1, pile):
            j = bisect.bisect_right(head, smaller)
            yield pile - smaller, (*head[:j], smaller, *head[j:], *tail)


def sub_positions(key: Heaps) -> list[Heaps]:
    """Every canonical position reachable from ``key`` (itself included), by total stones.

    A multiset ``q`` is reachable iff, both sorted, ``q`` is below ``key`` pile by pile.

    >>> sub_positions((1, 2))
    [(), (1,), (1, 1), (2,), (1, 2)]
    """
    k = len(key)
    found: list[Heaps] = []

    def extend(prefix: list[int]) -> None:
        i = len(prefix)
        if i == k:
            found.append(tuple(h for h in prefix if h))
            return
        low = prefix[-1] if prefix else 0
        for v in range(low, key[i] + 1):
            prefix.append(v)
            extend(prefix)
            prefix.pop()

    extend([])
    found.sort(key=lambda q: (sum(q), q))
    return found


def count_states(heaps: Iterable[int]) -> int:
    """How many canonical positions are reachable (the memo size), without listing them.

    >>> count_states([40, 40, 40]), count_states([2, 1])
    (12341, 5)
    """
    key = _validated(heaps)
    ways = {0: 1}  # number of non-decreasing prefixes ending at each value
    for bound in key:
        total, new = 0, {}
        for v in range(bound + 1):
            total += ways.get(v, 0)
            new[v] = total
        ways = new
    return sum(ways.values())


def in_p_plus(heaps: Iterable[int]) -> bool:
    """Whether the position is in P+ (normal-play Nim P-positions, Def. 5.4): nim-sum 0."""
    return reduce(xor, heaps, 0) == 0


def in_p_minus(heaps: Iterable[int]) -> bool:
    """Whether the position is in P- (misère Nim P-positions, Def. 5.4).

    >>> in_p_minus([1, 1, 1]), in_p_minus([]), in_p_minus([2, 2])
    (True, False, True)
    """
    piles = list(heaps)
    if all(h <= 1 for h in piles):
        return sum(piles) % 2 == 1
    return reduce(xor, piles, 0) == 0


class _NotIntegralError(Exception):
    """A kink of some f_N(p) falls strictly between two integers (Prop. 3.1 would fail)."""


class _WindowTooNarrowError(Exception):
    """A kink of some f_N(p) lies at or beyond the edge of the integer window."""


class PayoffSolution:
    """The payoff functions of a position and of every position reachable from it.

    >>> solution = solve_payoffs([3, 2, 1])
    >>> len(solution), solution.method, solution.function([2, 1]) == solution.function([1, 2])
    (14, 'grid', True)
    """

    def __init__(
        self,
        root: Heaps,
        keys: Sequence[Heaps],
        method: Method,
        *,
        exact: dict[Heaps, PiecewiseLinear] | None = None,
        rows: npt.NDArray[np.int64] | None = None,
        offset: int = 0,
    ) -> None:
        self.root = root
        self.keys = list(keys)
        self.method = method
        self._index = {key: i for i, key in enumerate(self.keys)}
        self._functions: dict[Heaps, PiecewiseLinear] = dict(exact or {})
        self._rows = rows
        self._offset = offset

    def __len__(self) -> int:
        return len(self.keys)

    def __contains__(self, heaps: object) -> bool:
        return isinstance(heaps, Iterable) and canonical(heaps) in self._index

    def function(self, heaps: Iterable[int]) -> PiecewiseLinear:
        """f_N of a reachable position (any pile order, zeros allowed), as a function of N."""
        key = canonical(heaps)
        known = self._functions.get(key)
        if known is not None:
            return known
        if key not in self._index or self._rows is None:
            raise InvalidPositionError(
                f"position {list(key)} is not reachable from {list(self.root)}"
            )
        row = self._rows[self._index[key]]
        function = _row_function(row, self._offset)
        self._functions[key] = function
        return function

    def functions(self) -> dict[Heaps, PiecewiseLinear]:
        """f_N of every reachable position, keyed by canonical position (built in one pass).

        >>> sorted(solve_payoffs([1, 1]).functions())
        [(), (1,), (1, 1)]
        """
        if self._rows is not None and len(self._functions) < len(self.keys):
            self._functions = _all_row_functions(self._rows, self._offset, self.keys)
        return dict(self._functions)

    def value_table(self) -> tuple[npt.NDArray[np.int64], int] | None:
        """The grid engine's values (row i = ``keys[i]``, column j = N = j - offset), if any."""
        return None if self._rows is None else (self._rows, self._offset)


def _row_function(row: npt.NDArray[np.int64], offset: int) -> PiecewiseLinear:
    """The function whose integer samples are ``row`` (certified linear between and beyond)."""
    import numpy as np

    second = row[:-2] + row[2:] - 2 * row[1:-1]
    inner = (np.flatnonzero(second) + 1).tolist()
    values = row.tolist()
    left, right = Fraction(values[1] - values[0]), Fraction(values[-1] - values[-2])
    if not inner:  # affine: canonical single knot at N = 0
        return PiecewiseLinear((Fraction(0),), (Fraction(values[offset]),), left, left)
    return PiecewiseLinear(
        tuple(Fraction(j - offset) for j in inner),
        tuple(Fraction(values[j]) for j in inner),
        left,
        right,
    )


def _all_row_functions(
    rows: npt.NDArray[np.int64], offset: int, keys: Sequence[Heaps]
) -> dict[Heaps, PiecewiseLinear]:
    """:func:`_row_function` for every row at once (vectorised kink detection)."""
    import numpy as np

    second = rows[:, :-2] + rows[:, 2:] - 2 * rows[:, 1:-1]
    which, column = np.nonzero(second)
    starts = np.searchsorted(which, np.arange(len(keys) + 1)).tolist()
    xs = list(map(Fraction, (column + 1 - offset).tolist()))
    ys = list(map(Fraction, rows[which, column + 1].tolist()))
    lefts = list(map(Fraction, (rows[:, 1] - rows[:, 0]).tolist()))
    rights = list(map(Fraction, (rows[:, -1] - rows[:, -2]).tolist()))
    at_zero = rows[:, offset].tolist()
    functions = {}
    zero = Fraction(0)
    for i, key in enumerate(keys):
        a, b = starts[i], starts[i + 1]
        if a == b:
            functions[key] = PiecewiseLinear((zero,), (Fraction(at_zero[i]),), lefts[i], lefts[i])
        else:
            functions[key] = PiecewiseLinear(tuple(xs[a:b]), tuple(ys[a:b]), lefts[i], rights[i])
    return functions


def _moves_table(
    keys: Sequence[Heaps],
) -> list[tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]]:
    """For each position, the stones taken by each move and the index of the position after."""
    import numpy as np

    index = {key: i for i, key in enumerate(keys)}
    table = []
    for done, key in enumerate(keys):
        if done % _REPORT_EVERY == 0 and done:
            report(f"moves listed for {done:,} of {len(keys):,} positions")
        taken, kids = [], []
        for stones, child in children(key):
            taken.append(stones)
            kids.append(index[child])
        table.append((np.array(taken, dtype=np.int64), np.array(kids, dtype=np.intp)))
    return table


def _solve_grid(
    moves: Sequence[tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]], half_width: int
) -> npt.NDArray[np.int64]:
    """Values at N = -half_width..half_width of every position, certified exact."""
    import numpy as np

    grid = np.arange(-half_width, half_width + 1, dtype=np.int64)
    values = np.empty((len(moves), grid.size), dtype=np.int64)
    for i, (taken, kids) in enumerate(moves):
        if not kids.size:
            values[i] = -grid  # f_N(0) = -N
            continue
        options = taken[:, None] - values[kids]
        best = options.max(axis=0)
        attained = options == best
        if not (attained[:, :-1] & attained[:, 1:]).any(axis=0).all():
            raise _NotIntegralError
        if (options[:, -1] - options[:, -2]).max() != best[-1] - best[-2]:
            raise _WindowTooNarrowError
        if (options[:, 1] - options[:, 0]).min() != best[1] - best[0]:
            raise _WindowTooNarrowError
        values[i] = best
    return values


def _solve_compiled(
    moves: Sequence[tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]], half_width: int
) -> npt.NDArray[np.int64]:
    """:func:`_solve_grid` by the numba kernel (same certificates)."""
    import numpy as np

    from nimlab.scoring.kernels import NOT_INTEGRAL, OK, grid_kernel

    sizes = np.array([kids.size for _, kids in moves], dtype=np.int64)
    offsets = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(sizes)])
    kids = np.concatenate([k for _, k in moves]).astype(np.int64)
    taken = np.concatenate([t for t, _ in moves]).astype(np.int64)
    values, status = grid_kernel(offsets, kids, taken, half_width)
    if status == OK:
        return values
    raise _NotIntegralError if status == NOT_INTEGRAL else _WindowTooNarrowError


def _numba_available() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:  # pragma: no cover - numba is an optional extra
        return False
    return True


COMPILE_ABOVE_CELLS = 100_000
"""The grid engine uses the numba kernel (when installed) for jobs above this many cells."""


def _solve_exact(keys: Sequence[Heaps]) -> dict[Heaps, PiecewiseLinear]:
    functions: dict[Heaps, PiecewiseLinear] = {}
    for done, key in enumerate(keys):
        if done % _REPORT_EVERY == 0 and done:
            report(f"f_N exact for {done:,} of {len(keys):,} positions")
        if not key:
            functions[key] = PiecewiseLinear.affine(-1, 0)
        else:
            functions[key] = maximum(stones - functions[child] for stones, child in children(key))
    return functions


def solve_payoffs(
    heaps: Iterable[object],
    *,
    method: Method = "grid",
    max_cells: int = DEFAULT_MAX_CELLS,
    compiled: bool | None = None,
) -> PayoffSolution:
    """Compute f_N of ``heaps`` and of every position reachable from it.

    Raises :class:`~nimlab.errors.TooLargeError` when the estimated cost of ``method``
    (:func:`payoff_cost`) is over the budget of ``max_cells`` cells (:func:`cells_budget`:
    reachable positions x width of the integer window of N). ``compiled`` chooses the grid engine's
    numba kernel (default: when numba is installed and the job exceeds
    :data:`COMPILE_ABOVE_CELLS`).

    >>> solve_payoffs([9, 8, 1], method="exact").function([9, 8, 1]) == solve_payoffs(
    ...     [9, 8, 1]).function([1, 8, 9])
    True
    """
    root = _validated(heaps)
    if method not in ("grid", "exact"):
        raise InvalidPositionError(f"unknown method {method!r}: use 'grid' or 'exact'")
    half_width = sum(root) + 2
    width = 2 * half_width + 1
    at_least = (max(root, default=0) + 1) * width  # cheap bound before counting exactly
    states = count_states(root) if at_least <= max_cells else max(root) + 1
    cells = states * width
    qualifier = "" if at_least <= max_cells else "at least "
    check_cost(
        f"position [{', '.join(map(abridged, root))}] ({qualifier}{abridged(states)} reachable"
        f" positions, {abridged(width)} values of N each: {qualifier}{abridged(cells)} cells,"
        f" {method} method)",
        payoff_cost(states, width, root, method),
        cells_budget(max_cells),
        "--max-cells",
    )
    keys = sub_positions(root)
    if method == "exact":
        return PayoffSolution(root, keys, "exact", exact=_solve_exact(keys))
    moves = _moves_table(keys)
    if compiled is None:
        compiled = cells > COMPILE_ABOVE_CELLS and _numba_available()
    solve = _solve_compiled if compiled else _solve_grid
    while True:
        report(f"f_N of {len(keys):,} positions at {2 * half_width + 1:,} values of N")
        try:
            rows = solve(moves, half_width)
        except _WindowTooNarrowError:
            half_width *= 2
            if len(keys) * (2 * half_width + 1) > max_cells:
                break
            continue
        except _NotIntegralError:
            break
        return PayoffSolution(root, keys, "grid", rows=rows, offset=half_width)
    return PayoffSolution(root, keys, "exact", exact=_solve_exact(keys))


def payoff_function(
    heaps: Iterable[object], *, method: Method = "grid", max_cells: int = DEFAULT_MAX_CELLS
) -> PiecewiseLinear:
    """f_N(heaps) as an exact piecewise-linear function of N.

    >>> f = payoff_function([3, 2, 1])           # F_1(N) = 2 - |N| (Theorem 6.3)
    >>> f.breakpoints, int(f.slope_left), int(f.slope_right)
    (((Fraction(0, 1), Fraction(2, 1)),), 1, -1)
    """
    solution = solve_payoffs(heaps, method=method, max_cells=max_cells)
    return solution.function(solution.root)


def payoff_value(heaps: Iterable[object], bonus: int | Fraction) -> Fraction:
    """f_N(heaps) at one N by the plain memoised recursion (2) (the brute-force twin).

    >>> payoff_value([2], Fraction(-7, 2)), payoff_value([], 5)
    (Fraction(7, 2), Fraction(-5, 1))
    """
    root = tuple(sorted(check_heaps(heaps)))
    memo: dict[Heaps, int | Fraction] = {}

    def f(position: Heaps) -> int | Fraction:
        known = memo.get(position)
        if known is not None:
            return known
        best: int | Fraction | None = None
        for i, pile in enumerate(position):
            for smaller in range(pile):
                after = tuple(sorted((*position[:i], smaller, *position[i + 1 :])))
                option = pile - smaller - f(after)
                if best is None or option > best:
                    best = option
        result = -bonus if best is None else best
        memo[position] = result
        return result

    return Fraction(f(root))


def _stone_difference(heaps: Iterable[object], in_p: Callable[[Heaps], bool]) -> int:
    """The recursion behind c+ and c-: the Nim winner must always move into the P-set."""
    root = _validated(heaps)
    memo: dict[Heaps, int] = {}
    for key in sub_positions(root):
        lost = in_p(key)
        options = [stones - memo[child] for stones, child in children(key) if lost or in_p(child)]
        memo[key] = max(options, default=0)
    return memo[root]


def c_plus(heaps: Iterable[object]) -> int:
    """c+(p) of Prop. 5.5(i), by its definition (the normal-play winner keeps moving into P+).

    Both players maximise their stones, under the constraint that whoever can take the last
    stone (the player off P+) always moves into P+.

    >>> c_plus([5, 4, 2]), c_plus([3, 2, 1])
    (-3, 2)
    """
    return _stone_difference(heaps, in_p_plus)


def c_minus(heaps: Iterable[object]) -> int:
    """c-(p) of Prop. 5.5(ii), by its definition (the misère winner keeps moving into P-).

    >>> c_minus([3, 2, 1])
    2
    """
    return _stone_difference(heaps, in_p_minus)

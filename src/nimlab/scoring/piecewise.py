"""Exact continuous piecewise-linear functions of one real variable, with rational knots.

A function is stored canonically: its breakpoints (the points where the slope changes) with
their values, and the slopes beyond the first and the last breakpoint. A function without a
breakpoint (an affine function) keeps a single knot at 0 so that its value is known.

>>> from fractions import Fraction
>>> f = PiecewiseLinear.affine(1, 1)           # N + 1
>>> g = PiecewiseLinear.affine(-1, -1)         # -N - 1
>>> h = maximum([f, g])                        # |N + 1|
>>> [str(x) for x, _ in h.breakpoints], int(h.slope_left), int(h.slope_right)
(['-1'], -1, 1)
>>> h(Fraction(-7, 2)), (-h + 3)(0)
(Fraction(5, 2), Fraction(2, 1))
>>> maximum([PiecewiseLinear.affine(1, 0), PiecewiseLinear.affine(-1, 1)]).breakpoints
((Fraction(1, 2), Fraction(1, 2)),)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from nimlab.display import html_table, polyline_svg
from nimlab.exact import exact_str

__all__ = ["PiecewiseLinear", "maximum", "polyline", "window"]

Point = tuple[Fraction, Fraction]


@dataclass(frozen=True)
class PiecewiseLinear:
    """A continuous piecewise-linear function, canonical so that ``==`` compares functions.

    ``knots`` are increasing; ``values`` are the function's values there. Build instances with
    :meth:`affine` or :meth:`from_points` (which canonicalise), not directly.
    """

    knots: tuple[Fraction, ...]
    values: tuple[Fraction, ...]
    slope_left: Fraction
    slope_right: Fraction

    @staticmethod
    def affine(slope: int | Fraction, intercept: int | Fraction) -> PiecewiseLinear:
        """The function ``slope * N + intercept``.

        >>> PiecewiseLinear.affine(-1, 0)(5)
        Fraction(-5, 1)
        """
        s = Fraction(slope)
        return PiecewiseLinear((Fraction(0),), (Fraction(intercept),), s, s)

    @staticmethod
    def from_points(
        points: Sequence[tuple[int | Fraction, int | Fraction]],
        slope_left: int | Fraction,
        slope_right: int | Fraction,
    ) -> PiecewiseLinear:
        """Interpolate ``points`` (increasing x, at least one) linearly, then extend by the slopes.

        Points where the slope does not change are dropped.

        >>> f = PiecewiseLinear.from_points([(0, 0), (1, 1), (2, 2), (3, 1)], 1, -1)
        >>> f.breakpoints
        ((Fraction(2, 1), Fraction(2, 1)),)
        """
        if not points:
            raise ValueError("a piecewise-linear function needs at least one point")
        xs = [Fraction(x) for x, _ in points]
        ys = [Fraction(y) for _, y in points]
        if any(b <= a for a, b in pairwise(xs)):
            raise ValueError("knots must be strictly increasing")
        slopes = [
            Fraction(slope_left),
            *((ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]) for i in range(len(xs) - 1)),
            Fraction(slope_right),
        ]
        keep = [i for i in range(len(xs)) if slopes[i] != slopes[i + 1]]
        if not keep:
            value_at_zero = ys[0] + slopes[0] * (0 - xs[0])
            return PiecewiseLinear((Fraction(0),), (value_at_zero,), slopes[0], slopes[0])
        return PiecewiseLinear(
            tuple(xs[i] for i in keep), tuple(ys[i] for i in keep), slopes[0], slopes[-1]
        )

    @property
    def breakpoints(self) -> tuple[Point, ...]:
        """Every point ``(x, f(x))`` where the slope changes, in increasing ``x``."""
        if self.slope_left == self.slope_right and len(self.knots) == 1:
            return ()
        return tuple(zip(self.knots, self.values, strict=True))

    @property
    def slopes(self) -> tuple[Fraction, ...]:
        """The slopes of the pieces from left to right (one more than the breakpoints)."""
        xs, ys = self.knots, self.values
        if not self.breakpoints:
            return (self.slope_left,)
        inner = ((ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]) for i in range(len(xs) - 1))
        return (self.slope_left, *inner, self.slope_right)

    @property
    def intercept_left(self) -> Fraction:
        """``c`` with ``f(N) = slope_left * N + c`` for every ``N`` left of all breakpoints."""
        return self.values[0] - self.slope_left * self.knots[0]

    @property
    def intercept_right(self) -> Fraction:
        """``c`` with ``f(N) = slope_right * N + c`` for every ``N`` right of all breakpoints."""
        return self.values[-1] - self.slope_right * self.knots[-1]

    def __call__(self, x: int | Fraction) -> Fraction:
        """The exact value at ``x``."""
        xs, ys = self.knots, self.values
        x = Fraction(x)
        if x <= xs[0]:
            return ys[0] + self.slope_left * (x - xs[0])
        if x >= xs[-1]:
            return ys[-1] + self.slope_right * (x - xs[-1])
        lo, hi = 0, len(xs) - 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if xs[mid] <= x:
                lo = mid
            else:
                hi = mid
        return ys[lo] + (ys[hi] - ys[lo]) * (x - xs[lo]) / (xs[hi] - xs[lo])

    def __neg__(self) -> PiecewiseLinear:
        return PiecewiseLinear(
            self.knots, tuple(-y for y in self.values), -self.slope_left, -self.slope_right
        )

    def __add__(self, constant: int | Fraction) -> PiecewiseLinear:
        """Shift up by a constant (only constants may be added)."""
        c = Fraction(constant)
        return PiecewiseLinear(
            self.knots, tuple(y + c for y in self.values), self.slope_left, self.slope_right
        )

    def __radd__(self, constant: int | Fraction) -> PiecewiseLinear:
        return self + constant

    def __sub__(self, constant: int | Fraction) -> PiecewiseLinear:
        return self + (-Fraction(constant))

    def __rsub__(self, constant: int | Fraction) -> PiecewiseLinear:
        return -self + constant

    def __str__(self) -> str:
        """A readable summary: the slopes of the tails and the breakpoints ``(N, f)``.

        >>> print(PiecewiseLinear.from_points([(-1, 0), (Fraction(1, 2), 3)], 0, -1))
        piecewise linear in N: slope 0 up to N = -1, through (-1, 0), (1/2, 3), then slope -1
        """
        points = ", ".join(f"({exact_str(x)}, {exact_str(y)})" for x, y in self.breakpoints)
        if not points:
            return f"linear in N: slope {self.slope_left}, {exact_str(self(0))} at N = 0"
        return (
            f"piecewise linear in N: slope {self.slope_left} up to N = {exact_str(self.knots[0])},"
            f" through {points}, then slope {self.slope_right}"
        )

    def __repr__(self) -> str:
        """The :meth:`from_points` call that rebuilds this function (``Fraction`` for
        non-integers).

        >>> PiecewiseLinear.from_points([(-1, 0), (Fraction(1, 2), 3)], 0, -1)
        PiecewiseLinear.from_points([(-1, 0), (Fraction(1, 2), 3)], 0, -1)
        """
        pairs = zip(self.knots, self.values, strict=True)
        points = ", ".join(f"({_number(x)}, {_number(y)})" for x, y in pairs)
        slopes = f"{_number(self.slope_left)}, {_number(self.slope_right)}"
        return f"PiecewiseLinear.from_points([{points}], {slopes})"

    def _repr_html_(self) -> str:
        """The graph as an inline SVG (its exact polyline; matplotlib figures are
        :mod:`nimlab.scoring.plot`'s) and the table of breakpoints with the slope after each."""
        if self.breakpoints:
            rows = [["N < " + exact_str(self.knots[0]), "", exact_str(self.slope_left)]]
            rows += [
                [exact_str(x), exact_str(y), exact_str(slope)]
                for (x, y), slope in zip(self.breakpoints, self.slopes[1:], strict=True)
            ]
        else:
            rows = [["every N", f"{exact_str(self(0))} at N = 0", exact_str(self.slope_left)]]
        table = html_table(["N", "f(N)", "slope on the right"], rows)
        return f"<div>{self._plot_svg()}{table}</div>"

    def _plot_svg(self) -> str:
        """The graph over the window holding every breakpoint, as an ``<svg>`` element."""
        low, high = window([self])
        return polyline_svg(polyline(self, low, high), self.breakpoints, label="f_N")


def _number(value: Fraction) -> str:
    """An integer as itself, otherwise ``Fraction(p, q)`` (evaluable, exact).

    >>> _number(Fraction(4, 2)), _number(Fraction(-1, 3))
    ('2', 'Fraction(-1, 3)')
    """
    if value.denominator == 1:
        return str(value.numerator)
    return f"Fraction({value.numerator}, {value.denominator})"


def _switch_points(
    lines: Sequence[tuple[Fraction, Fraction]], length: Fraction | None
) -> list[Fraction]:
    """Where the upper envelope of lines ``v + s*t`` (``0 <= t <= length``) changes line.

    ``length`` None means unbounded. The returned ``t`` lie strictly inside the range.
    """
    t = Fraction(0)
    values = [v for v, _ in lines]
    current = max(range(len(lines)), key=lambda i: (values[i], lines[i][1]))
    points: list[Fraction] = []
    while True:
        s_cur = lines[current][1]
        v_cur = values[current]
        best: Fraction | None = None
        for i, (_, s) in enumerate(lines):
            if s > s_cur:
                crossing = t + (v_cur - values[i]) / (s - s_cur)
                if best is None or crossing < best:
                    best = crossing
        if best is None or (length is not None and best >= length):
            return points
        step = best - t
        values = [values[i] + s * step for i, (_, s) in enumerate(lines)]
        t = best
        points.append(t)
        current = max(range(len(lines)), key=lambda i: (values[i], lines[i][1]))


def maximum(functions: Iterable[PiecewiseLinear]) -> PiecewiseLinear:
    """The pointwise maximum of piecewise-linear functions, exactly (new kinks at crossings).

    >>> f = maximum([PiecewiseLinear.affine(1, 0), PiecewiseLinear.affine(0, 2)])
    >>> f.breakpoints, f.slope_left, f.slope_right
    (((Fraction(2, 1), Fraction(2, 1)),), Fraction(0, 1), Fraction(1, 1))
    """
    fs = list(functions)
    if not fs:
        raise ValueError("the maximum of no functions is undefined")
    if len(fs) == 1:
        return fs[0]
    knots = sorted({x for f in fs for x in f.knots})
    xs: list[Fraction] = []
    # Left tail: mirror it so that the envelope walk goes to the right.
    first = knots[0]
    left = [(f(first), -f.slope_left) for f in fs]
    xs.extend(first - t for t in reversed(_switch_points(left, None)))
    for a, b in pairwise(knots):
        xs.append(a)
        lines = [(f(a), (f(b) - f(a)) / (b - a)) for f in fs]
        xs.extend(a + t for t in _switch_points(lines, b - a))
    last = knots[-1]
    xs.append(last)
    right = [(f(last), f.slope_right) for f in fs]
    xs.extend(last + t for t in _switch_points(right, None))
    points = [(x, max(f(x) for f in fs)) for x in xs]
    slope_left = min(f.slope_left for f in fs if f(xs[0]) == points[0][1])
    slope_right = max(f.slope_right for f in fs if f(xs[-1]) == points[-1][1])
    return PiecewiseLinear.from_points(points, slope_left, slope_right)


def window(functions: Sequence[PiecewiseLinear], margin: int = 2) -> tuple[Fraction, Fraction]:
    """An N range holding every breakpoint with ``margin`` to spare (at least [-3, 3]).

    >>> window([PiecewiseLinear.affine(1, 0)])
    (Fraction(-3, 1), Fraction(3, 1))
    """
    xs = [x for f in functions for x, _ in f.breakpoints] or [Fraction(0)]
    return min(Fraction(-3), min(xs) - margin), max(Fraction(3), max(xs) + margin)


def polyline(
    function: PiecewiseLinear, low: Fraction, high: Fraction
) -> list[tuple[Fraction, Fraction]]:
    """The exact vertices of the graph on ``[low, high]``.

    >>> polyline(PiecewiseLinear.affine(-1, 0), Fraction(-1), Fraction(1))
    [(Fraction(-1, 1), Fraction(1, 1)), (Fraction(1, 1), Fraction(-1, 1))]
    """
    xs = [low, *(x for x, _ in function.breakpoints if low < x < high), high]
    return [(x, function(x)) for x in xs]

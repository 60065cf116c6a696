"""Patterns guessed from computed values, and checked on values not used to guess them.

A family of positions indexed by ``n`` (a row, a column, the diagonal of a table) gives a
sequence of exact rationals ``v(n0), v(n0 + 1), ...``. :func:`guess_and_check` makes a guess
from the first values only, by exact linear algebra over the rationals, and checks it on the
rest, which it has not seen. The models, simplest first (fewest free coefficients):

* constant from some ``n`` on: ``v(n) = c``;
* a linear recurrence with constant coefficients, ``v(n) = c1 v(n-1) + ... + ck v(n-k)``
  (order 1 to 3);
* a Möbius recurrence, ``v(n+1) = (a v(n) + b) / (c v(n) + d)``: the ratios of two sequences
  that follow one linear recurrence of order 2 (ratios of Fibonacci numbers, for example);
* a ratio of linear functions of ``n``, ``v(n) = (a n + b) / (c n + d)``.

A model is taken only where the values it is made from determine its coefficients (up to a
common factor) and over-determine them by at least one equation; among those, the one with
fewest coefficients, then from the earliest ``n``, then with the most spare equations.
Whatever it finds is a conjecture, checked on the held-out values: it is printed with the
values it was made from and each check.

>>> from fractions import Fraction as F
>>> diagonal = [F(1, 5), F(3, 13), F(4, 17), F(21, 89), F(55, 233), F(72, 305), F(377, 1597)]
>>> conjecture = guess_and_check(dict(enumerate(diagonal, start=4)), held_out=1)
>>> conjecture.formula
'v(n+1) = (v(n) + 1)/(v(n) + 5) for n >= 4'
>>> [check.holds for check in conjecture.checks], conjecture.spare
([True], 2)
>>> guess_and_check({4: F(1, 5), 5: F(1, 4), 6: F(1, 4), 7: F(1, 4)}, held_out=1).formula
'v(n) = 1/4 for n >= 5'
>>> guess_and_check({1: F(1), 2: F(2), 3: F(4)}, held_out=1) is None  # too few to over-determine
True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm

from nimlab.exact import exact_str

__all__ = ["Check", "Conjecture", "guess_and_check"]


@dataclass(frozen=True)
class Check:
    """One held-out value: the guess's prediction and the computed value."""

    n: int
    predicted: Fraction | None
    computed: Fraction

    @property
    def holds(self) -> bool:
        """The prediction is the computed value."""
        return self.predicted == self.computed


@dataclass(frozen=True)
class Conjecture:
    """A guessed closed form: ``formula`` made from ``made_from`` (its ``n`` and values),
    with ``spare`` equations beyond what its coefficients need, and its ``checks``."""

    model: str
    formula: str
    made_from: tuple[tuple[int, Fraction], ...]
    spare: int
    checks: tuple[Check, ...]
    predict: Callable[[int], Fraction | None]

    @property
    def confirmed(self) -> bool:
        """Every held-out value agrees (there is at least one)."""
        return bool(self.checks) and all(check.holds for check in self.checks)

    def to_json(self) -> dict[str, object]:
        """The conjecture, its data and checks, rationals as strings."""
        return {
            "model": self.model,
            "formula": self.formula,
            "made_from": {str(n): exact_str(v) for n, v in self.made_from},
            "spare_equations": self.spare,
            "checks": [
                {
                    "n": c.n,
                    "predicted": None if c.predicted is None else exact_str(c.predicted),
                    "computed": exact_str(c.computed),
                    "holds": c.holds,
                }
                for c in self.checks
            ],
        }


@dataclass(frozen=True)
class _Fit:
    model: str
    parameters: int
    start: int
    spare: int
    formula: str
    predict: Callable[[int], Fraction | None]


def guess_and_check(values: Mapping[int, Fraction], *, held_out: int = 1) -> Conjecture | None:
    """Guess from all but the last ``held_out`` values of ``values`` (``n`` -> value, ``n``
    consecutive) and check on those; ``None`` when no model is over-determined by the
    values it may use."""
    ns = sorted(values)
    if ns != list(range(ns[0], ns[0] + len(ns))):
        raise ValueError(f"the n must be consecutive, not {ns}")
    seen = ns[: len(ns) - held_out]
    known = [values[n] for n in seen]
    best: _Fit | None = None
    for fit in _fits(seen[0] if seen else 0, known):
        if best is None or (fit.parameters, fit.start, -fit.spare) < (
            best.parameters,
            best.start,
            -best.spare,
        ):
            best = fit
    if best is None:
        return None
    made_from = tuple((n, values[n]) for n in seen if n >= best.start)
    checks = tuple(Check(n, best.predict(n), values[n]) for n in ns[len(seen) :])
    return Conjecture(best.model, best.formula, made_from, best.spare, checks, best.predict)


def _fits(first: int, known: list[Fraction]) -> list[_Fit]:
    """Every model over-determined by a suffix of ``known`` (``known[0]`` is ``v(first)``),
    from its earliest start."""
    found = []
    for model in (_constant, _linear_1, _linear_2, _linear_3, _moebius, _ratio_in_n):
        for offset in range(len(known)):
            fit = model(first + offset, known[offset:])
            if fit is not None:
                found.append(fit)
                break
    return found


def _kernel(rows: Sequence[Sequence[Fraction]], unknowns: int) -> list[Fraction] | None:
    """The one null vector (up to a factor, first non-zero coefficient 1) of the homogeneous
    system ``rows``, if its null space is a line and the rows over-determine it."""
    import flint

    if len(rows) < unknowns:  # at least unknowns - 1 equations to fix a line, plus a spare
        return None
    entries = [flint.fmpq(v.numerator, v.denominator) for row in rows for v in map(Fraction, row)]
    matrix = flint.fmpq_mat(len(rows), unknowns, entries)
    reduced, rank = matrix.rref()
    if rank != unknowns - 1:
        return None
    pivots = []
    for r in range(rank):
        pivots.append(next(c for c in range(unknowns) if reduced[r, c] != 0))
    free = next(c for c in range(unknowns) if c not in pivots)
    vector = [Fraction(0)] * unknowns
    vector[free] = Fraction(1)
    for r, c in enumerate(pivots):
        entry = reduced[r, free]
        vector[c] = -Fraction(int(entry.p), int(entry.q))
    lead = next(v for v in vector if v)
    return [v / lead for v in vector]


def _sequence(
    start: int, known: list[Fraction], step: Callable[[list[Fraction]], Fraction | None], order: int
) -> Callable[[int], Fraction | None]:
    """``v(n)`` extended from the first ``order`` known values by ``step`` (the last
    ``order`` values -> the next)."""

    def predict(n: int) -> Fraction | None:
        if n < start:
            return None
        run = list(known[:order])
        while start + len(run) <= n:
            following = step(run[-order:])
            if following is None:
                return None
            run.append(following)
        return run[n - start]

    return predict


def _constant(start: int, known: list[Fraction]) -> _Fit | None:
    if len(known) < 2 or any(v != known[0] for v in known):
        return None
    c = known[0]
    return _Fit(
        "constant",
        1,
        start,
        len(known) - 1,
        f"v(n) = {exact_str(c)} for n >= {start}",
        lambda n: c if n >= start else None,
    )


def _linear(order: int, start: int, known: list[Fraction]) -> _Fit | None:
    """``v(n) = c1 v(n-1) + ... + ck v(n-k)``: homogeneous in ``(1, -c1, ..., -ck)``."""
    rows = [[known[i - j] for j in range(order + 1)] for i in range(order, len(known))]
    kernel = _kernel(rows, order + 1)
    if kernel is None or not kernel[0]:
        return None
    coefficients = [-c / kernel[0] for c in kernel[1:]]
    if not coefficients[-1]:
        return None  # a lower order fits
    terms = [_term(c, f"v(n-{j})") for j, c in enumerate(coefficients, start=1) if c]
    formula = f"v(n) = {_joined(terms)} for n >= {start + order}"

    def step(last: list[Fraction]) -> Fraction:
        return sum((c * last[-j] for j, c in enumerate(coefficients, start=1)), Fraction(0))

    spare = len(rows) - order
    return _Fit(
        f"linear recurrence of order {order}",
        order,
        start,
        spare,
        formula,
        _sequence(start, known, step, order),
    )


def _linear_1(start: int, known: list[Fraction]) -> _Fit | None:
    return _linear(1, start, known)


def _linear_2(start: int, known: list[Fraction]) -> _Fit | None:
    return _linear(2, start, known)


def _linear_3(start: int, known: list[Fraction]) -> _Fit | None:
    return _linear(3, start, known)


def _moebius(start: int, known: list[Fraction]) -> _Fit | None:
    """``v(n+1) (c v(n) + d) = a v(n) + b``: homogeneous in ``(a, b, c, d)``."""
    rows = [[v, Fraction(1), -v * w, -w] for v, w in itertools.pairwise(known)]
    kernel = _kernel(rows, 4)
    if kernel is None:
        return None
    a, b, c, d = kernel
    if a * d == b * c:
        return None  # a constant map: the constant model's
    scale = _common_scale(kernel)
    a, b, c, d = (x * scale for x in kernel)
    if c < 0 or (c == 0 and d < 0):
        a, b, c, d = -a, -b, -c, -d
    formula = f"v(n+1) = ({_affine(a, b, 'v(n)')})/({_affine(c, d, 'v(n)')}) for n >= {start}"

    def step(last: list[Fraction]) -> Fraction | None:
        below = c * last[-1] + d
        return None if not below else (a * last[-1] + b) / below

    spare = len(rows) - 3
    return _Fit("Möbius recurrence", 3, start, spare, formula, _sequence(start, known, step, 1))


def _ratio_in_n(start: int, known: list[Fraction]) -> _Fit | None:
    """``v(n) (c n + d) = a n + b``: homogeneous in ``(a, b, c, d)``."""
    rows = [[Fraction(start + i), Fraction(1), -v * (start + i), -v] for i, v in enumerate(known)]
    kernel = _kernel(rows, 4)
    if kernel is None:
        return None
    a, b, c, d = (x * _common_scale(kernel) for x in kernel)
    if a * d == b * c:
        return None  # a constant: the constant model's
    if c < 0 or (c == 0 and d < 0):
        a, b, c, d = -a, -b, -c, -d
    formula = f"v(n) = {_over(_affine(a, b, 'n'), _affine(c, d, 'n'))} for n >= {start}"

    def predict(n: int) -> Fraction | None:
        below = c * n + d
        return None if n < start or not below else (a * n + b) / below

    return _Fit("ratio of linear functions of n", 3, start, len(rows) - 3, formula, predict)


def _common_scale(coefficients: list[Fraction]) -> Fraction:
    """The factor that makes ``coefficients`` coprime integers."""
    denominator = lcm(*(c.denominator for c in coefficients))
    numerators = [int(c * denominator) for c in coefficients]
    return Fraction(denominator, gcd(*numerators))


def _term(coefficient: Fraction, name: str) -> str:
    """``+ 3 v(n-1)``, ``- v(n-2)``, ``+ 1/2 v(n-1)``."""
    sign = "-" if coefficient < 0 else "+"
    size = abs(coefficient)
    return f"{sign} {name}" if size == 1 else f"{sign} {exact_str(size)} {name}"


def _affine(slope: Fraction, constant: Fraction, name: str) -> str:
    """``3 v(n) + 1``, ``n - 2``, ``-n + 5``, ``5``.

    >>> _affine(Fraction(-1), Fraction(5), "n"), _affine(Fraction(0), Fraction(-2), "n")
    ('-n + 5', '-2')
    """
    parts = [_term(slope, name)] if slope else []
    if constant or not parts:
        parts.append(f"{'-' if constant < 0 else '+'} {exact_str(abs(constant))}")
    return _joined(parts)


def _over(top: str, bottom: str) -> str:
    """``top/bottom``, each in parentheses when it has more than one term.

    >>> _over("n", "n + 1"), _over("v(n) + 1", "5")
    ('n/(n + 1)', '(v(n) + 1)/5')
    """
    return "/".join(f"({part})" if " " in part else part for part in (top, bottom))


def _joined(terms: list[str]) -> str:
    """Signed terms as one expression: ``['- n', '+ 5']`` -> ``-n + 5``."""
    text = " ".join(terms)
    return text[2:] if text.startswith("+ ") else "-" + text[2:]

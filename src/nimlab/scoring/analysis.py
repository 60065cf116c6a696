"""The result record of ``nimlab scoring``: payoff function, limits, optimal play at a bonus.

>>> result = analyze_scoring([5, 4, 2], bonus=3)
>>> result.to_json()["payoff"], result.c_plus, result.c_minus, result.normal_outcome
('2', -3, -3, 'N')
>>> sorted(analyze_scoring([1, 1]).to_json())[:6]
['breakpoints', 'c_minus', 'c_plus', 'intervals', 'method', 'misere_outcome']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from nimlab.core.heaps import Heaps, check_heaps
from nimlab.exact import exact_str
from nimlab.scoring.payoff import DEFAULT_MAX_CELLS, Method, solve_payoffs
from nimlab.scoring.piecewise import PiecewiseLinear
from nimlab.scoring.play import (
    MoveInterval,
    PlayLine,
    move_intervals,
    optimal_line,
    optimal_moves,
)

__all__ = ["ScoringAnalysis", "analyze_scoring"]


@dataclass(frozen=True)
class ScoringAnalysis:
    """f_N of a position, its optimal moves by interval of N and, at one N, optimal play."""

    position: Heaps
    function: PiecewiseLinear
    intervals: tuple[MoveInterval, ...]
    method: str
    bonus: Fraction | None = None
    optimal_moves: tuple[Heaps, ...] = ()
    line: PlayLine | None = None

    @property
    def c_plus(self) -> int:
        """c+(p) of Prop. 5.5: f_N(p) = c+ -/+ N for large N (the right tail's intercept)."""
        return int(self.function.intercept_right)

    @property
    def c_minus(self) -> int:
        """c-(p) of Prop. 5.5: f_N(p) = c- +/- N for very negative N (the left tail's)."""
        return int(self.function.intercept_left)

    @property
    def normal_outcome(self) -> str:
        """``"N"`` if f_N -> +inf as N -> +inf (the mover takes the last stone), else ``"P"``."""
        return "N" if self.function.slope_right > 0 else "P"

    @property
    def misere_outcome(self) -> str:
        """``"N"`` if f_N -> +inf as N -> -inf (the mover avoids the last stone), else ``"P"``."""
        return "N" if self.function.slope_left < 0 else "P"

    def to_json(self) -> dict[str, Any]:
        """The contract's keys (``position``, ``breakpoints``, slopes; with N: ``N``,
        ``payoff``, ``optimal_moves``, ``line``) plus limits, c+/c- and the intervals."""
        f = self.function
        payload: dict[str, Any] = {
            "position": list(self.position),
            "breakpoints": [[exact_str(x), exact_str(y)] for x, y in f.breakpoints],
            "slope_left": int(f.slope_left),
            "slope_right": int(f.slope_right),
            "value_at_0": exact_str(f(0)),
            "normal_outcome": self.normal_outcome,
            "misere_outcome": self.misere_outcome,
            "c_plus": self.c_plus,
            "c_minus": self.c_minus,
            "intervals": [interval.to_json() for interval in self.intervals],
            "method": self.method,
        }
        if self.bonus is not None and self.line is not None:
            payload["N"] = exact_str(self.bonus)
            payload["payoff"] = exact_str(f(self.bonus))
            payload["optimal_moves"] = [list(p) for p in self.optimal_moves]
            payload["line"] = [list(p) for p in self.line.positions]
            payload["scores"] = [exact_str(s) for s in self.line.scores]
        return payload


def analyze_scoring(
    heaps: Iterable[object],
    bonus: int | Fraction | None = None,
    *,
    method: Method = "grid",
    max_cells: int = DEFAULT_MAX_CELLS,
) -> ScoringAnalysis:
    """Analyse a Scoring Nim position (piles in the given order), optionally at one bonus N."""
    position = check_heaps(heaps)
    solution = solve_payoffs(position, method=method, max_cells=max_cells)
    function = solution.function(position)
    intervals = tuple(move_intervals(solution, position))
    if bonus is None:
        return ScoringAnalysis(position, function, intervals, solution.method)
    n = Fraction(bonus)
    return ScoringAnalysis(
        position,
        function,
        intervals,
        solution.method,
        bonus=n,
        optimal_moves=optimal_moves(solution, position, n),
        line=optimal_line(solution, position, n),
    )

"""Optimal play in Scoring Nim: optimal moves at a bonus N, their intervals of N, lines of play.

A move ``p -> p'`` is optimal at ``N`` when ``|p| - |p'| - f_N(p') = f_N(p)``. Every option is a
piecewise-linear function of N lying below f_N, so the set of N where a move is optimal is a
union of closed intervals whose ends are breakpoints of f_N or of the option.

>>> from fractions import Fraction
>>> from nimlab.scoring.payoff import solve_payoffs
>>> solution = solve_payoffs([5, 4, 2])
>>> optimal_moves(solution, (5, 4, 2), 3)
((1, 4, 2),)
>>> for interval in move_intervals(solution, (5, 4, 2)):
...     print(interval)
N <= -4: 5,4,1
-4 <= N <= -1: 0,4,2 | 1,4,2
-1 <= N <= 1: 0,4,2
1 <= N <= 4: 1,4,2
N >= 4: 5,4,1
>>> line = optimal_line(solution, (5, 4, 2), 3)
>>> [list(p) for p in line.positions][:3], line.scores
([[5, 4, 2], [1, 4, 2], [1, 3, 2]], (Fraction(8, 1), Fraction(6, 1)))
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from nimlab.core.heaps import Heaps, format_heaps
from nimlab.exact import exact_str
from nimlab.scoring.payoff import PayoffSolution
from nimlab.scoring.piecewise import PiecewiseLinear

__all__ = [
    "MoveInterval",
    "PlayLine",
    "line_scores",
    "move_intervals",
    "moves",
    "optimal_line",
    "optimal_moves",
]


def moves(position: Sequence[int]) -> Iterator[tuple[int, Heaps]]:
    """``(stones taken, position after)`` for every move, piles kept in the input order.

    >>> list(moves((2, 1)))
    [(2, (0, 1)), (1, (1, 1)), (1, (2, 0))]
    """
    for i, pile in enumerate(position):
        for smaller in range(pile):
            yield pile - smaller, (*position[:i], smaller, *position[i + 1 :])


def _options(
    solution: PayoffSolution, position: Sequence[int]
) -> list[tuple[Heaps, PiecewiseLinear]]:
    return [(after, taken - solution.function(after)) for taken, after in moves(position)]


def optimal_moves(
    solution: PayoffSolution, position: Sequence[int], bonus: int | Fraction
) -> tuple[Heaps, ...]:
    """The positions (input pile order) after each optimal move at ``N = bonus``."""
    target = solution.function(position)(bonus)
    return tuple(after for after, g in _options(solution, position) if g(bonus) == target)


@dataclass(frozen=True)
class MoveInterval:
    """The optimal moves on ``low <= N <= high`` (``None``: unbounded), or at a single point.

    Each move listed is optimal on the whole closed interval; no other move is optimal at any
    interior point. A degenerate interval (``low == high``) lists a point where more moves are
    optimal than on both sides.
    """

    low: Fraction | None
    high: Fraction | None
    moves: tuple[Heaps, ...]

    def __str__(self) -> str:
        listed = " | ".join(format_heaps(m) for m in self.moves)
        if self.low is not None and self.low == self.high:
            return f"N = {exact_str(self.low)}: {listed}"
        if self.low is None and self.high is None:
            return f"every N: {listed}"
        if self.low is None:
            return f"N <= {exact_str(self.high or 0)}: {listed}"
        if self.high is None:
            return f"N >= {exact_str(self.low)}: {listed}"
        return f"{exact_str(self.low)} <= N <= {exact_str(self.high)}: {listed}"

    def to_json(self) -> dict[str, object]:
        """``{"from": N or null, "to": N or null, "moves": [positions]}``."""
        return {
            "from": None if self.low is None else exact_str(self.low),
            "to": None if self.high is None else exact_str(self.high),
            "moves": [list(m) for m in self.moves],
        }


def move_intervals(solution: PayoffSolution, position: Sequence[int]) -> list[MoveInterval]:
    """Partition the N axis by the set of optimal moves (empty for a finished game)."""
    options = _options(solution, position)
    if not options:
        return []
    f = solution.function(position)
    cuts = sorted({x for _, g in options for x, _ in g.breakpoints} | {x for x, _ in f.breakpoints})

    def best_at(n: Fraction) -> tuple[Heaps, ...]:
        value = f(n)
        return tuple(after for after, g in options if g(n) == value)

    if not cuts:
        return [MoveInterval(None, None, best_at(Fraction(0)))]
    samples = [cuts[0] - 1, *((a + b) / 2 for a, b in pairwise(cuts))]
    segments = [best_at(n) for n in [*samples, cuts[-1] + 1]]
    points = [best_at(x) for x in cuts]
    result: list[MoveInterval] = []
    low: Fraction | None = None
    for k, x in enumerate(cuts):
        left, right = segments[k], segments[k + 1]
        if left == right == points[k]:
            continue  # nothing changes at x
        result.append(MoveInterval(low, x, left))
        if set(points[k]) != set(left) | set(right):
            result.append(MoveInterval(x, x, points[k]))
        low = x
    result.append(MoveInterval(low, None, segments[-1]))
    return result


@dataclass(frozen=True)
class PlayLine:
    """One optimal line of play at ``bonus`` and the two players' final scores."""

    bonus: Fraction
    positions: tuple[Heaps, ...]
    scores: tuple[Fraction, Fraction]

    @property
    def payoff(self) -> Fraction:
        """First player's score minus second player's."""
        return self.scores[0] - self.scores[1]


def line_scores(
    positions: Sequence[Sequence[int]], bonus: int | Fraction
) -> list[tuple[Fraction, Fraction]]:
    """Running scores ``(first, second)`` after each move of a line ending at no stones.

    >>> line_scores([(3, 2, 1), (2, 2, 1), (2, 2, 0), (2, 0, 0), (0, 0, 0)], 5)[-1]
    (Fraction(3, 1), Fraction(8, 1))
    """
    scores = [Fraction(0), Fraction(0)]
    running = []
    for k in range(1, len(positions)):
        gained = Fraction(sum(positions[k - 1]) - sum(positions[k]))
        if not any(positions[k]):
            gained += bonus
        scores[(k - 1) % 2] += gained
        running.append((scores[0], scores[1]))
    return running


def optimal_line(
    solution: PayoffSolution, position: Sequence[int], bonus: int | Fraction
) -> PlayLine:
    """Play optimal moves to the end; ties go to the move taking most stones, then pile order."""
    line: list[Heaps] = [tuple(position)]
    while any(line[-1]):
        best = optimal_moves(solution, line[-1], bonus)
        line.append(max(best, key=lambda after: -sum(after)))
    running = line_scores(line, bonus)
    final = running[-1] if running else (Fraction(0), Fraction(bonus))
    return PlayLine(Fraction(bonus), tuple(line), final)

"""Scoring Nim at one bonus N answered from stored f_N records (the keys of ``sweep scoring``).

A stored record (``scoring(5,4,2)``) holds f_N exactly as a function of N and the optimal moves
on each interval of N. At a bonus X, ``f_X`` is read off the function, the optimal moves are
those of every interval containing X, and a line of play follows them, reading (or computing
and storing) the record of each position on the way. The answer equals ``nimlab scoring H...
--N X --json`` without a store, key for key.

>>> import tempfile, pathlib
>>> from nimlab.scoring.analysis import analyze_scoring
>>> path = pathlib.Path(tempfile.mkdtemp()) / "r.sqlite"
>>> answer, served = scoring_at(path, (2, 4, 1), Fraction(-7, 2))
>>> answer == analyze_scoring((2, 4, 1), Fraction(-7, 2)).to_json(), served
(True, False)
>>> again, served = scoring_at(path, (4, 1, 2), Fraction(-7, 2))
>>> again["position"], again["payoff"], served
([4, 1, 2], '5/2', True)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from nimlab.core.heaps import Heaps
from nimlab.exact import exact_str
from nimlab.scoring.piecewise import PiecewiseLinear
from nimlab.scoring.play import line_scores

__all__ = ["ScoringRecords", "in_input_order", "optimal_at", "record_function", "scoring_at"]


def in_input_order(payload: dict[str, Any], position: Sequence[int]) -> dict[str, Any]:
    """A stored record (non-empty piles as a multiset, largest first) for ``position``: its
    piles in input order, empty piles included (they stay empty after every move).

    Positions after a move are permuted the same way and listed as the plain command lists
    them: by the pile moved in, then by what is left in it.

    >>> stored = {"position": [3, 1], "intervals": [{"from": None, "to": None,
    ...     "moves": [[0, 1], [1, 1], [2, 1], [3, 0]]}]}
    >>> in_input_order(stored, (1, 0, 3))["intervals"][0]["moves"]
    [[0, 0, 3], [1, 0, 0], [1, 0, 1], [1, 0, 2]]
    """
    stored = list(payload["position"])
    source: list[int | None] = []  # source[i]: the stored index of input pile i
    for pile in position:
        if pile == 0:
            source.append(None)
            continue
        index = next(j for j, size in enumerate(stored) if size == pile and j not in source)
        source.append(index)

    def reorder(after: list[int]) -> list[int]:
        return [0 if j is None else after[j] for j in source]

    def move_order(after: list[int]) -> tuple[int, int]:
        return _move_key(position, after)

    intervals = [
        {**interval, "moves": sorted((reorder(m) for m in interval["moves"]), key=move_order)}
        for interval in payload["intervals"]
    ]
    return {**payload, "position": list(position), "intervals": intervals}


def record_function(record: dict[str, Any]) -> PiecewiseLinear:
    """f_N of a record, exactly, from its breakpoints, end slopes and ``value_at_0``.

    >>> f = record_function({"breakpoints": [["0", "1"]], "slope_left": -1, "slope_right": 1,
    ...     "value_at_0": "1"})
    >>> f(Fraction(-7, 2)), f(Fraction(1, 2))
    (Fraction(9, 2), Fraction(3, 2))
    """
    points = [(Fraction(x), Fraction(y)) for x, y in record["breakpoints"]]
    if not points:
        return PiecewiseLinear.affine(record["slope_left"], Fraction(record["value_at_0"]))
    return PiecewiseLinear.from_points(points, record["slope_left"], record["slope_right"])


def optimal_at(record: dict[str, Any], bonus: Fraction) -> list[list[int]]:
    """The positions after each optimal move at ``N = bonus``, in the record's move order.

    Each interval lists the moves optimal on all of it (a single point lists the extra moves
    optimal only there), so the moves optimal at ``bonus`` are those of every closed interval
    containing it.

    >>> record = {"position": [2, 1], "intervals": [{"from": None, "to": "0", "moves": [[0, 1]]},
    ...     {"from": "0", "to": None, "moves": [[1, 1]]}]}
    >>> optimal_at(record, Fraction(-1)), optimal_at(record, Fraction(0))
    ([[0, 1]], [[0, 1], [1, 1]])
    """
    found: list[list[int]] = []
    for interval in record["intervals"]:
        low, high = interval["from"], interval["to"]
        if (low is None or Fraction(low) <= bonus) and (high is None or bonus <= Fraction(high)):
            found.extend(move for move in interval["moves"] if move not in found)
    return sorted(found, key=lambda after: _move_key(record["position"], after))


def _move_key(position: Sequence[int], after: Sequence[int]) -> tuple[int, int]:
    """Where a move sits in the plain command's order: the pile moved in, then what is left."""
    moved = next(i for i, (a, b) in enumerate(zip(after, position, strict=True)) if a != b)
    return moved, after[moved]


@dataclass
class ScoringRecords:
    """Stored f_N records by position (input order), each read once; computed on a miss."""

    store_path: Path
    method: str = "grid"
    max_cells: int | None = None
    computed: int = 0
    _seen: dict[Heaps, dict[str, Any]] = field(default_factory=dict)

    def get(self, position: Sequence[int]) -> dict[str, Any]:
        """The record of ``position`` (at least one stone), its piles in input order."""
        from nimlab.specs import scoring_task
        from nimlab.store.cache import cached_result
        from nimlab.sweeps.tasks import run_task  # what computes a task, wherever it runs

        key = tuple(position)
        if key not in self._seen:
            task = scoring_task(key, method=self.method, max_cells=self.max_cells)
            stored, served = cached_result(
                self.store_path,
                task.spec,
                task.method,
                lambda: run_task(task),
                accepts=task.accepts,
            )
            self.computed += not served
            self._seen[key] = in_input_order(stored, key)
        return self._seen[key]


def scoring_at(
    store_path: str | os.PathLike[str],
    position: Sequence[int],
    bonus: Fraction,
    *,
    method: str = "grid",
    max_cells: int | None = None,
) -> tuple[dict[str, Any], bool]:
    """``(answer, served)``: the JSON of ``nimlab scoring H... --N X`` from the store, and
    whether every record it needed was there already (else they are now).

    ``position`` needs a stone; its piles are kept in the order given.
    """
    records = ScoringRecords(Path(store_path), method, max_cells)
    root = records.get(position)
    line: list[list[int]] = [list(position)]
    while any(line[-1]):
        best = optimal_at(records.get(line[-1]), bonus)
        line.append(max(best, key=lambda after: -sum(after)))  # most stones; then first
    final = line_scores(line, bonus)[-1]
    answer = {
        **root,
        "N": exact_str(bonus),
        "payoff": exact_str(record_function(root)(bonus)),
        "optimal_moves": optimal_at(root, bonus),
        "line": line,
        "scores": [exact_str(score) for score in final],
    }
    return answer, records.computed == 0

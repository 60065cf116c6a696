"""Scoring Nim: exact payoff functions of all K-pile positions vs. a per-N memoised recursion.

Run: ``.venv/bin/python benchmarks/bench_scoring.py [--quick]``. Prints Markdown tables; every
time is the best of 3 runs.

* "nimlab": ``solve_payoffs([M] * K).functions()``: the grid engine (certified exact; its
  numpy loop, or the numba kernel, compiled before timing and cached on disk) and then the
  exact piecewise-linear function (breakpoints, end slopes) of every position with K piles <= M.
* "per-N recursion": the obvious method, a memoised recursion (2) run separately at each integer
  N of the window [-(KM+2), KM+2] over every position (it only gives values at integers, and
  needs Prop. 3.1 to interpolate). Its values are checked against nimlab's.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import cache
from itertools import combinations_with_replacement

from nimlab.scoring.payoff import solve_payoffs

REPEATS = 3


def exact_functions(piles: int, largest: int, compiled: bool) -> tuple[float, int, int]:
    """Seconds to compute every position's exact function; positions; most breakpoints."""
    seconds = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        functions = solve_payoffs([largest] * piles, compiled=compiled).functions()
        seconds = min(seconds, time.perf_counter() - start)
    return seconds, len(functions), max(len(f.breakpoints) for f in functions.values())


def per_n_recursion(piles: int, largest: int, bonus: int) -> dict[tuple[int, ...], int]:
    """f_N of every position with ``piles`` piles <= ``largest`` at one integer N."""

    @cache
    def f(position: tuple[int, ...]) -> int:
        best = None
        for i, pile in enumerate(position):
            for smaller in range(pile):
                after = tuple(sorted((*position[:i], smaller, *position[i + 1 :])))
                option = pile - smaller - f(after)
                if best is None or option > best:
                    best = option
        return -bonus if best is None else best

    return {p: f(p) for p in combinations_with_replacement(range(largest + 1), piles)}


def timed(action: Callable[[], object]) -> float:
    """Best of ``REPEATS`` runs (the machine is shared; the minimum is the least disturbed)."""
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def side_by_side(piles: int, largest: int) -> tuple[float, float, float]:
    """(nimlab numpy, nimlab numba, per-N recursion) seconds, checked to agree at every N."""
    half = piles * largest + 2
    ours = timed(lambda: solve_payoffs([largest] * piles, compiled=False).functions())
    ours_compiled = timed(lambda: solve_payoffs([largest] * piles, compiled=True).functions())
    baseline: dict[int, dict[tuple[int, ...], int]] = {}

    def run_baseline() -> None:
        baseline.update({n: per_n_recursion(piles, largest, n) for n in range(-half, half + 1)})

    theirs = timed(run_baseline)
    solution = solve_payoffs([largest] * piles)
    for n, values in baseline.items():
        for position, value in values.items():
            assert solution.function(position)(n) == value, (position, n)
    return ours, ours_compiled, theirs


def main() -> None:
    quick = "--quick" in sys.argv
    # warm up outside the timings: import numpy, compile (or load) the numba kernel
    solve_payoffs([2, 2], compiled=True)
    print("| job | positions | max breakpoints | numpy engine (s) | numba kernel (s) | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for piles, largest, target in [(3, 40, "< 20 s"), (4, 15, "< 60 s")]:
        if quick:
            largest //= 2
        plain, count, most = exact_functions(piles, largest, compiled=False)
        compiled, _, _ = exact_functions(piles, largest, compiled=True)
        print(
            f"| all {piles}-pile positions, piles <= {largest}: exact f_N "
            f"| {count} | {most} | {plain:.2f} | {compiled:.2f} | {target} |"
        )
    print()
    print(
        "| side by side | nimlab numpy (s) | nimlab numba (s) | per-N memoised recursion (s) "
        "| ratio numpy | ratio numba |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for piles, largest in [(3, 10), (3, 20)] if not quick else [(3, 8)]:
        ours, ours_compiled, theirs = side_by_side(piles, largest)
        print(
            f"| {piles} piles <= {largest}, all positions, every integer N in "
            f"[-{piles * largest + 2}, {piles * largest + 2}] "
            f"| {ours:.3f} | {ours_compiled:.3f} | {theirs:.2f} | {theirs / ours:.0f}x "
            f"| {theirs / ours_compiled:.0f}x |"
        )


if __name__ == "__main__":
    main()

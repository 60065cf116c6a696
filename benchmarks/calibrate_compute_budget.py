"""The calibration of the budgets of ``grundy``, ``analyze`` and the Nim enumerations: each
measured run beside the cost the estimate predicts for it.

Run: ``.venv/bin/python benchmarks/calibrate_compute_budget.py [octal|enumerations|analyze]``
(default: all three). Prints one Markdown table per part: the call, the measured wall seconds
and peak resident memory (of this process so far), and the estimate's seconds and bytes. The
fitted formulas and the figures they came from are in ``BENCHMARKS.md`` ("Budgets of ...").
"""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Callable
from typing import Any

HEADER = (
    "| call | measured s | peak MB | estimated s | estimated MB |\n| --- | --- | --- | --- | --- |"
)


def _row(name: str, run: Callable[[], Any], cost: Any) -> None:
    start = time.perf_counter()
    run()
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"| {name} | {seconds:.2f} | {peak:.0f} | {cost.seconds:.2f} | {cost.bytes / 1e6:.0f} |")


def octal() -> None:
    from nimlab.catalogue import make_game
    from nimlab.catalogue.base import GameOptions
    from nimlab.octal import OctalCode, grundy_sequence

    grundy_sequence(OctalCode.parse("0.07"), 20_000)  # numba compiled once, not timed
    print(HEADER)
    for name, options, upto in (
        ("octal", GameOptions(code="0.56"), 700_000),
        ("octal", GameOptions(code="0.127"), 100_000),
        ("octal", GameOptions(code="0.77"), 8_000),
        ("grundy-game", GameOptions(), 200_000),
        ("kayles", GameOptions(), 3_000_000),
    ):
        game = make_game(name, options)
        cost = game.sequence_cost(upto)
        _row(f"{game.spec} to {upto:,}", lambda g=game, n=upto: g.grundy_values(n), cost)


def enumerations() -> None:
    from nimlab.nim.enumeration import (
        aesthetic_cost,
        aesthetic_positions,
        lost_cost,
        lost_positions,
        lost_trapezoids,
        trapezoids_cost,
    )

    print(HEADER)
    _row("lost 3 heaps to 2000", lambda: lost_positions(3, 2000), lost_cost(3, 2000))
    _row("lost 4 heaps to 200", lambda: lost_positions(4, 200), lost_cost(4, 200))
    _row(
        "trapezoids 2..600",
        lambda: lost_trapezoids(smallest=2, largest=600),
        trapezoids_cost(2, 600),
    )
    for heaps in (20, 30, 40):
        _row(f"aesthetic {heaps}", lambda k=heaps: aesthetic_positions(k), aesthetic_cost(heaps))


def analyze() -> None:
    from nimlab.catalogue import analyze as analyze_position
    from nimlab.catalogue import make_game

    print("| call | measured s |\n| --- | --- |")
    for stalks in (20, 40):
        game = make_game("red-blue-hackenbush")
        text = ",".join(["BRBRRB" * 3] * stalks)
        start = time.perf_counter()
        analyze_position(game, text)
        print(f"| red-blue-hackenbush, {18 * stalks} edges | {time.perf_counter() - start:.2f} |")


def main() -> None:
    parts = {"octal": octal, "enumerations": enumerations, "analyze": analyze}
    for name in sys.argv[1:] or list(parts):
        print(f"\n## {name}\n")
        parts[name]()


if __name__ == "__main__":
    main()

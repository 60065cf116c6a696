"""The calibration of the budgets of ``grundy``, ``analyze`` and the Nim enumerations: each
measured run beside the cost the estimate predicts for it.

Run: ``.venv/bin/python benchmarks/calibrate_compute_budget.py [octal|enumerations|analyze|brute]``
(default: all four). Prints one Markdown table per part: the call, the measured wall seconds
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


#: (game, options, position): a search of about a second per game of the catalogue.
BRUTE_CASES: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("nim", {}, "6,7,8,9"),
    ("subtraction", {"subtraction_set": (1, 3, 4)}, "30,30,30"),
    ("wythoff", {}, "60,70"),
    ("staircase", {}, "0,4,4,4,4"),
    ("nimble", {}, "9,9,9,9,9"),
    ("nim2d", {}, "3:3,3:3,3:3,3:3"),
    ("poker-nim", {"additions": 1, "cap": 6}, "5,5,5,5"),
    ("skip-nim", {"skips": (2, 2)}, "8,8,8"),
    ("turning-turtles", {}, "H" * 14),
    ("twins", {}, "H" * 14),
    ("silver-dollar", {}, "3,6,9,12,15,18"),
    ("prime-power", {}, str(2**5 * 3**5 * 5**5 * 7**5 * 11**5)),
    ("green-hackenbush", {}, ",".join(f"g-a{i},a{i}-g" for i in range(5))),
    ("red-blue-hackenbush", {}, "BRBRBR,RBRBRB,BBRRBB,RRBBRR"),
    ("domineering", {}, "..../..../...."),
    ("hackenbush", {}, ",".join(f"g-a{i}:{'BRG'[i % 3]}" for i in range(12))),
    ("octal", {"code": "0.137"}, "30"),
    ("kayles", {}, "18"),
    ("dawson-kayles", {}, "24"),
    ("grundy-game", {}, "18"),
)


def brute() -> None:
    """Each catalogue game's ``analyze --brute`` on a position of about a second: the
    positions its estimate allows and those the search memoised, the measured seconds per
    estimated step (:data:`nimlab.catalogue.brute.STEP_SECONDS` times the game's scale), and
    the estimated seconds."""
    from nimlab.catalogue import GameOptions, make_game
    from nimlab.catalogue import analyze as analyze_position
    from nimlab.catalogue.brute import STEP_SECONDS

    print(
        "| game | position | states (estimate) | memo | measured s | estimated s |"
        " µs per step (measured / estimated steps x scale) |\n"
        "| --- | --- | --- | --- | --- | --- | --- |"
    )
    for name, options, text in BRUTE_CASES:
        game = make_game(name, GameOptions(**options))
        size = game.brute_size(game.parse_position(text))
        assert size is not None
        start = time.perf_counter()
        analyze_position(game, text, brute_force=True)
        seconds = time.perf_counter() - start
        memo = len(game._solver) if game.impartial or name in ("poker-nim", "skip-nim") else "-"
        per_step = seconds / (size.steps * size.scale) * 1e6
        estimated = size.steps * size.scale * STEP_SECONDS
        print(
            f"| {game.spec} | {text[:24]} | {size.states:,} | {memo} | {seconds:.2f} |"
            f" {estimated:.2f} | {per_step:.2f} |",
            flush=True,
        )


def main() -> None:
    parts = {"octal": octal, "enumerations": enumerations, "analyze": analyze, "brute": brute}
    for name in sys.argv[1:] or list(parts):
        print(f"\n## {name}\n")
        parts[name]()


if __name__ == "__main__":
    main()

"""Foundation benchmarks: Nim enumerations, the generic Grundy engine, nim-product vs mex.

Run: ``.venv/bin/python benchmarks/bench_foundation.py`` (prints a Markdown table).
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from itertools import combinations_with_replacement

from nimlab import GrundySolver, MoveFunctionGame, disjunctive_sum
from nimlab.nimbers import nim_product, nim_table
from nimlab.nimbers.tables import nim_table_by_mex


def median_seconds(action: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cli_seconds(*args: str) -> float:
    command = [sys.executable, "-m", "nimlab", *args, "--json"]
    return median_seconds(lambda: subprocess.run(command, check=True, capture_output=True))


def naive_lost_4(largest: int) -> int:
    """Baseline: test every multiset of 4 heaps for nim-sum 0 (no forced last heap)."""
    count = 0
    for a, b, c, d in combinations_with_replacement(range(1, largest + 1), 4):
        if a ^ b ^ c ^ d == 0 and not (a == b and c == d) and not (a == c and b == d):
            count += 1
    return count


def engine_rate() -> tuple[int, float]:
    """Positions per second of a fresh solver on a sum of three subtraction games."""
    take = MoveFunctionGame(lambda n: [n - s for s in (1, 2, 3) if s <= n])
    solver = GrundySolver(disjunctive_sum(take, take, take))
    start = time.perf_counter()
    solver.grundy_value((99, 99, 99))
    return len(solver), time.perf_counter() - start


def main() -> None:
    rows: list[tuple[str, str]] = []
    rows.append(
        (
            "`nimlab aesthetic --heaps 20` (whole CLI run)",
            f"{cli_seconds('aesthetic', '--heaps', '20'):.2f} s",
        )
    )
    lost_cli = cli_seconds("lost", "--heaps", "4", "--max", "127", "--non-obvious")
    rows.append(
        ("`nimlab lost --heaps 4 --max 127 --non-obvious` (whole CLI run)", f"{lost_cli:.2f} s")
    )

    from nimlab.nim import lost_positions

    smart = median_seconds(lambda: lost_positions(4, 127, non_obvious=True))
    naive = median_seconds(lambda: naive_lost_4(127), repeat=1)
    rows.append(
        (
            "lost 4 heaps <= 127: forced last heap vs testing all multisets",
            f"{smart:.3f} s vs {naive:.2f} s ({naive / smart:.0f}x)",
        )
    )

    positions, seconds = engine_rate()
    rows.append(
        (
            "`grundy_value`, sum of 3 subtraction games S(1,2,3), 10^6 positions",
            f"{positions:,} positions in {seconds:.2f} s"
            f" = {positions / seconds * 60 / 1e6:.1f} million/minute",
        )
    )

    fast = median_seconds(lambda: nim_table("product", 64))
    mex = median_seconds(lambda: nim_table_by_mex("product", 64), repeat=1)
    rows.append(
        (
            "nim-product table 64x64: Fermat recursion vs mex definition",
            f"{fast * 1e3:.2f} ms vs {mex:.2f} s ({mex / fast:,.0f}x)",
        )
    )

    rng = random.Random(1)
    pairs = [(rng.getrandbits(128), rng.getrandbits(128)) for _ in range(2000)]
    nim_product(*pairs[0])  # warm the table
    start = time.perf_counter()
    for a, b in pairs:
        nim_product(a, b)
    per_product = (time.perf_counter() - start) / len(pairs)
    rows.append(
        (
            "random 128-bit nim-product (mean over 2000 distinct pairs)",
            f"{per_product * 1e6:.0f} µs",
        )
    )

    print("| measurement | result |")
    print("| --- | --- |")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()

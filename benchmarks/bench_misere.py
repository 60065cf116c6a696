"""Misère quotients: time per heap as the quotient grows, against brute-force outcome search,
and (optionally) beside Siegel's MisereSolver built from the CGSuite source.

Run: ``.venv/bin/python benchmarks/bench_misere.py [--codes 0.77,0.07,4.7] [--upto 30]
[--seconds 60] [--msv DIR]``.
Part 1, per code: the heap n at which the quotient grew, its order, and the cumulative seconds
to settle heaps 0..n; beside it, at checkpoints, the seconds the brute-force search
(:class:`nimlab.quotients.BruteMisere`, fresh memo) takes for the outcomes of every sum of up to
three heaps of at most n, and the seconds the quotient takes to answer the same sums.
Part 2 (``--msv DIR``, DIR holding the compiled classes of MisereSolver with a stub
``HeapRuleset`` and a ``Bench`` driver, see BENCHMARKS.md): the heap each program reaches in
``--seconds`` per code. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import subprocess
import time

from nimlab.octal import OctalCode
from nimlab.quotients import BruteMisere, QuotientSolver, misere_quotient, words_upto


def growth(code: str, upto: int, seconds: float) -> None:
    """The heaps where the quotient grew, with cumulative time, and the brute-force race."""
    solver = QuotientSolver.for_code(OctalCode.parse(code))
    deadline = time.monotonic() + seconds
    started = time.perf_counter()
    print(f"\n### {code}\n\n| heap | order of Q_n | cumulative s |\n|---|---|---|")
    last = 1
    while solver.upto < upto and time.monotonic() < deadline:
        solver.extend(solver.upto + 1)
        if solver.monoid.size != last:
            last = solver.monoid.size
            print(f"| {solver.upto} | {last} | {time.perf_counter() - started:.2f} |")
    print(f"| {solver.upto} (last) | {last} | {time.perf_counter() - started:.2f} |")
    print("\n| n | sums of <= 3 heaps <= n | brute force s | quotient s |\n|---|---|---|---|")
    for n in (6, 9, 12, 15):
        if n > solver.upto:
            break
        quotient = misere_quotient(code, n)
        words = list(words_upto(3, n))
        t0 = time.perf_counter()
        brute = BruteMisere(OctalCode.parse(code).heap_options)
        expected = [brute.is_p(w) for w in words]
        t1 = time.perf_counter()
        got = [quotient.is_p(w) for w in words]
        t2 = time.perf_counter()
        assert got == expected
        print(f"| {n} | {len(words)} | {t1 - t0:.3f} | {t2 - t1:.4f} |")


def side_by_side(codes: list[str], seconds: float, msv: str) -> None:
    """The heap each program settles in ``seconds`` (MisereSolver: its ``Bench`` driver)."""
    print(f"\n| code | nimlab heap (order) in {seconds:g} s | MisereSolver heap (order) |")
    print("|---|---|---|")
    for code in codes:
        quotient = misere_quotient(code, 10**6, seconds=seconds)
        try:
            run = subprocess.run(
                ["java", "-cp", msv, "org.cgsuite.core.misere.solver.Bench", code, str(seconds)],
                capture_output=True,
                text=True,
                timeout=seconds * 3 + 30,
                check=False,
            )
            words = run.stdout.split()
            java = f"{words[2]} ({words[4]}) in {float(words[6]):.1f} s" if words else "failed"
        except subprocess.TimeoutExpired:
            java = "no heap reported (killed)"
        print(f"| {code} | {quotient.certified_to} ({quotient.order}) | {java} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--codes", default="0.77,0.07,4.7")
    parser.add_argument("--upto", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--msv", default=None)
    args = parser.parse_args()
    codes = args.codes.split(",")
    for code in codes:
        growth(code, args.upto, args.seconds)
    if args.msv:
        side_by_side(codes, args.seconds, args.msv)


if __name__ == "__main__":
    main()

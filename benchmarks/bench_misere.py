"""Misère quotients: time per heap as the quotient grows, against brute-force outcome search,
and (optionally) beside Siegel's MisereSolver built from the CGSuite source.

Run: ``.venv/bin/python benchmarks/bench_misere.py [--codes 0.77,0.07,4.7] [--upto 30]
[--seconds 60] [--msv DIR [--marks 30,60] [--race-only]]``.
Part 1, per code: the heap n at which the quotient grew, its order, and the cumulative seconds
to settle heaps 0..n; beside it, at checkpoints, the seconds the brute-force search
(:class:`nimlab.quotients.BruteMisere`, fresh memo) takes for the outcomes of every sum of up to
three heaps of at most n, and the seconds the quotient takes to answer the same sums.
Part 2 (``--msv DIR``, DIR holding the compiled classes of MisereSolver with a stub
``HeapRuleset`` and a ``Bench`` driver printing a line per heap, see BENCHMARKS.md): both
programs run at once on each code (one process each, the time counted from the start of the
solve, numba's loading included for nimlab), and the heap each has settled after each of
``--marks`` seconds is reported. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time

from nimlab.errors import TooLargeError
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
        try:
            solver.extend(solver.upto + 1, deadline=deadline)
        except TooLargeError:  # out of time inside a heap (or a table too large)
            break
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


def _nimlab_progress(code: str, seconds: float) -> None:
    """In a child process: one line ``heap N order Q seconds S`` per heap settled."""
    started = time.monotonic()
    solver = QuotientSolver.for_code(OctalCode.parse(code))
    try:
        while True:
            solver.extend(solver.upto + 1, deadline=started + seconds)
            print(
                f"{code} heap {solver.upto} order {solver.monoid.size} seconds"
                f" {time.monotonic() - started:.2f}",
                flush=True,
            )
    except TooLargeError:
        pass
    print(f"{code} stopped {time.monotonic() - started:.2f}", flush=True)


def _reached(lines: list[str], seconds: float) -> str:
    """``heap (order)`` of the last heap settled within ``seconds``."""
    best = "none"
    for line in lines:
        words = line.split()
        if len(words) == 7 and words[1] == "heap" and float(words[6]) <= seconds:
            best = f"{words[2]} ({words[4]})"
    return best


def side_by_side(codes: list[str], marks: list[float], msv: str) -> None:
    """The heap each program settles in each of ``marks`` seconds, both running at once
    (one process each; MisereSolver's ``Bench`` driver prints a line per heap)."""
    seconds = max(marks)
    head = " | ".join(f"nimlab {m:g} s | MisereSolver {m:g} s" for m in marks)
    print(f"\n| code | {head} | nimlab stopped at s |")
    print("|---" * (2 * len(marks) + 2) + "|")
    for code in codes:
        # MisereSolver's lines go to a file: a pipe nobody reads would stop it when full
        with tempfile.TemporaryFile("w+") as log:
            java = subprocess.Popen(
                ["java", "-cp", msv, "org.cgsuite.core.misere.solver.Bench", code, str(seconds)],
                stdout=log,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            ours = subprocess.run(
                [sys.executable, __file__, "--progress", code, "--seconds", str(seconds)],
                capture_output=True,
                text=True,
                timeout=seconds * 3 + 60,
                check=False,
            )
            try:
                java.wait(timeout=max(1.0, seconds + 5))
            except subprocess.TimeoutExpired:  # inside a heap at the deadline: lines so far
                java.kill()
                java.wait()
            log.seek(0)
            theirs = log.read().splitlines()
        mine = ours.stdout.splitlines()
        cells = " | ".join(f"{_reached(mine, m)} | {_reached(theirs, m)}" for m in marks)
        stopped = next((ln.split()[2] for ln in mine if " stopped " in ln), "?")
        print(f"| {code} | {cells} | {stopped} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--codes", default="0.77,0.07,4.7")
    parser.add_argument("--upto", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--msv", default=None)
    parser.add_argument("--marks", default="30,60", help="with --msv: seconds to report")
    parser.add_argument("--race-only", action="store_true", help="with --msv: no growth tables")
    parser.add_argument("--progress", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.progress:
        _nimlab_progress(args.progress, args.seconds)
        return
    codes = args.codes.split(",")
    if not args.race_only:
        for code in codes:
            growth(code, args.upto, args.seconds)
    if args.msv:
        side_by_side(codes, [float(m) for m in args.marks.split(",")], args.msv)


if __name__ == "__main__":
    main()

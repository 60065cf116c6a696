"""Misère quotients: time per heap as the quotient grows, against brute-force outcome search,
and (optionally) beside Siegel's MisereSolver built from the CGSuite source.

Run: ``.venv/bin/python benchmarks/bench_misere.py [--codes 0.77,0.07,4.7] [--upto 30]
[--seconds 60] [--msv DIR [--marks 30,60] [--race-only] | --census ...]``.
Part 1, per code: the heap n at which the quotient grew, its order, and the cumulative seconds
to settle heaps 0..n; beside it, at checkpoints, the seconds the brute-force search
(:class:`nimlab.quotients.BruteMisere`, fresh memo) takes for the outcomes of every sum of up to
three heaps of at most n, and the seconds the quotient takes to answer the same sums.
Part 2 (``--msv DIR``, DIR holding the compiled classes of MisereSolver with a stub
``HeapRuleset`` and a ``Bench`` driver printing a line per heap, see BENCHMARKS.md): both
programs run at once on each code (one process each, the time counted from the start of the
solve, numba's loading included for nimlab), and the heap each has settled after each of
``--marks`` seconds is reported. Prints Markdown tables.
Part 3 (``--census --msv DIR [--first 10] [--seconds 60] [--out FILE.json]``, DIR holding
MisereSolver's classes and ``benchmarks/msv/Settle.java`` compiled with CGSuite's
``PeriodicityChecker``): every two-digit code of the census through both programs at once,
``--first`` seconds each, then ``--seconds`` for the codes MisereSolver has not settled (both
again) or nimlab has not (nimlab alone). "Settled" means what MisereSolver's command line
means: a period of Φ found by its periodicity check (``Settle.java``), for nimlab a period
proven by the octal periodicity theorem. Both are compared at the largest heap both reached
(Φ extended by its period beyond a settled run): |Q|, |P| and Φ up to renaming the elements,
and the period when both settle. ``--table FILE.json`` prints the table of a run again.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nimlab.errors import TooLargeError
from nimlab.octal import OctalCode
from nimlab.quotients import BruteMisere, QuotientSolver, misere_quotient, words_upto
from nimlab.quotients.quotient import PeriodWatch


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


# -- the two-digit census beside MisereSolver (--census) -------------------------------------

MSV_CLASS = "org.cgsuite.core.misere.solver.Settle"


def _nimlab_settle(code: str, seconds: float) -> None:
    """In a child process: nimlab as ``misere_quotient`` runs it (a period of Φ looked for
    after every heap), printing the lines of MisereSolver's ``Settle`` driver: ``heap N order Q
    p P phi X seconds S``, ``prefn N: ...`` after a presentation change, and ``settled heap N
    period R preperiod I order Q p P seconds S`` (or ``stopped seconds S: why``)."""
    started = time.monotonic()
    parsed = OctalCode.parse(code)
    solver = QuotientSolver.for_code(parsed)
    watch = PeriodWatch(parsed)  # find_period after every heap, one array step a heap
    while True:
        try:
            solver.extend(solver.upto + 1, deadline=started + seconds)
        except TooLargeError as exc:
            print(f"stopped seconds {time.monotonic() - started:.3f}: {exc}", flush=True)
            return
        phi = solver.phi
        n = len(phi) - 1
        now = time.monotonic() - started
        order, p = solver.monoid.size, solver.p_orders[-1]
        print(f"heap {n} order {order} p {p} phi {phi[n]} seconds {now:.3f}")
        if solver.expansions and solver.expansions[-1] == n:  # elements renumbered
            print(f"prefn {n}: " + " ".join(map(str, phi)))
        found = watch.update(solver)
        if found is not None:
            print(
                f"settled heap {n} period {found.period} preperiod {found.preperiod} order"
                f" {order} p {p} seconds {now:.3f}",
                flush=True,
            )
            return
        sys.stdout.flush()


@dataclass
class Run:
    """One program's run on one code, read off its lines (those within the budget)."""

    seconds: float
    orders: dict[int, int] = field(default_factory=dict)
    p_orders: dict[int, int] = field(default_factory=dict)
    element: dict[int, int] = field(default_factory=dict)
    dumps: dict[int, list[int]] = field(default_factory=lambda: {0: [0]})
    settled: dict[str, int] | None = None
    settled_seconds: float | None = None
    stopped: str = ""

    @property
    def heap(self) -> int:
        """The largest heap settled within the budget."""
        return max(self.orders, default=0)

    def phi(self, h: int) -> list[int]:
        """Φ(0..h) as element numbers of Q_h (periodic beyond the heaps run when settled)."""
        if h <= self.heap:
            base = max(e for e in self.dumps if e <= h)
            return self.dumps[base][: base + 1] + [self.element[n] for n in range(base + 1, h + 1)]
        assert self.settled is not None
        phi = self.phi(self.heap)
        start, period = self.settled["preperiod"], self.settled["period"]
        return phi + [phi[start + (n - start) % period] for n in range(len(phi), h + 1)]

    def order(self, h: int) -> tuple[int, int]:
        """(|Q_h|, |P_h|) (the final quotient's beyond the heaps run when settled)."""
        if h <= self.heap:
            return self.orders.get(h, 1), self.p_orders.get(h, 0)
        assert self.settled is not None
        return self.settled["order"], self.settled["p"]


def _read_run(text: str, seconds: float) -> Run:
    run = Run(seconds)
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "heap" and len(words) == 10 and float(words[9]) <= seconds:
            n = int(words[1])
            run.orders[n], run.p_orders[n], run.element[n] = (
                int(words[3]),
                int(words[5]),
                int(words[7]),
            )
        elif words[0] == "prefn" and int(words[1].rstrip(":")) in run.orders:
            run.dumps[int(words[1].rstrip(":"))] = [int(w) for w in words[2:]]
        elif words[0] == "settled" and float(words[-1]) <= seconds:
            run.settled = {k: int(v) for k, v in zip(words[1:-2:2], words[2:-2:2], strict=True)}
            run.settled_seconds = float(words[-1])
        elif words[0] == "stopped":
            run.stopped = line.split(": ", 1)[-1]
    return run


def _partition(phi: list[int]) -> list[int]:
    """Φ up to renaming the elements: each heap's first heap with the same element."""
    first: dict[int, int] = {}
    return [first.setdefault(x, n) for n, x in enumerate(phi)]


def compare(ours: Run, theirs: Run) -> dict[str, Any]:
    """Both runs at the largest heap both have: (|Q|, |P|) and Φ up to renaming; with both
    settled, the period, and the heap is the larger of the two (Φ periodic beyond)."""
    ends = [r.heap for r in (ours, theirs) if r.settled is None]
    common = min(ends) if ends else max(ours.heap, theirs.heap)
    agree = {
        "heap": common,
        "orders": ours.order(common) == theirs.order(common),
        "phi": _partition(ours.phi(common)) == _partition(theirs.phi(common)),
    }
    if ours.settled is not None and theirs.settled is not None:
        agree["period"] = ours.settled["period"] == theirs.settled["period"]
    return agree


def _pair(code: str, seconds: float, msv: str, *, java: bool = True) -> tuple[Run, Run | None]:
    """nimlab and (``java``) MisereSolver on ``code`` at the same time, ``seconds`` each."""
    with tempfile.TemporaryFile("w+") as log, tempfile.TemporaryFile("w+") as mine:
        theirs = (
            subprocess.Popen(
                ["java", "-Xmx3g", "-cp", msv, MSV_CLASS, code, str(seconds)],
                stdout=log,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            if java
            else None
        )
        ours = subprocess.Popen(
            [sys.executable, __file__, "--settle", code, "--seconds", str(seconds)],
            stdout=mine,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        started = time.monotonic()
        # nimlab stops itself at its deadline (its clock starts after its imports); MisereSolver
        # checks its clock between heaps only, so it is stopped 2 s past its budget
        for process, grace in ((theirs, seconds + 2), (ours, seconds + 60)):
            if process is None:
                continue
            try:
                process.wait(timeout=max(1.0, started + grace - time.monotonic()))
            except subprocess.TimeoutExpired:  # inside a heap past the budget: lines so far
                process.kill()
                process.wait()
        log.seek(0)
        mine.seek(0)
        return _read_run(mine.read(), seconds), (_read_run(log.read(), seconds) if java else None)


def _summary(run: Run) -> dict[str, Any]:
    return {
        "heap": run.heap,
        "order": run.order(run.heap)[0],
        "p_order": run.order(run.heap)[1],
        "settled": run.settled,
        "settled_seconds": run.settled_seconds,
        "budget": run.seconds,
        "stopped": run.stopped,
    }


def census_beside(
    msv: str, first: float, second: float, out: str | None, codes: list[str] | None = None
) -> None:
    """Every two-digit code of the census through both programs at once, ``first`` seconds
    each; the codes MisereSolver has not settled (and those nimlab has not) again with
    ``second`` seconds. Prints a Markdown table; ``out`` gets the data as JSON."""
    from nimlab.reports.misere_census import census_codes

    if codes is None:
        codes = [c for c, _ in census_codes() if len(c) <= 4]
    started = time.monotonic()
    rows: dict[str, dict[str, Any]] = {}
    for code in codes:
        ours, theirs = _pair(code, first, msv)
        assert theirs is not None
        if theirs.settled is None:  # a minute for both
            ours, theirs = _pair(code, second, msv)
            assert theirs is not None
        elif ours.settled is None:  # MisereSolver settled it: a minute for nimlab alone
            ours, _ = _pair(code, second, msv, java=False)
        rows[code] = {
            "code": code,
            "nimlab": _summary(ours),
            "misere_solver": _summary(theirs),
            "agree": compare(ours, theirs),
        }
        print(_census_row(rows[code]), flush=True)
        if out:
            Path(out).write_text(json.dumps(list(rows.values()), indent=1) + "\n")
    print(f"\n{len(rows)} codes in {time.monotonic() - started:.0f} s wall")
    print(summary(list(rows.values())))


def summary(rows: list[dict[str, Any]]) -> str:
    """What the table says: the codes each program settles, and the disagreements."""
    theirs = [r for r in rows if r["misere_solver"]["settled"]]
    both = [r for r in theirs if r["nimlab"]["settled"]]
    ours_only = [r["code"] for r in rows if r["nimlab"]["settled"] and r not in theirs]
    open_ = [r for r in rows if not r["misere_solver"]["settled"]]
    ahead = sum(r["nimlab"]["heap"] > r["misere_solver"]["heap"] for r in open_)
    level = sum(r["nimlab"]["heap"] == r["misere_solver"]["heap"] for r in open_)
    wrong = [r["code"] for r in rows if not all(v for k, v in r["agree"].items() if k != "heap")]
    return (
        f"MisereSolver settles {len(theirs)} codes, nimlab {len(both)} of them"
        f" (missing: {', '.join(r['code'] for r in theirs if r not in both) or 'none'}); nimlab"
        f" alone settles {', '.join(ours_only) or 'none'}. Of the {len(open_)} MisereSolver"
        f" leaves open nimlab is ahead on {ahead}, level on {level}, behind on"
        f" {len(open_) - ahead - level}. Disagreements: {', '.join(wrong) or 'none'}."
    )


def _cell(run: dict[str, Any]) -> str:
    if run["settled"]:
        s = run["settled"]
        return (
            f"{s['order']} / {s['p']}, period {s['period']} ({s['preperiod']}) at heap"
            f" {s['heap']}, {run['settled_seconds']:.1f} s"
        )
    return f"heap {run['heap']}: {run['order']} / {run['p_order']} in {run['budget']:g} s"


def _census_row(row: dict[str, Any]) -> str:
    agree = row["agree"]
    verdict = "yes" if all(v for k, v in agree.items() if k != "heap") else "**NO** " + str(agree)
    cells = [row["code"], _cell(row["misere_solver"]), _cell(row["nimlab"]), str(agree["heap"])]
    return "| " + " | ".join([*cells, verdict]) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--codes", default=None, help="default 0.77,0.07,4.7 (--census: all)")
    parser.add_argument("--upto", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--msv", default=None)
    parser.add_argument("--marks", default="30,60", help="with --msv: seconds to report")
    parser.add_argument("--race-only", action="store_true", help="with --msv: no growth tables")
    parser.add_argument("--census", action="store_true", help="with --msv: the two-digit census")
    parser.add_argument("--first", type=float, default=10.0, help="with --census: first pass s")
    parser.add_argument("--out", default=None, help="with --census: the JSON data file")
    parser.add_argument("--table", default=None, help="print the table of a --census JSON file")
    parser.add_argument("--progress", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--settle", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.progress:
        _nimlab_progress(args.progress, args.seconds)
        return
    if args.settle:
        _nimlab_settle(args.settle, args.seconds)
        return
    if args.table:
        rows = json.loads(Path(args.table).read_text())
        print("| code | MisereSolver | nimlab | compared at heap | agree |\n|---|---|---|---|---|")
        print("\n".join(_census_row(r) for r in rows) + "\n\n" + summary(rows))
        return
    if args.census:
        print("| code | MisereSolver | nimlab | compared at heap | agree |\n|---|---|---|---|---|")
        codes = args.codes.split(",") if args.codes else None
        census_beside(args.msv, args.first, args.seconds, args.out, codes)
        return
    codes = (args.codes or "0.77,0.07,4.7").split(",")
    if not args.race_only:
        for code in codes:
            growth(code, args.upto, args.seconds)
    if args.msv:
        side_by_side(codes, [float(m) for m in args.marks.split(",")], args.msv)


if __name__ == "__main__":
    main()

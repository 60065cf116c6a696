"""The calibration of ``solve``'s budget: measured runs beside what the estimate predicts.

Run: ``.venv/bin/python benchmarks/calibrate_solve_budget.py`` prints, for every measured run
in ``benchmarks/data/solve_costs.txt`` (variant, heaps, method, wall seconds, peak MB), the
estimate of :func:`nimlab.extensive.budget.estimate_solve` and how long estimating took, as a
Markdown table. ``--measure VARIANT HEAPS METHOD [--timeout S]`` runs one solve in a child
process and prints a new data line (wall seconds of the solve, peak resident MB of the child):
append it to the data file, refit the constants (``FITS`` in ``extensive/budget.py``), and
rerun the table.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).parent / "data" / "solve_costs.txt"

CHILD = """
import json, sys, time
from nimlab.extensive.solve import solve
variant, heaps, method = sys.argv[1], tuple(map(int, sys.argv[2].split(","))), sys.argv[3]
start = time.perf_counter()
result = solve(variant, heaps, method=method, budget=None, max_nodes=10**9)
print(json.dumps({"seconds": time.perf_counter() - start, "value": str(result.value)}))
"""


def table() -> None:
    from nimlab.extensive.budget import estimate_solve

    print("| game | method | measured s | measured MB | estimated s | estimated MB | took s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        variant, heaps, method, seconds, megabytes = line.split()
        start = time.perf_counter()
        estimate = estimate_solve(variant, tuple(map(int, heaps.split(","))), method=method)
        took = time.perf_counter() - start
        print(
            f"| {variant}({heaps}) | {method} | {float(seconds):.1f} | {float(megabytes):.0f} "
            f"| {estimate.cost.seconds:.1f} | {estimate.cost.bytes / 1e6:.0f} | {took:.2f} |"
        )


def measure(variant: str, heaps: str, method: str, timeout: float) -> None:
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, variant, heaps, method],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )
        seconds = json.loads(done.stdout)["seconds"]
    except subprocess.TimeoutExpired:
        seconds = timeout  # a lower bound: say so in the data file
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{variant} {heaps} {method} {seconds:.1f} {peak_mb:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measure", nargs=3, metavar=("VARIANT", "HEAPS", "METHOD"))
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args()
    if args.measure:
        measure(*args.measure, timeout=args.timeout)
    else:
        table()


if __name__ == "__main__":
    main()

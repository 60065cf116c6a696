"""The calibration of ``solve``'s budget: measured runs beside what the estimate predicts.

Run: ``.venv/bin/python benchmarks/calibrate_solve_budget.py`` prints, for every measured run
in ``benchmarks/data/solve_costs.txt`` (variant, heaps, method, wall seconds, peak MB), the
estimate of :func:`nimlab.hidden.budget.estimate_solve` and how long estimating took, as a
Markdown table. ``--measure VARIANT HEAPS METHOD [--timeout S]`` runs one solve in a child
process and prints a new data line (wall seconds of the solve, peak resident MB of the child):
append it to the data file, refit the constants with ``--fit`` (it prints ``FITS`` for
``equilibrium/cost.py``), and rerun the table.

The fit: per method, one exponent over every family (``log seconds = log a_family + b log
nodes``, least squares over the runs, seconds net of the belief work ``WORK_SECONDS * work``),
so that a family with one or two runs still gets a slope (restricted games, whose rounds make
the cost erratic, get a line per family); every family's line is then raised to the envelope
of its runs: no measured run costs more than its estimate; bytes likewise, net of
``BASE_BYTES`` and the belief work's bytes, except that the whole LP's bytes keep slope 1 (its
memory is its tree's, proportional to the nodes; a free slope, 0.9, let SN(9,9,1)'s 35 GB pass
as 6 GB).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

DATA = Path(__file__).parent / "data" / "solve_costs.txt"

CHILD = """
import json, sys, time
from nimlab.hidden.solve import solve
variant, heaps, method = sys.argv[1], tuple(map(int, sys.argv[2].split(","))), sys.argv[3]
start = time.perf_counter()
result = solve(variant, heaps, method=method, budget=None, max_nodes=10**9)
print(json.dumps({"seconds": time.perf_counter() - start, "value": str(result.value)}))
"""


def table() -> None:
    from nimlab.hidden.budget import estimate_solve

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


Parts = tuple[tuple[int, float], ...]
Run = tuple[str, str, tuple[int, ...], float, float, int, float, Parts]


def _runs() -> list[Run]:
    """(family, method, heaps, seconds, bytes, estimated nodes, belief work, and per part its
    estimated nodes and belief work) per measured run."""
    from nimlab.hidden.budget import estimate_solve

    runs = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        variant, heaps, method, seconds, megabytes = line.split()
        position = tuple(map(int, heaps.split(",")))
        estimate = estimate_solve(variant, position, method=method)
        work = sum(part.work for part in estimate.parts)
        family = "kn" if variant.startswith("kn") else variant
        parts = tuple((part.nodes, part.work) for part in estimate.parts)
        measured = (float(seconds), float(megabytes) * 1e6)
        runs.append((family, method, position, *measured, estimate.nodes, work, parts))
    return runs


def _fit_column(
    fits: dict[tuple[str, str], list[float]],
    method: str,
    families: list[str],
    column: int,
    net: Callable[[Run], float],
    chosen: list[Run],
) -> None:
    """Fit column 0 (seconds) or 1 (bytes) of ``FITS`` for ``families`` (one slope, an
    intercept each) on their runs by ``method``."""
    import numpy as np

    # the whole LP's memory is its tree's: proportional to the nodes (slope 1)
    fixed = column == 1 and method == "lp"
    rows, target = [], []
    for run in chosen:
        value = net(run)
        if value <= 0 or run[0] not in families:
            continue
        rows.append([run[0] == f for f in families] + ([] if fixed else [np.log(run[5])]))
        target.append(np.log(value) - (np.log(run[5]) if fixed else 0.0))
    design, goal = np.array(rows, float), np.array(target)
    solution = np.linalg.lstsq(design, goal, rcond=None)[0]
    if fixed:
        solution = np.append(solution, 1.0)
    # a budget must not let a run through that it would refuse had it known: raise each
    # family's line to the envelope of its runs, so that no measured run costs more than its
    # estimate as the estimate computes it (the node estimates run low by up to 10x in sn, and
    # restricted games' rounds make their cost erratic)
    for family in families:
        entry = fits.setdefault((family, method), [0.0, 0.0, 0.0, 0.0])
        entry[2 * column] = _envelope(column, float(solution[-1]), chosen, family)
        entry[2 * column + 1] = float(solution[-1])


def _envelope(column: int, slope: float, chosen: list[Run], family: str) -> float:
    """The least factor ``a`` (seconds) or ``c`` (bytes) with which no run of ``family``
    costs more than :func:`nimlab.hidden.budget.estimate_solve` says: the parts' seconds
    add up (``a n**b`` and the belief work each), the peak bytes are the largest part's."""
    from nimlab.equilibrium.cost import BASE_BYTES, WORK_BYTES, WORK_SECONDS

    needed = 0.0
    for run in chosen:
        if run[0] != family:
            continue
        parts = run[7]
        if column == 0:
            spent = run[3] - WORK_SECONDS * sum(work for _, work in parts)
            needed = max(needed, spent / sum(nodes**slope for nodes, _ in parts))
        else:  # one part reaching the peak is enough
            reach = (
                (run[4] - BASE_BYTES - WORK_BYTES * work) / nodes**slope for nodes, work in parts
            )
            needed = max(needed, min(reach))
    return needed * 1.001  # so that FITS's four printed digits never round it below a run


def _floored(run: Run) -> bool:
    """Whether the run is at or past its family's first anchor in ``BEYOND``, whose floor then
    covers it: such runs are left out of the fitted lines, so that a few large runs, whose
    node estimates run low, do not raise the line of every smaller game (SN(11,10,1) had
    put SN(10,10,1) at 424 s against 19.7 s measured)."""
    from nimlab.hidden.budget import BEYOND, _log2_bound, floor_position
    from nimlab.hidden.variants import variant_rules

    family, method, heaps = run[0], run[1], run[2]
    if method != "restricted" or family not in BEYOND:
        return False
    rules = variant_rules(family)
    first = BEYOND[family][0][0]
    return _log2_bound(rules, floor_position(heaps), True) >= _log2_bound(rules, first, True)


def fit() -> None:
    """Print ``FITS`` fitted to the measured runs (see the module docstring)."""

    from nimlab.equilibrium.cost import BASE_BYTES, WORK_BYTES, WORK_SECONDS

    runs = [run for run in _runs() if not _floored(run)]
    fits: dict[tuple[str, str], list[float]] = {}
    for method in sorted({run[1] for run in runs}):
        chosen = [run for run in runs if run[1] == method]
        # restricted games: a line per family (each has several runs); the whole LP: one slope
        groups = [[f] for f in sorted({r[0] for r in chosen})]
        for families in groups if method == "restricted" else [[f for g in groups for f in g]]:
            for column, net in enumerate(
                (
                    lambda r: r[3] - WORK_SECONDS * r[6],
                    lambda r: r[4] - BASE_BYTES - WORK_BYTES * r[6],
                )
            ):
                _fit_column(fits, method, families, column, net, chosen)
    print("FITS: dict[tuple[str, str], tuple[float, float, float, float]] = {")
    for key, (a, b, c, d) in sorted(fits.items()):
        print(f"    {key!r}: ({a:.4g}, {b:.4f}, {c:.4g}, {d:.4f}),")  # exponents: 4 decimals
    print("}")


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
    parser.add_argument("--fit", action="store_true", help="print FITS fitted to the data")
    args = parser.parse_args()
    if args.fit:
        fit()
    elif args.measure:
        measure(*args.measure, timeout=args.timeout)
    else:
        table()


if __name__ == "__main__":
    main()

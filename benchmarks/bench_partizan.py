"""Domineering values: nimlab's regions and hash-consed canonical forms beside pycgt 0.2.0.

Run: ``.venv/bin/python benchmarks/bench_partizan.py [--repeat 3] [--pycgt-cap 300]
[--boards 2x2,3x3,...]``.
Each (library, board) is computed in a fresh subprocess (cold caches, as a user's first call),
``--repeat`` times; the table gives the median wall time of the computation alone (imports
excluded), the median of the whole ``nimlab analyze domineering`` command (start-up
included), the peak memory (max RSS) and the ratio. pycgt runs only on the boards listed in
``PYCGT_BOARDS`` (its 4x5 takes about 1,100 s) and is killed after ``--pycgt-cap`` seconds.
Both values are checked to be equal. Also: a sum of 20 hot and infinitesimal components.
Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

BOARDS = ["2x2", "2x3", "3x3", "3x4", "4x4", "3x6", "4x5", "5x5"]
PYCGT_BOARDS = {"2x2", "2x3", "3x3", "3x4", "4x4", "3x6"}

OURS = """
import json, resource, sys, time
rows, cols = map(int, sys.argv[1].split("x"))
from nimlab.cgt import domineering
from nimlab.cgt.rulesets.domineering import region_count
start = time.perf_counter()
g = domineering("/".join(["." * cols] * rows))
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"seconds": seconds, "peak": peak, "value": str(g), "regions": region_count()}))
"""

THEIRS = """
import json, resource, sys, time
rows, cols = map(int, sys.argv[1].split("x"))
from pycgt.rulesets import domineering
from nimlab.cgt import game
start = time.perf_counter()
g = domineering.rectangle(rows, cols)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
memo = {}
def convert(x):
    if x not in memo:
        memo[x] = game([convert(o) for o in x.left], [convert(o) for o in x.right])
    return memo[x]
print(json.dumps({"seconds": seconds, "peak": peak, "value": str(convert(g))}))
"""

SUM = """
import json, time
from nimlab.cgt import parse_game, ZERO
parts = [parse_game(t) for t in ("{2|-1/2}", "^*", "±1", "{0||0|-2}", "3/4")] * 4
start = time.perf_counter()
total = ZERO
for g in parts:
    total = total + g
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "value": str(total), "mean": str(total.mean)}))
"""


def _run(script: str, board: str, cap: float) -> dict[str, object] | None:
    try:
        done = subprocess.run(
            [sys.executable, "-c", script, board],
            capture_output=True,
            text=True,
            timeout=cap,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return None
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _cli(board: str) -> float:
    rows, cols = map(int, board.split("x"))
    script = Path(sys.executable).with_name("nimlab")
    start = time.perf_counter()
    subprocess.run(
        [str(script), "analyze", "domineering", "/".join(["." * cols] * rows), "--json"],
        capture_output=True,
        check=True,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pycgt-cap", type=float, default=300.0)
    parser.add_argument("--boards", default=",".join(BOARDS))
    args = parser.parse_args()
    print(
        "| board | value | nimlab (s) | nimlab CLI (s) | nimlab peak (MB) | regions |"
        " pycgt (s) | pycgt peak (MB) | ratio |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for board in args.boards.split(","):
        ours = [_run(OURS, board, 3600) for _ in range(args.repeat)]
        ok = [r for r in ours if r is not None]
        ours_s = statistics.median(float(r["seconds"]) for r in ok)  # type: ignore[arg-type]
        ours_peak = max(int(r["peak"]) for r in ok) / 1e6  # type: ignore[call-overload]
        cli_s = statistics.median(_cli(board) for _ in range(args.repeat))
        theirs_cell, peak_cell, ratio = "not run", "", ""
        if board in PYCGT_BOARDS:
            theirs = [_run(THEIRS, board, args.pycgt_cap) for _ in range(args.repeat)]
            done = [r for r in theirs if r is not None]
            if done:
                for r in done:
                    assert r["value"] == ok[0]["value"], (board, r["value"], ok[0]["value"])
                t = statistics.median(float(r["seconds"]) for r in done)  # type: ignore[arg-type]
                theirs_cell = f"{t:.3f}"
                peak_cell = f"{max(int(r['peak']) for r in done) / 1e6:.0f}"  # type: ignore[call-overload]
                ratio = f"{t / ours_s:.0f}x"
            else:
                theirs_cell = f"> {args.pycgt_cap:.0f}"
        value = str(ok[0]["value"])
        shown = value if len(value) <= 24 else value[:21] + "..."
        print(
            f"| {board} | `{shown}` | {ours_s:.3f} | {cli_s:.2f} | {ours_peak:.0f} |"
            f" {ok[0]['regions']} | {theirs_cell} | {peak_cell} | {ratio} |",
            flush=True,
        )
    sums = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", SUM], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(args.repeat)
    ]
    median = statistics.median(s["seconds"] for s in sums)
    print(
        f"\nA sum of 20 components (4 x {{2|-1/2}}, ^*, ±1, {{0||0|-2}}, 3/4): {median:.3f} s,"
        f" mean {sums[0]['mean']}"
    )


if __name__ == "__main__":
    main()

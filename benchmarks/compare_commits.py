"""Two commits side by side on the same games: wall time and peak memory of ``solve``.

Run: ``.venv/bin/python benchmarks/compare_commits.py OLD NEW [--games sn:8,8,1 ...]
[--repeats 3]``; a game ``openspiel:GAME_STRING`` (e.g. ``openspiel:leduc_poker``) is walked
from OpenSpiel and solved exactly (``solve_efg``; the walk is not timed;
``openspiel+walk:GAME_STRING`` times the walk too); a game
``estimate:VARIANT:HEAPS`` (e.g. ``estimate:kn:2,1,0,2,2,3``) times ``estimate_solve`` instead
(processor time of the thread, after one warm-up estimate; its value is the estimated nodes,
which may differ between the commits). Each commit is
checked out into a temporary git worktree; every run is a fresh process importing that
worktree's ``src`` (``PYTHONPATH``), so the two are measured with the same interpreter and
libraries, alternately (old, new, old, new, ...) so that a busy machine
slows both alike. Prints a Markdown table: median seconds and peak MB per commit, and the
ratio new/old. Used for issue 12 ("the generic path must not cost Nim").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["sn:7,7,1", "sn:8,8,1", "kn:3,3,2"]

CHILD = """
import json, resource, sys, time
if sys.argv[1] == "estimate":
    from nimlab.hidden.budget import estimate_solve
    variant, heaps = sys.argv[2].split(":")
    estimate_solve("sn", (2, 1))
    start = time.thread_time()
    estimate = estimate_solve(variant, tuple(map(int, heaps.split(","))))
    seconds = time.thread_time() - start
    print(json.dumps({"seconds": seconds, "peak": 0, "value": f"{estimate.nodes:,} nodes"}))
    sys.exit()
if sys.argv[1] in ("openspiel", "openspiel+walk"):
    from nimlab.equilibrium.efg_solve import solve_efg
    from nimlab.openspiel import load, walk
    game = load(sys.argv[2])
    start = time.perf_counter()
    tree = walk(game)
    if sys.argv[1] == "openspiel":
        start = time.perf_counter()
    result = solve_efg(tree)
else:
    from nimlab.hidden.solve import solve
    variant, heaps = sys.argv[1], tuple(map(int, sys.argv[2].split(",")))
    start = time.perf_counter()
    try:
        result = solve(variant, heaps, budget=None)
    except TypeError:  # a commit before budgets
        result = solve(variant, heaps)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "peak": peak, "value": str(result.value)}))
"""


def _run(src: Path, game: str) -> dict[str, float | str]:
    variant, heaps = game.split(":", 1)
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, variant, heaps],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout
    # the last line: an old commit may let HiGHS print its banner on stdout first
    result: dict[str, float | str] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--games", nargs="+", default=GAMES)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        trees = {}
        for name, commit in (("old", args.old), ("new", args.new)):
            path = Path(scratch) / name
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(path), commit],
                check=True,
            )
            trees[name] = path / "src"
        try:
            print(f"| game | {args.old} s | {args.old} MB | {args.new} s | {args.new} MB | ratio |")
            print("| --- | --- | --- | --- | --- | --- |")
            for game in args.games:
                runs: dict[str, list[dict[str, float | str]]] = {"old": [], "new": []}
                for _ in range(args.repeats):
                    for name in ("old", "new"):
                        runs[name].append(_run(trees[name], game))
                values = {str(r["value"]) for rs in runs.values() for r in rs}
                if game.startswith("estimate:") and len(values) > 1:
                    values = {" -> ".join(str(runs[n][0]["value"]) for n in ("old", "new"))}
                assert len(values) == 1, f"{game}: the commits disagree: {values}"
                median = {
                    n: statistics.median(float(r["seconds"]) for r in rs) for n, rs in runs.items()
                }
                peak = {n: max(float(r["peak"]) for r in rs) for n, rs in runs.items()}
                ratio = median["new"] / median["old"]
                print(
                    f"| {game} = {values.pop()} | {median['old']:.2f} | {peak['old']:.0f} "
                    f"| {median['new']:.2f} | {peak['new']:.0f} | {ratio:.2f} |"
                )
        finally:
            for path in trees.values():
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path.parent)],
                    check=False,
                )
    load = os.getloadavg()[0]
    print(f"\n(load average {load:.1f} at the end)")


if __name__ == "__main__":
    main()

"""Imperfect-information Nim: nimlab's certified solver against Gambit's LP, and our reach.

Run: ``.venv/bin/python benchmarks/bench_extensive.py [--gambit-cap S] [--reach N]
[--games 8,6,1 ...] [--methods auto,lp,restricted]``.
Part 1 writes each game with ``nimlab export-efg`` (the full, unpruned tree) and times
pygambit's ``lp_solve(rational=False)`` on it in a subprocess (killed after the cap), beside
nimlab's exact, certified solve of the same game (unpruned and with our lossless reductions).
Part 2 solves SN(n1, n2, 1) for 4 <= n2 <= n1 <= N, one subprocess per game to measure its
peak memory, by each method asked for (the whole LP ``lp`` is the baseline of the
restricted games ``restricted``; ``auto`` picks per part). Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = [
    ("sn", (2, 2, 1)),
    ("sn", (3, 2, 1)),
    ("kn", (2, 2)),
    ("fsn", (3, 2, 1)),
    ("sn", (3, 3, 1)),
]

GAMBIT = """
import sys, time
import pygambit as gbt
game = gbt.read_efg(sys.argv[1])
start = time.perf_counter()
result = gbt.nash.lp_solve(game, rational=False)
seconds = time.perf_counter() - start
first = next(iter(game.players))
print(seconds, float(result.equilibria[0].payoff(first)))
"""

OURS = """
import json, resource, sys
from nimlab.hidden.solve import solve
variant, heaps, prune = sys.argv[1], tuple(map(int, sys.argv[2].split(","))), sys.argv[3] == "1"
method = sys.argv[4]
solve("sn", (2, 1))  # warm up: imports of scipy and highspy are not the game's cost
rounds = []
r = solve(
    variant, heaps, prune_forced=prune, decompose=prune, method=method, max_nodes=10**9,
    budget=None, progress=lambda part, step: rounds.append(step.index),
)
out = r.to_json()
out["rounds"] = len(rounds)
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def ours(
    variant: str, heaps: tuple[int, ...], prune: bool = True, method: str = "auto"
) -> dict[str, object]:
    """Solve in a fresh interpreter; returns the JSON record plus peak memory (MB).

    ``prune=False`` solves the full tree, exactly the game written to the ``.efg``;
    ``prune=True`` uses every lossless reduction (forced-play cuts, decomposition).
    """
    position = ",".join(map(str, heaps))
    args = [sys.executable, "-c", OURS, variant, position, "1" if prune else "0", method]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def gambit(path: Path, cap: float) -> tuple[float | None, float | None]:
    """pygambit's float LP on our .efg: (seconds, value), or (None, None) past the cap."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", GAMBIT, str(path)],
            capture_output=True,
            text=True,
            timeout=cap,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return None, None
    seconds, value = done.stdout.split()
    return float(seconds), float(value)


def part_gambit(cap: float) -> None:
    try:
        import pygambit  # noqa: F401
    except ImportError:
        print("pygambit is not installed: skipping the Gambit comparison\n")
        return
    from nimlab.hidden.efg import write_efg

    print(f"## nimlab vs Gambit (pygambit lp_solve, float; cap {cap:.0f} s)\n")
    print(
        "| game | nodes (full tree) | Gambit s | Gambit value | nimlab s (full tree) "
        "| nimlab s (reduced) | nimlab value (certified) | speed-up (full) | speed-up (reduced) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for variant, heaps in GAMES:
            path = Path(tmp) / "game.efg"
            tree = write_efg(variant, heaps, path, max_nodes=10**6)
            g_seconds, g_value = gambit(path, cap)
            full = ours(variant, heaps, prune=False)
            reduced = ours(variant, heaps)
            f_s, r_s = float(full["seconds"]), float(reduced["seconds"])  # type: ignore[arg-type]
            assert full["value"] == reduced["value"] and full["exact"] and reduced["exact"]
            if g_seconds is None:
                g_text, v_text = f"> {cap:.0f}", "(killed)"
                ratio_f, ratio_r = f"> {cap / f_s:,.0f}x", f"> {cap / r_s:,.0f}x"
            else:
                g_text, v_text = f"{g_seconds:.2f}", f"{g_value:.6f}"
                ratio_f, ratio_r = f"{g_seconds / f_s:,.0f}x", f"{g_seconds / r_s:,.0f}x"
            name = f"{variant}({','.join(map(str, heaps))})"
            print(
                f"| {name} | {tree.nodes:,} | {g_text} | {v_text} | {f_s:.3f} | {r_s:.3f} | "
                f"{reduced['value']} | {ratio_f} | {ratio_r} |"
            )
    print()


def part_reach(title: str, games: list[tuple[int, ...]], methods: list[str]) -> None:
    """Solve each SN game in its own process per method; one Markdown row per solve."""
    print(f"## {title} (exact, certified)\n")
    print(
        "| game | method | value | exact | nodes | infosets | rounds | build s | LP s "
        "| certify s | total s | peak MB |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    start = time.perf_counter()
    for heaps in games:
        for method in methods:
            r = ours("sn", heaps, method=method)
            t = r["timings"]
            assert isinstance(t, dict)
            print(
                f"| SN({','.join(map(str, heaps))}) | {method} | {r['value']} | {r['exact']} | "
                f"{r['nodes']:,} | {r['infosets']:,} | {r['rounds']} | {t['build']:.1f} | "
                f"{t['lp']:.1f} | "
                f"{t['certify']:.1f} | {t['total']:.1f} | {r['peak_mb']:.0f} |",
                flush=True,
            )
    print(f"\nall: {time.perf_counter() - start:.0f} s wall clock\n")


def main() -> None:
    """Run both parts (``--reach 0`` skips the grid, ``--gambit-cap 0`` skips Gambit)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--gambit-cap", type=float, default=120.0, help="seconds per Gambit run")
    parser.add_argument("--reach", type=int, default=6, help="largest n1 of the SN grid")
    parser.add_argument(
        "--games", nargs="*", default=[], help="further SN positions to solve, e.g. 8,6,1"
    )
    parser.add_argument("--methods", default="auto", help="comma-separated: auto, lp, restricted")
    options = parser.parse_args()
    methods = options.methods.split(",")
    if options.gambit_cap > 0:
        part_gambit(options.gambit_cap)
    if options.reach >= 4:
        grid = [(n1, n2, 1) for n1 in range(4, options.reach + 1) for n2 in range(4, n1 + 1)]
        part_reach(f"Reach: SN(n1, n2, 1), 4 <= n2 <= n1 <= {options.reach}", grid, methods)
    if options.games:
        extra = [tuple(int(h) for h in game.split(",")) for game in options.games]
        part_reach("Further games", extra, methods)


if __name__ == "__main__":
    main()

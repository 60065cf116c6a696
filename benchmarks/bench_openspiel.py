"""OpenSpiel games: nimlab's exact, certified solve against OpenSpiel's own solvers.

Run: ``.venv/bin/python benchmarks/bench_openspiel.py [--cfr-cap S] [--lp-cap S]
[--lp-memory GB] [--gambit-cap S] [--games kuhn,leduc,...]`` (needs the extra ``openspiel``,
and ``cvxopt`` for OpenSpiel's LP).

For each game, in one subprocess per method (so that its peak memory is its own):

* ``nimlab``: walk OpenSpiel's states into the sequence form, solve and certify exactly
  (:mod:`nimlab.openspiel.walk`, :func:`nimlab.equilibrium.efg_solve.solve_efg`);
* ``sequence_form_lp``: OpenSpiel's ``sequence_form_lp.solve_zero_sum_game`` (cvxopt, dense
  matrices), skipped when its payoff matrix alone (8 bytes per pair of sequences) would pass
  ``--lp-memory`` GB, killed after ``--lp-cap`` seconds;
* ``Gambit``: pygambit's ``nash.lcp_solve(rational=True)`` and ``nash.lp_solve`` (floats) on
  the game written by OpenSpiel's ``gambit.export_gambit`` (its chance probabilities, printed
  as decimals that Gambit refuses for not summing to exactly one, read back as the nearest
  fractions with denominators up to 10^6), killed after ``--gambit-cap`` seconds;
* ``CFR+``: ``pyspiel.CFRPlusSolver`` until OpenSpiel's exploitability of the average policy
  is below 1e-6 (checked after 1, 2, 4, ... iterations and then every 64), stopped after
  ``--cfr-cap`` seconds. nimlab's own games are Python games: OpenSpiel runs them under
  ``cached_tree`` (its tree cached in C++), else each iteration calls Python at every node.

Prints one Markdown table: seconds, peak memory (MB, the whole process), the value found.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any

GAMES = {
    "kuhn": "kuhn_poker",
    "leduc": "leduc_poker",
    "liars_dice": "liars_dice(numdice=1,dice_sides=4)",
    "sn331": "nimlab:sn:3;3;1",
    "sn431": "nimlab:sn:4;3;1",
    "sn441": "nimlab:sn:4;4;1",
    "sn551": "nimlab:sn:5;5;1",
}


def _game_string(name: str) -> str:
    if not name.startswith("nimlab:"):
        return name
    from nimlab.openspiel import game_string

    _, variant, heaps = name.split(":")
    return game_string(variant, tuple(int(h) for h in heaps.split(";")))


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_nimlab(name: str) -> dict[str, Any]:
    from nimlab.equilibrium.efg_solve import solve_efg
    from nimlab.openspiel import load, walk

    start = time.perf_counter()
    tree = walk(load(_game_string(name)))
    walked = time.perf_counter() - start
    result = solve_efg(tree)
    return {
        "seconds": time.perf_counter() - start,
        "walk": walked,
        "value": str(result.value),
        "float": float(result.value),
        "exact": result.exact,
        "nodes": result.nodes,
        "infosets": result.infosets,
        "sequences": [len(s) for s in tree.sequences],
    }


def run_lp(name: str) -> dict[str, Any]:
    import pyspiel
    from open_spiel.python.algorithms import sequence_form_lp

    game = pyspiel.load_game(_game_string(name))
    start = time.perf_counter()
    value = sequence_form_lp.solve_zero_sum_game(game)[0]
    return {"seconds": time.perf_counter() - start, "float": float(value)}


def run_gambit(name: str, solver: str) -> dict[str, Any]:
    import io
    import re
    from fractions import Fraction

    import pygambit
    import pyspiel
    from open_spiel.python.algorithms import gambit

    text = gambit.export_gambit(pyspiel.load_game(_game_string(name)))

    def exact(match: re.Match[str]) -> str:
        return str(Fraction(match.group(0)).limit_denominator(10**6))

    lines = [
        re.sub(r"\d+\.\d+", exact, line) if line.lstrip().startswith("c ") else line
        for line in text.splitlines()
    ]
    game = pygambit.read_efg(io.StringIO("\n".join(lines) + "\n"))
    start = time.perf_counter()
    if solver == "gambit-lcp":
        found = pygambit.nash.lcp_solve(game, rational=True)
    else:
        found = pygambit.nash.lp_solve(game, rational=False)
    value = found.equilibria[0].payoff(next(iter(game.players)))
    return {"seconds": time.perf_counter() - start, "value": str(value), "float": float(value)}


def run_cfr(name: str, cap: float) -> dict[str, Any]:
    import pyspiel

    text = _game_string(name)
    if name.startswith("nimlab:"):
        text = f"cached_tree(game={text})"
    game = pyspiel.load_game(text)
    start = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(game)
    iterations, gap = 0, float("inf")
    while time.perf_counter() - start < cap:
        solver.evaluate_and_update_policy()
        iterations += 1
        if iterations & (iterations - 1) == 0 or iterations % 64 == 0:
            gap = pyspiel.exploitability(game, solver.average_policy())
            if gap < 1e-6:
                break
    average = solver.average_policy()
    value = pyspiel.expected_returns(game.new_initial_state(), average, -1, True)[0]
    return {
        "seconds": time.perf_counter() - start,
        "iterations": iterations,
        "exploitability": gap,
        "float": float(value),
        "reached": gap < 1e-6,
    }


def child(method: str, name: str, cap: float) -> None:
    """One measurement, printed as JSON (run in its own process)."""
    if method == "nimlab":
        out = run_nimlab(name)
    elif method == "lp":
        out = run_lp(name)
    elif method.startswith("gambit"):
        out = run_gambit(name, method)
    else:
        out = run_cfr(name, cap)
    out["peak_mb"] = _peak_mb()
    print(json.dumps(out))


def measure(method: str, name: str, cap: float, timeout: float) -> dict[str, Any] | None:
    command = [sys.executable, __file__, "--child", method, name, str(cap)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode == -9:
        return {"error": "killed by the kernel (out of memory)"}
    if done.returncode:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr else "failed"}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _gambit_cell(found: dict[str, Any] | None, cap: float) -> str:
    """Seconds, memory and value of a Gambit solver, or why there are none."""
    if found is None:
        return f"killed after {cap:.0f} s"
    if "error" in found:
        return f"failed: {found['error'][:60]}"
    value = found["value"] if len(found["value"]) < 16 else f"{found['float']:.9f}"
    return f"{found['seconds']:.2f} s, {found['peak_mb']:.0f} MB: {value}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cfr-cap", type=float, default=60.0)
    parser.add_argument("--lp-cap", type=float, default=300.0)
    parser.add_argument("--lp-memory", type=float, default=4.0)
    parser.add_argument("--gambit-cap", type=float, default=120.0)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], float(args.child[2]))
        return
    print(
        "| game | nodes | infosets | nimlab exact (s, MB) | value | OpenSpiel LP (s, MB) "
        "| LP value | Gambit LCP, rational (s, MB) | Gambit LP (s, MB) | CFR+ to 1e-6 (s, MB) "
        "| CFR+ |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for key in args.games.split(","):
        name = GAMES[key]
        exact = measure("nimlab", name, 0, 3600)
        assert exact is not None and "error" not in exact, exact
        s0, s1 = exact["sequences"]
        dense = 8 * s0 * s1 / 1e9
        if dense > args.lp_memory:
            lp_cell, lp_value = f"skipped: payoff matrix alone {dense:.0f} GB", ""
        else:
            lp = measure("lp", name, 0, args.lp_cap)
            if lp is None:
                lp_cell, lp_value = f"killed after {args.lp_cap:.0f} s", ""
            elif "error" in lp:
                lp_cell, lp_value = f"failed: {lp['error'][:60]}", ""
            else:
                lp_cell = f"{lp['seconds']:.2f} s, {lp['peak_mb']:.0f} MB"
                lp_value = f"{lp['float']:.9f}"
        gambit_cells = [
            _gambit_cell(measure(solver, name, 0, args.gambit_cap), args.gambit_cap)
            for solver in ("gambit-lcp", "gambit-lp")
        ]
        cfr = measure("cfr", name, args.cfr_cap, args.cfr_cap + 600)
        if cfr is None or "error" in cfr:
            cfr_cell, cfr_note = "failed", str(cfr)
        else:
            how = "" if cfr["reached"] else "not reached: "
            cfr_cell = f"{how}{cfr['seconds']:.2f} s, {cfr['peak_mb']:.0f} MB"
            cfr_note = (
                f"{cfr['iterations']} it., exploitability {cfr['exploitability']:.1e}, "
                f"value {cfr['float']:.9f}"
            )
        value = exact["value"] if len(exact["value"]) < 24 else f"{exact['float']:.12f}…"
        certified = "" if exact["exact"] else " (NOT certified)"
        print(
            f"| `{_game_string(name)}` | {exact['nodes']:,} | {exact['infosets']:,} | "
            f"{exact['seconds']:.2f} s, {exact['peak_mb']:.0f} MB | {value}{certified} | "
            f"{lp_cell} | {lp_value} | {' | '.join(gambit_cells)} | {cfr_cell} | {cfr_note} |",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""OpenSpiel games: nimlab's exact, certified solve against OpenSpiel's own solvers.

Run: ``.venv/bin/python benchmarks/bench_openspiel.py [--cfr-cap S] [--lp-cap S]
[--lp-memory GB] [--gambit-cap S] [--games kuhn,leduc,...] [--repeats N]`` (needs the extra
``openspiel``, and the extra ``bench`` (cvxopt, cvxpy) for OpenSpiel's LP); ``--gambit-cap 0``
skips Gambit, ``--cfr-cap 0`` CFR+.

For each game, in one subprocess per method and run (so that its peak memory is its own;
with ``--repeats N`` nimlab and OpenSpiel's LP run N times each, alternating, and the
medians are shown):

* ``nimlab``: walk OpenSpiel's states into flat arrays, solve and certify exactly
  (:mod:`nimlab.openspiel.walk`, :func:`nimlab.equilibrium.efg_solve.solve_efg`); timed
  from the loaded game, as OpenSpiel's LP is, its modules (HiGHS's included) already imported
  (their import, about 0.5 s with OpenSpiel's, is shown apart);
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
import statistics
import subprocess
import sys
import time
from typing import Any

GAMES = {
    "kuhn": "kuhn_poker",
    "leduc": "leduc_poker",
    "liars_dice": "liars_dice(numdice=1,dice_sides=4)",
    "liars_dice5": "liars_dice(numdice=1,dice_sides=5)",
    "liars_dice6": "liars_dice(numdice=1,dice_sides=6)",
    "goofspiel5": "turn_based_simultaneous_game(game=goofspiel(num_cards=5,imp_info=True,"
    "points_order=descending))",
    "goofspiel6": "turn_based_simultaneous_game(game=goofspiel(num_cards=6,imp_info=True,"
    "points_order=descending))",
    "liars_dice2x3": "liars_dice(numdice=2,dice_sides=3)",
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
    started = time.perf_counter()
    import highspy  # noqa: F401  (imported apart, as cvxopt is for OpenSpiel's LP)
    import pyspiel  # noqa: F401

    from nimlab.equilibrium.efg_solve import solve_efg
    from nimlab.openspiel import load, walk

    imported = time.perf_counter() - started
    game = load(_game_string(name))
    start, cpu = time.perf_counter(), time.process_time()
    tree = walk(game)
    walked = time.perf_counter() - start
    result = solve_efg(tree)
    return {
        "seconds": time.perf_counter() - start,
        "cpu": time.process_time() - cpu,
        "walk": walked,
        "imports": imported,
        "value": str(result.value),
        "float": float(result.value),
        "exact": result.exact,
        "method": result.method,
        "nodes": result.nodes,
        "infosets": result.infosets,
        "sequences": list(tree.sequence_counts),
    }


def run_lp(name: str) -> dict[str, Any]:
    import pyspiel
    from open_spiel.python.algorithms import sequence_form_lp

    game = pyspiel.load_game(_game_string(name))
    start, cpu = time.perf_counter(), time.process_time()
    value = sequence_form_lp.solve_zero_sum_game(game)[0]
    return {
        "seconds": time.perf_counter() - start,
        "cpu": time.process_time() - cpu,
        "float": float(value),
    }


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


def _median(runs: list[dict[str, Any]], key: str) -> float:
    return float(statistics.median(run[key] for run in runs))


def _lp_runs(name: str, dense: float, args: argparse.Namespace) -> tuple[list[Any], str]:
    """One OpenSpiel LP run (or why there is none)."""
    if dense > args.lp_memory:
        return [], f"skipped: payoff matrix alone {dense:.1f} GB"
    lp = measure("lp", name, 0, args.lp_cap)
    if lp is None:
        return [], f"killed after {args.lp_cap:.0f} s"
    if "error" in lp:
        return [], f"failed: {lp['error'][:60]}"
    return [lp], ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cfr-cap", type=float, default=60.0)
    parser.add_argument("--lp-cap", type=float, default=300.0)
    parser.add_argument("--lp-memory", type=float, default=4.0)
    parser.add_argument("--gambit-cap", type=float, default=120.0)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], float(args.child[2]))
        return
    print(
        "| game | nodes | infosets | nimlab exact: s (walk s, CPU s), MB | value (certificate) "
        "| OpenSpiel LP: s (CPU s), MB | LP / nimlab | LP value | Gambit LCP, rational (s, MB) "
        "| Gambit LP (s, MB) | CFR+ to 1e-6 (s, MB) | CFR+ |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for key in args.games.split(","):
        name = GAMES[key]
        exacts: list[dict[str, Any]] = []
        lps: list[dict[str, Any]] = []
        lp_note = ""
        for _ in range(args.repeats):  # alternating, fresh processes
            exact = measure("nimlab", name, 0, 3600)
            assert exact is not None and "error" not in exact, exact
            exacts.append(exact)
            s0, s1 = exact["sequences"]
            if not lp_note:
                found, lp_note = _lp_runs(name, 8 * s0 * s1 / 1e9, args)
                lps.extend(found)
            print(f"{key}: nimlab {exact}, LP {lps[-1:] or lp_note}", file=sys.stderr, flush=True)
        exact = exacts[0]
        seconds = _median(exacts, "seconds")
        exact_cell = (
            f"{seconds:.3f} s ({_median(exacts, 'walk'):.3f} s, {_median(exacts, 'cpu'):.3f} s),"
            f" {max(e['peak_mb'] for e in exacts):.0f} MB"
        )
        if lps:
            lp_seconds = _median(lps, "seconds")
            lp_cell = (
                f"{lp_seconds:.3f} s ({_median(lps, 'cpu'):.3f} s), "
                f"{max(lp['peak_mb'] for lp in lps):.0f} MB"
            )
            ratio, lp_value = f"{lp_seconds / seconds:.1f}x", f"{lps[0]['float']:.9f}"
        else:
            lp_cell, ratio, lp_value = lp_note, "", ""
        if args.gambit_cap > 0:
            gambit_cells = [
                _gambit_cell(measure(solver, name, 0, args.gambit_cap), args.gambit_cap)
                for solver in ("gambit-lcp", "gambit-lp")
            ]
        else:
            gambit_cells = ["not run", "not run"]
        cfr = measure("cfr", name, args.cfr_cap, args.cfr_cap + 600) if args.cfr_cap > 0 else None
        if args.cfr_cap <= 0:
            cfr_cell, cfr_note = "not run", ""
        elif cfr is None or "error" in cfr:
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
            f"{exact_cell} | {value}{certified} ({exact['method']}) | {lp_cell} | {ratio} | "
            f"{lp_value} | {' | '.join(gambit_cells)} | {cfr_cell} | {cfr_note} |",
            flush=True,
        )
    print(
        f"(nimlab's imports, not timed above: {_median(exacts, 'imports'):.2f} s in the last "
        "game's runs)",
        flush=True,
    )


if __name__ == "__main__":
    main()

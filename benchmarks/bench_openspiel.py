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
  With ``--cfr-budget``, CFR+ iterates instead for as many wall seconds as nimlab's exact
  solve took in the same run (it stops at the first iteration that ends past them), and
  the exploitability of its average policy is measured afterwards, outside its time, by
  best responses in floats on nimlab's walk of the game (:func:`float_bounds`):
  OpenSpiel's ``exploitability`` keeps a copy of every state (2.4 GB for a million).

Large games: ``--max-nodes`` lifts nimlab's node limit (50,000,000 here); OpenSpiel's LP
runs with its address space limited to ``--lp-limit`` GB (``RLIMIT_AS``), so that a
payoff matrix too large for the machine fails with numpy's ``MemoryError`` instead of
taking the machine down; ``--lp-memory inf`` tries it whatever its payoff matrix would
take. Each child runs under ``/usr/bin/time -v`` when there is one, and its peak memory
is the maximum resident set size reported there.

The scale run of issue 41 (a game of 1.1 * 10^7 histories) is::

    .venv/bin/python benchmarks/bench_openspiel.py --games goofspiel9t4 --repeats 1 \\
        --cfr-budget --gambit-cap 0 --lp-memory inf --lp-limit 12 --lp-cap 1800

Prints one Markdown table: seconds, peak memory (MB, the whole process), the value found.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import time
from typing import Any

MAX_NODES = 50_000_000
"""nimlab's node limit here (its default, 3,000,000, refuses the large games)."""

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
    "liars_dice7": "liars_dice(numdice=1,dice_sides=7)",
    "liars_dice8": "liars_dice(numdice=1,dice_sides=8)",
    "goofspiel7t4": "turn_based_simultaneous_game(game=goofspiel(num_cards=7,num_turns=4,"
    "imp_info=True,points_order=descending))",
    "goofspiel9t4": "turn_based_simultaneous_game(game=goofspiel(num_cards=9,num_turns=4,"
    "imp_info=True,points_order=descending))",
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

    import nimlab.equilibrium.efg_solve as efg_solve
    from nimlab.openspiel import load, walk

    phases: dict[str, list[float]] = {}
    for phase in PHASES[1:]:  # each timed where solve_efg calls it (wall and CPU seconds)
        setattr(efg_solve, phase, _timed(getattr(efg_solve, phase), phases.setdefault(phase, [])))
    imported = time.perf_counter() - started
    game = load(_game_string(name))
    start, cpu = time.perf_counter(), time.process_time()
    tree = walk(game, max_nodes=MAX_NODES)
    walked = time.perf_counter() - start
    phases["walk"] = [walked, time.process_time() - cpu]
    result = efg_solve.solve_efg(tree)
    return {
        "seconds": time.perf_counter() - start,
        "cpu": time.process_time() - cpu,
        "walk": walked,
        "phases": phases,
        "imports": imported,
        "value": str(result.value),
        "float": float(result.value),
        "exact": result.exact,
        "method": result.method,
        "nodes": result.nodes,
        "infosets": result.infosets,
        "sequences": list(tree.sequence_counts),
    }


PHASES = ("walk", "efg_tree", "lp_columns", "solve_columns", "certify_lp")
"""nimlab's phases: the walk; in :func:`~nimlab.equilibrium.efg_solve.solve_efg`, the
sequence-form tree, the LP's columns, HiGHS, the exact certificate."""


def _timed(function: Any, into: list[float]) -> Any:
    """``function``, adding its wall and CPU seconds to ``into``."""

    def timed(*args: Any, **kwargs: Any) -> Any:
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            into[:] = [time.perf_counter() - start, time.process_time() - cpu]

    return timed


def run_lp(name: str, limit_gb: float) -> dict[str, Any]:
    import pyspiel
    from open_spiel.python.algorithms import sequence_form_lp

    if limit_gb > 0:
        limit = int(limit_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    game = pyspiel.load_game(_game_string(name))
    start, cpu = time.perf_counter(), time.process_time()
    try:
        value = sequence_form_lp.solve_zero_sum_game(game)[0]
    except MemoryError as error:
        return {
            "error": f"MemoryError: {error}",
            "seconds": time.perf_counter() - start,
            "cpu": time.process_time() - cpu,
        }
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


def run_cfr_budget(name: str, budget: float) -> dict[str, Any]:
    """CFR+ for ``budget`` wall seconds (the last iteration may end past them); its average
    policy's exploitability by nimlab's float best responses, outside the budget."""
    import pyspiel

    from nimlab.openspiel import load, walk

    text = _game_string(name)
    if name.startswith("nimlab:"):
        text = f"cached_tree(game={text})"
    game = pyspiel.load_game(text)
    start, cpu = time.perf_counter(), time.process_time()
    solver = pyspiel.CFRPlusSolver(game)
    iterations = 0
    while time.perf_counter() - start < budget:
        solver.evaluate_and_update_policy()
        iterations += 1
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    average = solver.average_policy()
    tree = walk(load(_game_string(name)), max_nodes=MAX_NODES)
    lower, upper, value = float_bounds(tree, lambda name: average.get_state_policy(name))
    return {
        "seconds": seconds,
        "cpu": cpu,
        "iterations": iterations,
        "exploitability": (upper - lower) / 2,
        "float": value,
        "reached": False,
    }


def float_bounds(tree: Any, policy: Any) -> tuple[float, float, float]:
    """Player 0's value when player 1, then player 0, best-responds to the other's
    behaviour ``policy(information state string)`` (pairs ``(action, probability)``), and
    the value of the two behaviours against each other, in floats on a
    :class:`~nimlab.equilibrium.efg_flat.FlatEfg` (OpenSpiel's exploitability is half the
    difference of the first two)."""
    import numpy as np

    counts = tree.sequence_counts
    plans = [np.zeros(counts[0]), np.zeros(counts[1])]
    plans[0][0] = plans[1][0] = 1.0
    for info in tree.infosets:  # parents first
        try:
            found = sorted(policy(info.name))
            probabilities = np.array([p for _, p in found], dtype=np.float64)
        except Exception:  # an information set the policy never reached
            probabilities = np.full(len(info.actions), 1 / len(info.actions))
        plan, first = plans[info.player], info.first_sequence
        plan[first : first + len(info.actions)] = plan[info.parent_sequence] * probabilities
    seq = [np.frombuffer(tree.term_seq[p], dtype=np.int32) for p in (0, 1)]
    payoff = np.asarray(
        [float(u) for u in tree.term_payoff]
        if isinstance(tree.term_payoff, list)
        else np.frombuffer(tree.term_payoff, dtype=np.int64),
        dtype=np.float64,
    )
    payoff = payoff / tree.payoff_scale
    shift = float(tree.shift)
    value = float(np.sum(payoff * plans[0][seq[0]] * plans[1][seq[1]])) - shift
    bounds = []
    for player, pick in ((1, np.min), (0, np.max)):
        best = np.bincount(
            seq[player],
            weights=payoff * plans[1 - player][seq[1 - player]],
            minlength=counts[player],
        )
        for info in reversed(tree.infosets):
            if info.player == player:
                first = info.first_sequence
                best[info.parent_sequence] += pick(best[first : first + len(info.actions)])
        bounds.append(float(best[0]) - shift)
    return bounds[0], bounds[1], value


def child(method: str, name: str, cap: float) -> None:
    """One measurement, printed as JSON (run in its own process)."""
    if method == "nimlab":
        out = run_nimlab(name)
    elif method == "lp":
        out = run_lp(name, cap)
    elif method.startswith("gambit"):
        out = run_gambit(name, method)
    elif method == "cfr-budget":
        out = run_cfr_budget(name, cap)
    else:
        out = run_cfr(name, cap)
    out["peak_mb"] = _peak_mb()
    print(json.dumps(out))


TIME = shutil.which("time", path="/usr/bin")


def measure(method: str, name: str, cap: float, timeout: float) -> dict[str, Any] | None:
    """One child's JSON (``None`` when killed after ``timeout`` seconds); under
    ``/usr/bin/time -v`` its ``peak_mb`` is the maximum resident set size reported there,
    kept also when the child fails."""
    command = [sys.executable, __file__, "--child", method, name, str(cap)]
    if TIME:
        command = [TIME, "-v", *command]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as process:  # its own process group: on time-out the child goes with ``time``
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return None
    done = subprocess.CompletedProcess(command, process.returncode, stdout, stderr)
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    peak = {"peak_mb": int(found.group(1)) / 1024} if found else {}
    lines = done.stdout.strip().splitlines()
    if done.returncode == 0 and lines:
        result: dict[str, Any] = json.loads(lines[-1])
        result.update(peak)
        return result
    if "signal 9" in done.stderr or done.returncode == -9:
        return {"error": "killed by the kernel (out of memory)", **peak}
    errors = [line for line in done.stderr.splitlines() if line and not line.startswith("\t")]
    return {"error": errors[-1] if errors else "failed", **peak}


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


def _median_pair(runs: list[dict[str, Any]], phase: str) -> tuple[float, float]:
    """The median wall and CPU seconds of ``phase`` over ``runs``."""
    pairs = [run["phases"].get(phase, [0.0, 0.0]) for run in runs]
    return statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)


def _lp_runs(name: str, dense: float, args: argparse.Namespace) -> tuple[list[Any], str]:
    """One OpenSpiel LP run (or why there is none)."""
    if dense > args.lp_memory:
        return [], f"skipped: payoff matrix alone {dense:.1f} GB"
    lp = measure("lp", name, args.lp_limit, args.lp_cap)
    if lp is None:
        return [], f"killed after {args.lp_cap:.0f} s"
    if "error" in lp:
        when = f" after {lp['seconds']:.0f} s ({lp['cpu']:.0f} s CPU)" if "seconds" in lp else ""
        peak = f" at a peak of {lp['peak_mb']:,.0f} MB" if "peak_mb" in lp else ""
        return [], f"failed{when}{peak}: {lp['error'][:120]}"
    return [lp], ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cfr-cap", type=float, default=60.0)
    parser.add_argument("--lp-cap", type=float, default=300.0)
    parser.add_argument("--lp-memory", type=float, default=4.0)
    parser.add_argument("--lp-limit", type=float, default=12.0)
    parser.add_argument("--cfr-budget", action="store_true")
    parser.add_argument("--phases", action="store_true")
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
    phase_runs: dict[str, list[dict[str, Any]]] = {}
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
        phase_runs[key] = exacts
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
        cfr: dict[str, Any] | None = None
        if args.cfr_budget:
            cfr = measure("cfr-budget", name, seconds, 3 * seconds + 3600)
        elif args.cfr_cap > 0:
            cfr = measure("cfr", name, args.cfr_cap, args.cfr_cap + 600)
        if not args.cfr_budget and args.cfr_cap <= 0:
            cfr_cell, cfr_note = "not run", ""
        elif cfr is None or "error" in cfr:
            cfr_cell, cfr_note = "failed", str(cfr)
        else:
            how = "in nimlab's time: " if args.cfr_budget else ""
            how += "" if cfr["reached"] or args.cfr_budget else "not reached: "
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
    if args.phases:
        print("\n| game | " + " | ".join(PHASES) + " | total |")
        print("|---|" + "---|" * (len(PHASES) + 1))
        for key, runs in phase_runs.items():
            cells = ["{:.2f} ({:.2f})".format(*(_median_pair(runs, phase))) for phase in PHASES]
            total = f"{_median(runs, 'seconds'):.2f} ({_median(runs, 'cpu'):.2f})"
            print(f"| `{_game_string(GAMES[key])}` | {' | '.join(cells)} | {total} |")
        print("(wall seconds, CPU seconds in brackets; medians)")
    print(
        f"(nimlab's imports, not timed above: {_median(exacts, 'imports'):.2f} s in the last "
        "game's runs)",
        flush=True,
    )


if __name__ == "__main__":
    main()

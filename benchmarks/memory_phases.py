"""Where the peak memory of a restricted-games solve is reached, phase by phase (Linux only).

Run: ``.venv/bin/python benchmarks/memory_phases.py sn 10 10 1 [--misere]``.
Wraps the solver's phases (building and growing the trees, their reduction, the sequence
form, the LP's matrix, the HiGHS model made of it, its start and its run, the certificate)
and, around each call, resets the process's peak RSS (``/proc/self/clear_refs``) and reads
it back: per phase, the most it rose above its starting RSS while it ran (transient) and
what it left behind, summed over the run (kept). Then the solve's peak and its timings. A
tool for judging memory ideas: a phase whose kept memory dominates is where the peak comes
from.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from restricted_game import game_parser, solve_game

import nimlab.equilibrium.warm as warm
import nimlab.hidden.oracle as oracle
from nimlab.equilibrium.collapse import Collapse
from nimlab.hidden.builder import Builder

STATUS = Path("/proc/self/status")


def rss_and_peak() -> tuple[int, int]:
    """The process's resident set and its peak since the last reset, in MB."""
    found: dict[str, int] = {}
    for line in STATUS.read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            found[line[:5]] = int(line.split()[1]) // 1024
    return found["VmRSS"], found["VmHWM"]


def reset_peak() -> None:
    """Start the peak RSS afresh (Linux: writing 5 to ``clear_refs``)."""
    Path("/proc/self/clear_refs").write_text("5")


def watched(name: str, call: Callable[..., Any], seen: dict[str, list[int]]) -> Callable[..., Any]:
    """``call``, recording per ``name``: [calls, most transient MB, kept MB summed, highest
    peak MB]."""

    def run(*args: Any, **kwargs: Any) -> Any:
        before, _ = rss_and_peak()
        reset_peak()
        result = call(*args, **kwargs)
        after, peak = rss_and_peak()
        record = seen.setdefault(name, [0, 0, 0, 0])
        record[0] += 1
        record[1] = max(record[1], peak - before)
        record[2] += after - before
        record[3] = max(record[3], peak)
        return result

    return run


def main() -> None:
    args = game_parser(__doc__).parse_args()
    seen: dict[str, list[int]] = {}
    for module, name in (
        (oracle, "growing_tree"),
        (oracle, "sequence_form"),
        (oracle, "certify_lp"),
        (warm, "lp_matrix"),
        (warm, "run_model"),
        (warm, "_whole_model"),
        (warm, "_run_or_restart"),
        (warm, "_run_fresh"),
        (warm, "_start_new_part"),
    ):
        setattr(module, name, watched(name, getattr(module, name), seen))
    grow, reduce = Builder.grow, Collapse.reduce
    Builder.grow = watched("grow", grow, seen)  # type: ignore[method-assign]
    Collapse.reduce = watched("reduce", reduce, seen)  # type: ignore[method-assign]
    result = solve_game(args)
    Builder.grow, Collapse.reduce = grow, reduce  # type: ignore[method-assign]
    print(f"{result.variant}{result.position}: {result.value} (exact: {result.exact})")
    print("\n| phase | calls | most transient MB | kept MB, summed | highest peak MB |")
    print("| --- | --- | --- | --- | --- |")
    for name, (calls, transient, kept, peak) in sorted(seen.items(), key=lambda i: -i[1][2]):
        print(f"| {name} | {calls} | {transient:,} | {kept:,} | {peak:,} |")
    print(
        "\nTimings: "
        + ", ".join(f"{key} {value:.1f} s" for key, value in result.timings.items())
        + f"; peak {max(record[3] for record in seen.values()):,} MB (the phases' highest)"
    )


if __name__ == "__main__":
    main()

"""Where the LP time of a restricted-games solve goes, round by round.

Run: ``.venv/bin/python benchmarks/lp_rounds.py sn 9 9 1 [--misere] [--top 5]``.
Solves the game by growing restricted games (:mod:`nimlab.hidden.oracle`) and prints,
per round and per half (U: R held, the upper bound's game; L: L held, the lower bound's),
the LP's seconds, HiGHS's simplex iterations from the kept basis and the microseconds per
iteration, the seconds since the start and the peak memory so far (each round as it
ends), then the totals and the share of the LP time taken by the ``--top`` most
expensive LPs. A tool for judging LP ideas: a change that cuts iterations shows here
before it shows in the total.
"""

from __future__ import annotations

import resource
import time

from restricted_game import game_parser, solve_game

from nimlab.hidden.oracle import Round


def main() -> None:
    parser = game_parser(__doc__)
    parser.add_argument("--top", type=int, default=5, help="how many of the dearest LPs to sum")
    args = parser.parse_args()
    lps: list[tuple[float, int]] = []
    start = time.perf_counter()
    print(f"{args.variant}{tuple(args.heaps)}, rounds as they end:")
    print(
        "\n| part | round | half | LP s | iterations | us/iteration | nodes | elapsed s | peak MB |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")

    def report(part: int | None, step: Round) -> None:
        """Print both halves of a round as soon as it ends (a long solve shows its course)."""
        elapsed = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024  # KB on Linux
        for half in (0, 1):
            lp, iterations = step.lp_seconds[half], step.iterations[half]
            lps.append((lp, iterations))
            per = f"{1e6 * lp / iterations:,.0f}" if iterations else "-"
            print(
                f"| {'' if part is None else part + 1} | {step.index} | {'UL'[half]} | "
                f"{lp:.2f} | {iterations:,} | {per} | {step.nodes[half]:,} | {elapsed:.1f} | "
                f"{peak:,} |",
                flush=True,
            )

    result = solve_game(args, report)
    seconds = time.perf_counter() - start
    game = f"{result.variant}{result.position}"
    print(f"\n{game}: {result.value} (exact: {result.exact}), {seconds:.1f} s")
    total = sum(lp for lp, _ in lps)
    dearest = sorted(lps, reverse=True)[: args.top]
    share = sum(lp for lp, _ in dearest) / total if total else 0.0
    print(
        f"{len(lps)} LPs, {total:.1f} s, {sum(i for _, i in lps):,} iterations; the "
        f"{len(dearest)} dearest take {share:.0%} of the LP time "
        f"({sum(i for _, i in dearest):,} iterations). Timings: "
        + ", ".join(f"{key} {value:.1f} s" for key, value in result.timings.items())
    )


if __name__ == "__main__":
    main()

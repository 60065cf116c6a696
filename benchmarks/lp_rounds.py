"""Where the LP time of a restricted-games solve goes, round by round.

Run: ``.venv/bin/python benchmarks/lp_rounds.py sn 9 9 1 [--misere] [--top 5]``.
Solves the game by growing restricted games (:mod:`nimlab.extensive.oracle`) and prints,
per round and per half (U: R held, the upper bound's game; L: L held, the lower bound's),
the LP's seconds, HiGHS's simplex iterations from the kept basis and the microseconds per
iteration, then the totals and the share of the LP time taken by the ``--top`` most
expensive LPs. A tool for judging LP ideas: a change that cuts iterations shows here
before it shows in the total.
"""

from __future__ import annotations

import time

from restricted_game import game_parser, solve_game

from nimlab.extensive.oracle import Round


def main() -> None:
    parser = game_parser(__doc__)
    parser.add_argument("--top", type=int, default=5, help="how many of the dearest LPs to sum")
    args = parser.parse_args()
    seen: list[tuple[int | None, Round]] = []
    start = time.perf_counter()
    result = solve_game(args, lambda part, step: seen.append((part, step)))
    seconds = time.perf_counter() - start
    game = f"{result.variant}{result.position}"
    print(f"{game}: {result.value} (exact: {result.exact}), {seconds:.1f} s")
    print("\n| part | round | half | LP s | iterations | us/iteration | nodes |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    lps: list[tuple[float, int]] = []
    for part, step in seen:
        for half in (0, 1):
            lp, iterations = step.lp_seconds[half], step.iterations[half]
            lps.append((lp, iterations))
            per = f"{1e6 * lp / iterations:,.0f}" if iterations else "-"
            print(
                f"| {'' if part is None else part + 1} | {step.index} | {'UL'[half]} | "
                f"{lp:.2f} | {iterations:,} | {per} | {step.nodes[half]:,} |"
            )
    total = sum(lp for lp, _ in lps)
    dearest = sorted(lps, reverse=True)[: args.top]
    share = sum(lp for lp, _ in dearest) / total if total else 0.0
    print(
        f"\n{len(lps)} LPs, {total:.1f} s, {sum(i for _, i in lps):,} iterations; the "
        f"{len(dearest)} dearest take {share:.0%} of the LP time "
        f"({sum(i for _, i in dearest):,} iterations). Timings: "
        + ", ".join(f"{key} {value:.1f} s" for key, value in result.timings.items())
    )


if __name__ == "__main__":
    main()

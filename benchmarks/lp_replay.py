"""Keep the dearest LPs of a restricted-games solve, and replay them under other HiGHS options.

Run:
  ``.venv/bin/python benchmarks/lp_replay.py save sn 10 10 1 --dir lps [--min-iterations 2500]``
  ``.venv/bin/python benchmarks/lp_replay.py replay lps/lp13 [OPTION=VALUE ...]``
  ``.venv/bin/python benchmarks/lp_replay.py replay lps/lp13 --then 1000 --after OPTION=VALUE``

``save`` solves the game as ``nimlab solve --method restricted`` does and writes every kept
model whose run took at least ``--min-iterations`` simplex iterations as ``lpK.mps`` with
``lpK.bas``, the basis it started from (K counts the LPs in the order solved: in each
round the upper bound's game, then the lower's). ``replay`` loads one, sets the options
nimlab sets (:func:`nimlab.equilibrium.lp.configured_highs`, Devex pricing) and then the
given ones, and runs HiGHS from that basis; with ``--then N`` it stops after N iterations
and runs on from there with the options of ``--after``. An LP replayed alone shows
only its own cost: which optimal vertex it ends on decides the next rounds' trees, so an
idea that wins here must still be timed on whole solves (``compare_commits.py``).
"""

from __future__ import annotations

import argparse
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nimlab.equilibrium.warm as warm
from nimlab.equilibrium.lp import ModelOptimum, configured_highs
from nimlab.hidden.solve import solve


def save(variant: str, heaps: tuple[int, ...], folder: Path, min_iterations: int) -> None:
    """Solve and keep the models (and start bases) of the LPs taking many iterations."""
    folder.mkdir(parents=True, exist_ok=True)
    count = 0

    def kept(run: Callable[[Any], ModelOptimum]) -> Callable[[Any], ModelOptimum]:
        """``run``, writing out each model it runs that takes many iterations."""

        def kept_run(h: Any) -> ModelOptimum:
            nonlocal count
            count += 1
            start = folder / "start.bas"
            h.writeBasis(str(start))
            t0 = time.perf_counter()
            found = run(h)
            seconds = time.perf_counter() - t0
            if found.iterations >= min_iterations:
                shutil.move(start, folder / f"lp{count}.bas")
                h.writeModel(str(folder / f"lp{count}.mps"))
                print(
                    f"lp{count}: {seconds:.2f} s, {found.iterations:,} iterations, "
                    f"{h.getNumCol():,} columns, {h.getNumRow():,} rows",
                    flush=True,
                )
            return found

        return kept_run

    # the kept model's run (extended start) and the own start's (Schrödinger Nim)
    warm.run_model = kept(warm.run_model)
    warm._run_or_restart = kept(warm._run_or_restart)
    result = solve(variant, heaps, method="restricted", budget=None, max_nodes=10**9)
    (folder / "start.bas").unlink(missing_ok=True)
    print(f"{result.variant}{result.position}: {result.value} (exact: {result.exact})")


def _set(h: Any, settings: list[str]) -> None:
    for setting in settings:
        name, _, text = setting.partition("=")
        value: Any = text
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                continue
        h.setOptionValue(name, value)


def replay(stem: Path, settings: list[str], then: int | None, after: list[str]) -> None:
    """Run one kept LP from its start basis under ``settings`` (and ``after``, past
    ``then`` iterations); print seconds and iterations of each run."""
    h = configured_highs()
    h.setOptionValue("simplex_dual_edge_weight_strategy", warm.DEVEX)
    h.readModel(str(stem.with_suffix(".mps")))
    h.readBasis(str(stem.with_suffix(".bas")))
    _set(h, settings)
    runs = [(settings, then)] + ([] if then is None else [(after, None)])
    total = 0.0
    for number, (chosen, limit) in enumerate(runs):
        if number:
            _set(h, chosen)
        h.setOptionValue("simplex_iteration_limit", 2**31 - 1 if limit is None else limit)
        t0 = time.perf_counter()
        h.run()
        seconds = time.perf_counter() - t0
        total += seconds
        info = h.getInfo()
        print(
            f"{stem.name} {' '.join(chosen) or '(nimlab options)'}: "
            f"{h.modelStatusToString(h.getModelStatus())}, {seconds:.2f} s, "
            f"{info.simplex_iteration_count:,} iterations, objective "
            f"{info.objective_function_value:.12f}"
        )
    if then is not None:
        print(f"{stem.name}: {total:.2f} s in all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    keep = commands.add_parser("save", help="solve and keep the dearest LPs")
    keep.add_argument("variant")
    keep.add_argument("heaps", nargs="+", type=int)
    keep.add_argument("--dir", type=Path, required=True)
    keep.add_argument("--min-iterations", type=int, default=2500)
    again = commands.add_parser("replay", help="run one kept LP from its start basis")
    again.add_argument("stem", type=Path, help="a kept LP without suffix, e.g. lps/lp13")
    again.add_argument("settings", nargs="*", help="HiGHS options as NAME=VALUE")
    again.add_argument("--then", type=int, help="stop after this many iterations, go on with:")
    again.add_argument("--after", nargs="*", default=[], help="options for the run after --then")
    args = parser.parse_args()
    if args.command == "save":
        save(args.variant, tuple(args.heaps), args.dir, args.min_iterations)
    else:
        replay(args.stem, args.settings, args.then, args.after)


if __name__ == "__main__":
    main()

"""The exact re-solve of optimal LP bases (the certificate's last resort), timed.

Run, once: ``.venv/bin/python benchmarks/exact_basis.py save DIR kn 4 3 2`` solves the game
by growing restricted games (:mod:`nimlab.hidden.oracle`) and pickles, into ``DIR``, the
tree and LP solution of every half-restricted game the solve certifies. Then, for each
version to compare (its ``src`` on ``PYTHONPATH``, e.g. a git worktree of an older commit):
``PYTHONPATH=WORKTREE/src .venv/bin/python benchmarks/exact_basis.py time DIR``, which
re-solves each saved basis exactly (:func:`nimlab.equilibrium.certify.exact_plans_from_basis`,
whatever the rounding would have done) and prints, per basis, its size, the seconds, the
method, the peak memory of the process so far and the exact bounds the plans certify.
"""

from __future__ import annotations

import argparse
import pickle
import resource
import sys
import time
from pathlib import Path
from typing import Any


def save(directory: Path, variant: str, heaps: tuple[int, ...]) -> None:
    """Solve ``variant`` from ``heaps`` and pickle each certified half-game's tree and LP."""
    import nimlab.hidden.oracle as oracle

    directory.mkdir(parents=True, exist_ok=True)
    certify_half = oracle._certify
    saved = [0]

    def keep(game: Any, held: int) -> Any:
        path = directory / f"{variant}{'-'.join(map(str, heaps))}_{saved[0]}_held{held}.pkl"
        with path.open("wb") as file:
            pickle.dump((game.solved, game.lp), file, protocol=5)
        saved[0] += 1
        return certify_half(game, held)

    oracle._certify = keep
    result = oracle.solve_restricted(variant, heaps)
    print(f"{variant}{heaps} = {result.value} (exact: {result.exact}); {saved[0]} bases saved")


def time_all(directory: Path) -> None:
    """Re-solve every saved basis exactly and print a Markdown row per basis."""
    from nimlab.equilibrium import certify
    from nimlab.equilibrium.lp import lp_matrix
    from nimlab.equilibrium.seqform import sequence_form

    print("| basis | basic columns | seconds | method | peak MB | exact bounds |")
    print("| --- | --- | --- | --- | --- | --- |")
    for path in sorted(directory.glob("*.pkl")):
        with path.open("rb") as file:
            tree, lp = pickle.load(file)
        form = sequence_form(tree)
        sizes = (form.E.shape[1], form.F.shape[0], form.F.shape[1], form.E.shape[0])
        start = time.perf_counter()
        plans = certify.exact_plans_from_basis(
            tree, lp_matrix(form), lp.basic_cols, lp.basic_rows, sizes, lp.at_one
        )
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        bounds, how = "-", "refused"
        if plans is not None:
            x, y, how = plans
            exact_x = certify.behaviour_from_plan(tree, 0, x)
            exact_y = certify.behaviour_from_plan(tree, 1, y)
            if exact_x is not None and exact_y is not None:
                found = certify.certify(tree, (exact_x, exact_y), how)
                bounds = f"{found.lower} .. {found.upper}"
        print(
            f"| {path.stem} | {int(lp.basic_cols.sum()):,} | {seconds:.2f} | {how} | "
            f"{peak:,} | {bounds} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["save", "time"])
    parser.add_argument("directory", type=Path)
    parser.add_argument("game", nargs="*", help="for save: a variant and its heaps")
    args = parser.parse_args()
    if args.action == "save":
        if len(args.game) < 2:
            sys.exit("save needs a variant and its heaps, e.g. kn 4 3 2")
        save(args.directory, args.game[0], tuple(int(h) for h in args.game[1:]))
    else:
        time_all(args.directory)


if __name__ == "__main__":
    main()

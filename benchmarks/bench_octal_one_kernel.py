"""Two source trees of nimlab side by side on the octal kernel: CPU seconds of the full table
(``numba_sequence``) and of the summary (``summarize``), compile excluded.

Each figure is one fresh process (``PYTHONPATH=TREE/src``) that compiles every value type first
(``warm_up``), then times the computation with ``time.process_time()`` and prints it with a hash
of the histogram (equal hashes: equal histograms). The trees alternate, so both see the same load.

Run: ``git archive c03a3e9 src | tar -x -C /tmp/old`` then
``python benchmarks/bench_octal_one_kernel.py --old /tmp/old --new . --power 20``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

_CHILD = """
import sys, time
import numpy as np
from nimlab.octal.code import OctalCode
from nimlab.octal.kernels import numba_sequence
from nimlab.octal.rules import GRUNDY_GAME_RULES, rules_of
from nimlab.octal.summary import summarize, warm_up
path, game, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
grundy = game == "grundy"
rules = GRUNDY_GAME_RULES if grundy else rules_of(OctalCode.parse(game))
max_take = None if grundy else OctalCode.parse(game).max_take
warm_up()
numba_sequence(rules, 3000)
start = time.process_time()
if path == "full":
    counts = np.bincount(numba_sequence(rules, size - 1)).tolist()
else:
    found = summarize(rules, size - 1, max_take=max_take).counts
    counts = [found.get(v, 0) for v in range(max(found) + 1)]
print(f"{time.process_time() - start:.3f} {hash(tuple(counts))}")
"""


def main() -> None:
    """Print a Markdown table: game, path, seconds before and after, the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True, help="the older tree")
    parser.add_argument("--new", type=Path, required=True, help="the newer tree")
    parser.add_argument("--power", type=int, default=20, help="N = 2^power values")
    parser.add_argument("--games", default="grundy,0.6")
    args = parser.parse_args()
    size = str(1 << args.power)
    print("| game | path | old CPU s | new CPU s | speed-up | same histogram |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for game in args.games.split(","):
        for path in ("full", "summary"):
            results = []
            for tree in (args.old, args.new):
                env_path = str(tree.resolve() / "src")
                done = subprocess.run(
                    [sys.executable, "-c", _CHILD, path, game, size],
                    capture_output=True,
                    text=True,
                    check=True,
                    env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
                )
                seconds, digest = done.stdout.split()
                results.append((float(seconds), digest))
            (old, old_hash), (new, new_hash) = results
            print(
                f"| {game} | {path} | {old:.2f} | {new:.2f} | {old / new:.2f}x |"
                f" {'yes' if old_hash == new_hash else 'NO'} |",
                flush=True,
            )


if __name__ == "__main__":
    main()

"""Start-up of the command line: ``nimlab --help`` and ``nimlab nim 3 4 5``, and what they import.

Run: ``.venv/bin/python benchmarks/bench_startup.py [--src PATH] [--runs N]`` (prints Markdown).

Each command runs ``--runs`` times as a fresh process (``python -m nimlab``, with ``--src``, by
default this checkout's ``src``, first on ``PYTHONPATH``); the table gives the best and median
wall time and the best processor time (user + system, of the child: on a loaded machine the
wall time measures the machine, the processor time the code). Then ``python -X importtime``
lists the modules that ``import nimlab.cli.main`` spends most on, and whether the heavy engines
(numpy, the LP solvers, the catalogue's games, the hidden-information solver) are among them.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = (("--help",), ("nim", "3", "4", "5"))
HEAVY = ("numpy", "scipy", "highspy", "nimlab.catalogue", "nimlab.hidden", "nimlab.octal")


def _environment(src: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(src), "NIMLAB_STORE": "", "COLUMNS": "100"}


def _run(args: tuple[str, ...], src: Path) -> tuple[float, float]:
    """(wall seconds, processor seconds) of one ``python -m nimlab ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "nimlab", *args],
        check=True,
        capture_output=True,
        env=_environment(src),
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def import_times(src: Path) -> list[tuple[int, int, str]]:
    """``(self µs, cumulative µs, module)`` of every module ``import nimlab.cli.main`` loads."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import nimlab.cli.main"],
        check=True,
        capture_output=True,
        text=True,
        env=_environment(src),
    )
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, total, name = line.removeprefix("import time:").split("|")
        rows.append((int(own), int(total), name.strip()))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the nimlab source tree")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    src = args.src.resolve()
    print(f"source: {src}; load average {os.getloadavg()[0]:.1f}; {args.runs} runs each\n")
    print("| command | best wall (s) | median wall (s) | best processor (s) |")
    print("| --- | ---: | ---: | ---: |")
    _run(("--version",), src)  # warm the file cache
    for command in COMMANDS:
        runs = [_run(command, src) for _ in range(args.runs)]
        walls = [wall for wall, _ in runs]
        best_cpu = min(cpu for _, cpu in runs)
        shown = "nimlab " + " ".join(command)
        print(f"| `{shown}` | {min(walls):.3f} | {statistics.median(walls):.3f} | {best_cpu:.3f} |")
    rows = import_times(src)
    total = max(total for _, total, name in rows if name == "nimlab.cli.main")
    print(f"\n`python -X importtime -c 'import nimlab.cli.main'`: {total / 1e6:.3f} s in all;")
    print("the ten largest cumulative imports:\n")
    print("| module | cumulative (s) | self (s) |")
    print("| --- | ---: | ---: |")
    for own, cumulative, name in sorted(rows, key=lambda row: -row[1])[:10]:
        print(f"| `{name}` | {cumulative / 1e6:.3f} | {own / 1e6:.3f} |")
    loaded = {name for _, _, name in rows}
    heavy = sorted(name for name in loaded if name.split(".")[0] in HEAVY or name in HEAVY)
    heavy = [name for name in heavy if any(name == h or name.startswith(h + ".") for h in HEAVY)]
    print(f"\nheavy engines imported at start-up: {', '.join(heavy[:8]) or 'none'}")


if __name__ == "__main__":
    main()

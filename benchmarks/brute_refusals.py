"""How long ``nimlab analyze GAME POSITION --brute`` (and the misère searches) take to be
refused on a position too large for the default budget: one run of the console script per
catalogue game, timed from the outside.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/brute_refusals.py [--timeout S] [NAME ...]``
(default: every case, each killed after 60 s). Prints a Markdown table: the command, its exit
code, wall and processor seconds, and the first words of its message. The figures before and
after the generic estimate (``nimlab.catalogue.brute``) are in ``BENCHMARKS.md`` ("Brute-force
refusals").
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time

_H40 = "H" * 40
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29)
_BIG_N = 1
for _p in _PRIMES:
    _BIG_N *= _p**20
_FAN = ",".join(f"g-a{i},a{i}-a{i + 1}" for i in range(40))
_STAR40 = ",".join(f"g-a{i}:{'BRG'[i % 3]}" for i in range(40))

#: (name, arguments after ``analyze``): a position far over the default budget for each game.
CASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("nim", ("nim", "100,100,100,100", "--brute")),
    ("nim-misere", ("nim", "100,100,100,100", "--misere", "--brute")),
    ("subtraction", ("subtraction", "1000,1000,1000,1000", "--set", "1,3,4", "--brute")),
    ("wythoff", ("wythoff", "1000,1000", "--brute")),
    ("staircase", ("staircase", "0,30,30,30,30,30,30", "--brute")),
    ("nimble", ("nimble", "40,40,40,40,40,40,40", "--brute")),
    ("nim2d", ("nim2d", "9:9,9:9,9:9,9:9,9:9,9:9", "--brute")),
    ("poker-nim", ("poker-nim", "30,30,30,30", "--additions", "3", "--cap", "40", "--brute")),
    ("skip-nim", ("skip-nim", "40,40,40,40", "--skips", "3,3", "--brute")),
    ("turning-turtles", ("turning-turtles", _H40, "--brute")),
    ("twins", ("twins", _H40, "--brute")),
    ("silver-dollar", ("silver-dollar", "10,20,30,40,50,60,70,80,90,100", "--brute")),
    ("prime-power", ("prime-power", str(_BIG_N), "--brute")),
    ("green-hackenbush", ("green-hackenbush", _FAN, "--brute")),
    (
        "red-blue-hackenbush",
        ("red-blue-hackenbush", ",".join(["BRBRBRBRBRBRBRBRBRBR"] * 8), "--brute"),
    ),
    ("domineering", ("domineering", "/".join(["........"] * 8), "--brute")),
    ("hackenbush", ("hackenbush", _STAR40, "--brute")),
    ("octal", ("octal", "100,100,100", "--code", "0.137", "--brute")),
    ("kayles", ("kayles", "100,100,100", "--brute")),
    ("dawson-kayles", ("dawson-kayles", "100,100,100", "--brute")),
    ("grundy-game", ("grundy-game", "100,100,100", "--brute")),
    ("kayles-misere", ("kayles", "100,100,100", "--misere", "--brute")),
    ("silver-dollar-misere", ("silver-dollar", "10,20,30,40,50,60,70,80,90,100", "--misere")),
    ("turning-turtles-misere", ("turning-turtles", _H40, "--misere")),
    ("nim2d-misere", ("nim2d", "9:9,9:9,9:9,9:9,9:9,9:9", "--misere")),
)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(args: tuple[str, ...], timeout: float) -> tuple[str, float, float, str]:
    """Exit code (or ``killed``), wall and processor seconds, the message's first words."""
    start, before = time.monotonic(), _cpu()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "nimlab", "analyze", *args, "--json"],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=os.environ,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return "killed", time.monotonic() - start, _cpu() - before, f"> {timeout:.0f} s"
    message = (done.stderr.strip().splitlines() or [""])[-1][:90]
    return str(done.returncode), time.monotonic() - start, _cpu() - before, message


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("names", nargs="*")
    options = parser.parse_args()
    print("| case | exit | wall s | cpu s | message |\n| --- | --- | --- | --- | --- |")
    for name, args in CASES:
        if options.names and name not in options.names:
            continue
        code, wall, cpu, message = run(args, options.timeout)
        print(f"| {name} | {code} | {wall:.1f} | {cpu:.1f} | {message} |", flush=True)


if __name__ == "__main__":
    main()

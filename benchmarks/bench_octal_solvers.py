"""nimlab's bounded-memory octal engine side by side with the open sparse-space solvers.

Builds, from sources already on disk (never committed; fetch them yourself):

- ``EXT/tczajka/old``: T. Czajka's C++ solver (github.com/tczajka/octal-games, ``old/src``),
  compiled with its Makefile's flags (``-O2 -std=c++11``) after one patch: the heap count it
  stops at (``maxn``, a constant 2^28) is read from a second argument;
- ``EXT/rogalski``: M. Rogalski's Rust solver (github.com/rogalski-wmii-uni-lodz-pl/octal),
  ``cargo build --release --offline`` (skipped, and said so, when its crates are not at hand);

then runs each solver and ``nimlab grundy GAME --upto N-1 --summary --json`` (the same N
values g(0..N-1)) under ``/usr/bin/time -v``, ``--runs`` times, and prints a Markdown table of
the medians: CPU seconds (user + system), values per CPU second, peak RSS, bytes per value and
each other solver's CPU seconds divided by nimlab's (engine only; whole process).
nimlab's fixed start-up (interpreter, imports and the numba compile, measured with
``--upto 0``) is shown apart and subtracted in the "engine" column.

Run: ``python benchmarks/bench_octal_solvers.py --ext /work/ext-octal --powers 20,21,22``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

GAMES = {"grundy": ("grundy", ["grundy-game"]), "0.6": ("0.6", ["octal", "--code", "0.6"])}


def build_tczajka(ext: Path) -> Path | None:
    """The patched C++ binary ``analyze GAME N`` (None when its sources are missing)."""
    source = ext / "tczajka" / "old" / "src"
    if not (source / "analyze_exec.cc").exists():
        return None
    build = ext / "tczajka" / "bench"
    build.mkdir(exist_ok=True)
    text = (source / "analyze_exec.cc").read_text()
    text = text.replace("constexpr uint64_t maxn = 1<<28;", "uint64_t maxn = 1<<28;")
    text = text.replace(
        'if (argc != 2) throw std::runtime_error("specify a game");',
        'if (argc != 3) throw std::runtime_error("specify a game and N");\n'
        "  maxn = std::stoull(argv[2]);",
    )
    (build / "analyze_exec.cc").write_text(text)
    binary = build / "analyze"
    files = [str(build / "analyze_exec.cc")]
    files += [str(source / f) for f in ("game.cc", "game_util.cc", "hadamard.cc")]
    command = ["g++", "-O2", "-std=c++11", "-pthread", f"-I{source}", *files, "-o", str(binary)]
    subprocess.run(command, check=True)
    return binary


def build_rogalski(ext: Path) -> Path | None:
    """The Rust binary ``octal RULES N`` (None when it cannot be built here)."""
    root = ext / "rogalski"
    binary = root / "target" / "release" / "octal"
    if binary.exists():
        return binary
    if not (root / "Cargo.toml").exists():
        return None
    done = subprocess.run(
        ["cargo", "build", "--release", "--offline"], cwd=root, capture_output=True, text=True
    )
    if done.returncode != 0:
        print(f"rogalski: not built ({done.stderr.strip().splitlines()[-1]})", file=sys.stderr)
        return None
    return binary


def timed(command: list[str], cwd: Path | None = None) -> tuple[float, int]:
    """CPU seconds (user + system) and peak RSS in bytes of one run."""
    done = subprocess.run(
        ["/usr/bin/time", "-v", *command], capture_output=True, text=True, cwd=cwd
    )
    if done.returncode != 0:
        raise RuntimeError(f"{command}: exit {done.returncode}\n{done.stderr[-2000:]}")
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", done.stderr).group(1))  # type: ignore[union-attr]
    system = float(re.search(r"System time \(seconds\): ([\d.]+)", done.stderr).group(1))  # type: ignore[union-attr]
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1))  # type: ignore[union-attr]
    return user + system, rss * 1024


def median_run(command: list[str], runs: int, cwd: Path | None = None) -> tuple[float, int]:
    """Medians of ``runs`` runs."""
    results = [timed(command, cwd) for _ in range(runs)]
    return (
        statistics.median(r[0] for r in results),
        int(statistics.median(r[1] for r in results)),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ext", type=Path, required=True, help="where the sources are")
    parser.add_argument("--powers", default="20,21,22", help="N = 2^k for these k")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", default="grundy,0.6")
    parser.add_argument("--solvers", default="nimlab,tczajka,rogalski")
    args = parser.parse_args()
    solvers = args.solvers.split(",")
    tczajka = build_tczajka(args.ext) if "tczajka" in solvers else None
    rogalski = build_rogalski(args.ext) if "rogalski" in solvers else None
    scratch = args.ext / "rogalski-runs"
    scratch.mkdir(exist_ok=True)
    nimlab = [sys.executable, "-m", "nimlab", "grundy"]
    flags = ["--summary", "--json", "--no-store", "--limit", str(10**12)]
    print(
        "| game | N | solver | CPU s | engine CPU s | values/CPU s | peak RSS | bytes/value"
        " | other solvers' CPU s / nimlab's (engine; whole process) |"
    )
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for game in args.games.split(","):
        name, nim_args = GAMES.get(game, (game, ["octal", "--code", game]))
        base = None
        if "nimlab" in solvers:
            base = median_run([*nimlab, *nim_args, "--upto", "0", *flags], args.runs)
            print(
                f"| {game} | 1 | nimlab start-up | {base[0]:.2f} | | | {base[1] / 1e6:.0f} MB | | |"
            )
        for power in map(int, args.powers.split(",")):
            size = 1 << power
            rows: list[tuple[str, float, float, int]] = []
            if base is not None:
                cpu, rss = median_run(
                    [*nimlab, *nim_args, "--upto", str(size - 1), *flags], args.runs
                )
                rows.append(("nimlab --summary", cpu, cpu - base[0], rss))
            if tczajka is not None:
                cpu, rss = median_run([str(tczajka), name, str(size)], args.runs)
                rows.append(("tczajka (C++)", cpu, cpu, rss))
            if rogalski is not None and game != "grundy":
                cpu, rss = median_run([str(rogalski), name, str(size)], args.runs, cwd=scratch)
                rows.append(("rogalski (Rust)", cpu, cpu, rss))
            ours = rows[0] if rows and rows[0][0].startswith("nimlab") else None
            for solver, cpu, engine, rss in rows:
                rate = size / max(engine, 1e-9)
                ratio = ""
                if ours is not None and solver != ours[0]:
                    ratio = f"{cpu / max(ours[2], 1e-9):.2f}x; {cpu / ours[1]:.2f}x"
                print(
                    f"| {game} | 2^{power} | {solver} | {cpu:.2f} | {engine:.2f} | {rate:,.0f} |"
                    f" {rss / 1e6:.0f} MB | {rss / size:.1f} | {ratio} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()

"""nimlab's bounded-memory octal engine side by side with the open sparse-space solvers.

Builds, from sources already on disk (never committed; fetch them yourself):

- ``EXT/tczajka/old``: T. Czajka's C++ solver (github.com/tczajka/octal-games, ``old/src``),
  compiled with its Makefile's flags (``-O2 -std=c++11``) after one patch: the heap count it
  stops at (``maxn``, a constant 2^28) is read from a second argument;
- ``EXT/rogalski``: M. Rogalski's Rust solver (github.com/rogalski-wmii-uni-lodz-pl/octal),
  copied to ``EXT/rogalski-offline``, patched with ``benchmarks/data/rogalski-offline.patch``
  (its crates ``bitvec``, ``cfg-if``, ``glob``, ``phf``, ``serde``/``serde_json`` replaced by
  std: a bit vector over u64 words, ``#[cfg]`` items, a hand-written JSON writer; the algorithm
  untouched) and built ``cargo build --release --offline`` with no features (its Cargo.toml's
  default: values in ``u16``, the bit-vector sets, correct for every value range);

then runs each solver and ``nimlab grundy GAME --upto N-1 --summary --json`` (the same N
values g(0..N-1)) under ``/usr/bin/time -v``, ``--runs`` times, the solvers alternating within
each round, and prints a Markdown table of the medians: CPU seconds (user + system), values per
CPU second, peak RSS, bytes per value and each other solver's CPU seconds divided by nimlab's
(engine only; whole process). nimlab's fixed start-up (interpreter, imports and the numba
compile, measured with ``--upto 0``) is shown apart and subtracted in the "engine" column.

Checks (column "check"): Rogalski's histogram of g(0..N-1) against nimlab's ``counts``, its
histograms at the powers of two below N against its published ones
(``tests/data/rogalski_octal_histograms.json``, heap 0 not counted there), and tczajka's largest
value against nimlab's ``max``. Rogalski's solver takes octal codes only (not Grundy's game).

Run: ``python benchmarks/bench_octal_solvers.py --ext /work/ext-octal --powers 20,21,22``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

GAMES = {"grundy": ("grundy", ["grundy-game"]), "0.6": ("0.6", ["octal", "--code", "0.6"])}
HERE = Path(__file__).resolve().parent
PATCH = HERE / "data" / "rogalski-offline.patch"
PUBLISHED = HERE.parent / "tests" / "data" / "rogalski_octal_histograms.json"


def build_tczajka(ext: Path) -> Path | None:
    """The patched C++ binary ``analyze GAME N`` (None when its sources are missing).

    Built once: an existing binary is reused (two runs of this script at the same time
    would otherwise write the patched source under each other).
    """
    source = ext / "tczajka" / "old" / "src"
    build = ext / "tczajka" / "bench"
    if (build / "analyze").exists():
        return build / "analyze"
    if not (source / "analyze_exec.cc").exists():
        return None
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


def cargo() -> str | None:
    """The cargo on PATH, else rustup's default place."""
    found = shutil.which("cargo")
    fallback = Path.home() / ".cargo" / "bin" / "cargo"
    return found or (str(fallback) if fallback.exists() else None)


def build_rogalski(ext: Path) -> Path | None:
    """The Rust binary ``octal RULES N``, patched and built offline (None when it cannot be)."""
    source = ext / "rogalski"
    build = ext / "rogalski-offline"
    binary = build / "target" / "release" / "octal"
    if binary.exists():
        return binary
    tool = cargo()
    if not (source / "Cargo.toml").exists() or tool is None:
        print("rogalski: no source at EXT/rogalski or no cargo: skipped", file=sys.stderr)
        return None
    if build.exists():
        shutil.rmtree(build)
    shutil.copytree(source, build, ignore=shutil.ignore_patterns("target", ".git", "*.log"))
    subprocess.run(["patch", "-p1", "--quiet", "-i", str(PATCH)], cwd=build, check=True)
    done = subprocess.run(
        [tool, "build", "--release", "--offline"], cwd=build, capture_output=True, text=True
    )
    if done.returncode != 0:
        print(f"rogalski: not built ({done.stderr.strip().splitlines()[-1]})", file=sys.stderr)
        return None
    return binary


def timed(command: list[str], cwd: Path | None = None) -> tuple[float, int, str]:
    """CPU seconds (user + system), peak RSS in bytes and standard output of one run."""
    done = subprocess.run(
        ["/usr/bin/time", "-v", *command], capture_output=True, text=True, cwd=cwd
    )
    if done.returncode != 0:
        raise RuntimeError(f"{command}: exit {done.returncode}\n{done.stderr[-2000:]}")
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", done.stderr).group(1))  # type: ignore[union-attr]
    system = float(re.search(r"System time \(seconds\): ([\d.]+)", done.stderr).group(1))  # type: ignore[union-attr]
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1))  # type: ignore[union-attr]
    return user + system, rss * 1024, done.stdout


def rogalski_histograms(stdout: str) -> dict[int, list[int]]:
    """Rogalski's dumps ``N freqs after T`` + a JSON list of {nimber, frequency, rare}.

    Inside the run the dump at a power of two n counts g(0..n); the last dump (n = N, its
    command-line size) counts g(0..N-1).
    """
    found: dict[int, list[int]] = {}
    lines = stdout.splitlines()
    i = 0
    while i < len(lines):
        head = re.match(r"^(\d+) freqs after ", lines[i])
        i += 1
        if head is None:
            continue
        start = i
        while lines[i] not in ("]", "[]"):
            i += 1
        counts = [item["frequency"] for item in json.loads("\n".join(lines[start : i + 1]))]
        while counts and counts[-1] == 0:
            counts.pop()
        found[int(head.group(1))] = counts
    return found


def nimlab_counts(stdout: str) -> tuple[list[int], int]:
    """nimlab's histogram of g(0..N-1) as a list, and its largest value."""
    answer = json.loads(stdout)
    counts = [0] * (answer["max"] + 1)
    for value, count in answer["counts"].items():
        counts[int(value)] = count
    return counts, int(answer["max"])


def published_agreement(code: str, dumps: dict[int, list[int]], size: int) -> str:
    """How many of Rogalski's published histograms (below N) this run reproduces."""
    if not PUBLISHED.exists():
        return ""
    table = json.loads(PUBLISHED.read_text())["histograms"].get(code)
    if table is None:
        return ""
    same = differ = 0
    for key, published in table.items():
        n = int(key)
        if n >= size or n not in dumps:
            continue
        ours = list(dumps[n])
        ours[0] -= 1  # heap 0 is not counted in the published files
        while ours and ours[-1] == 0:
            ours.pop()
        same, differ = (same + 1, differ) if ours == published else (same, differ + 1)
    return f"published {same}/{same + differ}" if same + differ else ""


def check(
    solver: str, game: str, size: int, stdout: str, ours: tuple[list[int], int] | None
) -> str:
    """A short verdict on one solver's output against nimlab's and the published data."""
    notes = []
    if solver == "rogalski":
        dumps = rogalski_histograms(stdout)
        if ours is not None:
            notes.append("hist = nimlab" if dumps.get(size) == ours[0] else "hist DIFFERS")
        notes.append(published_agreement(game, dumps, size))
    elif solver == "tczajka" and ours is not None:
        lines = re.findall(r"largest G\[\d+\]=(\d+)", stdout)
        if lines:
            notes.append("max = nimlab" if int(lines[-1]) == ours[1] else "max DIFFERS")
    return "; ".join(note for note in notes if note)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ext", type=Path, required=True, help="where the sources are")
    parser.add_argument("--powers", default="20,21,22", help="N = 2^k for these k")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", default="grundy,0.6")
    parser.add_argument("--solvers", default="nimlab,tczajka,rogalski")
    args = parser.parse_args()
    solvers = args.solvers.split(",")
    binaries: dict[str, Path | None] = {
        "tczajka": build_tczajka(args.ext) if "tczajka" in solvers else None,
        "rogalski": build_rogalski(args.ext) if "rogalski" in solvers else None,
    }
    labels = {
        "nimlab": "nimlab --summary",
        "tczajka": "tczajka (C++)",
        "rogalski": "rogalski (Rust)",
    }
    scratch = args.ext / "rogalski-runs"
    scratch.mkdir(exist_ok=True)
    nimlab = [sys.executable, "-m", "nimlab", "grundy"]
    flags = ["--summary", "--json", "--no-store", "--limit", str(10**12)]
    print(
        "| game | N | solver | CPU s | engine CPU s | values/CPU s | peak RSS | bytes/value"
        " | other solvers' CPU s / nimlab's (engine; whole process) | check |"
    )
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for game in args.games.split(","):
        name, nim_args = GAMES.get(game, (game, ["octal", "--code", game]))
        base = None
        if "nimlab" in solvers:
            startup = [timed([*nimlab, *nim_args, "--upto", "0", *flags]) for _ in range(args.runs)]
            base = (
                statistics.median(r[0] for r in startup),
                int(statistics.median(r[1] for r in startup)),
            )
            print(
                f"| {game} | 1 | nimlab start-up | {base[0]:.2f} | | | {base[1] / 1e6:.0f} MB"
                " | | | |"
            )
        for power in map(int, args.powers.split(",")):
            size = 1 << power
            commands: dict[str, tuple[list[str], Path | None]] = {}
            if base is not None:
                commands["nimlab"] = ([*nimlab, *nim_args, "--upto", str(size - 1), *flags], None)
            if binaries["tczajka"] is not None:
                commands["tczajka"] = ([str(binaries["tczajka"]), name, str(size)], None)
            if binaries["rogalski"] is not None and game != "grundy":  # octal codes only
                commands["rogalski"] = ([str(binaries["rogalski"]), name, str(size)], scratch)
            results: dict[str, list[tuple[float, int, str]]] = {s: [] for s in commands}
            for _ in range(args.runs):  # the solvers alternate within each round
                for solver, (command, cwd) in commands.items():
                    results[solver].append(timed(command, cwd))
            ours = nimlab_counts(results["nimlab"][-1][2]) if "nimlab" in results else None
            nimlab_cpu: tuple[float, float] | None = None
            for solver, runs in results.items():
                cpu = statistics.median(r[0] for r in runs)
                rss = int(statistics.median(r[1] for r in runs))
                engine = cpu - base[0] if solver == "nimlab" and base is not None else cpu
                if solver == "nimlab":
                    nimlab_cpu = (engine, cpu)
                rate = size / max(engine, 1e-9)
                ratio = ""
                if nimlab_cpu is not None and solver != "nimlab":
                    ratio = f"{cpu / max(nimlab_cpu[0], 1e-9):.2f}x; {cpu / nimlab_cpu[1]:.2f}x"
                verdict = check(solver, name, size, runs[-1][2], ours)
                print(
                    f"| {game} | 2^{power} | {labels[solver]} | {cpu:.2f} | {engine:.2f} |"
                    f" {rate:,.0f} | {rss / 1e6:.0f} MB | {rss / size:.1f} | {ratio} | {verdict} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()

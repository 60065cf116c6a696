"""Sweep benchmarks: 2 workers vs 1, Dask vs the local pool on tiny tasks, store throughput.

Run: ``.venv/bin/python benchmarks/bench_sweeps.py`` (prints a Markdown table; ~3 minutes).

1. Speed-up of a CPU-bound sweep (octal Grundy sequences by the quadratic method) with 2 local
   workers vs 1 (best of 3 interleaved rounds); the wall time includes starting the pool and
   storing every result. Next to it, the speed-up plain ``multiprocessing`` gets on pure
   arithmetic at the same moment: on a machine shared with other jobs that is the ceiling.
2. Per-task overhead on 1,000 tiny tasks (g(0..8) of 500 octal codes, twice): wall time per
   task of the local pool and of Dask (a running 2-worker ``LocalCluster``; its start-up is
   shown apart), against computing them serially in this process without any store.
3. Store throughput: results committed per second, one durable transaction each (WAL,
   ``synchronous=FULL``), payloads of 1,001 Grundy values.
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from pathlib import Path

from nimlab.store import ResultStore
from nimlab.sweeps import (
    DaskExecutor,
    LocalPoolExecutor,
    Task,
    octal_task,
    parse_codes,
    run_sweep,
    run_task,
)

CPU_CODES = "0.07,0.77,0.137,0.4,0.6,0.17,0.37,0.71,0.16,0.26,0.35,0.51"
CPU_UPTO = 12000


def timed_sweep(tasks: list[Task], executor: LocalPoolExecutor | DaskExecutor) -> float:
    """Wall seconds of one sweep of ``tasks`` into a fresh store (all must succeed)."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        summary = run_sweep(tasks, store_path=Path(folder) / "r.sqlite", executor=executor)
        seconds = time.perf_counter() - start
    if summary.computed != len(tasks):
        raise RuntimeError(f"sweep incomplete: {summary.to_json()}")
    return seconds


def executor_only(tasks: list[Task], executor: LocalPoolExecutor | DaskExecutor) -> float:
    """Wall seconds of running ``tasks`` on ``executor`` without storing anything."""
    start = time.perf_counter()
    done = sum(1 for outcome in executor.run(run_task, tasks) if outcome.ok)
    seconds = time.perf_counter() - start
    if done != len(tasks):
        raise RuntimeError("tasks failed")
    return seconds


def _burn(count: int) -> int:
    total = 0
    for k in range(count):
        total += k * k
    return total


def _pool_seconds(workers: int) -> float:
    """Wall seconds of 4 pure-arithmetic jobs on a ``multiprocessing.Pool`` of ``workers``."""
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        pool.map(_burn, [1000] * workers)  # started
        start = time.perf_counter()
        pool.map(_burn, [3_000_000] * 4)
        return time.perf_counter() - start


def cpu_speedups(repeat: int = 3) -> dict[str, float]:
    """Best wall times, 1 and 2 workers, of the sweep and of the plain-Pool ceiling; the four
    are measured in turn in each round, so that they see the same load."""
    tasks = [octal_task(code, CPU_UPTO, method="plain") for code in parse_codes(CPU_CODES)]
    times: dict[str, list[float]] = {"sweep1": [], "sweep2": [], "pool1": [], "pool2": []}
    for _ in range(repeat):
        for workers in (1, 2):
            times[f"pool{workers}"].append(_pool_seconds(workers))
            with LocalPoolExecutor(workers) as executor:
                times[f"sweep{workers}"].append(timed_sweep(tasks, executor))
    return {key: min(values) for key, values in times.items()}


def tiny_tasks() -> list[Task]:
    codes = parse_codes("0.001..0.777")[:500]
    return [octal_task(code, upto, method="plain") for upto in (8, 9) for code in codes]


def overhead() -> dict[str, float]:
    tasks = tiny_tasks()
    start = time.perf_counter()
    for task in tasks:
        run_task(task)
    results = {"serial": time.perf_counter() - start}
    with LocalPoolExecutor(2) as executor:
        results["local_bare"] = executor_only(tasks, executor)
        results["local"] = timed_sweep(tasks, executor)
    start = time.perf_counter()
    with DaskExecutor(workers=2) as executor:
        results["dask_start"] = time.perf_counter() - start
        executor_only(tasks[:20], executor)  # warm the workers up
        results["dask_bare"] = executor_only(tasks, executor)
        results["dask"] = timed_sweep(tasks, executor)
    return results


def store_throughput(count: int = 1000) -> float:
    payload = run_task(octal_task("0.07", 1000))
    with tempfile.TemporaryDirectory() as folder, ResultStore(Path(folder) / "r.sqlite") as store:
        start = time.perf_counter()
        for k in range(count):
            store.put(f"bench({k})", "plain", payload, version="bench")
        seconds = time.perf_counter() - start
        if store.count() != count:
            raise RuntimeError("lost writes")
    return count / seconds


def main() -> None:
    logging.getLogger("distributed").setLevel(logging.ERROR)
    load_before = os.getloadavg()[0]
    best = cpu_speedups()
    one, two = best["sweep1"], best["sweep2"]
    ceiling = best["pool1"] / best["pool2"]
    costs = overhead()
    rate = store_throughput()
    load_after = os.getloadavg()[0]
    n = len(tiny_tasks())
    ms = {key: value / n * 1e3 for key, value in costs.items()}
    rows = [
        (
            f"CPU-bound sweep: {len(CPU_CODES.split(','))} octal codes, g(0..{CPU_UPTO}), plain",
            "1 worker / 2 workers (wall, pool start and store included)",
            f"{one:.2f} s / {two:.2f} s = **{one / two:.2f}x**",
        ),
        (
            "the machine now: 4 pure-arithmetic jobs, multiprocessing.Pool",
            "speed-up of 2 processes over 1 (the ceiling for the row above)",
            f"{ceiling:.2f}x",
        ),
        (f"{n} tiny tasks", "serial in-process, no store", f"{ms['serial']:.3f} ms/task"),
        (
            f"{n} tiny tasks",
            "local pool, 2 workers: executor only / with the store",
            f"{ms['local_bare']:.3f} / {ms['local']:.3f} ms/task",
        ),
        (
            f"{n} tiny tasks",
            "Dask LocalCluster, 2 workers: executor only / with the store",
            f"{ms['dask_bare']:.3f} / {ms['dask']:.3f} ms/task "
            f"(+ {costs['dask_start']:.1f} s cluster start)",
        ),
        (
            "store, durable (WAL, synchronous=FULL)",
            "results committed per second, one transaction each",
            f"{rate:,.0f}/s",
        ),
    ]
    print("| benchmark | measure | result |")
    print("| --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print(
        f"\n(load average {load_before:.1f} before, {load_after:.1f} after; {os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()

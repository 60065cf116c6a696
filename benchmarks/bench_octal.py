"""Octal-games engine benchmark: Grundy's game by sparse space vs the plain quadratic method,
and period proofs of octal games with long preperiods.

Run: ``.venv/bin/python benchmarks/bench_octal.py`` (about two minutes on 2 cores; pass
``--quick`` for a smoke run). Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from nimlab.octal import (
    OctalCode,
    find_period,
    grundy_game_sequence,
    grundy_sequence,
    proof_length,
)
from nimlab.octal.kernels import NumbaBackend
from nimlab.octal.rules import GRUNDY_GAME_RULES
from nimlab.octal.sparse import run_sparse


def timed(fn: Callable[[], list[int]]) -> tuple[list[int], float, float]:
    """The result of ``fn()``, the wall-clock seconds and the CPU seconds it took."""
    start, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - start, time.process_time() - cpu


def _quadratic_numba() -> Callable[[int], list[int]]:
    """The plain quadratic method for Grundy's game, compiled (a baseline, not library code)."""
    import numba
    import numpy as np

    @numba.njit(cache=False)
    def kernel(upto: int) -> Any:
        g = np.zeros(upto + 1, dtype=np.int64)
        seen = np.zeros(4096, dtype=np.int64)
        for n in range(upto + 1):
            for a in range(1, (n - 1) // 2 + 1):
                seen[g[a] ^ g[n - a]] = n + 1
            value = 0
            while seen[value] == n + 1:
                value += 1
            g[n] = value
        return g

    return lambda upto: list(kernel(upto).tolist())


def grundy_game_table(small: int, large: int) -> None:
    """Grundy's game: every method at ``small``; the compiled sparse space at ``large``."""
    quadratic = _quadratic_numba()
    _, compile_seconds, _ = timed(lambda: grundy_game_sequence(100, method="numba"))
    quadratic(100)
    print(f"numba compile + first call: {compile_seconds:.2f} s\n")
    print("| Grundy's game, method | values | s | CPU s | values/CPU s | CPU vs plain Python |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    plain, plain_s, plain_cpu = timed(lambda: grundy_game_sequence(small, method="plain"))
    rows = [("plain quadratic, Python", plain, plain_s, plain_cpu)]
    candidates: list[tuple[str, Callable[[], list[int]]]] = [
        ("plain quadratic, numba (baseline)", lambda: quadratic(small)),
        ("sparse space, Python", lambda: grundy_game_sequence(small, method="sparse")),
        ("sparse space, numba", lambda: grundy_game_sequence(small, method="numba")),
    ]
    for name, fn in candidates:
        values, seconds, cpu = timed(fn)
        if values != plain:
            raise SystemExit(f"{name} disagrees with plain at {small}")
        rows.append((name, values, seconds, cpu))
    mid = large // 8  # where the compiled quadratic method still finishes in seconds
    for name, fn in [
        ("plain quadratic, numba (baseline)", lambda: quadratic(mid)),
        ("sparse space, numba", lambda: grundy_game_sequence(mid, method="numba")),
    ]:
        values, seconds, cpu = timed(fn)
        rows.append((name, values, seconds, cpu))
    if rows[-1][1] != rows[-2][1]:
        raise SystemExit(f"the compiled methods disagree at {mid}")
    backend = NumbaBackend(GRUNDY_GAME_RULES, large)

    def run_large() -> list[int]:
        run_sparse(backend, large)
        return list(backend.g.tolist())

    big_values, seconds, cpu = timed(run_large)
    big = backend.g
    if big[: small + 1].tolist() != plain:
        raise SystemExit("the large run disagrees with plain on its prefix")
    rows.append(("sparse space, numba", big_values, seconds, cpu))
    for name, values, seconds, cpu in rows:
        n = len(values)
        ratio = f"{plain_cpu / cpu:,.0f}x" if n == len(plain) else "-"
        print(f"| {name} | {n:,} | {seconds:.2f} | {cpu:.2f} | {n / cpu:,.0f} | {ratio} |")
    print(
        f"\nAt {large:,}: max value {int(big.max())}, rare positions {backend.nrare:,} "
        f"(mask {_mask_of(backend)})."
    )


def _mask_of(backend: NumbaBackend) -> str:
    """The last mask, read back from the rare-value table."""
    bits = [v for v in range(1, len(backend.rare_value)) if v & (v - 1) == 0]
    mask = sum(b for b in bits if not backend.rare_value[b])
    return f"{mask} = 0b{mask:b}"


def period_table(texts: list[str], limit: int) -> None:
    """Prove the period of each code by doubling ``upto`` until the theorem applies."""
    print("\n| code | period | preperiod | values needed | values computed | seconds | CPU s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for text in texts:
        code = OctalCode.parse(text)
        upto, found = 4095, None
        start, cpu = time.perf_counter(), time.process_time()
        while found is None and upto <= limit:
            values = grundy_sequence(code, upto, method="numba")
            found = find_period(code, values)
            upto = 2 * upto + 1
        times = f"{time.perf_counter() - start:.1f} | {time.process_time() - cpu:.1f}"
        if found is None:
            print(f"| {text} | not proven | | | {len(values):,} | {times} |")
            continue
        needed = proof_length(code, found)
        print(
            f"| {text} | {found.period:,} | {found.preperiod:,} | {needed:,} "
            f"| {len(values):,} | {times} |"
        )


def main() -> None:
    """Parse the options and print both tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    args = parser.parse_args()
    small, large, limit = (2**12, 2**16, 2**20) if args.quick else (2**15, 2**21, 2**23)
    grundy_game_table(small, large)
    period_table(["0.127", "0.56", "0.16", "0.77", "0.137"], limit)


if __name__ == "__main__":
    main()

"""Tables for researchers: every K-pile position's payoff function, as CSV or Parquet.

One row per multiset of K pile sizes from 1..M (written largest pile first, like the paper):
the breakpoints ``[[N, f], ...]`` as exact strings (JSON text in CSV, a nested list in Parquet),
the end slopes, f_0, c+ and c-, and membership of P+ and P-.

>>> rows = scoring_rows(piles=2, largest=2)
>>> [(r["position"], r["breakpoints"], r["slope_left"], r["slope_right"]) for r in rows]
[('1,1', '[]', -1, -1), ('2,1', '[["0", "1"]]', -1, 1), ('2,2', '[["-1", "1"]]', 1, -1)]
"""

from __future__ import annotations

import csv
import json
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

from nimlab.core.heaps import format_heaps
from nimlab.errors import InvalidPositionError
from nimlab.exact import exact_str
from nimlab.scoring.payoff import DEFAULT_MAX_CELLS, in_p_minus, in_p_plus, solve_payoffs

__all__ = ["COLUMNS", "scoring_rows", "write_scoring_table"]

COLUMNS = (
    "position",
    "total",
    "breakpoints",
    "breakpoint_count",
    "slope_left",
    "slope_right",
    "value_at_0",
    "c_plus",
    "c_minus",
    "in_p_plus",
    "in_p_minus",
)


def scoring_rows(
    *, piles: int, largest: int, max_cells: int = DEFAULT_MAX_CELLS
) -> list[dict[str, Any]]:
    """The table's rows, positions in lexicographic order of their sorted sizes."""
    if piles < 1 or largest < 1:
        raise InvalidPositionError(f"--piles {piles} --max {largest}: both must be at least 1")
    functions = solve_payoffs([largest] * piles, max_cells=max_cells).functions()
    rows = []
    for sizes in combinations_with_replacement(range(1, largest + 1), piles):
        f = functions[sizes]
        breakpoints = [[exact_str(x), exact_str(y)] for x, y in f.breakpoints]
        rows.append(
            {
                "position": format_heaps(sorted(sizes, reverse=True)),
                "total": sum(sizes),
                "breakpoints": json.dumps(breakpoints),
                "breakpoint_count": len(breakpoints),
                "slope_left": int(f.slope_left),
                "slope_right": int(f.slope_right),
                "value_at_0": exact_str(f(0)),
                "c_plus": int(f.intercept_right),
                "c_minus": int(f.intercept_left),
                "in_p_plus": in_p_plus(sizes),
                "in_p_minus": in_p_minus(sizes),
            }
        )
    return rows


def write_scoring_table(
    out: Path, *, piles: int, largest: int, max_cells: int = DEFAULT_MAX_CELLS
) -> int:
    """Write the table to ``out`` (``.csv`` or ``.parquet``); return the number of rows."""
    suffix = out.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise InvalidPositionError(f"output file {str(out)!r} must end in .csv or .parquet")
    rows = scoring_rows(piles=piles, largest=largest, max_cells=max_cells)
    out.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".csv":
        with out.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
    else:
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        nested = [{**row, "breakpoints": json.loads(row["breakpoints"])} for row in rows]
        table = pa.Table.from_pylist(nested)  # breakpoints as a list of [N, f] string pairs
        pq.write_table(table, out)
    return len(rows)

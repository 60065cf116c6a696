"""Export a results store to CSV, JSON or Parquet (one row per stored result).

Columns: ``spec``, ``method``, ``version``, ``created``, ``seconds`` and ``payload`` (the result
as JSON text; in the JSON export, the object itself).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with ResultStore(folder / "r.sqlite") as store:
...     _ = store.put("toy(1)", "grid", {"position": [1]}, version="0.1.0")
...     export_results(store, folder / "r.csv")
1
>>> (folder / "r.csv").read_text().splitlines()[0]
'spec,method,version,created,seconds,payload'
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from nimlab.errors import InvalidPositionError
from nimlab.store.results import ResultStore

__all__ = ["EXPORT_FORMATS", "export_results"]

EXPORT_FORMATS = ("csv", "json", "parquet")
_COLUMNS = ("spec", "method", "version", "created", "seconds", "payload")


def export_results(
    store: ResultStore, out: Path, *, fmt: str | None = None, prefix: str = ""
) -> int:
    """Write every result (spec starting with ``prefix``) to ``out``; return how many.

    The format is ``fmt`` or else the file's suffix (``.csv``, ``.json``, ``.parquet``).
    """
    chosen = (fmt or out.suffix.lstrip(".")).lower()
    if chosen not in EXPORT_FORMATS:
        raise InvalidPositionError(
            f"unknown export format {chosen!r} for {str(out)!r}; known: {', '.join(EXPORT_FORMATS)}"
        )
    rows: list[dict[str, Any]] = [
        {**result.to_json(), "payload": result.payload} for result in store.results(prefix=prefix)
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    if chosen == "json":
        out.write_text(json.dumps({"results": rows}) + "\n")
        return len(rows)
    flat = [{**row, "payload": json.dumps(row["payload"])} for row in rows]
    if chosen == "csv":
        with out.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=_COLUMNS)
            writer.writeheader()
            writer.writerows(flat)
    else:
        import pyarrow as pa  # type: ignore[import-untyped]  # lazy: optional and heavy
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        schema = pa.schema(
            [(name, pa.float64() if name == "seconds" else pa.string()) for name in _COLUMNS]
        )
        table = pa.Table.from_pylist(flat, schema=schema)
        pq.write_table(table, out)
    return len(rows)

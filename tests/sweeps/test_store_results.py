"""The results store: one row per key, WAL + full sync, export, concurrent writers, CLI."""

from __future__ import annotations

import csv
import json
import multiprocessing
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from nimlab.store import ResultStore, cached_result, export_results, resolve_store_path


def test_put_is_idempotent_and_first_writer_wins(tmp_path: Path) -> None:
    with ResultStore(tmp_path / "r.sqlite") as store:
        assert store.put("toy(1)", "grid", {"a": 1}, version="1", seconds=0.5)
        assert not store.put("toy(1)", "grid", {"a": 2}, version="1")
        assert store.put("toy(1)", "grid", {"a": 3}, version="2")
        assert store.put("toy(1)", "exact", {"a": 4}, version="1")
        assert store.count() == 3
        found = store.get("toy(1)", "grid", "1")
        assert found is not None and found.payload == {"a": 1} and found.seconds == 0.5
        assert store.get("toy(1)") is not None
        assert store.get("toy(2)") is None
        assert store.present(["toy(1)", "toy(2)"], "grid", "1") == {"toy(1)"}


def test_durability_settings(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    with ResultStore(path) as store:
        store.put("x", "m", {}, version="1")
        (sync,) = store._db.execute("PRAGMA synchronous").fetchone()
        assert sync == 2  # FULL
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        indexes = raw.execute("PRAGMA index_list(results)").fetchall()
        assert any(row[2] == 1 for row in indexes)  # the UNIQUE(spec, method, version) index


def test_store_path_resolution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NIMLAB_STORE", str(tmp_path / "env.sqlite"))
    assert resolve_store_path(None) == tmp_path / "env.sqlite"
    assert resolve_store_path(str(tmp_path / "opt.sqlite")) == tmp_path / "opt.sqlite"
    monkeypatch.delenv("NIMLAB_STORE")
    assert resolve_store_path(None).name == "results.sqlite"


def test_bad_store_paths(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="directory"):
        ResultStore(tmp_path)
    with pytest.raises(ValueError, match="no results store"):
        ResultStore(tmp_path / "missing.sqlite", create=False)
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database, clearly, and long enough to be read as one" * 20)
    with pytest.raises(ValueError, match="is not an SQLite database"):
        ResultStore(junk)


def test_cached_result_computes_once(tmp_path: Path) -> None:
    calls: list[int] = []

    def compute() -> dict[str, Any]:
        calls.append(1)
        return {"v": len(calls)}

    path = tmp_path / "r.sqlite"
    assert cached_result(path, "s", "m", compute, version="1") == ({"v": 1}, False)
    assert cached_result(path, "s", "m", compute, version="1") == ({"v": 1}, True)
    assert cached_result(path, "s", "m", compute, version="2") == ({"v": 2}, False)


@pytest.mark.parametrize("fmt", ["csv", "json", "parquet"])
def test_export_round_trip(tmp_path: Path, fmt: str) -> None:
    with ResultStore(tmp_path / "r.sqlite") as store:
        for k in range(3):
            store.put(f"toy({k + 1})", "grid", {"position": [k + 1]}, version="1")
        out = tmp_path / f"out.{fmt}"
        assert export_results(store, out, prefix="toy(") == 3
    if fmt == "csv":
        with out.open() as handle:
            rows = list(csv.DictReader(handle))
        payloads = [json.loads(row["payload"]) for row in rows]
    elif fmt == "json":
        payloads = [row["payload"] for row in json.loads(out.read_text())["results"]]
    else:
        import pyarrow.parquet as pq

        payloads = [json.loads(text) for text in pq.read_table(out).column("payload").to_pylist()]
    assert payloads == [{"position": [1]}, {"position": [2]}, {"position": [3]}]


def _write_many(path: str, start: int, count: int) -> None:
    with ResultStore(path) as store:
        for k in range(start, start + count):
            store.put(f"toy({k})", "grid", {"k": k}, version="1")


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "r.sqlite")
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_write_many, args=(path, s, 150)) for s in (0, 100, 50)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(60)
        assert writer.exitcode == 0
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT spec, COUNT(*) FROM results GROUP BY spec").fetchall()
    assert len(rows) == 250 and all(count == 1 for _, count in rows)


# The shape of a stored Scoring Nim record (nimlab.store.shapes), values made up.
RECORD = {
    "position": [2, 1],
    "breakpoints": [],
    "slope_left": 1,
    "slope_right": 1,
    "value_at_0": "3",
    "intervals": [],
}


def test_store_cli(cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "r.sqlite"
    with ResultStore(path) as store:
        store.put("scoring(2,1)", "grid", RECORD, version="1")
    ls = cli("store", "ls", "--store", str(path), "--json")
    assert ls.code == 0, ls.err
    (row,) = ls.json()["results"]
    assert {"spec", "method", "created"} <= set(row) and row["spec"] == "scoring(2,1)"
    shown = cli("store", "show", "scoring(1,2)", "--store", str(path), "--json")
    assert shown.code == 0 and shown.json() == {**RECORD, "cached": True}
    monkeypatch.setenv("NIMLAB_STORE", str(path))
    shown = cli("store", "show", "scoring(2,1)", "--json")
    assert shown.json() == {**RECORD, "cached": True}
    assert "scoring(2,1)" in cli("store", "ls").out
    missing = cli("store", "show", "scoring(3)", "--json")
    assert missing.code == 2 and missing.err.startswith("error: no result for 'scoring(3)'")
    exported = cli("store", "export", str(tmp_path / "all.json"), "--json")
    assert exported.code == 0 and exported.json()["count"] == 1
    bad = cli("store", "export", str(tmp_path / "all.xlsx"))
    assert bad.code == 2 and "unknown export format" in bad.err


def test_store_ls_of_a_missing_store_is_empty(cli: Any, tmp_path: Path) -> None:
    r = cli("store", "ls", "--store", str(tmp_path / "none.sqlite"), "--json")
    assert r.code == 0 and r.json()["results"] == []
    assert not (tmp_path / "none.sqlite").exists()

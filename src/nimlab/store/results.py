"""The SQLite results store: one durable row per (spec, method, version), written at once.

Every result is committed in its own transaction (WAL journal, ``synchronous=FULL``), so a
process killed at any moment loses nothing it had finished. ``UNIQUE(spec, method, version)``
with ``INSERT OR IGNORE`` means a rerun or a second writer never duplicates a row; the first
writer wins. ``busy_timeout`` lets several processes write to one file at once.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "results.sqlite"
>>> with ResultStore(path) as store:
...     store.put("octal(0.07;upto=3)", "auto", {"values": [0, 0, 1, 1]}, version="0.1.0")
...     store.put("octal(0.07;upto=3)", "auto", {"values": [9]}, version="0.1.0")
...     store.get("octal(0.07;upto=3)").payload
True
False
{'values': [0, 0, 1, 1]}
>>> with ResultStore(path) as store:
...     [(r.spec, r.method, r.version) for r in store.results()]
[('octal(0.07;upto=3)', 'auto', '0.1.0')]
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from nimlab.errors import InvalidPositionError

__all__ = [
    "STORE_ENV",
    "ResultStore",
    "StoredResult",
    "current_version",
    "default_store_path",
    "resolve_store_path",
]

STORE_ENV = "NIMLAB_STORE"
"""The environment variable naming the store file (``--store`` wins over it)."""

_BUSY_TIMEOUT_MS = 60_000
_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY,
    spec TEXT NOT NULL,
    method TEXT NOT NULL,
    version TEXT NOT NULL,
    payload TEXT NOT NULL,
    created TEXT NOT NULL,
    seconds REAL,
    UNIQUE (spec, method, version)
)
"""


def current_version() -> str:
    """``nimlab.__version__``: the version part of every store key."""
    from nimlab import __version__

    return __version__


def default_store_path() -> Path:
    """``results.sqlite`` under the user's data directory (``platformdirs``)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("nimlab")) / "results.sqlite"


def resolve_store_path(option: str | os.PathLike[str] | None = None) -> Path:
    """The store file: ``option`` (``--store``) if given, else ``$NIMLAB_STORE``, else the default.

    >>> resolve_store_path("/tmp/x.sqlite").name
    'x.sqlite'
    """
    if option is not None and str(option) != "":
        return Path(option)
    from_env = os.environ.get(STORE_ENV, "")
    return Path(from_env) if from_env else default_store_path()


@dataclass(frozen=True)
class StoredResult:
    """One row of the store; ``payload`` is the JSON object the computation returned."""

    spec: str
    method: str
    version: str
    created: str
    seconds: float | None
    payload: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The row without its payload (what ``nimlab store ls`` lists)."""
        return {
            "spec": self.spec,
            "method": self.method,
            "version": self.version,
            "created": self.created,
            "seconds": self.seconds,
        }


class ResultStore:
    """A results file opened for reading and writing; use it as a context manager.

    ``create=False`` refuses to create a missing file (for read-only commands).
    """

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise InvalidPositionError(f"no results store at {str(self.path)!r}")
        if self.path.is_dir():
            raise InvalidPositionError(f"store path {str(self.path)!r} is a directory")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(
                self.path, timeout=_BUSY_TIMEOUT_MS / 1000, isolation_level=None
            )
            self._setup()
        except sqlite3.DatabaseError as error:
            raise InvalidPositionError(
                f"cannot open results store {str(self.path)!r}: {error}"
            ) from None

    def _setup(self) -> None:
        """WAL journal, full durability, wait for other writers; create the table."""
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
        deadline = time.monotonic() + _BUSY_TIMEOUT_MS / 1000
        while True:  # switching to WAL needs a moment alone with the file
            try:
                db.execute("PRAGMA journal_mode = WAL")
                db.execute(_SCHEMA)
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        db.execute("PRAGMA synchronous = FULL")

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (every result is already committed)."""
        self._db.close()

    def put(
        self,
        spec: str,
        method: str,
        payload: dict[str, Any],
        *,
        version: str,
        seconds: float | None = None,
    ) -> bool:
        """Store one result in its own committed transaction; ``False`` if it was there already."""
        created = datetime.now(UTC).isoformat(timespec="milliseconds")
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO results (spec, method, version, payload, created, seconds) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (spec, method, version, json.dumps(payload), created, seconds),
        )
        return cursor.rowcount == 1

    def get(
        self, spec: str, method: str | None = None, version: str | None = None
    ) -> StoredResult | None:
        """The result stored for ``spec`` (newest first if method or version are left open)."""
        rows = list(self._select(spec=spec, method=method, version=version, newest_first=True))
        return rows[0] if rows else None

    def present(self, specs: Iterable[str], method: str, version: str) -> set[str]:
        """Which of ``specs`` already have a result for ``method`` and ``version``."""
        wanted = set(specs)
        cursor = self._db.execute(
            "SELECT spec FROM results WHERE method = ? AND version = ?", (method, version)
        )
        return {spec for (spec,) in cursor if spec in wanted}

    def results(self, *, prefix: str = "") -> list[StoredResult]:
        """Every stored result (optionally only specs starting with ``prefix``), oldest first."""
        return [row for row in self._select() if row.spec.startswith(prefix)]

    def count(self) -> int:
        """How many results are stored."""
        (total,) = self._db.execute("SELECT COUNT(*) FROM results").fetchone()
        return int(total)

    def _select(
        self,
        *,
        spec: str | None = None,
        method: str | None = None,
        version: str | None = None,
        newest_first: bool = False,
    ) -> Iterator[StoredResult]:
        clauses, args = [], []
        for column, value in (("spec", spec), ("method", method), ("version", version)):
            if value is not None:
                clauses.append(f"{column} = ?")
                args.append(value)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        order = "DESC" if newest_first else "ASC"
        cursor = self._db.execute(
            "SELECT spec, method, version, created, seconds, payload FROM results"
            f"{where} ORDER BY id {order}",
            args,
        )
        for spec_, method_, version_, created, seconds, payload in cursor:
            yield StoredResult(spec_, method_, version_, created, seconds, json.loads(payload))

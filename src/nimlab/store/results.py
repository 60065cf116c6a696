"""The SQLite results store: one durable row per (spec, method, version), written at once.

Every result is committed in its own transaction (WAL journal, ``synchronous=FULL``), so a
process killed at any moment loses nothing it had finished. ``UNIQUE(spec, method, version)``
with ``INSERT OR IGNORE`` means a rerun or a second writer never duplicates a row; the first
writer wins. ``busy_timeout`` lets several processes write to one file at once.

A file that is not a results store (a directory, garbage, a truncated or foreign database, an
unreadable file) is refused with :class:`~nimlab.errors.InvalidPositionError` naming the file
and what to do, before anything is written to it: the file is never modified. A *damaged* row,
whose payload is not a JSON object or lacks what its kind of result holds
(:func:`~nimlab.store.shapes.payload_problem`: ``{}``, wrong types, a table cut short), is
never served: :meth:`ResultStore.get` reports it once on stderr and passes over it (the caller
recomputes), :meth:`ResultStore.put` replaces it, :meth:`ResultStore.present` does not count it
and :meth:`ResultStore.scan` lists it apart, so one bad row never hides the others.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "results.sqlite"
>>> with ResultStore(path) as store:
...     table = {"values": [0, 0, 1, 1], "period": None, "preperiod": None}
...     store.put("octal(0.07;upto=3)", "auto", table, version="0.1.0")
...     store.put("octal(0.07;upto=3)", "auto", {**table, "values": [9]}, version="0.1.0")
...     store.get("octal(0.07;upto=3)").payload["values"]
True
False
[0, 0, 1, 1]
>>> with ResultStore(path) as store:
...     [(r.spec, r.method, r.version) for r in store.results()]
[('octal(0.07;upto=3)', 'auto', '0.1.0')]
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from nimlab.errors import InvalidPositionError
from nimlab.store.shapes import payload_problem

__all__ = [
    "STORE_ENV",
    "ResultStore",
    "StoredResult",
    "UnreadableResult",
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
_COLUMNS = {"id", "spec", "method", "version", "payload", "created", "seconds"}
_SQLITE_HEADER = b"SQLite format 3\x00"
_ADVICE = "it was left as it is: move it away or choose another store file"


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


def _refused(path: Path, problem: str) -> InvalidPositionError:
    """The one-line error for a store file that cannot be used as it is."""
    return InvalidPositionError(f"results store {str(path)!r} {problem}; {_ADVICE}")


def _check_file(path: Path) -> None:
    """Raise if ``path`` cannot be a results store (missing or empty is fine: a new store),
    judging by its 100-byte header and size only."""
    if path.is_dir():
        raise _refused(path, "is a directory")
    if path.exists() and not path.is_file():  # a device or a pipe: never opened
        raise _refused(path, "is not a regular file")
    try:
        with path.open("rb") as handle:
            head = handle.read(100)
            size = os.fstat(handle.fileno()).st_size
    except FileNotFoundError:
        return
    except OSError as error:
        raise _refused(path, f"cannot be read ({error.strerror or error})") from None
    if size == 0:
        return
    if len(head) < 100 or not head.startswith(_SQLITE_HEADER):
        raise _refused(path, "is not an SQLite database")
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    if page < 512 or page & (page - 1):
        raise _refused(path, "is not an SQLite database (bad page size)")
    pages = int.from_bytes(head[28:32], "big")  # valid when written with the change counter
    counted = head[92:96] == head[24:28] and not Path(f"{path}-wal").exists()
    if size % page or (counted and pages * page > size):
        raise _refused(path, f"is truncated ({size} bytes, pages of {page} bytes)")


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


@dataclass(frozen=True)
class UnreadableResult:
    """A row whose payload is not a JSON object: listed, never served."""

    spec: str
    method: str
    version: str
    created: str
    problem: str

    def to_json(self) -> dict[str, Any]:
        """The row's key and what is wrong with it."""
        return {
            "spec": self.spec,
            "method": self.method,
            "version": self.version,
            "created": self.created,
            "problem": self.problem,
        }


def _payload(text: object, spec: str = "") -> dict[str, Any] | str:
    """A stored payload as its JSON object, or what is wrong with it (for ``spec``'s kind).

    >>> _payload('{"a": 1}'), _payload("[1, 2]"), _payload("{")
    ({'a': 1}, 'its payload is an array, not a JSON object', 'its payload is not JSON')
    >>> _payload('{"value": 1}', "sn(3,3,1)")
    "its payload has 'value' of the wrong type"
    """
    try:
        value = json.loads(text) if isinstance(text, str | bytes) else None
    except ValueError:
        return "its payload is not JSON"
    if not isinstance(value, dict):
        kinds = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
        return f"its payload is {kinds.get(type(value), 'a number')}, not a JSON object"
    problem = payload_problem(spec, value)
    return value if problem is None else f"its payload has {problem}"


_REPORTED: set[tuple[str, str, str, str]] = set()
"""The damaged rows already reported by this process (each is reported once)."""


def _report_damaged(path: Path, row: UnreadableResult, then: str) -> None:
    """One line on stderr for a damaged row, the first time this process meets it."""
    key = (str(path), row.spec, row.method, row.version)
    if key in _REPORTED:
        return
    _REPORTED.add(key)
    sys.stderr.write(
        f"store {path}: row for {row.spec} ({row.method}, nimlab {row.version}) is damaged"
        f" ({row.problem}); {then}\n"
    )


class ResultStore:
    """A results file opened for reading and writing; use it as a context manager.

    ``create=False`` refuses to create a missing file (for read-only commands), and leaves an
    empty file empty.
    """

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise InvalidPositionError(f"no results store at {str(self.path)!r}")
        _check_file(self.path)
        if create:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise _refused(
                    self.path, f"cannot be created ({error.strerror or error})"
                ) from None
        try:
            self._db = sqlite3.connect(
                self.path, timeout=_BUSY_TIMEOUT_MS / 1000, isolation_level=None
            )
        except sqlite3.Error as error:
            raise _refused(self.path, f"cannot be opened ({error})") from None
        try:
            ours = self._check_schema()
            self._empty = not ours and not create
            if not self._empty:
                with self._guard():
                    self._setup(new=not ours)
        except BaseException:
            self._db.close()
            raise

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """SQLite's errors on this file as one-line nimlab errors naming it."""
        try:
            yield
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                raise InvalidPositionError(
                    f"results store {str(self.path)!r} is locked by another process ({error});"
                    " try again when it is done"
                ) from None
            raise _refused(self.path, f"cannot be used ({error})") from None
        except sqlite3.Error as error:
            raise _refused(self.path, f"is damaged ({error})") from None

    def _check_schema(self) -> bool:
        """Whether the file already has nimlab's table; raises for another program's tables
        (read only: nothing is written before this passes)."""
        with self._guard():
            self._db.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
            names = [name for (name,) in self._db.execute("SELECT name FROM sqlite_master")]
            if "results" not in names:
                if names:
                    shown = ", ".join(sorted(names)[:5])
                    raise _refused(self.path, f"holds another program's tables ({shown})")
                return False
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(results)")}
        if not columns >= _COLUMNS:
            missing = ", ".join(sorted(_COLUMNS - columns))
            raise _refused(self.path, f"has a table 'results' that is not nimlab's (no {missing})")
        return True

    def _setup(self, *, new: bool) -> None:
        """Full durability; for a ``new`` store, the WAL journal and the table (an existing
        file keeps its journal mode: nothing is written to it before a result is stored)."""
        db = self._db
        db.execute("PRAGMA synchronous = FULL")
        if not new:
            return
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
        text = json.dumps(payload)
        with self._guard():
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO results (spec, method, version, payload, created, seconds) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (spec, method, version, text, created, seconds),
            )
            if cursor.rowcount == 1:
                return True
            # the key is taken: by a good row (the first writer wins), or by a damaged one,
            # which this result replaces
            cursor = self._db.execute(
                "UPDATE results SET payload = ?, created = ?, seconds = ?"
                " WHERE spec = ? AND method = ? AND version = ? AND id = ?",
                (
                    text,
                    created,
                    seconds,
                    spec,
                    method,
                    version,
                    self._damaged_id(spec, method, version),
                ),
            )
        return cursor.rowcount == 1

    def _damaged_id(self, spec: str, method: str, version: str) -> int:
        """The id of the row of this key if it is damaged, else -1 (no row has it)."""
        row = self._db.execute(
            "SELECT id, payload FROM results WHERE spec = ? AND method = ? AND version = ?",
            (spec, method, version),
        ).fetchone()
        if row is None or not isinstance(_payload(row[1], spec), str):
            return -1
        return int(row[0])

    def get(
        self,
        spec: str,
        method: str | Collection[str] | None = None,
        version: str | None = None,
        *,
        then: str | None = "recomputing",
    ) -> StoredResult | None:
        """The result stored for ``spec`` by ``method`` (or by any of several methods), newest
        first if method or version are left open. A damaged row is passed over, and reported
        once on stderr (``store S: row for sn(3,3,1) ... is damaged (...); recomputing``,
        ``then`` ending the line; ``None``: not reported).

        >>> import tempfile, pathlib
        >>> with ResultStore(pathlib.Path(tempfile.mkdtemp()) / "r.sqlite") as store:
        ...     _ = store.put("toy(1)", "lp", {"value": "1"}, version="1")
        ...     store.get("toy(1)", ("auto", "lp"), "1").method, store.get("toy(1)", "auto")
        ('lp', None)
        """
        methods = [method] if isinstance(method, str) else method
        for row in self._select(spec=spec, methods=methods, version=version, newest_first=True):
            if isinstance(row, UnreadableResult):
                if then is not None:
                    _report_damaged(self.path, row, then)
                continue
            return row
        return None

    def present(
        self, specs: Iterable[str], method: str | Collection[str], version: str
    ) -> set[str]:
        """Which of ``specs`` already have a result by ``method`` (or one of several methods)
        for ``version`` (a damaged row does not count: it is to be computed again)."""
        wanted = set(specs)
        methods = [method] if isinstance(method, str) else list(method)
        if self._empty or not methods:
            return set()
        marks = ", ".join("?" * len(methods))
        with self._guard():
            cursor = self._db.execute(
                f"SELECT spec, payload FROM results WHERE method IN ({marks}) AND version = ?",
                (*methods, version),
            )
            return {
                spec
                for (spec, text) in cursor
                if spec in wanted and not isinstance(_payload(text, spec), str)
            }

    def scan(self, *, prefix: str = "") -> tuple[list[StoredResult], list[UnreadableResult]]:
        """Every row (spec starting with ``prefix``), oldest first: the readable results and,
        apart, the rows whose payload is not a JSON object."""
        good: list[StoredResult] = []
        bad: list[UnreadableResult] = []
        for row in self._select():
            if row.spec.startswith(prefix):
                (bad if isinstance(row, UnreadableResult) else good).append(row)  # type: ignore[arg-type]
        return good, bad

    def results(self, *, prefix: str = "") -> list[StoredResult]:
        """Every readable result (optionally only specs starting with ``prefix``), oldest first."""
        return self.scan(prefix=prefix)[0]

    def count(self) -> int:
        """How many results are stored."""
        if self._empty:
            return 0
        with self._guard():
            (total,) = self._db.execute("SELECT COUNT(*) FROM results").fetchone()
        return int(total)

    def _select(
        self,
        *,
        spec: str | None = None,
        methods: Collection[str] | None = None,
        version: str | None = None,
        newest_first: bool = False,
    ) -> Iterator[StoredResult | UnreadableResult]:
        if self._empty:
            return
        clauses: list[str] = []
        args: list[str] = []
        for column, value in (("spec", spec), ("version", version)):
            if value is not None:
                clauses.append(f"{column} = ?")
                args.append(value)
        if methods is not None:
            clauses.append(f"method IN ({', '.join('?' * len(methods))})")
            args.extend(methods)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        order = "DESC" if newest_first else "ASC"
        with self._guard():
            rows = self._db.execute(
                "SELECT spec, method, version, created, seconds, payload FROM results"
                f"{where} ORDER BY id {order}",
                args,
            ).fetchall()
        for spec_, method_, version_, created, seconds, text in rows:
            payload = _payload(text, str(spec_))
            if isinstance(payload, str):
                yield UnreadableResult(
                    str(spec_), str(method_), str(version_), str(created), payload
                )
            else:
                yield StoredResult(spec_, method_, version_, created, seconds, payload)

"""Serve a costly computation from the store, computing and storing it on a miss.

For commands that take ``--store``: the first request computes and stores, an identical second
request (same spec and nimlab version, and a method the request accepts: see
:mod:`nimlab.specs`) is read back. Single commands use ``--store PATH``, else
``$NIMLAB_STORE``, else the user's default store, unless ``--no-store``: see
:func:`command_store_path`. A store file that is not a
results store is refused (:class:`~nimlab.errors.InvalidPositionError`) before any work.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "r.sqlite"
>>> calls = []
>>> def compute():
...     calls.append(1)
...     return {"values": [0, 1]}
>>> cached_result(path, "demo(1)", "plain", compute)
({'values': [0, 1]}, False)
>>> cached_result(path, "demo(1)", "plain", compute)
({'values': [0, 1]}, True)
>>> cached_result(path, "demo(1)", "auto", compute, accepts=("auto", "plain"))
({'values': [0, 1]}, True)
>>> len(calls)
1
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from nimlab.errors import NimlabError
from nimlab.store import results
from nimlab.store.results import STORE_ENV, ResultStore, current_version

__all__ = ["cached_result", "command_store_path"]


def command_store_path(
    option: str | os.PathLike[str] | None, *, no_store: bool = False
) -> Path | None:
    """The store a single command (``grundy``, ``scoring``, ``solve``) uses, or None.

    ``--no-store`` (``no_store``): none. Else ``--store PATH``; else ``$NIMLAB_STORE`` (set
    but empty: none); else the user's default store
    (:func:`~nimlab.store.results.default_store_path`), so that a
    repeated expensive command is answered from it. A default store that cannot be used
    (unwritable, or not a results store) is skipped with a warning on stderr; a store named
    by ``--store`` or ``$NIMLAB_STORE`` is refused instead (the user asked for it).

    >>> import os
    >>> os.environ["NIMLAB_STORE"] = ""
    >>> command_store_path(None), command_store_path("/tmp/r.sqlite").name
    (None, 'r.sqlite')
    >>> command_store_path("/tmp/r.sqlite", no_store=True) is None
    True
    >>> _ = os.environ.pop("NIMLAB_STORE")
    """
    if no_store:
        return None
    if option is not None and str(option) != "":
        return Path(option)
    if STORE_ENV in os.environ:
        from_env = os.environ[STORE_ENV]
        return Path(from_env) if from_env else None
    path = results.default_store_path()
    try:
        with ResultStore(path):
            pass
    except (NimlabError, OSError, sqlite3.Error) as error:
        sys.stderr.write(f"warning: not using the default results store: {error}\n")
        return None
    return path


def cached_result(
    store_path: str | os.PathLike[str],
    spec: str,
    method: str,
    compute: Callable[[], dict[str, Any]],
    *,
    accepts: Collection[str] | None = None,
    version: str | None = None,
    recorded: Callable[[dict[str, Any]], str] | None = None,
) -> tuple[dict[str, Any], bool]:
    """``(payload, served_from_store)`` for ``spec`` computed by ``method``; a stored row of
    any method in ``accepts`` (default: ``method`` only) serves it. A new row records the
    method ``recorded(payload)`` names (default: ``method``): the one that actually ran.

    ``version`` defaults to ``nimlab.__version__``. The store is not held open while computing.
    """
    version = current_version() if version is None else version
    with ResultStore(store_path) as store:
        hit = store.get(spec, (method,) if accepts is None else accepts, version)
    if hit is not None:
        return hit.payload, True
    start = time.perf_counter()
    payload = compute()
    seconds = time.perf_counter() - start
    with ResultStore(store_path) as store:
        ran = method if recorded is None else recorded(payload)
        store.put(spec, ran, payload, version=version, seconds=seconds)
    return payload, False

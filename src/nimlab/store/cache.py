"""Serve a costly computation from the store, computing and storing it on a miss.

For commands that take ``--store``: the first request computes and stores, an identical second
request (same spec and nimlab version, and a method the request accepts: see
:mod:`nimlab.specs`) is read back. Single commands use a store only when asked (``--store
PATH`` or ``$NIMLAB_STORE``): see :func:`command_store_path`. A store file that is not a
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
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from nimlab.store.results import STORE_ENV, ResultStore, current_version

__all__ = ["cached_result", "command_store_path"]


def command_store_path(option: str | os.PathLike[str] | None) -> Path | None:
    """The store a single command (``grundy``, ``scoring``, ``solve``) uses, or None.

    Unlike a sweep, a single command only reads and writes a store when asked to:
    ``--store PATH`` wins, else ``$NIMLAB_STORE``; with neither, nothing is written.

    >>> import os
    >>> _ = os.environ.pop("NIMLAB_STORE", None)
    >>> command_store_path(None) is None, command_store_path("/tmp/r.sqlite").name
    (True, 'r.sqlite')
    """
    if option is not None and str(option) != "":
        return Path(option)
    from_env = os.environ.get(STORE_ENV, "")
    return Path(from_env) if from_env else None


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

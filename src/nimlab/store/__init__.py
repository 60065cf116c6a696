"""The embedded results store (SQLite, WAL, one committed row per finished result).

>>> import tempfile, pathlib
>>> with ResultStore(pathlib.Path(tempfile.mkdtemp()) / "r.sqlite") as store:
...     store.count()
0
"""

from nimlab.store.cache import cached_result, command_store_path
from nimlab.store.export import EXPORT_FORMATS, export_results
from nimlab.store.results import (
    STORE_ENV,
    ResultStore,
    StoredResult,
    current_version,
    default_store_path,
    resolve_store_path,
)

__all__ = [
    "EXPORT_FORMATS",
    "STORE_ENV",
    "ResultStore",
    "StoredResult",
    "cached_result",
    "command_store_path",
    "current_version",
    "default_store_path",
    "export_results",
    "resolve_store_path",
]

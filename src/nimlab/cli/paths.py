"""Output files of commands: refuse, before any work, a path that cannot take the file.

A command that writes a file (``export-efg``, ``solve --draw``, ``scoring --plot``) calls
:func:`output_path` first, so that a bad path costs one line of error and no computation, and
:func:`writing` around the writing, so that a failure while writing (a full disk) names the file.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> output_path(folder / "game.efg", "game file") == folder / "game.efg"
True
>>> output_path(folder, "game file")  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
nimlab.errors.InvalidPositionError: cannot write the game file ...: it is a directory
>>> output_path(folder / "missing" / "game.efg", "game file")  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
nimlab.errors.InvalidPositionError: cannot write the game file ...: folder ... does not exist
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from nimlab.errors import InvalidPositionError

__all__ = ["output_path", "writing"]

# Kernel file systems: their files look regular (``/proc/version``) or are devices
# (``/dev/full``), and writing there either fails late or does something else than store a file.
_SYSTEM_ROOTS = ("/proc", "/sys", "/dev")


def _system_devices() -> set[int]:
    devices = set()
    for root in _SYSTEM_ROOTS:
        try:
            devices.add(os.stat(root).st_dev)
        except OSError:
            continue
    return devices


def output_path(path: Path, what: str) -> Path:
    """Return ``path`` if a file (called ``what`` in messages) can be written there.

    Refused with :class:`~nimlab.errors.InvalidPositionError`: a directory, a missing or
    non-directory parent, an existing special file (device, pipe, socket), a file of a kernel
    file system (``/proc``, ``/sys``, ``/dev``), and a file or folder without write permission.
    """
    name = f"cannot write the {what} {str(path)!r}"
    parent = path.parent
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise InvalidPositionError(f"{name}: {error.strerror}") from None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise InvalidPositionError(f"{name}: it is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise InvalidPositionError(f"{name}: it is not a regular file")
        if info.st_dev in _system_devices():
            raise InvalidPositionError(f"{name}: it belongs to a system file system")
        if not os.access(path, os.W_OK):
            raise InvalidPositionError(f"{name}: permission denied")
        return path
    if not parent.is_dir():
        missing = "is not a folder" if parent.exists() else "does not exist"
        raise InvalidPositionError(f"{name}: folder {str(parent)!r} {missing}")
    if parent.stat().st_dev in _system_devices():
        raise InvalidPositionError(f"{name}: it would be in a system file system")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InvalidPositionError(f"{name}: permission denied in folder {str(parent)!r}")
    return path


@contextmanager
def writing(path: Path, what: str) -> Iterator[Path]:
    """Around the code that writes ``path``: an OS failure (a full disk) becomes an
    :class:`~nimlab.errors.InvalidPositionError` naming the file and the reason.

    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "out.txt"
    >>> with writing(target, "output file") as path:
    ...     _ = path.write_text("hello", encoding="utf-8")
    >>> target.read_text(encoding="utf-8")
    'hello'
    >>> with writing(Path("/dev/full"), "log") as path:  # doctest: +ELLIPSIS
    ...     _ = path.write_text("hello", encoding="utf-8")
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: cannot write the log '/dev/full': No space left on ...
    """
    try:
        yield path
    except OSError as error:
        reason = error.strerror or str(error)
        raise InvalidPositionError(f"cannot write the {what} {str(path)!r}: {reason}") from None

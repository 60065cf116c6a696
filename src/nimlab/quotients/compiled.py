"""Calling the compiled searches of :mod:`nimlab.quotients.kernels`: loading, and a deadline.

Long array loops outside the kernels call :func:`check`, which raises once the deadline set
by :func:`deadline` (a ``with`` block, as the solver does for each heap) has passed.

The kernels take a one-entry stop flag they read every few thousand steps; :func:`run` sets it
from a timer thread at the deadline, and the caller turns the kernel's "stopped" answer into
:class:`SearchStoppedError`. Without numba (an optional extra) :func:`kernel` is None and the
callers search in Python.

>>> import numpy as np
>>> refine = kernel("refine")
>>> done, label = run(refine, (np.array([0, 0, 1]), np.array([[1, 2, 2]])), None)
>>> bool(done), label.tolist()
(True, [0, 1, 2])
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np

from nimlab.errors import TooLargeError

__all__ = ["SearchStoppedError", "check", "deadline", "kernel", "run"]

_DEADLINE: ContextVar[float | None] = ContextVar("deadline", default=None)


class SearchStoppedError(TooLargeError):
    """A compiled search was stopped at its deadline before it ended."""

    def __init__(self, message: str = "a compiled search was stopped at its deadline") -> None:
        super().__init__(message)


def kernel(name: str) -> Any:
    """The compiled function ``name`` of :mod:`nimlab.quotients.kernels`, or None without
    numba."""
    try:
        from nimlab.quotients import kernels
    except ImportError:  # pragma: no cover - numba is an optional extra
        return None
    return getattr(kernels, name)


def run(function: Any, args: tuple[Any, ...], stop_at: float | None) -> Any:
    """``function(*args, stop)``, a timer setting the flag ``stop`` at ``stop_at`` (a
    ``time.monotonic`` value); SearchStoppedError when ``stop_at`` has already passed."""
    stop = np.zeros(1, dtype=np.uint8)
    if stop_at is None:
        return function(*args, stop)
    left = stop_at - time.monotonic()
    if left <= 0:
        raise SearchStoppedError("a compiled search was due to start after its deadline")
    timer = threading.Timer(left, stop.fill, (1,))
    timer.daemon = True
    timer.start()
    try:
        return function(*args, stop)
    finally:
        timer.cancel()


@contextmanager
def deadline(stop_at: float | None) -> Iterator[None]:
    """Within the block, :func:`check` raises past ``stop_at`` (a ``time.monotonic``
    value; None: never)."""
    token = _DEADLINE.set(stop_at)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check() -> None:
    """SearchStoppedError when the deadline of the enclosing :func:`deadline` block passed.

    >>> with deadline(0.0):
    ...     check()
    Traceback (most recent call last):
    ...
    nimlab.quotients.compiled.SearchStoppedError: the deadline passed during a computation
    """
    at = _DEADLINE.get()
    if at is not None and time.monotonic() > at:
        raise SearchStoppedError("the deadline passed during a computation")

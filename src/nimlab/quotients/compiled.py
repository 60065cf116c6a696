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

__all__ = ["SearchStoppedError", "check", "current", "deadline", "kernel", "run"]

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
    """``function(*args, stop)``, the watchdog thread setting the flag ``stop`` at
    ``stop_at`` (a ``time.monotonic`` value); SearchStoppedError when ``stop_at`` has
    already passed."""
    stop = np.zeros(1, dtype=np.uint8)
    if stop_at is None:
        return function(*args, stop)
    if stop_at <= time.monotonic():
        raise SearchStoppedError("a compiled search was due to start after its deadline")
    token = _WATCHDOG.watch(stop, stop_at)
    try:
        return function(*args, stop)
    finally:
        _WATCHDOG.forget(token)


class _Watchdog:
    """One daemon thread per process that sets each watched flag at its time (a thread
    started per search costs milliseconds on a loaded machine; this costs a lock)."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.jobs: dict[int, tuple[float, np.ndarray]] = {}
        self.count = 0
        self.waking = float("inf")  # when the thread wakes up next
        self.thread: threading.Thread | None = None

    def watch(self, flag: np.ndarray, at: float) -> int:
        with self.cond:
            self.count += 1
            self.jobs[self.count] = (at, flag)
            if self.thread is None:
                self.thread = threading.Thread(
                    target=self.loop, name="nimlab-deadline", daemon=True
                )
                self.thread.start()
            if at < self.waking:
                self.cond.notify()
            return self.count

    def forget(self, token: int) -> None:
        with self.cond:
            self.jobs.pop(token, None)

    def loop(self) -> None:
        with self.cond:
            while True:
                now = time.monotonic()
                for token, (at, flag) in list(self.jobs.items()):
                    if at <= now:
                        flag.fill(1)
                        del self.jobs[token]
                self.waking = min((at for at, _ in self.jobs.values()), default=float("inf"))
                self.cond.wait(None if self.waking == float("inf") else self.waking - now)


_WATCHDOG = _Watchdog()


@contextmanager
def deadline(stop_at: float | None) -> Iterator[None]:
    """Within the block, :func:`check` raises past ``stop_at`` (a ``time.monotonic``
    value; None: never)."""
    token = _DEADLINE.set(stop_at)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def current() -> float | None:
    """The deadline of the enclosing :func:`deadline` block (None: none)."""
    return _DEADLINE.get()


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

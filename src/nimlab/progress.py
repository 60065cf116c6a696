"""Progress of long computations, heard by whoever listens.

A deep loop (an octal engine's chunks, the Scoring Nim move table) calls :func:`report` with a
line in words; a listener installed by :func:`listening` receives it. The command line listens
in :func:`nimlab.cli.app.progress_lines` and prints the lines on stderr, so a single long
``grundy`` or ``scoring`` computation shows it is alive without a callback threaded through
every layer. With nobody listening a report costs one context-variable lookup. (Functions
whose caller drives the steps, such as ``solve(progress=...)``, take a callback instead.)

>>> heard = []
>>> with listening(heard.append):
...     report("step 1 of 2")
>>> report("nobody hears this")
>>> heard
['step 1 of 2']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["listening", "report"]

_listener: ContextVar[Callable[[str], None] | None] = ContextVar("nimlab_progress", default=None)


@contextmanager
def listening(listener: Callable[[str], None]) -> Iterator[None]:
    """Send every :func:`report` made inside the block to ``listener``."""
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)


def report(line: str) -> None:
    """Tell the listener, if any, how far a computation has come."""
    listener = _listener.get()
    if listener is not None:
        listener(line)

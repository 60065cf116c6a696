"""Run a job whose cost is hard to bound in advance in a child process, killed after a timeout.

Size limits bound most requests; a few jobs (Grundy tables of games without a fast sequence
algorithm) may still take long, and a thread cannot be stopped. Such a job runs in a forked
child process, killed when it outlives its time.

>>> run_guarded(_demo, 6, seconds=20)
{'square': 36}
>>> run_guarded(_demo, -1, seconds=20)
Traceback (most recent call last):
  ...
nimlab.errors.InvalidPositionError: negative -1
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from nimlab.errors import InvalidPositionError, NimlabError, TooLargeError

__all__ = ["run_guarded"]

# "fork": the child starts at once with everything already imported (the job functions live
# in modules of nimlab; no __main__ is re-run as with "spawn" or "forkserver").
_context = multiprocessing.get_context("fork")


def _demo(n: int, pause: float = 0.0) -> dict[str, int]:
    """A tiny job for the examples (and the tests: ``pause`` seconds first)."""
    time.sleep(pause)
    if n < 0:
        raise InvalidPositionError(f"negative {n}")
    return {"square": n * n}


def _work(pipe: Connection, job: Callable[..., dict[str, Any]], args: tuple[Any, ...]) -> None:
    try:
        pipe.send(("ok", job(*args)))
    except TooLargeError as error:
        pipe.send(("too-large", str(error)))
    except NimlabError as error:
        pipe.send(("bad", str(error)))
    except Exception as error:  # reported to the parent, which answers without a traceback
        pipe.send(("error", f"unexpected {type(error).__name__}"))
    finally:
        pipe.close()


def run_guarded(
    job: Callable[..., dict[str, Any]], *args: Any, seconds: float, what: str = "this job"
) -> dict[str, Any]:
    """``job(*args)`` (a module-level function returning JSON) in a child process.

    Raises TooLargeError if it takes longer than ``seconds``; nimlab errors of the job are
    raised again here (as ``InvalidPositionError`` or ``TooLargeError``).
    """
    receiver, sender = _context.Pipe(duplex=False)
    process = _context.Process(target=_work, args=(sender, job, args), daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(seconds):
            raise TooLargeError(
                f"{what} took more than {seconds:g} seconds, the playground's limit;"
                " use the command line for it",
                limit=int(seconds),
            )
        try:
            status, payload = receiver.recv()
        except EOFError:
            status, payload = "error", "the worker process died"
    finally:
        receiver.close()
        if process.is_alive():
            process.kill()
        process.join()
    if status == "ok":
        result: dict[str, Any] = payload
        return result
    if status == "too-large":
        raise TooLargeError(payload)
    if status == "bad":
        raise InvalidPositionError(payload)
    raise RuntimeError(payload)

"""Run each computing request in a forked child process under a time and a memory budget.

A thread cannot be stopped and one process cannot bound the memory of a single request, so the
playground runs every job whose cost is hard to bound (analysis, Grundy tables, Scoring Nim,
equilibria) in a child process forked for it: the child's address space is limited
(``RLIMIT_AS``), it is killed when it outlives the time budget, when its client goes away or
when the server stops. At most :attr:`JobLimits.workers` children run at once and at most
:attr:`JobLimits.queue` requests wait for one; beyond that, and when a budget is exceeded,
:class:`BudgetExceededError` is raised (HTTP 503). The memory each child may add is what the
server-wide ceiling leaves once the main process and its copies in the children are counted,
so the resident memory of the server and its children together stays below the ceiling.

>>> import asyncio
>>> pool = JobPool(JobLimits(seconds=20))
>>> asyncio.run(pool.run(_demo, 6, what="the demo"))
{'square': 36}
>>> asyncio.run(pool.run(_demo, -1, what="the demo"))
Traceback (most recent call last):
  ...
nimlab.errors.InvalidPositionError: negative -1
>>> asyncio.run(JobPool(JobLimits(seconds=0.2)).run(_demo, 2, 30.0, what="the demo"))
... # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
nimlab.web.guard.BudgetExceededError: the demo ran past the server's time budget of 0.2 s ...
"""

from __future__ import annotations

import asyncio
import ctypes
import math
import multiprocessing
import os
import resource
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from nimlab.budget import GIB, format_bytes
from nimlab.errors import InvalidPositionError, NimlabError, TooLargeError

__all__ = [
    "BudgetExceededError",
    "JobLimits",
    "JobPool",
    "resident_bytes",
]

# "fork": the child starts at once with everything already imported and the request's
# arguments in its memory (nothing is pickled on the way in; the result is, on the way out).
_context = multiprocessing.get_context("fork")

#: Smallest memory a child may add to the copy of the main process it starts as.
MIN_JOB_BYTES = 64 << 20
#: How often a waiting request looks at its child, its slot and its client (seconds).
_TICK = 0.02
_CLIENT_TICK = 0.25


class BudgetExceededError(Exception):
    """A job ran past its time or memory budget, or could not run (server busy or stopping)."""


@dataclass(frozen=True)
class JobLimits:
    """The playground's budgets: seconds per request, the server-wide resident memory ceiling
    (bytes, main process and children together), children at once, requests waiting.

    >>> JobLimits().job_bytes(100 << 20) >> 20  # 90% of 2 GiB less 3 copies of 100 MiB, halved
    771
    """

    seconds: float = 10.0
    memory: int = 2 * GIB
    workers: int = 2
    queue: int = 256

    def __post_init__(self) -> None:
        if not (self.seconds > 0 and self.workers >= 1 and self.queue >= 0 and self.memory > 0):
            raise InvalidPositionError(
                f"invalid server limits: seconds {self.seconds}, memory {self.memory},"
                f" workers {self.workers}, queue {self.queue} (need positive values)"
            )

    def job_bytes(self, main_bytes: int) -> int:
        """The memory each child may add when the main process holds ``main_bytes``: each
        child starts as a copy of the main process, so ``workers + 1`` copies are counted, and
        a tenth of the ceiling is kept for the main process to grow while children run."""
        usable = self.memory - self.memory // 10
        return (usable - (self.workers + 1) * main_bytes) // self.workers

    def check(self, main_bytes: int) -> None:
        """Raise InvalidPositionError when the ceiling leaves children too little memory."""
        if self.job_bytes(main_bytes) < MIN_JOB_BYTES:
            needed = (self.workers + 1) * main_bytes + self.workers * MIN_JOB_BYTES
            raise InvalidPositionError(
                f"a memory ceiling of {format_bytes(self.memory)} is too small for"
                f" {self.workers} workers (the server alone holds {format_bytes(main_bytes)});"
                f" allow at least {format_bytes(needed)} or fewer workers"
            )


def resident_bytes(pid: int | str = "self") -> int:
    """The resident memory (``VmRSS``) of process ``pid``, in bytes (0 once it is gone).

    >>> resident_bytes() > 1 << 20
    True
    """
    return _status_kb(pid, "VmRSS") * 1024


def _status_kb(pid: int | str, key: str) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        return 0
    return 0


def _demo(n: int, pause: float = 0.0, allocate: int = 0) -> dict[str, int]:
    """A tiny job for the examples and tests: ``pause`` seconds, ``allocate`` bytes, n squared."""
    time.sleep(pause)
    hoard = bytearray(allocate)
    if n < 0:
        raise InvalidPositionError(f"negative {n}")
    return {"square": n * n, **({"allocated": len(hoard)} if allocate else {})}


def _confine(seconds: float, extra_bytes: int, parent: int) -> None:
    """In the child: die with the server (:func:`_die_with`), default signal handling, a
    lower priority than the server's (which must answer at once), and limits on address space
    and CPU time (the CPU limit ends the child even if nothing else does)."""
    _die_with(parent)
    os.nice(10)
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    address_space = _status_kb("self", "VmSize") * 1024 + extra_bytes
    resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    cpu = math.ceil(seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))


#: ``prctl``'s option asking for a signal when the parent dies (``<linux/prctl.h>``).
_PR_SET_PDEATHSIG = 1
#: How often a child without ``prctl`` looks whether its parent is still there (seconds).
_ORPHAN_TICK = 0.5


def _die_with(parent: int) -> None:
    """Make this child end when process ``parent`` (the server) does, however it ends
    (SIGKILL and the OOM killer included): Linux sends it SIGKILL when the server's thread that
    forked it exits (``prctl(PR_SET_PDEATHSIG)``); elsewhere a daemon thread polls
    ``os.getppid()``. A child whose server is already gone exits at once.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux: no prctl
        armed = False
    if os.getppid() != parent:  # the server died before the signal was asked for
        os._exit(1)
    if not armed:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    """Exit the process as soon as its parent is no longer ``parent``."""
    while os.getppid() == parent:
        time.sleep(_ORPHAN_TICK)
    os._exit(1)


def _work(
    pipe: Connection,
    job: Callable[..., Any],
    args: tuple[Any, ...],
    seconds: float,
    extra_bytes: int,
    parent: int,
) -> None:
    try:
        _confine(seconds, extra_bytes, parent)
        pipe.send(("ok", job(*args)))
    except TooLargeError as error:
        pipe.send(("too-large", str(error)))
    except NimlabError as error:
        pipe.send(("bad", str(error)))
    except (MemoryError, OSError):  # (HiGHS's too, see equilibrium.lp) jobs do no I/O: an
        # OSError is a mapping refused by the limit
        pipe.send(("memory", ""))
    except Exception as error:  # reported to the parent, which answers without a traceback
        pipe.send(("error", f"unexpected {type(error).__name__}"))
    finally:
        pipe.close()


class JobPool:
    """Children that run jobs under :class:`JobLimits`; one pool per application."""

    def __init__(self, limits: JobLimits) -> None:
        self.limits = limits
        # re-entrant: :meth:`stop` runs in a signal handler on the event loop's thread, which
        # may hold the lock at that moment (a plain lock would deadlock the server's exit)
        self._lock = threading.RLock()
        self._running = 0
        self._waiting = 0
        self._children: set[BaseProcess] = set()
        self._stopping = False

    @property
    def running(self) -> int:
        """How many children run now."""
        return self._running

    def stop(self) -> None:
        """Kill every child and refuse new jobs (the server is stopping). Safe to call from a
        signal handler that interrupted this pool's own thread while it held the lock."""
        self._stopping = True
        with self._lock:
            children = list(self._children)
        for child in children:
            if child.is_alive():
                child.kill()

    async def run(
        self,
        job: Callable[..., Any],
        *args: Any,
        what: str,
        gone: Callable[[], Awaitable[bool]] | None = None,
    ) -> Any:
        """``job(*args)`` (a module-level function returning something picklable) in a child.

        Nimlab errors of the job are raised again here (``InvalidPositionError`` for bad input,
        ``TooLargeError``); :class:`BudgetExceededError` when the job runs past its time or memory,
        when the queue is full or the server stops. ``gone()`` tells whether the client went
        away: then the child is killed at once.
        """
        await self._take_slot(what, gone)
        try:
            status, payload = await self._child(job, args, what, gone)
        finally:
            with self._lock:
                self._running -= 1
        if status == "ok":
            return payload
        if status == "too-large":
            raise TooLargeError(payload)
        if status == "bad":
            raise InvalidPositionError(payload)
        if status == "time":
            raise BudgetExceededError(
                f"{what} ran past the server's time budget of {self.limits.seconds:g} s"
                " and was stopped"
            )
        if status == "memory":
            raise BudgetExceededError(
                f"{what} ran past the server's memory budget of"
                f" {format_bytes(self.job_bytes())} and was stopped"
            )
        raise RuntimeError(payload)

    def job_bytes(self) -> int:
        """The memory a child may add now (bytes), from the ceiling and the main process."""
        return max(self.limits.job_bytes(resident_bytes()), MIN_JOB_BYTES)

    async def _take_slot(self, what: str, gone: Callable[[], Awaitable[bool]] | None) -> None:
        with self._lock:
            if self._stopping:
                raise BudgetExceededError("the server is stopping")
            if self._running < self.limits.workers:
                self._running += 1
                return
            if self._waiting >= self.limits.queue:
                raise BudgetExceededError(
                    f"the server is busy ({self._running} jobs running, {self._waiting} waiting);"
                    " try again later"
                )
            self._waiting += 1
        try:
            deadline = time.monotonic() + self.limits.seconds
            checked = time.monotonic()
            while True:
                with self._lock:
                    if self._running < self.limits.workers and not self._stopping:
                        self._running += 1
                        return
                if self._stopping:
                    raise BudgetExceededError("the server is stopping")
                now = time.monotonic()
                if now > deadline:
                    raise BudgetExceededError(
                        f"{what} waited {self.limits.seconds:g} s for a free worker;"
                        " the server is busy, try again later"
                    )
                if gone is not None and now - checked > _CLIENT_TICK:
                    checked = now
                    if await gone():
                        raise BudgetExceededError("the client went away")
                await asyncio.sleep(_TICK)
        finally:
            with self._lock:
                self._waiting -= 1

    async def _child(
        self,
        job: Callable[..., Any],
        args: tuple[Any, ...],
        what: str,
        gone: Callable[[], Awaitable[bool]] | None,
    ) -> tuple[str, Any]:
        seconds = self.limits.seconds
        receiver, sender = _context.Pipe(duplex=False)
        process = _context.Process(
            target=_work,
            args=(sender, job, args, seconds, self.job_bytes(), os.getpid()),
            daemon=True,
        )
        with self._lock:
            process.start()
            self._children.add(process)
        sender.close()
        try:
            started = checked = time.monotonic()
            while not receiver.poll():
                now = time.monotonic()
                if self._stopping:
                    raise BudgetExceededError("the server is stopping")
                if now - started > seconds:
                    raise BudgetExceededError(
                        f"{what} ran past the server's time budget of {seconds:g} s and was stopped"
                    )
                if gone is not None and now - checked > _CLIENT_TICK:
                    checked = now
                    if await gone():
                        raise BudgetExceededError("the client went away")
                await asyncio.sleep(_TICK)
            try:  # in a thread: a large result takes a while to unpickle
                result: tuple[str, Any] = await asyncio.to_thread(receiver.recv)
            except EOFError:  # the child died: killed at its CPU limit, or out of memory
                await _reap(process)
                if self._stopping:
                    raise BudgetExceededError("the server is stopping") from None
                cpu = process.exitcode == -signal.SIGXCPU
                result = ("time" if cpu else "memory", "")
            return result
        finally:
            receiver.close()
            if process.is_alive():
                process.kill()
            await _reap(process)
            with self._lock:
                self._children.discard(process)


async def _reap(process: BaseProcess) -> None:
    """Wait for a child to exit without blocking the event loop (a large one takes a while to
    free its memory); ``join`` once it has."""
    for _ in range(500):
        if process.exitcode is not None:
            break
        await asyncio.sleep(_TICK)
    process.join()

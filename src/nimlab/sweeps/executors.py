"""Executors behind one interface: a local process pool (default) and Dask distributed.

``executor.run(fn, tasks)`` computes ``fn(task)`` for every task on the executor's workers and
yields a :class:`TaskOutcome` for each as soon as it finishes, in completion order, so that the
caller can store it at once. A task that raises, or whose worker process dies, yields a failed
outcome; the others go on.

>>> from nimlab.specs import octal_task
>>> from nimlab.sweeps.tasks import run_task
>>> with LocalPoolExecutor(workers=1) as executor:
...     [outcome.payload["values"] for outcome in executor.run(run_task, [octal_task("0.07", 4)])]
[[0, 0, 1, 1, 2]]
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection
from types import TracebackType
from typing import Any, Protocol

from nimlab.errors import InvalidPositionError, NimlabError
from nimlab.specs import Task

__all__ = [
    "DaskExecutor",
    "Executor",
    "LocalPoolExecutor",
    "TaskFunction",
    "TaskOutcome",
    "default_workers",
    "scheduler_address",
]

TaskFunction = Callable[[Task], dict[str, Any]]
"""What an executor runs: a picklable (module-level) function of one task."""


@dataclass(frozen=True)
class TaskOutcome:
    """The result of one task: ``payload`` on success, else ``error`` (a one-line message)."""

    task: Task
    payload: dict[str, Any] | None
    error: str | None
    seconds: float

    @property
    def ok(self) -> bool:
        """Whether the task succeeded."""
        return self.error is None


class Executor(Protocol):
    """Runs tasks on some workers; a context manager that owns them."""

    name: str
    workers: int

    def run(self, fn: TaskFunction, tasks: Sequence[Task]) -> Iterator[TaskOutcome]:
        """Yield the outcome of ``fn(task)`` for every task, as each finishes."""
        ...

    def __enter__(self) -> Executor: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None: ...


def default_workers() -> int:
    """One worker per available core."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _check_workers(workers: int | None) -> int:
    if workers is None:
        return default_workers()
    if workers < 1:
        raise InvalidPositionError(f"--workers must be at least 1, got {workers}")
    return workers


def scheduler_address(address: str) -> tuple[str, int]:
    """``(host, port)`` of a Dask scheduler address ``tcp://HOST:PORT`` (or ``tls://``).

    >>> scheduler_address("tcp://127.0.0.1:8786")
    ('127.0.0.1', 8786)
    >>> scheduler_address("bogus")
    Traceback (most recent call last):
    ...
    nimlab.errors.InvalidPositionError: bad scheduler address 'bogus': expected tcp://HOST:PORT
    """
    scheme, sep, rest = address.strip().partition("://")
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")  # an IPv6 host is written [::1]
    problem = f"bad scheduler address {address!r}: expected tcp://HOST:PORT"
    if not sep or scheme not in ("tcp", "tls") or not colon or not host or not port.isdigit():
        raise InvalidPositionError(problem)
    if not 0 < int(port) < 65536:
        raise InvalidPositionError(f"{problem} (a port is 1..65535)")
    return host, int(port)


def _timed(fn: TaskFunction, task: Task) -> tuple[dict[str, Any], float]:
    """Run ``fn(task)`` in a worker and measure its wall time there."""
    start = time.perf_counter()
    payload = fn(task)
    return payload, time.perf_counter() - start


_DIED = "the worker process died while computing this task"


def _error_text(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _watch_parent(lifeline: Connection) -> None:
    """Worker initializer: exit when the sweep dies (even by SIGKILL), so no orphan computes on.

    The sweep holds the only writing end of ``lifeline``; its death closes it, and the read
    here returns.
    """

    def watch() -> None:
        with contextlib.suppress(OSError):
            lifeline.poll(None)  # returns at end of file: the sweep has gone
        os._exit(1)

    threading.Thread(target=watch, name="nimlab-lifeline", daemon=True).start()


def _pool_context() -> multiprocessing.context.BaseContext:
    """Fork server where there is one (fast worker start, safe with threads), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["__main__", "nimlab.sweeps.tasks"])  # as spawn does
        return context
    return multiprocessing.get_context("spawn")


class LocalPoolExecutor:
    """A pool of local worker processes (``concurrent.futures``; fork server, else spawn).

    A worker that dies takes the pool down with it; the tasks the pool held are retried in a
    fresh pool, and a task held during two such deaths is run alone in a single-worker pool:
    only a task that kills its worker on its own is reported failed. A worker killed from
    outside (once) costs only the retries.
    """

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = _check_workers(workers)
        self._pools: dict[ProcessPoolExecutor, tuple[Connection, Connection]] = {}

    def __enter__(self) -> LocalPoolExecutor:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        for pool in list(self._pools):
            self._retire(pool, now=error is not None)

    def _new_pool(self, workers: int) -> ProcessPoolExecutor:
        context = _pool_context()
        lifeline, keep_alive = context.Pipe(duplex=False)
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=_watch_parent,
            initargs=(lifeline,),
        )
        self._pools[pool] = (lifeline, keep_alive)
        return pool

    def _retire(self, pool: ProcessPoolExecutor, *, now: bool = False) -> None:
        """Shut a pool down; ``now``: stop its workers at once, even mid-task."""
        ends = self._pools.pop(pool)
        if now:  # closing the lifeline makes every worker exit
            for end in ends:
                end.close()
        pool.shutdown(wait=not now, cancel_futures=True)
        for end in ends:
            end.close()

    def run(self, fn: TaskFunction, tasks: Sequence[Task]) -> Iterator[TaskOutcome]:
        """Yield outcomes as tasks finish; at most two tasks per worker are queued at once."""
        todo = list(reversed(tasks))
        window = 2 * self.workers
        pool = self._new_pool(self.workers)
        running: dict[Future[tuple[dict[str, Any], float]], Task] = {}
        strikes: dict[tuple[str, str], int] = {}
        while todo or running:
            broken = False
            while todo and len(running) < window:
                try:
                    future = pool.submit(_timed, fn, todo[-1])
                except BrokenProcessPool:  # a worker died since the last wait
                    broken = True
                    break
                running[future] = todo.pop()
            # once the pool is broken, every future it holds fails at once: collect them all
            done, _ = wait(running, return_when=ALL_COMPLETED if broken else FIRST_COMPLETED)
            suspects: list[Task] = []
            for future in done:
                task = running.pop(future)
                try:
                    payload, seconds = future.result()
                except BrokenProcessPool:
                    suspects.append(task)
                except Exception as error:
                    yield TaskOutcome(task, None, _error_text(error), 0.0)
                else:
                    yield TaskOutcome(task, payload, None, seconds)
            if broken or suspects:  # a worker died: every task the pool held is a suspect
                suspects.extend(running.values())
                running.clear()
                self._retire(pool)
                for task in suspects:
                    key = (task.spec, task.method)
                    strikes[key] = strikes.get(key, 0) + 1
                    if strikes[key] >= 2:  # in two crashes: see whether it crashes alone
                        yield self._isolated(fn, task)
                    else:
                        todo.append(task)  # retried first, in the fresh pool
                pool = self._new_pool(self.workers)
        self._retire(pool)

    def _isolated(self, fn: TaskFunction, task: Task) -> TaskOutcome:
        """Run one task alone in a fresh worker: a crash now is this task's own."""
        pool = self._new_pool(1)
        try:
            payload, seconds = pool.submit(_timed, fn, task).result()
        except BrokenProcessPool:
            return TaskOutcome(task, None, _DIED, 0.0)
        except Exception as error:
            return TaskOutcome(task, None, _error_text(error), 0.0)
        finally:
            self._retire(pool)
        return TaskOutcome(task, payload, None, seconds)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while worker processes start, so that they ignore it too (it is inherited)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class DaskExecutor:
    """Dask distributed: a running scheduler (``tcp://host:port``) or a fresh ``LocalCluster``.

    Workers of a remote cluster need nimlab installed (same version). A worker that dies is
    replaced by Dask, which retries its tasks and gives up on a task (``KilledWorker``) after
    a few deaths of workers running it. Dask blames every task its dying worker held, so each
    task given up on is run once more at the end, alone: only a task that kills its worker on
    its own is reported failed.
    """

    name = "dask"

    def __init__(
        self,
        address: str | None = None,
        *,
        workers: int | None = None,
        connect_timeout: float = 10.0,
    ) -> None:
        self.endpoint = None if address is None else scheduler_address(address)
        self.address = address
        self.connect_timeout = connect_timeout
        self.workers = _check_workers(workers)
        self._client: Any = None
        self._cluster: Any = None

    def __enter__(self) -> DaskExecutor:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise NimlabError(
                "the Dask executor needs the 'distributed' package: pip install 'nimlab[cluster]'"
            ) from None
        if self.endpoint is None:
            with _sigint_ignored():  # workers inherit it: Ctrl-C stops the sweep, which stops them
                self._cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=self.workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # any free port: never collide with 8787
                    silence_logs=logging.ERROR,
                )
            self._client = Client(self._cluster)  # type: ignore[no-untyped-call]
        else:
            self._probe(self.endpoint)
            try:
                self._client = Client(self.address, timeout=self.connect_timeout)  # type: ignore[no-untyped-call]
            except (OSError, TimeoutError) as error:
                raise NimlabError(
                    f"cannot connect to the Dask scheduler {self.address!r}: {error}"
                ) from None
            self.workers = max(1, len(self._client.scheduler_info().get("workers", {})))
        return self

    def _probe(self, endpoint: tuple[str, int]) -> None:
        """Fail at once, with a clear message, when nothing listens at the scheduler's address
        (Dask itself would retry until its timeout)."""
        try:
            with socket.create_connection(endpoint, timeout=self.connect_timeout):
                pass
        except OSError as error:
            reason = error.strerror or str(error) or type(error).__name__
            raise InvalidPositionError(
                f"no Dask scheduler answers at {self.address!r} ({reason}): start one there"
                " or give the address of a running one"
            ) from None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()
        self._client = self._cluster = None

    def run(self, fn: TaskFunction, tasks: Sequence[Task]) -> Iterator[TaskOutcome]:
        """Submit tasks in batches (at most two in flight), yield outcomes as they finish."""
        from distributed import as_completed

        client = self._client
        if client is None:
            raise RuntimeError("use DaskExecutor as a context manager")
        todo = list(reversed(tasks))
        batch = max(256, 64 * self.workers)
        in_flight: dict[str, tuple[Any, Task]] = {}
        # with_results: results are fetched concurrently as tasks finish, not one round trip each
        finished = as_completed([], with_results=True, raise_errors=False)  # type: ignore[no-untyped-call]

        def submit_batch() -> None:
            chunk = [todo.pop() for _ in range(min(batch, len(todo)))]
            futures = client.map(partial(_timed, fn), chunk, pure=False)
            in_flight.update((f.key, (f, task)) for f, task in zip(futures, chunk, strict=True))
            finished.update(futures)  # type: ignore[no-untyped-call]

        killed: list[Task] = []  # given up on by Dask: retried alone at the end
        submit_batch()
        try:
            for future, result in finished:
                _, task = in_flight.pop(future.key)
                # judge by the result, not by future.status: once the worker holding a result
                # dies, its key is "lost" again although we already have the result
                if _is_timed_result(result):
                    payload, seconds = result
                    yield TaskOutcome(task, payload, None, seconds)
                else:  # an error: (type, exception, traceback), or a CancelledError
                    error = result[1] if isinstance(result, tuple) else result
                    if _worker_died(error):
                        killed.append(task)
                    else:
                        yield TaskOutcome(task, None, _error_text(error), 0.0)
                future.release()
                if todo and len(in_flight) < batch:
                    submit_batch()
        finally:
            if in_flight:
                client.cancel([future for future, _ in in_flight.values()])
        for task in killed:
            yield self._isolated(fn, task)

    def _isolated(self, fn: TaskFunction, task: Task) -> TaskOutcome:
        """Run one task with nothing else of this sweep in flight: a death now is its own."""
        future = self._client.submit(partial(_timed, fn), task, pure=False)
        try:
            payload, seconds = future.result()
        except Exception as error:
            if _worker_died(error):
                return TaskOutcome(task, None, f"{_DIED}, also alone (Dask: KilledWorker)", 0.0)
            return TaskOutcome(task, None, _error_text(error), 0.0)
        finally:
            future.cancel()
        return TaskOutcome(task, payload, None, seconds)


def _is_timed_result(result: object) -> bool:
    """Whether ``result`` is what :func:`_timed` returns (and not an error report)."""
    return (
        isinstance(result, tuple)
        and len(result) == 2
        and isinstance(result[0], dict)
        and isinstance(result[1], float)
    )


def _worker_died(error: BaseException) -> bool:
    """Whether Dask gave up on a task because the workers running it died (``KilledWorker``)."""
    return type(error).__name__ == "KilledWorker"

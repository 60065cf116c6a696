"""Run a sweep: skip what the store has, compute the rest, store each result as it finishes.

Each finished result is committed to the store in its own transaction by this (the parent)
process as soon as it arrives, so an interruption of any kind (Ctrl-C, SIGTERM, SIGKILL of
this process or of a worker) loses no finished result, and a rerun computes only what is missing.

>>> import tempfile, pathlib
>>> from nimlab.sweeps.executors import LocalPoolExecutor
>>> from nimlab.specs import scoring_task
>>> path = pathlib.Path(tempfile.mkdtemp()) / "r.sqlite"
>>> tasks = [scoring_task(p) for p in [(1,), (2,), (2, 1)]]
>>> with LocalPoolExecutor(workers=1) as executor:
...     first = run_sweep(tasks, store_path=path, executor=executor)
...     again = run_sweep(tasks, store_path=path, executor=executor)
>>> (first.computed, first.skipped), (again.computed, again.skipped)
((3, 0), (0, 3))
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from nimlab.specs import Task
from nimlab.store.results import ResultStore, current_version
from nimlab.sweeps.executors import Executor, TaskFunction, TaskOutcome
from nimlab.sweeps.tasks import run_task

__all__ = ["SweepInterrupted", "SweepSummary", "pending_tasks", "run_sweep"]


@dataclass
class SweepSummary:
    """What a sweep did: counts, failures (spec and message), where and how it ran."""

    total: int
    skipped: int
    store: str
    executor: str
    workers: int
    computed: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def failed(self) -> int:
        """How many tasks failed."""
        return len(self.failures)

    @property
    def missing(self) -> int:
        """How many tasks still have no result (failed, or not reached before an interruption)."""
        return self.total - self.skipped - self.computed

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` summary: ``total``, ``computed``, ``skipped``, ``failed`` and more."""
        return {
            "total": self.total,
            "computed": self.computed,
            "skipped": self.skipped,
            "failed": self.failed,
            "missing": self.missing,
            "interrupted": self.interrupted,
            "failures": [{"spec": spec, "error": error} for spec, error in self.failures],
            "seconds": round(self.seconds, 3),
            "executor": self.executor,
            "workers": self.workers,
            "store": self.store,
        }


class SweepInterrupted(KeyboardInterrupt):
    """A sweep stopped by Ctrl-C or SIGTERM; ``summary`` says what was done (and stored)."""

    def __init__(self, summary: SweepSummary) -> None:
        super().__init__("sweep interrupted")
        self.summary = summary


def _unique(tasks: Sequence[Task]) -> list[Task]:
    """The tasks, each (spec, method) once, in their first order."""
    seen: dict[tuple[str, str], Task] = {}
    for task in tasks:
        seen.setdefault((task.spec, task.method), task)
    return list(seen.values())


def pending_tasks(store: ResultStore, tasks: Sequence[Task], version: str) -> list[Task]:
    """The tasks whose result is not in ``store`` yet (for this nimlab ``version``): a row
    of any method the task accepts (:attr:`nimlab.specs.Task.accepts`) answers it."""
    present: set[tuple[str, tuple[str, ...]]] = set()
    for accepts in {task.accepts for task in tasks}:
        specs = [task.spec for task in tasks if task.accepts == accepts]
        present |= {(spec, accepts) for spec in store.present(specs, accepts, version)}
    return [task for task in tasks if (task.spec, task.accepts) not in present]


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM interrupts like Ctrl-C (so workers are stopped cleanly)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_sweep(
    tasks: Sequence[Task],
    *,
    store_path: str | os.PathLike[str],
    executor: Executor,
    version: str | None = None,
    fn: TaskFunction = run_task,
    on_start: Callable[[SweepSummary], None] | None = None,
    on_outcome: Callable[[TaskOutcome], None] | None = None,
) -> SweepSummary:
    """Compute every task missing from the store at ``store_path`` with ``executor``.

    ``fn`` computes one task in a worker. ``on_start`` sees the summary once the skipped tasks
    are known; ``on_outcome`` each outcome after it is stored. Ctrl-C or SIGTERM raise
    :class:`SweepInterrupted` carrying the summary so far (everything finished is stored).
    """
    version = current_version() if version is None else version
    start = time.perf_counter()
    unique = _unique(tasks)
    with ResultStore(store_path) as store:
        todo = pending_tasks(store, unique, version)
        summary = SweepSummary(
            total=len(unique),
            skipped=len(unique) - len(todo),
            store=str(Path(store_path)),
            executor=executor.name,
            workers=executor.workers,
        )
        if on_start is not None:
            on_start(summary)
        storing: Task | None = None  # the task whose result is being committed
        counted = 0  # the count before it
        try:
            with _sigterm_as_interrupt():
                for outcome in executor.run(fn, todo):
                    task = outcome.task
                    if outcome.payload is not None:
                        counted = summary.computed
                        storing = task
                        store.put(
                            task.spec,
                            task.recorded(outcome.payload),
                            outcome.payload,
                            version=version,
                            seconds=outcome.seconds,
                        )
                        summary.computed = counted + 1
                        storing = None
                    else:
                        summary.failures.append((task.spec, outcome.error or "failed"))
                    if on_outcome is not None:
                        on_outcome(outcome)
        except KeyboardInterrupt:
            # the interrupt may land between a commit and its count
            stored = storing is not None and not pending_tasks(store, [storing], version)
            if stored and summary.computed == counted:
                summary.computed += 1
            summary.interrupted = True
            summary.seconds = time.perf_counter() - start
            raise SweepInterrupted(summary) from None
    summary.seconds = time.perf_counter() - start
    return summary

"""Jobs run in a child process under a time and a memory budget, killed beyond either."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from nimlab.errors import InvalidPositionError
from nimlab.web.guard import BudgetExceededError, JobLimits, JobPool, _demo


def test_a_slow_job_is_killed_with_503_error() -> None:
    started = time.monotonic()
    with pytest.raises(BudgetExceededError, match=r"time budget of 0\.3 s"):
        asyncio.run(JobPool(JobLimits(seconds=0.3)).run(_demo, 2, 30.0, what="the demo"))
    # the demo would run 30 s: stopped well before, with a margin for a loaded machine
    assert time.monotonic() - started < 20


def test_a_job_over_its_memory_budget_is_stopped() -> None:
    pool = JobPool(JobLimits(seconds=20, memory=1 << 30, workers=1))
    budget = pool.job_bytes()
    with pytest.raises(BudgetExceededError, match="memory budget"):
        asyncio.run(pool.run(_demo, 2, 0.0, budget + (64 << 20), what="the demo"))
    assert asyncio.run(pool.run(_demo, 2, 0.0, 16 << 20, what="the demo"))["allocated"] > 0


def test_results_and_errors_come_back() -> None:
    pool = JobPool(JobLimits(seconds=20))
    assert asyncio.run(pool.run(_demo, 3, what="the demo")) == {"square": 9}
    with pytest.raises(InvalidPositionError, match="negative"):
        asyncio.run(pool.run(_demo, -3, what="the demo"))


def test_a_full_queue_and_a_stopping_pool_refuse_at_once() -> None:
    pool = JobPool(JobLimits(seconds=5, workers=1, queue=0))

    async def two_at_once() -> None:
        first = asyncio.ensure_future(pool.run(_demo, 1, 1.0, what="the demo"))
        await asyncio.sleep(0.1)
        with pytest.raises(BudgetExceededError, match="busy"):
            await pool.run(_demo, 1, what="the demo")
        pool.stop()
        with pytest.raises(BudgetExceededError, match="stopping"):
            await first

    asyncio.run(two_at_once())


def test_stop_from_a_signal_handler_that_interrupted_the_locked_pool_returns() -> None:
    # uvicorn calls stop() from its SIGTERM handler, on the event loop's thread, which may be
    # inside `with pool._lock` at that moment: stop() must not wait for the lock it holds
    pool = JobPool(JobLimits(seconds=5))

    def interrupted() -> None:
        with pool._lock:
            pool.stop()

    worker = threading.Thread(target=interrupted, daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "stop() deadlocked on the pool's own lock"
    with pytest.raises(BudgetExceededError, match="stopping"):
        asyncio.run(pool.run(_demo, 2, what="the demo"))

"""Jobs of unbounded cost run in a child process that is killed after its time."""

from __future__ import annotations

import time

import pytest

from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.web.guard import _demo, run_guarded


def test_a_slow_job_is_killed_and_refused() -> None:
    started = time.monotonic()
    with pytest.raises(TooLargeError, match=r"took more than 0\.3 seconds"):
        run_guarded(_demo, 2, 30.0, seconds=0.3, what="the demo")
    assert time.monotonic() - started < 5


def test_results_and_errors_come_back() -> None:
    assert run_guarded(_demo, 3, seconds=20) == {"square": 9}
    with pytest.raises(InvalidPositionError, match="negative"):
        run_guarded(_demo, -3, seconds=20)

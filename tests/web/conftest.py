"""Shared fixtures of the browser tests: the playground served by uvicorn on a free loopback
port, and Debian's chromium driven by Playwright. Only 127.0.0.1 is contacted."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from nimlab.web import create_app
from nimlab.web.guard import JobLimits

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app on a free loopback port, in a background thread; yields its base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    # a request may wait 60 s for a worker (the default is 10): 200 requests at once on a slow
    # 2-core machine are test_web_server's load, and the budgets have tests of their own
    config = uvicorn.Config(create_app(JobLimits(seconds=60)), log_level="warning", backlog=512)
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not instance.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless (skipped where it is not installed)."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (make browser)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield instance
        instance.close()


# Everything a finger may press: at least 44 x 44 px (WCAG 2.5.5, Apple's guideline).
TARGETS = "button, a, input[type=button], [role=button], .counter, select"
_TOO_SMALL = """(selector) => [...document.querySelectorAll(selector)]
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .map((e) => [e, e.getBoundingClientRect()])
    .filter(([e, r]) => r.width < 43.5 || r.height < 43.5)
    .map(([e, r]) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${
        String(e.className.baseVal ?? e.className).trim().replace(/ +/g, '.')
      } "${(e.textContent || '').trim().slice(0, 20)}" ${
        Math.round(r.width)}x${Math.round(r.height)}`)"""


@pytest.fixture
def too_small() -> Callable[[Any], list[str]]:
    """``too_small(page)``: every visible target (:data:`TARGETS`) under 44 x 44 px, described."""

    def find(page: Any) -> list[str]:
        return list(page.evaluate(_TOO_SMALL, TARGETS))

    return find

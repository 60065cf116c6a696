"""The playground served by uvicorn on loopback: a real browser (Debian's chromium driven by
Playwright) and a small load test. Only 127.0.0.1 is contacted."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from nimlab.web import create_app

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
    config = uvicorn.Config(create_app(), log_level="warning", backlog=512)
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


def test_load_200_concurrent_requests(server: str) -> None:
    bodies: list[tuple[str, dict[str, Any] | None]] = [
        ("health", None),
        ("analyze", {"game": "nim", "position": [3, 4, 5]}),
        ("play/hint", {"game": "nim", "position": "5,6,7"}),
        ("play/computer", {"game": "wythoff", "position": "4,7"}),
        ("scoring", {"position": [3, 2, 1], "N": "1/2"}),
    ]

    async def fire() -> list[int]:
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=0)
        async with httpx.AsyncClient(base_url=server, timeout=30, limits=limits) as client:

            async def one(i: int) -> int:
                path, body = bodies[i % len(bodies)]
                if body is None:
                    response = await client.get(f"/api/{path}")
                else:
                    response = await client.post(f"/api/{path}", json=body)
                response.json()
                return response.status_code

            return list(await asyncio.gather(*(one(i) for i in range(200))))

    started = time.monotonic()
    statuses = asyncio.run(asyncio.wait_for(fire(), timeout=60))
    assert statuses == [200] * 200
    assert time.monotonic() - started < 60


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (make browser)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield instance
        instance.close()


def _history_length(page: Any) -> int:
    return int(page.locator("#history li").count())


def test_browser_plays_nim_to_the_end_with_hints(server: str, browser: Any, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.wait_for_selector("#game option[value=nim]", state="attached")
    page.fill("#position", "3,4,5")
    page.click("#start")
    page.wait_for_selector(".counter")
    assert page.locator(".counter").count() == 12

    # The hint colours every option: the single winning move 3 -> 1 in P colours, 11 others N.
    page.click("#hint")
    page.wait_for_selector("#hint-options .option")
    assert page.locator("#hint-options .option.opt-P").count() == 1
    assert page.locator("#hint-options .option.opt-N").count() == 11
    assert page.locator(".option.opt-P").get_attribute("data-to") == "1,4,5"
    assert page.locator("#nim-table tr.target").get_attribute("data-heap") == "0"
    green = page.locator(".option.opt-P").evaluate("e => getComputedStyle(e).backgroundColor")
    red = page.locator(".option.opt-N").first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert green != red
    assert page.locator(".counter.hint-P").count() == 1
    page.screenshot(path=str(tmp_path / "nim-hint.png"), full_page=True)

    # Play to the end, always taking the winning move the hint shows.
    for _ in range(15):
        if page.locator("#status").text_content().startswith("Game over"):
            break
        page.click("#hint")
        page.wait_for_selector("#hint-panel:not([hidden]) .option.opt-P")
        before = _history_length(page)
        page.locator(".option.opt-P").first.click()
        page.wait_for_function(
            """n => document.querySelectorAll('#history li').length >= n + 2
                || document.querySelector('#status').textContent.startsWith('Game over')""",
            arg=before,
        )
        page.wait_for_function(
            "() => !document.querySelector('#status').textContent.includes('thinking')"
        )
    status = page.locator("#status").text_content()
    assert status.startswith("Game over: you win"), status
    assert page.locator("#history li.you").count() >= 2
    page.screenshot(path=str(tmp_path / "nim-won.png"), full_page=True)
    assert errors == []
    page.close()


def test_browser_shows_api_errors(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#game option[value=nim]", state="attached")
    page.fill("#position", "3,-4")
    page.click("#start")
    page.wait_for_selector("#error:not([hidden])")
    assert "invalid heap" in page.locator("#error").text_content()
    page.close()


def test_browser_plays_schrodinger_nim_and_reveals_the_history(
    server: str, browser: Any, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.click("button[data-tab=hidden]")
    page.select_option("#hidden-variant", "sn")
    page.fill("#hidden-position", "3,3,1")
    page.click("#hidden-start")
    page.wait_for_selector(".hidden-action")
    # Only what the rules allow is shown: the known start, no revealed history yet.
    assert page.locator("#hidden-knowledge").text_content() == "[3, 3, 1]"
    assert page.locator("#hidden-reveal").is_hidden()
    page.click("#hidden-hint")
    page.wait_for_selector("#hidden-hint-out .option")
    for _ in range(20):
        if page.locator("#hidden-reveal").is_visible():
            break
        seen = page.locator("#hidden-seen li").count()
        page.locator(".hidden-action").first.click()
        page.wait_for_function(
            """n => document.querySelectorAll('#hidden-seen li').length > n
                || !document.querySelector('#hidden-reveal').hidden""",
            arg=seen,
        )
    assert page.locator("#hidden-status").text_content().startswith("Game over")
    rows = page.locator("#hidden-history tr")
    assert rows.count() >= 3  # header + at least two moves
    assert rows.nth(1).locator("td").nth(4).text_content() == "3,3,1"
    page.screenshot(path=str(tmp_path / "schrodinger.png"), full_page=True)
    assert errors == []
    page.close()


def test_browser_explore_and_scoring(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#grundy-game option[value=subtraction]", state="attached")
    page.click("button[data-tab=explore]")
    page.click("#grundy-form button")
    page.wait_for_selector("table.grundy td.zero")
    page.click("#plot-form button")
    page.wait_for_selector("svg.plot polyline")
    page.click("#solve-form button")
    page.wait_for_selector("#solve-out table tr:nth-child(2)")
    assert "value 1/3" in page.locator("#solve-out p").text_content()
    page.click("button[data-tab=scoring]")
    page.click("#scoring-start")
    page.wait_for_selector("#scoring-board .counter")
    assert page.locator("#scoring-f").text_content() == "2"  # f_3(5,4,2) = 2
    page.click("#scoring-hint")
    assert page.locator("#scoring-options .option.optimal").count() == 1
    page.close()


def test_nimlab_serve_prints_its_url_and_serves(cli: Any) -> None:
    import re
    import subprocess
    import sys

    command = [sys.executable, "-m", "nimlab", "serve", "--port", "0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        url = match.group(0)
        deadline = time.monotonic() + 20
        while True:
            try:
                assert httpx.get(url + "api/health", timeout=2).json() == {"ok": True}
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "nimlab serve did not answer"
                time.sleep(0.1)
        assert "nimlab" in httpx.get(url, timeout=5).text
    finally:
        process.terminate()
        process.wait(timeout=10)
    bad = cli("serve", "--port", "70000")
    assert bad.code == 2 and "--port" in bad.err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = cli("serve", "--port", str(taken.getsockname()[1]))
    assert busy.code == 2 and "cannot listen" in busy.err

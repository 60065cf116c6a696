"""Screenshots of the playground's pages at desktop and phone width, for ``docs/playground.md``.

Run: ``.venv/bin/python benchmarks/screenshots.py [--out docs/images]`` (after ``make browser``).
Starts ``nimlab serve`` on a free loopback port, drives Debian's chromium with Playwright
through the landing page, a game of Nim with feedback on a losing move and a hint, Scoring
Nim, a hidden-information game and its replay, and the Explore tab, and writes one PNG per
page and width.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
WIDTHS = {"desktop": (1100, 800), "phone": (390, 844)}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _landing(page: Any) -> None:
    page.wait_for_selector("[data-start=nim]")


def _nim(page: Any) -> None:
    page.click("button[data-start=nim]")
    page.wait_for_selector("#tab-play:not([hidden]) .counter")
    page.fill("#move-input", "3 5")
    page.click("#move-submit")
    page.wait_for_selector("#last-move:not([hidden])")
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('Your move')"
    )
    page.click("#hint")
    page.wait_for_selector("#hint-options .option")


def _scoring(page: Any) -> None:
    page.click("button[data-tab=start]")
    page.click("button[data-start=scoring]")
    page.wait_for_selector("#scoring-area:not([hidden])")


def _hidden(page: Any) -> None:
    page.click("button[data-tab=start]")
    page.click("button[data-start=hidden]")
    page.wait_for_selector(".hidden-action")


def _hidden_replay(page: Any) -> None:
    """The hidden game of :func:`_hidden` played to its end: the replay."""
    for _ in range(40):
        if page.locator("#hidden-reveal").is_visible():
            return
        seen = page.locator("#hidden-seen li").count()
        page.locator(".hidden-action").last.click()
        page.wait_for_function(
            """n => document.querySelectorAll('#hidden-seen li').length > n
                || !document.querySelector('#hidden-reveal').hidden""",
            arg=seen,
        )
    raise RuntimeError("the hidden game did not end in 40 moves")


def _partizan(page: Any, query: str, board: str) -> None:
    """A partizan game from a link, one move each played, then the hint."""
    page.goto(page.url.split("?")[0] + "?" + query)
    page.wait_for_selector("#game option[value=domineering]", state="attached")
    page.click("#start")
    page.wait_for_selector(board)
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('Your move')"
    )
    page.click("#hint")
    page.wait_for_selector("#hint-options .option")


def _domineering(page: Any) -> None:
    _partizan(
        page,
        "game=domineering&position=...../..%23../.....&starter=computer&side=R",
        "svg.domineering .domino",
    )
    page.locator("svg.domineering .cell.chooser").first.click()
    page.wait_for_selector("svg.domineering .cell.target")


def _hackenbush_graph(page: Any) -> None:
    _partizan(
        page,
        "game=hackenbush&position=g-a:B,a-b:R,b-g:G,b-c:B,c-d:R,g-e:R,e-f:G&starter=computer&side=R",
        "svg.hackenbush.graph .ghost-edge",
    )


def _explore(page: Any) -> None:
    page.click("button[data-tab=explore]")
    page.wait_for_selector("#tab-explore:not([hidden])")


PAGES: list[tuple[str, Callable[[Any], None]]] = [
    ("landing", _landing),
    ("nim-feedback", _nim),
    ("scoring", _scoring),
    ("hidden", _hidden),
    ("hidden-replay", _hidden_replay),
    ("explore", _explore),
    ("domineering", _domineering),
    ("hackenbush-graph", _hackenbush_graph),
]


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    nimlab = Path(sys.executable).with_name("nimlab")
    server = subprocess.Popen([str(nimlab), "serve", "--host", "127.0.0.1", "--port", str(port)])
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(url + "api/health", timeout=2).raise_for_status()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--headless=new", "--no-sandbox"]
            )
            for width_name, (width, height) in WIDTHS.items():
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(url)
                for name, reach in PAGES:
                    reach(page)
                    path = args.out / f"{name}-{width_name}.png"
                    page.screenshot(path=str(path), full_page=True)
                    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                page.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()

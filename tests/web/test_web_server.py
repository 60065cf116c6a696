"""The playground served by uvicorn on loopback (the fixtures `server` and `browser` are in
conftest.py): a real browser (Debian's chromium driven by Playwright) and a small load test.
Only 127.0.0.1 is contacted."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path
from typing import Any

import httpx


def _open_page(browser: Any) -> tuple[Any, list[str]]:
    """A new page and the list that collects its JavaScript errors."""
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


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
        # generous: the suite may share the machine with other work; the test is that all 200
        # are answered, and answered right
        async with httpx.AsyncClient(base_url=server, timeout=90, limits=limits) as client:

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
    statuses = asyncio.run(asyncio.wait_for(fire(), timeout=120))
    assert statuses == [200] * 200
    assert time.monotonic() - started < 120


def _history_length(page: Any) -> int:
    return int(page.locator("#history li").count())


def test_browser_plays_nim_to_the_end_with_hints(server: str, browser: Any, tmp_path: Path) -> None:
    page, errors = _open_page(browser)
    page.goto(server + "/?tab=play")
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


def test_a_guided_start_teaches_nim_in_words(server: str, browser: Any, tmp_path: Path) -> None:
    """The landing page opens first; its first guided start sets up Nim 3,4,5. A losing move
    is called one, with the move that kept the win; the computer's reply is shown as a move;
    a winning move is praised. Then the other guided starts open their games."""
    page, errors = _open_page(browser)
    page.goto(server + "/")
    assert page.locator("#tab-start").is_visible() and not page.locator("#tab-play").is_visible()
    page.screenshot(path=str(tmp_path / "landing.png"), full_page=True)
    page.click("button[data-start=nim]")
    page.wait_for_selector("#tab-play:not([hidden]) .counter")
    assert page.locator(".counter").count() == 12
    assert "kept the win" not in page.locator("#status").text_content()
    page.fill("#move-input", "3 5")  # empties heap 3: 3,4,0 has nim-sum 7
    page.click("#move-submit")
    page.wait_for_selector("#feedback:not([hidden])")
    feedback = page.locator("#feedback")
    assert feedback.get_attribute("class") == "feedback feedback-gave-away"
    text = feedback.text_content()
    assert text.startswith("That move gave away the win: 3,4,0 has nim-sum 7"), text
    assert "The winning move was heap 1: 3 -> 1 (3,4,5 -> 1,4,5)" in text
    page.wait_for_selector("#last-move:not([hidden])")
    assert page.locator("#last-move").text_content().startswith("The computer played ")
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('Your move')"
    )
    page.screenshot(path=str(tmp_path / "feedback.png"), full_page=True)
    for name, shown in (("kayles", "#tab-play .board-kayles"), ("hidden", ".hidden-action")):
        page.click("button[data-tab=start]")
        page.click(f"button[data-start={name}]")
        page.wait_for_selector(shown)
    assert page.locator("#hidden-variant").input_value() == "kn"
    page.click("button[data-tab=start]")
    page.click("button[data-start=scoring]")
    page.wait_for_selector("#scoring-area:not([hidden])")
    assert errors == []
    page.close()


def test_a_guided_start_played_to_a_win(server: str, browser: Any) -> None:
    """The guided Nim start played to the end as a student would type it: each move is the
    one Nim's rule gives (computed here from the counters on the board, not asked of the
    server), each is praised, and the game ends won."""
    page, errors = _open_page(browser)
    page.goto(server + "/")
    page.click("button[data-start=nim]")
    page.wait_for_selector("#tab-play:not([hidden]) .counter")
    for _ in range(13):  # 12 counters: at most 12 moves of yours
        if page.locator("#status").text_content().startswith("Game over"):
            break
        heaps = [page.locator(f'#board .counter[data-heap="{h}"]').count() for h in range(3)]
        total = heaps[0] ^ heaps[1] ^ heaps[2]
        assert total != 0, heaps  # the computer never leaves us a lost position
        heap = next(h for h in range(3) if heaps[h] ^ total < heaps[h])
        before = _history_length(page)
        page.fill("#move-input", f"{heap + 1} {heaps[heap] - (heaps[heap] ^ total)}")
        page.click("#move-submit")
        page.wait_for_function(
            """n => document.querySelectorAll('#history li').length >= n + 2
                || document.querySelector('#status').textContent.startsWith('Game over')""",
            arg=before,
        )
        feedback = page.locator("#feedback")
        assert feedback.get_attribute("class") == "feedback feedback-kept", feedback.text_content()
        page.wait_for_function(
            "() => !document.querySelector('#status').textContent.includes('thinking')"
        )
    status = page.locator("#status").text_content()
    assert status.startswith("Game over: you win"), status
    assert errors == []
    page.close()


def _start(page: Any, server: str, game: str, position: str) -> None:
    page.goto(server + "/?tab=play")
    page.wait_for_selector(f"#game option[value={game}]", state="attached")
    page.select_option("#game", game)
    page.fill("#position", position)
    page.click("#start")
    page.wait_for_function(
        "g => document.querySelector('#board').classList.contains('board-' + g)", arg=game
    )


def _await_reply(page: Any, before: int) -> None:
    """Wait for the computer's answer to the move just made (or the end of the game)."""
    page.wait_for_function(
        """n => (document.querySelectorAll('#history li').length >= n + 2
                 || document.querySelector('#status').textContent.startsWith('Game over'))
               && !document.querySelector('#status').textContent.includes('thinking')""",
        arg=before,
    )


def _over(page: Any) -> bool:
    return bool(page.locator("#status").text_content().startswith("Game over"))


def test_browser_plays_silver_dollar_on_the_board(
    server: str, browser: Any, tmp_path: Path
) -> None:
    page, errors = _open_page(browser)
    _start(page, server, "silver-dollar", "2,5,7,11")
    assert page.locator(".strip .cell").count() == 11
    assert page.locator(".strip .cell.has-coin").count() == 4
    assert page.locator("#moves .move").count() == 0  # the board replaces the list of moves
    for turn in range(30):
        if _over(page):
            break
        page.click("#hint")
        # The coin with a winning move is ringed; once chosen, its target cells are coloured
        # P/N with their Grundy values: click the P one.
        page.locator(".strip .cell.has-P").last.click()
        page.wait_for_selector(".strip .cell.target.hint-P")
        target = page.locator(".strip .cell.target.hint-P").first
        assert target.get_attribute("data-grundy") == "0"
        assert target.locator(".g").text_content() == "g=0"
        if turn == 0:
            assert page.locator(".strip .cell.target.hint-N").count() >= 1
            page.locator("#board").screenshot(path=str(tmp_path / "silver-dollar-hint.png"))
        before = _history_length(page)
        target.click()
        _await_reply(page, before)
    status = page.locator("#status").text_content()
    assert status.startswith("Game over: you win"), status
    assert page.locator(".strip .cell.has-coin:not([disabled])").count() == 0
    page.screenshot(path=str(tmp_path / "silver-dollar-won.png"), full_page=True)
    assert errors == []
    page.close()


def test_browser_boards_of_the_other_games(server: str, browser: Any, tmp_path: Path) -> None:
    page, errors = _open_page(browser)
    # Wythoff: the queen at (4, 6); the hint colours the one P square reachable, (3, 5).
    _start(page, server, "wythoff", "4,6")
    assert page.locator(".wythoff .square.queen").get_attribute("data-x") == "4"
    assert page.locator(".wythoff .square.target").count() == 4 + 6 + 4
    page.click("#hint")
    page.wait_for_selector(".wythoff .square.hint-P")
    assert page.locator(".wythoff .square.hint-P").get_attribute("data-to") == "3,5"
    page.locator("#board").screenshot(path=str(tmp_path / "wythoff-hint.png"))
    before = _history_length(page)
    page.click(".wythoff .square.hint-P")
    _await_reply(page, before)
    assert page.locator("#history li.you").text_content().endswith("3,5")
    # Turning Turtles: choose the head at 6, then coin 1 (THHTTH -> HHHTTT wins, g = 0).
    _start(page, server, "turning-turtles", "THHTTH")
    page.click(".turtle[data-k='6']")
    page.click("#hint")
    page.wait_for_selector(".turtle.target.hint-P")
    assert page.locator(".turtle.target.hint-P").get_attribute("data-to") == "HHHTTT"
    # Staircase: each coin is a move; the hint colours them with their Grundy values.
    _start(page, server, "staircase", "0,3,1,4")
    page.click("#hint")
    page.wait_for_selector(".stairs .counter.hint-P")
    assert {c.get_attribute("data-to") for c in page.locator(".counter.hint-P").all()} == {
        "0,4,0,4",
        "0,3,2,3",
    }
    # Green Hackenbush: an SVG edge per edge; the hint colours them, a click cuts one.
    _start(page, server, "green-hackenbush", "g-a,a-b,a-c,g-d,g-g,b-c")
    assert page.locator("svg.hackenbush .edge").count() == 6
    page.click("#hint")
    page.wait_for_selector("svg.hackenbush .edge.hint-P")
    page.locator("#board").screenshot(path=str(tmp_path / "hackenbush-hint.png"))
    winning = page.locator("svg.hackenbush .edge.hint-P").first
    assert winning.locator("text.g").text_content() == "P g=0"
    # Every edge is a focusable button named after its move (keyboard access).
    assert winning.get_attribute("tabindex") == "0" and winning.get_attribute("role") == "button"
    assert "(wins)" in (winning.get_attribute("aria-label") or "")
    before = _history_length(page)
    winning.click()
    _await_reply(page, before)
    assert page.locator("#history li.you").count() == 1
    # 2-D Nim: choose the counter at 3:1, then a cell on its left (3) or below it (1).
    _start(page, server, "nim2d", "1:2,3:1")
    assert page.locator("svg.nim2d .chooser").count() == 2
    page.click("svg.nim2d .chooser[data-cell='3:1']")
    page.wait_for_selector("svg.nim2d .selected")
    assert page.locator("svg.nim2d .target").count() == 4
    page.click("#hint")
    page.wait_for_selector("svg.nim2d .target.hint-P")
    winning = {g.get_attribute("data-to") for g in page.locator("svg.nim2d .hint-P").all()}
    assert winning == {"1:2,2:1", "1:2,3:0"}  # x or y of 3:1 goes to itself xor 1
    assert "counter 3:1 -> 2:1" in (
        page.locator("svg.nim2d .hint-P").first.get_attribute("aria-label") or ""
    )
    assert errors == []
    page.close()


def test_browser_plays_red_blue_hackenbush_as_red(
    server: str, browser: Any, tmp_path: Path
) -> None:
    page, errors = _open_page(browser)
    page.goto(server + "/?tab=play")
    page.wait_for_selector("#game option[value=red-blue-hackenbush]", state="attached")
    page.select_option("#game", "red-blue-hackenbush")
    assert page.locator("#play-form .side").is_visible()
    page.select_option("#side", "R")
    page.fill("#position", "BBRB,RRB,RB")  # 7/4 - 3/2 - 1/2 = -1/4: Red wins
    page.click("#start")
    page.wait_for_selector("svg.stalks .edge")
    assert page.locator("svg.stalks .edge.target").count() == 4  # the red edges only
    for turn in range(12):
        if _over(page):
            break
        page.click("#hint")
        page.wait_for_selector("svg.stalks .edge.hint-P")
        if turn == 0:
            assert "Value -1/4" in page.locator("#hint-verdict").text_content()
            page.locator("#board").screenshot(path=str(tmp_path / "red-blue-hint.png"))
        before = _history_length(page)
        page.locator("svg.stalks .edge.hint-P").first.click()
        _await_reply(page, before)
    assert page.locator("#status").text_content().startswith("Game over: you win")
    assert errors == []
    page.close()


def test_browser_shows_api_errors(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server + "/?tab=play")
    page.wait_for_selector("#game option[value=nim]", state="attached")
    page.fill("#position", "3,-4")
    page.click("#start")
    page.wait_for_selector("#error:not([hidden])")
    assert "invalid heap" in page.locator("#error").text_content()
    page.close()


def test_a_tab_opened_before_the_catalogue_arrives_stays_open(server: str, browser: Any) -> None:
    """A reader who opens a tab and types a position while the catalogue is still on its way
    keeps both when it arrives (the address's ?tab= is applied on load, not after)."""
    page, errors = _open_page(browser)
    held: list[Any] = []
    page.route("**/api/games", lambda route: held.append(route))  # held until released
    page.goto(server + "/?tab=play")
    while not held:
        page.wait_for_timeout(20)
    assert page.locator("#tab-play").is_visible()
    page.click("button[data-tab=hidden]")
    page.fill("#hidden-position", "4,2,1")
    held[0].continue_()
    page.wait_for_function("() => document.querySelectorAll('#hidden-game option').length > 3")
    assert page.locator("#tab-hidden").is_visible() and page.locator("#tab-play").is_hidden()
    assert page.locator("#hidden-position").input_value() == "4,2,1"
    assert errors == []
    page.close()


def test_browser_plays_schrodinger_nim_and_reveals_the_history(
    server: str, browser: Any, tmp_path: Path
) -> None:
    page, errors = _open_page(browser)
    page.goto(server + "/?tab=play")
    page.click("button[data-tab=hidden]")
    page.select_option("#hidden-variant", "sn")
    page.fill("#hidden-position", "3,3,1")
    page.click("#hidden-start")
    page.wait_for_selector(".hidden-action")
    # Only what the rules allow is shown: the known start, no revealed history yet.
    assert page.locator("#hidden-knowledge").text_content() == (
        "heap 1: exactly 3; heap 2: exactly 3; heap 3: exactly 1."
    )
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
    # The stepped replay: the first move, the true position beside what each player knew.
    assert page.locator("#replay-step").text_content().startswith("Move 1 of ")
    assert page.locator("#replay-prev").is_disabled()
    panels = page.locator(".replay-panel")
    assert panels.count() == 3
    for k in range(3):  # everyone knows the start: 3, 3 and 1 counters
        rows = panels.nth(k).locator(".hidden-row")
        assert [rows.nth(h).locator(".chip").count() for h in range(3)] == [3, 3, 1]
    page.screenshot(path=str(tmp_path / "schrodinger.png"), full_page=True)
    assert errors == []
    page.close()


def test_browser_plays_kriegspiel_on_a_catalogue_game(server: str, browser: Any) -> None:
    page, errors = _open_page(browser)
    page.goto(server + "/?tab=play")
    page.click("button[data-tab=hidden]")
    page.wait_for_function("() => document.querySelectorAll('#hidden-game option').length > 3")
    page.select_option("#hidden-game", "subtraction")
    # the variants come from the server: kn-empty is there for heaps of a subtraction game
    variants = page.locator("#hidden-variant option").evaluate_all("os => os.map(o => o.value)")
    assert variants == ["sn", "fsn", "kn", "kn-empty"]
    assert page.locator("#hidden-opt-set").input_value() == "1,3,4"  # the game's default
    page.select_option("#hidden-variant", "kn")
    page.fill("#hidden-position", "4,2")
    page.fill("#hidden-opt-set", "")
    page.fill("#hidden-opt-max", "2")
    page.click("#hidden-start")
    page.wait_for_selector(".hidden-action")
    knowledge = page.locator("#hidden-knowledge").text_content()
    assert knowledge == "heap 1: exactly 4; heap 2: exactly 2."
    # the board: a row per heap, its counters, what you know and its requests to the umpire
    first = page.locator(".hidden-row").first
    assert first.locator(".hidden-name").text_content() == "heap 1"
    assert first.locator(".chip").count() == 4 and first.locator(".maybe").count() == 0
    assert first.locator(".hidden-known").text_content() == "exactly 4"
    assert "1" in first.locator(".hidden-action").first.text_content()
    assert first.locator(".hidden-action").first.get_attribute("data-label") == "try 1_1"
    for _ in range(30):
        if page.locator("#hidden-reveal").is_visible():
            break
        seen = page.locator("#hidden-seen li").count()
        page.locator(".hidden-action").last.click()
        page.wait_for_function(
            """n => document.querySelectorAll('#hidden-seen li').length > n
                || !document.querySelector('#hidden-reveal').hidden""",
            arg=seen,
        )
        if page.locator("#hidden-actions .maybe").count():
            maybe = page.locator(".hidden-row").filter(has=page.locator(".maybe")).first
            assert maybe.locator(".hidden-known").text_content().startswith(("at most", "one of"))
    assert page.locator("#hidden-status").text_content().startswith("Game over")
    # the replay: the true position beside what each player knew; the computer, told only
    # that you moved, did not know the position at its first move
    true, you = page.locator(".replay-panel.true"), page.locator(".replay-panel.you")
    assert [true.locator(f".hidden-row >> nth={h} >> .chip").count() for h in (0, 1)] == [4, 2]
    assert [you.locator(f".hidden-row >> nth={h} >> .chip").count() for h in (0, 1)] == [4, 2]
    while "you:" in page.locator(".replay-move").text_content().lower():
        page.click("#replay-next")  # your requests, up to the one the umpire allowed
    assert page.locator(".replay-move").text_content().startswith("The computer: ")
    known = page.locator(".replay-panel.computer .hidden-known").all_text_contents()
    assert known == ["one of 2, 3, 4", "at most 2"], known
    words = page.locator("#hidden-seen li").all_text_contents()
    assert any(
        w.startswith("You asked the umpire for heap 2: remove 2; the umpire:") for w in words
    ), words
    assert "The umpire: the computer has moved." in words
    assert errors == []
    page.close()


def test_browser_explore_and_scoring(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server + "/?tab=play")
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


def _tab_to(page: Any, selector: str, *, backwards: bool = False, limit: int = 150) -> None:
    """Press Tab (Shift+Tab) until the focused element matches ``selector``."""
    for _ in range(limit):
        if page.evaluate("s => Boolean(document.activeElement?.matches(s))", selector):
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"the keyboard never reached {selector}")


def test_browser_plays_nimble_with_the_keyboard_only(
    server: str, browser: Any, tmp_path: Path
) -> None:
    page, errors = _open_page(browser)
    # The link presets the form; from then on only keys are pressed.
    page.goto(server + "/?game=nimble&position=1,3,3,6")
    page.wait_for_function("() => document.querySelector('#game').value === 'nimble'")
    _tab_to(page, "#start")
    page.keyboard.press("Enter")
    page.wait_for_selector("svg.nimble .chooser")
    chooser = page.locator("svg.nimble .chooser").first
    assert chooser.get_attribute("role") == "button"
    assert chooser.get_attribute("tabindex") == "0"
    assert "choose" in (chooser.get_attribute("aria-label") or "")
    for turn in range(20):
        if _over(page):
            break
        _tab_to(page, "#hint")
        page.keyboard.press("Enter")
        page.wait_for_selector("#hint-panel:not([hidden])")
        page.wait_for_selector("#board .has-P")
        _tab_to(page, "#board .has-P", backwards=True)
        page.keyboard.press("Space" if turn % 2 else "Enter")
        page.wait_for_selector("#board .selected")
        _tab_to(page, "#board .target.hint-P")
        focused = page.evaluate(
            """() => ({label: document.activeElement.getAttribute('aria-label'),
                outline: getComputedStyle(document.activeElement).outlineStyle})"""
        )
        assert "(wins)" in focused["label"] and focused["outline"] != "none", focused
        if turn == 0:
            page.locator("#board").screenshot(path=str(tmp_path / "nimble-keyboard.png"))
        before = _history_length(page)
        page.keyboard.press("Enter")
        _await_reply(page, before)
    status = page.locator("#status").text_content()
    assert status.startswith("Game over: you win"), status
    assert errors == []
    page.close()


def test_browser_plays_poker_nim_to_the_end(server: str, browser: Any, tmp_path: Path) -> None:
    page, errors = _open_page(browser)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    _start(page, server, "poker-nim", "1,4,6")
    # No cap given: the playground's default; the dashed slots up to it add counters.
    assert page.locator("#opt-cap").input_value() == "20"
    assert "Additions left: you 1, the computer 1" in page.locator(".allowances").text_content()
    page.click("#hint")
    page.wait_for_selector("svg.allowance .hint-P")
    # Two winning additions (1 -> 2, 4 -> 7) and one removal (6 -> 5).
    assert {g.get_attribute("data-to") for g in page.locator("svg .hint-P").all()} == {
        "2,4,6;1,0",
        "1,7,6;1,0",
        "1,4,5;1,1",
    }
    page.locator("#board").screenshot(path=str(tmp_path / "poker-hint.png"))
    before = _history_length(page)
    page.click("svg .slot.hint-P >> nth=0")  # an addition
    _await_reply(page, before)
    assert "you 0" in page.locator(".allowances").text_content()
    for _ in range(40):
        if _over(page):
            break
        page.click("#hint")
        page.wait_for_selector("svg.allowance .hint-P")
        before = _history_length(page)
        page.locator("svg.allowance .hint-P").first.click()
        _await_reply(page, before)
    status = page.locator("#status").text_content()
    assert status.startswith("Game over: you win"), status
    assert errors == []
    page.close()


def test_browser_plays_kayles_to_the_end(server: str, browser: Any, tmp_path: Path) -> None:
    page, errors = _open_page(browser)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    _start(page, server, "kayles", "7,4")
    assert page.locator("svg.octal .token-cell").count() == 11
    for turn in range(20):
        if _over(page):
            break
        page.click("#hint")
        page.wait_for_selector("svg.octal .has-P")
        page.locator("svg.octal .has-P").first.click()
        page.wait_for_selector("svg.octal .target.hint-P")
        if turn == 0:
            assert page.locator("svg.octal .target.hint-N").count() >= 1
            page.locator("#board").screenshot(path=str(tmp_path / "kayles-hint.png"))
        before = _history_length(page)
        page.locator("svg.octal .target.hint-P").first.click()
        _await_reply(page, before)
    status = page.locator("#status").text_content()
    assert status.startswith("Game over: you win"), status
    assert errors == []
    page.close()


def test_browser_skip_nim_passes(server: str, browser: Any) -> None:
    page, errors = _open_page(browser)
    page.goto(server + "/?game=skip-nim&position=2&skips=1,0")
    page.wait_for_function("() => document.querySelector('#game').value === 'skip-nim'")
    page.click("#start")
    page.wait_for_selector("svg.allowance .counter-cell")
    assert page.locator("svg.allowance .slot").count() == 0  # Skip Nim adds nothing
    page.click("#hint")
    page.wait_for_selector(".skip-move.hint-N")  # 1 skip against 0 and nim-sum 2: a skip loses
    assert page.locator("svg.allowance .hint-P").count() == 2  # every Nim move wins
    before = _history_length(page)
    page.click(".skip-move")
    _await_reply(page, before)
    assert "Skips left: you 0, the computer 0" in page.locator(".allowances").text_content()
    assert errors == []
    page.close()


def test_every_page_fits_a_390_px_phone(
    server: str, browser: Any, tmp_path: Path, too_small: Any
) -> None:
    """At 390 px wide nothing widens the page and every clickable target is at least 44 px,
    before and after each action: every tab, a game of Nim with its hint, a game of Poker Nim
    (its slots), Explore after Tabulate, Plot and Solve, a hidden game and its stepped replay.
    Every problem is collected, then all are reported at once."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    problems: list[str] = []

    def fits(where: str) -> None:
        width = page.evaluate("() => document.documentElement.scrollWidth")
        if width > 390:
            problems.append(f"{where}: the page is {width} px wide")
        for selector in ("nav .tab", "#tab-play:not([hidden]) #undo"):
            for box in [b.bounding_box() for b in page.locator(selector).all() if b.is_visible()]:
                if box is None or box["x"] < 0 or box["x"] + box["width"] > 390:
                    problems.append(f"{where}: {selector} is cut off at {box}")
        small = too_small(page)
        if small:
            problems.append(f"{where}: {len(small)} targets under 44 px, e.g. {small[:4]}")

    page.goto(server + "/")
    page.wait_for_selector("#game option[value=nim]", state="attached")
    fits("the start tab")
    page.goto(server + "/?game=nim&position=7,11,13,14,15")
    page.wait_for_function("() => document.querySelector('#game').value === 'nim'")
    fits("the play tab")
    page.click("#start")
    page.wait_for_selector(".counter")
    page.click("#hint")
    page.wait_for_selector("#hint-options .option")
    fits("a game of Nim with its hint")
    page.goto(server + "/?game=poker-nim&position=1,4,6")
    page.wait_for_function("() => document.querySelector('#game').value === 'poker-nim'")
    page.click("#start")
    page.wait_for_selector("svg.allowance .slot")
    fits("a game of Poker Nim")
    for tab in ("start", "scoring", "hidden", "explore"):
        page.click(f"button[data-tab={tab}]")
        fits(f"the {tab} tab")
    page.click("#grundy-form button")
    page.wait_for_selector("table.grundy td.zero")
    fits("Explore after Tabulate")
    page.click("#plot-form button")
    page.wait_for_selector("svg.plot polyline")
    fits("Explore after Plot")
    page.click("#solve-form button")
    page.wait_for_selector("#solve-out table tr:nth-child(2)")
    fits("Explore after Solve")
    page.click("button[data-tab=scoring]")
    page.click("#scoring-start")
    page.wait_for_selector("#scoring-board .counter")
    fits("a game of Scoring Nim")
    page.click("button[data-tab=hidden]")
    page.fill("#hidden-position", "2,1")
    page.click("#hidden-start")
    page.wait_for_selector(".hidden-action")
    fits("a hidden game")
    for _ in range(10):
        if page.locator("#hidden-reveal").is_visible():
            break
        seen = page.locator("#hidden-seen li").count()
        page.locator(".hidden-action").first.click()
        page.wait_for_function(
            """n => document.querySelectorAll('#hidden-seen li').length > n
                || !document.querySelector('#hidden-reveal').hidden""",
            arg=seen,
        )
    assert page.locator("#hidden-reveal").is_visible()
    fits("a hidden game's replay")
    page.screenshot(path=str(tmp_path / "phone-replay.png"), full_page=True)
    for step in range(10):
        nexts = page.locator("#replay-next:not([disabled])")
        if not nexts.count():
            break
        nexts.click()
        fits(f"the replay, step {step + 2}")
    assert problems == [], "\n".join(problems)
    assert errors == []
    page.close()

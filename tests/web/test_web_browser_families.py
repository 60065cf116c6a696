"""One game of each family played to the end in a real browser, with either player first:
an impartial catalogue game, red-blue Hackenbush, Domineering, Hackenbush on a graph, Scoring
Nim with a negative and a fractional bonus, a hidden variant of Nim and of a catalogue game
(fixtures in conftest.py).

Every test fails on a JavaScript error or a console error (a failed request is one), checks
that words follow every move, that the computer's move is shown on the board, that blunders
are marked in the history, and that no internal code reaches the page's text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

# What a person must never read: the tree's action codes (1_2), the player letters without
# words, what JavaScript prints for a missing value, an empty list's brackets.
_CODES = re.compile(r"\b\d+_\d+\b|L \(first\)|R \(second\)|undefined|NaN|\[, \]|\[object ")
_STARTERS = ("you", "computer")


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A page whose JavaScript errors and console errors are collected; the test fails on any."""
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: (
            errors.append(f"console: {message.text}") if message.type == "error" else None
        ),
    )
    page.errors = errors
    yield page
    page.close()
    assert errors == []


def _clean(page: Any, where: str) -> str:
    """The visible text of the page, checked for internal codes."""
    text = str(page.locator("main").inner_text())
    found = _CODES.findall(text)
    assert not found, f"{where}: {found} in the page's text"
    assert page.errors == [], where
    return text


def _status(page: Any, selector: str = "#status") -> str:
    return str(page.locator(selector).text_content())


def _wait_reply(page: Any, before: int) -> None:
    """The computer answered the move just made (two more history lines), or the game ended."""
    page.wait_for_function(
        """n => (document.querySelectorAll('#history li').length >= n + 2
                 || document.querySelector('#status').textContent.startsWith('Game over'))
               && !document.querySelector('#status').textContent.includes('thinking')""",
        arg=before,
    )


def _play_catalogue_game(
    page: Any, target: str, *, board_mark: str, choose: str | None = None
) -> None:
    """Play the game on the Play tab to its end by the first move the board offers (first
    choosing the first piece ``choose`` offers, where a move begins by choosing one); after
    each move words appear, after each of the computer's its move is marked on the board,
    and each move called a gift of the win is marked a blunder in the history."""
    gifts = 0
    for turn in range(40):
        if _status(page).startswith("Game over"):
            break
        before = page.locator("#history li").count()
        if turn == 0 and before:  # the computer moved first: its move is on the board
            assert page.locator(board_mark).count() > 0, board_mark
            assert _status(page, "#last-move").startswith("The computer played ")
        if choose is not None:
            page.locator(choose).first.click()
            page.wait_for_selector(target)
        page.locator(target).first.click()
        _wait_reply(page, before)
        feedback = page.locator("#feedback")
        assert feedback.is_visible() and len(feedback.text_content() or "") > 20
        gifts += "feedback-gave-away" in (feedback.get_attribute("class") or "")
        if not _status(page).startswith("Game over"):
            assert _status(page, "#last-move").startswith("The computer played ")
            assert page.locator(board_mark).count() > 0, board_mark
        _clean(page, f"move {turn + 1}")
    assert _status(page).startswith("Game over: "), _status(page)
    assert page.locator("#history li.you.blunder").count() == gifts
    assert page.locator("#history .blunder-mark").count() == gifts


@pytest.mark.parametrize("starter", _STARTERS)
def test_an_impartial_game_to_the_end(server: str, page: Any, starter: str) -> None:
    """Subtraction S = {1,3,4} from its default start 3,4,5, which is lost for the player who
    moves first: the page says so when that is you."""
    page.goto(f"{server}/?game=subtraction&starter={starter}")
    page.wait_for_function("() => document.querySelector('#game').value === 'subtraction'")
    assert page.locator("#position").input_value() == "3,4,5"
    page.click("#start")
    page.wait_for_selector("#board .counter")
    page.wait_for_function(
        "() => !document.querySelector('#status').textContent.includes('thinking')"
    )
    note = page.locator("#start-note")
    if starter == "you":
        assert note.is_visible() and "lost for the player who moves first" in (
            note.text_content() or ""
        )
    else:
        assert note.is_hidden()
    _clean(page, "the start")
    _play_catalogue_game(page, "#board .counter:not([disabled])", board_mark=".ghost-counter")


def test_a_gift_of_the_win_is_marked_in_the_history(server: str, page: Any) -> None:
    page.goto(f"{server}/?game=nim&position=3,4,5")
    page.wait_for_function("() => document.querySelector('#game').value === 'nim'")
    page.click("#start")
    page.wait_for_selector("#board .counter")
    page.fill("#move-input", "3 5")  # 3,4,0 has nim-sum 7: the win given away
    page.click("#move-submit")
    _wait_reply(page, 0)
    assert "gave away the win" in (page.locator("#feedback").text_content() or "")
    assert page.locator("#history li.you.blunder .blunder-mark").count() == 1
    assert page.locator("#board .heap.last-move .ghost-counter").count() >= 1
    _clean(page, "after a blunder")


@pytest.mark.parametrize("starter", _STARTERS)
def test_red_blue_hackenbush_to_the_end(server: str, page: Any, starter: str) -> None:
    page.goto(f"{server}/?game=red-blue-hackenbush&position=BBRB,RRB,RB&starter={starter}")
    page.wait_for_function("() => document.querySelector('#game').value === 'red-blue-hackenbush'")
    page.click("#start")
    page.wait_for_selector("svg.stalks .edge")
    page.wait_for_function(
        "() => !document.querySelector('#status').textContent.includes('thinking')"
    )
    _clean(page, "the start")
    _play_catalogue_game(page, "svg.stalks .edge.target", board_mark="svg.stalks .ghost-edge")


@pytest.mark.parametrize(("side", "starter"), [("B", "you"), ("R", "computer")])
def test_domineering_to_the_end(server: str, page: Any, side: str, starter: str) -> None:
    """A 3x4 board with a blocked cell: choose a cell, then its neighbour; Left's dominoes
    blue and vertical, Right's red and horizontal, the computer's last one outlined."""
    page.goto(f"{server}/?game=domineering&position=..../..%23./....&starter={starter}&side={side}")
    page.wait_for_function("() => document.querySelector('#game').value === 'domineering'")
    assert "vertical" in (page.locator("#side option[value=B]").text_content() or "")
    page.click("#start")
    page.wait_for_selector("svg.domineering .cell")
    page.wait_for_function(
        "() => !document.querySelector('#status').textContent.includes('thinking')"
    )
    assert page.locator("svg.domineering .cell.blocked").count() == 1
    page.click("#hint")
    page.wait_for_selector("#hint-options .option")
    assert "leaves " in (page.locator("#hint-options .option").first.text_content() or "")
    _clean(page, "the start")
    _play_catalogue_game(
        page,
        "svg.domineering .cell.target",
        board_mark="svg.domineering .domino.last-domino",
        choose="svg.domineering .cell.chooser",
    )
    mine, theirs = ("blue", "red") if side == "B" else ("red", "blue")
    assert page.locator(f"svg.domineering .domino.{mine}").count() >= 1
    assert page.locator(f"svg.domineering .domino.{theirs}").count() >= 1


@pytest.mark.parametrize(("side", "starter"), [("B", "computer"), ("R", "you")])
def test_hackenbush_graph_to_the_end(server: str, page: Any, side: str, starter: str) -> None:
    """A graph with a cycle and all three colours: click an edge to cut it; the computer's
    cut stays dashed."""
    graph = "g-a:B,a-b:R,b-g:G,b-c:B,c-d:R,g-e:R,e-f:G"
    page.goto(f"{server}/?game=hackenbush&position={graph}&starter={starter}&side={side}")
    page.wait_for_function("() => document.querySelector('#game').value === 'hackenbush'")
    page.click("#start")
    page.wait_for_selector("svg.hackenbush.graph .edge")
    page.wait_for_function(
        "() => !document.querySelector('#status').textContent.includes('thinking')"
    )
    page.click("#hint")
    page.wait_for_selector("svg.hackenbush.graph .edge.hint-P, svg.hackenbush.graph .edge.hint-N")
    _clean(page, "the start")
    _play_catalogue_game(
        page, "svg.hackenbush.graph .edge.target", board_mark="svg.hackenbush .ghost-edge.last-cut"
    )


def _scoring_turn_done(page: Any) -> None:
    page.wait_for_function(
        """() => { const s = document.querySelector('#scoring-status').textContent;
                   return s.startsWith('Game over') || s.startsWith('Your move'); }"""
    )


@pytest.mark.parametrize(("bonus", "starter"), [("-3/2", "computer"), ("1/2", "you")])
def test_scoring_nim_to_the_end(server: str, page: Any, bonus: str, starter: str) -> None:
    """Scoring Nim with a negative and a fractional bonus, each played to the end taking the
    first counter every time (often not best play): after each move its words, after each of
    the computer's its move in words and on the board, the shortfalls marked as blunders."""
    page.goto(server + "/?tab=scoring")
    page.wait_for_selector("#game option[value=nim]", state="attached")
    page.fill("#scoring-position", "3,2,1")
    page.fill("#scoring-n", bonus)
    page.select_option("#scoring-starter", starter)
    page.click("#scoring-start")
    page.wait_for_selector("#scoring-board .counter")
    if starter == "computer":
        page.wait_for_selector("#scoring-last:not([hidden])")
    _scoring_turn_done(page)
    if starter == "computer":
        assert _status(page, "#scoring-last").startswith("The computer played: take ")
        assert page.locator("#scoring-board .heap.last-move .ghost-counter").count() >= 1
    page.click("#scoring-hint")
    options = page.locator("#scoring-options .option")
    assert options.count() >= 3 and page.locator("#scoring-options .option.optimal").count() >= 1
    assert all(t.startswith("take ") for t in options.all_text_contents())
    blunders = 0
    for turn in range(10):
        if _status(page, "#scoring-status").startswith("Game over"):
            break
        before = page.locator("#scoring-history li").count()
        page.locator("#scoring-board .counter:not([disabled])").first.click()
        page.wait_for_function(
            """n => document.querySelectorAll('#scoring-history li').length >= n + 2
                || document.querySelector('#scoring-status').textContent.startsWith('Game over')""",
            arg=before,
        )
        _scoring_turn_done(page)
        feedback = page.locator("#scoring-feedback")
        assert (feedback.text_content() or "").startswith("You played: take ")
        blunders += "feedback-gave-away" in (feedback.get_attribute("class") or "")
        if not _status(page, "#scoring-status").startswith("Game over"):
            assert _status(page, "#scoring-last").startswith("The computer played: take ")
        _clean(page, f"move {turn + 1}")
    status = _status(page, "#scoring-status")
    assert re.match(
        r"Game over: (you win|the computer wins|a draw) \(you -?[\d/]+, computer", status
    )
    assert page.locator("#scoring-history li.you.blunder .blunder-mark").count() == blunders
    assert page.locator("#scoring-history li.computer.blunder").count() == 0  # it plays best


def _play_hidden(
    page: Any, server: str, game: str, variant: str, position: str, first: str
) -> None:
    page.goto(server + "/?tab=hidden")
    page.wait_for_function("() => document.querySelectorAll('#hidden-game option').length > 3")
    page.select_option("#hidden-game", game)
    page.select_option("#hidden-variant", variant)
    page.fill("#hidden-position", position)
    page.select_option("#hidden-first", first)
    page.click("#hidden-start")
    page.wait_for_selector("#hidden-area:not([hidden])")
    page.wait_for_function(
        """() => document.querySelector('.hidden-action')
                || !document.querySelector('#hidden-reveal').hidden"""
    )
    who = page.locator("#hidden-you").text_content()
    assert who == ("You move first." if first == "you" else "The computer moves first.")
    value = page.locator("#hidden-value").text_content() or ""
    assert re.match(r"Your expected result ([+-]?[\d/]+): you win with probability [\d/]+ ", value)
    if page.locator(".hidden-action").count():
        page.click("#hidden-hint")
        page.wait_for_selector("#hidden-hint-out li")
        hints = page.locator("#hidden-hint-out li").all_text_contents()
        assert all(re.search(r"\w.*: probability [\d/]+$", h) for h in hints), hints
    _clean(page, "the start")
    for turn in range(30):
        if page.locator("#hidden-reveal").is_visible():
            break
        seen = page.locator("#hidden-seen li").count()
        action = page.locator(".hidden-action").nth(turn % page.locator(".hidden-action").count())
        assert re.search(r"[a-z]{3}", action.text_content() or "")  # words, not a code
        action.click()
        page.wait_for_function(
            """n => document.querySelectorAll('#hidden-seen li').length > n
                || !document.querySelector('#hidden-reveal').hidden""",
            arg=seen,
        )
        _clean(page, f"action {turn + 1}")
    assert page.locator("#hidden-status").text_content().startswith("Game over: ")
    # The stepped replay: each move with the true position and what each player knew.
    steps = 0
    while True:
        _clean(page, f"replay step {steps + 1}")
        text = page.locator(".replay-move").text_content() or ""
        if page.locator("#replay-next").is_disabled():
            assert text.startswith("Final position")
            assert page.locator(".replay-panel").count() == 1
            break
        assert re.match(r"(You|The computer): \w", text), text
        assert page.locator(".replay-panel").count() == 3
        assert page.locator(".replay-panel.true .hidden-row").count() >= 1
        page.click("#replay-next")
        steps += 1
    assert steps >= 1 and page.locator("#replay-step").text_content().startswith("The end")
    page.click("#replay-prev")
    assert page.locator("#replay-step").text_content() == f"Move {steps} of {steps}"


@pytest.mark.parametrize("first", _STARTERS)
def test_kriegspiel_nim_to_the_end(server: str, page: Any, first: str) -> None:
    _play_hidden(page, server, "nim", "kn", "2,2,1", first)


@pytest.mark.parametrize("first", _STARTERS)
def test_schrodinger_kayles_to_the_end(server: str, page: Any, first: str) -> None:
    _play_hidden(page, server, "kayles", "sn", "3,2", first)
    # Kayles rows are drawn as pins in the replay, never as a code
    assert page.locator(".replay-panel .pin").count() + page.locator(".hidden-known").count() > 0


@pytest.mark.parametrize("first", _STARTERS)
def test_kriegspiel_hackenbush_to_the_end(server: str, page: Any, first: str) -> None:
    _play_hidden(page, server, "red-blue-hackenbush", "kn", "BR,RB", first)
    page.click("#replay-prev")  # a stalk is drawn as coloured edges
    assert (
        page.locator(
            ".replay-panel svg.mini-stalk line.blue, .replay-panel svg.mini-stalk line.red"
        ).count()
        > 0
    )


def test_the_nim_start_teaches_the_nim_sum(server: str, page: Any) -> None:
    """The guided start's card works the nim-sum out on the heaps on the board (3, 4, 5 in
    binary, added without carry: 010 = 2), says the goal, and goes at the first move; the
    status says what a click does, as the board does it (the counter and those to its right)."""
    page.goto(server + "/")
    page.click("button[data-start=nim]")
    page.wait_for_selector("#nim-card:not([hidden])")
    card = page.locator("#nim-card").inner_text()
    assert "without carrying" in card and "must be 0" in card and "Try it" in card
    rows = [r.split("\t") for r in page.locator("#nim-card table").inner_text().splitlines()]
    assert [r[-1].strip() for r in rows] == ["011", "100", "101", "010"], rows
    assert "every counter to its right" in _status(page)
    page.click("#nim-card-try")
    assert page.locator("#nim-card").is_hidden()
    page.locator('#board .counter[data-heap="0"][data-k="1"]').click()  # takes 2 of heap 1
    _wait_reply(page, 0)
    assert page.locator("#history li.you").text_content().startswith("you: heap 1: 3 -> 1")
    assert "kept the win" in (page.locator("#feedback").text_content() or "") or (
        "feedback-kept" in (page.locator("#feedback").get_attribute("class") or "")
    )
    _clean(page, "the guided start")


def test_every_board_fits_a_phone(server: str, browser: Any, too_small: Any) -> None:
    """At 390 px every playable game's board (its first piece chosen, where a move begins by
    choosing one) leaves the page 390 px wide and offers only targets of 44 px or more."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/?tab=play")
    page.wait_for_selector("#game option[value=nim]", state="attached")
    games = page.locator("#game option").evaluate_all("os => os.map(o => o.value)")
    assert len(games) >= 15
    problems = []
    for game in games:
        page.select_option("#game", game)
        page.click("#start")
        page.wait_for_function(
            "g => document.querySelector('#board').classList.contains('board-' + g)", arg=game
        )
        choosers = page.locator("#board .chooser, #board .has-coin, #board .turtle.head")
        if choosers.count():
            choosers.first.click()
            page.wait_for_selector("#board .selected")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        small = too_small(page)
        if width > 390 or small:
            problems.append(f"{game}: {width} px wide, {len(small)} small targets {small[:3]}")
    page.close()
    assert problems == [], "\n".join(problems)
    assert errors == []


def test_misere_kayles_to_the_end(server: str, page: Any) -> None:
    """Kayles with the rule switched to misère play: the page says the last move loses, the
    hint says the outcome comes from the misère quotient of order 40 (Plambeck 2005: misère
    Kayles' quotient has 40 elements), so does each of the computer's moves, and the game-over
    words name the winner by the misère rule: whoever made the last move loses."""
    page.goto(f"{server}/?game=kayles&position=4,3")
    page.wait_for_function("() => document.querySelector('#game').value === 'kayles'")
    rule = page.locator("#rule")
    assert rule.is_visible() and rule.input_value() == "normal"
    labels = rule.locator("option").all_text_contents()
    assert labels == ["Normal play", "Misère play (last move loses)"]
    page.select_option("#rule", "misere")
    page.click("#start")
    page.wait_for_selector("svg.octal .token-cell.chooser")
    note = page.locator("#rule-note")
    assert note.is_visible()
    assert (note.text_content() or "").startswith("Misère play: whoever makes the last move loses.")
    page.click("#hint")
    page.wait_for_selector("#hint-panel:not([hidden])")
    verdict = page.locator("#hint-verdict").text_content() or ""
    assert verdict.startswith("Misère play (the last move loses): ")
    assert verdict.endswith("(from the misère quotient of order 40).")
    explanation = page.locator("#hint-explanation").text_content() or ""
    assert explanation.startswith("Misère play: whoever makes the last move loses")
    assert "Grundy" not in verdict and "g=" not in page.locator("#hint-options").inner_text()
    _clean(page, "the misère hint")
    for turn in range(20):
        if _status(page).startswith("Game over"):
            break
        before = page.locator("#history li").count()
        page.locator("svg.octal .token-cell.chooser").first.click()
        page.wait_for_selector("svg.octal .token-cell.target")
        page.locator("svg.octal .token-cell.target").first.click()
        _wait_reply(page, before)
        assert len(page.locator("#feedback").text_content() or "") > 20
        if not _status(page).startswith("Game over"):
            last = _status(page, "#last-move")
            assert last.startswith("The computer played heap ")
            assert last.endswith("(from the misère quotient of order 40)"), last
        _clean(page, f"misère move {turn + 1}")
    status = _status(page)
    last_mover = page.locator("#history li").last.get_attribute("class") or ""
    if last_mover.startswith("you"):  # you made the last move: under misère play you lose
        assert status == (
            "Game over: the computer wins. (misère play: the last move loses, and you made it)"
        )
    else:
        assert status == (
            "Game over: you win! (misère play: the last move loses, and the computer made it)"
        )

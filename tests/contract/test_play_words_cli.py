"""The console script as a student meets it: usage errors say what to type, names that are
almost right are guessed, terminal play says something after every move, and results print as
readable summaries."""

from __future__ import annotations

from typing import Any

import pytest

from tests.contract.conftest import run_nimlab


@pytest.mark.parametrize(
    ("args", "example"),
    [
        (("play", "nim"), "nimlab play nim 3,4,5"),
        (("play", "wythoff"), "nimlab play wythoff 3,5"),
        (("play", "scoring"), "nimlab play scoring 5,4,2 --N 3"),
        (("play", "kn"), "nimlab play kn 3,2,1"),
    ],
)
def test_play_without_a_position_is_a_usage_error(
    nimlab: Any, args: tuple[str, ...], example: str
) -> None:
    run = nimlab(*args)
    assert run.code == 2, run
    assert run.err.startswith("error: play needs a starting position") and example in run.err
    assert run.err.count("\n") == 1 and "Traceback" not in run.err


@pytest.mark.parametrize(
    ("args", "guess"),
    [
        (("analyze", "kayls", "3,4"), "did you mean 'kayles'"),
        (("analyze", "wythof", "3,5"), "did you mean 'wythoff'"),
        (("solve", "sm", "3", "3", "1"), "did you mean 'sn'"),
        (("play", "grundy-gam", "7"), "did you mean 'grundy-game'"),
    ],
)
def test_a_mistyped_name_gets_a_guess(nimlab: Any, args: tuple[str, ...], guess: str) -> None:
    run = nimlab(*args)
    assert run.code == 2 and guess in run.err, run


def test_terminal_play_speaks_after_every_move() -> None:
    """A give-away in Nim, a blunder in Scoring Nim and a cut in Hackenbush are each answered
    in words, with heaps and stalks numbered from 1."""
    nim = run_nimlab("play", "nim", "3,4,5", "--seed", "1", stdin="3 3\nquit\n")
    assert "That move gave away the win" in nim.out and "heap 1: 3 -> 1" in nim.out
    scoring = run_nimlab("play", "scoring", "2", "--N", "3", stdin="1 1\nquit\n")
    assert "fewer than best play" in scoring.out and "take 2 from heap 1" in scoring.out
    cut = run_nimlab("play", "red-blue-hackenbush", "BBRB,RRB", stdin="1 1\nquit\n")
    assert "That cut leaves -3/2" in cut.out and "cut stalk 1 at edge 4" in cut.out


def test_terminal_play_of_domineering_and_hackenbush_graphs_to_the_end() -> None:
    """A board and a graph played to their end from the console script, each move of yours
    answered with the value it leaves, each of the computer's with the words on its value."""
    board = run_nimlab("play", "domineering", "..#/...", "--seed", "1", stdin="1 1\n2 3\nquit\n")
    assert board.code == 0, board
    out = board.out
    assert "1 . . #" in out and "2 . . ." in out  # rows and columns numbered from 1
    # Left's 1 1 leaves *: whoever moves next (Right) wins, and Right takes the last pair.
    assert "That placement leaves *: whoever moves next wins — Right, who moves next" in out
    assert "computer (Right): horizontal domino on row 2 col 2 and row 2 col 3" in out
    assert "It leaves 0: the next player to move loses." in out
    assert "Left has no empty pair of cells left. The computer wins." in out
    graph = run_nimlab(
        "play", "hackenbush", "g-a:B,a-b:R", "--side", "R", "--seed", "1", stdin="edge 2\nquit\n"
    )
    assert graph.code == 0, graph
    assert "You play Red (Right)" in graph.out and "edge  2: a-b:R" in graph.out
    assert "No cut wins for Red from g-a:B,a-b:R (value 1/2)" in graph.out
    assert "That cut leaves 1: Blue (Left) can now win, whoever moves next." in graph.out
    assert (
        "computer (Blue): cut edge 1 (g-a:B)" in graph.out and "Red has no edge left" in graph.out
    )
    refused = run_nimlab("play", "domineering", "...../...../...../...../.....", stdin="quit\n")
    assert refused.code == 3 and "too large to play here" in refused.err, refused

"""``nimlab play`` in the terminal, with standard input fed by the test."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest


def _play(cli: Any, monkeypatch: pytest.MonkeyPatch, lines: list[str], *args: str) -> Any:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    return cli("play", *args)


def test_play_nim_to_the_end_with_hints_and_undo(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # From 3,4,5 the only winning move is heap 1: 3 -> 1; then we answer the computer by
    # restoring nim-sum 0 each time, typing either 'heap amount' or the position.
    result = _play(
        cli, monkeypatch, ["hint", "1 1", "undo", "1 2", "quit"], "nim", "3,4,5", "--seed", "1"
    )
    assert result.code == 0
    assert "nim-sum" in result.out and "1,4,5" in result.out
    assert "undone" in result.out
    assert result.out.count("you: → 1,4,5") == 1


def test_play_a_full_winning_game(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from nimlab.nim import analyze_nim

    heaps = (3, 4, 5)
    moves: list[str] = []
    # Simulate: we always play the first winning move; read the computer's replies from
    # the transcript of a previous run is fragile, so play interactively via repeated runs.
    transcript = ""
    for _ in range(20):
        result = _play(cli, monkeypatch, [*moves], "nim", "3,4,5", "--seed", "5")
        transcript = result.out
        if "You win" in transcript:
            break
        positions = re.findall(r"computer: .*→ ([0-9,]+)", transcript)
        current = tuple(map(int, positions[-1].split(","))) if positions else heaps
        move = analyze_nim(current).winning_moves[0]
        moves.append(f"{move.heap + 1} {move.from_ - move.to}")  # typed heaps count from 1
    assert "You win!" in transcript


def test_play_misere_and_other_games(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _play(cli, monkeypatch, ["hint", "quit"], "nim", "1,1,3", "--misere")
    assert "misère" in result.out.lower() or "parity" in result.out.lower()
    result = _play(cli, monkeypatch, ["HTHTTH", "quit"], "turning-turtles", "THHTTH")
    assert result.code == 0 and "you: → HTHTTH" in result.out
    result = _play(
        cli, monkeypatch, ["quit"], "subtraction", "10", "--set", "1,3,4", "--computer-first"
    )
    assert "computer:" in result.out


def test_play_scoring(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _play(cli, monkeypatch, ["hint", "1 1", "1 1", "2 1"], "scoring", "2,1", "--N", "3")
    assert result.code == 0
    assert "optimal moves" in result.out
    assert "Game over" in result.out


def test_play_errors(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _play(cli, monkeypatch, ["7 1", "0 1", "1 9", "x", "quit"], "nim", "3,4")
    assert result.code == 0
    assert "there is no heap 7" in result.out and "heap 1 has 3" in result.out
    assert "there is no heap 0 (heaps are numbered 1..2)" in result.out
    bad = _play(cli, monkeypatch, [], "chess", "3")
    assert bad.code == 2 and bad.err.startswith("error: unknown game")
    big = _play(cli, monkeypatch, [], "nim", "3,5000")
    assert big.code == 3 and "limit" in big.err


def test_play_schrodinger_against_the_equilibrium(
    cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # From (2,1) the second player loses whatever they do (the equilibrium wins a won game).
    moves = ["hint", "undo", "9_9", *(["2_1", "1_1", "look 1", "1_1", "look 2", "2_1"] * 2)]
    result = _play(cli, monkeypatch, moves, "sn", "2,1", "--computer-first", "--seed", "3")
    assert result.code == 0
    assert "you are R" in result.out
    assert "no undo" in result.out and "illegal action" in result.out
    assert "The replay: the true position before each move, and what each player knew" in result.out
    assert "computer knew" in result.out
    assert "The computer wins." in result.out


def test_play_poker_nim_with_additions(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # 1,4,6 (nim-sum 3): adding 1 to heap 1 wins (2,4,6); the computer, lost, replies at random.
    lines = ["hint", "add 1 9", "add 1 1", "undo", "2 +3", "quit"]
    result = _play(cli, monkeypatch, lines, "poker-nim", "1,4,6", "--cap", "8", "--seed", "2")
    assert result.code == 0, result.err
    assert "additions left: you 1, the computer 1; heaps at most 8" in result.out
    assert "heap 1: 1 -> 2 (add 1)" in result.out  # the hint's table
    assert "not a legal move" in result.out  # 1 + 9 is over the cap
    assert "you: → 2,4,6;1,0" in result.out and "undone" in result.out
    assert "you: → 1,7,6;1,0" in result.out
    default = _play(cli, monkeypatch, ["quit"], "poker-nim", "3,30")
    assert "heaps at most 30" in default.out  # the cap grows to the largest heap


def test_play_skip_nim_to_the_end(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # One skip for us, none for the computer: every Nim move wins (the skips decide), a skip
    # loses here (1 - 1 = 0 skips each and nim-sum 2); taking the heap leaves the computer stuck.
    lines = ["hint", "1 2"]
    result = _play(cli, monkeypatch, lines, "skip-nim", "2", "--skips", "1,0", "--seed", "1")
    assert result.code == 0, result.err
    assert "skips left: you 1, the computer 0" in result.out
    assert "Skips 1 against 0: the player to move wins" in result.out
    assert "You win!" in result.out
    # With the heaps empty a skip is the only move.
    passed = _play(cli, monkeypatch, ["skip"], "skip-nim", "0", "--skips", "1,0")
    assert "you: → 0;0,0" in passed.out and "You win!" in passed.out
    bad = _play(cli, monkeypatch, [], "skip-nim", "2", "--skips", "x")
    assert bad.code == 2 and bad.err.startswith("error:")


def test_play_red_blue_hackenbush_as_red(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # BBRB,RRB,RB has value -1/4: Red, moving first, wins by cutting stalk 1 at edge 3; then
    # every Red move we type is an optimal one read from the hint.
    lines = ["hint", "1 1", "1 3", "undo", "1 3", "2 1", "3 1", "2 2", "quit"]
    result = _play(cli, monkeypatch, lines, "red-blue-hackenbush", "BBRB,RRB,RB", "--side", "R")
    assert result.code == 0, result.err
    assert "You play Red" in result.out
    assert "value -1/4" in result.out and "cut stalk 1 at edge 3" in result.out
    assert "edge 1 of stalk 1 is not red" in result.out
    assert "undone" in result.out
    assert "computer (Blue):" in result.out


def test_play_red_blue_hackenbush_to_the_end(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # BB,R is worth 1: Blue cuts the top blue edge, Red its only edge, Blue the last one.
    result = _play(cli, monkeypatch, ["1 2", "1 1"], "red-blue-hackenbush", "BB,R", "--side", "B")
    assert "you: → B,R" in result.out and "computer (Red): cut stalk 2 at edge 1" in result.out
    assert "Red has no edge left to cut. You win!" in result.out
    # As Red with the computer (Blue) first on B: Blue cuts its edge, Red cannot move.
    lost = _play(
        cli, monkeypatch, [], "red-blue-hackenbush", "B", "--side", "R", "--computer-first"
    )
    assert "Red has no edge left to cut." in lost.out and "The computer wins." in lost.out
    bad = _play(cli, monkeypatch, [], "red-blue-hackenbush", "B", "--side", "green")
    assert bad.code == 2 and "--side" in bad.err

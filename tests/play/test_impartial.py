"""Play logic shared by the playground and ``nimlab play``: checked against brute force."""

from __future__ import annotations

import random

import pytest

from nimlab.catalogue import GameOptions, registered_games
from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.play.impartial import (
    DEFAULT_OPTIONS,
    PlayState,
    check_play_text,
    nim_explanation,
    open_state,
)

PLAYABLE = [cls for cls in registered_games() if cls.impartial]


def _options_for(name: str) -> GameOptions:
    return DEFAULT_OPTIONS.get(name, GameOptions())


@pytest.mark.parametrize("cls", PLAYABLE, ids=lambda cls: cls.name)
def test_hint_outcomes_agree_with_brute_force(cls: type) -> None:
    state = open_state(cls.name, cls.example, _options_for(cls.name))
    hint = state.hint()
    options = hint["options"]
    assert options is not None
    for option in options:
        position = state.game.parse_position(option["to"])
        assert option["outcome"] == state.game.brute_outcome(position).value
        assert option["winning"] == (option["outcome"] == "P")
    assert (hint["analysis"]["outcome"] == "N") == any(o["winning"] for o in options)


@pytest.mark.parametrize("cls", PLAYABLE, ids=lambda cls: cls.name)
def test_the_computer_wins_from_a_winning_position(cls: type) -> None:
    """Computer against a random player: from an N-position the computer always wins."""
    rng = random.Random(7)
    state = open_state(cls.name, cls.example, _options_for(cls.name))
    computer_starts_winning = state.game.outcome(state.position).value == "N"
    mover = "computer"
    last = None
    for _ in range(500):
        if state.over:
            break
        if mover == "computer":
            state = state.computer_move(rng).state
        else:
            state = state.after(state.game.parse_position(rng.choice(state.options()).to))
        last, mover = mover, ("you" if mover == "computer" else "computer")
    assert state.over
    winner = last if state.winner_at_end == "previous" else mover
    if computer_starts_winning:
        assert winner == "computer"


def test_misere_nim_end_of_play() -> None:
    state = open_state("nim", "1,1,1", GameOptions(misere=True))
    assert state.hint()["analysis"]["outcome"] == "P"
    assert state.winner_at_end == "mover"
    explained = nim_explanation((1, 1, 3), misere=True)
    assert [row["to"] for row in explained["rows"]] == [None, None, 1]
    assert "single counters" in explained["text"]
    assert "odd" in nim_explanation((1, 1, 1), misere=True)["text"]


def test_typed_moves() -> None:
    state = open_state("nim", "3,4,5")
    assert state.parse_move("3 5").text == "3,4,0"  # heaps are numbered from 1
    assert state.parse_move(" 3, 4, 1 ").text == "3,4,1"
    for bad in ("4 1", "0 1", "1 4", "1 0", "3,4,5", "3,5,5", "hello", "1 2 3"):
        with pytest.raises(InvalidPositionError):
            state.parse_move(bad)
    staircase = open_state("staircase", "0,3,1,4")
    assert staircase.parse_move("1 2").text == "2,1,1,4"  # steps are places: 0 is the floor


def test_limits() -> None:
    check_play_text("THHTTHHTHT")
    for text in ("1" * 7, "1," * 13, "x" * 201):
        with pytest.raises(TooLargeError):
            check_play_text(text)
    many = open_state("nim", "1000,1000")
    with pytest.raises(TooLargeError):
        many.options()
    assert many.to_json()["moves"] is None
    assert many.hint()["options"] is None
    assert many.parse_move("2 1000").text == "1000,0"
    assert isinstance(many.computer_move(random.Random(1)).state, PlayState)


def test_octal_moves_are_described_and_play_ends_without_heaps() -> None:
    state = open_state("kayles", "7,1")
    labels = {o.to: o.label for o in state.options()}
    assert labels["2,3,1"] == "heap 1: 7 -> 2+3 (take 2)"
    assert labels["7"] == "heap 2: 1 -> nothing (take 1)"
    last = open_state("kayles", "2").parse_move("")  # the position without heaps
    assert last.text == "" and last.over
    assert open_state("kayles", "").over


@pytest.mark.parametrize("cls", PLAYABLE, ids=lambda cls: cls.name)
def test_the_feedback_on_every_move_agrees_with_brute_force(cls: type) -> None:
    """From the example and from one of its P-positions (if any): every move's feedback says
    what brute force says, and a move called a give-away names a move that does win."""
    state = open_state(cls.name, cls.example, _options_for(cls.name))
    game = state.game
    starts = [state]
    losing = [
        o for o in state.options() if game.brute_outcome(game.parse_position(o.to)).value == "P"
    ]
    if losing:
        starts.append(state.after(game.parse_position(losing[0].to)))
    for start in starts:
        wins = game.brute_outcome(start.position).value == "N"
        for option in start.options():
            after = start.after(game.parse_position(option.to))
            feedback = start.feedback(after)
            if not wins:
                assert feedback["kind"] == "lost-already", feedback
            elif game.brute_outcome(after.position).value == "P":
                assert feedback["kind"] == "kept", feedback
            else:
                assert feedback["kind"] == "gave-away", feedback
                better = game.parse_position(feedback["better"])
                assert game.brute_outcome(better).value == "P", feedback
                assert f"({start.text} -> {feedback['better'] or '(empty)'})" in feedback["text"]

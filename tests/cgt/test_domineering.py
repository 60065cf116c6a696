"""Domineering: published values, the brute-force twin, game-tree search, and pycgt."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.cgt import Game, domineering, game, parse_game
from nimlab.cgt.rulesets.domineering import (
    Board,
    brute_value,
    first_player_wins,
    format_board,
    parse_board,
)
from nimlab.errors import InvalidPositionError


def rectangle(rows: int, cols: int) -> str:
    return "/".join(["." * cols] * rows)


# Published values (Left = Vertical):
# - 2x1 = 1, 1x2 = -1, 2x2 = ±1, 3x3 = ±1: Berlekamp, Conway, Guy, Winning Ways, vol. 1,
#   ch. 5 ("Domineering"); Albert, Nowakowski, Wolfe, Lessons in Play, ch. 1 and 2.
# - 2x3 = {2|-1/2} (mean 3/4, temperature 5/4): Wikipedia, "Domineering" (the 2x3 example),
#   and Berlekamp's 2xN notes (math.berkeley.edu/~berlek/classes/CLASS.275.03/2xN_Domineering:
#   the 3x2 board is 1/2|-2 = -3/4 ± 5/4, its negative).
# - 2x4 = miny 2 = {2|0||0}: pycgt 0.2.0's documentation (render(rectangle(2, 4)) == 'Miny(2)').
# - 4x5 = 1: issue 40 (CGSuite's value); 5x5 is a second-player win (value 0):
#   Drummond-Cole, "An update on Domineering on rectangular boards", INTEGERS 14 (2014) #G3.
PUBLISHED = [
    ("./.", "1"),
    ("..", "-1"),
    (rectangle(2, 2), "±1"),
    (rectangle(3, 3), "±1"),
    (rectangle(2, 3), "{2|-1/2}"),
    (rectangle(3, 2), "{1/2|-2}"),
    (rectangle(2, 4), "{2|0||0}"),
    (rectangle(4, 5), "1"),
]


@pytest.mark.parametrize(("board", "value"), PUBLISHED)
def test_published_values(board: str, value: str) -> None:
    assert domineering(board) is parse_game(value)


def test_two_by_three_thermal_facts() -> None:
    g = domineering(rectangle(2, 3))
    assert (str(g.mean), str(g.temperature)) == ("3/4", "5/4")


def _random_board(rng: random.Random, max_cells: int = 12) -> Board:
    h = rng.randint(1, 4)
    w = rng.randint(1, max(1, max_cells // h))
    mask = sum(1 << i for i in range(h * w) if rng.random() < 0.8)
    return Board(h, w, mask)


@given(st.randoms(use_true_random=False))
@settings(max_examples=80)
def test_regions_equal_the_brute_force_twin(rng: random.Random) -> None:
    board = _random_board(rng)
    assert domineering(board) is brute_value(board)


@given(st.randoms(use_true_random=False))
@settings(max_examples=80)
def test_outcome_is_the_game_tree_search(rng: random.Random) -> None:
    board = _random_board(rng, 14)
    left, right = first_player_wins(board, "L"), first_player_wins(board, "R")
    expected = {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}
    assert domineering(board).outcome == expected[(left, right)]


def _transpose(text: str) -> str:
    rows = text.split("/")
    return "/".join("".join(row[c] for row in rows) for c in range(len(rows[0])))


@given(st.randoms(use_true_random=False))
@settings(max_examples=60)
def test_transpose_is_negation_and_reflections_keep_the_value(rng: random.Random) -> None:
    text = format_board(_random_board(rng, 16))
    g = domineering(text)
    assert domineering(_transpose(text)) is -g
    assert domineering("/".join(text.split("/")[::-1])) is g
    assert domineering("/".join(row[::-1] for row in text.split("/"))) is g


def test_notation_round_trip_and_errors() -> None:
    assert format_board(parse_board("..#/#..")) == "..#/#.."
    for bad in ("", "../.", "..x", "./ /."):
        with pytest.raises(InvalidPositionError):
            parse_board(bad)


# -- against pycgt 0.2.0 (CGSuite's convention: Left vertical) ---------------------------------
pycgt = pytest.importorskip("pycgt")


def _from_pycgt(g: Any) -> Game:
    @cache
    def convert(x: Any) -> Game:
        return game([convert(o) for o in x.left], [convert(o) for o in x.right])

    return convert(g)


@pytest.mark.parametrize(("rows", "cols"), [(1, 2), (2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 4)])
def test_rectangles_against_pycgt(rows: int, cols: int) -> None:
    from pycgt.rulesets import domineering as pycgt_domineering

    assert domineering(rectangle(rows, cols)) is _from_pycgt(
        pycgt_domineering.rectangle(rows, cols)
    )


@given(st.randoms(use_true_random=False))
@settings(max_examples=40)
def test_random_boards_against_pycgt(rng: random.Random) -> None:
    from pycgt.rulesets import domineering as pycgt_domineering

    text = format_board(_random_board(rng, 12))
    theirs = pycgt_domineering.parse(text.replace("/", "\n"))
    assert domineering(text) is _from_pycgt(theirs)

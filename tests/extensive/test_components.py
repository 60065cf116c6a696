"""Component games: their moves against the catalogue's values, and labels that name moves."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from nimlab.catalogue import GameOptions, make_game
from nimlab.catalogue.red_blue_hackenbush import stalk_value
from nimlab.cgt.game import simplest_between
from nimlab.errors import InvalidPositionError, UnknownGameError
from nimlab.hidden.components import (
    NO_COMPONENTS,
    ComponentType,
    GrundyRow,
    HackenbushStalk,
    Nim2dCounter,
    NimHeap,
    OctalRow,
    Row,
    SubtractionHeap,
    components_for,
)
from nimlab.octal import OctalCode, grundy_game_sequence, grundy_sequence


def _grundy(game: ComponentType[Any]) -> Any:
    """The brute-force Grundy value of one component, from its moves alone."""

    @cache
    def g(state: Any) -> int:
        options = {g(after) for _, after in game.moves(state, 0)}
        return next(v for v in itertools.count() if v not in options)

    return g


def _positions(state: Row) -> set[int]:
    return {p for start, length in state for p in range(start, start + length)}


def _cuts(state: Row) -> set[int]:
    """The starts of parts that touch the part before them (cuts between counters)."""
    ends = {start + length for start, length in state}
    return {start for start, _ in state if start in ends}


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "0.6", "4.7", "0.51", "4.37", "0.4"])
def test_octal_rows_have_the_octal_sequence_values(code: str) -> None:
    game = OctalRow(OctalCode.parse(code))
    g = _grundy(game)
    expected = grundy_sequence(OctalCode.parse(code), 9)
    assert [g(game.parse(str(n))) for n in range(10)] == expected
    # a row with gaps is the sum of its parts
    for row in [((1, 3), (5, 4)), ((2, 2), (4, 3), (9, 1)), ((1, 2), (3, 5))]:
        total = 0
        for _, length in row:
            total ^= expected[length]
        assert g(row) == total


def test_grundy_rows_have_grundys_game_values() -> None:
    game = components_for("grundy-game")
    g = _grundy(game)
    assert [g(game.parse(str(n))) for n in range(13)] == grundy_game_sequence(12)


@pytest.mark.parametrize(
    ("game", "entry"),
    [
        (SubtractionHeap(allowed=(1, 3, 4)), GameOptions(subtraction_set=(1, 3, 4))),
        (SubtractionHeap(allowed=(2, 5)), GameOptions(subtraction_set=(2, 5))),
        (SubtractionHeap(max_take=3), GameOptions(max_take=3)),
        (NimHeap(), None),
    ],
    ids=["s134", "s25", "max3", "nim"],
)
def test_heaps_have_the_catalogue_values(game: ComponentType[int], entry: Any) -> None:
    g = _grundy(game)
    catalogue = make_game("subtraction" if entry else "nim", entry)
    assert [g(n) for n in range(25)] == [catalogue.grundy((n,)) for n in range(25)]


def test_nim2d_counters_are_two_nim_heaps() -> None:
    counter = components_for("nim2d")
    g = _grundy(counter)
    assert all(g((x, y)) == x ^ y for x in range(7) for y in range(7))


def test_hackenbush_stalks_have_their_values() -> None:
    stalk = HackenbushStalk()

    @cache
    def value(state: str) -> Fraction:
        lefts = [value(after) for _, after in stalk.moves(state, 0)]
        rights = [value(after) for _, after in stalk.moves(state, 1)]
        return simplest_between(max(lefts, default=None), min(rights, default=None))

    for n in range(7):
        for colours in itertools.product("BR", repeat=n):
            text = "".join(colours)
            assert value(text) == stalk_value(text)


def _random_rows(rng: random.Random, count: int) -> list[Row]:
    rows = []
    for _ in range(count):
        n = rng.randint(0, 9)
        cuts = sorted(rng.sample(range(1, n + 2), rng.randint(0, min(4, n + 1))))
        parts, start = [], 1
        for cut in [*cuts, n + 1]:
            if cut > start:
                parts.append((start, cut - start))
            start = cut + rng.randint(0, 1)
        rows.append(tuple(parts))
    return rows


STATES: dict[str, tuple[ComponentType[Any], list[Any]]] = {
    "nim": (NimHeap(), list(range(8))),
    "subtraction": (SubtractionHeap(allowed=(1, 3)), list(range(8))),
    "kayles": (components_for("kayles"), _random_rows(random.Random(1), 60)),
    "octal-4.37": (OctalRow(OctalCode.parse("4.37")), _random_rows(random.Random(2), 60)),
    "grundy": (GrundyRow(), _random_rows(random.Random(3), 60)),
    "nim2d": (Nim2dCounter(), [(x, y) for x in range(5) for y in range(5)]),
    "hackenbush": (
        HackenbushStalk(),
        ["".join(c) for n in range(5) for c in itertools.product("BR", repeat=n)],
    ),
}


def _effect(name: str, label: tuple[int, ...], before: Any, after: Any) -> Any:
    """What a move did, in the game's own terms (the same for a label wherever it is made)."""
    if name in ("nim", "subtraction"):
        return before - after
    if name == "nim2d":
        return before[0] - after[0], before[1] - after[1]
    if name == "hackenbush":
        assert before.startswith(after)
        return len(after)
    removed = _positions(before) - _positions(after)
    assert _positions(after) <= _positions(before)
    return frozenset(removed), frozenset(_cuts(after) - _cuts(before))


@pytest.mark.parametrize("name", list(STATES))
def test_labels_name_the_same_move_in_every_state(name: str) -> None:
    game, states = STATES[name]
    effects: dict[tuple[int, tuple[int, ...]], set[Any]] = {}
    for state in states:
        for player in (0, 1):
            moves = game.moves(state, player)
            assert [label for label, _ in moves] == sorted({label for label, _ in moves})
            for label, after in moves:
                assert game.play(state, label, player) == after
                effects.setdefault((player, label), set()).add(_effect(name, label, state, after))
            assert game.has_move(state, player) == bool(moves)
        assert game.is_empty(state) == (not game.moves(state, 0) and not game.moves(state, 1))
    assert effects and all(len(seen) == 1 for seen in effects.values())
    if name == "kayles":  # and the effect is what the label says
        assert effects[(0, (3, 2))] == {(frozenset({3, 4}), frozenset())}
    if name == "nim2d":
        assert effects[(0, (1, 2))] == {(0, 2)}
    if name == "grundy":
        assert effects[(1, (2, 3))] == {(frozenset(), frozenset({5}))}


@pytest.mark.parametrize("name", list(STATES))
def test_labels_not_listed_are_not_playable(name: str) -> None:
    game, states = STATES[name]
    labels = {label for s in states for p in (0, 1) for label, _ in game.moves(s, p)}
    for state, player in itertools.product(states, (0, 1)):
        legal = dict(game.moves(state, player))
        for label in labels - set(legal):
            assert game.play(state, label, player) is None


@pytest.mark.parametrize("name", list(STATES))
def test_notation_round_trips(name: str) -> None:
    game, states = STATES[name]
    for state in states:
        if name == "hackenbush" and not state:
            continue  # a cut-down stalk is written "" and is not a starting position
        assert game.parse(game.format(state)) == state
    assert isinstance(game.describe(states[1]), str)


def test_row_notation() -> None:
    kayles = components_for("kayles")
    assert kayles.parse("5") == ((1, 5),)
    assert kayles.parse("0") == ()
    assert kayles.parse("xx.x|xx") == ((1, 2), (4, 1), (5, 2))
    assert kayles.format(((1, 2), (4, 1), (5, 2))) == "xx.x|xx"
    assert kayles.describe(((2, 3),)) == ".xxx (3)"
    assert kayles.parse_position("5,xx.x") == (((1, 5),), ((1, 2), (4, 1)))
    for bad in ["x|", "|x", "x||x", "xy", "x.|x", ""]:
        with pytest.raises(InvalidPositionError):
            kayles.parse(bad)


def test_positions_use_the_analyze_notation() -> None:
    assert components_for("nim").parse_position("3,4,5") == (3, 4, 5)
    stalks = components_for("red-blue-hackenbush")
    assert stalks.parse_position("BR,RB") == ("BR", "RB")
    assert stalks.format_position(("BR", "")) == "BR,"
    with pytest.raises(InvalidPositionError, match="stalk"):
        stalks.parse_position("BR,,RB")
    with pytest.raises(InvalidPositionError):
        components_for("nim").parse_position(" ")


def test_components_for_the_catalogue_games() -> None:
    assert components_for("nim") == NimHeap() == components_for("nimble")
    assert components_for("subtraction", GameOptions(max_take=2)) == SubtractionHeap(max_take=2)
    assert components_for("subtraction-game", GameOptions(subtraction_set=(3, 1))).name == (
        "subtraction(S=1,3)"
    )
    assert components_for("octal", GameOptions(code=".07")).name == "octal(0.07)"
    assert components_for("kayles").name == "kayles"
    assert components_for("dawson-kayles") == OctalRow(OctalCode.parse("0.07"), "dawson-kayles")
    assert components_for("grundy-game") == GrundyRow()
    assert components_for("nim2d").parse_position("3:1,0:2") == ((3, 1), (0, 2))
    assert components_for("red-blue-hackenbush") == HackenbushStalk()
    # misère play is the hidden game's convention, not a component's
    assert components_for("nim", GameOptions(misere=True)) == NimHeap()


def test_components_for_refuses_what_has_no_components() -> None:
    for name, why in NO_COMPONENTS.items():
        with pytest.raises(InvalidPositionError, match="has no components to hide") as error:
            components_for(name)
        assert why in str(error.value)
    with pytest.raises(UnknownGameError):
        components_for("chess")
    with pytest.raises(InvalidPositionError, match="set S"):
        components_for("subtraction")
    with pytest.raises(InvalidPositionError, match="option code"):
        components_for("octal")
    with pytest.raises(InvalidPositionError, match="does not apply"):
        components_for("kayles", GameOptions(code="0.07"))


def test_every_catalogue_game_is_either_a_component_game_or_said_to_be_out() -> None:
    from nimlab.catalogue import game_names

    for name in game_names():
        try:
            components_for(name)
        except InvalidPositionError as error:
            assert name in NO_COMPONENTS or "option" in str(error), (name, error)

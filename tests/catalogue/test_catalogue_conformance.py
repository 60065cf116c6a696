"""Conformance of every registered game: closed form = brute force, notation round trip."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies_catalogue import all_configured_games

from nimlab.catalogue import CatalogueGame, load_game
from nimlab.core.game import Outcome

GAMES = all_configured_games()
IDS = [game.spec for game in GAMES]

#: Exhaustive checks stop after this many positions per game (each is brute-forced).
SMALL = 2000


def _small(game: CatalogueGame[Any]) -> list[Any]:
    return list(itertools.islice(game.small_positions(3), SMALL))


def _closed_winners(game: CatalogueGame[Any], position: Any) -> set[tuple[str | None, Any]]:
    moves = game.winning_moves(position)
    keys = [(m.player, m.to) for m in moves]
    assert len(keys) == len(set(keys)), "winning moves repeat a position"
    return set(keys)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_closed_form_equals_brute_force(game: CatalogueGame[Any]) -> None:
    for position in _small(game):
        assert game.grundy(position) == game.brute_grundy(position), position
        assert game.outcome(position) == game.brute_outcome(position), position
        assert game.value(position) == game.brute_value(position), position
        assert _closed_winners(game, position) == game.brute_winning_moves(position), position


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_notation_round_trip(game: CatalogueGame[Any]) -> None:
    for position in _small(game):
        assert game.parse_position(game.format_position(position)) == position


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_winning_moves_are_legal(game: CatalogueGame[Any]) -> None:
    for position in _small(game):
        options = set(game.moves(position))
        assert {m.to for m in game.winning_moves(position)} <= options


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_closed_form_is_consistent_beyond_the_bound(game: CatalogueGame[Any], data: Any) -> None:
    """One step of the recursion on larger positions: g(p) = mex g(options), by the closed form.

    With the exhaustive check above this is an induction: the closed form agrees with the
    definition everywhere it is sampled.
    """
    rng = data.draw(st.randoms(use_true_random=False))
    position = game.random_position(rng, 12)
    assert game.step_consistent(position), position
    if game.value(position) is None:  # not partisan: the winning moves are the moves to P
        options = set(game.moves(position))
        winners = {m.to for m in game.winning_moves(position)}
        assert winners == {q for q in options if game.outcome(q) is Outcome.P}


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_notation_round_trip_random(game: CatalogueGame[Any], data: Any) -> None:
    rng = data.draw(st.randoms(use_true_random=False))
    position = game.random_position(rng, 20)
    assert game.parse_position(game.format_position(position)) == position


def test_spec_strings_round_trip() -> None:
    for game in GAMES:
        assert load_game(game.spec).spec == game.spec

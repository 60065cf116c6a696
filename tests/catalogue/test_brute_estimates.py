"""The brute-force estimate of every catalogue game (``CatalogueGame.brute_size``) bounds the
search it estimates: no fewer positions than the search memoises, no fewer steps than it
takes, and not wildly more (counts compared, never timings)."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Any

import pytest
from strategies_catalogue import CONFIGURATIONS, all_configured_games

from nimlab.catalogue import CatalogueGame, GameOptions, load_game, make_game, registered_games
from nimlab.catalogue.base import BudgetedGame
from nimlab.catalogue.misere_play import MisereEntry
from nimlab.cgt.rulesets import hackenbush as hb
from nimlab.core.transforms import MisereGame
from nimlab.errors import TooLargeError

#: Every configured game, and misère play of each impartial game without its own rule.
GAMES = all_configured_games() + [
    make_game(cls.name, replace(CONFIGURATIONS.get(cls.name, [GameOptions()])[0], misere=True))
    for cls in registered_games()
    if cls.impartial and "--misere" not in cls.option_flags
]
IDS = [game.spec for game in GAMES]

#: The estimate may exceed the positions the search meets by this factor, summed over a game's
#: sample (measured: at most about 4, Grundy's game and staircase; 1 for Nim and Wythoff).
SANE_FACTOR = 16


def _positions(game: CatalogueGame[Any]) -> list[Any]:
    """Small positions (every 7th of the exhaustive list) and random ones of size 6."""
    small = list(itertools.islice(game.small_positions(3), 0, 1400, 7))
    rng = random.Random(44)
    return small + [game.random_position(rng, 6) for _ in range(12)]


def _searched_by_engine(game: CatalogueGame[Any]) -> bool:
    """Whether the brute force is the memoised engine (its memo can be read)."""
    return type(game).brute_outcome is CatalogueGame.brute_outcome


#: The memo keys of the partizan twins (the positions their searches memoise).
_KEYS: dict[str, Callable[[Any], Hashable]] = {"hackenbush": hb._key}


def _reachable(game: CatalogueGame[Any], position: Any) -> int:
    """Positions reachable by both players' moves, as the partizan twins key them."""
    key = _KEYS.get(game.name, lambda p: p)
    seen = {key(position)}
    stack = [position]
    while stack:
        for option in game.moves(stack.pop()):
            if key(option) not in seen:
                seen.add(key(option))
                stack.append(option)
    return len(seen)


def _search(game: CatalogueGame[Any], position: Any) -> tuple[int, int | None]:
    """Positions the brute force memoises on ``position``, and (the engine) its steps."""
    fresh = load_game(game.spec)
    if not _searched_by_engine(fresh):
        return _reachable(fresh, position), None
    fresh.brute_outcome(position)
    solver = fresh._solver
    budgeted = solver.game.base if isinstance(solver.game, MisereGame) else solver.game
    assert isinstance(budgeted, BudgetedGame)
    return len(solver), budgeted.steps


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_estimate_bounds_the_search(game: CatalogueGame[Any]) -> None:
    estimated = met = 0
    for position in _positions(game):
        size = game.brute_size(position)
        assert size is not None, f"{game.spec} gives no brute-force estimate"
        states, steps = _search(game, position)
        assert states <= size.states, (position, states, size)
        if steps is not None:  # positions expanded + options listed (weighted as counted)
            assert steps <= size.steps * size.scale, (position, steps, size)
        estimated += size.states
        met += states
    assert estimated <= SANE_FACTOR * met, (estimated, met)


MISERE = [game for game in GAMES if isinstance(game, MisereEntry)]


@pytest.mark.parametrize("game", MISERE, ids=[game.spec for game in MISERE])
def test_the_misere_search_is_estimated(game: MisereEntry) -> None:
    """Misère play without a quotient searches the same positions: its estimate is the
    base game's (no game is left unestimated)."""
    position = game.random_position(random.Random(1), 6)
    assert game.brute_size(position) == game.base.brute_size(position)
    assert game._brute_cost(position).seconds > 0


def test_huge_positions_are_estimated_at_once() -> None:
    """Positions with huge parts: the estimate saturates in well under a second."""
    huge = {
        "nim": "1" + "0" * 3000,
        "kayles": ",".join(["4000"] * 50),
        "turning-turtles": "H" * 100_000,
        "silver-dollar": ",".join(str(10**80 + i) for i in range(200)),
        "domineering": "/".join(["." * 12] * 150),
        "green-hackenbush": ",".join(f"g-a{i},a{i}-a{i + 1}" for i in range(5000)),
        "staircase": ",".join(["1000000000"] * 10_000),
    }
    for name, text in huge.items():
        game = make_game(name)
        position = game.parse_position(text)
        start = time.process_time()
        with pytest.raises(TooLargeError, match="--limit"):
            game.check_brute(position)
        assert time.process_time() - start < 1.0, name

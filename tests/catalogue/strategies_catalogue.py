"""Shared configurations and hypothesis strategies for the catalogue tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from nimlab.catalogue import CatalogueGame, GameOptions, make_game, registered_games

__all__ = ["CONFIGURATIONS", "all_configured_games", "random_positions"]

#: Options under which each registered game is checked; a game missing here is checked with
#: no options (so a newly registered game is tested at once, and fails if it needs options).
CONFIGURATIONS: dict[str, list[GameOptions]] = {
    "nim": [GameOptions(), GameOptions(misere=True)],
    "subtraction": [
        GameOptions(subtraction_set=(1, 3, 4)),
        GameOptions(subtraction_set=(2, 5)),
        GameOptions(subtraction_set=(2, 3, 7)),
        GameOptions(max_take=1),
        GameOptions(max_take=2),
        GameOptions(max_take=3),
    ],
    "poker-nim": [
        GameOptions(additions=0, cap=3),
        GameOptions(additions=1, cap=3),
        GameOptions(additions=2, cap=2),
    ],
    "skip-nim": [
        GameOptions(skips=(a, b)) for a, b in [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]
    ],
    "octal": [GameOptions(code="0.137"), GameOptions(code="4.7")],
}


def all_configured_games() -> list[CatalogueGame[Any]]:
    """Every registered game under each of its test configurations."""
    return [
        make_game(cls.name, options)
        for cls in registered_games()
        for options in CONFIGURATIONS.get(cls.name, [GameOptions()])
    ]


def random_positions(game: CatalogueGame[Any], size: int) -> st.SearchStrategy[Any]:
    """Random positions of ``game`` with parts up to about ``size``."""
    return st.randoms(use_true_random=False).map(lambda rng: game.random_position(rng, size))

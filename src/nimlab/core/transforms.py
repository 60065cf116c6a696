"""Games built from games: misère play and disjunctive sums.

*Misère* here means the player who makes the last move loses (equivalently: a player with no
move wins). The move function is unchanged, so :func:`misere` is a thin wrapper that the solvers
recognise.

>>> from nimlab import grundy_value, outcome
>>> from nimlab.core.game import MoveFunctionGame
>>> heap = MoveFunctionGame(lambda n: range(n), name="nim-heap")
>>> two_heaps = disjunctive_sum(heap, heap)
>>> grundy_value(two_heaps, (3, 5)) == 3 ^ 5
True
>>> outcome(misere(two_heaps), (1, 1)), outcome(two_heaps, (1, 1))
(<Outcome.N: 'N'>, <Outcome.P: 'P'>)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from nimlab.core.game import ImpartialGame

__all__ = ["MisereGame", "SumGame", "disjunctive_sum", "is_misere", "misere"]


@dataclass(frozen=True, eq=False)
class MisereGame:
    """``base`` played under the misère convention: the last player to move loses."""

    base: ImpartialGame[Any]

    def moves(self, position: Any, /) -> Iterable[Any]:
        """The same options as in the base game."""
        return self.base.moves(position)

    def __str__(self) -> str:
        return f"misere({self.base})"


def misere(game: ImpartialGame[Any]) -> MisereGame:
    """Play ``game`` under the misère convention (``misere(misere(g))`` is ``misere(g)``)."""
    return game if isinstance(game, MisereGame) else MisereGame(game)


def is_misere(game: object) -> bool:
    """Whether ``game`` is played under the misère convention."""
    return isinstance(game, MisereGame)


@dataclass(frozen=True, eq=False)
class SumGame:
    """The disjunctive sum: a move is a move in exactly one component; positions are tuples."""

    components: tuple[ImpartialGame[Any], ...]

    def moves(self, position: tuple[Hashable, ...], /) -> Iterator[tuple[Hashable, ...]]:
        """Every option: one component moves, the others stay."""
        for index, (game, part) in enumerate(zip(self.components, position, strict=True)):
            for option in game.moves(part):
                yield (*position[:index], option, *position[index + 1 :])

    def __str__(self) -> str:
        return " + ".join(str(g) for g in self.components)


def disjunctive_sum(*games: ImpartialGame[Any]) -> SumGame:
    """The sum ``G1 + G2 + ...``; its Grundy value is the nim-sum of the components' values."""
    return SumGame(tuple(games))

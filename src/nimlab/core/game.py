"""The impartial-game protocol: a game is nothing but its move function.

A game is any object with a ``moves(position)`` method returning the positions reachable in one
move. Positions must be hashable (tuples, ints, strings, frozen dataclasses). Play ends when a
player has no move; under *normal* play that player loses, under *misère* play (see
:func:`nimlab.core.misere`) that player wins.

The quickest way to define a game is :class:`MoveFunctionGame`; here is the subtraction game
where a move removes 1, 3 or 4 counters from a single heap:

>>> from nimlab import grundy_value, outcome
>>> take_134 = MoveFunctionGame(lambda n: [n - s for s in (1, 3, 4) if s <= n], name="S(1,3,4)")
>>> [grundy_value(take_134, n) for n in range(10)]
[0, 1, 0, 1, 2, 3, 2, 0, 1, 0]
>>> outcome(take_134, 7)
<Outcome.P: 'P'>

Any class with a ``moves`` method works as well (no base class needed):

>>> class Turn:
...     def moves(self, n: int) -> list[int]:
...         return [n // 2] if n > 1 else []
>>> grundy_value(Turn(), 10)
1
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Generic, Protocol, TypeVar

__all__ = ["ImpartialGame", "MoveFunctionGame", "Outcome", "P"]

P = TypeVar("P", bound=Hashable)
P_co = TypeVar("P_co", bound=Hashable, covariant=True)


class ImpartialGame(Protocol[P]):
    """Rules of an impartial game: the options (positions one move away) of a position."""

    def moves(self, position: P, /) -> Iterable[P]:
        """Every position reachable from ``position`` in one move (repeats are harmless)."""
        ...


class Outcome(StrEnum):
    """Who wins with perfect play.

    ``N``: the player to move (the Next player) wins; ``P``: the Previous player wins, i.e. the
    player to move loses. ``L`` and ``R`` are for partisan games: Left (Blue) or Right (Red) wins
    whoever starts.
    """

    N = "N"
    P = "P"
    L = "L"
    R = "R"


@dataclass(frozen=True, eq=False)
class MoveFunctionGame(Generic[P]):
    """An impartial game given by a plain function from a position to its options."""

    move_function: Callable[[P], Iterable[P]]
    name: str = field(default="game")

    def moves(self, position: P, /) -> Iterable[P]:
        """The options of ``position``, as the move function gives them."""
        return self.move_function(position)

    def __str__(self) -> str:
        return self.name

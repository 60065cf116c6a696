"""Grundy values, outcomes and winning moves of any impartial game, by memoised search.

The search is iterative (an explicit stack, so a chain of a million positions needs no
recursion), memoises every position it meets, and raises :class:`~nimlab.errors.LoopyGameError`
if a position can be reached from itself.

Under misère play (``misere(game)``) the value computed is the *misère Grundy value*: a
terminal position has value 1 and every other position the mex of its options. A position is a
misère P-position exactly when this value is 0.

>>> from nimlab.core import MoveFunctionGame, misere
>>> heap = MoveFunctionGame(lambda n: range(n))
>>> [grundy_value(heap, n) for n in range(4)], [grundy_value(misere(heap), n) for n in range(4)]
([0, 1, 2, 3], [1, 0, 2, 3])
>>> winning_moves(misere(heap), 3)
[1]

A game with a ``check_search(position)`` method (every catalogue game) is asked first, so that a
search over its budget is refused before it starts:

>>> from nimlab.catalogue import make_game
>>> outcome(misere(make_game("silver-dollar")), (10, 20, 30, 40, 50, 60, 70, 80, 90, 100))
... # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
nimlab.errors.TooLargeError: the brute-force search of silver-dollar 10,20,30,40,50,...
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from typing import Any, Generic

from nimlab.core.game import ImpartialGame, Outcome, P
from nimlab.core.transforms import is_misere
from nimlab.errors import LoopyGameError

__all__ = ["GrundySolver", "grundy_value", "outcome", "winning_moves"]


class GrundySolver(Generic[P]):
    """A game with a memo of the Grundy values found so far.

    Reuse one solver for many queries on the same game; the module-level functions keep one
    solver per game object automatically.

    >>> from nimlab.core import MoveFunctionGame
    >>> chain = GrundySolver(MoveFunctionGame(lambda n: [n - 1] if n else []))
    >>> chain.grundy_value(200_000), len(chain)
    (0, 200001)
    """

    def __init__(self, game: ImpartialGame[P]) -> None:
        self.game = game
        self._terminal_value = 1 if is_misere(game) else 0
        self._memo: dict[P, int] = {}
        # a game may refuse a search too large for its budget before it starts (the catalogue's
        # games estimate it from the position: CatalogueGame.check_search)
        searched = getattr(game, "base", game) if is_misere(game) else game
        self._check: Callable[[P], None] | None = getattr(searched, "check_search", None)

    def __len__(self) -> int:
        """How many positions have been evaluated."""
        return len(self._memo)

    def grundy_value(self, position: P) -> int:
        """The (normal or misère) Grundy value of ``position``."""
        memo = self._memo
        known = memo.get(position)
        if known is not None:
            return known
        if self._check is not None:
            self._check(position)
        moves = self.game.moves
        terminal = self._terminal_value
        on_path: set[P] = {position}
        # Each frame: the position, an iterator over its options, the option values seen.
        stack: list[tuple[P, Iterator[P], set[int]]] = [(position, iter(moves(position)), set())]
        while stack:
            current, options, values = stack[-1]
            for option in options:
                value = memo.get(option)
                if value is not None:
                    values.add(value)
                    continue
                if option in on_path:
                    raise LoopyGameError(
                        f"the game is loopy: position {option!r} can be reached from itself"
                    )
                on_path.add(option)
                stack.append((option, iter(moves(option)), set()))
                break
            else:
                stack.pop()
                on_path.discard(current)
                if values:
                    result = 0
                    while result in values:
                        result += 1
                else:
                    result = terminal
                memo[current] = result
                if stack:
                    stack[-1][2].add(result)
        return memo[position]

    def outcome(self, position: P) -> Outcome:
        """``Outcome.P`` if the player to move loses with perfect play, else ``Outcome.N``."""
        return Outcome.P if self.grundy_value(position) == 0 else Outcome.N

    def winning_moves(self, position: P) -> list[P]:
        """The options of ``position`` that are P-positions (empty if ``position`` is lost)."""
        seen: set[P] = set()
        winners: list[P] = []
        for option in self.game.moves(position):
            if option not in seen:
                seen.add(option)
                if self.grundy_value(option) == 0:
                    winners.append(option)
        return winners


_solvers: weakref.WeakKeyDictionary[Any, GrundySolver[Any]] = weakref.WeakKeyDictionary()


def _solver(game: ImpartialGame[P]) -> GrundySolver[P]:
    try:
        solver = _solvers.get(game)
        if solver is None:
            solver = _solvers[game] = GrundySolver(game)
    except TypeError:  # not weak-referenceable or not hashable: no cross-call memo
        return GrundySolver(game)
    return solver


def grundy_value(game: ImpartialGame[P], position: P) -> int:
    """The Grundy value (nimber) of ``position``; misère Grundy value for ``misere(game)``."""
    return _solver(game).grundy_value(position)


def outcome(game: ImpartialGame[P], position: P) -> Outcome:
    """Who wins ``position`` with perfect play: ``Outcome.N`` (player to move) or ``Outcome.P``."""
    return _solver(game).outcome(position)


def winning_moves(game: ImpartialGame[P], position: P) -> list[P]:
    """The distinct options that win, i.e. those that leave the opponent a P-position."""
    return _solver(game).winning_moves(position)

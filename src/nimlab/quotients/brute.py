"""Misère outcomes of sums of heaps by exhaustive search: the independent check of quotients.

A position is a multiset of heaps (a sorted tuple, heaps without moves dropped); it is a
P-position under misère play when it has a move and every move leads to an N-position (a
position without moves is N: the player to move has already won).

>>> from nimlab.octal import OctalCode
>>> kayles = BruteMisere(OctalCode.parse("0.77").heap_options)
>>> kayles.is_p((1,)), kayles.is_p((1, 1)), kayles.is_p((2, 2)), kayles.is_p(())
(True, False, True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations_with_replacement

from nimlab.quotients.solver import HeapMoves

__all__ = ["BruteMisere", "words_upto"]


class BruteMisere:
    """Memoised misère outcomes of multisets of heaps of one heap game."""

    def __init__(self, moves: HeapMoves) -> None:
        self._moves = moves
        self._options: dict[int, list[tuple[int, ...]]] = {}
        self._p: dict[tuple[int, ...], bool] = {}

    def heap_options(self, n: int) -> list[tuple[int, ...]]:
        """The options of heap ``n``, each with its dead heaps (no moves) removed."""
        if n not in self._options:
            self._options[n] = [
                tuple(h for h in option if self.heap_options(h)) for option in self._moves(n)
            ]
        return self._options[n]

    def canonical(self, heaps: Iterable[int]) -> tuple[int, ...]:
        """Sorted, heaps without moves removed."""
        return tuple(sorted(h for h in heaps if self.heap_options(h)))

    def options(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Every position one move away (canonical)."""
        seen = set()
        for index, heap in enumerate(position):
            if heap in seen:
                continue
            seen.add(heap)
            rest = position[:index] + position[index + 1 :]
            for option in self.heap_options(heap):
                yield tuple(sorted(rest + option))

    def is_p(self, heaps: Sequence[int]) -> bool:
        """Whether the sum of ``heaps`` is a misère P-position (the player to move loses)."""
        start = self.canonical(heaps)
        memo = self._p
        if start in memo:
            return memo[start]
        stack = [start]
        while stack:  # iterative depth-first search, so long sums do not overflow the stack
            position = stack[-1]
            if position in memo:
                stack.pop()
                continue
            pending = [q for q in self.options(position) if q not in memo]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            memo[position] = bool(position) and not any(memo[q] for q in self.options(position))
        return memo[start]


def words_upto(count: int, largest: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of 1 to ``count`` heaps of sizes 1..``largest``.

    >>> len(list(words_upto(2, 3)))
    9
    """
    for k in range(1, count + 1):
        yield from combinations_with_replacement(range(1, largest + 1), k)

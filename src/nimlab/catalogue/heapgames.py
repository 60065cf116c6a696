"""The common ground of heap games: heap notation, small and random heap positions.

>>> from nimlab.catalogue import make_game
>>> game = make_game("nim")
>>> game.parse_position("3, 4,5"), game.format_position((3, 4, 5))
((3, 4, 5), '3,4,5')
>>> len(list(game.small_positions(2)))  # 1 to 3 heaps of sizes 0..2
39
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from nimlab.catalogue.base import CatalogueGame
from nimlab.core.heaps import Heaps, format_heaps, parse_heaps

__all__ = ["HeapGame", "replace_heap"]


def replace_heap(heaps: Heaps, index: int, *new: int) -> Heaps:
    """``heaps`` with heap ``index`` replaced by the heaps ``new`` (none, one or several).

    >>> replace_heap((3, 4, 5), 1, 2), replace_heap((3, 4, 5), 1, 1, 2), replace_heap((3, 4), 0)
    ((3, 2, 5), (3, 1, 2, 5), (4,))
    """
    return (*heaps[:index], *new, *heaps[index + 1 :])


class HeapGame(CatalogueGame[Heaps]):
    """A game whose positions are heaps ``a,b,c`` (tuples of non-negative integers)."""

    notation = "heaps a,b,c"
    example = "3,4,5"

    def parse_position(self, text: str) -> Heaps:
        """Heaps separated by commas."""
        return parse_heaps(text)

    def format_position(self, position: Heaps) -> str:
        """``a,b,c``."""
        return format_heaps(position)

    def small_positions(self, size: int) -> Iterator[Heaps]:
        """1 to 3 heaps of sizes 0..size."""
        for count in (1, 2, 3):
            yield from itertools.product(range(size + 1), repeat=count)

    def random_position(self, rng: random.Random, size: int) -> Heaps:
        """1 to 4 heaps of sizes 0..size."""
        return tuple(rng.randint(0, size) for _ in range(rng.randint(1, 4)))

    def sequence_position(self, n: int) -> Heaps:
        """The single heap ``n``."""
        return (n,)

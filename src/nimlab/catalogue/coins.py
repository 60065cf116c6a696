"""Nimble and two-dimensional Nim: coins sliding towards a wall are Nim heaps (catalogue article).

Nimble: coins on squares 0, 1, 2, ... (several may share a square); a move slides one coin to
any square on its left. A coin on square k is a Nim heap of k.

2D Nim: counters on the quarter plane; a move slides one counter left or down. A counter at
(x, y) is two Nim heaps x and y (no move changes both coordinates).

>>> from nimlab.catalogue import make_game
>>> nimble = make_game("nimble")
>>> nimble.grundy((1, 3, 3, 6)), nimble.format_position(nimble.parse_position("6,1,3,3"))
(7, '1,3,3,6')
>>> board = make_game("nim2d")
>>> p = board.parse_position("1:2,3:0")
>>> board.grundy(p), [board.format_position(m.to) for m in board.winning_moves(p)]
(0, [])
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from functools import reduce
from operator import xor

from rich.console import Group, RenderableType
from rich.text import Text

from nimlab.catalogue.base import CatalogueGame, CatalogueMove, unique_moves
from nimlab.catalogue.brute import BruteSize, heap_product, multisets
from nimlab.catalogue.registry import register
from nimlab.catalogue.render import nim_sum_table
from nimlab.core.heaps import Heaps, format_heaps, parse_heaps
from nimlab.errors import InvalidPositionError

__all__ = ["Nim2dEntry", "NimbleEntry"]

Counter = tuple[int, int]
Board = tuple[Counter, ...]

_COUNTER = re.compile(r"([0-9]+):([0-9]+)")


def _sorted_replace(items: tuple[int, ...], index: int, new: int) -> tuple[int, ...]:
    return tuple(sorted((*items[:index], new, *items[index + 1 :])))


@register
class NimbleEntry(CatalogueGame[Heaps]):
    """Nimble: coins on squares 0, 1, 2, ...; slide one coin to the left."""

    name = "nimble"
    summary = "Slide one coin to any square on its left (coins may share a square)."
    notation = "squares of the coins, 0-based (any order; kept sorted)"
    example = "1,3,3,6"
    sequence_meaning = "one coin on square n"

    def parse_position(self, text: str) -> Heaps:
        """Squares separated by commas; an empty string is the empty board."""
        return tuple(sorted(parse_heaps(text, allow_empty=True)))

    def format_position(self, position: Heaps) -> str:
        """Sorted squares ``a,b,c``."""
        return format_heaps(position)

    def moves(self, position: Heaps, /) -> Iterator[Heaps]:
        """One coin from square k to any square j < k."""
        for index, square in enumerate(position):
            for left in range(square):
                yield _sorted_replace(position, index, left)

    def brute_size(self, position: Heaps) -> BruteSize:
        """Coins kept sorted: each coin below its square, or any multiset of as many coins on
        the squares up to the largest, whichever is fewer; at most one move per square left.

        >>> from nimlab.catalogue import make_game
        >>> make_game("nimble").brute_size((1, 3, 3, 6))
        BruteSize(states=210, options=13, scale=1.0)
        """
        largest = max(position, default=0)
        states = min(heap_product(position), multisets(len(position), largest + 1))
        return BruteSize(states, sum(position))

    def grundy(self, position: Heaps) -> int:
        """The nim-sum of the squares."""
        return reduce(xor, position, 0)

    def winning_moves(self, position: Heaps) -> list[CatalogueMove[Heaps]]:
        """A coin on k slides to k xor s when that is smaller."""
        total = self.grundy(position)
        return unique_moves(
            CatalogueMove(
                _sorted_replace(position, i, k ^ total), f"coin {i + 1}: square {k} -> {k ^ total}"
            )
            for i, k in enumerate(position)
            if k ^ total < k
        )

    def explain(self, position: Heaps) -> RenderableType:
        """A coin on square k is a Nim heap of size k."""
        total = self.grundy(position)
        rows = [(f"coin {i + 1} (square {k})", k) for i, k in enumerate(position)]
        marked = {i for i, k in enumerate(position) if k ^ total < k}
        return Group(Text("A coin on square k is a Nim heap of k."), nim_sum_table(rows, marked))

    def small_positions(self, size: int) -> Iterator[Heaps]:
        """0 to 3 coins on squares 0..size+1."""
        for count in range(4):
            yield from itertools.combinations_with_replacement(range(size + 2), count)

    def random_position(self, rng: random.Random, size: int) -> Heaps:
        """0 to 5 coins on squares 0..size."""
        return tuple(sorted(rng.randint(0, size) for _ in range(rng.randint(0, 5))))

    def sequence_position(self, n: int) -> Heaps:
        """One coin on square n."""
        return (n,)


@register
class Nim2dEntry(CatalogueGame[Board]):
    """Two-dimensional Nim: counters ``x:y`` slide left or down."""

    name = "nim2d"
    aliases = ("2d-nim",)
    summary = "Slide one counter left or down (one coordinate decreases)."
    notation = "counters x:y separated by commas (kept sorted)"
    example = "1:2,3:0"
    sequence_meaning = "one counter at n:0"

    def parse_position(self, text: str) -> Board:
        """``x:y`` counters; an empty string is the empty board."""
        counters = []
        for token in filter(None, (t.strip() for t in text.split(","))):
            match = _COUNTER.fullmatch(token)
            if match is None:
                raise InvalidPositionError(
                    f"invalid counter {token!r}: write x:y with non-negative integers, e.g. 1:2"
                )
            counters.append((int(match[1]), int(match[2])))
        return tuple(sorted(counters))

    def format_position(self, position: Board) -> str:
        """Sorted ``x:y`` counters."""
        return ",".join(f"{x}:{y}" for x, y in position)

    def _replace(self, position: Board, index: int, counter: Counter) -> Board:
        return tuple(sorted((*position[:index], counter, *position[index + 1 :])))

    def moves(self, position: Board, /) -> Iterator[Board]:
        """Decrease one coordinate of one counter."""
        for index, (x, y) in enumerate(position):
            yield from (self._replace(position, index, (left, y)) for left in range(x))
            yield from (self._replace(position, index, (x, down)) for down in range(y))

    def brute_size(self, position: Board) -> BruteSize:
        """Counters kept sorted: each in the box below it, or any multiset of as many
        counters in the box below the largest coordinates, whichever is fewer; at most one
        move per coordinate step.

        >>> from nimlab.catalogue import make_game
        >>> make_game("nim2d").brute_size(((1, 2), (3, 0)))
        BruteSize(states=24, options=6, scale=1.0)
        """
        boxes = heap_product((x + 1) * (y + 1) - 1 for x, y in position)
        width = max((x for x, _ in position), default=0) + 1
        height = max((y for _, y in position), default=0) + 1
        states = min(boxes, multisets(len(position), width * height))
        return BruteSize(states, sum(x + y for x, y in position))

    def grundy(self, position: Board) -> int:
        """The nim-sum of every coordinate."""
        return reduce(xor, (c for counter in position for c in counter), 0)

    def winning_moves(self, position: Board) -> list[CatalogueMove[Board]]:
        """A coordinate c goes to c xor s when that is smaller."""
        total = self.grundy(position)
        result = []
        for index, (x, y) in enumerate(position):
            if x ^ total < x:
                to = self._replace(position, index, (x ^ total, y))
                result.append(CatalogueMove(to, f"{x}:{y} left to {x ^ total}:{y}"))
            if y ^ total < y:
                to = self._replace(position, index, (x, y ^ total))
                result.append(CatalogueMove(to, f"{x}:{y} down to {x}:{y ^ total}"))
        return unique_moves(result)

    def explain(self, position: Board) -> RenderableType:
        """Each counter is two Nim heaps, its coordinates."""
        total = self.grundy(position)
        rows = [
            (f"{label} of {x}:{y}", c) for x, y in position for label, c in (("x", x), ("y", y))
        ]
        marked = {i for i, (_, c) in enumerate(rows) if c ^ total < c}
        return Group(
            Text("A counter at x:y is two Nim heaps, x and y."), nim_sum_table(rows, marked)
        )

    def small_positions(self, size: int) -> Iterator[Board]:
        """0 to 2 counters with coordinates 0..size."""
        cells = list(itertools.product(range(size + 1), repeat=2))
        for count in range(3):
            yield from itertools.combinations_with_replacement(cells, count)

    def random_position(self, rng: random.Random, size: int) -> Board:
        """0 to 4 counters with coordinates 0..size."""
        count = rng.randint(0, 4)
        return tuple(sorted((rng.randint(0, size), rng.randint(0, size)) for _ in range(count)))

    def sequence_position(self, n: int) -> Board:
        """One counter at n:0."""
        return ((n, 0),)

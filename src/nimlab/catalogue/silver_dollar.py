"""The Silver Dollar game (coins without the dollar): the Sprague-Grundy catalogue article.

Cells 1, 2, 3, ... hold at most one coin each; a move slides one coin left, without jumping
over another coin and without leaving the board. Let gap_i be the number of empty cells just
left of coin i (for the leftmost coin: up to the edge). Pair the coins from the right: (rightmost,
next), (third, fourth), ...; with an odd number of coins the leftmost is paired with the edge.
The Grundy value is the nim-sum of the gaps in front of the *right* coin of each pair: moving a
right coin is a Nim move, moving a left coin enlarges its partner's gap and can be undone.

The catalogue article's slip: its table marks cells {2, 5, 7, 11} while the sentence above it says
{2, 5, 7, 10}. The text after the table uses {2, 5, 7, 11}: gaps {1, 2, 1, 3}, counted gaps
{2, 3} (nim-sum 1, the player to move wins by moving the coin at 11 to 10). For {2, 5, 7, 10}
the gaps are {1, 2, 1, 2}, the counted ones {2, 2}: a lost position.

>>> from nimlab.catalogue import make_game
>>> game = make_game("silver-dollar")
>>> game.gaps((2, 5, 7, 11)), game.grundy((2, 5, 7, 11)), game.grundy((2, 5, 7, 10))
((1, 2, 1, 3), 1, 0)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from rich.console import Group, RenderableType
from rich.text import Text

from nimlab.catalogue.base import CatalogueGame, CatalogueMove
from nimlab.catalogue.brute import BruteSize, increasing_below
from nimlab.catalogue.registry import register
from nimlab.catalogue.render import nim_sum_table
from nimlab.core.heaps import Heaps, format_heaps, parse_heaps
from nimlab.errors import InvalidPositionError

__all__ = ["SilverDollarEntry"]


def _move(cells: Heaps, index: int, to: int) -> Heaps:
    return (*cells[:index], to, *cells[index + 1 :])


@register
class SilverDollarEntry(CatalogueGame[Heaps]):
    """Silver Dollar without the dollar: coins on cells 1, 2, ... slide left."""

    name = "silver-dollar"
    summary = "Slide one coin left, not onto or over another coin."
    notation = "occupied cells, 1-based, increasing"
    example = "2,5,7,11"
    sequence_meaning = "one coin on cell n (no coin for n = 0)"

    def parse_position(self, text: str) -> Heaps:
        """Increasing cells >= 1 (the empty string is the empty board)."""
        cells = parse_heaps(text, allow_empty=True)
        previous = 0
        for cell in cells:
            if cell <= previous:
                problem = "cells start at 1" if cell == 0 else "cells must increase"
                raise InvalidPositionError(f"invalid cell {cell} in {text!r}: {problem}")
            previous = cell
        return cells

    def format_position(self, position: Heaps) -> str:
        """``c1,c2,...``."""
        return format_heaps(position)

    def moves(self, position: Heaps, /) -> Iterator[Heaps]:
        """A coin at c moves to any free cell between its left neighbour (or 0) and c."""
        for index, cell in enumerate(position):
            left = position[index - 1] if index else 0
            yield from (_move(position, index, to) for to in range(left + 1, cell))

    def brute_size(self, position: Heaps) -> BruteSize:
        """Coins keep their order, each left of where it is: increasing cells below the
        position's; at most one move per empty cell in front of a coin.

        >>> from nimlab.catalogue import make_game
        >>> make_game("silver-dollar").brute_size((2, 5, 7, 11))
        BruteSize(states=122, options=7, scale=1.0)
        """
        return BruteSize(increasing_below(position), sum(self.gaps(position)))

    def gaps(self, position: Heaps) -> Heaps:
        """The empty cells in front of each coin."""
        return tuple(c - (position[i - 1] if i else 0) - 1 for i, c in enumerate(position))

    def counted(self, position: Heaps) -> list[int]:
        """Indices of the right coins of the pairs (rightmost, third from the right, ...)."""
        return list(range(len(position) - 1, -1, -2))

    def grundy(self, position: Heaps) -> int:
        """The nim-sum of the counted gaps."""
        gaps = self.gaps(position)
        total = 0
        for index in self.counted(position):
            total ^= gaps[index]
        return total

    def _winning(self, position: Heaps) -> list[tuple[int, int]]:
        """``(coin index, destination)`` of each winning move."""
        total = self.grundy(position)
        if total == 0:
            return []
        gaps = self.gaps(position)
        result = []
        for index in self.counted(position):
            target = gaps[index] ^ total
            if target < gaps[index]:
                result.append((index, position[index] - (gaps[index] - target)))
            elif index and target - gaps[index] <= gaps[index - 1]:
                result.append((index - 1, position[index - 1] - (target - gaps[index])))
        return sorted(result)

    def winning_moves(self, position: Heaps) -> list[CatalogueMove[Heaps]]:
        """Shrink a counted gap (move its coin) or widen it (move the partner coin)."""
        return [
            CatalogueMove(_move(position, i, to), f"coin at {position[i]} -> {to}")
            for i, to in self._winning(position)
        ]

    def explain(self, position: Heaps) -> RenderableType:
        """The pairing from the right and the counted gaps."""
        gaps = self.gaps(position)
        counted = list(reversed(self.counted(position)))
        rows = []
        for index in counted:
            partner = f"coin at {position[index - 1]}" if index else "the edge"
            rows.append((f"coin at {position[index]} (paired with {partner})", gaps[index]))
        moved = {i for i, _ in self._winning(position)}
        marked = {row for row, index in enumerate(counted) if {index, index - 1} & moved}
        parts: list[RenderableType] = []
        if position and position[-1] <= 80:
            cells = set(position)
            board = "".join("o" if c in cells else "." for c in range(1, position[-1] + 1))
            parts.append(Text(f"board: {board}"))
        parts.append(Text(f"gaps in front of the coins: {list(gaps)}"))
        parts.append(Text("Pairing the coins from the right, each right coin's gap is a Nim heap."))
        parts.append(nim_sum_table(rows, marked, title="pair"))
        return Group(*parts)

    def small_positions(self, size: int) -> Iterator[Heaps]:
        """Every set of coins on cells 1..size+4."""
        cells = range(1, size + 5)
        for count in range(len(cells) + 1):
            yield from itertools.combinations(cells, count)

    def random_position(self, rng: random.Random, size: int) -> Heaps:
        """Up to 6 coins on cells 1..3·size."""
        count = rng.randint(0, min(6, 3 * size))
        return tuple(sorted(rng.sample(range(1, 3 * size + 1), count)))

    def sequence_position(self, n: int) -> Heaps:
        """One coin on cell n (the empty board for n = 0)."""
        return (n,) if n else ()

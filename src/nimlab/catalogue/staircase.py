"""Staircase Nim: move any number of coins from a step down to the next one (the catalogue article).

Steps are numbered 0..n-1; step 0 is the floor, coins there take no further part. The Grundy
value is the nim-sum of the coins on the *odd* steps: a move from an odd step is a Nim move, a
move from an even step to the odd step below adds coins there and can always be undone by
moving those coins on down (the article's "move cancellation"). Winning moves are therefore of two
kinds: take coins down from an odd step, or bring coins down from an even step onto an odd one.

>>> from nimlab.catalogue import make_game
>>> game = make_game("staircase")
>>> [game.format_position(m.to) for m in game.winning_moves((0, 3, 1, 4))]
['0,4,0,4', '0,3,2,3']
>>> [m.label for m in game.winning_moves((0, 1, 3, 0))]
['step 1 -> step 0: 1 coin(s)']
>>> [m.label for m in game.winning_moves((0, 2, 3, 3))]
['step 2 -> step 1: 1 coin(s)', 'step 3 -> step 2: 1 coin(s)']
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from functools import reduce
from itertools import accumulate
from operator import xor

from rich.console import Group, RenderableType
from rich.text import Text

from nimlab.budget import Cost, saturated
from nimlab.catalogue.base import CatalogueMove, unique_moves
from nimlab.catalogue.brute import BruteSize, heap_product
from nimlab.catalogue.heapgames import HeapGame
from nimlab.catalogue.registry import register
from nimlab.catalogue.render import nim_sum_table
from nimlab.core.heaps import Heaps

__all__ = ["StaircaseEntry"]


def _shift(position: Heaps, step: int, coins: int) -> Heaps:
    steps = list(position)
    steps[step] -= coins
    steps[step - 1] += coins
    return tuple(steps)


@register
class StaircaseEntry(HeapGame):
    """Staircase Nim on steps 0..n-1 (``coins on step 0, coins on step 1, ...``)."""

    name = "staircase"
    aliases = ("staircase-nim",)
    summary = "Move one or more coins from a step to the step below; step 0 is the floor."
    notation = "coins on steps 0..n-1 (step 0 is the floor)"
    example = "0,3,1,4"
    sequence_meaning = "one coin on step n"

    def moves(self, position: Heaps, /) -> Iterator[Heaps]:
        """Move 1..c coins from step i >= 1 to step i-1."""
        for step in range(1, len(position)):
            for coins in range(1, position[step] + 1):
                yield _shift(position, step, coins)

    def brute_size(self, position: Heaps) -> BruteSize:
        """Coins only move down: step i >= 1 holds at most the coins now on steps i and above
        (the floor holds the rest), and a position lists at most one move per coin off the
        floor.

        >>> from nimlab.catalogue import make_game
        >>> make_game("staircase").brute_size((0, 3, 1, 4))
        BruteSize(states=270, options=8, scale=1.0)
        """
        above = list(accumulate(reversed(position[1:])))[::-1]  # coins on steps i.. for i >= 1
        return BruteSize(heap_product(above), above[0] if above else 0)

    def grundy(self, position: Heaps) -> int:
        """The nim-sum of the odd steps."""
        return reduce(xor, position[1::2], 0)

    def winning_moves(self, position: Heaps) -> list[CatalogueMove[Heaps]]:
        """Odd step c -> c xor s by moving down from it, or by bringing coins onto it."""
        total = self.grundy(position)
        if total == 0:
            return []
        result = []
        for step in range(1, len(position), 2):
            coins = position[step]
            target = coins ^ total
            if target < coins:
                moved = coins - target
                result.append((step, moved))
            elif step + 1 < len(position) and target - coins <= position[step + 1]:
                result.append((step + 1, target - coins))
        result.sort()
        return unique_moves(
            CatalogueMove(
                _shift(position, step, moved),
                f"step {step} -> step {step - 1}: {moved} coin(s)",
                extra=(("step", step), ("coins", moved)),
            )
            for step, moved in result
        )

    def explain(self, position: Heaps) -> RenderableType:
        """The odd steps are the Nim heaps; even steps are useless (moves there are undone)."""
        odd = [(f"step {i}", position[i]) for i in range(1, len(position), 2)]
        steps = (int(dict(m.extra)["step"]) for m in self.winning_moves(position))
        highlight = {(step - 1) // 2 for step in steps}  # the odd step the move changes
        return Group(
            Text("Only the odd steps count: they are Nim heaps (even steps are useless)."),
            nim_sum_table(odd, highlight, title="odd step"),
        )

    def small_positions(self, size: int) -> Iterator[Heaps]:
        """1 to 4 steps with 0..size coins each (at most ``size + 1`` coins on the floor)."""
        for count in (1, 2, 3, 4):
            yield from itertools.product(range(size + 1), repeat=count)

    def random_position(self, rng: random.Random, size: int) -> Heaps:
        """1 to 6 steps with 0..size coins each."""
        return tuple(rng.randint(0, size) for _ in range(rng.randint(1, 6)))

    def sequence_position(self, n: int) -> Heaps:
        """One coin on step n."""
        return (0,) * n + (1,)

    def sequence_cost(self, upto: int) -> Cost:
        """Position n has n + 1 steps: quadratic, about 12 ns per step summed.

        >>> from nimlab.catalogue import make_game
        >>> make_game("staircase").sequence_cost(8000)
        Cost(seconds=1.008251, bytes=800100)
        """
        return Cost(saturated((upto + 1) ** 2 // 64 + upto + 1) * 1e-6, (upto + 1) * 100)

    def periodicity(self, values: object) -> tuple[int, int]:
        """One coin on step n is worth n mod 2: period 2 from 0 (closed form)."""
        return 2, 0

"""Coin-turning games: Turning Turtles and Twins (the Sprague-Grundy catalogue article).

A row of coins, ``H`` (head) or ``T`` (tail), position 1 = leftmost.

Turning Turtles: turn one head to tail and, optionally, turn one coin on its left (either way).
A head at position k is a Nim heap of k (flipping the coin at t < k moves the heap to t).

Twins: the same, but the second coin *must* be turned. A head at position k is a Nim heap of k - 1;
a head at position 1 cannot move at all (heap 0). The catalogue article writes "F(n) = F(n-1) in
normal nim" and "pile size = 1 is losing": read literally that is a recursion making every head
worth the same. The true rule is g_twins(k) = k - 1, the value of a *Nim heap* of k - 1
(equivalently: number the coins from 0 and a head at k is a heap of k), and it is a head at position
1, a heap of size 0, that is dead. The article's example THHTTH -> {1, 2, 5} is right.

>>> from nimlab.catalogue import make_game
>>> turtles, twins = make_game("turning-turtles"), make_game("twins")
>>> turtles.grundy("THHTTH"), twins.grundy("THHTTH")
(7, 6)
>>> [turtles.format_position(m.to) for m in turtles.winning_moves("THHTTH")]
['HHHTTT']
>>> [m.label for m in twins.winning_moves("THHTTH")]
['flip 6 and 4']
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from rich.console import Group, RenderableType
from rich.text import Text

from nimlab.budget import Cost, saturated
from nimlab.catalogue.base import CatalogueGame, CatalogueMove, output_cost
from nimlab.catalogue.brute import BruteSize, binary_below
from nimlab.catalogue.registry import register
from nimlab.catalogue.render import nim_sum_table
from nimlab.errors import InvalidPositionError

__all__ = ["TurningTurtlesEntry", "TwinsEntry"]

_FLIP = {"H": "T", "T": "H"}


def _flip(coins: str, *positions: int) -> str:
    """Turn over the coins at the given 1-based positions."""
    row = list(coins)
    for k in positions:
        row[k - 1] = _FLIP[row[k - 1]]
    return "".join(row)


class _CoinTurning(CatalogueGame[str]):
    """Turn a head to tail and a coin on its left (optionally or compulsorily)."""

    notation = "H/T string, position 1 = leftmost"
    example = "THHTTH"
    #: How much less than its position a head is worth (0: Turning Turtles, 1: Twins).
    offset: int = 0
    #: Whether the second coin must be turned.
    second_flip_required: bool = False

    def parse_position(self, text: str) -> str:
        """A string of ``H`` and ``T`` (may be empty)."""
        coins = text.strip()
        for index, char in enumerate(coins, start=1):
            if char not in _FLIP:
                raise InvalidPositionError(
                    f"invalid coin {char!r} at position {index} of {text!r}: use H and T"
                )
        return coins

    def format_position(self, position: str) -> str:
        """The string itself."""
        return position

    def moves(self, position: str, /) -> Iterator[str]:
        """Turn a head at k to tail and a coin at t < k (or none, if optional)."""
        for k, coin in enumerate(position, start=1):
            if coin == "H":
                if not self.second_flip_required:
                    yield _flip(position, k)
                for t in range(1, k):
                    yield _flip(position, k, t)

    def brute_size(self, position: str) -> BruteSize:
        """Every move makes the row a smaller binary number (a head at k worth 2^(k-1)); a
        head at k lists at most k moves.

        >>> from nimlab.catalogue import make_game
        >>> make_game("turning-turtles").brute_size("THHTTH")
        BruteSize(states=39, options=11, scale=1.0)
        """
        options = sum(k for k, coin in enumerate(position, start=1) if coin == "H")
        return BruteSize(binary_below(position), options)

    def head_values(self, position: str) -> list[tuple[int, int]]:
        """``(position, value)`` of every head."""
        return [(k, k - self.offset) for k, c in enumerate(position, start=1) if c == "H"]

    def grundy(self, position: str) -> int:
        """The nim-sum of the heads' values."""
        total = 0
        for _, value in self.head_values(position):
            total ^= value
        return total

    def winning_moves(self, position: str) -> list[CatalogueMove[str]]:
        """Head k (a heap v) to heap v xor s: flip it and the coin at the position worth v xor s."""
        total = self.grundy(position)
        result = []
        for k, value in self.head_values(position):
            target = value ^ total
            if target < value:
                if target == 0 and self.offset == 0:
                    result.append(CatalogueMove(_flip(position, k), f"flip {k}"))
                else:
                    t = target + self.offset
                    result.append(CatalogueMove(_flip(position, k, t), f"flip {k} and {t}"))
        return result

    def explain(self, position: str) -> RenderableType:
        """Each head is a Nim heap."""
        total = self.grundy(position)
        heads = self.head_values(position)
        rows = [(f"H at {k}", v) for k, v in heads]
        marked = {i for i, (_, v) in enumerate(heads) if v ^ total < v}
        rule = "k" if self.offset == 0 else "k - 1"
        return Group(
            Text(f"A head at position k is a Nim heap of {rule}."), nim_sum_table(rows, marked)
        )

    def small_positions(self, size: int) -> Iterator[str]:
        """Every row of up to ``size + 3`` coins."""
        for length in range(size + 4):
            yield from ("".join(p) for p in itertools.product("HT", repeat=length))

    def random_position(self, rng: random.Random, size: int) -> str:
        """A random row of up to ``size`` coins."""
        return "".join(rng.choice("HT") for _ in range(rng.randint(0, size)))

    def sequence_cost(self, upto: int) -> Cost:
        """Row n has n coins: quadratic, about 30 ns per coin summed.

        >>> from nimlab.catalogue import make_game
        >>> make_game("twins").sequence_cost(4000)
        Cost(seconds=0.504251, bytes=400100)
        """
        return Cost(saturated((upto + 1) ** 2 // 32 + upto + 1) * 1e-6, (upto + 1) * 100)

    def analysis_cost(self, position: str, text: str) -> Cost:
        """At most one winning move per head, each a row as long as the position (none from
        a P-position).

        >>> from nimlab.catalogue import make_game
        >>> make_game("turning-turtles").analysis_cost("H" * 100_000, "H" * 100_000).bytes
        50000500000
        """
        if self.grundy(position) == 0:
            return Cost(0.0, 0)
        return output_cost(position.count("H") * (len(text) + 1))

    def sequence_position(self, n: int) -> str:
        """A row of n coins whose only head is the last one (the empty row for n = 0)."""
        return "T" * (n - 1) + "H" if n else ""


@register
class TurningTurtlesEntry(_CoinTurning):
    """Turning Turtles: a head at k is a Nim heap of k."""

    name = "turning-turtles"
    aliases = ("turtles",)
    summary = "Turn a head to tail and, optionally, one coin on its left."
    sequence_meaning = "the row T...TH of n coins (one head, at position n)"


@register
class TwinsEntry(_CoinTurning):
    """Twins: exactly two coins are turned; a head at k is a Nim heap of k - 1."""

    name = "twins"
    summary = "Turn a head to tail and exactly one coin on its left."
    sequence_meaning = "the row T...TH of n coins (one head, at position n)"
    offset = 1
    second_flip_required = True

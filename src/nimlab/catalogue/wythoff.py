"""Wythoff's game: take any number from one pile, or the same number from both (the catalogue
article).

Closed form of the outcome: the P-positions ("cold") are (a_k, b_k) and (b_k, a_k) with
a_k = floor(k·phi), b_k = a_k + k, phi the golden ratio; a_k is computed exactly as
(k + isqrt(5k²)) // 2. Every value x >= 1 lies in exactly one cold pair, which gives the
winning moves directly. The Grundy values themselves have no known closed form: they are
tabulated with bitsets (O(a·b) cells, guarded by ``--limit``).

>>> from nimlab.catalogue import make_game
>>> game = make_game("wythoff")
>>> [(wythoff_a(k), wythoff_a(k) + k) for k in range(6)]
[(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13)]
>>> [game.format_position(m.to) for m in game.winning_moves((4, 6))]
['3,5']
>>> game.outcome((10**40, 10**40 + 1)).value
'N'
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from math import isqrt
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from nimlab.budget import Cost, saturated
from nimlab.catalogue.base import CatalogueGame, CatalogueMove, GameOptions, check_limit
from nimlab.catalogue.brute import BruteSize, heap_product
from nimlab.catalogue.registry import register
from nimlab.core.game import Outcome
from nimlab.core.heaps import parse_heaps
from nimlab.errors import InvalidPositionError

__all__ = ["WythoffEntry", "cold_partner", "wythoff_a", "wythoff_cost", "wythoff_row"]

Pair = tuple[int, int]


def wythoff_a(k: int) -> int:
    """floor(k·phi), exactly.

    >>> [wythoff_a(k) for k in range(8)]
    [0, 1, 3, 4, 6, 8, 9, 11]
    """
    return (k + isqrt(5 * k * k)) // 2


def cold_partner(x: int) -> int:
    """The y with (x, y) cold: every x belongs to exactly one cold pair (Beatty sequences).

    >>> [cold_partner(x) for x in range(8)]
    [0, 2, 1, 5, 7, 3, 10, 4]
    """
    if x == 0:
        return 0
    k = (isqrt(5 * x * x) - x) // 2  # floor(x / phi), up to rounding
    for j in range(max(0, k - 2), k + 4):
        if wythoff_a(j) == x:
            return x + j
    # x is a b_k = a_k + k, with k ~ x / phi²
    k = x - k  # ~ x - x/phi = x / phi²
    for j in range(max(0, k - 3), k + 4):
        if wythoff_a(j) + j == x:
            return wythoff_a(j)
    raise ArithmeticError(f"no cold partner found for {x}")  # unreachable (Beatty's theorem)


def wythoff_row(row: int, length: int) -> list[list[int]]:
    """Grundy values g(x, y) for 0 <= x <= row, 0 <= y < length, by bitset mex.

    >>> wythoff_row(2, 5)[2]
    [2, 0, 1, 5, 3]
    """
    rows: list[int] = [0] * (row + 1)
    cols: list[int] = [0] * length
    diagonals: dict[int, int] = {}
    table = []
    for x in range(row + 1):
        values = []
        for y in range(length):
            seen = rows[x] | cols[y] | diagonals.get(x - y, 0)
            g = (~seen & (seen + 1)).bit_length() - 1
            bit = 1 << g
            rows[x] |= bit
            cols[y] |= bit
            diagonals[x - y] = diagonals.get(x - y, 0) | bit
            values.append(g)
        table.append(values)
    return table


def wythoff_cost(row: int, length: int) -> Cost:
    """The cost of :func:`wythoff_row`: its cells, each a mex over bitsets of about
    ``row + length`` bits (so it grows quadratically), about a microsecond per cell and per
    2,000 bits; 40 bytes per cell and the bitsets (calibrated in BENCHMARKS.md).

    >>> wythoff_cost(0, 100_000)
    Cost(seconds=5.1, bytes=1254012500)
    """
    cells = (row + 1) * length
    bitsets = (row + 1 + length) * (row + length) // 8
    steps = saturated(cells) * saturated(1 + (row + length) // 2000)
    return Cost(steps * 1e-6, cells * 40 + bitsets)


@register
class WythoffEntry(CatalogueGame[Pair]):
    """Wythoff's game on two piles ``a,b``."""

    name = "wythoff"
    summary = "Take any number from one pile, or the same number from both piles."
    notation = "two piles a,b"
    example = "3,5"
    option_flags = frozenset({"--row"})
    sequence_meaning = "the piles (row, n); --row R, default 0"
    grundy_optional = True

    def __init__(self, *, row: int = 0) -> None:
        self.row = row

    @classmethod
    def configure(cls, options: GameOptions) -> CatalogueGame[Any]:
        """``--row R`` picks the row tabulated by ``grundy``."""
        game = cls(row=options.row or 0)
        game.limit = options.limit
        return game

    def parse_position(self, text: str) -> Pair:
        """Exactly two piles."""
        heaps = parse_heaps(text)
        if len(heaps) != 2:
            raise InvalidPositionError(f"wythoff needs exactly two piles a,b, got {text!r}")
        return heaps[0], heaps[1]

    def format_position(self, position: Pair) -> str:
        """``a,b``."""
        return f"{position[0]},{position[1]}"

    def moves(self, position: Pair, /) -> Iterator[Pair]:
        """The queen's moves: south, west or south-west."""
        a, b = position
        yield from ((x, b) for x in range(a))
        yield from ((a, y) for y in range(b))
        yield from ((a - d, b - d) for d in range(1, min(a, b) + 1))

    def brute_size(self, position: Pair) -> BruteSize:
        """Every pair below ``position``, each listing at most its queen's moves.

        >>> from nimlab.catalogue import make_game
        >>> make_game("wythoff").brute_size((20, 30))
        BruteSize(states=651, options=70, scale=1.0)
        """
        a, b = position
        return BruteSize(heap_product(position), a + b + min(a, b))

    def grundy(self, position: Pair) -> int:
        """Tabulated (no closed form is known); guarded by ``--limit``."""
        a, b = sorted(position)
        what = f"Wythoff's Grundy table for {a},{b} (--outcome-only skips it)"
        check_limit(what, wythoff_cost(a, b + 1), self.limit)
        return wythoff_row(a, b + 1)[a][b]

    def outcome(self, position: Pair) -> Outcome:
        """Cold (P) iff the piles are a cold pair."""
        return Outcome.P if cold_partner(position[0]) == position[1] else Outcome.N

    def winning_moves(self, position: Pair) -> list[CatalogueMove[Pair]]:
        """Moves to the cold pairs: keep one pile and cut the other, or keep the difference."""
        a, b = position
        if self.outcome(position) is Outcome.P:
            return []
        result = []
        if cold_partner(a) < b:
            result.append(CatalogueMove((a, cold_partner(a)), f"pile 2: {b} -> {cold_partner(a)}"))
        if cold_partner(b) < a:
            result.append(CatalogueMove((cold_partner(b), b), f"pile 1: {a} -> {cold_partner(b)}"))
        d = abs(a - b)
        low, high = wythoff_a(d), wythoff_a(d) + d
        target = (low, high) if a <= b else (high, low)
        if target[0] < a:
            result.append(CatalogueMove(target, f"both piles: take {a - target[0]}"))
        return result

    def explain(self, position: Pair) -> RenderableType:
        """The three cold pairs a move could reach: sharing a pile, or the difference."""
        a, b = position
        first = ", ".join(f"({wythoff_a(k)},{wythoff_a(k) + k})" for k in range(6))
        lines = [Text(f"Cold pairs (floor(k·phi), floor(k·phi) + k): {first}, ...")]
        if self.outcome(position) is Outcome.P:
            lines.append(Text(f"({a}, {b}) is itself cold: every move leads to a hot position."))
            return Group(*lines)
        for label, keep, other in (("pile 1", a, b), ("pile 2", b, a)):
            partner = cold_partner(keep)
            verdict = "reachable" if partner < other else "out of reach"
            lines.append(
                Text(
                    f"{label} = {keep} lies in the cold pair {{{keep}, {partner}}}: {verdict}",
                    style="bold green" if partner < other else "",
                )
            )
        d = abs(a - b)
        low = wythoff_a(d)
        verdict = "reachable" if low < min(a, b) else "out of reach"
        lines.append(
            Text(
                f"difference {d} belongs to the cold pair ({low}, {low + d}): {verdict}",
                style="bold green" if low < min(a, b) else "",
            )
        )
        return Group(*lines)

    def small_positions(self, size: int) -> Iterator[Pair]:
        """Every pair with piles up to ``3·size``."""
        bound = 3 * size
        yield from ((a, b) for a in range(bound + 1) for b in range(bound + 1))

    def random_position(self, rng: random.Random, size: int) -> Pair:
        """Two piles up to ``size``."""
        return rng.randint(0, size), rng.randint(0, size)

    def sequence_position(self, n: int) -> Pair:
        """The piles (row, n)."""
        return self.row, n

    def sequence_cost(self, upto: int) -> Cost:
        """The cost of the table of rows ``0..--row``."""
        return wythoff_cost(self.row, upto + 1)

    def grundy_values(self, upto: int) -> list[int | None]:
        """Row ``--row`` of Wythoff's Grundy table, in one pass."""
        check_limit("Wythoff's Grundy table", self.sequence_cost(upto), self.limit)
        return list(wythoff_row(self.row, upto + 1)[self.row])

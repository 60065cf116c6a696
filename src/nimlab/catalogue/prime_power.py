"""The prime-power division game (the catalogue article: "Dividing a number").

A position is an integer n >= 1; a move divides n by a prime power p^k > 1 dividing it; a player
facing 1 cannot move and loses (the Bengali text: "if the number becomes 1, the current player
wins" means the player who *made* it 1). Writing n = p1^e1 · p2^e2 ···, a move lowers one
exponent: this is Nim on the exponents, g(n) = e1 xor e2 xor ...

The catalogue article's slip: it writes 1440600 = 2^2·2^2·3·5·5·7·7·7·7, which is 2881200; in fact
1440600 = 2^3·3·5^2·7^4, whose exponents are the article's piles {3, 1, 2, 4} (the first factor
should read 2^3 = 2·2·2). Its other example 56700 = 2^2·3^4·5^2·7 -> {2, 4, 2, 1} is right.

>>> from nimlab.catalogue import make_game
>>> game = make_game("prime-power")
>>> from nimlab.catalogue.factoring import factorize
>>> factorize(1440600), game.grundy(1440600)
({2: 3, 3: 1, 5: 2, 7: 4}, 4)
>>> [m.label for m in game.winning_moves(1440600)]
['divide by 7^4']
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from rich.console import Group, RenderableType
from rich.text import Text

from nimlab.budget import Cost, saturated, steps_budget
from nimlab.catalogue.base import CatalogueGame, CatalogueMove
from nimlab.catalogue.brute import BruteSize, heap_product
from nimlab.catalogue.factoring import factorize
from nimlab.catalogue.registry import register
from nimlab.catalogue.render import nim_sum_table
from nimlab.errors import InvalidPositionError
from nimlab.exact import NumberTooLongError, parse_natural

__all__ = ["PrimePowerEntry"]


@register
class PrimePowerEntry(CatalogueGame[int]):
    """Divide n by a prime power; a player facing 1 loses."""

    name = "prime-power"
    aliases = ("dividing-a-number",)
    summary = "Divide n by a prime power p^k > 1 dividing it; facing 1 loses."
    notation = "an integer n >= 1"
    example = "56700"
    sequence_meaning = "n itself (null for 0, which is not a position)"

    def parse_position(self, text: str) -> int:
        """A decimal integer n >= 1."""
        try:
            return parse_natural(text, what="number", minimum=1)
        except NumberTooLongError:  # the parser's message says how long
            raise
        except InvalidPositionError:
            raise InvalidPositionError(f"invalid number {text!r}: give an integer n >= 1") from None

    def format_position(self, position: int) -> str:
        """The decimal number."""
        return str(position)

    def moves(self, position: int, /) -> Iterator[int]:
        """n / p^k for each prime power dividing n."""
        for p, e in factorize(position, budget=steps_budget(self.limit)).items():
            yield from (position // p**k for k in range(1, e + 1))

    def brute_size(self, position: int) -> BruteSize:
        """The divisors of n: the product of exponent + 1; one move per exponent step, each
        position factorised again (4 steps' work, measured: BENCHMARKS.md).

        >>> from nimlab.catalogue import make_game
        >>> make_game("prime-power").brute_size(56700)
        BruteSize(states=90, options=9, scale=4.0)
        """
        exponents = factorize(position, budget=steps_budget(self.limit)).values()
        return BruteSize(heap_product(exponents), sum(exponents), scale=4.0)

    def grundy(self, position: int) -> int:
        """The nim-sum of the prime exponents."""
        total = 0
        for e in factorize(position, budget=steps_budget(self.limit)).values():
            total ^= e
        return total

    def winning_moves(self, position: int) -> list[CatalogueMove[int]]:
        """Lower an exponent e to e xor s."""
        factors = factorize(position, budget=steps_budget(self.limit))
        total = 0
        for e in factors.values():
            total ^= e
        return [
            CatalogueMove(position // p ** (e - (e ^ total)), f"divide by {p}^{e - (e ^ total)}")
            for p, e in factors.items()
            if e ^ total < e
        ]

    def explain(self, position: int) -> RenderableType:
        """The factorisation; the exponents are Nim heaps."""
        factors = factorize(position, budget=steps_budget(self.limit))
        total = 0
        for e in factors.values():
            total ^= e
        product = " · ".join(f"{p}^{e}" for p, e in factors.items()) or "1"
        rows = [(f"{p}^{e}", e) for p, e in factors.items()]
        marked = {i for i, e in enumerate(factors.values()) if e ^ total < e}
        return Group(
            Text(f"{position} = {product}; the exponents are Nim heaps."),
            nim_sum_table(rows, marked, title="prime power"),
        )

    def small_positions(self, size: int) -> Iterator[int]:
        """1 .. 100·size."""
        return iter(range(1, 100 * size + 1))

    def random_position(self, rng: random.Random, size: int) -> int:
        """A product of up to ``size`` small prime powers."""
        n = 1
        for _ in range(rng.randint(0, size)):
            n *= rng.choice((2, 3, 5, 7, 11, 13, 101, 1009)) ** rng.randint(1, 5)
        return n

    def sequence_position(self, n: int) -> int:
        """n itself (0 is not a position: its value is reported as null)."""
        return n

    def sequence_cost(self, upto: int) -> Cost:
        """Factorising each n costs about 35 µs.

        >>> from nimlab.catalogue import make_game
        >>> make_game("prime-power").sequence_cost(24999)
        Cost(seconds=1.0, bytes=2500000)
        """
        return Cost(40e-6 * saturated(upto + 1), 100 * (upto + 1))

    def grundy_values(self, upto: int) -> list[int | None]:
        """g(n) for n = 1..upto, with None for n = 0."""
        return [None, *(self.grundy(n) for n in range(1, upto + 1))]

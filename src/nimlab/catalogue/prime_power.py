"""The prime-power division game (seed 002, "Dividing a number" and its Bengali paragraph).

A position is an integer n >= 1; a move divides n by a prime power p^k > 1 dividing it; a player
facing 1 cannot move and loses (the Bengali text: "if the number becomes 1, the current player
wins" means the player who *made* it 1). Writing n = p1^e1 · p2^e2 ···, a move lowers one
exponent: this is Nim on the exponents, g(n) = e1 xor e2 xor ...

Seed 002 slip: it writes 1440600 = 2^2·2^2·3·5·5·7·7·7·7, which is 2881200; in fact
1440600 = 2^3·3·5^2·7^4, whose exponents are the seed's piles {3, 1, 2, 4} (the first factor
should read 2^3 = 2·2·2). Its other example 56700 = 2^2·3^4·5^2·7 -> {2, 4, 2, 1} is right.

>>> from nimlab.catalogue import make_game
>>> game = make_game("prime-power")
>>> factorize(1440600), game.grundy(1440600)
({2: 3, 3: 1, 5: 2, 7: 4}, 4)
>>> [m.label for m in game.winning_moves(1440600)]
['divide by 7^4']
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

from rich.console import Group, RenderableType
from rich.text import Text

from nimlab.budget import Cost
from nimlab.catalogue.base import DEFAULT_LIMIT, CatalogueGame, CatalogueMove
from nimlab.catalogue.registry import register
from nimlab.catalogue.render import nim_sum_table
from nimlab.errors import InvalidPositionError, TooLargeError

__all__ = ["PrimePowerEntry", "factorize", "is_probable_prime"]

_SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def is_probable_prime(n: int) -> bool:
    """Miller-Rabin with the first 13 primes as bases: exact below 3.3·10^24.

    >>> [p for p in range(30) if is_probable_prime(p)]
    [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    """
    if n < 2:
        return False
    for p in _SMALL_PRIMES:
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in _SMALL_PRIMES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _rho(n: int, budget: int) -> int:
    """A non-trivial factor of the odd composite n (Pollard's rho, at most ``budget`` steps)."""
    steps = 0
    for c in range(1, 100):
        x = y = 2
        d = 1
        while d == 1:
            x = (x * x + c) % n
            y = (y * y + c) % n
            y = (y * y + c) % n
            d = math.gcd(abs(x - y), n)
            steps += 1
            if steps > budget:
                raise TooLargeError(
                    f"cannot factor {n} within {budget} Pollard-rho steps (raise --limit)",
                    estimate=steps,
                    limit=budget,
                )
        if d != n:
            return d
    raise ArithmeticError(f"Pollard rho failed on {n}")  # pragma: no cover - never seen


def factorize(n: int, *, budget: int = DEFAULT_LIMIT) -> dict[int, int]:
    """The prime factorisation ``{p: e}`` of ``n >= 1``, primes increasing.

    >>> factorize(56700), factorize(1)
    ({2: 2, 3: 4, 5: 2, 7: 1}, {})
    """
    factors: dict[int, int] = {}
    for p in range(2, 1000):
        while n % p == 0:
            factors[p] = factors.get(p, 0) + 1
            n //= p
    stack = [n] if n > 1 else []
    while stack:
        m = stack.pop()
        if is_probable_prime(m):
            factors[m] = factors.get(m, 0) + 1
        else:
            d = _rho(m, budget)
            stack.extend((d, m // d))
    return dict(sorted(factors.items()))


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
        stripped = text.strip()
        if not (stripped.isascii() and stripped.isdigit()) or int(stripped) < 1:
            raise InvalidPositionError(f"invalid number {text!r}: give an integer n >= 1")
        return int(stripped)

    def format_position(self, position: int) -> str:
        """The decimal number."""
        return str(position)

    def moves(self, position: int, /) -> Iterator[int]:
        """n / p^k for each prime power dividing n."""
        for p, e in factorize(position, budget=self.limit).items():
            yield from (position // p**k for k in range(1, e + 1))

    def grundy(self, position: int) -> int:
        """The nim-sum of the prime exponents."""
        total = 0
        for e in factorize(position, budget=self.limit).values():
            total ^= e
        return total

    def winning_moves(self, position: int) -> list[CatalogueMove[int]]:
        """Lower an exponent e to e xor s."""
        factors = factorize(position, budget=self.limit)
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
        factors = factorize(position, budget=self.limit)
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
        return Cost(40e-6 * (upto + 1), 100 * (upto + 1))

    def grundy_values(self, upto: int) -> list[int | None]:
        """g(n) for n = 1..upto, with None for n = 0."""
        return [None, *(self.grundy(n) for n in range(1, upto + 1))]

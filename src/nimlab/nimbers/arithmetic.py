"""Nim-sum and nim-product of arbitrary non-negative integers, and the field operations.

The nimbers form a field of characteristic 2 in which nim-sum is XOR and the Fermat 2-powers
``F = 2**(2**k)`` multiply specially: ``F ⊗ x = F * x`` for ``x < F`` and ``F ⊗ F = 3F/2``.
Writing ``a = a1·F ⊕ a0`` with ``a0, a1 < F`` gives the recursion used here (three half-size
products, Karatsuba style, down to discrete-log tables of the 16-bit subfield):

    a ⊗ b = ((a0⊕a1)⊗(b0⊕b1) ⊕ a0⊗b0)·F  ⊕  a0⊗b0 ⊕ (a1⊗b1)⊗(F/2)

>>> nim_sum(5, 3), nim_product(2, 2), nim_product(4, 4), nim_product(16, 16)
(6, 3, 6, 24)
>>> nim_product(2**64, 2**64) == 3 * 2**63
True
>>> x = 123456789
>>> nim_product(x, nim_inverse(x)), nim_product(nim_sqrt(x), nim_sqrt(x)) == x
(1, True)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, reduce
from operator import xor
from typing import NewType

from nimlab.errors import InvalidPositionError

__all__ = ["Nimber", "nim_inverse", "nim_power", "nim_product", "nim_sqrt", "nim_sum"]

Nimber = NewType("Nimber", int)
"""A non-negative integer read as a nimber (an element of the nimber field)."""

_TABLE_BITS = 16  # products below 2**16 use discrete log tables, built on first use


def _check(values: tuple[int, ...]) -> None:
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidPositionError(f"invalid nimber {value!r}: nimbers are non-negative ints")


def nim_sum(*values: int) -> int:
    """The nim-sum (XOR) of any number of nimbers; ``nim_sum()`` is 0.

    >>> nim_sum(1, 2, 3), nim_sum()
    (0, 0)
    """
    _check(values)
    return reduce(xor, values, 0)


def _field_bits(value: int) -> int:
    """The least ``2**k`` (k >= 4) such that ``value < 2**(2**k)``."""
    bits = _TABLE_BITS
    while value >> bits:
        bits *= 2
    return bits


def _mul_by_recursion(a: int, b: int, bits: int) -> int:
    """The Fermat-power recursion all the way down (used only to bootstrap the tables)."""
    if a < 2 or b < 2:
        return a * b
    half = bits // 2
    mask = (1 << half) - 1
    a1, a0, b1, b0 = a >> half, a & mask, b >> half, b & mask
    low = _mul_by_recursion(a0, b0, half)
    cross = _mul_by_recursion(a0 ^ a1, b0 ^ b1, half)
    top = _mul_by_recursion(a1, b1, half)
    return ((cross ^ low) << half) | (low ^ _mul_by_recursion(top, 1 << (half - 1), half))


def _log_tables(bits: int, multiply: Callable[[int, int], int]) -> tuple[list[int], list[int]]:
    """``(exp, log)`` of the multiplicative group of the nimber field with ``2**bits`` elements.

    The group is cyclic of order ``2**bits - 1``; a generator is an element none of whose
    powers ``order / p`` (p a prime factor of the order) is 1. ``exp`` has double length so
    that ``exp[log[a] + log[b]]`` needs no reduction.
    """
    order = (1 << bits) - 1
    primes = [p for p in (3, 5, 17, 257, 65537) if order % p == 0]

    def power(base: int, exponent: int) -> int:
        result = 1
        while exponent:
            if exponent & 1:
                result = multiply(result, base)
            base = multiply(base, base)
            exponent >>= 1
        return result

    generator = next(
        g for g in range(2, order + 1) if all(power(g, order // p) != 1 for p in primes)
    )
    exp = [1] * (2 * order)
    for i in range(1, 2 * order):
        exp[i] = multiply(exp[i - 1], generator)
    log = [0] * (order + 1)
    for i in range(order):
        log[exp[i]] = i
    return exp, log


@cache
def _tables() -> tuple[list[int], list[int]]:
    """Discrete log tables of the 16-bit nimber field, bootstrapped from the 8-bit field."""
    exp8, log8 = _log_tables(8, lambda a, b: _mul_by_recursion(a, b, 8))

    def multiply8(a: int, b: int) -> int:
        return exp8[log8[a] + log8[b]] if a and b else 0

    def multiply16(a: int, b: int) -> int:
        a1, a0, b1, b0 = a >> 8, a & 255, b >> 8, b & 255
        low = multiply8(a0, b0)
        cross = multiply8(a0 ^ a1, b0 ^ b1)
        return ((cross ^ low) << 8) | (low ^ multiply8(multiply8(a1, b1), 128))

    return _log_tables(16, multiply16)


def _mul(a: int, b: int, bits: int) -> int:
    """Nim-product of ``a, b < 2**bits`` where ``bits`` is a power of two >= 16."""
    if a < 2 or b < 2:
        return a * b
    if bits == _TABLE_BITS:
        exp, log = _tables()
        return exp[log[a] + log[b]]
    half = bits // 2
    mask = (1 << half) - 1
    a1, a0, b1, b0 = a >> half, a & mask, b >> half, b & mask
    low = _mul(a0, b0, half)
    if a1 == 0 and b1 == 0:
        return low
    cross = _mul(a0 ^ a1, b0 ^ b1, half)
    top = _mul(a1, b1, half)
    return ((cross ^ low) << half) | (low ^ _mul(top, 1 << (half - 1), half))


def nim_product(*values: int) -> int:
    """The nim-product of any number of nimbers; ``nim_product()`` is 1.

    >>> nim_product(3, 3), nim_product(7, 7, 7), nim_product(2**100, 1)
    (2, 10, 1267650600228229401496703205376)
    """
    _check(values)
    result = 1
    for value in values:
        result = _mul(result, value, _field_bits(max(result, value)))
    return result


def nim_power(base: int, exponent: int) -> int:
    """``base`` nim-multiplied by itself ``exponent`` times (square and multiply).

    >>> nim_power(2, 3), nim_power(5, 0)
    (1, 1)
    """
    _check((base, exponent))
    bits = _field_bits(base)
    result, square = 1, base
    while exponent:
        if exponent & 1:
            result = _mul(result, square, bits)
        square = _mul(square, square, bits)
        exponent >>= 1
    return result


def nim_inverse(value: int) -> int:
    """The nim-multiplicative inverse: ``value ** (2**(2**k) - 2)`` in the finite subfield.

    >>> nim_inverse(2), nim_product(2, nim_inverse(2))
    (3, 1)
    >>> nim_inverse(0)
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: the nimber 0 has no multiplicative inverse
    """
    _check((value,))
    if value == 0:
        raise InvalidPositionError("the nimber 0 has no multiplicative inverse")
    return nim_power(value, (1 << _field_bits(value)) - 2)


def nim_sqrt(value: int) -> int:
    """The unique nim square root (squaring is a field automorphism in characteristic 2).

    >>> nim_sqrt(2), nim_product(nim_sqrt(2), nim_sqrt(2))
    (3, 2)
    """
    _check((value,))
    return nim_power(value, 1 << (_field_bits(value) - 1))

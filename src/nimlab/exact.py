"""Exact numbers as text: the contract's ``"p/q"`` strings and their parsing.

>>> from fractions import Fraction
>>> exact_str(Fraction(2, 6)), exact_str(Fraction(-4, 2)), exact_str(0)
('1/3', '-2', '0')
>>> parse_rational("-7/2"), parse_rational("2.25"), parse_rational("3")
(Fraction(-7, 2), Fraction(9, 4), Fraction(3, 1))
"""

from __future__ import annotations

from fractions import Fraction

from nimlab.errors import InvalidPositionError

__all__ = ["exact_str", "parse_rational"]


def exact_str(value: Fraction | int) -> str:
    """Format an exact rational as ``"p/q"`` in lowest terms, or ``"p"`` when integral."""
    q = Fraction(value)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def parse_rational(text: str) -> Fraction:
    """Parse an integer, a finite decimal or ``p/q`` exactly (no floating point involved)."""
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InvalidPositionError(
            f"not an exact rational number: {text!r} (use an integer, a decimal or p/q)"
        ) from None
    return value

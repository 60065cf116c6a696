"""Exact numbers as text: the contract's ``"p/q"`` strings and their parsing.

>>> from fractions import Fraction
>>> exact_str(Fraction(2, 6)), exact_str(Fraction(-4, 2)), exact_str(0)
('1/3', '-2', '0')
>>> parse_rational("-7/2"), parse_rational("2.25"), parse_rational("3")
(Fraction(-7, 2), Fraction(9, 4), Fraction(3, 1))
"""

from __future__ import annotations

import re
from fractions import Fraction

from nimlab.errors import InvalidPositionError

__all__ = ["MAX_DIGITS", "exact_str", "parse_rational"]


def exact_str(value: Fraction | int) -> str:
    """Format an exact rational as ``"p/q"`` in lowest terms, or ``"p"`` when integral."""
    q = Fraction(value)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


#: The most digits a number may have once written out (Python's own limit for printing it).
MAX_DIGITS = 4000

_EXPONENT = re.compile(r"[eE]([+-]?)_?([0-9_]+)\s*$")


def parse_rational(text: str) -> Fraction:
    """Parse an integer, a finite decimal or ``p/q`` exactly (no floating point involved).

    Numbers of more than :data:`MAX_DIGITS` digits are refused before they are built
    (``1e999999999`` would take minutes and gigabytes):

    >>> parse_rational("1e999999999")
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: number '1e999999999' is too long: at most 4000 digits
    """
    exponent = _EXPONENT.search(text)
    digits = len(text) + (int(exponent[2].replace("_", "")[:12]) if exponent else 0)
    if digits > MAX_DIGITS:
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise InvalidPositionError(f"number {shown!r} is too long: at most {MAX_DIGITS} digits")
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InvalidPositionError(
            f"not an exact rational number: {text!r} (use an integer, a decimal or p/q)"
        ) from None
    return value

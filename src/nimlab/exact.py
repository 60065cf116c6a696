"""Exact numbers as text: the contract's ``"p/q"`` strings, and the one parser of numbers typed
by people or read from files (:func:`parse_natural`, :func:`parse_rational`), which bounds the
digits before any conversion.

Every integer or rational that comes from text goes through these two functions (heap sizes,
option lists, Scoring Nim's bonus, ``.efg`` payoffs, store specs): a number too long to convert
quickly is refused with :class:`~nimlab.errors.InvalidPositionError` before it is built.

>>> from fractions import Fraction
>>> exact_str(Fraction(2, 6)), exact_str(Fraction(-4, 2)), exact_str(0)
('1/3', '-2', '0')
>>> parse_rational("-7/2"), parse_rational("2.25"), parse_rational("3")
(Fraction(-7, 2), Fraction(9, 4), Fraction(3, 1))
>>> parse_natural("0012"), parse_natural("7", what="row", minimum=1)
(12, 7)
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction

from nimlab.errors import InvalidPositionError

__all__ = [
    "MAX_DIGITS",
    "MAX_INTEGER_DIGITS",
    "NumberTooLongError",
    "exact_str",
    "parse_natural",
    "parse_rational",
]


class NumberTooLongError(InvalidPositionError):
    """A number in text has more digits than the parser converts (the message says how many)."""


def exact_str(value: Fraction | int) -> str:
    """Format an exact rational as ``"p/q"`` in lowest terms, or ``"p"`` when integral."""
    q = Fraction(value)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


#: The most digits a number may have once written out (Python's own limit for printing it).
MAX_DIGITS = 4000

_EXPONENT = re.compile(r"[eE]([+-]?)_?([0-9_]+)\s*$")


def parse_rational(text: str, *, max_digits: int = MAX_DIGITS) -> Fraction:
    """Parse an integer, a finite decimal or ``p/q`` exactly (no floating point involved).

    Numbers of more than ``max_digits`` digits (:data:`MAX_DIGITS` unless said), exponent
    included, are refused before they are built
    (``1e999999999`` would take minutes and gigabytes):

    >>> parse_rational("1e999999999")
    Traceback (most recent call last):
      ...
    nimlab.exact.NumberTooLongError: number '1e999999999' is too long: at most 4000 digits
    """
    exponent = _EXPONENT.search(text)
    digits = len(text) + (int(exponent[2].replace("_", "")[:12]) if exponent else 0)
    if digits > max_digits:
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise NumberTooLongError(f"number {shown!r} is too long: at most {max_digits} digits")
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InvalidPositionError(
            f"not an exact rational number: {text!r} (use an integer, a decimal or p/q)"
        ) from None
    return value


MAX_INTEGER_DIGITS = 100_000
"""The most decimal digits :func:`parse_natural` reads in one integer.

Python converts between decimal text and ``int`` in quadratic time; measured on Python 3.11
(one core): 100,000 digits take 0.04 s to parse and 0.13 s to print back, 1,000,000 digits
5.4 s and 18 s. The bound keeps any single argument well under a second; integers built in
Python (not parsed from text) have no bound.
"""

_INTEGER = re.compile(r"[0-9]+")


def parse_natural(
    token: str, *, what: str = "heap", minimum: int = 0, max_digits: int = MAX_INTEGER_DIGITS
) -> int:
    """Parse one non-negative integer (a heap size, or another count named ``what``); only
    decimal digits are accepted, at most ``max_digits`` of them, and values below ``minimum``
    are refused.

    Beyond the interpreter's own limit on decimal conversion (``sys.get_int_max_str_digits()``,
    4300 by default) the text is refused with a message saying how to lift it (the ``nimlab``
    command lifts it for itself).

    >>> parse_natural("9" * 100_001)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.exact.NumberTooLongError: invalid heap '99999...999' (100,001 digits): at most ...
    >>> parse_natural("0", what="--max", minimum=1)
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: invalid --max '0': expected an integer >= 1

    Under the interpreter's limit (here set to its default, 4300 digits):

    >>> previous = sys.get_int_max_str_digits()
    >>> sys.set_int_max_str_digits(4300)
    >>> parse_natural("7" * 5000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.exact.NumberTooLongError: invalid heap ... this Python converts at most 4,300 ...
    >>> sys.set_int_max_str_digits(previous)
    """
    text = token.strip()
    if not _INTEGER.fullmatch(text):
        shown = token if len(token) <= 40 else f"{token[:20]}...{token[-20:]}"
        raise InvalidPositionError(f"invalid {what} {shown!r}: {what}s are non-negative integers")
    if len(text) > max_digits:
        raise NumberTooLongError(
            f"invalid {what} {_abridged(text)!r} ({len(text):,} digits): at most "
            f"{max_digits:,} digits are accepted"
        )
    try:
        value = int(text)
    except ValueError:  # over sys.get_int_max_str_digits(): Python's own guard
        raise NumberTooLongError(
            f"invalid {what} {_abridged(text)!r} ({len(text):,} digits): this Python "
            f"converts at most {sys.get_int_max_str_digits():,} digits; lift the limit with "
            "sys.set_int_max_str_digits"
        ) from None
    if value < minimum:
        raise InvalidPositionError(f"invalid {what} {text!r}: expected an integer >= {minimum}")
    return value


def _abridged(digits: str) -> str:
    """Long digit strings shown by their ends: ``'12345...67890'``."""
    return digits if len(digits) <= 12 else f"{digits[:5]}...{digits[-3:]}"

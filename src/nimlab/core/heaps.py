"""Heap positions: tuples of non-negative integers, parsed strictly from text.

>>> parse_heaps("3,4,5")
(3, 4, 5)
>>> parse_heaps(["7", "0", "12"])
(7, 0, 12)
>>> format_heaps((3, 4, 5))
'3,4,5'
>>> parse_heaps("3,-4")
Traceback (most recent call last):
  ...
nimlab.errors.InvalidPositionError: invalid heap '-4': heaps are non-negative integers
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence

from nimlab.errors import InvalidPositionError

__all__ = [
    "MAX_DIGITS",
    "Heaps",
    "check_heaps",
    "format_heaps",
    "heap_name",
    "parse_heap",
    "parse_heaps",
    "typed_index",
]

Heaps = tuple[int, ...]

_INTEGER = re.compile(r"[0-9]+")

MAX_DIGITS = 100_000
"""The most decimal digits :func:`parse_heap` reads in one integer.

Python converts between decimal text and ``int`` in quadratic time; measured on Python 3.11
(one core): 100,000 digits take 0.04 s to parse and 0.13 s to print back, 1,000,000 digits
5.4 s and 18 s. The bound keeps any single argument well under a second; integers built in
Python (not parsed from text) have no bound.
"""


def parse_heap(token: str, *, what: str = "heap") -> int:
    """Parse one heap size (or other count named ``what``); only decimal digits are accepted.

    Up to :data:`MAX_DIGITS` digits; beyond the interpreter's own limit on decimal
    conversion (``sys.get_int_max_str_digits()``, 4300 by default) the text is refused with a
    message saying how to lift it (the ``nimlab`` command lifts it for itself).

    >>> parse_heap("0012")
    12
    >>> parse_heap("9" * 100_001)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: invalid heap '99999...999' (100,001 digits): at most ...

    Under the interpreter's limit (here set to its default, 4300 digits):

    >>> import sys
    >>> previous = sys.get_int_max_str_digits()
    >>> sys.set_int_max_str_digits(4300)
    >>> parse_heap("7" * 5000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: invalid heap ... this Python converts at most 4,300 ...
    >>> sys.set_int_max_str_digits(previous)
    """
    text = token.strip()
    if not _INTEGER.fullmatch(text):
        shown = token if len(token) <= 40 else f"{token[:20]}...{token[-20:]}"
        raise InvalidPositionError(f"invalid {what} {shown!r}: {what}s are non-negative integers")
    if len(text) > MAX_DIGITS:
        raise InvalidPositionError(
            f"invalid {what} {_abridged(text)!r} ({len(text):,} digits): at most "
            f"{MAX_DIGITS:,} digits are accepted"
        )
    try:
        return int(text)
    except ValueError:  # over sys.get_int_max_str_digits(): Python's own guard
        raise InvalidPositionError(
            f"invalid {what} {_abridged(text)!r} ({len(text):,} digits): this Python "
            f"converts at most {sys.get_int_max_str_digits():,} digits; lift the limit with "
            "sys.set_int_max_str_digits"
        ) from None


def _abridged(digits: str) -> str:
    """Long digit strings shown by their ends: ``'12345...67890'``."""
    return digits if len(digits) <= 12 else f"{digits[:5]}...{digits[-3:]}"


def parse_heaps(
    source: str | Sequence[str], *, allow_empty: bool = False, what: str = "heap"
) -> Heaps:
    """Parse heaps from ``"a,b,c"`` or from separate tokens (each may also hold commas)."""
    tokens = [source] if isinstance(source, str) else list(source)
    parts = [part for token in tokens for part in token.split(",") if token.strip() != ""]
    if not parts and not allow_empty:
        raise InvalidPositionError(f"no {what}s given: give at least one, e.g. 3 4 5")
    return tuple(parse_heap(part, what=what) for part in parts)


def check_heaps(heaps: Iterable[object]) -> Heaps:
    """Validate heaps given as Python values: each must be an ``int`` (not a bool) and >= 0."""
    result = []
    for heap in heaps:
        if isinstance(heap, bool) or not isinstance(heap, int):
            raise InvalidPositionError(f"invalid heap {heap!r}: heap sizes are integers")
        if heap < 0:
            raise InvalidPositionError(f"invalid heap {heap}: heap sizes are non-negative")
        result.append(heap)
    return tuple(result)


def heap_name(index: int, unit: str = "heap") -> str:
    """How people are shown component ``index`` (0-based in code and in JSON fields): numbered
    from 1, as the papers do, wherever nimlab writes for people (move labels, explanations,
    typed moves in ``nimlab play`` and on the web).

    >>> heap_name(0), heap_name(2, "stalk")
    ('heap 1', 'stalk 3')
    """
    return f"{unit} {index + 1}"


def typed_index(number: int, count: int, text: str, unit: str = "heap") -> int:
    """The 0-based index of component ``number`` as people type it (from 1, see
    :func:`heap_name`), checked against ``count`` components; ``text`` is the typed move.

    >>> typed_index(1, 3, "1 2")
    0
    >>> typed_index(0, 3, "0 2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: illegal move '0 2': there is no heap 0 (heaps are ...1..3)
    """
    if not 1 <= number <= count:
        raise InvalidPositionError(
            f"illegal move {text.strip()!r}: there is no {unit} {number}"
            f" ({unit}s are numbered 1..{count})"
        )
    return number - 1


def format_heaps(heaps: Iterable[int]) -> str:
    """The comma-separated notation of a heap position."""
    return ",".join(str(h) for h in heaps)

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

from collections.abc import Iterable, Sequence

from nimlab.errors import InvalidPositionError
from nimlab.exact import MAX_INTEGER_DIGITS, parse_natural

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

MAX_DIGITS = MAX_INTEGER_DIGITS
"""The most decimal digits :func:`parse_heap` reads in one integer (the owner of the bound and
of the parsing is :func:`nimlab.exact.parse_natural`)."""


def parse_heap(token: str, *, what: str = "heap") -> int:
    """Parse one heap size (or other count named ``what``): :func:`nimlab.exact.parse_natural`.

    >>> parse_heap("0012")
    12
    >>> parse_heap("-4")
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: invalid heap '-4': heaps are non-negative integers
    """
    return parse_natural(token, what=what)


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

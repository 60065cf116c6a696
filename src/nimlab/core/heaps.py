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
from collections.abc import Iterable, Sequence

from nimlab.errors import InvalidPositionError

__all__ = ["Heaps", "check_heaps", "format_heaps", "parse_heap", "parse_heaps"]

Heaps = tuple[int, ...]

_INTEGER = re.compile(r"[0-9]+")


def parse_heap(token: str, *, what: str = "heap") -> int:
    """Parse one heap size (or other count named ``what``); only decimal digits are accepted."""
    text = token.strip()
    if not _INTEGER.fullmatch(text):
        raise InvalidPositionError(f"invalid {what} {token!r}: {what}s are non-negative integers")
    return int(text)


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


def format_heaps(heaps: Iterable[int]) -> str:
    """The comma-separated notation of a heap position."""
    return ",".join(str(h) for h in heaps)

"""The minimum excludant.

>>> mex([0, 1, 3]), mex([]), mex({2, 5})
(2, 0, 0)
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["mex"]


def mex(values: Iterable[int]) -> int:
    """The least non-negative integer not in ``values``."""
    seen = set(values)
    result = 0
    while result in seen:
        result += 1
    return result

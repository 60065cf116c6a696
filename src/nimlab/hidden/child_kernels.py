"""The open-addressing hash table behind a large :class:`~nimlab.hidden.children.ChildTable`,
compiled with numba: a key is a pair (history, label), a value a child history.

Import this module only when numba is wanted: it imports numba at the top and compiles the
functions on first use (cached on disk afterwards). The slots are one flat int64 array, two
words a slot (16 bytes, one cache line): the history and the child packed as
``history << 32 | child`` (``-1`` marks an empty slot), then the label. They are probed
linearly from a hash of the key, taken modulo the number of slots (any number: a table can
grow by half rather than double). One array rather than three: each array argument costs
numba's dispatch time, and each array a cache miss.

>>> slots = empty_slots(8)
>>> insert(slots, 5, 1 << 40, 7)
>>> find(slots, 5, 1 << 40), find(slots, 5, 3), find(slots, 6, 1 << 40)
(7, -1, -1)
>>> bigger = empty_slots(16)
>>> rehash(slots, bigger)
>>> find(bigger, 5, 1 << 40)
7
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["empty_slots", "find", "insert", "rehash"]

_MIX_HISTORY = np.uint64(0x9E3779B97F4A7C15)
_MIX_LABEL = np.uint64(0xC2B2AE3D27D4EB4F)
_CHILD = np.int64(0xFFFFFFFF)


def empty_slots(capacity: int) -> Any:
    """``capacity`` empty slots, two words each."""
    return np.full(2 * capacity, -1, dtype=np.int64)


@numba.njit(cache=True, nogil=True)
def _slot(capacity: int, hist: int, label: int) -> Any:  # pragma: no cover - compiled
    mixed = np.uint64(hist) * _MIX_HISTORY ^ np.uint64(label) * _MIX_LABEL
    mixed ^= mixed >> np.uint64(29)
    return np.int64(mixed % np.uint64(capacity))


@numba.njit(cache=True, nogil=True)
def find(slots: Any, hist: int, label: int) -> Any:  # pragma: no cover - compiled
    """The child stored under (``hist``, ``label``), or -1."""
    capacity = slots.size // 2
    i = _slot(capacity, hist, label)
    while True:
        packed = slots[2 * i]
        if packed == -1:
            return -1
        if packed >> 32 == hist and slots[2 * i + 1] == label:
            return packed & _CHILD
        i = i + 1 if i + 1 < capacity else 0


@numba.njit(cache=True, nogil=True)
def insert(slots: Any, hist: int, label: int, kid: int) -> None:  # pragma: no cover - compiled
    """Store ``kid`` under (``hist``, ``label``), not yet stored (the table has room)."""
    capacity = slots.size // 2
    i = _slot(capacity, hist, label)
    while slots[2 * i] != -1:
        i = i + 1 if i + 1 < capacity else 0
    slots[2 * i] = (np.int64(hist) << 32) | kid
    slots[2 * i + 1] = label


@numba.njit(cache=True, nogil=True)
def rehash(slots: Any, into: Any) -> None:  # pragma: no cover - compiled
    """Insert every stored entry of ``slots`` into ``into`` (empty, larger)."""
    for i in range(slots.size // 2):
        packed = slots[2 * i]
        if packed != -1:
            insert(into, packed >> 32, slots[2 * i + 1], packed & _CHILD)

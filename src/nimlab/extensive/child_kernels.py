"""The open-addressing hash table behind a large :class:`~nimlab.extensive.children.ChildTable`,
compiled with numba: a key is a pair (history, label), a value a child history.

Import this module only when numba is wanted: it imports numba at the top and compiles the
functions on first use (cached on disk afterwards). Slots are three flat arrays: the
histories (``-1`` marks an empty slot), the labels and the children, 16 bytes a slot, probed
linearly from a Fibonacci hash of the key. The capacity is a power of two.

>>> import numpy as np
>>> hists, labels, kids = empty_slots(8)
>>> insert(hists, labels, kids, 5, 1 << 40, 7)
>>> int(find(hists, labels, kids, 5, 1 << 40)), int(find(hists, labels, kids, 5, 3))
(7, -1)
>>> bigger = empty_slots(16)
>>> rehash(hists, labels, kids, *bigger)
>>> int(find(*bigger, 5, 1 << 40))
7
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["empty_slots", "find", "insert", "rehash"]

_MIX_HISTORY = np.uint64(0x9E3779B97F4A7C15)
_MIX_LABEL = np.uint64(0xC2B2AE3D27D4EB4F)


def empty_slots(capacity: int) -> tuple[Any, Any, Any]:
    """``capacity`` empty slots (a power of two): histories, labels, children."""
    return (
        np.full(capacity, -1, dtype=np.int32),
        np.zeros(capacity, dtype=np.int64),
        np.zeros(capacity, dtype=np.int32),
    )


@numba.njit(cache=True, nogil=True)
def _slot(capacity: int, hist: int, label: int) -> Any:  # pragma: no cover - compiled
    mixed = np.uint64(hist) * _MIX_HISTORY ^ np.uint64(label) * _MIX_LABEL
    mixed ^= mixed >> np.uint64(29)
    return np.int64(mixed & np.uint64(capacity - 1))


@numba.njit(cache=True, nogil=True)
def find(hists: Any, labels: Any, kids: Any, hist: int, label: int) -> Any:  # pragma: no cover
    """The child stored under (``hist``, ``label``), or -1."""
    mask = np.int64(hists.size - 1)
    i = _slot(hists.size, hist, label)
    while True:
        found = hists[i]
        if found == -1:
            return -1
        if found == hist and labels[i] == label:
            return kids[i]
        i = (i + np.int64(1)) & mask


@numba.njit(cache=True, nogil=True)
def insert(  # pragma: no cover - compiled
    hists: Any, labels: Any, kids: Any, hist: int, label: int, kid: int
) -> None:
    """Store ``kid`` under (``hist``, ``label``), not yet stored (the table has room)."""
    mask = np.int64(hists.size - 1)
    i = _slot(hists.size, hist, label)
    while hists[i] != -1:
        i = (i + np.int64(1)) & mask
    hists[i] = hist
    labels[i] = label
    kids[i] = kid


@numba.njit(cache=True, nogil=True)
def rehash(  # pragma: no cover - compiled
    hists: Any, labels: Any, kids: Any, into_hists: Any, into_labels: Any, into_kids: Any
) -> None:
    """Insert every stored entry of the first table into the second (empty, larger)."""
    for i in range(hists.size):
        if hists[i] != -1:
            insert(into_hists, into_labels, into_kids, hists[i], labels[i], kids[i])

"""One player's history children while a tree is unrolled: (history, label) -> child history.

A label names what extends the history: an own action and what the player saw
(:func:`own_label`), or an announcement of the opponent's move (:func:`opponent_label`).

A :class:`ChildTable` starts as a dict; once it holds :data:`COMPACT_FROM` children, and if
numba is installed, it moves them into flat arrays (:mod:`nimlab.hidden.child_kernels`),
16 bytes a slot, 47% to 70% full (about 28 bytes a child): a dict entry with its integer key
and value takes about 107 bytes. Smaller trees never import numba: its import alone costs
0.3 s and about 100 MB.

>>> table = ChildTable(compact_from=2)
>>> table.get(0, own_label(1, 5))
-1
>>> table.put(0, own_label(1, 5), 1)
>>> table.put(0, opponent_label(5), 2)
>>> table.put(1, own_label(0, 0), 3)      # the third child: arrays from here (with numba)
>>> [table.get(0, own_label(1, 5)), table.get(0, opponent_label(5)), table.get(1, 1 << 24)]
[1, 2, 3]
>>> len(table)
3
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, Final

__all__ = ["COMPACT_FROM", "SIGNAL_BITS", "ChildTable", "opponent_label", "own_label"]

SIGNAL_BITS: Final = 24
"""Bits for a signal's number in a label."""

COMPACT_FROM: Final = 1 << 18
"""Children held in a dict before a table moves to flat arrays. A tree's memory peaks with
its tables just under this: at 2**20, SN(10,10,1)'s peak held 140 MB of dicts, which flat
arrays hold in about 20 MB; numba's import costs about 100 MB (SN(9,9,1)'s trees have about
310,000 histories in all, and stay dicts)."""

COMPACT_ONCE_LOADED: Final = 1 << 15
"""Once another table has loaded the arrays' code, a table moves there from this many
children (checked at each multiple): the import is paid for already."""

_KERNELS: Final = "nimlab.hidden.child_kernels"

_MAX_LOAD: Final = 0.7
_LABEL_BITS: Final = 2 * SIGNAL_BITS  # a label's bits: an action's index and a signal


def own_label(action: int, signal: int) -> int:
    """The label of the child after the mover's action ``action`` (its index in the
    information set) and its seeing ``signal``.

    >>> own_label(0, 3) == (1 << SIGNAL_BITS) | 3
    True
    """
    return ((action + 1) << SIGNAL_BITS) | signal


def opponent_label(signal: int) -> int:
    """The label of the child after the opponent's move, announced as ``signal``.

    >>> opponent_label(3)
    3
    """
    return signal


class ChildTable:
    """Children of one player's histories, keyed by (history, label).

    ``get(hist, label)`` is the child of ``hist`` under ``label``, or -1. It is an attribute
    bound to the current storage (a dict's lookup, or the compiled :func:`find` on the
    slots), so that a lookup, made at every edge of the tree, costs a single call.
    """

    get: Callable[[int, int], int]

    def __init__(self, compact_from: int = COMPACT_FROM) -> None:
        self.compact_from = compact_from
        self.small: dict[int, int] | None = {}  # keyed by (history << 48) | label
        self.kernels: Any = None  # nimlab.hidden.child_kernels, once compact
        self.slots: Any = None
        self.size = 0
        self.room = 0
        small = self.small
        self.get = lambda hist, label: small.get((hist << _LABEL_BITS) | label, -1)

    def __len__(self) -> int:
        return self.size

    def put(self, hist: int, label: int, kid: int) -> None:
        """Store ``kid`` as the child of ``hist`` under ``label`` (not stored yet)."""
        self.size += 1
        if self.small is not None:
            self.small[(hist << _LABEL_BITS) | label] = kid
            if self.size >= self.compact_from or (
                self.size % COMPACT_ONCE_LOADED == 0 and _KERNELS in sys.modules
            ):
                self._compact()
            return
        if self.size > self.room:
            old = self.slots
            self._allocate(len(old) * 3 // 4)  # half as many slots again (two words a slot)
            self.kernels.rehash(old, self.slots)
        self.kernels.insert(self.slots, hist, label, kid)

    def _compact(self) -> None:
        """Move the dict's children into flat arrays, if numba is installed."""
        try:
            from nimlab.hidden import child_kernels
        except ImportError:  # pragma: no cover - numba is an optional extra
            self.compact_from = 1 << 62
            return
        self.kernels = child_kernels
        small, self.small = self.small or {}, None
        self._allocate(int(len(small) / _MAX_LOAD * 1.2))  # 58% full
        mask = (1 << _LABEL_BITS) - 1
        for key, kid in small.items():
            child_kernels.insert(self.slots, key >> _LABEL_BITS, key & mask, kid)

    def _allocate(self, capacity: int) -> None:
        capacity = max(capacity, int(self.size / _MAX_LOAD) + 2)  # room for one more
        self.slots = self.kernels.empty_slots(capacity)
        self.room = int(capacity * _MAX_LOAD)
        self.get = functools.partial(self.kernels.find, self.slots)

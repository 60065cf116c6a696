"""The compiled sparse-space engine: one kernel for the full table and the bounded summary.

Import this module only when numba is wanted (it imports numba at the top). The kernels
compile on first use, about 2 CPU seconds per value type, and are cached on disk
(``cache=True``: numba keys each entry by signature, CPU and the source's bytecode, so each
value type and machine gets its own, and an edit of this file invalidates them), so a process
pays the compile once per machine; whole ``grundy grundy-game --upto 1048575 --summary``
process 9.4 -> 3.7 CPU s, start-up 4.4 -> 1.4 s. The kernels:

- :func:`extend` computes ``g(start), ...`` by the sparse-space method
  (:mod:`nimlab.octal.sparse`) over a ``uint8``/``uint16``/``uint32`` value array; each split
  rule pairs the rare heaps below ``n - k`` found by a binary search (no test per pair), and
  an equal split forbidden by the rules is cut out of that range instead of tested; the rare
  values still missing are looked for among the splits of two common heaps by clearing flags
  and counting down while there are many, then by vector compares that read the values
  backwards. Both
  ``grundy --upto N`` (:class:`NumbaBackend`, behind :func:`nimlab.octal.sparse.run_sparse`)
  and ``grundy --summary`` (:class:`nimlab.octal.summary.SummaryRun`) run it;
- :func:`collect_rare` lists the rare positions for a new mask without a temporary per value;
- :func:`least_period` looks for the least period the octal periodicity theorem proves, by a
  Z-function of the reversed values kept only up to the largest period tried;
- :func:`first_last` finds where each value first and last occurs.

>>> from nimlab.octal.code import OctalCode
>>> from nimlab.octal.periodicity import find_period
>>> from nimlab.octal.plain import plain_sequence
>>> from nimlab.octal.rules import rules_of
>>> from nimlab.octal.sparse import sparse_sequence
>>> rules = rules_of(OctalCode.parse("0.137"))
>>> numba_sequence(rules, 2000) == sparse_sequence(rules, 2000)
True
>>> values = plain_sequence(rules_of(OctalCode.parse("0.07")), 200)
>>> g = np.array(values, dtype=np.uint8)
>>> least_period(g, len(values), 1, 100, np.zeros(101, dtype=np.int64))
(34, 53)
>>> find_period(OctalCode.parse("0.07"), values)
Periodicity(period=34, preperiod=53)
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from nimlab.octal.rules import MoveRules
from nimlab.octal.sparse import is_rare, run_sparse, value_dtype

_BLOCK = 16
"""Splits marked between two looks at how many rare values are still missing."""
_HEAPS = 64
"""Consecutive heaps whose rare pairs :func:`extend` marks together."""
_LANES = 128
"""Consecutive splits compared at once in :func:`_compare` (64 measured slower on Grundy's
game, 256 no faster on 0.6)."""
_COMPARE_BELOW = 4
"""Missing rare values from which :func:`_scan` switches from marking to comparing. In-process
at 2^20, medians of 5: 4 beats 2, 3, 6 and 8 on 0.6 and Grundy's game; with the earlier
filter of the list after each block, 16 had been best."""
_STRIDE = 8
"""The scan visits splits ``1, 9, 17, ...``, then ``2, 10, ...`` (as
:data:`nimlab.octal.sparse.SCAN_STRIDE`)."""

__all__ = [
    "NumbaBackend",
    "collect_rare",
    "extend",
    "first_last",
    "least_period",
    "numba_sequence",
]


@numba.njit(cache=True, nogil=True)
def _count_below(rare: Any, count: int, bound: int) -> int:  # pragma: no cover - compiled
    """How many of the sorted ``rare[:count]`` are below ``bound``."""
    low, high = 0, count
    while low < high:
        middle = (low + high) >> 1
        if rare[middle] < bound:
            low = middle + 1
        else:
            high = middle
    return low


@numba.njit(cache=True, nogil=True)
def _compare(
    g: Any, n: int, split: Any, unequal: bool, targets: Any, missing: int
) -> int:  # pragma: no cover - compiled
    """The least of ``targets[:missing]`` no split of ``n`` reaches, or -1.

    Splits ``a = 1, 2, 3, ...`` in blocks of :data:`_LANES`: ``g[a:a + _LANES]`` and
    ``g[rest - a - _LANES + 1:rest - a + 1]`` read backwards, so each target costs one XOR
    and one compare of ``_LANES`` values (numba vectorises the loop over ``j`` with a fixed
    trip count; the values' narrow type matters: 64 ``uint8`` lanes per AVX-512 register).
    The backward side is a forward load and a ``vpermb`` in the register (checked in the
    assembly), as fast in-process as the reversed copy of the values it replaced (Grundy's
    game and 0.6 at 2^19, medians of 5: 0.98x and 0.99x) at half the memory. Consecutive
    splits find the last values later than the spread-out ones of :func:`_scan`, but each
    costs a fraction of a cycle.
    """
    for k in split:
        rest = n - k
        last = (rest - 1) // 2 if unequal else rest // 2
        a = 1
        while a + _LANES <= last + 1:
            low = g[a : a + _LANES]
            high = g[rest - a - _LANES + 1 : rest - a + 1]  # g[rest - a - j] = high[-1 - j]
            kept = 0
            for i in range(missing):
                target = targets[i]
                hit = False
                for j in range(_LANES):
                    hit |= (low[j] ^ high[_LANES - 1 - j]) == target
                if not hit:
                    targets[kept] = target
                    kept += 1
            missing = kept
            if missing == 0:
                return -1
            a += _LANES
        while a <= last:
            value = g[a] ^ g[rest - a]
            kept = 0
            for i in range(missing):
                if targets[i] != value:
                    targets[kept] = targets[i]
                    kept += 1
            missing = kept
            if missing == 0:
                return -1
            a += 1
    return int(targets[0])


@numba.njit(cache=True, nogil=True)
def _scan(
    g: Any,
    n: int,
    value: int,
    seen: Any,
    stamp: int,
    rare_value: Any,
    split: Any,
    unequal: bool,
    todo: Any,
    wanted: Any,
    targets: Any,
) -> int:  # pragma: no cover - compiled
    """``g(n)`` when the least value no rare split reached, ``value``, is rare.

    The candidate is the least common value still unmarked (common values only come from
    one-heap options and splits with a rare part, all marked already); ``g(n)`` is that
    unless a rare value below it is missing among the splits of two common heaps. Those
    missing values are flagged in ``wanted`` (all zero between calls) and listed in
    ``todo``; while more than :data:`_COMPARE_BELOW` are missing, the loop walks the splits
    (spread out by :data:`_STRIDE`, since neighbouring heaps have correlated values) and
    counts down each flag it clears, a load and a store per split with no test, looking at
    the count every :data:`_BLOCK` splits; then :func:`_compare` looks for the last few
    with vector compares. (Re-filtering the list after each block of 64 splits, as before,
    took a quarter of 0.6's time: counting down is 1.30x faster on 0.6 and 1.16x on
    Grundy's game at 2^20, in-process medians of 5.)
    """
    top = seen.shape[0] - 1  # no common value below (mask 0: all are rare): scan everything
    missing = 0
    candidate = value
    while candidate < top:
        if seen[candidate] != stamp:
            if not rare_value[candidate]:
                break
            todo[missing] = candidate
            wanted[candidate] = 1
            missing += 1
        candidate += 1
    if missing == 0:
        return candidate
    listed = missing
    for k in split:
        if missing <= _COMPARE_BELOW:
            break
        rest = n - k
        last = (rest - 1) // 2 if unequal else rest // 2
        for first in range(1, _STRIDE + 1):
            if missing <= _COMPARE_BELOW:
                break
            a = first
            while a <= last:
                stop = min(last + 1, a + _BLOCK * _STRIDE)
                for b in range(a, stop, _STRIDE):
                    reached = np.uintp(g[b] ^ g[np.uintp(rest - b)])
                    missing -= int(wanted[reached])
                    wanted[reached] = 0
                a = stop
                if missing <= _COMPARE_BELOW:
                    break
    kept = 0
    for i in range(listed):
        target = todo[i]
        if wanted[target]:
            wanted[target] = 0
            if kept <= _COMPARE_BELOW:
                targets[kept] = target
            kept += 1
    if kept == 0:
        return candidate
    if kept > _COMPARE_BELOW:
        return int(targets[0])  # every split was marked
    least = _compare(g, n, split, unequal, targets, kept)
    return candidate if least < 0 else least


@numba.njit(cache=True, nogil=True)
def extend(
    g: Any,
    start: int,
    stop: int,
    rare: Any,
    rare_g: Any,
    nrare: int,
    rare_value: Any,
    seen: Any,
    half: int,
    take_all: Any,
    take_some: Any,
    split: Any,
    unequal: bool,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """Compute ``g[start:stop]``; returns (next n, number of rare positions).

    Stops right after a value ``>= half`` (the caller widens the value range) or when the rare
    arrays are full (the caller grows them); ``seen``'s length is the number of values marked.
    The heaps go in blocks of :data:`_HEAPS`: for a rare heap ``a`` whose partner
    ``b = n - k - a`` is computed and positive for every heap ``n`` of the block, the ``b``
    are consecutive, so one loop over the block marks the pairs from contiguous loads into a
    row of ``uint8`` marks per heap (stamped per block); the few rare heaps below the block
    size or inside the block are paired heap by heap. In-process, medians of 5 at 2^19:
    Grundy's game 1.24x, 0.6 1.07x faster than one heap at a time (the scan for missing rare
    values, not the pairs, is now most of 0.6's time). The hot loops index with ``np.uintp``
    (indices known to be in range), which spares each access numba's test for a negative
    index (15-18% of the run time).
    """
    capacity = rare.shape[0]
    nvalues = seen.shape[0]
    todo = np.zeros(nvalues, dtype=np.int64)
    wanted = np.zeros(nvalues, dtype=np.uint8)
    targets = np.zeros(_COMPARE_BELOW + 1, dtype=g.dtype)
    # one row of marks per heap, an odd number of cache lines apart: with an even number
    # (1,025 bytes for values below 512), the rows' first lines fell into a quarter of the
    # L1 cache's sets and evicted each other (0.6 1.16x, Grundy's game 1.13x faster at 2^20)
    lines = (nvalues + 63) // 64
    lines += 1 - lines % 2
    marks = np.zeros((_HEAPS, 64 * lines), dtype=np.uint8)
    stamp = 0
    for n0 in range(start, stop, _HEAPS):
        n1 = min(stop, n0 + _HEAPS)
        heaps = n1 - n0
        stamp += 1
        if stamp == 256:  # the stamps wrap: forget every mark
            marks[:, :] = 0
            stamp = 1
        # the rare heaps a whose partner b = n - k - a is below n0 and >= 1 for every heap n
        # of the block: a in [heaps - k, n0 - k - 1], the same a for all of them, and b runs
        # over consecutive heaps (contiguous loads, a store per pair)
        for k in split:
            low = _count_below(rare, nrare, max(1, heaps - k))
            high = _count_below(rare, nrare, n0 - k)
            for i in range(low, high):
                a = rare[i]
                x = rare_g[i]
                base = n0 - k - a
                skip = 2 * a + k - n0  # the heap whose equal split (a, a) is forbidden
                if not unequal or skip < 0 or skip >= heaps:
                    skip = heaps
                for j in range(skip):
                    marks[j, np.uintp(x ^ g[np.uintp(base + j)])] = stamp
                for j in range(skip + 1, heaps):
                    marks[j, np.uintp(x ^ g[np.uintp(base + j)])] = stamp
        for n in range(n0, n1):
            seen = marks[n - n0, :nvalues]
            for k in take_all:
                if k == n:
                    seen[0] = stamp
            for k in take_some:
                if k < n:
                    seen[g[n - k]] = stamp
            for k in split:
                rest = n - k
                if rest < 2:
                    continue
                # the rare heaps a the block did not pair: a < heaps - k and a >= n0 - k
                low = _count_below(rare, nrare, max(1, heaps - k))
                high = _count_below(rare, nrare, max(1, n0 - k))
                top = _count_below(rare, nrare, rest)
                for i in range(low):
                    a = rare[i]
                    if a < rest and not (unequal and 2 * a == rest):
                        seen[np.uintp(rare_g[i] ^ g[np.uintp(rest - a)])] = stamp
                for i in range(max(high, low), top):
                    a = rare[i]
                    if not (unequal and 2 * a == rest):
                        seen[np.uintp(rare_g[i] ^ g[np.uintp(rest - a)])] = stamp
            value = 0
            while seen[value] == stamp:
                value += 1
            if rare_value[value]:
                value = _scan(
                    g, n, value, seen, stamp, rare_value, split, unequal, todo, wanted, targets
                )
            g[n] = value
            if rare_value[value] and n > 0:
                rare[nrare] = n
                rare_g[nrare] = value
                nrare += 1
                if nrare == capacity:
                    return n + 1, nrare
            if value >= half:
                return n + 1, nrare
    return stop, nrare


@numba.njit(cache=True, nogil=True)
def collect_rare(
    g: Any, count: int, rare_value: Any, rare: Any, rare_g: Any
) -> int:  # pragma: no cover - compiled
    """Write the rare positions ``1 <= n < count`` (and their values) into ``rare``/``rare_g``
    while they fit; returns how many there are (more than the capacity: call again larger)."""
    capacity = rare.shape[0]
    found = 0
    for n in range(1, count):
        if rare_value[g[n]]:
            if found < capacity:
                rare[found] = n
                rare_g[found] = g[n]
            found += 1
    return found


@numba.njit(cache=True, nogil=True)
def least_period(
    g: Any, size: int, max_take: int, max_period: int, z: Any
) -> tuple[int, int]:  # pragma: no cover - compiled
    """The least ``p <= max_period`` that the octal periodicity theorem proves from
    ``g[:size]``, with its least preperiod, or ``(0, 0)``; ``z`` has ``max_period + 1`` slots.

    ``z[p]`` = how many of the last values agree with the values ``p`` before them (the
    Z-function of the reversed sequence, whose box never reaches past ``p``); the theorem needs
    ``2 max(n0, 1) + 2p + t <= size`` with ``n0 = size - p - z[p]``
    (:func:`nimlab.octal.periodicity.find_period` does the same over a Python list).
    """
    left = 0
    right = 0
    for p in range(1, max_period + 1):
        length = 0
        if p < right:
            length = min(right - p, z[p - left])
        while p + length < size and g[size - 1 - length] == g[size - 1 - p - length]:
            length += 1
        z[p] = length
        if p + length > right:
            left = p
            right = p + length
        start = size - p - length
        if 2 * max(start, 1) + 2 * p + max_take <= size:
            return p, start
    return 0, 0


@numba.njit(cache=True, nogil=True)
def first_last(
    g: Any, start: int, stop: int, first: Any, last: Any
) -> None:  # pragma: no cover - compiled
    """For each value ``v``: the first and last ``n`` in ``start..stop - 1`` with
    ``g[n] == v`` (``first``/``last`` hold -1 where it never occurs, and are filled in)."""
    for n in range(start, stop):
        v = g[n]
        if first[v] < 0:
            first[v] = n
        last[v] = n


class NumbaBackend:
    """The whole table ``g(0..upto)`` in the narrowest integer type, extended by :func:`extend`
    (the :class:`nimlab.octal.sparse.SparseBackend` of :func:`numba_sequence`)."""

    def __init__(self, rules: MoveRules, upto: int) -> None:
        self.g: npt.NDArray[Any] = np.zeros(upto + 1, dtype=np.uint8)
        self.rare: npt.NDArray[np.int64] = np.zeros(1024, dtype=np.int64)
        self.rare_g: npt.NDArray[np.int32] = np.zeros(1024, dtype=np.int32)
        self.nrare = 0
        self.take_all = np.array(rules.take_all, dtype=np.int64)
        self.take_some = np.array(rules.take_some, dtype=np.int64)
        self.split = np.array(rules.split, dtype=np.int64)
        self.unequal = rules.unequal_split
        self.half = 1
        self.rare_value = np.zeros(3, dtype=np.bool_)
        self.seen: npt.NDArray[np.int64] = np.zeros(3, dtype=np.int64)

    def reset(self, mask: int, half: int, count: int) -> None:
        """See :meth:`nimlab.octal.sparse.SparseBackend.reset`."""
        self.half = half
        if self.g.dtype != value_dtype(half):
            self.g = self.g.astype(value_dtype(half))
        self.rare_value = np.array([is_rare(v, mask) for v in range(2 * half + 1)], dtype=bool)
        self.seen = np.zeros(2 * half + 1, dtype=np.int64)
        while True:
            found = collect_rare(self.g, count, self.rare_value, self.rare, self.rare_g)
            if found < self.rare.shape[0]:
                self.nrare = int(found)
                return
            self.rare = np.zeros(2 * found + 2, dtype=np.int64)
            self.rare_g = np.zeros(2 * found + 2, dtype=np.int32)

    def values(self, count: int) -> npt.NDArray[np.int64]:
        """See :meth:`nimlab.octal.sparse.SparseBackend.values`."""
        return self.g[:count].astype(np.int64)

    def extend(self, start: int, stop: int) -> int:
        """See :meth:`nimlab.octal.sparse.SparseBackend.extend` (grows the rare arrays as
        they fill up, without a new mask)."""
        n = start
        while True:
            n, self.nrare = extend(
                self.g, n, stop, self.rare, self.rare_g, self.nrare, self.rare_value,
                self.seen, self.half, self.take_all, self.take_some, self.split, self.unequal,
            )  # fmt: skip
            if self.nrare == self.rare.shape[0]:
                self.rare = np.concatenate((self.rare, np.zeros_like(self.rare)))
                self.rare_g = np.concatenate((self.rare_g, np.zeros_like(self.rare_g)))
            if n >= stop or int(self.g[n - 1]) >= self.half:
                return int(n)


def numba_sequence(rules: MoveRules, upto: int) -> list[int]:
    """``g(0), ..., g(upto)`` by the compiled sparse-space method."""
    backend = NumbaBackend(rules, upto)
    run_sparse(backend, upto)
    return backend.g.tolist()  # type: ignore[no-any-return]

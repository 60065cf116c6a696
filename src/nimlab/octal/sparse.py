"""Grundy sequences by the sparse-space method, in pure Python, and the driver it shares.

The method (Berlekamp's *sparse space*, Winning Ways ch. 4 extras; A. Flammenkamp's octal-game
records): pick a bit mask ``m`` and call a value *common* if ``popcount(v & m)`` is odd and
*rare* if it is even. Rare XOR rare and common XOR common are rare, rare XOR common is common.
So every common value among the options of a heap comes from a split with at least one rare
heap (or from a one-heap option), and there are few rare heaps when ``m`` is well chosen. For
each ``n`` the engine

1. marks the values of the one-heap options and of every split with a rare part;
2. takes the least unmarked value ``c``; if ``c`` is common, no option has value ``c`` and
   everything below is marked, so ``g(n) = c``;
3. otherwise scans the remaining splits until the candidate becomes common or the splits run
   out (exactly when ``g(n)`` is rare). Common XOR common pairs are plentiful, so the scan
   usually stops early: for Grundy's game after about 1,500 splits near ``n = 2^16``,
   against ``n / 2`` for the plain method.

The answer never depends on the mask, only the speed does. The mask is chosen automatically:
at ``n = 64, 128, 256, ...`` (and whenever a value needs a new bit) the driver picks, from
the values found so far, the mask with the fewest rare positions (a Walsh-Hadamard transform
of the value histogram counts them for every mask at once).

>>> from nimlab.octal.code import OctalCode
>>> from nimlab.octal.plain import plain_sequence
>>> from nimlab.octal.rules import rules_of
>>> rules = rules_of(OctalCode.parse("0.16"))
>>> sparse_sequence(rules, 3000) == plain_sequence(rules, 3000)
True
>>> choose_mask([0, 1, 2, 3, 1, 1, 2, 1], 4)  # 3 makes only the value 3 rare
3
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from nimlab.octal.rules import MoveRules
from nimlab.progress import report

__all__ = [
    "REPORT_EVERY",
    "SCAN_STRIDE",
    "PythonBackend",
    "SparseBackend",
    "choose_mask",
    "is_rare",
    "mask_from_counts",
    "run_sparse",
    "sparse_sequence",
    "value_dtype",
]

SCAN_STRIDE = 8
"""The full scan visits splits ``a = 1, 9, 17, ...``, then ``2, 10, 18, ...``, and so on:
neighbouring heaps have correlated values, so spreading the early splits out finds the
missing values with roughly half as many splits as ``a = 1, 2, 3, ...`` (Grundy's game)."""

_FIRST_REVIEW = 64
_MIN_HALF = 16
REPORT_EVERY = 1 << 16
"""Values computed between two progress reports (the mask is re-chosen at doubling points
only, so chunking changes no result)."""


class SparseBackend(Protocol):
    """Storage and hot loop of one sparse-space computation (pure Python or compiled)."""

    def extend(self, start: int, stop: int) -> int:
        """Compute ``g(start), ..., g(stop - 1)``; stop early, returning the next ``n`` to do,
        right after a value ``>= half`` (the current value bound) appears."""
        ...

    def values(self, count: int) -> npt.NDArray[np.int64]:
        """``g(0), ..., g(count - 1)`` as an array."""
        ...

    def reset(self, mask: int, half: int, count: int) -> None:
        """Use ``mask`` and the bound ``half`` (a power of two above every value) from now on,
        with the rare positions among ``1, ..., count - 1``."""
        ...


def choose_mask(values: Sequence[int] | npt.NDArray[np.int64], half: int) -> int:
    """The mask below ``half`` (a power of two above all values) with the fewest positions
    ``n >= 1`` whose value is rare (ties: the smallest mask)."""
    counts = np.bincount(np.asarray(values[1:], dtype=np.int64), minlength=half)
    return mask_from_counts(counts, half)


def mask_from_counts(counts: npt.NDArray[np.int64], half: int) -> int:
    """:func:`choose_mask` from the histogram ``counts`` (length ``half``) of the values of
    the heaps ``n >= 1``.

    >>> mask_from_counts(np.array([0, 4, 2, 1]), 4)
    3
    """
    spectrum = np.asarray(counts, dtype=np.int64)[:half].copy()
    step = 1
    while step < half:  # Walsh-Hadamard: spectrum[m] = sum_v counts[v] * (-1)^popcount(m & v)
        pairs = spectrum.reshape(-1, 2, step)
        spectrum = np.concatenate(
            (pairs[:, 0, :] + pairs[:, 1, :], pairs[:, 0, :] - pairs[:, 1, :]), axis=1
        ).reshape(-1)
        step *= 2
    # rare positions for mask m: (total + spectrum[m]) / 2
    return int(np.argmin(spectrum))


def run_sparse(backend: SparseBackend, upto: int) -> None:
    """Drive ``backend`` over ``g(0..upto)``, re-choosing the mask at doubling review points
    (and when a value outgrows the current range); how far it has come is reported
    (:mod:`nimlab.progress`) every :data:`REPORT_EVERY` values."""
    half = _MIN_HALF
    backend.reset(0, half, 0)
    n, review, next_report = 0, _FIRST_REVIEW, REPORT_EVERY
    while n <= upto:
        stop = min(upto + 1, review, next_report)
        n = backend.extend(n, stop)
        if n > upto:
            break
        if n >= next_report:
            report(f"g(n) computed for n < {n:,} of {upto + 1:,}")
            next_report = n + REPORT_EVERY
        # extend stops right after a value >= half, which may be the chunk's last one
        outgrown = n < stop or int(backend.values(n)[n - 1]) >= half
        if outgrown or n >= review:
            if n >= review:
                review *= 2
            values = backend.values(n)
            half = max(_MIN_HALF, 1 << int(values.max()).bit_length())
            backend.reset(choose_mask(values, half), half, n)


def is_rare(value: int, mask: int) -> bool:
    """Whether ``value`` is rare for ``mask`` (an even number of masked one-bits)."""
    return (value & mask).bit_count() % 2 == 0


def value_dtype(half: int) -> type[np.unsignedinteger[Any]]:
    """The narrowest unsigned type for values up to ``half`` (the sparse engine never finds a
    value above ``half``, the power of two above all values so far).

    >>> value_dtype(128).__name__, value_dtype(256).__name__, value_dtype(1 << 16).__name__
    ('uint8', 'uint16', 'uint32')
    """
    if half <= 0xFF:
        return np.uint8
    if half <= 0xFFFF:
        return np.uint16
    return np.uint32


class PythonBackend:
    """The sparse-space hot loop over Python lists and sets."""

    def __init__(self, rules: MoveRules) -> None:
        self.rules = rules
        self.g: list[int] = []
        self.rare: list[int] = []
        self.rare_value: list[bool] = []
        self.half = _MIN_HALF

    def reset(self, mask: int, half: int, count: int) -> None:
        """See :meth:`SparseBackend.reset`."""
        self.half = half
        self.rare_value = [is_rare(v, mask) for v in range(2 * half)]
        rare_value = self.rare_value
        self.rare = [n for n in range(1, count) if rare_value[self.g[n]]]

    def values(self, count: int) -> npt.NDArray[np.int64]:
        """See :meth:`SparseBackend.values`."""
        return np.asarray(self.g[:count], dtype=np.int64)

    def extend(self, start: int, stop: int) -> int:
        """See :meth:`SparseBackend.extend`."""
        g, rare, rare_value, half = self.g, self.rare, self.rare_value, self.half
        rules = self.rules
        take_all, take_some, split = rules.take_all, rules.take_some, rules.split
        unequal = rules.unequal_split
        for n in range(start, stop):
            marked = {0 for k in take_all if k == n}
            marked.update([g[n - k] for k in take_some if k < n])
            for k in split:
                rest = n - k
                below = rare[: bisect_left(rare, rest)]  # rare heaps a with b = rest - a >= 1
                if unequal:
                    marked.update([g[a] ^ g[rest - a] for a in below if a + a != rest])
                else:
                    marked.update([g[a] ^ g[rest - a] for a in below])
            value = 0
            while value in marked:
                value += 1
            if rare_value[value]:
                value = _scan(g, n, rules, marked, value, rare_value)
            g.append(value)
            if rare_value[value] and n:
                rare.append(n)
            if value >= half:
                return n + 1
        return stop


def _scan(
    g: list[int], n: int, rules: MoveRules, marked: set[int], value: int, rare_value: list[bool]
) -> int:
    """Mark split values until the least unmarked value ``value`` is common (or all are done)."""
    last = 1 if rules.unequal_split else 0
    for k in rules.split:
        rest = n - k
        top = (rest - last) // 2
        for first in range(1, SCAN_STRIDE + 1):
            for a in range(first, top + 1, SCAN_STRIDE):
                v = g[a] ^ g[rest - a]
                marked.add(v)
                if v == value:
                    while value in marked:
                        value += 1
                    if not rare_value[value]:
                        return value
    return value


def sparse_sequence(rules: MoveRules, upto: int) -> list[int]:
    """``g(0), ..., g(upto)`` by the sparse-space method in pure Python."""
    backend = PythonBackend(rules)
    run_sparse(backend, upto)
    return backend.g[: upto + 1]

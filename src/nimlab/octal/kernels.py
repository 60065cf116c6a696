"""The sparse-space hot loop compiled with numba, behind the same driver as the Python one.

Import this module only when numba is wanted: it imports numba at the top, and compiles the
kernel on first use (a second or two).

>>> from nimlab.octal.code import OctalCode
>>> from nimlab.octal.rules import rules_of
>>> from nimlab.octal.sparse import sparse_sequence
>>> rules = rules_of(OctalCode.parse("0.137"))
>>> numba_sequence(rules, 2000) == sparse_sequence(rules, 2000)
True
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from nimlab.octal.rules import MoveRules
from nimlab.octal.sparse import SCAN_STRIDE, is_rare, run_sparse

__all__ = ["NumbaBackend", "numba_sequence"]

Int64Array = npt.NDArray[np.int64]


@numba.njit(cache=False, nogil=True)
def _extend(
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
    last: int,
    stride: int,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """Compute ``g[start:stop]``; returns (next n, number of rare positions).

    ``rare_g[i]`` is ``g[rare[i]]``, kept contiguous for the inner loop; the full scan visits
    the splits in ``stride`` interleaved passes (see :data:`~nimlab.octal.sparse.SCAN_STRIDE`).
    """
    for n in range(start, stop):
        stamp = n + 1
        for k in take_all:
            if k == n:
                seen[0] = stamp
        for k in take_some:
            if k < n:
                seen[g[n - k]] = stamp
        for k in split:
            rest = n - k
            for i in range(nrare):
                b = rest - rare[i]
                if b < 1:
                    break
                if b != rare[i] or last == 0:
                    seen[rare_g[i] ^ g[b]] = stamp
        value = 0
        while seen[value] == stamp:
            value += 1
        if rare_value[value]:
            done = False
            for k in split:
                rest = n - k
                top = (rest - last) // 2
                for first in range(1, stride + 1):
                    for a in range(first, top + 1, stride):
                        v = g[a] ^ g[rest - a]
                        seen[v] = stamp
                        if v == value:
                            while seen[value] == stamp:
                                value += 1
                            if not rare_value[value]:
                                done = True
                                break
                    if done:
                        break
                if done:
                    break
        g[n] = value
        if rare_value[value] and n > 0:
            rare[nrare] = n
            rare_g[nrare] = value
            nrare += 1
        if value >= half:
            return n + 1, nrare
    return stop, nrare


class NumbaBackend:
    """The sparse-space state in numpy arrays, extended by the compiled kernel."""

    def __init__(self, rules: MoveRules, upto: int) -> None:
        self.g: Int64Array = np.zeros(upto + 1, dtype=np.int64)
        self.rare: Int64Array = np.zeros(upto + 1, dtype=np.int64)
        self.rare_g: Int64Array = np.zeros(upto + 1, dtype=np.int64)
        self.nrare = 0
        self.take_all = np.array(rules.take_all, dtype=np.int64)
        self.take_some = np.array(rules.take_some, dtype=np.int64)
        self.split = np.array(rules.split, dtype=np.int64)
        self.last = 1 if rules.unequal_split else 0
        self.half = 1
        self.rare_value = np.zeros(2, dtype=np.bool_)
        self.seen: Int64Array = np.zeros(2, dtype=np.int64)

    def reset(self, mask: int, half: int, count: int) -> None:
        """See :meth:`nimlab.octal.sparse.SparseBackend.reset`."""
        self.half = half
        self.rare_value = np.array([is_rare(v, mask) for v in range(2 * half)], dtype=np.bool_)
        self.seen = np.zeros(2 * half, dtype=np.int64)
        positions = np.flatnonzero(self.rare_value[self.g[:count]])
        positions = positions[positions > 0]
        self.nrare = len(positions)
        self.rare[: self.nrare] = positions
        self.rare_g[: self.nrare] = self.g[positions]

    def values(self, count: int) -> Int64Array:
        """See :meth:`nimlab.octal.sparse.SparseBackend.values`."""
        return self.g[:count]

    def extend(self, start: int, stop: int) -> int:
        """See :meth:`nimlab.octal.sparse.SparseBackend.extend`."""
        reached, self.nrare = _extend(
            self.g,
            start,
            stop,
            self.rare,
            self.rare_g,
            self.nrare,
            self.rare_value,
            self.seen,
            self.half,
            self.take_all,
            self.take_some,
            self.split,
            self.last,
            SCAN_STRIDE,
        )
        return int(reached)


def numba_sequence(rules: MoveRules, upto: int) -> list[int]:
    """``g(0), ..., g(upto)`` by the compiled sparse-space method."""
    backend = NumbaBackend(rules, upto)
    run_sparse(backend, upto)
    return backend.g.tolist()  # type: ignore[no-any-return]

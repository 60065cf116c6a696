"""The P-portion marking of :func:`nimlab.quotients.words.mark_p_portion`, compiled with numba.

Import this module only when numba is wanted (it imports numba at the top; the function is
compiled on first use and cached on disk). Products are read off two arrays of columns:
``gact[x, d]`` is ``x`` times the element of heap type ``d`` and ``tcol[x, u]`` is ``x`` times
transition element ``u``; type ``d``'s transitions are ``tidx[toff[d]:toff[d + 1]]``.

Words over the types are walked in colex order as in the Python search, each element
marked at its least word ``w``; ``w`` is in P when it is not empty and no option is: the
options of ``w`` are ``(w - d) t`` for each type ``d`` in ``w`` and transition ``t`` of ``d``, and
the elements of ``w - d`` (``pred``) are kept along the walk.

>>> import numpy as np
>>> gact = np.array([[1], [2], [1]])  # misère Nim of heaps of 1: 1, a, a^2 = 1
>>> tcol = np.array([[0], [1], [2]])
>>> p, least = mark(gact, tcol, np.array([0, 1]), np.array([0]), 3)
>>> p.tolist(), least.tolist()
([False, True, False], [[0], [1], [2]])
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["mark", "n_failure"]


@numba.njit(cache=True, nogil=True)
def mark(gact: Any, tcol: Any, toff: Any, tidx: Any, size: int) -> Any:  # pragma: no cover
    """``(p, least)``: the P-portion predicted from least words, and each element's least
    word (a row of exponents per type; -1 for elements no word reaches)."""
    count = gact.shape[1]
    marked = np.zeros(size, dtype=np.bool_)
    p = np.zeros(size, dtype=np.bool_)
    least = np.full((size, count), -1, dtype=np.int64)
    heaps = np.zeros(count, dtype=np.int64)
    elem = np.zeros(count + 1, dtype=np.int64)
    pred = np.zeros(count, dtype=np.int64)
    saved = np.zeros((count, count), dtype=np.int64)
    depth = -1
    while depth < count:
        if depth == -1:
            e = elem[0]
            is_p = False
            for d in range(count):
                if heaps[d] > 0:
                    is_p = True
                    break
            if is_p:
                for d in range(count):
                    if heaps[d] <= 0:
                        continue
                    x = pred[d]
                    for k in range(toff[d], toff[d + 1]):
                        if p[tcol[x, tidx[k]]]:
                            is_p = False
                            break
                    if not is_p:
                        break
            p[e] = is_p
            marked[e] = True
            for d in range(count):
                least[e, d] = heaps[d] if heaps[d] > 0 else 0
            depth = 0
            continue
        heaps[depth] += 1
        if heaps[depth] == 0:
            for d in range(depth + 1, count):
                saved[depth, d] = pred[d]
        else:
            old = elem[depth]
            new = gact[old, depth]
            if marked[new]:
                heaps[depth] = -1
                for d in range(depth + 1, count):
                    pred[d] = saved[depth, d]
                depth += 1
                continue
            if heaps[depth] == 1:
                for d in range(depth + 1, count):
                    saved[depth, d] = pred[d]
            for d in range(depth + 1, count):
                if heaps[d] > 0:
                    pred[d] = gact[pred[d], depth]
            pred[depth] = old
            elem[depth] = new
        depth -= 1
        if depth >= 0:
            elem[depth] = elem[depth + 1]
    return p, least


@numba.njit(cache=True, nogil=True)
def _subset(a: Any, b: Any) -> bool:  # pragma: no cover - compiled
    for w in range(a.size):  # noqa: SIM110 - a loop numba compiles
        if a[w] & ~b[w]:
            return False
    return True


@numba.njit(cache=True, nogil=True)
def n_failure(
    gact: Any, tcol: Any, toff: Any, tidx: Any, p: Any, bound: Any
) -> Any:  # pragma: no cover - compiled
    """The colex-least word (exponents per type) predicted N with no option predicted P,
    as ``(1, word)``, or ``(0, zeros)`` when there is none (below ``bound``, if it has
    entries). Transition sets are bitsets; a word whose element and transitions contain
    those of a word met before is not extended (it fails only if a smaller word does)."""
    size, count = gact.shape
    width = (size + 63) // 64
    heaps = np.zeros(count, dtype=np.int64)
    elem = np.zeros(count + 1, dtype=np.int64)
    trs = np.zeros((count + 1, width), dtype=np.uint64)
    new = np.zeros(width, dtype=np.uint64)
    capacity = 4096
    pool = np.zeros((capacity, width), dtype=np.uint64)
    following = np.full(capacity, -1, dtype=np.int64)
    alive = np.zeros(capacity, dtype=np.bool_)
    head = np.full(size, -1, dtype=np.int64)
    used = 0
    one = np.uint64(1)
    depth = -1
    while depth < count:
        if depth == -1:
            e = elem[0]
            if not p[e]:
                empty = True
                failing = True
                for w in range(width):
                    bits = trs[0, w]
                    if bits:
                        empty = False
                    t = w * 64
                    while bits:
                        if bits & one and p[t]:
                            failing = False
                            break
                        bits >>= one
                        t += 1
                    if not failing:
                        break
                if failing and not empty:
                    word = np.zeros(count, dtype=np.int64)
                    for d in range(count):
                        word[d] = max(heaps[d], 0)
                    return 1, word
            depth = 0
            continue
        heaps[depth] += 1
        if heaps[depth] > 0:
            if bound.size:
                for d in range(count - 1, -1, -1):
                    mine = max(heaps[d], 0)
                    if mine != bound[d]:
                        break
                if mine >= bound[d]:
                    return 0, np.zeros(count, dtype=np.int64)
            new[:] = 0
            for w in range(width):
                bits = trs[depth, w]
                t = w * 64
                while bits:
                    if bits & one:
                        u = gact[t, depth]
                        new[u >> 6] |= one << np.uint64(u & 63)
                    bits >>= one
                    t += 1
            x = elem[depth]
            for k in range(toff[depth], toff[depth + 1]):
                u = tcol[x, tidx[k]]
                new[u >> 6] |= one << np.uint64(u & 63)
            e = gact[x, depth]
            # fresh: no word met before has this element and a subset of these transitions
            stale = False
            i = head[e]
            while i != -1:
                if alive[i] and _subset(pool[i], new):
                    stale = True
                    break
                i = following[i]
            if stale:
                heaps[depth] = -1
                depth += 1
                continue
            i = head[e]
            while i != -1:
                if alive[i] and _subset(new, pool[i]):
                    alive[i] = False
                i = following[i]
            if used == capacity:
                capacity *= 2
                bigger = np.zeros((capacity, width), dtype=np.uint64)
                bigger[:used] = pool
                pool = bigger
                more = np.full(capacity, -1, dtype=np.int64)
                more[:used] = following
                following = more
                flags = np.zeros(capacity, dtype=np.bool_)
                flags[:used] = alive
                alive = flags
            pool[used] = new
            following[used] = head[e]
            alive[used] = True
            head[e] = used
            used += 1
            trs[depth] = new
            elem[depth] = e
        depth -= 1
        if depth >= 0:
            elem[depth] = elem[depth + 1]
            trs[depth] = trs[depth + 1]
    return 0, np.zeros(count, dtype=np.int64)

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
>>> done, p, least = mark(gact, tcol, np.array([0, 1]), np.array([0]), 3, go_on())
>>> done, p.tolist(), least.tolist()
(True, [False, True, False], [[0], [1], [2]])

Both searches take ``stop``, a one-entry array they read every few thousand steps: another
thread sets it to 1 to stop them (at a deadline: :func:`nimlab.quotients.words` runs a timer),
and they return at once saying so (``done`` False, ``hit`` -1).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["go_on", "mark", "n_failure", "octal_transitions", "product_search", "refine"]

#: Steps between two readings of the stop flag.
_EVERY = 4095


def go_on() -> Any:
    """A stop flag that is not set."""
    return np.zeros(1, dtype=np.uint8)


@numba.njit(cache=True, nogil=True)
def mark(
    gact: Any, tcol: Any, toff: Any, tidx: Any, size: int, stop: Any
) -> Any:  # pragma: no cover
    """``(done, p, least)``: the P-portion predicted from least words, and each element's
    least word (a row of exponents per type; -1 for elements no word reaches); ``done`` is
    False when ``stop`` was set before the walk ended."""
    count = gact.shape[1]
    marked = np.zeros(size, dtype=np.bool_)
    p = np.zeros(size, dtype=np.bool_)
    least = np.full((size, count), -1, dtype=np.int64)
    heaps = np.zeros(count, dtype=np.int64)
    elem = np.zeros(count + 1, dtype=np.int64)
    pred = np.zeros(count, dtype=np.int64)
    saved = np.zeros((count, count), dtype=np.int64)
    depth = -1
    steps = 0
    while depth < count:
        steps += 1
        if not steps & _EVERY and stop[0]:
            return False, p, least
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
    return True, p, least


@numba.njit(cache=True, nogil=True)
def _doubled(array: Any, fill: Any) -> Any:  # pragma: no cover - compiled
    """``array`` (full) followed by as many rows again, each entry ``fill``."""
    return np.concatenate((array, np.full_like(array, fill)))


@numba.njit(cache=True, nogil=True)
def _within(data: Any, a: int, alen: int, b: int, blen: int) -> bool:  # pragma: no cover
    """Whether the sorted run ``data[a : a + alen]`` is a subset of ``data[b : b + blen]``."""
    if alen > blen:
        return False
    j = b
    end = b + blen
    for i in range(a, a + alen):
        v = data[i]
        while j < end and data[j] < v:
            j += 1
        if j == end or data[j] != v:
            return False
        j += 1
    return True


@numba.njit(cache=True, nogil=True)
def n_failure(
    gact: Any, tcol: Any, toff: Any, tidx: Any, p: Any, bound: Any, stop: Any
) -> Any:  # pragma: no cover - compiled
    """The colex-least word (exponents per type) predicted N with no option predicted P,
    as ``(1, word)``, or ``(0, zeros)`` when there is none (below ``bound``, if it has
    entries), ``(-1, zeros)`` when ``stop`` was set first. A word whose element and
    transitions contain those of a word met before is not extended (it fails only if a
    smaller word does).

    Transition sets are sorted runs of one growing array (``data``): the set of each word
    kept (a list per element, for the subsumption tests) and the sets along the walk
    (``start``, ``length`` per depth) are runs of it, so a word costs its set's size.

    >>> gact = np.array([[1], [2], [1]])  # misère Nim of heaps of 1, P-portion {a}
    >>> tcol = np.array([[0], [1], [2]])
    >>> args = (gact, tcol, np.array([0, 1]), np.array([0]))
    >>> int(n_failure(*args, np.array([False, True, False]), np.zeros(0, np.int64), go_on())[0])
    0
    >>> hit, word = n_failure(*args, np.array([False, False, True]), np.zeros(0, np.int64), go_on())
    >>> int(hit), word.tolist()
    (1, [1])
    """
    size, count = gact.shape
    heaps = np.zeros(count, dtype=np.int64)
    elem = np.zeros(count + 1, dtype=np.int64)
    start = np.zeros(count + 1, dtype=np.int64)
    length = np.zeros(count + 1, dtype=np.int64)
    stamp = np.zeros(size, dtype=np.int64)
    stamped = 0
    room = 1 << 16
    data = np.empty(room, dtype=np.int64)
    filled = 0
    capacity = 4096
    first = np.zeros(capacity, dtype=np.int64)
    sizes = np.zeros(capacity, dtype=np.int64)
    following = np.full(capacity, -1, dtype=np.int64)
    alive = np.zeros(capacity, dtype=np.bool_)
    head = np.full(size, -1, dtype=np.int64)
    used = 0
    depth = -1
    work = 0  # steps and subsumption tests
    check_at = 0
    while depth < count:
        work += 1
        if work >= check_at:
            check_at = work + _EVERY
            if stop[0]:
                return -1, np.zeros(count, dtype=np.int64)
        if depth == -1:
            e = elem[0]
            if not p[e] and length[0] > 0:
                failing = True
                for i in range(start[0], start[0] + length[0]):
                    if p[data[i]]:
                        failing = False
                        break
                if failing:
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
            # the new set, at the end of data: images of the old set and own transitions
            old, old_length = start[depth], length[depth]
            x = elem[depth]
            if filled + old_length + toff[depth + 1] - toff[depth] > room:
                while filled + old_length + toff[depth + 1] - toff[depth] > room:
                    room *= 2
                bigger = np.empty(room, dtype=np.int64)
                bigger[:filled] = data[:filled]
                data = bigger
            stamped += 1
            n = 0
            for i in range(old, old + old_length):
                u = gact[data[i], depth]
                if stamp[u] != stamped:
                    stamp[u] = stamped
                    data[filled + n] = u
                    n += 1
            for k in range(toff[depth], toff[depth + 1]):
                u = tcol[x, tidx[k]]
                if stamp[u] != stamped:
                    stamp[u] = stamped
                    data[filled + n] = u
                    n += 1
            data[filled : filled + n] = np.sort(data[filled : filled + n])
            e = gact[x, depth]
            # fresh: no word met before has this element and a subset of these transitions
            stale = False
            i = head[e]
            while i != -1:
                work += 1 + sizes[i] // 16
                if alive[i] and _within(data, first[i], sizes[i], filled, n):
                    stale = True
                    break
                i = following[i]
            if stale:
                heaps[depth] = -1
                depth += 1
                continue
            i = head[e]
            while i != -1:
                work += 1 + n // 16
                if alive[i] and _within(data, filled, n, first[i], sizes[i]):
                    alive[i] = False
                i = following[i]
            if used == capacity:
                capacity *= 2
                first, sizes = _doubled(first, 0), _doubled(sizes, 0)
                following, alive = _doubled(following, -1), _doubled(alive, False)
            first[used] = filled
            sizes[used] = n
            following[used] = head[e]
            alive[used] = True
            head[e] = used
            used += 1
            start[depth] = filled
            length[depth] = n
            filled += n
            elem[depth] = e
        depth -= 1
        if depth >= 0:
            elem[depth] = elem[depth + 1]
            start[depth] = start[depth + 1]
            length[depth] = length[depth + 1]
    return 0, np.zeros(count, dtype=np.int64)


@numba.njit(cache=True, nogil=True)
def refine(label: Any, actions: Any, stop: Any) -> Any:  # pragma: no cover - compiled
    """Moore's refinement: the coarsest classes finer than ``label`` that each action
    (``actions[i, x]``) maps into classes, numbered by first member. Each round numbers the
    signatures (own class, class of each image) exactly, by a hash table: linear time.
    ``(done, label)``; ``stop`` is read before each round.

    >>> refine(np.array([0, 1, 0, 1]), np.array([[1, 2, 3, 2]]), go_on())[1].tolist()
    [0, 1, 0, 1]
    >>> refine(np.array([0, 0, 1]), np.array([[1, 2, 2]]), go_on())[1].tolist()
    [0, 1, 2]
    """
    size = label.size
    count_actions = actions.shape[0]
    capacity = 1
    while capacity < 2 * size:
        capacity *= 2
    mask = capacity - 1
    table = np.empty(capacity, dtype=np.int64)
    hashes = np.empty(capacity, dtype=np.uint64)
    new = np.empty(size, dtype=np.int64)
    count = label.max() + 1 if size else 0
    while True:
        if stop[0]:
            return False, label
        table[:] = -1
        fresh = 0
        for x in range(size):
            h = np.uint64(label[x]) * np.uint64(0x9E3779B97F4A7C15)
            for i in range(count_actions):
                h = (h ^ np.uint64(label[actions[i, x]])) * np.uint64(0xBF58476D1CE4E5B9)
                h ^= h >> np.uint64(31)
            slot = np.int64(h & np.uint64(mask))
            while True:
                r = table[slot]
                if r == -1:
                    table[slot] = x
                    hashes[slot] = h
                    new[x] = fresh
                    fresh += 1
                    break
                if hashes[slot] == h and label[r] == label[x]:
                    same = True
                    for i in range(count_actions):
                        if label[actions[i, r]] != label[actions[i, x]]:
                            same = False
                            break
                    if same:
                        new[x] = new[r]
                        break
                slot = (slot + 1) & mask
        label = new.copy()
        if fresh == count:
            return True, label
        count = fresh


@numba.njit(cache=True, nogil=True)
def product_search(
    cols: Any, offsets: Any, widths: Any, slots: Any, strides: Any, limit: int, stop: Any
) -> Any:  # pragma: no cover - compiled
    """The breadth-first search of :class:`nimlab.quotients.monoid.Product`, compiled:
    part ``i``'s columns of the generators' components are ``cols[offsets[i]:]`` as rows of
    ``widths[i]``, generator ``g``'s component in part ``i`` is column ``slots[g, i]``.
    ``(status, elements, actions, parents, vias)`` in the order the numpy search numbers
    them (each element's successors by the generators in turn); elements are found by their
    mixed-radix codes in a hash table. ``status`` is 1, or 0 when ``stop`` was set, -1
    past ``limit`` elements."""
    gens, parts = slots.shape
    capacity = 1024
    elements = np.zeros((capacity, parts), dtype=np.int64)
    actions = np.zeros((capacity, gens), dtype=np.int64)
    parents = np.zeros(capacity, dtype=np.int64)
    vias = np.zeros(capacity, dtype=np.int64)
    room = 4096
    keys = np.full(room, -1, dtype=np.int64)
    numbers = np.zeros(room, dtype=np.int64)
    keys[0] = 0  # the identity: code 0 (hash of 0 is slot 0)
    count = 1
    moved = np.zeros(parts, dtype=np.int64)
    y = 0
    while y < count:
        if not y & 1023 and stop[0]:
            return 0, elements[:count], actions[:count], parents[:count], vias[:count]
        for g in range(gens):
            code = 0
            for i in range(parts):
                c = cols[offsets[i] + elements[y, i] * widths[i] + slots[g, i]]
                moved[i] = c
                code += c * strides[i]
            h = (np.uint64(code) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(20)
            slot = np.int64(h & np.uint64(room - 1)) if code else 0
            while keys[slot] != -1 and keys[slot] != code:
                slot = (slot + 1) & (room - 1)
            if keys[slot] == code:
                actions[y, g] = numbers[slot]
                continue
            if count == capacity:
                capacity *= 2
                elements, actions = _doubled(elements, 0), _doubled(actions, 0)
                parents, vias = _doubled(parents, 0), _doubled(vias, 0)
            elements[count] = moved
            parents[count] = y
            vias[count] = g
            actions[y, g] = count
            keys[slot] = code
            numbers[slot] = count
            count += 1
            if count > limit:
                return -1, elements[:count], actions[:count], parents[:count], vias[:count]
            if 2 * count > room:  # grow the table: insert every code again
                room *= 4
                keys = np.full(room, -1, dtype=np.int64)
                numbers = np.zeros(room, dtype=np.int64)
                for e in range(count):
                    code = 0
                    for i in range(parts):
                        code += elements[e, i] * strides[i]
                    h = (np.uint64(code) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(20)
                    slot = np.int64(h & np.uint64(room - 1)) if code else 0
                    while keys[slot] != -1:
                        slot = (slot + 1) & (room - 1)
                    keys[slot] = code
                    numbers[slot] = e
        y += 1
    return 1, elements[:count], actions[:count], parents[:count], vias[:count]


@numba.njit(cache=True, nogil=True)
def octal_transitions(
    digits: Any, phi: Any, table: Any, n: int, mark: Any
) -> None:  # pragma: no cover - compiled
    """Set ``mark[x]`` (cleared first) for each transition ``x`` of heap ``n`` of the octal
    game of ``digits``: the element, by the table ``table[x, y] = x y``, of each option
    (``phi`` holds the element of every heap below ``n``; no heap left is the identity).

    >>> mark = np.zeros(3, dtype=np.bool_)  # 0.77 on misère Nim of heaps of 1 (1, a, a^2)
    >>> octal_transitions(np.array([0, 7, 7]), np.array([0, 1, 2]), np.array(
    ...     [[0, 1, 2], [1, 2, 1], [2, 1, 2]]), 3, mark)
    >>> mark.tolist()
    [False, True, True]
    """
    mark[:] = False
    for k in range(len(digits)):
        digit = digits[k]
        rest = n - k
        if rest < 0:
            break
        if digit & 1 and rest == 0 and k > 0:
            mark[0] = True
        if digit & 2 and rest > 0 and k > 0:
            mark[phi[rest]] = True
        if digit & 4:
            for a in range(1, rest // 2 + 1):
                mark[table[phi[a], phi[rest - a]]] = True

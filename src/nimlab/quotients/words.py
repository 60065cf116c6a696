"""Searches over words (multisets of heaps) of a pretension: P-portion marking and failures.

Products are read off *columns*: ``column(y)[x]`` is ``x * y``. A search given ``tick``
calls it at every word it visits (the solver's clock: it raises when time is up).

A *pretension* is a finite commutative monoid ``Q`` with a P-portion and a pretending
function ``phi`` (heap -> element of ``Q``). A heap's *transitions* are the elements its options
map to. The word searches here run over *heap types* (distinct ``(phi(h), transitions(h))``,
heaps without options left out): words are exponent vectors, enumerated in colex order (the
last type most significant), in which the options of a word always come before it.

- :func:`mark_p_portion`: the P-portion a pretension *predicts*, read off the least word of
  each element (P when it has options and none of them is in P).
- :func:`least_n_failure`: the least word predicted N (not in P) none of whose options is
  predicted P. Pruned by subsumption: a word with the same element and a superset of the
  transitions of a word met before fails only if a smaller word fails too.
- :func:`least_p_failure`: the least word predicted P with an option predicted P (checked as
  ``x * phi(h)`` for every element ``x`` and heap ``h``).

No P-failure and no N-failure (with the identity out of P) is a proof, by induction on words,
that the pretension predicts the misère outcome of *every* word (Plambeck and Siegel 2008).

>>> from nimlab.quotients.monoid import cyclic
>>> q = cyclic(1, 2)  # misère Nim of heaps of 1: 1, a, a^2 = 1
>>> p, least = mark_p_portion(q.column, [1], [frozenset({0})], q.size)
>>> p, least
([False, True, False], [(0,), (1,), (2,)])
>>> least_n_failure(q.column, p, [1], [frozenset({0})])
>>> least_p_failure(q.column, p, [1], [frozenset({0})], least)
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from nimlab.quotients.compiled import SearchStoppedError, kernel, run

__all__ = [
    "Column",
    "Columns",
    "SearchStoppedError",
    "least_n_failure",
    "least_p_failure",
    "mark_p_portion",
    "p_failure",
]

#: ``column(y)[x]`` is the product ``x * y``.
Column = Callable[[int], Sequence[int]]
#: ``columns(ys)[x, j]`` is the product ``x * ys[j]`` (an array).
Columns = Callable[[Sequence[int]], "np.ndarray"]
Word = tuple[int, ...]
Tick = Callable[[], None]

#: Walks over fewer (elements x types) than this stay in Python: numba's import and the
#: loading of its compiled code cost seconds once per process.
_KERNEL_CELLS = 4_000
#: Arrays of columns above this many entries are not made (the Python search runs instead).
_MAX_CELLS = 30_000_000


def _compiled(function: Any, args: tuple[Any, ...], stop_at: float | None) -> Any:
    return run(function, args, stop_at)


def _stopped() -> SearchStoppedError:
    return SearchStoppedError("a compiled word search was stopped at its deadline")


def _kernel(name: str = "mark") -> Any:
    """A compiled search of :mod:`nimlab.quotients.kernels`, or None without numba."""
    return kernel(name)


def _arrays(
    columns: Columns, gens: Sequence[int], trans: Sequence[frozenset[int]], size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """``gact``, ``tcol``, ``toff``, ``tidx`` of :func:`nimlab.quotients.kernels.mark`."""
    distinct = sorted(set().union(*trans)) if trans else []
    if size * (len(distinct) + len(gens)) > _MAX_CELLS:
        return None
    where = {t: i for i, t in enumerate(distinct)}
    toff = np.zeros(len(trans) + 1, dtype=np.int64)
    toff[1:] = np.cumsum([len(tr) for tr in trans])
    tidx = np.array([where[t] for tr in trans for t in sorted(tr)], dtype=np.int64)
    gact = columns(gens) if gens else np.zeros((size, 0), dtype=np.int64)
    tcol = columns(distinct) if distinct else np.zeros((size, 1), dtype=np.int64)
    return gact, tcol, toff, tidx


def _columns(
    column: Column, gens: Sequence[int], trans: Sequence[Iterable[int]]
) -> tuple[list[Sequence[int]], list[list[Sequence[int]]]]:
    return [column(g) for g in gens], [[column(t) for t in tr] for tr in trans]


def mark_p_portion(
    column: Column,
    gens: Sequence[int],
    trans: Sequence[frozenset[int]],
    size: int,
    tick: Tick | None = None,
    columns: Columns | None = None,
    *,
    want_least: bool = True,
    stop_at: float | None = None,
) -> tuple[list[bool], list[Word | None]]:
    """The P-portion predicted from each element's least word, and those least words
    (None for an element no word reaches; an empty list if not ``want_least``). Given
    ``columns`` (and numba), a large walk is compiled (:mod:`nimlab.quotients.kernels`;
    ``tick`` is then called before and after; SearchStoppedError at ``stop_at``)."""
    big = columns is not None and gens and size * len(gens) >= _KERNEL_CELLS
    kernel = _kernel() if big else None
    arrays = None if kernel is None or columns is None else _arrays(columns, gens, trans, size)
    if kernel is not None and arrays is not None:
        if tick is not None:
            tick()
        done, found, words = _compiled(kernel, (*arrays, size), stop_at)
        if not done:
            raise _stopped()
        if tick is not None:
            tick()
        least_words: list[Word | None] = []
        if want_least:
            least_words = [tuple(row) if row[0] >= 0 else None for row in words.tolist()]
        return found.tolist(), least_words
    marked = [False] * size
    p = [False] * size
    least: list[Word | None] = [None] * size
    count = len(gens)
    word = [0] * count
    gcols, tcols = _columns(column, gens, trans)

    def walk(depth: int, elem: int, tr: set[int]) -> None:
        if depth < 0:
            if tick is not None:
                tick()
            marked[elem] = True
            p[elem] = bool(tr) and not any(p[t] for t in tr)
            least[elem] = tuple(word)
            return
        walk(depth - 1, elem, tr)
        gcol, own = gcols[depth], tcols[depth]
        while True:
            new = gcol[elem]
            if marked[new]:
                break
            tr = {gcol[t] for t in tr}
            tr.update([col[elem] for col in own])
            elem = new
            word[depth] += 1
            walk(depth - 1, elem, tr)
        word[depth] = 0

    _deep(lambda: walk(count - 1, 0, set()))
    return p, least


def least_n_failure(
    column: Column,
    p: Sequence[bool],
    gens: Sequence[int],
    trans: Sequence[frozenset[int]],
    *,
    bound: Word | None = None,
    tick: Tick | None = None,
    columns: Columns | None = None,
    stop_at: float | None = None,
    arrays: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> Word | None:
    """The colex-least word predicted N with no option predicted P, or None; with
    ``bound``, only words colex-less than ``bound`` are searched (None if none of them
    fails). Given ``columns`` (and numba), a large search is compiled (stopped at
    ``stop_at``: SearchStoppedError); ``arrays`` are its arrays if the caller has them
    (``gact``, ``tcol``, ``toff``, ``tidx`` of :func:`nimlab.quotients.kernels.mark`)."""
    size = len(p)
    big = columns is not None and gens and size * len(gens) >= _KERNEL_CELLS
    kernel = _kernel("n_failure") if big else None
    if kernel is None or columns is None:
        arrays = None
    elif arrays is None:
        arrays = _arrays(columns, gens, trans, size)
    if kernel is not None and arrays is not None:
        if tick is not None:
            tick()
        below = np.array(bound if bound is not None else (), dtype=np.int64)
        hit, failure = _compiled(kernel, (*arrays, np.array(p, dtype=np.bool_), below), stop_at)
        if hit < 0:
            raise _stopped()
        if tick is not None:
            tick()
        return tuple(failure.tolist()) if hit else None
    count = len(gens)
    word = [0] * count
    seen: dict[int, list[set[int]]] = {}
    found: list[Word] = []
    gcols, tcols = _columns(column, gens, trans)
    limit = None if bound is None else list(bound[::-1])

    def fresh(elem: int, tr: set[int]) -> bool:
        olds = seen.setdefault(elem, [])
        for old in olds:
            if old <= tr:
                return False
        olds[:] = [old for old in olds if not tr <= old]
        olds.append(tr)
        return True

    def walk(depth: int, elem: int, tr: set[int]) -> bool:
        if depth < 0:
            if tick is not None:
                tick()
            if tr and not p[elem] and not any(p[t] for t in tr):
                found.append(tuple(word))
                return True
            return False
        if walk(depth - 1, elem, tr):
            return True
        gcol, own = gcols[depth], tcols[depth]
        while True:
            tr = {gcol[t] for t in tr}
            tr.update([col[elem] for col in own])
            elem = gcol[elem]
            if not fresh(elem, tr):
                break
            word[depth] += 1
            if limit is not None and word[::-1] >= limit:
                raise _BoundPassedError
            if walk(depth - 1, elem, tr):
                return True
        word[depth] = 0
        return False

    try:
        _deep(lambda: walk(count - 1, 0, set()))
    except _BoundPassedError:
        return None
    return found[0] if found else None


class _BoundPassedError(Exception):
    """The search passed its bound (every later word is larger)."""


def least_p_failure(
    column: Column,
    p: Sequence[bool],
    gens: Sequence[int],
    trans: Sequence[frozenset[int]],
    least: Sequence[Word | None],
) -> Word | None:
    """The colex-least word ``least[x] + type h`` predicted P with an option predicted P."""
    best: Word | None = None
    gcols, tcols = _columns(column, gens, trans)
    for x, word in enumerate(least):
        if word is None:
            continue
        for h, (gcol, own) in enumerate(zip(gcols, tcols, strict=True)):
            if p[gcol[x]] and any(p[col[x]] for col in own):
                candidate = tuple(e + (i == h) for i, e in enumerate(word))
                if best is None or candidate[::-1] < best[::-1]:
                    best = candidate
    return best


def p_failure(
    column: Column,
    p: Sequence[bool],
    gens: Sequence[int],
    trans: Sequence[frozenset[int]],
    tick: Tick | None = None,
    columns: Columns | None = None,
    stop_at: float | None = None,
) -> Word | None:
    """:func:`least_p_failure` over the least words :func:`mark_p_portion` finds; given
    ``columns`` (and numba), both on whole arrays (the walk stopped at ``stop_at``).

    >>> from nimlab.quotients.monoid import cyclic
    >>> q = cyclic(1, 2)
    >>> p_failure(q.column, [False, True, True], [1], [frozenset({0})])
    (2,)
    """
    size = len(p)
    big = columns is not None and gens and size * len(gens) >= _KERNEL_CELLS
    kernel = _kernel() if big else None
    arrays = None if kernel is None or columns is None else _arrays(columns, gens, trans, size)
    if kernel is None or arrays is None:
        _, least = mark_p_portion(column, gens, trans, size, tick)
        return least_p_failure(column, p, gens, trans, least)
    if tick is not None:
        tick()
    gact, tcol, toff, tidx = arrays
    done, _, least = _compiled(kernel, (gact, tcol, toff, tidx, size), stop_at)
    if not done:
        raise _stopped()
    flags = np.array(p, dtype=np.bool_)
    either = np.logical_or.reduceat(flags[tcol][:, tidx], toff[:-1], axis=1)
    xs, ds = np.nonzero(flags[gact] & either & (least[:, :1] >= 0))
    if not len(xs):
        return None
    words = least[xs]
    words[np.arange(len(xs)), ds] += 1
    best = np.lexsort(words.T)[0]  # the last type is the primary key: colex order
    return tuple(int(e) for e in words[best])


def _deep(run: object) -> None:
    """Run ``run()`` with room for a recursion as deep as the number of heap types."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        run()  # type: ignore[operator]
    finally:
        sys.setrecursionlimit(old)

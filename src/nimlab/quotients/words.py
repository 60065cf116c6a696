"""Searches over words (multisets of heaps) of a pretension: P-portion marking and failures.

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
>>> times = lambda x, y: q.mul[x][y]
>>> p, least = mark_p_portion(times, [1], [frozenset({0})], q.size)
>>> p, least
([False, True, False], [(0,), (1,), (2,)])
>>> least_n_failure(times, p, [1], [frozenset({0})])
>>> least_p_failure(times, p, [1], [frozenset({0})], least)
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

__all__ = ["Times", "least_n_failure", "least_p_failure", "mark_p_portion"]

Times = Callable[[int, int], int]
Word = tuple[int, ...]


def _times(times: Times, elements: frozenset[int], g: int) -> frozenset[int]:
    return frozenset(times(t, g) for t in elements)


def mark_p_portion(
    times: Times, gens: Sequence[int], trans: Sequence[frozenset[int]], size: int
) -> tuple[list[bool], list[Word | None]]:
    """The P-portion predicted from each element's least word, and those least words
    (None for an element no word reaches)."""
    marked = [False] * size
    p = [False] * size
    least: list[Word | None] = [None] * size
    count = len(gens)
    word = [0] * count

    def visit(elem: int, tr: frozenset[int]) -> None:
        marked[elem] = True
        p[elem] = bool(tr) and not any(p[t] for t in tr)
        least[elem] = tuple(word)

    def walk(depth: int, elem: int, tr: frozenset[int]) -> None:
        if depth < 0:
            visit(elem, tr)
            return
        walk(depth - 1, elem, tr)
        g, own = gens[depth], trans[depth]
        while True:
            new = times(elem, g)
            if marked[new]:
                break
            tr = _times(times, tr, g) | _times(times, own, elem)
            elem = new
            word[depth] += 1
            walk(depth - 1, elem, tr)
        word[depth] = 0

    _deep(lambda: walk(count - 1, 0, frozenset()))
    return p, least


def least_n_failure(
    times: Times, p: Sequence[bool], gens: Sequence[int], trans: Sequence[frozenset[int]]
) -> Word | None:
    """The colex-least word predicted N with no option predicted P, or None."""
    count = len(gens)
    word = [0] * count
    seen: dict[int, list[frozenset[int]]] = {}
    found: list[Word] = []

    def fresh(elem: int, tr: frozenset[int]) -> bool:
        olds = seen.setdefault(elem, [])
        for old in olds:
            if old <= tr:
                return False
        olds[:] = [old for old in olds if not tr <= old]
        olds.append(tr)
        return True

    def walk(depth: int, elem: int, tr: frozenset[int]) -> bool:
        if depth < 0:
            if tr and not p[elem] and not any(p[t] for t in tr):
                found.append(tuple(word))
                return True
            return False
        if walk(depth - 1, elem, tr):
            return True
        g, own = gens[depth], trans[depth]
        while True:
            tr = _times(times, tr, g) | _times(times, own, elem)
            elem = times(elem, g)
            if not fresh(elem, tr):
                break
            word[depth] += 1
            if walk(depth - 1, elem, tr):
                return True
        word[depth] = 0
        return False

    _deep(lambda: walk(count - 1, 0, frozenset()))
    return found[0] if found else None


def least_p_failure(
    times: Times,
    p: Sequence[bool],
    gens: Sequence[int],
    trans: Sequence[frozenset[int]],
    least: Sequence[Word | None],
) -> Word | None:
    """The colex-least word ``least[x] + type h`` predicted P with an option predicted P."""
    best: Word | None = None
    for x, word in enumerate(least):
        if word is None:
            continue
        for h, (g, tr) in enumerate(zip(gens, trans, strict=True)):
            if p[times(x, g)] and any(p[times(x, t)] for t in tr):
                candidate = tuple(e + (i == h) for i, e in enumerate(word))
                if best is None or candidate[::-1] < best[::-1]:
                    best = candidate
    return best


def _deep(run: object) -> None:
    """Run ``run()`` with room for a recursion as deep as the number of heap types."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        run()  # type: ignore[operator]
    finally:
        sys.setrecursionlimit(old)

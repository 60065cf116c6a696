"""Names for the elements of a quotient: generators, least words and relations.

The generators are chosen from the heaps in order: heap ``h``'s element becomes a generator
when the earlier generators do not already generate it; they are named ``a, b, c, ...``. Each
element is named by its least word (fewest letters, then the earlier generators used most),
written ``"a^2b"``, the identity ``"1"``. The relations are ``w = v`` for every minimal word
``w`` that is not the name of its element (every word shorter than ``w`` dividing it is a
name), ``v`` being that name: they rewrite any word to its name, so they present the monoid.

>>> from nimlab.quotients.monoid import cyclic
>>> names, relations, gens = present(cyclic(1, 2), [0, 1, 1])
>>> names, relations, gens
(['1', 'a', 'a^2'], ['a^3 = a'], [1])
"""

from __future__ import annotations

import string
from collections.abc import Sequence

from nimlab.quotients.monoid import Monoid

__all__ = ["letter", "present", "word_text"]


def letter(i: int) -> str:
    """The name of generator ``i``: a..z, then a1, b1, ...

    >>> letter(0), letter(25), letter(27)
    ('a', 'z', 'b1')
    """
    base = string.ascii_lowercase[i % 26]
    return base if i < 26 else f"{base}{i // 26}"


def word_text(word: Sequence[int]) -> str:
    """Exponents per generator as text.

    >>> word_text((2, 0, 1)), word_text((0, 0))
    ('a^2c', '1')
    """
    parts = [letter(i) + (f"^{e}" if e > 1 else "") for i, e in enumerate(word) if e]
    return "".join(parts) or "1"


def present(monoid: Monoid, phi: Sequence[int]) -> tuple[list[str], list[str], list[int]]:
    """Element names, relations and generators (elements) of the monoid the heaps' elements
    ``phi`` generate."""
    mul = monoid.mul
    gens: list[int] = []
    reached = {0}
    for x in phi:
        if x in reached:
            continue
        gens.append(x)
        frontier = list(reached)
        while frontier:
            y = frontier.pop()
            for g in gens:
                z = mul[y][g]
                if z not in reached:
                    reached.add(z)
                    frontier.append(z)
    count = len(gens)
    names: dict[int, tuple[int, ...]] = {0: (0,) * count}
    normal = {(0,) * count}
    layer = [(0,) * count]
    elements = {(0,) * count: 0}
    relations: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    while layer:
        nxt = []
        candidates = sorted(
            {tuple(e + (i == k) for i, e in enumerate(w)) for w in layer for k in range(count)},
            key=lambda w: tuple(-e for e in w),
        )
        for word in candidates:
            k = next(i for i, e in enumerate(word) if e)
            before = tuple(e - (i == k) for i, e in enumerate(word))
            if before not in normal:
                continue  # some divisor is not a name: not minimal
            divisors = [
                tuple(e - (i == j) for i, e in enumerate(word)) for j in range(count) if word[j]
            ]
            if not all(d in normal for d in divisors):
                continue
            x = mul[elements[before]][gens[k]]
            if x in names:
                relations.append((word, names[x]))
                continue
            names[x] = word
            normal.add(word)
            elements[word] = x
            nxt.append(word)
        layer = nxt
    shown = [word_text(names[x]) if x in names else "?" for x in range(monoid.size)]
    return shown, [f"{word_text(w)} = {word_text(v)}" for w, v in relations], gens

"""The plain quadratic Grundy sequence of a heap game: the reference every fast method matches.

``g(n)`` is the mex of the values of all options of a heap of ``n``; a two-heap option
``(a, b)`` has value ``g(a) ^ g(b)``. Each ``n`` looks at every split, so the cost is
quadratic in the length of the sequence.

>>> from nimlab.octal.code import OctalCode
>>> from nimlab.octal.rules import GRUNDY_GAME_RULES, rules_of
>>> plain_sequence(rules_of(OctalCode.parse("0.77")), 12)
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
>>> plain_sequence(GRUNDY_GAME_RULES, 9)
[0, 0, 0, 1, 0, 2, 1, 0, 2, 1]
"""

from __future__ import annotations

from nimlab.octal.rules import MoveRules

__all__ = ["plain_sequence"]


def plain_sequence(rules: MoveRules, upto: int) -> list[int]:
    """``g(0), ..., g(upto)`` by looking at every option of every heap."""
    g: list[int] = []
    last = 1 if rules.unequal_split else 0  # splits need ``a < b`` instead of ``a <= b``
    for n in range(upto + 1):
        seen = {0 for k in rules.take_all if k == n}
        seen.update(g[n - k] for k in rules.take_some if k < n)
        for k in rules.split:
            rest = n - k
            seen.update(g[a] ^ g[rest - a] for a in range(1, (rest - last) // 2 + 1))
        value = 0
        while value in seen:
            value += 1
        g.append(value)
    return g

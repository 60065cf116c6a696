"""Proven periods of octal games, by the octal periodicity theorem (Guy and Smith, 1956).

**Theorem.** Let an octal game have finitely many non-zero digits, the last one ``d_t``
(``t`` = :attr:`~nimlab.octal.code.OctalCode.max_take`; ``t = 0`` for ``4.0``). If
``n0 >= 1``, ``p >= 1`` and ``g(n + p) = g(n)`` for all ``n0 <= n < 2*n0 + p + t``, then
``g(n + p) = g(n)`` for all ``n >= n0``.

*Proof* (by induction on ``N >= 2*n0 + p + t``; it also covers a leading digit 4, i.e.
splitting without removal, ``k = 0``). A move removing ``k <= t`` tokens from ``N + p`` leaves
nothing (impossible, ``N + p > t``), one heap ``N + p - k`` (``g`` equal to that of
``N - k``, an option of ``N`` by the same rule, since ``n0 <= N - k < N``), or two heaps
``a <= b`` with ``a + b = N + p - k >= 2*n0 + 2p``; then ``b - p >= n0 >= 1``, so ``(a, b - p)``
is an option of ``N`` of the same value. Conversely a split ``a <= b`` of ``N - k`` has
``n0 <= b < N`` and matches ``(a, b + p)``. So ``N`` and ``N + p`` have the same option values.
(With ``n0 = 0`` the step can fail: ``b - p`` may be 0, not a heap; hence ``n0 >= 1``.)

:func:`find_period` looks for the least ``p`` for which the values given satisfy the hypothesis
with ``n0`` = the start of the agreement, then returns the least preperiod (the least ``n0``,
possibly 0, with ``g(n + p) = g(n)`` for all ``n >= n0``). That ``p`` is the least period: a
smaller true period would satisfy the hypothesis too, from the same preperiod.

>>> from nimlab.octal.code import OctalCode
>>> from nimlab.octal.plain import plain_sequence
>>> from nimlab.octal.rules import rules_of
>>> dawson = OctalCode.parse("0.07")
>>> find_period(dawson, plain_sequence(rules_of(dawson), 200))
Periodicity(period=34, preperiod=53)
>>> print(find_period(dawson, plain_sequence(rules_of(dawson), 100)))
None
>>> proof_length(dawson, Periodicity(34, 53))
176
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nimlab.errors import InvalidPositionError
from nimlab.octal.code import OctalCode

__all__ = ["Periodicity", "find_period", "proof_length", "z_function"]


@dataclass(frozen=True)
class Periodicity:
    """``g(n + period) = g(n)`` for every ``n >= preperiod``."""

    period: int
    preperiod: int


def proof_length(code: OctalCode, periodicity: Periodicity) -> int:
    """How many values ``g(0), ..., g(L - 1)`` the theorem needs to prove ``periodicity``."""
    start = max(periodicity.preperiod, 1)
    return 2 * start + 2 * periodicity.period + code.max_take


def find_period(code: OctalCode, values: Sequence[int]) -> Periodicity | None:
    """The least period and preperiod of ``code``, if ``values`` (``g(0), g(1), ...``) prove
    them by the octal periodicity theorem; ``None`` when they do not (yet).

    ``values`` must be the game's own values from 0 on; the cost is linear in their number.
    """
    if any(v < 0 for v in values):
        raise InvalidPositionError("Grundy values are non-negative")
    size = len(values)
    # agree[p] = the length of the longest common prefix of the reversed sequence and its
    # shift by p (Z-function), i.e. g(n + p) = g(n) exactly for the last agree[p] n's.
    agree = z_function(list(reversed(values)))
    for period in range(1, size):
        start = size - period - agree[period]  # least n0 with agreement on [n0, size - period)
        if 2 * max(start, 1) + 2 * period + code.max_take <= size:
            return Periodicity(period, start)
    return None


def z_function(seq: list[int]) -> list[int]:
    """``z[i]`` = length of the longest common prefix of ``seq`` and ``seq[i:]`` (``z[0] = n``).

    >>> z_function([1, 2, 1, 2, 1])
    [5, 0, 3, 0, 1]
    """
    size = len(seq)
    z = [0] * size
    if size:
        z[0] = size
    left = right = 0
    for i in range(1, size):
        length = min(right - i, z[i - left]) if i < right else 0
        while i + length < size and seq[length] == seq[i + length]:
            length += 1
        z[i] = length
        if i + length > right:
            left, right = i, i + length
    return z

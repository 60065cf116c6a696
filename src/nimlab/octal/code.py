"""Octal codes (Guy-Smith notation): parsing, canonical text and the moves they allow.

Digit ``d_k`` of the code ``d_0.d_1d_2...`` says what may be done after removing ``k`` tokens
from one heap: 1 = leave no heap, 2 = leave one non-empty heap, 4 = leave two non-empty heaps
(sums combine). The digit before the point (``k = 0``) may only be 0 or 4: splitting a heap into
two without removing anything.

>>> code = OctalCode.parse(".77")
>>> str(code), code.max_take
('0.77', 2)
>>> list(code.heap_options(4))
[(3,), (1, 2), (2,), (1, 1)]
>>> list(OctalCode.parse("4.7").heap_options(3))
[(1, 2), (2,), (1, 1)]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from nimlab.errors import InvalidPositionError

__all__ = ["OctalCode"]

_CODE_RE = re.compile(r"([0-7]?)\.([0-7]*)")


@dataclass(frozen=True)
class OctalCode:
    """An octal game with finitely many non-zero digits; ``digits[k]`` is ``d_k``.

    Build it with :meth:`parse`; ``digits`` is canonical (no trailing zero after ``d_0``).

    >>> OctalCode.parse("0.4000001").digits
    (0, 4, 0, 0, 0, 0, 0, 1)
    >>> OctalCode.parse("0.070") == OctalCode.parse(".07")
    True
    """

    digits: tuple[int, ...]

    def __post_init__(self) -> None:
        digits = self.digits
        if not digits or any(not 0 <= d <= 7 for d in digits):
            raise InvalidPositionError(f"octal code digits must be 0..7, got {digits!r}")
        if digits[0] not in (0, 4):
            raise InvalidPositionError(
                f"octal code {_text(digits)!r}: the digit before the point may only be 0 or 4 "
                "(a heap cannot be left as it is, nor removed without taking tokens)"
            )
        if len(digits) > 1 and digits[-1] == 0:
            raise InvalidPositionError(f"octal code digits {digits!r} end with a zero")

    @classmethod
    def parse(cls, text: str) -> OctalCode:
        """Read ``"0.07"``, ``".07"``, ``"4.7"``, ...; trailing zeros are dropped.

        >>> OctalCode.parse("0.8")
        Traceback (most recent call last):
        ...
        nimlab.errors.InvalidPositionError: bad octal code '0.8': expected digits 0-7 ...
        """
        match = _CODE_RE.fullmatch(text.strip())
        if match is None or match.group(0) == ".":
            raise InvalidPositionError(
                f"bad octal code {text!r}: expected digits 0-7 around a point, like 0.07 or 4.7"
            )
        head, tail = match.groups()
        digits = [int(head or "0"), *map(int, tail)]
        while len(digits) > 1 and digits[-1] == 0:
            digits.pop()
        return cls(tuple(digits))

    def __str__(self) -> str:
        return _text(self.digits)

    @property
    def max_take(self) -> int:
        """``t``, the index of the last non-zero digit: the most tokens one move removes."""
        return len(self.digits) - 1

    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        """The heaps left after each move on a single heap of ``n`` tokens.

        ``()`` means the heap is gone, ``(a,)`` one heap, ``(a, b)`` two heaps with ``a <= b``.

        >>> list(OctalCode.parse("0.07").heap_options(5))
        [(3,), (1, 2)]
        """
        if n < 0:
            raise InvalidPositionError(f"heap sizes must be non-negative, got {n}")
        for k, digit in enumerate(self.digits):
            rest = n - k
            if rest < 0:
                break
            if digit & 1 and rest == 0 and k > 0:
                yield ()
            if digit & 2 and rest > 0 and k > 0:
                yield (rest,)
            if digit & 4:
                for a in range(1, rest // 2 + 1):
                    yield (a, rest - a)


def _text(digits: tuple[int, ...]) -> str:
    """The canonical text of a digit tuple (at least one digit after the point)."""
    return f"{digits[0]}." + ("".join(map(str, digits[1:])) or "0")

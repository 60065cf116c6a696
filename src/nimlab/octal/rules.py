"""Heap-game rules as the index lists the Grundy-value algorithms loop over.

A :class:`MoveRules` covers every octal code and Grundy's game (split one heap into two heaps
of different sizes): ``take_all`` are the ``k`` that may remove a heap of exactly ``k``,
``take_some`` the ``k`` that may leave one non-empty heap, ``split`` the ``k`` that may leave
two non-empty heaps, and ``unequal_split`` forbids two equal heaps.

>>> from nimlab.octal.code import OctalCode
>>> rules_of(OctalCode.parse("0.137"))
MoveRules(take_all=(1, 2, 3), take_some=(2, 3), split=(3,), unequal_split=False)
>>> GRUNDY_GAME_RULES.split, GRUNDY_GAME_RULES.unequal_split
((0,), True)
"""

from __future__ import annotations

from dataclasses import dataclass

from nimlab.octal.code import OctalCode

__all__ = ["GRUNDY_GAME_RULES", "MoveRules", "rules_of"]


@dataclass(frozen=True)
class MoveRules:
    """What a move on one heap may leave, as sorted tuples of removal counts ``k``."""

    take_all: tuple[int, ...]
    take_some: tuple[int, ...]
    split: tuple[int, ...]
    unequal_split: bool = False


def rules_of(code: OctalCode) -> MoveRules:
    """The rules of an octal code (``take_all``/``take_some`` never contain ``k = 0``)."""
    indexed = list(enumerate(code.digits))
    return MoveRules(
        take_all=tuple(k for k, d in indexed if d & 1 and k > 0),
        take_some=tuple(k for k, d in indexed if d & 2 and k > 0),
        split=tuple(k for k, d in indexed if d & 4),
    )


GRUNDY_GAME_RULES = MoveRules(take_all=(), take_some=(), split=(0,), unequal_split=True)
"""Grundy's game: split one heap into two non-empty heaps of different sizes."""

"""Which heap game a name stands for, for its misère quotient: an octal code, or a catalogue
heap game.

>>> heap_game("kayles")[:2], heap_game(".07")[:2]
(('0.77', OctalCode(digits=(0, 7, 7))), ('0.07', OctalCode(digits=(0, 0, 7))))
>>> heap_game("grundy-game")[0]
'grundy-game'
>>> heap_game("wythoff")
Traceback (most recent call last):
  ...
nimlab.errors.InvalidPositionError: misère quotients are computed for heap games whose moves \
act on one heap: an octal code (e.g. 0.77), kayles, dawson-kayles, octal --code C or \
grundy-game; not wythoff
"""

from __future__ import annotations

from typing import Any

from nimlab.catalogue.base import GameOptions
from nimlab.catalogue.registry import make_game
from nimlab.errors import InvalidPositionError
from nimlab.octal import OctalCode
from nimlab.quotients.solver import HeapMoves

__all__ = ["heap_game"]


def heap_game(text: str, code: str | None = None) -> tuple[str, OctalCode | None, HeapMoves]:
    """``(name, octal code or None, moves)`` of ``text``: an octal code, or a catalogue game
    (``octal`` with ``code``)."""
    stripped = text.strip()
    if stripped and (stripped[0].isdigit() or stripped[0] == "."):
        parsed = OctalCode.parse(stripped)
        return str(parsed), parsed, parsed.heap_options
    entry: Any = make_game(stripped, GameOptions(code=code) if code is not None else None)
    found = getattr(entry, "code", None)
    if isinstance(found, OctalCode):
        return str(found), found, found.heap_options
    moves = getattr(entry, "heap_options", None)
    if entry.name == "grundy-game" and moves is not None:
        return entry.name, None, moves
    raise InvalidPositionError(
        "misère quotients are computed for heap games whose moves act on one heap: an octal"
        " code (e.g. 0.77), kayles, dawson-kayles, octal --code C or grundy-game; not"
        f" {entry.name}"
    )

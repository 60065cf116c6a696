"""Poker Nim and Skip Nim as played: heaps plus the allowances (additions, skips) left.

The catalogue's entries (:mod:`nimlab.catalogue.poker_nim`, :mod:`nimlab.catalogue.skip_nim`)
analyse a position whose allowances are recorded for the player to move and for the other; their
notation shows the heaps only. To play, the allowances must travel with the position, so the
playground writes a position ``heaps;mover,other`` (``3,4,5;1,0``: heaps 3, 4, 5, one allowance
left to the player to move, none to the other). Heaps alone (``3,4,5``) start a game with the
configured allowances (``--additions K`` each, ``--skips A,B``: A for the player to move).

The rules, outcomes and winning moves are the catalogue's; :class:`AllowanceGame` only adds the
notation, move descriptions and typed moves (``heap amount``, ``add heap amount``, ``skip``).

Termination. Poker Nim's additions are counted per player for the whole game (K each) and
no heap may exceed the cap C, so a game lasts at most ``sum(heaps) + 2K(C + 1)`` moves: every
move removes a counter or spends one of the 2K additions. Skip Nim lasts at most
``sum(heaps) + A + B`` moves. Positions never repeat, so no draw rule is needed.

>>> from nimlab.catalogue import GameOptions, make_game
>>> poker = allowance_game(make_game("poker-nim", GameOptions(additions=1, cap=6)))
>>> state = poker.parse_position("1,4,6")
>>> poker.format_position(state), poker.outcome(state).value
('1,4,6;1,1', 'N')
>>> [(poker.format_position(m.to), m.label) for m in poker.winning_moves(state)]
[('2,4,6;1,0', 'heap 1: 1 -> 2 (add 1)'), ('1,4,5;1,1', 'heap 3: 6 -> 5')]
>>> poker.format_position(poker.typed_move(state, "add 1 1"))  # heaps are numbered from 1
'2,4,6;1,0'
>>> skip = allowance_game(make_game("skip-nim", GameOptions(skips=(1, 0))))
>>> skip.describe(skip.parse_position("3;1,0"), skip.parse_position("3;0,0"))
'skip'
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable, Iterator
from typing import Any

from rich.console import RenderableType

from nimlab.catalogue.base import CatalogueGame, CatalogueMove
from nimlab.catalogue.heapgames import replace_heap
from nimlab.catalogue.poker_nim import PokerNimEntry, PokerNimState
from nimlab.catalogue.skip_nim import SkipNimEntry, SkipNimState
from nimlab.core.game import Outcome
from nimlab.core.heaps import heap_name, parse_heaps, typed_index
from nimlab.errors import InvalidPositionError

__all__ = ["ALLOWANCE_GAMES", "AllowanceGame", "AllowanceState", "allowance_game"]

#: The catalogue games whose positions carry allowances, by name.
ALLOWANCE_GAMES = frozenset({PokerNimEntry.name, SkipNimEntry.name})

AllowanceState = PokerNimState | SkipNimState

_FULL = re.compile(r"\s*([^;]*?)\s*;\s*([0-9]{1,6})\s*,\s*([0-9]{1,6})\s*")
_REMOVE = re.compile(r"\s*([0-9]{1,6})\s+([0-9]{1,6})\s*")
_ADD = re.compile(r"\s*(?:add\s+([0-9]{1,6})\s+([0-9]{1,6})|([0-9]{1,6})\s+\+\s*([0-9]{1,6}))\s*")
_SKIP_WORDS = frozenset({"skip", "pass"})


class AllowanceGame(CatalogueGame[Any]):
    """A Poker Nim or Skip Nim entry whose notation includes the allowances left (build it
    with :func:`allowance_game`)."""

    impartial = False
    notation = "heaps a,b,c, optionally ;m,o (the allowances of the mover and the other)"

    def __init__(self, entry: CatalogueGame[Any]) -> None:
        if entry.name != self.name:
            raise InvalidPositionError(f"{entry.name} is not {self.name}")
        self.entry = entry
        self.limit = entry.limit

    #: What the allowances are: ``"additions"`` (Poker Nim) or ``"skips"`` (Skip Nim).
    kind: str = "additions"

    @property
    def cap(self) -> int | None:
        """Poker Nim's bound on every heap (None for Skip Nim, or Poker Nim without a cap)."""
        return self.entry.cap if isinstance(self.entry, PokerNimEntry) else None

    @property
    def spec(self) -> str:
        """The catalogue's spec, e.g. ``poker-nim(additions=1;cap=6)``."""
        return self.entry.spec

    def _state(self, heaps: tuple[int, ...], mover: int, other: int) -> AllowanceState:
        if self.kind == "additions":
            return PokerNimState(heaps, mover, other)
        return SkipNimState(heaps, mover, other)

    def parse_position(self, text: str) -> AllowanceState:
        """``a,b,c`` (the configured allowances) or ``a,b,c;m,o``.

        >>> from nimlab.catalogue import GameOptions, make_game
        >>> allowance_game(make_game("skip-nim", GameOptions(skips=(2, 1)))).parse_position("3,4")
        SkipNimState(heaps=(3, 4), mover=2, other=1)
        """
        start: AllowanceState = self.entry.parse_position(text.split(";")[0])
        if ";" not in text:
            return start
        match = _FULL.fullmatch(text)
        if match is None:
            raise InvalidPositionError(
                f"invalid position {text!r}: write heaps;m,o (e.g. 3,4,5;1,0), m and o the"
                f" {self.kind} left to the player to move and to the other"
            )
        return self._state(start.heaps, int(match[2]), int(match[3]))

    def format_position(self, position: AllowanceState) -> str:
        """``a,b,c;m,o``."""
        heaps = ",".join(map(str, position.heaps))
        return f"{heaps};{position.mover},{position.other}"

    def moves(self, position: AllowanceState, /) -> Iterator[AllowanceState]:
        """The catalogue's moves (Poker Nim needs a cap to list its additions)."""
        yield from self.entry.moves(position)

    def outcome(self, position: AllowanceState) -> Outcome:
        """The catalogue's closed form."""
        return self.entry.outcome(position)

    def winning_moves(self, position: AllowanceState) -> list[CatalogueMove[Any]]:
        """The catalogue's winning moves (from its closed form)."""
        return list(self.entry.winning_moves(position))

    def move_json(self, move: CatalogueMove[Any]) -> dict[str, Any]:
        """``to`` (with the allowances) and the catalogue's description."""
        return {"to": self.format_position(move.to), "move": move.label, **dict(move.extra)}

    def explain(self, position: AllowanceState) -> RenderableType:
        """The catalogue's explanation."""
        return self.entry.explain(position)

    def small_positions(self, size: int) -> Iterator[AllowanceState]:
        """The catalogue's small positions."""
        yield from self.entry.small_positions(size)

    def random_position(self, rng: random.Random, size: int) -> AllowanceState:
        """A random position of the catalogue's."""
        position: AllowanceState = self.entry.random_position(rng, size)
        return position

    # -- play -----------------------------------------------------------------------------
    def describe(self, before: Hashable, after: Hashable) -> str:
        """A move in words: ``heap i: a -> b``, ``... (add k)`` or ``skip``."""
        if not isinstance(before, PokerNimState | SkipNimState) or not isinstance(
            after, PokerNimState | SkipNimState
        ):
            return "move"
        changed = [
            (i, a, b)
            for i, (a, b) in enumerate(zip(before.heaps, after.heaps, strict=True))
            if a != b
        ]
        if not changed:
            return "skip"
        index, a, b = changed[0]
        return f"{heap_name(index)}: {a} -> {b}" + (f" (add {b - a})" if b > a else "")

    def typed_move(self, position: Any, text: str) -> AllowanceState | None:
        """The position after a typed move: ``heap amount`` (take), ``add heap amount`` or
        ``heap +amount`` (Poker Nim), ``skip``/``pass`` (Skip Nim), or the heaps after the
        move (with or without the allowances). None if ``text`` is none of these; the result
        is not checked against the rules (the caller does that)."""
        if not isinstance(position, PokerNimState | SkipNimState):
            raise InvalidPositionError(f"not a position of {self.name}: {position!r}")
        heaps, mover, other = position.heaps, position.mover, position.other
        word = text.strip().lower()
        if word in _SKIP_WORDS:
            if self.kind != "skips":
                raise InvalidPositionError("only Skip Nim has skips; type 'heap amount'")
            if not mover:
                raise InvalidPositionError("you have no skips left")
            return self._state(heaps, other, mover - 1)
        if (removal := _REMOVE.fullmatch(text)) is not None:
            index = typed_index(int(removal[1]), len(heaps), text)
            amount = int(removal[2])
            if not 1 <= amount <= heaps[index]:
                raise InvalidPositionError(
                    f"illegal move {text.strip()!r}: {heap_name(index)} has {heaps[index]};"
                    f" take between 1 and {heaps[index]}"
                    + (" (or add with 'add heap amount')" if self.kind == "additions" else "")
                )
            return self._state(replace_heap(heaps, index, heaps[index] - amount), other, mover)
        if (addition := _ADD.fullmatch(word)) is not None:
            amount = int(addition[2] or addition[4])
            if self.kind != "additions":
                raise InvalidPositionError("only Poker Nim allows additions")
            index = typed_index(int(addition[1] or addition[3]), len(heaps), text)
            if not mover:
                raise InvalidPositionError("you have no additions left")
            if amount < 1:
                raise InvalidPositionError(f"illegal move {text.strip()!r}: add at least 1")
            return self._state(replace_heap(heaps, index, heaps[index] + amount), other, mover - 1)
        if ";" in text:
            return self.parse_position(text)
        after = parse_heaps(text)
        if len(after) != len(heaps):
            raise InvalidPositionError(
                f"{text.strip()!r} has {len(after)} heaps, the position {len(heaps)}"
            )
        added = any(b > a for a, b in zip(heaps, after, strict=True))
        if after == heaps:
            return self._state(heaps, other, max(mover - 1, 0))
        return self._state(after, other, mover - 1 if added else mover)

    def allowances_json(self, position: Any) -> dict[str, Any]:
        """``kind``, ``mover``, ``other`` and ``cap`` (Poker Nim's, else None)."""
        if not isinstance(position, PokerNimState | SkipNimState):
            raise InvalidPositionError(f"not a position of {self.name}: {position!r}")
        return {
            "kind": self.kind,
            "mover": position.mover,
            "other": position.other,
            "cap": self.cap,
        }


class _PokerPlay(AllowanceGame):
    name = PokerNimEntry.name
    summary = PokerNimEntry.summary
    example = PokerNimEntry.example
    option_flags = PokerNimEntry.option_flags
    kind = "additions"


class _SkipPlay(AllowanceGame):
    name = SkipNimEntry.name
    summary = SkipNimEntry.summary
    example = SkipNimEntry.example
    option_flags = SkipNimEntry.option_flags
    kind = "skips"


def allowance_game(entry: CatalogueGame[Any]) -> AllowanceGame:
    """The playable form of a configured Poker Nim or Skip Nim entry.

    >>> from nimlab.catalogue import make_game
    >>> allowance_game(make_game("skip-nim")).kind
    'skips'
    """
    for cls in (_PokerPlay, _SkipPlay):
        if entry.name == cls.name:
            return cls(entry)
    raise InvalidPositionError(f"{entry.name} has no allowances to play with")

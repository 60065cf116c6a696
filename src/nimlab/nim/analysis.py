"""Nim positions analysed exactly: nim-sum, outcome and every winning move, normal or misère.

Normal play (Bouton): the player to move loses iff the nim-sum of the heaps is 0, and a winning
move reduces one heap ``h`` to ``h ⊕ s`` where ``s`` is the nim-sum, whenever that is smaller.

Misère play (the last player to move loses; the Bengali paragraph of the Sprague-Grundy catalogue
article): the normal rule holds as long as some heap has 2 or more counters; when every heap has at
most one counter the player to move loses iff the number of one-counter heaps is odd. (The article
says "every heap has exactly one"; empty heaps are irrelevant, so the true condition is "every heap
has at most one".)

>>> result = analyze_nim([3, 4, 5])
>>> result.nim_sum, result.outcome.value, result.winning_moves
(2, 'N', (NimMove(heap=0, from_=3, to=1),))
>>> analyze_nim([1, 1, 1], misere=True).outcome.value
'P'
>>> [str(m) for m in analyze_nim([1, 1, 3], misere=True).winning_moves]
['heap 3: 3 -> 1']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import reduce
from html import escape
from operator import xor
from typing import Any

from nimlab.core.game import Outcome
from nimlab.core.heaps import Heaps, check_heaps, heap_name
from nimlab.display import heap_board_svg, html_table

__all__ = ["NimAnalysis", "NimGame", "NimMove", "analyze_nim", "nim_outcome", "nim_winning_moves"]


@dataclass(frozen=True)
class NimMove:
    """Reduce heap number ``heap`` (0-based, input order) from ``from_`` to ``to`` counters."""

    heap: int
    from_: int
    to: int

    def apply(self, heaps: Sequence[int]) -> Heaps:
        """The position after this move.

        >>> NimMove(1, 4, 1).apply((3, 4, 5))
        (3, 1, 5)
        """
        return (*heaps[: self.heap], self.to, *heaps[self.heap + 1 :])

    def to_json(self) -> dict[str, int]:
        """The contract's ``{"heap": i, "from": a, "to": b}``."""
        return {"heap": self.heap, "from": self.from_, "to": self.to}

    def __str__(self) -> str:
        return f"{heap_name(self.heap)}: {self.from_} -> {self.to}"


@dataclass(frozen=True)
class NimAnalysis:
    """Everything ``nimlab nim`` reports about a position."""

    position: Heaps
    misere: bool
    nim_sum: int
    outcome: Outcome
    winning_moves: tuple[NimMove, ...]

    @property
    def obviously_lost(self) -> bool:
        """Whether the heaps pair up into equal sizes (the opponent mirrors and wins)."""
        from nimlab.nim.enumeration import is_obviously_lost

        return is_obviously_lost(self.position)

    def to_json(self) -> dict[str, Any]:
        """The contract's keys, plus ``misere``, ``winning_move_count`` and ``obviously_lost``."""
        return {
            "position": list(self.position),
            "misere": self.misere,
            "nim_sum": self.nim_sum,
            "outcome": self.outcome.value,
            "winning_moves": [move.to_json() for move in self.winning_moves],
            "winning_move_count": len(self.winning_moves),
            "obviously_lost": self.obviously_lost,
        }

    def __repr__(self) -> str:
        """The call that computes this analysis, e.g. ``analyze_nim([3, 4, 5])``."""
        misere = ", misere=True" if self.misere else ""
        return f"analyze_nim({list(self.position)}{misere})"

    def _repr_html_(self) -> str:
        """The heaps as counters (numbered from 1), their binary nim-sum, the outcome and the
        winning moves."""
        shown = ",".join(map(str, self.position))
        play = "misère" if self.misere else "normal"
        parts = [f"<div><p><b>Nim</b> <code>{escape(shown)}</code> ({play} play)</p>"]
        board = heap_board_svg(self.position)
        if board is not None:
            parts.append(board)
        if len(self.position) <= 40:
            width = max([1, *(h.bit_length() for h in self.position)])
            rows = [
                [str(i + 1), str(h), format(h, f"0{width}b")] for i, h in enumerate(self.position)
            ]
            rows.append(["nim-sum", str(self.nim_sum), format(self.nim_sum, f"0{width}b")])
            parts.append(html_table(["heap", "size", "binary"], rows))
        lost = self.outcome is Outcome.P
        verdict = "P: the player to move loses" if lost else "N: the player to move wins"
        parts.append(f"<p>{verdict}</p>")
        if self.winning_moves:
            moves = [
                [str(m.heap + 1), f"{m.from_} → {m.to}", ",".join(map(str, m.apply(self.position)))]
                for m in self.winning_moves
            ]
            parts.append(html_table(["heap", "move", "leaves"], moves))
        parts.append("</div>")
        return "".join(parts)


def _misere_endgame(heaps: Sequence[int]) -> bool:
    """Whether misère play follows the parity rule (no heap has 2 or more counters)."""
    return all(h <= 1 for h in heaps)


def nim_outcome(heaps: Sequence[int], *, misere: bool = False) -> Outcome:
    """``Outcome.P`` if the player to move loses with perfect play.

    >>> nim_outcome([1, 2, 3]), nim_outcome([1], misere=True), nim_outcome([], misere=True)
    (<Outcome.P: 'P'>, <Outcome.P: 'P'>, <Outcome.N: 'N'>)
    """
    if misere and _misere_endgame(heaps):
        return Outcome.P if sum(heaps) % 2 == 1 else Outcome.N
    lost = reduce(xor, heaps, 0) == 0
    return Outcome.P if lost else Outcome.N


def nim_winning_moves(heaps: Sequence[int], *, misere: bool = False) -> Iterator[NimMove]:
    """Every winning move, at most one per heap, in heap order (none from a lost position)."""
    total = reduce(xor, heaps, 0)
    big_heaps = sum(1 for h in heaps if h >= 2)
    for index, heap in enumerate(heaps):
        others_big = big_heaps - (heap >= 2)
        if misere and others_big == 0:
            # After the move every heap is <= 1: leave an odd number of one-counter heaps.
            ones_elsewhere = sum(heaps) - heap
            target = 0 if ones_elsewhere % 2 == 1 else 1
        else:
            target = heap ^ total
        if target < heap:
            yield NimMove(index, heap, target)


def analyze_nim(heaps: Iterable[int], *, misere: bool = False) -> NimAnalysis:
    """Analyse a Nim position; heaps must be non-negative ``int``s (any size)."""
    position = check_heaps(heaps)
    return NimAnalysis(
        position=position,
        misere=misere,
        nim_sum=reduce(xor, position, 0),
        outcome=nim_outcome(position, misere=misere),
        winning_moves=tuple(nim_winning_moves(position, misere=misere)),
    )


class NimGame:
    """Nim as a generic impartial game on heap tuples (for the brute-force engine).

    >>> from nimlab.grundy import grundy_value
    >>> grundy_value(NimGame(), (3, 4, 5))
    2
    """

    def moves(self, position: Heaps, /) -> Iterator[Heaps]:
        """Remove one or more counters from a single heap."""
        for index, heap in enumerate(position):
            for smaller in range(heap):
                yield (*position[:index], smaller, *position[index + 1 :])

    def __str__(self) -> str:
        return "nim"

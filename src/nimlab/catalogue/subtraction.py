"""Subtraction games: remove s counters from one heap, s in a finite set S or 1 <= s <= K.

"At most K" (``--max K``, the closing remark of the blog post "Nim" (2021)): a heap h has Grundy
value h mod (K+1), so a position is lost iff the nim-sum of the heaps *each reduced mod K+1* is 0.
The blog post says "nim sum mod (k+1)", i.e. (h1 xor h2 xor ...) mod (K+1): that is wrong, e.g.
heaps 1,2 with K = 2 have nim-sum 3 = 0 mod 3, yet 1 xor 2 = 3 != 0 and the player to move wins
(take 1 from the heap of 2, leaving 1,1).

Finite S (``--set``): the Grundy sequence g(n) = mex{g(n-s)} is eventually periodic. Once two
windows of max(S) consecutive values coincide, at n0 and n0+p, every later value repeats with
period p (each value depends only on the max(S) before it); that proves the period, and heaps of
any size are then reduced into the computed range.

>>> from nimlab.catalogue import make_game
>>> game = make_game("subtraction", GameOptions(max_take=2))
>>> game.grundy((1, 2)), game.outcome((1, 2)).value
(3, 'N')
>>> s134 = make_game("subtraction", GameOptions(subtraction_set=(1, 3, 4)))
>>> s134.grundy_values(9), s134.periodicity(s134.grundy_values(20))
([0, 1, 0, 1, 2, 3, 2, 0, 1, 0], (7, 0))
>>> s134.grundy((10**30,))
1
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import xor
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from nimlab.budget import Cost, saturated
from nimlab.catalogue.base import CatalogueGame, CatalogueMove, GameOptions, check_limit
from nimlab.catalogue.brute import BruteSize, heap_product
from nimlab.catalogue.heapgames import HeapGame, replace_heap
from nimlab.catalogue.registry import register
from nimlab.catalogue.render import nim_sum_table
from nimlab.core.heaps import Heaps, heap_name
from nimlab.errors import InvalidPositionError

__all__ = ["SubtractionEntry", "SubtractionSequence", "subtraction_period"]


def subtraction_period(values: Sequence[int | None], span: int) -> tuple[int, int] | None:
    """The proven ``(period, preperiod)`` of a sequence whose g(n) depends on the ``span`` before.

    The first repeat of a window of ``span`` consecutive values gives the least period; the
    preperiod is then walked back to the least n0 with g(n + p) = g(n) for all n >= n0.

    >>> subtraction_period([0, 1, 2, 0, 1, 2, 0, 1], 2)
    (3, 0)
    >>> subtraction_period([0, 1, 2, 0], 2) is None
    True
    """
    seen: dict[tuple[int | None, ...], int] = {}
    for start in range(len(values) - span + 1):
        window = tuple(values[start : start + span])
        if window in seen:
            first = seen[window]
            period = start - first
            while first > 0 and values[first - 1] == values[first - 1 + period]:
                first -= 1
            return period, first
        seen[window] = start
    return None


class SubtractionSequence:
    """The Grundy sequence of a finite subtraction set, extended on demand until periodic."""

    def __init__(self, subtraction_set: tuple[int, ...], limit: int) -> None:
        self.subtraction_set = subtraction_set
        self.span = max(subtraction_set)
        self.limit = limit
        self.values: list[int] = []
        self._windows: dict[tuple[int, ...], int] = {}
        self.period: tuple[int, int] | None = None
        #: Steps per value: the mex over the set and the window of ``span`` values kept.
        self.step_cost = 1 + (len(subtraction_set) + self.span) // 16

    def _extend(self) -> None:
        n = len(self.values)
        options = {self.values[n - s] for s in self.subtraction_set if s <= n}
        g = 0
        while g in options:
            g += 1
        self.values.append(g)
        start = n - self.span + 1
        if start >= 0 and self.period is None:
            window = tuple(self.values[start:])
            if window in self._windows:
                self.period = subtraction_period(self.values, self.span)
            else:
                self._windows[window] = start

    def __call__(self, n: int) -> int:
        """g(n), reduced by the period once it is proven."""
        while n >= len(self.values) and self.period is None:
            size = len(self.values) + 1
            check_limit(
                f"the Grundy sequence (no period yet) up to {n}",
                Cost(saturated(size * self.step_cost) * 1e-6, size * 100),
                self.limit,
            )
            self._extend()
        if n < len(self.values):
            return self.values[n]
        period, preperiod = self.period or (1, 0)
        return self.values[preperiod + (n - preperiod) % period]


@register
class SubtractionEntry(HeapGame):
    """A subtraction game: ``--set S`` (finite set) or ``--max K`` (take 1..K)."""

    name = "subtraction"
    aliases = ("subtraction-game",)
    summary = "Remove s counters from one heap, s in the subtraction set (or 1 <= s <= K)."
    option_flags = frozenset({"--set", "--max"})
    sequence_meaning = "the single heap n"

    def __init__(
        self, *, subtraction_set: tuple[int, ...] | None = None, max_take: int | None = None
    ) -> None:
        if (subtraction_set is None) == (max_take is None):
            raise InvalidPositionError(
                "subtraction needs exactly one option: set S (the subtraction set, e.g. 1,3,4)"
                " or max K (take 1 to K)"
            )
        if max_take is not None and max_take < 1:
            raise InvalidPositionError(f"invalid max {max_take}: K must be at least 1")
        if subtraction_set is not None and (not subtraction_set or min(subtraction_set) < 1):
            raise InvalidPositionError(
                f"invalid set {subtraction_set}: give positive integers, e.g. 1,3,4"
            )
        self.subtraction_set = tuple(sorted(set(subtraction_set))) if subtraction_set else None
        self.max_take = max_take
        self._sequence: SubtractionSequence | None = None

    @classmethod
    def configure(cls, options: GameOptions) -> CatalogueGame[Any]:
        """Exactly one of ``--set`` and ``--max``."""
        game = cls(subtraction_set=options.subtraction_set, max_take=options.max_take)
        game.limit = options.limit
        return game

    @property
    def spec(self) -> str:
        """``subtraction(S=1,3,4)`` or ``subtraction(max=K)``."""
        if self.subtraction_set is not None:
            return f"subtraction(S={','.join(map(str, self.subtraction_set))})"
        return f"subtraction(max={self.max_take})"

    def _takes(self, heap: int) -> range | tuple[int, ...]:
        if self.subtraction_set is not None:
            return tuple(s for s in self.subtraction_set if s <= heap)
        return range(1, min(heap, self.max_take or 0) + 1)

    def moves(self, position: Heaps, /) -> list[Heaps]:
        """Remove an allowed number of counters from one heap."""
        return [
            replace_heap(position, i, h - s) for i, h in enumerate(position) for s in self._takes(h)
        ]

    def brute_size(self, position: Heaps) -> BruteSize:
        """Every heap tuple below ``position``, each listing at most one move per heap and
        allowed take (a list of new tuples built: 2 steps each, measured in BENCHMARKS.md).

        >>> from nimlab.catalogue import GameOptions, make_game
        >>> make_game("subtraction", GameOptions(subtraction_set=(1, 3, 4))).brute_size((9, 9))
        BruteSize(states=100, options=6, scale=2.0)
        """
        options = sum(len(self._takes(h)) for h in position)
        return BruteSize(heap_product(position), options, scale=2.0)

    def heap_value(self, heap: int) -> int:
        """g(heap): heap mod (K+1), or the periodic sequence of the set."""
        if self.max_take is not None:
            return heap % (self.max_take + 1)
        if self._sequence is None:
            self._sequence = SubtractionSequence(self.subtraction_set or (), self.limit)
        return self._sequence(heap)

    def grundy(self, position: Heaps) -> int:
        """The nim-sum of the heaps' values."""
        return reduce(xor, (self.heap_value(h) for h in position), 0)

    def winning_moves(self, position: Heaps) -> list[CatalogueMove[Heaps]]:
        """Moves on one heap to a value that makes the nim-sum 0."""
        total = self.grundy(position)
        if total == 0:
            return []
        result = []
        for i, h in enumerate(position):
            target = self.heap_value(h) ^ total
            if self.max_take is not None:
                # the unique take s in 1..K with h - s = target (mod K+1), if s <= h
                take = (h - target) % (self.max_take + 1)
                candidates = [take] if 0 < take <= h and target <= self.max_take else []
            else:
                candidates = [s for s in self._takes(h) if self.heap_value(h - s) == target]
            for s in candidates:
                extra = (("heap", i), ("take", s))
                result.append(
                    CatalogueMove(
                        replace_heap(position, i, h - s), f"{heap_name(i)}: take {s}", extra=extra
                    )
                )
        return result

    def explain(self, position: Heaps) -> RenderableType:
        """Each heap's Grundy value in binary, and their nim-sum."""
        if self.max_take is not None:
            rule = Text(f"A heap h is worth h mod {self.max_take + 1} (take 1..{self.max_take}).")
        else:
            sequence = self._sequence
            period = sequence.period if sequence else None
            rule = Text(
                f"A heap h is worth g(h) = mex of g(h - s), s in {set(self.subtraction_set or ())}"
                + (f"; period {period[0]} from h = {period[1]}" if period else "")
            )
        moves = {dict(m.extra)["heap"] for m in self.winning_moves(position)}
        rows = [(f"{heap_name(i)} = {h}", self.heap_value(h)) for i, h in enumerate(position)]
        return Group(rule, nim_sum_table(rows, {int(m) for m in moves}))

    def periodicity(self, values: Sequence[int | None]) -> tuple[int, int] | None:
        """``--max K``: period K+1 from 0 (closed form); ``--set``: a repeated window."""
        if self.max_take is not None:
            return self.max_take + 1, 0
        return subtraction_period(values, max(self.subtraction_set or (1,)))

"""Octal games (``--code``), Kayles (0.77), Dawson's Kayles (0.07) and Grundy's game.

The rules and the Grundy sequences come from :mod:`nimlab.octal`: a heap's value is read from
the sequence g(0), g(1), ...; once the octal periodicity theorem proves a period from the values
computed (:func:`nimlab.octal.find_period`), heaps of any size are reduced into that range.
A position is a list of heaps; its value is the nim-sum of the heaps' values. Grundy's game
(split a heap into two unequal heaps) has no known period, so its heaps are computed directly.

>>> from nimlab.catalogue import make_game
>>> kayles = make_game("kayles")
>>> kayles.grundy_values(12), kayles.grundy((10**15,))
([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4], 1)
>>> [m.label for m in kayles.winning_moves((7, 4))]
['heap 0: 7 -> 2+3', 'heap 1: 4 -> 2']
>>> make_game("octal", GameOptions(code=".07")).spec
'octal(0.07)'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import reduce
from operator import xor
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from nimlab.catalogue.base import (
    CatalogueGame,
    CatalogueMove,
    GameOptions,
    check_limit,
    unique_moves,
)
from nimlab.catalogue.heapgames import HeapGame, replace_heap
from nimlab.catalogue.registry import register
from nimlab.catalogue.render import nim_sum_table
from nimlab.core.heaps import Heaps
from nimlab.errors import InvalidPositionError
from nimlab.octal import (
    OctalCode,
    Periodicity,
    find_period,
    grundy_game_sequence,
    grundy_sequence,
)

__all__ = ["DawsonKaylesEntry", "GrundyGameEntry", "KaylesEntry", "OctalEntry"]

_FIRST_BATCH = 1024
_COMPILED_FROM = 10_000  # where nimlab.octal's "auto" method switches to its numba kernel


def _compiled_available() -> bool:
    """Whether numba (the octal engine's compiled kernel) is installed."""
    import importlib.util

    return importlib.util.find_spec("numba") is not None


class _HeapSequenceGame(HeapGame):
    """A heap game whose heaps are valued by a (possibly periodic) Grundy sequence."""

    sequence_meaning = "the single heap n"

    def __init__(self) -> None:
        self._values: list[int] = []
        self._periodicity: Periodicity | None = None

    def heap_options(self, heap: int) -> Iterator[tuple[int, ...]]:
        """The heaps left after one move on a single heap."""
        raise NotImplementedError

    def sequence(self, upto: int) -> list[int]:
        """g(0..upto)."""
        raise NotImplementedError

    #: Whether a period may be proven (then big heaps double the computed range until it is).
    may_be_periodic = False

    def find_periodicity(self, values: Sequence[int]) -> Periodicity | None:
        """The proven period of these values, if any."""
        return None

    def heap_value(self, heap: int) -> int:
        """g(heap): computed, or reduced by the proven period."""
        while True:
            if heap < len(self._values):
                return self._values[heap]
            if self._periodicity is not None:
                period, start = self._periodicity.period, self._periodicity.preperiod
                return self._values[start + (heap - start) % period]
            size = max(2 * len(self._values), _FIRST_BATCH)
            if not self.may_be_periodic:
                size = max(size, heap + 1)
            check_limit(
                f"the Grundy values of {self.spec} up to {size - 1}",
                self.sequence_cost(size - 1),
                self.limit,
            )
            self._values = self.sequence(size - 1)
            self._periodicity = self.find_periodicity(self._values)

    def listed_options(self, heap: int) -> Iterator[tuple[int, ...]]:
        """The options :meth:`winning_moves` examines: all of them, unless the heap is too big."""
        check_limit(f"listing the moves from a heap of {heap}", heap, self.limit)
        return self.heap_options(heap)

    def moves(self, position: Heaps, /) -> Iterator[Heaps]:
        """A move on one heap, replacing it by the heaps it leaves."""
        for index, heap in enumerate(position):
            for left in self.heap_options(heap):
                yield replace_heap(position, index, *left)

    def grundy(self, position: Heaps) -> int:
        """The nim-sum of the heaps' values."""
        return reduce(xor, (self.heap_value(h) for h in position), 0)

    def winning_moves(self, position: Heaps) -> list[CatalogueMove[Heaps]]:
        """Moves on one heap to heaps whose values make the nim-sum 0."""
        total = self.grundy(position)
        if total == 0:
            return []
        result: list[CatalogueMove[Heaps]] = []
        for index, heap in enumerate(position):
            target = self.heap_value(heap) ^ total
            for left in self.listed_options(heap):
                if reduce(xor, (self.heap_value(h) for h in left), 0) == target:
                    shown = "+".join(map(str, left)) or "nothing"
                    result.append(
                        CatalogueMove(
                            replace_heap(position, index, *left),
                            f"heap {index}: {heap} -> {shown}",
                            extra=(("heap", index),),
                        )
                    )
        return unique_moves(result)

    def explain(self, position: Heaps) -> RenderableType:
        """Each heap's value from the sequence, and their nim-sum."""
        rows = [(f"heap {i} = {h}", self.heap_value(h)) for i, h in enumerate(position)]
        marked = {int(dict(m.extra)["heap"]) for m in self.winning_moves(position)}
        found = self._periodicity
        note = (
            f"period {found.period} from n = {found.preperiod} (proven)"
            if found
            else "no period proven"
        )
        return Group(Text(f"{self.summary} Heap values g(n): {note}."), nim_sum_table(rows, marked))

    def sequence_cost(self, upto: int) -> int:
        """Every value is a mex over all splits: quadratic. Below 10,000 values the octal
        engine runs in Python (about 30 ns per pair), above in its compiled kernel (about
        0.5 ns) when numba is installed.

        >>> from nimlab.catalogue import make_game
        >>> make_game("kayles").sequence_cost(4000)
        504251
        """
        pairs = (upto + 1) ** 2
        if upto >= _COMPILED_FROM and _compiled_available():
            return pairs // 2048 + upto + 1
        return pairs // 32 + upto + 1

    def grundy_values(self, upto: int) -> list[int | None]:
        """g(0..upto) from the octal engine."""
        return list(self.sequence(upto))

    def periodicity(self, values: Sequence[int | None]) -> tuple[int, int] | None:
        """The period proven by the octal periodicity theorem from these values."""
        found = self.find_periodicity([v for v in values if v is not None])
        return (found.period, found.preperiod) if found else None


class _CodedGame(_HeapSequenceGame):
    """An octal game with a fixed code."""

    code: OctalCode
    may_be_periodic = True

    def heap_options(self, heap: int) -> Iterator[tuple[int, ...]]:
        """The code's moves."""
        return self.code.heap_options(heap)

    def listed_options(self, heap: int) -> Iterator[tuple[int, ...]]:
        """All options; beyond ``--limit``, once periodic, only splits off a heap below
        preperiod + 2·period (every larger split repeats the value of a listed one)."""
        if heap <= self.limit:
            yield from self.heap_options(heap)
            return
        self.heap_value(heap)  # computes the values and, if it can, proves the period
        found = self._periodicity
        if found is None:
            check_limit(f"listing the moves from a heap of {heap}", heap, self.limit)
            return
        bound = found.preperiod + 2 * found.period
        for k, digit in enumerate(self.code.digits):
            rest = heap - k
            if digit & 2 and k > 0:
                yield (rest,)
            if digit & 4:
                yield from ((a, rest - a) for a in range(1, bound + 1))

    def sequence(self, upto: int) -> list[int]:
        """From :func:`nimlab.octal.grundy_sequence`."""
        return grundy_sequence(self.code, upto)

    def find_periodicity(self, values: Sequence[int]) -> Periodicity | None:
        """The octal periodicity theorem."""
        return find_period(self.code, values)


@register
class OctalEntry(_CodedGame):
    """Any octal game, ``--code C`` (e.g. 0.07, 0.137, 4.7)."""

    name = "octal"
    aliases = ("octal-game",)
    summary = "An octal game: the code's digits say how many tokens may be taken, and how."
    example = "5,9"
    option_flags = frozenset({"--code"})

    def __init__(self, code: OctalCode) -> None:
        super().__init__()
        self.code = code

    @classmethod
    def configure(cls, options: GameOptions) -> CatalogueGame[Any]:
        """``--code C`` is required."""
        if options.code is None:
            raise InvalidPositionError("octal needs --code C, e.g. --code 0.07")
        game = cls(OctalCode.parse(options.code))
        game.limit = options.limit
        return game

    @property
    def spec(self) -> str:
        """``octal(0.07)``."""
        return f"octal({self.code})"


@register
class KaylesEntry(_CodedGame):
    """Kayles, the octal game 0.77: knock down one pin or two adjacent ones."""

    name = "kayles"
    summary = "Kayles (0.77): remove 1 or 2 from a heap, possibly splitting the rest in two."
    example = "7,4"
    code = OctalCode.parse("0.77")


@register
class DawsonKaylesEntry(_CodedGame):
    """Dawson's Kayles, the octal game 0.07."""

    name = "dawson-kayles"
    aliases = ("dawsons-kayles",)
    summary = "Dawson's Kayles (0.07): remove 2 from a heap, possibly splitting the rest in two."
    example = "7,4"
    code = OctalCode.parse("0.07")


@register
class GrundyGameEntry(_HeapSequenceGame):
    """Grundy's game: split one heap into two heaps of different sizes."""

    name = "grundy-game"
    aliases = ("grundys-game",)
    summary = "Grundy's game: split a heap into two non-empty heaps of different sizes."
    example = "7,4"

    def heap_options(self, heap: int) -> Iterator[tuple[int, ...]]:
        """``(a, heap - a)`` with ``1 <= a < heap - a``."""
        return ((a, heap - a) for a in range(1, (heap + 1) // 2))

    def sequence(self, upto: int) -> list[int]:
        """From :func:`nimlab.octal.grundy_game_sequence`."""
        return grundy_game_sequence(upto)

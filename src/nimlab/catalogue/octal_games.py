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
['heap 1: 7 -> 2+3', 'heap 2: 4 -> 2']
>>> make_game("octal", GameOptions(code=".07")).spec
'octal(0.07)'
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from functools import reduce
from operator import xor
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from nimlab.budget import Cost, saturated
from nimlab.catalogue.base import (
    CatalogueGame,
    CatalogueMove,
    GameOptions,
    check_limit,
    unique_moves,
)
from nimlab.catalogue.brute import BruteSize, composition_count, heap_product
from nimlab.catalogue.heapgames import HeapGame, replace_heap
from nimlab.catalogue.registry import register
from nimlab.catalogue.render import nim_sum_table
from nimlab.core.heaps import Heaps, heap_name
from nimlab.errors import InvalidPositionError
from nimlab.octal import (
    OctalCode,
    Periodicity,
    find_period,
    grundy_game_sequence,
    grundy_sequence,
)
from nimlab.octal.rules import GRUNDY_GAME_RULES, MoveRules, rules_of
from nimlab.octal.sparse import choose_mask, is_rare

__all__ = ["DawsonKaylesEntry", "GrundyGameEntry", "KaylesEntry", "OctalEntry"]

_FIRST_BATCH = 1024
_COMPILED_FROM = 10_000  # where nimlab.octal's "auto" method switches to its sparse engine

# The cost model (calibrated in BENCHMARKS.md). Below _COMPILED_FROM the plain quadratic method
# runs: about 2.25e-8 s per split rule and per n^2. Above, the sparse-space engine runs: each
# n pairs every rare heap below it (and a rare n scans its splits), so it does about N * R(N)
# pair look-ups, R(N) the number of rare values up to N, at about 2.75 ns each, plus 0.5 µs
# per value and 1.2 s to compile the kernel. R is counted on the values up to _SAMPLES (the
# larger computed by the engine, a fraction of a second) and extrapolated with its growth
# exponent (clamped to [0, 1]: from a near constant count, Grundy's game, to a fixed fraction).
# Values already computed, or a proven period (a pilot up to _PILOT proves it for many octal
# games), make the table a closed form: only writing it costs. No pilot runs where writing
# the table alone is over any budget (_PILOT_BELOW values).
_PLAIN_SECONDS = 2.25e-8
_PAIR_SECONDS = 2.75e-9
_VALUE_SECONDS = 5e-7
_COMPILE_SECONDS = 1.2
_PILOT = 1023
_SAMPLES = (8_191, 16_383)
_PILOT_BELOW = 10**9
_ENGINE_BYTES = 150_000_000  # the interpreter, numpy and numba
_BYTES_PER_VALUE = 60


def _rare_count(values: Sequence[int]) -> int:
    """How many ``n >= 1`` have a rare value for the mask the sparse engine would choose.

    >>> _rare_count([0, 1, 2, 3, 1, 1, 2, 1])
    1
    """
    half = max(16, 1 << max(values).bit_length())
    mask = choose_mask(values, half)
    return sum(1 for value in values[1:] if is_rare(value, mask))


def _listing_cost(heap: int) -> Cost:
    """Valuing every option of a heap: about a microsecond each (nothing is kept).

    >>> _listing_cost(10**6)
    Cost(seconds=1.0, bytes=0)
    """
    return Cost(saturated(heap) * 1e-6, 0)


#: Heaps up to this size have their reachable sequences bounded through their moves too
#: (:meth:`_HeapSequenceGame.brute_size`; about heap^2 / 2 products each).
_UNION_HEAPS = 300


class _HeapSequenceGame(HeapGame):
    """A heap game whose heaps are valued by a (possibly periodic) Grundy sequence."""

    sequence_meaning = "the single heap n"

    def __init__(self) -> None:
        self._values: list[int] = []
        self._periodicity: Periodicity | None = None
        self._reach_table: list[int] = []

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
            self._extend(size - 1)

    def listed_options(self, heap: int) -> Iterator[tuple[int, ...]]:
        """The options :meth:`winning_moves` examines: all of them, unless the heap is too big."""
        check_limit(f"listing the moves from a heap of {heap}", _listing_cost(heap), self.limit)
        return self.heap_options(heap)

    def moves(self, position: Heaps, /) -> Iterator[Heaps]:
        """A move on one heap, replacing it by the heaps it leaves."""
        for index, heap in enumerate(position):
            for left in self.heap_options(heap):
                yield replace_heap(position, index, *left)

    #: How a move changes a heap, for the brute-force estimate: the fewest tokens a split in
    #: two removes (None: no move splits), whether every move keeps the tokens (then a heap's
    #: parts always add up to it), and :meth:`heap_option_count`.
    split_gap: int | None = 0
    keeps_tokens: bool = True

    def heap_option_count(self, heap: int) -> int:
        """How many moves a heap of ``heap`` has (at most)."""
        return max(heap - 1, 0) // 2

    def brute_size(self, position: Heaps) -> BruteSize:
        """The search keeps heaps in order: from a heap of h, sequences of heaps adding up to
        at most h less the tokens each split removes (:func:`~nimlab.catalogue.brute.
        composition_count`), or, for heaps up to 300, 1 + the sum over h's moves of the
        product of what its parts reach (every sequence reached comes after some first
        move), whichever is fewer; a position lists at most the moves of a heap of h per
        heap h.

        >>> from nimlab.catalogue import make_game
        >>> make_game("kayles").brute_size((20,))  # 12,554 met by the search
        BruteSize(states=17711, options=20, scale=1.0)
        >>> make_game("grundy-game").brute_size((20,))  # 140,538 met
        BruteSize(states=524289, options=9, scale=1.0)
        """
        gap = self.split_gap
        if gap is None:
            return BruteSize(heap_product(position), sum(map(self.heap_option_count, position)))
        counts = []
        for heap in position:
            count = composition_count(heap, gap=gap, exact=self.keeps_tokens)
            if heap <= _UNION_HEAPS:
                count = min(count, self._reached_from(heap))
            counts.append(count - 1)
        return BruteSize(heap_product(counts), sum(map(self.heap_option_count, position)))

    def _reached_from(self, heap: int) -> int:
        """1 + the sum over the moves of a heap of ``heap`` of the product of what each
        part reaches (tabulated for the game; an upper bound, saturated far past any
        budget)."""
        table = self._reach_table
        while len(table) <= heap:
            n = len(table)
            total = 1
            for parts in self.heap_options(n):
                term = 1
                for part in parts:
                    term = min(term * table[part], 10**300)
                total = min(total + term, 10**300)
            table.append(total)
        return table[heap]

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
                            f"{heap_name(index)}: {heap} -> {shown}",
                            extra=(("heap", index),),
                        )
                    )
        return unique_moves(result)

    def explain(self, position: Heaps) -> RenderableType:
        """Each heap's value from the sequence, and their nim-sum."""
        rows = [(f"{heap_name(i)} = {h}", self.heap_value(h)) for i, h in enumerate(position)]
        marked = {int(dict(m.extra)["heap"]) for m in self.winning_moves(position)}
        found = self._periodicity
        note = (
            f"period {found.period} from n = {found.preperiod} (proven)"
            if found
            else "no period proven"
        )
        return Group(Text(f"{self.summary} Heap values g(n): {note}."), nim_sum_table(rows, marked))

    #: The move rules the octal engine runs (how many split rules: the plain method's cost).
    move_rules: MoveRules = GRUNDY_GAME_RULES

    _rare: tuple[int, float] | None = None

    def sequence_cost(self, upto: int) -> Cost:
        """The cost of the method that will run for g(0..upto): nothing more than writing the
        table when the values are known or a period is proven (a pilot computes up to 4,095
        values, which proves the period of many octal games); the plain method's calibrated
        formula below 10,000 values; above, the sparse-space engine's, from the number of its
        rare values up to 16,383 (computed) and their growth.

        >>> from nimlab.catalogue import make_game
        >>> round(make_game("kayles").sequence_cost(10**8).seconds)  # period 12, by the pilot
        200
        >>> make_game("grundy-game").sequence_cost(9_000).seconds > 1  # plain, quadratic
        True
        """
        written = super().sequence_cost(upto)
        if upto >= _PILOT_BELOW:
            return written
        self._extend(min(upto, _PILOT))
        if upto < len(self._values) or self._periodicity is not None:
            return written
        size = upto + 1
        memory = _ENGINE_BYTES + _BYTES_PER_VALUE * size
        if upto < _COMPILED_FROM:
            splits = max(1, len(self.move_rules.split))
            return written + Cost(_PLAIN_SECONDS * splits * saturated(size * size), memory)
        if self._rare is None:
            self._extend(_SAMPLES[1])
            counts = [_rare_count(self._values[: n + 1]) for n in _SAMPLES]
            if upto < len(self._values) or self._periodicity is not None:
                return written
            growth = min(1.0, max(0.0, math.log2(max(counts[1], 1) / max(counts[0], 1))))
            self._rare = (counts[1], growth)
        rare, growth = self._rare
        rare_upto = rare * (size / (_SAMPLES[1] + 1)) ** growth
        seconds = _PAIR_SECONDS * size * rare_upto + _VALUE_SECONDS * size + _COMPILE_SECONDS
        return written + Cost(seconds, memory)

    def _extend(self, upto: int) -> None:
        """Compute g(0..upto) if not known yet (and look for the period)."""
        if upto >= len(self._values) and self._periodicity is None:
            self._values = self.sequence(upto)
            self._periodicity = self.find_periodicity(self._values)

    def grundy_values(self, upto: int) -> list[int | None]:
        """g(0..upto): known values, extended by the proven period, or from the octal engine."""
        self._extend(upto)
        if upto < len(self._values):
            return list(self._values[: upto + 1])
        return [self.heap_value(n) for n in range(upto + 1)]

    def periodicity(self, values: Sequence[int | None]) -> tuple[int, int] | None:
        """The proven period of these values, if any (a period proven on fewer of them is
        the least period of all, from the same preperiod: see :mod:`nimlab.octal`)."""
        found = self._periodicity
        if found is None or len(values) < found.preperiod + 2 * found.period:
            found = self.find_periodicity([v for v in values if v is not None])
        return (found.period, found.preperiod) if found else None


class _CodedGame(_HeapSequenceGame):
    """An octal game with a fixed code."""

    code: OctalCode
    may_be_periodic = True

    @property
    def move_rules(self) -> MoveRules:  # type: ignore[override]
        """The code's rules."""
        return rules_of(self.code)

    def heap_options(self, heap: int) -> Iterator[tuple[int, ...]]:
        """The code's moves."""
        return self.code.heap_options(heap)

    @property
    def split_gap(self) -> int | None:  # type: ignore[override]
        """The fewest tokens a split removes (the first digit with a 4), None without one."""
        return next((k for k, digit in enumerate(self.code.digits) if digit & 4), None)

    @property
    def keeps_tokens(self) -> bool:  # type: ignore[override]
        """Whether the code only splits heaps without taking (``4.0``)."""
        return not any(self.code.digits[1:])

    def heap_option_count(self, heap: int) -> int:
        """Per digit k <= heap: taking the whole heap, leaving one heap, or splitting the
        remaining heap - k in two (about half as many ways)."""
        count = 0
        for k, digit in enumerate(self.code.digits):
            rest = heap - k
            if rest < 0:
                break
            count += (digit & 1 and rest == 0 and k > 0) + (digit & 2 and rest > 0 and k > 0)
            count += rest // 2 if digit & 4 else 0
        return count

    def listed_options(self, heap: int) -> Iterator[tuple[int, ...]]:
        """All options; beyond ``--limit``, once periodic, only splits off a heap below
        preperiod + 2·period (every larger split repeats the value of a listed one)."""
        if heap <= self.limit:
            yield from self.heap_options(heap)
            return
        self.heap_value(heap)  # computes the values and, if it can, proves the period
        found = self._periodicity
        if found is None:
            check_limit(f"listing the moves from a heap of {heap}", _listing_cost(heap), self.limit)
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
            raise InvalidPositionError("octal needs the option code C, e.g. 0.07")
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

"""Poker Nim (Bogus Nim): Nim where a player may also *add* counters, a bounded number of times.

The Sprague-Grundy catalogue article: each player may add counters to a heap at most K times
(``--additions K``); adding more makes no difference to who wins. The winner is the Nim winner: from
a position of nim-sum 0, a removal is answered by Bouton's rule and an addition is simply taken
back, and the additions run out. So the player to move loses iff the nim-sum is 0, *whatever* the
additions left and whatever the bound on the heap sizes. (The article's original rule caps a heap at
its starting size; at the position being analysed that forbids every addition. Here ``--cap C``
optionally bounds every heap by C instead, and without it additions are unbounded.)

The additions are per player, so the state records those left to the player to move and to the
other; only the outcome is given (the Grundy value of such a state is not the nim-sum, and is
meaningless in sums). Winning moves: Bouton's removals, and additions that raise a heap h to
h xor s when the player still may add.

>>> from nimlab.catalogue import make_game
>>> game = make_game("poker-nim", GameOptions(additions=1))
>>> p = game.parse_position("1,4,6")
>>> game.outcome(p).value, [m.label for m in game.winning_moves(p)]
('N', ['heap 1: 1 -> 2 (add 1)', 'heap 2: 4 -> 7 (add 3)', 'heap 3: 6 -> 5'])
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import reduce
from operator import xor
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from nimlab.catalogue.base import CatalogueGame, CatalogueMove, GameOptions
from nimlab.catalogue.brute import BruteSize, heap_product
from nimlab.catalogue.heapgames import replace_heap
from nimlab.catalogue.registry import register
from nimlab.catalogue.render import nim_sum_table
from nimlab.core.game import Outcome
from nimlab.core.heaps import Heaps, format_heaps, heap_name, parse_heaps
from nimlab.errors import InvalidPositionError, TooLargeError

__all__ = ["PokerNimEntry", "PokerNimState"]


@dataclass(frozen=True)
class PokerNimState:
    """Heaps, the additions left to the player to move, and to the other player."""

    heaps: Heaps
    mover: int
    other: int


@register
class PokerNimEntry(CatalogueGame[PokerNimState]):
    """Poker Nim: Nim plus at most K additions per player (``--additions K``, ``--cap C``)."""

    name = "poker-nim"
    aliases = ("bogus-nim",)
    summary = "Nim, but a player may instead add counters to a heap, at most K times."
    notation = "heaps a,b,c (with --additions K)"
    example = "3,4,5"
    option_flags = frozenset({"--additions", "--cap"})
    impartial = False

    def __init__(self, *, additions: int = 1, cap: int | None = None) -> None:
        self.additions = additions
        self.cap = cap

    @classmethod
    def configure(cls, options: GameOptions) -> CatalogueGame[Any]:
        """``--additions K`` (default 1) and the optional ``--cap C``."""
        additions = 1 if options.additions is None else options.additions
        game = cls(additions=additions, cap=options.cap)
        game.limit = options.limit
        return game

    @property
    def spec(self) -> str:
        """``poker-nim(additions=K)`` or ``poker-nim(additions=K;cap=C)``."""
        cap = f";cap={self.cap}" if self.cap is not None else ""
        return f"poker-nim(additions={self.additions}{cap})"

    def parse_position(self, text: str) -> PokerNimState:
        """Heaps (at most the cap); both players have K additions."""
        heaps = parse_heaps(text)
        if self.cap is not None and any(h > self.cap for h in heaps):
            raise InvalidPositionError(f"heaps {text!r} exceed the cap {self.cap}")
        return PokerNimState(heaps, self.additions, self.additions)

    def format_position(self, position: PokerNimState) -> str:
        """The heaps (the additions left are reported separately)."""
        return format_heaps(position.heaps)

    def moves(self, position: PokerNimState, /) -> Iterator[PokerNimState]:
        """Remove from a heap, or (while additions are left) add to one, up to the cap."""
        heaps, mover, other = position.heaps, position.mover, position.other
        for index, heap in enumerate(heaps):
            for smaller in range(heap):
                yield PokerNimState(replace_heap(heaps, index, smaller), other, mover)
        if mover:
            if self.cap is None:
                raise TooLargeError(
                    "poker-nim without --cap has infinitely many moves; give --cap C to search it"
                )
            for index, heap in enumerate(heaps):
                for larger in range(heap + 1, self.cap + 1):
                    yield PokerNimState(replace_heap(heaps, index, larger), other, mover - 1)

    def brute_size(self, position: PokerNimState) -> BruteSize:
        """Heaps up to the cap (below themselves without additions), times the additions
        left to both players; at most every removal and every addition listed (a new state
        built for each: 2 steps, measured in BENCHMARKS.md).

        >>> from nimlab.catalogue import GameOptions, make_game
        >>> make_game("poker-nim", GameOptions(additions=1, cap=6)).brute_size(
        ...     make_game("poker-nim", GameOptions(additions=1, cap=6)).parse_position("3,4"))
        BruteSize(states=392, options=12, scale=2.0)
        """
        heaps, mover, other = position.heaps, position.mover, position.other
        if not mover and not other:
            return BruteSize(heap_product(heaps), sum(heaps), scale=2.0)
        if self.cap is None:
            raise TooLargeError(
                "poker-nim without --cap has infinitely many moves; give --cap C to search it"
            )
        tops = [max(self.cap, h) for h in heaps]
        states = heap_product(tops) * (mover + 1) * (other + 1) * 2
        return BruteSize(states, sum(tops), scale=2.0)

    def outcome(self, position: PokerNimState) -> Outcome:
        """P iff the nim-sum is 0."""
        return Outcome.N if reduce(xor, position.heaps, 0) else Outcome.P

    def winning_moves(self, position: PokerNimState) -> list[CatalogueMove[PokerNimState]]:
        """Each heap h goes to h xor s: by removal, or by an addition if allowed."""
        heaps, mover, other = position.heaps, position.mover, position.other
        total = reduce(xor, heaps, 0)
        result = []
        for index, heap in enumerate(heaps):
            target = heap ^ total
            if target < heap:
                to = PokerNimState(replace_heap(heaps, index, target), other, mover)
                result.append(CatalogueMove(to, f"{heap_name(index)}: {heap} -> {target}"))
            elif target > heap and mover and (self.cap is None or target <= self.cap):
                to = PokerNimState(replace_heap(heaps, index, target), other, mover - 1)
                label = f"{heap_name(index)}: {heap} -> {target} (add {target - heap})"
                result.append(CatalogueMove(to, label, extra=(("add", True),)))
        return result

    def explain(self, position: PokerNimState) -> RenderableType:
        """The nim-sum decides; additions are reversible."""
        total = reduce(xor, position.heaps, 0)
        rows = [(heap_name(i), h) for i, h in enumerate(position.heaps)]
        marked = {i for i, h in enumerate(position.heaps) if h ^ total != h}
        return Group(
            Text(
                f"Additions left: {position.mover} (to move), {position.other} (other). "
                "An addition can always be taken back, so the nim-sum decides."
            ),
            nim_sum_table(rows, marked),
        )

    def small_positions(self, size: int) -> Iterator[PokerNimState]:
        """1 to 3 heaps of 0..min(size, cap), with the configured additions."""
        top = size if self.cap is None else min(size, self.cap)
        for count in (1, 2, 3):
            for heaps in itertools.product(range(top + 1), repeat=count):
                yield PokerNimState(heaps, self.additions, self.additions)

    def random_position(self, rng: random.Random, size: int) -> PokerNimState:
        """1 to 4 heaps up to ``size`` (and the cap), with the configured additions."""
        top = size if self.cap is None else min(size, self.cap)
        heaps = tuple(rng.randint(0, top) for _ in range(rng.randint(1, 4)))
        return PokerNimState(heaps, self.additions, self.additions)

"""Nim with skips (catalogue article): the first player may pass A times, the second B times.

A skip is a move usable at any time, even when every heap is empty; a player with no legal move
(no counters left and no skips left) loses. The game is not impartial (the players have
different skip allowances), so only the outcome is given. The state records the skips left to
the player to move and to the other; with those two numbers swapped at every move it becomes an
impartial game, which the brute-force engine searches.

Closed form (verified by search): with m skips for the player to move and o for the other, the
player to move wins iff m > o, or m = o and the nim-sum is not 0. So the catalogue article's rules
are right: A > B wins for the first player, A < B for the second, A = B is plain Nim. Its reason for
A = B ("the winner cancels the other player's move") needs care: a skip is cancelled by a skip,
which is only possible because the allowances are equal. With A > B *every* Nim move wins (the
opponent then faces B < A), and a skip wins iff A - 1 > B, or A - 1 = B with nim-sum 0.

>>> from nimlab.catalogue import make_game
>>> game = make_game("skip-nim", GameOptions(skips=(1, 1)))
>>> p = game.parse_position("3,4,5")
>>> game.outcome(p).value, [m.label for m in game.winning_moves(p)]
('N', ['heap 1: 3 -> 1'])
>>> fewer = make_game("skip-nim", GameOptions(skips=(0, 1)))
>>> fewer.outcome(fewer.parse_position("3,4,5")).value
'P'
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

__all__ = ["SkipNimEntry", "SkipNimState"]


@dataclass(frozen=True)
class SkipNimState:
    """Heaps, the skips left to the player to move, and to the other player."""

    heaps: Heaps
    mover: int
    other: int


@register
class SkipNimEntry(CatalogueGame[SkipNimState]):
    """Nim with A skips for the first player and B for the second (``--skips A,B``)."""

    name = "skip-nim"
    aliases = ("nim-with-skips",)
    summary = "Nim, but the players may pass: A times the first, B times the second."
    notation = "heaps a,b,c (with --skips A,B)"
    example = "3,4,5"
    option_flags = frozenset({"--skips"})
    impartial = False

    def __init__(self, *, skips: tuple[int, int] = (0, 0)) -> None:
        self.skips = skips

    @classmethod
    def configure(cls, options: GameOptions) -> CatalogueGame[Any]:
        """``--skips A,B`` (default 0,0: plain Nim)."""
        game = cls(skips=options.skips or (0, 0))
        game.limit = options.limit
        return game

    @property
    def spec(self) -> str:
        """``skip-nim(skips=A,B)``."""
        return f"skip-nim(skips={self.skips[0]},{self.skips[1]})"

    def parse_position(self, text: str) -> SkipNimState:
        """Heaps; the first player to move has A skips."""
        return SkipNimState(parse_heaps(text), *self.skips)

    def format_position(self, position: SkipNimState) -> str:
        """The heaps (the skips left are reported separately)."""
        return format_heaps(position.heaps)

    def moves(self, position: SkipNimState, /) -> Iterator[SkipNimState]:
        """A Nim move, or a skip; then the other player is to move."""
        heaps, mover, other = position.heaps, position.mover, position.other
        for index, heap in enumerate(heaps):
            for smaller in range(heap):
                yield SkipNimState(replace_heap(heaps, index, smaller), other, mover)
        if mover:
            yield SkipNimState(heaps, other, mover - 1)

    def brute_size(self, position: SkipNimState) -> BruteSize:
        """Heaps below the position's, times the skips left to the player to move and to the
        other (either order); every removal and one skip listed.

        >>> from nimlab.catalogue import GameOptions, make_game
        >>> game = make_game("skip-nim", GameOptions(skips=(1, 2)))
        >>> game.brute_size(game.parse_position("3,4"))
        BruteSize(states=240, options=8, scale=1.0)
        """
        heaps, mover, other = position.heaps, position.mover, position.other
        states = heap_product(heaps) * (mover + 1) * (other + 1) * 2
        return BruteSize(states, sum(heaps) + 1)

    def outcome(self, position: SkipNimState) -> Outcome:
        """N iff more skips than the opponent, or as many and a non-zero nim-sum."""
        if position.mover != position.other:
            return Outcome.N if position.mover > position.other else Outcome.P
        return Outcome.N if reduce(xor, position.heaps, 0) else Outcome.P

    def winning_moves(self, position: SkipNimState) -> list[CatalogueMove[SkipNimState]]:
        """Every move that leaves the opponent a lost state."""
        result = []
        for option, label in self._labelled_moves(position):
            if self.outcome(option) is Outcome.P:
                result.append(CatalogueMove(option, label, extra=(("skip", label == "skip"),)))
        return result

    def _labelled_moves(self, position: SkipNimState) -> Iterator[tuple[SkipNimState, str]]:
        """The candidate winning moves: every move, except that from heaps above 64 only
        Bouton's move and emptying the heap are listed (with more skips every move wins)."""
        heaps, mover, other = position.heaps, position.mover, position.other
        total = reduce(xor, heaps, 0)
        for index, heap in enumerate(heaps):
            # With more skips every move wins; bound the list to Bouton's move plus emptying.
            targets = range(heap) if mover > other and heap <= 64 else {heap ^ total, 0}
            for smaller in sorted(t for t in targets if t < heap):
                yield (
                    SkipNimState(replace_heap(heaps, index, smaller), other, mover),
                    f"{heap_name(index)}: {heap} -> {smaller}",
                )
        if mover:
            yield SkipNimState(heaps, other, mover - 1), "skip"

    def explain(self, position: SkipNimState) -> RenderableType:
        """The skip counts decide, and with equal counts the nim-sum."""
        mover, other = position.mover, position.other
        if mover != other:
            who = "to move" if mover > other else "not to move"
            verdict = f"Skips {mover} against {other}: the player {who} wins by skip-cancelling."
            return Text(verdict)
        rows = [(heap_name(i), h) for i, h in enumerate(position.heaps)]
        return Group(
            Text(f"Equal skips ({mover} each): every skip is answered by a skip; plain Nim."),
            nim_sum_table(rows),
        )

    def small_positions(self, size: int) -> Iterator[SkipNimState]:
        """1 to 3 heaps of 0..size, with the configured skips."""
        for count in (1, 2, 3):
            for heaps in itertools.product(range(size + 1), repeat=count):
                yield SkipNimState(heaps, *self.skips)

    def random_position(self, rng: random.Random, size: int) -> SkipNimState:
        """1 to 4 heaps up to ``size``, with the configured skips."""
        heaps = tuple(rng.randint(0, size) for _ in range(rng.randint(1, 4)))
        return SkipNimState(heaps, *self.skips)

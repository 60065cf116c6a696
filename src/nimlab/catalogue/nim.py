"""Nim, normal and misère (the catalogue article: "Nim Game", the Bengali misère paragraph).

Normal play: the nim-sum (xor) of the heaps is the Grundy value (Bouton). Misère play (the last
player to move loses): the *misère* Grundy value (terminal position 1, otherwise the mex of the
options; 0 exactly at the misère P-positions) equals the nim-sum as long as some heap has two or
more counters; when every heap has at most one counter it is 1 for an even number of one-counter
heaps and 0 for an odd number. The catalogue article states the exception for "every heap exactly
1"; empty heaps do not matter, so the true condition is "every heap at most 1". It then says that
with an odd number of one-counter heaps "the current player cannot be beaten": for the player to
move the reverse is true, they lose (with a single heap of 1 they must take the last counter); it
only holds for the player who has just moved.

>>> from nimlab.catalogue import make_game
>>> game = make_game("nim")
>>> game.grundy((3, 4, 5)), [m.label for m in game.winning_moves((3, 4, 5))]
(2, ['heap 1: 3 -> 1'])
>>> misere = make_game("nim", GameOptions(misere=True))
>>> misere.spec, misere.grundy((1, 1, 0)), misere.grundy((1, 1, 1)), misere.outcome((1, 1, 1)).value
('nim(misere)', 1, 0, 'P')
"""

from __future__ import annotations

from functools import reduce
from operator import xor
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from nimlab.catalogue.base import CatalogueGame, CatalogueMove, GameOptions
from nimlab.catalogue.brute import BruteSize, heap_product
from nimlab.catalogue.heapgames import HeapGame
from nimlab.catalogue.registry import register
from nimlab.catalogue.render import nim_sum_table
from nimlab.core.game import ImpartialGame
from nimlab.core.heaps import Heaps, heap_name
from nimlab.core.transforms import misere
from nimlab.nim import NimGame, analyze_nim

__all__ = ["NimEntry"]


@register
class NimEntry(HeapGame):
    """Nim: remove any number of counters from one heap (``--misere``: last mover loses)."""

    name = "nim"
    summary = "Remove one or more counters from a single heap."
    option_flags = frozenset({"--misere"})
    sequence_meaning = "the single heap n"

    def __init__(self, *, misere: bool = False) -> None:
        self.misere = misere

    @classmethod
    def configure(cls, options: GameOptions) -> CatalogueGame[Any]:
        """``--misere`` selects misère play."""
        game = cls(misere=options.misere)
        game.limit = options.limit
        return game

    @property
    def spec(self) -> str:
        """``nim`` or ``nim(misere)``."""
        return "nim(misere)" if self.misere else "nim"

    def moves(self, position: Heaps, /) -> Any:
        """Reduce one heap."""
        return NimGame().moves(position)

    def brute_size(self, position: Heaps) -> BruteSize:
        """Every heap tuple below ``position``, each listing at most the sum of the heaps.

        >>> from nimlab.catalogue import make_game
        >>> make_game("nim").brute_size((5, 6, 7))
        BruteSize(states=336, options=18, scale=1.0)
        """
        return BruteSize(heap_product(position), sum(position))

    @property
    def rules(self) -> ImpartialGame[Any]:
        """Nim, wrapped by ``misere`` for misère play."""
        return misere(self) if self.misere else self

    @property
    def terminal_grundy(self) -> int:
        """1 under misère play (the player unable to move wins), else 0."""
        return 1 if self.misere else 0

    def grundy(self, position: Heaps) -> int:
        """The nim-sum, or under misère play the parity rule when no heap exceeds 1."""
        if self.misere and all(h <= 1 for h in position):
            return 1 - sum(position) % 2
        return reduce(xor, position, 0)

    def winning_moves(self, position: Heaps) -> list[CatalogueMove[Heaps]]:
        """Bouton's moves (misère: the parity endgame), from ``nimlab.nim``."""
        analysis = analyze_nim(position, misere=self.misere)
        return [
            CatalogueMove(m.apply(position), str(m), extra=(("heap", m.heap),))
            for m in analysis.winning_moves
        ]

    def explain(self, position: Heaps) -> RenderableType:
        """The heaps in binary with their nim-sum; the heaps a winning move reduces in green."""
        moves = analyze_nim(position, misere=self.misere).winning_moves
        table = nim_sum_table(
            [(heap_name(i), h) for i, h in enumerate(position)], {m.heap for m in moves}
        )
        parts: list[RenderableType] = [table]
        if self.misere and all(h <= 1 for h in position):
            parts.append(Text("Every heap has at most one counter: misère play goes by parity."))
        elif self.misere:
            parts.append(Text("Some heap has 2 or more counters: misère play follows the nim-sum"))
        return Group(*parts)

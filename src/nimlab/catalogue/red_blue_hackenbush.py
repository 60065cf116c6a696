"""Red-Blue Hackenbush stalks and their sums: exact dyadic values (the catalogue article).

A stalk is a path of edges from the ground, written bottom-up: ``B`` (blue, Left's) and ``R``
(red, Right's). A move deletes an edge of one's own colour together with everything above it;
who cannot move loses. Every position is a number; its value is computed by Berlekamp's
sign-expansion rule: the edges of the first run (all one colour, starting at the ground) are
worth 1 each, + for blue and - for red; from the first change of colour on, the edges are worth
1/2, 1/4, 1/8, ..., with their own signs. A sum of stalks is worth the sum of the values. The
outcome: ``L`` if the value is positive (Left wins whoever starts), ``R`` if negative, ``P``
(the second player wins) if 0. The brute-force twin computes the value as the simplest number
between the options, and the outcome by plain minimax.

The catalogue article phrases the rule over a list of numbers, {4, 8, 9, 11, 16}, without saying
what a number means. Read bottom-up, an even number being a blue edge and an odd one a red edge, it
is the stalk BBRRB, whose value is 1 + 1 - 1/2 - 1/4 + 1/8 = 11/8, the article's "11V/8" (V = 1):
the parity only encodes the colour, and "half of the previous value" means half of the previous
edge's *weight*, starting from 1/2 at the first change of colour.

>>> from nimlab.catalogue import make_game
>>> game = make_game("red-blue-hackenbush")
>>> stalks = game.parse_position("BBRRB")
>>> str(game.value(stalks)), game.outcome(stalks).value, str(game.brute_value(stalks))
('11/8', 'L', '11/8')
>>> both = game.parse_position("BR,RB")
>>> str(game.value(both)), game.outcome(both).value
('0', 'P')
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from itertools import product

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from nimlab.budget import Cost, saturated
from nimlab.catalogue.base import (
    CatalogueGame,
    CatalogueMove,
    output_cost,
    unique_moves,
)
from nimlab.catalogue.brute import BruteSize, heap_product
from nimlab.catalogue.registry import register
from nimlab.cgt.game import simplest_between
from nimlab.core.game import Outcome
from nimlab.core.heaps import heap_name
from nimlab.errors import InvalidPositionError
from nimlab.exact import exact_str

__all__ = ["RedBlueHackenbushEntry", "stalk_value"]

Stalks = tuple[str, ...]
LEFT, RIGHT = "B", "R"


def edge_weights(stalk: str) -> list[Fraction]:
    """The signed worth of each edge of a stalk, bottom-up (sign expansion).

    >>> [str(w) for w in edge_weights("BBRRB")]
    ['1', '1', '-1/2', '-1/4', '1/8']
    """
    weights = []
    weight = Fraction(1)
    for index, colour in enumerate(stalk):
        if index and (weight < 1 or colour != stalk[0]):
            weight /= 2
        weights.append(weight if colour == LEFT else -weight)
    return weights


def stalk_value(stalk: str) -> Fraction:
    """The value of one stalk.

    >>> [str(stalk_value(s)) for s in ("", "B", "BR", "RB", "BRR", "BRB", "RRB")]
    ['0', '1', '1/2', '-1/2', '1/4', '3/4', '-3/2']
    """
    return sum(edge_weights(stalk), Fraction(0))


def _cut(stalks: Stalks, index: int, edge: int) -> Stalks:
    """Delete edge ``edge`` of stalk ``index`` and everything above it."""
    rest = stalks[index][:edge]
    return (*stalks[:index], *((rest,) if rest else ()), *stalks[index + 1 :])


def options(stalks: Stalks, colour: str) -> Iterator[tuple[Stalks, str]]:
    """The positions after a move by the player owning ``colour``, with descriptions."""
    for index, stalk in enumerate(stalks):
        for edge, c in enumerate(stalk):
            if c == colour:
                yield (
                    _cut(stalks, index, edge),
                    f"cut {heap_name(index, 'stalk')} at edge {edge + 1}",
                )


@cache
def _brute_value(stalks: Stalks) -> Fraction:
    lefts = [_brute_value(q) for q, _ in options(stalks, LEFT)]
    rights = [_brute_value(q) for q, _ in options(stalks, RIGHT)]
    return simplest_between(max(lefts, default=None), min(rights, default=None))


@cache
def _first_wins(stalks: Stalks, colour: str) -> bool:
    """Whether the owner of ``colour``, moving first, wins (plain minimax)."""
    other = RIGHT if colour == LEFT else LEFT
    return any(not _first_wins(q, other) for q, _ in options(stalks, colour))


@register
class RedBlueHackenbushEntry(CatalogueGame[Stalks]):
    """Red-Blue Hackenbush stalks (Blue = Left, Red = Right)."""

    name = "red-blue-hackenbush"
    aliases = ("blue-red-hackenbush",)
    summary = "Left deletes a blue edge, Right a red one, with everything above it."
    notation = "stalks from the ground up, B/R, joined by ','"
    example = "BBRB,RRB"
    impartial = False

    def parse_position(self, text: str) -> Stalks:
        """Stalks of ``B`` and ``R``; the empty string is the empty position."""
        if not text.strip():
            return ()
        stalks = []
        for token in text.split(","):
            stalk = token.strip()
            if not stalk or set(stalk) - {LEFT, RIGHT}:
                raise InvalidPositionError(
                    f"invalid stalk {token!r}: a stalk is a non-empty string of B and R"
                )
            stalks.append(stalk)
        return tuple(stalks)

    def format_position(self, position: Stalks) -> str:
        """``BBRB,RRB``."""
        return ",".join(position)

    def moves(self, position: Stalks, /) -> Iterator[Stalks]:
        """Both players' moves."""
        for colour in (LEFT, RIGHT):
            yield from (q for q, _ in options(position, colour))

    def value(self, position: Stalks) -> Fraction:
        """The sum of the stalks' values."""
        return sum(map(stalk_value, position), Fraction(0))

    def outcome(self, position: Stalks) -> Outcome:
        """L, R or P by the sign of the value."""
        value = self.value(position)
        return Outcome.L if value > 0 else Outcome.R if value < 0 else Outcome.P

    def winning_moves(self, position: Stalks) -> list[CatalogueMove[Stalks]]:
        """Left's moves to a value >= 0, Right's to a value <= 0 (each wins moving first)."""
        result = []
        for colour, player, sign in ((LEFT, "L", 1), (RIGHT, "R", -1)):
            for q, label in options(position, colour):
                if sign * self.value(q) >= 0:
                    result.append(CatalogueMove(q, label, player=player))
        return unique_moves(result)

    def analysis_cost(self, position: Stalks, text: str) -> Cost:
        """Each of the E edges is a move whose position is valued again: about 8 µs x E^2
        (measured, BENCHMARKS.md), and at most E winning moves written.

        >>> from nimlab.catalogue import make_game
        >>> round(make_game("red-blue-hackenbush").analysis_cost(("BR",) * 500, "BR").seconds)
        8
        """
        edges = sum(len(stalk) for stalk in position)
        return Cost(8e-6 * saturated(edges**2), 0) + output_cost(edges * (len(text) + 1))

    def explain(self, position: Stalks) -> RenderableType:
        """Each stalk's edges with their signed worth."""
        table = Table("stalk", "edges (bottom-up) and worth", "value", box=None)
        for index, stalk in enumerate(position):
            weights = zip(stalk, edge_weights(stalk), strict=True)
            worth = " ".join(f"{c}:{exact_str(w)}" for c, w in weights)
            table.add_row(str(index + 1), worth, exact_str(stalk_value(stalk)))
        table.add_row("sum", "", exact_str(self.value(position)), style="bold")
        rule = (
            "Edges of the first run are worth 1 each (+ blue, - red); from the first change of "
            "colour on, 1/2, 1/4, ... with their own sign."
        )
        return Group(Text(rule), table)

    def small_positions(self, size: int) -> Iterator[Stalks]:
        """Up to two stalks of up to ``size + 2`` edges."""
        stalks = ["".join(s) for n in range(1, size + 3) for s in product((LEFT, RIGHT), repeat=n)]
        yield ()
        yield from ((s,) for s in stalks)
        yield from ((s, t) for s in stalks for t in stalks if len(s) + len(t) <= size + 3)

    def random_position(self, rng: random.Random, size: int) -> Stalks:
        """1 to 3 stalks of up to ``size`` edges."""
        return tuple(
            "".join(rng.choice((LEFT, RIGHT)) for _ in range(rng.randint(1, max(1, size))))
            for _ in range(rng.randint(1, 3))
        )

    # -- brute-force twin: simplest-number search and plain minimax ------------------------
    def brute_size(self, position: Stalks) -> BruteSize:
        """Each stalk cut to one of its prefixes: the product of length + 1; one move per
        edge. Three searches share the positions (the value, and who wins moving first for
        each player).

        >>> from nimlab.catalogue import make_game
        >>> make_game("red-blue-hackenbush").brute_size(("BBRB", "RRB"))
        BruteSize(states=20, options=7, scale=3.0)
        """
        edges = sum(len(stalk) for stalk in position)
        return BruteSize(heap_product(len(stalk) for stalk in position), edges, scale=3.0)

    def _check_size(self, position: Stalks) -> tuple[str, ...]:
        """The sorted position, after checking the search's estimate against the limit."""
        self.check_brute(position)
        return tuple(sorted(position))

    def brute_value(self, position: Stalks) -> Fraction:
        """The value as the simplest number between the options' values (by search)."""
        return _brute_value(self._check_size(position))

    def brute_outcome(self, position: Stalks) -> Outcome:
        """Minimax: who wins moving first, and who moving second."""
        key = self._check_size(position)
        left_first, right_first = _first_wins(key, LEFT), _first_wins(key, RIGHT)
        if left_first and right_first:
            return Outcome.N
        if left_first:
            return Outcome.L
        return Outcome.R if right_first else Outcome.P

    def brute_winning_moves(self, position: Stalks) -> set[tuple[str | None, Stalks]]:
        """Moves after which the opponent, moving first, loses (by minimax)."""
        self._check_size(position)
        found: set[tuple[str | None, Stalks]] = set()
        for colour, player, other in ((LEFT, "L", RIGHT), (RIGHT, "R", LEFT)):
            for q, _ in options(position, colour):
                if not _first_wins(tuple(sorted(q)), other):
                    found.add((player, q))
        return found

    def step_consistent(self, position: Stalks) -> bool:
        """The value is the simplest number between the best options' values."""
        lefts = [self.value(q) for q, _ in options(position, LEFT)]
        rights = [self.value(q) for q, _ in options(position, RIGHT)]
        expected = simplest_between(max(lefts, default=None), min(rights, default=None))
        return self.value(position) == expected

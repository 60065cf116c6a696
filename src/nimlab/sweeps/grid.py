"""Parameter grids of a sweep: heap ranges like ``4..10,4..10,1`` and all positions up to a bound.

Positions are multisets: ``3,4`` and ``4,3`` are one position, written largest heap first.

>>> parse_grid("1..3,1..2")
[(1, 1), (2, 1), (2, 2), (3, 1), (3, 2)]
>>> bounded_positions(piles=2, largest=3)
[(1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3)]
>>> parse_codes("0.07, .77,0.07")
['0.07', '0.77']
>>> from nimlab.hidden.games import hidden_game
>>> game_positions(hidden_game("sn", "kayles"), "0..2,1")
['1,0', '1,1', '2,1']
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

from nimlab.budget import abridged, saturated_comb
from nimlab.core.heaps import Heaps, parse_heap
from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.specs import GRUNDY_GAME

if TYPE_CHECKING:
    from nimlab.hidden.games import HiddenGame

__all__ = [
    "DEFAULT_MAX_TASKS",
    "bounded_positions",
    "game_positions",
    "parse_codes",
    "parse_grid",
]

DEFAULT_MAX_TASKS = 1_000_000
"""The most tasks one sweep builds unless ``--max-tasks`` says otherwise."""


def _parse_axis(token: str, grid: str) -> range:
    """One heap of the grid: ``a`` or the inclusive range ``a..b``."""
    low, dots, high = token.partition("..")
    if not dots:
        value = parse_heap(token)
        return range(value, value + 1)
    first, last = parse_heap(low), parse_heap(high)
    if first > last:
        raise InvalidPositionError(
            f"empty range {token.strip()!r} in grid {grid!r}: a..b needs a <= b"
        )
    return range(first, last + 1)


def _check_size(count: int | float, limit: int) -> None:
    """Refuse more than ``limit`` tasks (``count`` may be exact or, beyond a float, saturated).

    >>> _check_size(10**400, 10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    nimlab.errors.TooLargeError: the sweep has 10000000000000…00000000000000 (401 digits) tasks, ...
    """
    if count > limit:
        shown = abridged(count) if isinstance(count, int) else f"about {count:.3g}"
        raise TooLargeError(
            f"the sweep has {shown} tasks, more than the limit {limit}; raise it with --max-tasks",
            estimate=int(min(count, 2**62)),
            limit=limit,
        )


def parse_grid(grid: str, *, max_tasks: int = DEFAULT_MAX_TASKS) -> list[Heaps]:
    """Every position of ``grid`` (heaps separated by ``,``, each ``a`` or ``a..b``), each
    multiset once, sorted; refuses grids of more than ``max_tasks`` cells (TooLargeError).

    >>> parse_grid("2..1")
    Traceback (most recent call last):
    ...
    nimlab.errors.InvalidPositionError: empty range '2..1' in grid '2..1': a..b needs a <= b
    """
    tokens = [token for token in grid.split(",")]
    if not grid.strip() or any(not token.strip() for token in tokens):
        raise InvalidPositionError(f"bad grid {grid!r}: give heaps like 4..10,4..10,1")
    axes = [_parse_axis(token, grid) for token in tokens]
    _check_size(math.prod(axis.stop - axis.start for axis in axes), max_tasks)
    positions = {tuple(sorted(cell, reverse=True)) for cell in itertools.product(*axes)}
    return sorted(positions)


def game_positions(
    hidden: HiddenGame, grid: str, *, max_tasks: int = DEFAULT_MAX_TASKS
) -> list[str]:
    """The positions of ``grid`` for a hidden game whose components are heaps or rows (the
    grid's numbers are heap sizes or row lengths), in the game's notation, each multiset once,
    sorted. Stalks and counters are not sizes: such games are refused.

    >>> from nimlab.hidden.games import hidden_game
    >>> game_positions(hidden_game("kn", "red-blue-hackenbush"), "1..3")
    Traceback (most recent call last):
    ...
    nimlab.errors.InvalidPositionError: a grid of sizes gives no red-blue-hackenbush position \
(its components are stalks, not heaps or rows): solve its positions one by one
    """
    from nimlab.hidden.components import GrundyRow, HeapComponent, OctalRow

    if not isinstance(hidden.component, HeapComponent | OctalRow | GrundyRow):
        raise InvalidPositionError(
            f"a grid of sizes gives no {hidden.game} position (its components are "
            f"{hidden.component.unit}s, not heaps or rows): solve its positions one by one"
        )
    return [",".join(map(str, sizes)) for sizes in parse_grid(grid, max_tasks=max_tasks)]


def bounded_positions(
    *, piles: int, largest: int, max_tasks: int = DEFAULT_MAX_TASKS
) -> list[Heaps]:
    """Every position of ``piles`` piles of sizes ``1..largest`` (as multisets), sorted."""
    if piles < 1 or largest < 1:
        raise InvalidPositionError(
            f"--piles and --max must be at least 1, got {piles} and {largest}"
        )
    _check_size(saturated_comb(largest + piles - 1, piles), max_tasks)
    sizes = range(largest, 0, -1)
    return sorted(itertools.combinations_with_replacement(sizes, piles))


def parse_codes(codes: str, *, max_tasks: int = DEFAULT_MAX_TASKS) -> list[str]:
    """The comma-separated octal codes, canonical (``.07`` -> ``0.07``), each once, in order.

    ``A..B`` stands for every code from ``A`` to ``B`` counting in octal, both written with the
    same number of digits after the point (codes with a digit 1-3 or 5-7 before the point,
    which are not games, are left out). The name ``grundy-game`` stands for Grundy's game.

    >>> parse_codes("0.15..0.21")
    ['0.15', '0.16', '0.17', '0.2', '0.21']
    >>> parse_codes("grundy-game,.07")
    ['grundy-game', '0.07']
    """
    from nimlab.octal import OctalCode

    seen: dict[str, None] = {}
    for token in codes.split(","):
        if not token.strip():
            raise InvalidPositionError(f"bad code list {codes!r}: give codes like 0.07,0.77")
        if token.strip() == GRUNDY_GAME:  # not an octal game: its name stands for it
            seen[GRUNDY_GAME] = None
            continue
        low, dots, high = token.partition("..")
        texts = _code_range(low, high, max_tasks) if dots else [token]
        for text in texts:
            seen[str(OctalCode.parse(text))] = None
        _check_size(len(seen), max_tasks)
    return list(seen)


def _code_range(low: str, high: str, max_tasks: int) -> list[str]:
    """Every code from ``low`` to ``high`` (same number of digits after the point)."""
    from nimlab.octal import OctalCode

    first, last = str(OctalCode.parse(low)), str(OctalCode.parse(high))  # validates both
    width = len(low.strip().partition(".")[2])
    if width != len(high.strip().partition(".")[2]) or width == 0:
        raise InvalidPositionError(
            f"code range {low.strip()}..{high.strip()}: write both ends with the same number "
            "of digits after the point, e.g. 0.01..0.77"
        )

    def number(text: str) -> int:
        head, _, tail = text.strip().partition(".")
        return int((head or "0") + tail, 8)

    start, stop = number(low), number(high)
    if start > stop:
        raise InvalidPositionError(f"empty code range {first}..{last}: the first is larger")
    _check_size(stop - start + 1, max_tasks)
    texts = []
    for value in range(start, stop + 1):
        digits = format(value, "o").rjust(width + 1, "0")
        if digits[0] in "04":
            texts.append(f"{digits[:-width]}.{digits[-width:]}")
    return texts

"""Domineering: exact values by regions, symmetries and memoised canonical forms.

A board is written as rows separated by ``/``: ``.`` an empty cell, ``#`` a blocked one.
Left places vertical dominoes, Right horizontal ones (as CGSuite and pycgt); who cannot
place loses. A position's value is the sum of the values of its connected regions of empty
cells; each region is valued once up to the symmetries that keep the players (reflections in
the two axes), its transpose being its negative; a region where only one player can move is
the integer counting that player's disjoint dominoes.

>>> [str(domineering(board)) for board in ("..", "./.", "../..", "...")]
['-1', '1', '±1', '-1']
>>> str(domineering(".../...")), str(domineering("..../....")), str(domineering(".../.../..."))
('{2|-1/2}', '{2|0||0}', '±1')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from nimlab.cgt.game import ZERO, Game, _canonical, integer, sum_games
from nimlab.errors import InvalidPositionError

__all__ = [
    "Board",
    "brute_value",
    "domineering",
    "empty_cells",
    "first_player_wins",
    "format_board",
    "parse_board",
    "region_count",
]


@dataclass(frozen=True)
class Board:
    """A rectangular board: ``height`` rows of ``width`` cells; bit ``r * width + c`` of
    ``empty`` is set when cell (r, c) is empty."""

    height: int
    width: int
    empty: int

    def moves(self, player: str) -> Iterator[tuple[Board, tuple[int, int]]]:
        """Boards after each move of ``player`` (``L`` vertical, ``R`` horizontal), with the
        two cells (bit indices) covered."""
        w = self.width
        m = self.empty
        pairs = _vertical(m, w) if player == "L" else _horizontal(m, self.height, w)
        step = w if player == "L" else 1
        while pairs:
            low = pairs & -pairs
            i = low.bit_length() - 1
            yield Board(self.height, w, m & ~(low | (low << step))), (i, i + step)
            pairs ^= low


def _vertical(m: int, w: int) -> int:
    return m & (m >> w)


@cache
def _masks(h: int, w: int) -> tuple[int, int, int]:
    """(cells not in column 0, cells not in the last column, one full row)."""
    row = (1 << w) - 1
    first = sum(1 << (r * w) for r in range(h))
    last = first << (w - 1)
    full = (1 << (h * w)) - 1
    return full & ~first, full & ~last, row


def _horizontal(m: int, h: int, w: int) -> int:
    return m & (m >> 1) & _masks(h, w)[1]


def parse_board(text: str) -> Board:
    """A board from ``rows/separated/by/slashes`` (``.`` empty, ``#`` blocked).

    >>> parse_board("..#/...")
    Board(height=2, width=3, empty=59)
    >>> parse_board("../.")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: invalid board '../.': row 2 has 1 cells, row 1 has 2 ...
    """
    rows = [r.strip() for r in text.strip().split("/")]
    if not rows or not rows[0]:
        raise InvalidPositionError(f"invalid board {text!r}: rows of '.' and '#' joined by '/'")
    for index, row in enumerate(rows):
        bad = set(row) - {".", "#"}
        if bad:
            raise InvalidPositionError(
                f"invalid board {text!r}: unexpected {sorted(bad)[0]!r} in row {index + 1}"
                " (use '.' for an empty cell, '#' for a blocked one)"
            )
        if len(row) != len(rows[0]):
            raise InvalidPositionError(
                f"invalid board {text!r}: row {index + 1} has {len(row)} cells, row 1 has"
                f" {len(rows[0])} (the board must be a rectangle)"
            )
    w = len(rows[0])
    empty = 0
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == ".":
                empty |= 1 << (r * w + c)
    return Board(len(rows), w, empty)


def format_board(board: Board) -> str:
    """The notation of ``board`` (``parse_board`` inverts it)."""
    return "/".join(
        "".join(
            "." if board.empty >> (r * board.width + c) & 1 else "#" for c in range(board.width)
        )
        for r in range(board.height)
    )


# -- regions ----------------------------------------------------------------------------------
def _components(h: int, w: int, m: int) -> list[tuple[int, int, int]]:
    """The connected regions of empty cells (lone cells dropped), each cropped to its
    bounding box."""
    not_first, not_last, row = _masks(h, w)
    result = []
    while m:
        comp = m & -m
        while True:
            grown = (
                comp
                | ((comp << 1) & not_first)
                | ((comp >> 1) & not_last)
                | (comp << w)
                | (comp >> w)
            ) & m
            if grown == comp:
                break
            comp = grown
        m ^= comp
        if comp & (comp - 1) == 0:
            continue  # a lone cell: nobody can use it
        r0 = ((comp & -comp).bit_length() - 1) // w
        r1 = (comp.bit_length() - 1) // w
        spread = 0
        for r in range(r0, r1 + 1):
            spread |= comp >> (r * w)
        spread &= row
        c0 = (spread & -spread).bit_length() - 1
        c1 = spread.bit_length() - 1
        if c0 == 0 and c1 == w - 1:
            result.append((r1 - r0 + 1, w, comp >> (r0 * w)))
            continue
        nw = c1 - c0 + 1
        narrow = (1 << nw) - 1
        cropped = 0
        for r in range(r0, r1 + 1):
            cropped |= ((comp >> (r * w + c0)) & narrow) << ((r - r0) * nw)
        result.append((r1 - r0 + 1, nw, cropped))
    return result


def _rows(h: int, w: int, m: int) -> list[int]:
    row = (1 << w) - 1
    return [(m >> (r * w)) & row for r in range(h)]


def _pack(rows: list[int], w: int) -> int:
    m = 0
    for r, bits in enumerate(rows):
        m |= bits << (r * w)
    return m


@lru_cache(maxsize=1 << 16)
def _reverse_bits(bits: int, w: int) -> int:
    return int(format(bits, f"0{w}b")[::-1], 2)


def _transpose(rows: list[int], h: int, w: int) -> list[int]:
    return [sum(((rows[r] >> c) & 1) << r for r in range(h)) for c in range(w)]


def _canonical_key(h: int, w: int, m: int) -> tuple[tuple[int, int, int], bool]:
    """The least of the 8 images of the region under the square's symmetries, and whether it
    is a transposed image (whose value is the negative)."""
    rows = _rows(h, w, m)
    cols = _transpose(rows, h, w)
    best: tuple[int, int, int] | None = None
    negated = False
    for hh, ww, rr, neg in ((h, w, rows, False), (w, h, cols, True)):
        for flip_rows in (False, True):
            base = rr[::-1] if flip_rows else rr
            for flip_cols in (False, True):
                image = [_reverse_bits(b, ww) for b in base] if flip_cols else base
                key = (hh, ww, _pack(image, ww))
                if best is None or key < best:
                    best, negated = key, neg
    assert best is not None
    return best, negated


_REGIONS: dict[tuple[int, int, int], Game] = {}


def region_count() -> int:
    """How many regions are memoised (for benchmarks)."""
    return len(_REGIONS)


def _one_sided(h: int, w: int, m: int, vertical: bool) -> int:
    """Disjoint dominoes in a region where only one direction fits: runs in each column
    (vertical) or row, each worth half its length."""
    rows = _rows(h, w, m)
    lines = _transpose(rows, h, w) if vertical else rows
    total = 0
    for bits in lines:
        run = 0
        while bits:
            if bits & 1:
                run += 1
            else:
                total += run // 2
                run = 0
            bits >>= 1
        total += run // 2
    return total


def _region_value(h: int, w: int, m: int) -> Game:
    key = (h, w, m)
    found = _REGIONS.get(key)
    if found is not None:
        return found
    canon, negated = _canonical_key(h, w, m)
    value = _REGIONS.get(canon)
    if value is None:
        value = _compute(*canon)
        _REGIONS[canon] = value
    result = -value if negated else value
    _REGIONS[key] = result
    return result


def _compute(h: int, w: int, m: int) -> Game:
    vertical = _vertical(m, w)
    horizontal = _horizontal(m, h, w)
    if not vertical and not horizontal:
        return ZERO
    if not horizontal:
        return integer(_one_sided(h, w, m, True))
    if not vertical:
        return integer(-_one_sided(h, w, m, False))
    board = Board(h, w, m)
    lefts = {_board_value(b) for b, _ in board.moves("L")}
    rights = {_board_value(b) for b, _ in board.moves("R")}
    return _canonical(list(lefts), list(rights))


def _board_value(board: Board) -> Game:
    return sum_games(_region_value(*c) for c in _components(board.height, board.width, board.empty))


def domineering(position: str | Board) -> Game:
    """The canonical value of a Domineering position.

    >>> str(domineering("####/#..#/#..#"))
    '±1'
    """
    board = parse_board(position) if isinstance(position, str) else position
    return _board_value(board)


# -- brute-force twins (no regions, no symmetry, no shortcut) ---------------------------------
def brute_value(position: str | Board) -> Game:
    """The value by plain recursion over the whole board (for tests)."""
    from nimlab.cgt.game import game

    board = parse_board(position) if isinstance(position, str) else position
    memo: dict[Board, Game] = {}

    def value(b: Board) -> Game:
        if b not in memo:
            memo[b] = game([value(q) for q, _ in b.moves("L")], [value(q) for q, _ in b.moves("R")])
        return memo[b]

    return value(board)


def first_player_wins(position: str | Board, player: str) -> bool:
    """Whether ``player`` (``L``/``R``) wins moving first, by plain minimax."""
    board = parse_board(position) if isinstance(position, str) else position
    memo: dict[tuple[Board, str], bool] = {}

    def wins(b: Board, p: str) -> bool:
        key = (b, p)
        if key not in memo:
            other = "R" if p == "L" else "L"
            memo[key] = any(not wins(q, other) for q, _ in b.moves(p))
        return memo[key]

    return wins(board, player)


def empty_cells(board: Board) -> int:
    """How many cells are empty."""
    return bin(board.empty).count("1")

"""Component games: the pieces of a disjunctive sum that the hidden-information rules hide.

A *component type* says what one component is: its hashable, canonical states and the moves
of each player (0 = Left/Blue, 1 = Right/Red; impartial types ignore the player), each move
named by a :data:`Label`. A label names the move *in the game's own terms, independently of
the state it is made in* ("remove 2", "remove 2 counters starting at position 3", "cut edge
4"), so that the same label can be asked for in every state the mover cannot exclude, as the
Kriegspiel rules need (:mod:`nimlab.hidden.transforms`). :meth:`ComponentType.moves` lists
the legal ones, sorted by label; the same label in two states removes the same chips, the
same counters, the same edges.

The types, and the catalogue games they come from (:func:`components_for`):

- :class:`NimHeap` (``nim``, and ``nimble``: a coin on square ``k`` is a Nim heap of ``k``):
  label ``(i,)``, remove ``i``;
- :class:`SubtractionHeap` (``subtraction`` with ``--set S`` or ``--max K``): ``(s,)``,
  remove ``s``;
- :class:`OctalRow` (``octal`` with ``--code``, ``kayles`` = 0.77, ``dawson-kayles`` = 0.07):
  the original row of ``n`` counters at positions ``1..n``; ``(p, r)`` removes the ``r``
  counters at ``p..p+r-1`` of one part, allowed when the code's digit ``d_r`` allows the number
  of non-empty parts it leaves of that part (``r = 0``, digit 4: split the part before ``p``).
  The pieces stay in the row (a row with gaps), so a move never adds a component;
- :class:`GrundyRow` (``grundy-game``): ``(p, k)`` splits the part starting at ``p`` after
  ``k`` counters into two unequal non-empty parts;
- :class:`Nim2dCounter` (``nim2d``): a counter ``x:y``; ``(0, i)`` slides it ``i`` to the
  left, ``(1, i)`` ``i`` down;
- :class:`HackenbushStalk` (``red-blue-hackenbush``, partizan): a string of ``B``/``R`` from
  the ground up; ``(e,)`` cuts edge ``e`` (1-based from the ground), Blue's for Left, Red's
  for Right, and everything above it;
- :class:`~nimlab.hidden.boards.DomineeringBoard` (``domineering``) and
  :class:`~nimlab.hidden.boards.HackenbushGraph` (``hackenbush``), partizan: the whole board,
  the whole graph, as *one* component (see :mod:`nimlab.hidden.boards`).

A position is a tuple of components in the order given: a component keeps its identity (the
catalogue sorts ``nimble``'s coins and ``nim2d``'s counters; here they are not sorted).

Catalogue games with no natural components, and so not here:

- ``wythoff``: one queen on a board (a move may change both piles at once);
- ``staircase``: a move carries coins from one step to the next, so the steps interact;
- ``poker-nim`` and ``skip-nim``: the allowances of additions and of skips belong to the
  players, not to a heap, and a skip is a move in no heap;
- ``turning-turtles`` and ``twins``: a move may turn a coin that is another head, so the
  heads (Nim heaps in value only) do not move independently;
- ``silver-dollar``: coins block one another;
- ``prime-power``: one number; its prime exponents are Nim heaps in value, but the notation
  gives no component to hide;
- ``green-hackenbush``: a graph, whose parts above the ground may fall apart into more
  pieces than it had, and is not written as a sum (``hackenbush`` with green edges plays it
  as one component).

>>> kayles = components_for("kayles")
>>> row = kayles.parse("4")
>>> [kayles.label_text(label) for label, _ in kayles.moves(row, 0)][:3]
['remove 1 at 1', 'remove 2 at 1', 'remove 1 at 2']
>>> [kayles.format(after) for _, after in kayles.moves(row, 0)]
['.xxx', '..xx', 'x.xx', 'x..x', 'xx.x', '2', '3']
>>> stalk = HackenbushStalk()
>>> stalk.moves("BRB", 0), stalk.moves("BRB", 1)
((((1,), ''), ((3,), 'BR')), (((2,), 'B'),))
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from nimlab.catalogue import GameOptions, find_game, make_game
from nimlab.core.heaps import parse_heap
from nimlab.errors import InvalidPositionError
from nimlab.hidden.boards import DomineeringBoard, HackenbushGraph
from nimlab.hidden.component_base import ComponentType, Label
from nimlab.octal import OctalCode

__all__ = [
    "NO_COMPONENTS",
    "ComponentType",
    "GrundyRow",
    "HackenbushStalk",
    "HeapComponent",
    "Label",
    "Nim2dCounter",
    "NimHeap",
    "OctalRow",
    "Row",
    "SubtractionHeap",
    "components_for",
]


Row = tuple[tuple[int, int], ...]
"""A row with gaps: its parts as ``(start, length)``, by increasing start (positions 1-based)."""


class HeapComponent(ComponentType[int]):
    """A heap of chips whose moves remove an *amount* (label ``(amount,)``).

    Only such components give a meaning to "an over-large request empties the heap" (the
    Kriegspiel-empty rules): a request names an amount that may exceed the heap. A row's
    request names counters by position and a stalk's names an edge; asking for ones that are
    gone has no "as much as there is" reading, so those rules refuse other components.
    """

    unit = "heap"

    @abstractmethod
    def amounts(self, upto: int) -> tuple[int, ...]:
        """Every amount a move may remove that is at most ``upto``, increasing."""

    @abstractmethod
    def amount_above(self, size: int) -> int | None:
        """The smallest amount a move may remove that exceeds ``size`` (``None``: none)."""

    def moves(self, state: int, player: int) -> tuple[tuple[Label, int], ...]:
        """Remove a legal amount."""
        return tuple(((i,), state - i) for i in self.amounts(state))

    def play(self, state: int, label: Label, player: int) -> int | None:
        """Remove ``label[0]`` if that amount is legal."""
        i = label[0]
        return state - i if i <= state and i in self.amounts(i) else None

    def has_move(self, state: int, player: int) -> bool:
        """Some amount fits."""
        return bool(self.amounts(state))

    def label_text(self, label: Label) -> str:
        """``remove i``."""
        return f"remove {label[0]}"

    def move_text(self, index: int, label: Label) -> str:
        """The paper's notation ``j_i``: remove ``i`` from heap ``j`` (1-based)."""
        return f"{index + 1}_{label[0]}"

    def describe(self, state: int) -> str:
        """``5 chips``."""
        return f"{state} chip" + ("" if state == 1 else "s")

    def parse(self, text: str) -> int:
        """A heap size."""
        return parse_heap(text)

    def format(self, state: int) -> str:
        """The size."""
        return str(state)


@dataclass(frozen=True)
class NimHeap(HeapComponent):
    """A Nim heap: remove any positive amount.

    >>> NimHeap().moves(3, 0)
    (((1,), 2), ((2,), 1), ((3,), 0))
    """

    @property
    def name(self) -> str:
        """``nim``."""
        return "nim"

    def amounts(self, upto: int) -> tuple[int, ...]:
        """``1..upto``."""
        return tuple(range(1, upto + 1))

    def amount_above(self, size: int) -> int | None:
        """``size + 1``."""
        return size + 1

    def play(self, state: int, label: Label, player: int) -> int | None:
        """Any amount up to the heap."""
        return state - label[0] if 0 < label[0] <= state else None

    def has_move(self, state: int, player: int) -> bool:
        """A non-empty heap."""
        return state > 0


@dataclass(frozen=True)
class SubtractionHeap(HeapComponent):
    """A subtraction heap: remove ``s`` in the set ``allowed`` (``--set``), or ``1..max_take``
    (``--max``); exactly one is given.

    >>> SubtractionHeap(allowed=(1, 3)).moves(4, 0), SubtractionHeap(max_take=2).name
    ((((1,), 3), ((3,), 1)), 'subtraction(max=2)')
    """

    allowed: tuple[int, ...] | None = None
    max_take: int | None = None

    def __post_init__(self) -> None:
        if (self.allowed is None) == (self.max_take is None):
            raise InvalidPositionError("a subtraction heap needs exactly one of a set and a max")
        if self.allowed is not None:
            object.__setattr__(self, "allowed", tuple(sorted(set(self.allowed))))

    @property
    def name(self) -> str:
        """``subtraction(S=1,3)`` or ``subtraction(max=K)``, as the catalogue's spec."""
        if self.allowed is not None:
            return f"subtraction(S={','.join(map(str, self.allowed))})"
        return f"subtraction(max={self.max_take})"

    def amounts(self, upto: int) -> tuple[int, ...]:
        """The allowed amounts up to ``upto``."""
        if self.allowed is not None:
            return tuple(s for s in self.allowed if s <= upto)
        return tuple(range(1, min(upto, self.max_take or 0) + 1))

    def amount_above(self, size: int) -> int | None:
        """The least allowed amount above ``size``."""
        if self.allowed is not None:
            return next((s for s in self.allowed if s > size), None)
        return size + 1 if size < (self.max_take or 0) else None


class _RowType(ComponentType[Row]):
    """A row of counters at positions ``1..n`` that keeps its positions as parts are removed.

    Notation: a full row is its length (``5``, and ``0`` for nothing left); any other row is
    a picture of positions ``1..`` up to its last counter, ``x`` a counter, ``.`` a removed
    one, ``|`` a cut between adjacent parts (``xx.x|xx``).
    """

    unit = "row"

    def describe(self, state: Row) -> str:
        """The picture, and the parts' lengths."""
        lengths = "+".join(str(length) for _, length in state) or "0"
        return f"{_picture(state)} ({lengths})"

    def parse(self, text: str) -> Row:
        """A length or a picture."""
        if text.isdigit():
            n = parse_heap(text)
            return ((1, n),) if n else ()
        return _parse_picture(text)

    def format(self, state: Row) -> str:
        """The length of a full row, else the picture."""
        if not state:
            return "0"
        if len(state) == 1 and state[0][0] == 1:
            return str(state[0][1])
        return _picture(state)


def _picture(state: Row) -> str:
    out: list[str] = []
    end = 1
    for start, length in state:
        if start == end and out:
            out.append("|")
        out.append("." * (start - end) + "x" * length)
        end = start + length
    return "".join(out)


def _parse_picture(text: str) -> Row:
    if not text or set(text) - set("x.|") or "||" in text or text[0] == "|" or text[-1] == "|":
        raise InvalidPositionError(
            f"invalid row {text!r}: give a length, or a picture of x (counter), . (gap) and "
            "| (a cut between parts), e.g. xx.x|xx"
        )
    parts: list[tuple[int, int]] = []
    position, start = 1, 0
    for char in text + ".":
        if char == "x":
            start = start or position
            position += 1
            continue
        if start:
            parts.append((start, position - start))
            start = 0
        elif char == "|":
            raise InvalidPositionError(f"invalid row {text!r}: a cut | must be between counters")
        if char == ".":
            position += 1
    return tuple(parts)


@dataclass(frozen=True)
class OctalRow(_RowType):
    """A row of an octal game ``code``; ``title`` names the game (``kayles``, ...).

    ``(p, r)`` removes the ``r`` counters at ``p..p+r-1``, all in one part; the parts it
    leaves of that part (0, 1 or 2 non-empty) must be allowed by the digit ``d_r`` (1, 2, 4).

    >>> dawson = OctalRow(OctalCode.parse("0.07"), "dawson-kayles")
    >>> moves = dawson.moves(((1, 4),), 0)
    >>> [(dawson.label_text(move), dawson.format(after)) for move, after in moves]
    [('remove 2 at 1', '..xx'), ('remove 2 at 2', 'x..x'), ('remove 2 at 3', '2')]
    """

    code: OctalCode
    title: str = ""

    @property
    def name(self) -> str:
        """``title``, or ``octal(CODE)``."""
        return self.title or f"octal({self.code})"

    def moves(self, state: Row, player: int) -> tuple[tuple[Label, Row], ...]:
        """Every allowed removal, in every part."""
        result: list[tuple[Label, Row]] = []
        for index, (start, length) in enumerate(state):
            for r, digit in enumerate(self.code.digits[: length + 1]):
                for p in range(start, start + length - r + 1) if digit else ():
                    left, right = p - start, start + length - p - r
                    if digit & (1 << ((left > 0) + (right > 0))):
                        pieces = tuple(x for x in ((start, left), (p + r, right)) if x[1])
                        result.append(((p, r), (*state[:index], *pieces, *state[index + 1 :])))
        result.sort(key=lambda move: move[0])
        return tuple(result)

    def play(self, state: Row, label: Label, player: int) -> Row | None:
        """The removal ``label`` made directly, without listing every move (which a long
        row has hundreds of).

        >>> dawson = OctalRow(OctalCode.parse("0.07"), "dawson-kayles")
        >>> dawson.play(((1, 4),), (2, 2), 0), dawson.play(((1, 4),), (2, 1), 0)
        (((1, 1), (4, 1)), None)
        """
        p, r = label
        digits = self.code.digits
        if r == 0:  # a split: a cut may sit between two parts, so let the list decide
            return super().play(state, label, player)
        if r >= len(digits) or not digits[r]:
            return None
        for index, (start, length) in enumerate(state):
            if start <= p and p + r <= start + length:
                left, right = p - start, start + length - p - r
                if not digits[r] & (1 << ((left > 0) + (right > 0))):
                    return None
                pieces = tuple(x for x in ((start, left), (p + r, right)) if x[1])
                return (*state[:index], *pieces, *state[index + 1 :])
        return None

    def has_move(self, state: Row, player: int) -> bool:
        """Some part allows a removal (without listing the moves: beliefs ask this often).

        >>> dawson = OctalRow(OctalCode.parse("0.07"), "dawson-kayles")
        >>> dawson.has_move(((1, 1), (3, 1)), 0), dawson.has_move(((1, 2),), 0)
        (False, True)
        """
        return any(self._part_has_move(length) for _, length in state)

    def _part_has_move(self, length: int) -> bool:
        for r, digit in enumerate(self.code.digits[: length + 1]):
            parts_left = (r == length, r < length, r <= length - 2)  # 0, 1 or 2 parts
            if any(digit & (1 << k) and possible for k, possible in enumerate(parts_left)):
                return True
        return False

    def label_text(self, label: Label) -> str:
        """``remove r at p``, or ``split before p`` (``r = 0``)."""
        p, r = label
        return f"remove {r} at {p}" if r else f"split before {p}"


@dataclass(frozen=True)
class GrundyRow(_RowType):
    """A row of Grundy's game: ``(p, k)`` splits the part starting at ``p`` after ``k``
    counters, into two unequal non-empty parts.

    >>> GrundyRow().moves(((1, 4),), 0)
    (((1, 1), ((1, 1), (2, 3))), ((1, 3), ((1, 3), (4, 1))))
    """

    @property
    def name(self) -> str:
        """``grundy-game``."""
        return "grundy-game"

    def moves(self, state: Row, player: int) -> tuple[tuple[Label, Row], ...]:
        """Every unequal split of every part."""
        result: list[tuple[Label, Row]] = []
        for index, (start, length) in enumerate(state):
            for k in range(1, length):
                if 2 * k != length:
                    pieces = ((start, k), (start + k, length - k))
                    result.append(((start, k), (*state[:index], *pieces, *state[index + 1 :])))
        result.sort(key=lambda move: move[0])
        return tuple(result)

    def play(self, state: Row, label: Label, player: int) -> Row | None:
        """The split ``label`` made directly.

        >>> GrundyRow().play(((1, 4),), (1, 3), 0), GrundyRow().play(((1, 4),), (1, 2), 0)
        (((1, 3), (4, 1)), None)
        """
        p, k = label
        for index, (start, length) in enumerate(state):
            if start == p:
                if not 0 < k < length or 2 * k == length:
                    return None
                pieces = ((start, k), (start + k, length - k))
                return (*state[:index], *pieces, *state[index + 1 :])
        return None

    def has_move(self, state: Row, player: int) -> bool:
        """Some part has 3 counters or more (an unequal split)."""
        return any(length >= 3 for _, length in state)

    def label_text(self, label: Label) -> str:
        """``split p after k``."""
        return f"split {label[0]} after {label[1]}"


@dataclass(frozen=True)
class Nim2dCounter(ComponentType[tuple[int, int]]):
    """A counter of two-dimensional Nim at ``x:y``: ``(0, i)`` slides it left by ``i``,
    ``(1, i)`` down by ``i``.

    >>> Nim2dCounter().moves((1, 2), 0)
    (((0, 1), (0, 2)), ((1, 1), (1, 1)), ((1, 2), (1, 0)))
    """

    unit = "counter"

    @property
    def name(self) -> str:
        """``nim2d``."""
        return "nim2d"

    def moves(
        self, state: tuple[int, int], player: int
    ) -> tuple[tuple[Label, tuple[int, int]], ...]:
        """Decrease one coordinate."""
        x, y = state
        return (
            *(((0, i), (x - i, y)) for i in range(1, x + 1)),
            *(((1, i), (x, y - i)) for i in range(1, y + 1)),
        )

    def play(self, state: tuple[int, int], label: Label, player: int) -> tuple[int, int] | None:
        """The coordinate must be at least the distance."""
        axis, i = label
        if not 0 < i <= state[axis]:
            return None
        return (state[0] - i, state[1]) if axis == 0 else (state[0], state[1] - i)

    def label_text(self, label: Label) -> str:
        """``left i`` or ``down i``."""
        return f"{('left', 'down')[label[0]]} {label[1]}"

    def describe(self, state: tuple[int, int]) -> str:
        """``at x:y``."""
        return f"at {self.format(state)}"

    def parse(self, text: str) -> tuple[int, int]:
        """``x:y``, as ``analyze nim2d``."""
        x, colon, y = text.partition(":")
        if not colon:
            raise InvalidPositionError(
                f"invalid counter {text!r}: write x:y with non-negative integers, e.g. 1:2"
            )
        return parse_heap(x, what="coordinate"), parse_heap(y, what="coordinate")

    def format(self, state: tuple[int, int]) -> str:
        """``x:y``."""
        return f"{state[0]}:{state[1]}"


@dataclass(frozen=True)
class HackenbushStalk(ComponentType[str]):
    """A red-blue Hackenbush stalk, ``B``/``R`` from the ground up (Left = Blue = player 0).

    >>> stalk = HackenbushStalk()
    >>> stalk.play("BRB", (2,), 1), stalk.play("BRB", (2,), 0), stalk.is_empty("")
    ('B', None, True)
    """

    unit = "stalk"
    impartial = False

    @property
    def name(self) -> str:
        """``red-blue-hackenbush``."""
        return "red-blue-hackenbush"

    def moves(self, state: str, player: int) -> tuple[tuple[Label, str], ...]:
        """Cut an edge of one's colour, and all above it."""
        colour = "BR"[player]
        return tuple(((e,), state[: e - 1]) for e, c in enumerate(state, 1) if c == colour)

    def play(self, state: str, label: Label, player: int) -> str | None:
        """Edge ``label[0]`` must be there and of the player's colour."""
        e = label[0]
        return state[: e - 1] if 0 < e <= len(state) and state[e - 1] == "BR"[player] else None

    def label_text(self, label: Label) -> str:
        """``cut edge e``."""
        return f"cut edge {label[0]}"

    def describe(self, state: str) -> str:
        """The stalk, or ``cut down``."""
        return state or "cut down"

    def parse(self, text: str) -> str:
        """A non-empty string of ``B`` and ``R`` (as ``analyze``)."""
        if not text or set(text) - {"B", "R"}:
            raise InvalidPositionError(
                f"invalid stalk {text!r}: a stalk is a non-empty string of B and R"
            )
        return text

    def format(self, state: str) -> str:
        """The string itself (empty once cut down)."""
        return state


def _subtraction(options: GameOptions) -> ComponentType[Any]:
    return SubtractionHeap(allowed=options.subtraction_set, max_take=options.max_take)


def _octal(options: GameOptions) -> ComponentType[Any]:
    return OctalRow(OctalCode.parse(options.code or ""))


_TYPES: dict[str, Callable[[GameOptions], ComponentType[Any]]] = {
    "nim": lambda options: NimHeap(),
    "nimble": lambda options: NimHeap(),
    "subtraction": _subtraction,
    "octal": _octal,
    "kayles": lambda options: OctalRow(OctalCode.parse("0.77"), "kayles"),
    "dawson-kayles": lambda options: OctalRow(OctalCode.parse("0.07"), "dawson-kayles"),
    "grundy-game": lambda options: GrundyRow(),
    "nim2d": lambda options: Nim2dCounter(),
    "red-blue-hackenbush": lambda options: HackenbushStalk(),
    "domineering": lambda options: DomineeringBoard(),
    "hackenbush": lambda options: HackenbushGraph(),
}

COMPONENT_GAMES: tuple[str, ...] = tuple(_TYPES)
"""The catalogue games that are sums of components (and so have hidden versions)."""

NO_COMPONENTS: dict[str, str] = {
    "wythoff": "one queen on a board: a move may change both piles",
    "staircase": "a move carries coins from one step to the next",
    "poker-nim": "the additions left belong to the players, not to a heap",
    "skip-nim": "the skips belong to the players, and a skip is a move in no heap",
    "turning-turtles": "a move may turn a coin that is another head",
    "twins": "a move may turn a coin that is another head",
    "silver-dollar": "coins block one another",
    "prime-power": "the position is one number, with no component to hide",
    "green-hackenbush": "a graph, not written as a sum, whose parts may fall apart (play "
    "it as hackenbush with green edges: one component, the whole graph)",
}
"""Why each catalogue game without natural components is left out."""


def components_for(game: str, options: GameOptions | None = None) -> ComponentType[Any]:
    """The component type of catalogue game ``game`` (a name or alias) with ``options``.

    The options are checked as ``analyze`` checks them; ``misere`` is the play convention of
    the hidden game, not of a component, and is ignored here.

    >>> components_for("subtraction", GameOptions(subtraction_set=(3, 1))).name
    'subtraction(S=1,3)'
    >>> components_for("wythoff")
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: wythoff has no components to hide: one queen on a ...
    """
    options = replace(options or GameOptions(), misere=False)
    name = find_game(game).name
    if name not in _TYPES:
        why = NO_COMPONENTS.get(name, "it is not a sum of components")
        raise InvalidPositionError(f"{name} has no components to hide: {why}")
    make_game(name, options)
    return _TYPES[name](options)

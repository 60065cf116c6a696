"""Partizan games played on one whole board or graph, as single components to hide.

- :class:`DomineeringBoard` (``domineering``): the state is the board in its notation (rows
  joined by ``/``, ``.`` an empty cell, ``#`` a blocked *or occupied* one). Left (player 0)
  places vertical dominoes, Right (player 1) horizontal ones; the label ``(r1, c1, r2, c2)``
  names the two cells (rows and columns from 1), the same two cells in every state, so a
  Kriegspiel request for them is refused exactly when one of them is occupied.
- :class:`HackenbushGraph` (``hackenbush``): the state is the tuple of the edges still
  standing, each ``(k, u, v, colour)`` with ``k`` its number in the input order (from 1);
  the label ``(k,)`` cuts edge ``k``, allowed to Left when it is blue or green, to Right when
  it is red or green, and only while it stands: an edge that was cut, or that fell because it
  lost its connection to the ground, cannot be cut again. A state with fallen edges is written
  with ``x`` in their places (``x,a-b:R`` is not a position: ``a-b`` would have fallen).

Each is *one* component: the whole board, the whole graph (the regions of a board, the parts
of a graph, are not separate components to the hidden rules, so a Schrödinger look would
show the whole position).

>>> board = DomineeringBoard()
>>> for label, after in board.moves("../..", 0):
...     print(board.label_text(label), after)
vertical domino on rows 1-2, column 1 #./#.
vertical domino on rows 1-2, column 2 .#/.#
>>> graph = HackenbushGraph()
>>> tree = graph.parse("g-a:B,a-b:R,g-c:R")
>>> [(graph.label_text(label), graph.format(after)) for label, after in graph.moves(tree, 0)]
[('cut edge 1', 'x,x,g-c:R')]
>>> graph.play(graph.parse("x,x,g-c:R"), (2,), 1) is None  # edge 2 fell with edge 1
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from nimlab.cgt.rulesets import domineering as dom
from nimlab.cgt.rulesets import hackenbush as hb
from nimlab.errors import InvalidPositionError
from nimlab.hidden.component_base import ComponentType, Label

__all__ = ["DomineeringBoard", "GraphState", "HackenbushGraph", "swap_colours", "transpose_board"]

GraphState = tuple[tuple[int, str, str, str], ...]
"""The standing edges of a Hackenbush graph: ``(number from 1, u, v, colour)``, by number."""

_COLOURS = (("B", "G"), ("R", "G"))


@lru_cache(maxsize=1 << 16)
def _board_moves(state: str, player: int) -> tuple[tuple[Label, str], ...]:
    board = dom.parse_board(state)
    w = board.width
    result = []
    for after, (i, j) in board.moves("LR"[player]):
        label = (i // w + 1, i % w + 1, j // w + 1, j % w + 1)
        result.append((label, dom.format_board(after)))
    result.sort()
    return tuple(result)


def transpose_board(state: str) -> str:
    """The board reflected in its diagonal: Left's and Right's dominoes exchange, so the
    transposed board is the negative of the board (Right first on a board = Left first on its
    transpose, with the players' names exchanged).

    >>> transpose_board("..#/...")
    '../../#.'
    """
    rows = state.split("/")
    return "/".join("".join(row[c] for row in rows) for c in range(len(rows[0])))


def swap_colours(state: GraphState) -> GraphState:
    """Blue and red exchanged (the negative of the graph); green stays.

    >>> swap_colours(((1, "g", "a", "B"), (2, "a", "b", "G")))
    ((1, 'g', 'a', 'R'), (2, 'a', 'b', 'G'))
    """
    swap = {"B": "R", "R": "B", "G": "G"}
    return tuple((k, u, v, swap[c]) for k, u, v, c in state)


@dataclass(frozen=True)
class DomineeringBoard(ComponentType[str]):
    """A Domineering board as one component (Left = vertical = player 0).

    >>> DomineeringBoard().moves("...", 1)
    (((1, 1, 1, 2), '##.'), ((1, 2, 1, 3), '.##'))
    >>> DomineeringBoard().play("#..", (1, 1, 1, 2), 1) is None  # cell 1,1 is taken
    True
    """

    unit = "board"
    impartial = False

    @property
    def name(self) -> str:
        """``domineering``."""
        return "domineering"

    def moves(self, state: str, player: int) -> tuple[tuple[Label, str], ...]:
        """Every domino of ``player`` on two empty cells, by its cells."""
        return _board_moves(state, player)

    def play(self, state: str, label: Label, player: int) -> str | None:
        """The domino on cells ``label``, if both are empty and it lies the player's way."""
        r1, c1, r2, c2 = label
        vertical = (r2, c2) == (r1 + 1, c1)
        if vertical != (player == 0) or not (vertical or (r2, c2) == (r1, c1 + 1)):
            return None
        rows = state.split("/")
        if not (r2 <= len(rows) and c2 <= len(rows[0]) and min(r1, c1) >= 1):
            return None
        if rows[r1 - 1][c1 - 1] != "." or rows[r2 - 1][c2 - 1] != ".":
            return None
        cells = [list(row) for row in rows]
        cells[r1 - 1][c1 - 1] = cells[r2 - 1][c2 - 1] = "#"
        return "/".join("".join(row) for row in cells)

    def label_text(self, label: Label) -> str:
        """``vertical domino on rows 1-2, column 3`` or ``horizontal domino on row 2,
        columns 1-2``."""
        r1, c1, r2, c2 = label
        if c1 == c2:
            return f"vertical domino on rows {r1}-{r2}, column {c1}"
        return f"horizontal domino on row {r1}, columns {c1}-{c2}"

    def move_text(self, index: int, label: Label) -> str:
        """The domino alone: there is one board."""
        return self.label_text(label)

    def describe(self, state: str) -> str:
        """The board, and its empty cells."""
        return f"{state} ({state.count('.')} empty cells)"

    def parse(self, text: str) -> str:
        """A board (rows joined by ``/``, ``.`` empty, ``#`` blocked)."""
        return dom.format_board(dom.parse_board(text))

    def format(self, state: str) -> str:
        """The board's notation (occupied cells are ``#``)."""
        return state

    def parse_position(self, text: str) -> tuple[str, ...]:
        """One board: the position is a single component."""
        return (self.parse(text),)


@dataclass(frozen=True)
class HackenbushGraph(ComponentType[GraphState]):
    """A Hackenbush graph (blue, red, green edges) as one component (Left = Blue = player 0).

    >>> graph = HackenbushGraph()
    >>> state = graph.parse("g-a:G,a-b:B")
    >>> graph.moves(state, 1)
    (((1,), ()),)
    >>> graph.format(graph.play(state, (2,), 0)), graph.format(())
    ('g-a:G', 'x')
    """

    unit = "graph"
    impartial = False

    @property
    def name(self) -> str:
        """``hackenbush``."""
        return "hackenbush"

    def moves(self, state: GraphState, player: int) -> tuple[tuple[Label, GraphState], ...]:
        """Cut a standing edge of one's colour or green; what loses the ground falls."""
        return _graph_moves(state, player)

    def play(self, state: GraphState, label: Label, player: int) -> GraphState | None:
        """Edge ``label[0]`` must be standing and the mover's colour or green."""
        for index, (k, _, _, colour) in enumerate(state):
            if k == label[0]:
                return _cut(state, index) if colour in _COLOURS[player] else None
        return None

    def label_text(self, label: Label) -> str:
        """``cut edge k``."""
        return f"cut edge {label[0]}"

    def move_text(self, index: int, label: Label) -> str:
        """The cut alone: there is one graph."""
        return self.label_text(label)

    def describe(self, state: GraphState) -> str:
        """The standing edges, or ``cut down``."""
        if not state:
            return "cut down"
        return ", ".join(f"edge {k} {u}-{v}:{c}" for k, u, v, c in state)

    def parse(self, text: str) -> GraphState:
        """Edges ``u-v:C`` joined by ``,`` in order (``x``: an edge that has fallen).

        >>> HackenbushGraph().parse("x,g-b:R")
        ((2, 'g', 'b', 'R'),)
        """
        tokens = [t.strip() for t in text.split(",")]
        standing = [(k, t) for k, t in enumerate(tokens, 1) if t.lower() != "x"]
        if not text.strip() or (not standing and len(tokens) > 1):
            raise InvalidPositionError(
                f"invalid graph {text!r}: give edges u-v:B, u-v:R or u-v:G joined by ','"
            )
        edges = hb.parse_graph(",".join(t for _, t in standing)) if standing else ()
        if len(edges) != len(standing):
            raise InvalidPositionError(f"invalid graph {text!r}: an empty edge")
        return tuple((k, u, v, c) for (k, _), (u, v, c) in zip(standing, edges, strict=True))

    def format(self, state: GraphState) -> str:
        """The edges in order, ``x`` for each fallen one before the last standing one."""
        if not state:
            return "x"
        slots = ["x"] * state[-1][0]
        for k, u, v, c in state:
            slots[k - 1] = f"{u}-{v}:{c}"
        return ",".join(slots)

    def parse_position(self, text: str) -> tuple[GraphState, ...]:
        """One graph: the position is a single component."""
        return (self.parse(text),)


def _cut(state: GraphState, index: int) -> GraphState:
    """``state`` without its edge at ``index`` and the edges that fell with it (equal edges
    of a multigraph stand or fall together, so the survivors are known by their ends)."""
    kept = set(hb.cut([(u, v, c) for _, u, v, c in state], index))
    return tuple(e for i, e in enumerate(state) if i != index and e[1:] in kept)


@lru_cache(maxsize=1 << 16)
def _graph_moves(state: GraphState, player: int) -> tuple[tuple[Label, GraphState], ...]:
    allowed = _COLOURS[player]
    return tuple(((k,), _cut(state, i)) for i, (k, _, _, c) in enumerate(state) if c in allowed)

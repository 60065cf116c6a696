"""Domineering and Hackenbush on any graph in the catalogue: values from :mod:`nimlab.cgt`.

Their ``value`` is a canonical form (:class:`nimlab.cgt.Game`), their Grundy value None;
``analyze`` adds the canonical form, stops, mean, temperature and birthday to its JSON.

>>> from nimlab.catalogue import make_game
>>> game = make_game("domineering")
>>> board = game.parse_position("../..")
>>> str(game.value(board)), game.outcome(board).value
('±1', 'N')
>>> [(m.player, game.format_position(m.to)) for m in game.winning_moves(board)]
[('L', '#./#.'), ('L', '.#/.#'), ('R', '##/..'), ('R', '../##')]
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import product
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from nimlab.budget import Cost
from nimlab.catalogue.base import CatalogueGame, CatalogueMove, check_limit, output_cost
from nimlab.catalogue.brute import BruteSize, domino_placements, graph_positions
from nimlab.catalogue.registry import register
from nimlab.cgt.game import Game, game
from nimlab.cgt.rulesets import domineering as dom
from nimlab.cgt.rulesets import hackenbush as hb
from nimlab.core.game import Outcome

__all__ = ["DomineeringEntry", "HackenbushEntry", "domineering_cost", "outcome_of"]

_OUTCOMES = {"L": Outcome.L, "R": Outcome.R, "N": Outcome.N, "P": Outcome.P}

#: Calibrated on the empty boards (BENCHMARKS.md, "Partizan games"): a region of n empty
#: cells takes about 0.7 s x 1.8^(n - 20) and 30 MB x 1.8^(n - 20) (4x5: 0.62 s alone,
#: 20 MB peak; 5x5: 10.8 s alone, 82 MB peak, 49,053 regions memoised).
_DOMINEERING_SECONDS_AT_20 = 0.7
_DOMINEERING_BYTES_AT_20 = 30e6
_DOMINEERING_GROWTH = 1.8


#: A step of the partizan brute-force searches (a canonical form built from its options, and
#: two minimax searches) against :data:`~nimlab.catalogue.brute.STEP_SECONDS`: measured by
#: ``benchmarks/calibrate_compute_budget.py brute`` (BENCHMARKS.md): Domineering about 3 steps'
#: work (its moves are bit operations); Hackenbush about 1.4 µs per edge of the graph (each
#: option is a copy of the graph, cut and searched from the ground), so 1 + 2 x edges steps.
_DOMINEERING_STEP_SCALE = 3.0
_HACKENBUSH_STEPS_PER_EDGE = 2.0


def outcome_of(value: Game) -> Outcome:
    """The outcome class of a value, as the catalogue's :class:`Outcome`."""
    return _OUTCOMES[value.outcome]


def domineering_cost(board: dom.Board) -> Cost:
    """The estimated cost of valuing ``board``: the sum over its regions (boards of 16 or
    fewer cells cost next to nothing).

    >>> cost = domineering_cost(dom.parse_board("...../...../...../...../....."))
    >>> round(cost.seconds)
    13
    >>> domineering_cost(dom.parse_board("." * 40)).seconds  # Right alone: -20 at once
    0.0
    """
    seconds = 0.0
    peak = 0.0
    for h, w, m in dom._components(board.height, board.width, board.empty):
        if not dom._vertical(m, w) or not dom._horizontal(m, h, w):
            continue  # one player only: an integer, counted at once
        scale = _DOMINEERING_GROWTH ** (bin(m).count("1") - 20)
        seconds += _DOMINEERING_SECONDS_AT_20 * scale
        peak = max(peak, _DOMINEERING_BYTES_AT_20 * scale)
    return Cost(seconds, int(peak))


class _PartizanEntry(CatalogueGame[Any]):
    """Shared closed form of the partizan entries: the value's outcome and winning moves."""

    impartial = False

    def _options(self, position: Any, player: str) -> Iterator[tuple[Any, str]]:
        raise NotImplementedError

    def _brute_value(self, position: Any) -> Game:
        raise NotImplementedError

    def _brute_first_wins(self, position: Any, player: str) -> bool:
        raise NotImplementedError

    def moves(self, position: Any, /) -> Iterator[Any]:
        """Both players' moves."""
        for player in ("L", "R"):
            yield from (q for q, _ in self._options(position, player))

    def value(self, position: Any) -> Game:
        """The canonical form (:class:`nimlab.cgt.Game`)."""
        raise NotImplementedError

    def outcome(self, position: Any) -> Outcome:
        """L, R, N or P from the value."""
        return outcome_of(self.value(position))

    def winning_moves(self, position: Any) -> list[CatalogueMove[Any]]:
        """Left's moves to a value >= 0 and Right's to a value <= 0: each wins for the player
        who makes it first (one per resulting position)."""
        result = []
        seen = set()
        for player in ("L", "R"):
            for q, label in self._options(position, player):
                v = self.value(q)
                if (player, q) not in seen and (v >= 0 if player == "L" else v <= 0):
                    seen.add((player, q))
                    result.append(CatalogueMove(q, label, player=player))
        return result

    def step_consistent(self, position: Any) -> bool:
        """The value is the canonical form of ``{left options' values | right options'}``."""
        lefts = [self.value(q) for q, _ in self._options(position, "L")]
        rights = [self.value(q) for q, _ in self._options(position, "R")]
        return game(lefts, rights) is self.value(position)

    def brute_value(self, position: Any) -> Game:
        """The value by plain recursion over the whole position."""
        return self._brute_value(position)

    def brute_outcome(self, position: Any) -> Outcome:
        """Minimax with each player first."""
        left, right = (self._brute_first_wins(position, p) for p in ("L", "R"))
        if left and right:
            return Outcome.N
        if left:
            return Outcome.L
        return Outcome.R if right else Outcome.P

    def brute_winning_moves(self, position: Any) -> set[tuple[str | None, Any]]:
        """Moves after which the opponent, moving first, loses (minimax)."""
        found: set[tuple[str | None, Any]] = set()
        for player, other in (("L", "R"), ("R", "L")):
            for q, _ in self._options(position, player):
                if not self._brute_first_wins(q, other):
                    found.add((player, q))
        return found


@register
class DomineeringEntry(_PartizanEntry):
    """Domineering on any rectangular board with blocked cells."""

    name = "domineering"
    summary = "Left places a vertical domino, Right a horizontal one; who cannot place loses."
    notation = "rows of '.' (empty) and '#' (blocked) joined by '/'"
    example = "../.."

    def parse_position(self, text: str) -> dom.Board:
        """``rows/joined/by/slashes``."""
        return dom.parse_board(text)

    def format_position(self, position: dom.Board) -> str:
        """The same notation, with the dominoes placed as ``#``."""
        return dom.format_board(position)

    def _options(self, position: dom.Board, player: str) -> Iterator[tuple[dom.Board, str]]:
        w = position.width
        kind = "vertical" if player == "L" else "horizontal"
        for q, (a, b) in position.moves(player):
            first, second = f"row {a // w + 1} col {a % w + 1}", f"row {b // w + 1} col {b % w + 1}"
            yield q, f"{kind} domino on {first} and {second}"

    def value(self, position: dom.Board) -> Game:
        """The canonical form, by regions (see :mod:`nimlab.cgt.rulesets.domineering`)."""
        check_limit(
            f"the value of the Domineering board {dom.format_board(position)}",
            domineering_cost(position),
            self.limit,
        )
        return dom.domineering(position)

    def analysis_cost(self, position: dom.Board, text: str) -> Cost:
        """The value's estimate (every option is a sub-region, valued on the way)."""
        moves = bin(position.empty).count("1") * 2
        return domineering_cost(position) + output_cost(moves * (len(text) + 1))

    def brute_size(self, position: dom.Board) -> BruteSize:
        """The boards left by any set of dominoes placed; at most one move per pair of
        adjacent empty cells. Canonical forms are built at each (about 3 steps' work), and
        who wins moving first is searched for both players.

        >>> from nimlab.catalogue import make_game
        >>> make_game("domineering").brute_size(dom.parse_board("../.."))
        BruteSize(states=7, options=4, scale=3.0)
        """
        h, w, m = position.height, position.width, position.empty
        pairs = bin(dom._vertical(m, w)).count("1") + bin(dom._horizontal(m, h, w)).count("1")
        return BruteSize(domino_placements(h, w, m), pairs, scale=_DOMINEERING_STEP_SCALE)

    def _brute_value(self, position: dom.Board) -> Game:
        return dom.brute_value(position)

    def _brute_first_wins(self, position: dom.Board, player: str) -> bool:
        return dom.first_player_wins(position, player)

    def explain(self, position: dom.Board) -> RenderableType:
        """The rules and how the value is found."""
        return Text(
            f"{self.summary} The value is the sum of the values of the regions of empty cells"
            " (each memoised up to the board's symmetries)."
        )

    def small_positions(self, size: int) -> Iterator[dom.Board]:
        """Every board of at most ``size + 5`` cells (each cell empty or blocked)."""
        for cells in range(1, size + 6):
            for h in range(1, cells + 1):
                if cells % h:
                    continue
                w = cells // h
                for m in range(1 << cells):
                    yield dom.Board(h, w, m)

    def random_position(self, rng: random.Random, size: int) -> dom.Board:
        """A board of up to 4x4 (up to ``size`` cells or so), a quarter of the cells blocked."""
        h = rng.randint(1, 4)
        w = rng.randint(1, max(1, min(4, size // h)))
        m = sum(1 << i for i in range(h * w) if rng.random() < 0.75)
        return dom.Board(h, w, m)


def _hackenbush_cost(edges: tuple[hb.ColouredEdge, ...]) -> Cost:
    """Mixed components are searched: at most :func:`~nimlab.cgt.rulesets.hackenbush.
    position_bound` positions (rooted subtrees of a tree, else 2^E), about 30 µs x E and
    600 bytes each; one-colour components are closed forms.

    >>> _hackenbush_cost(hb.parse_graph("g-a:B," + ",".join(f"a{i}-a{i+1}:R" for i in range(60))
    ...     .replace("a0", "a"))).seconds < 1
    True
    """
    seconds = 0.0
    states = 0
    for part in hb._components(edges):
        if len({c for _, _, c in part}) > 1:
            bound = hb.position_bound(part)
            seconds += 3e-5 * len(part) * bound
            states = max(states, bound)
    return Cost(seconds, states * 600)


@register
class HackenbushEntry(_PartizanEntry):
    """Hackenbush on any graph with blue, red and green edges."""

    name = "hackenbush"
    aliases = ("partizan-hackenbush", "blue-red-green-hackenbush")
    summary = (
        "Left cuts a blue or green edge, Right a red or green one; what loses touch with the"
        " ground g falls."
    )
    notation = "edges u-v:B, u-v:R, u-v:G (u-v = green) joined by ','; g is the ground"
    example = "g-a:B,a-b:R"

    def parse_position(self, text: str) -> tuple[hb.ColouredEdge, ...]:
        """Coloured edges (see :func:`nimlab.cgt.rulesets.hackenbush.parse_graph`)."""
        return hb.parse_graph(text)

    def format_position(self, position: tuple[hb.ColouredEdge, ...]) -> str:
        """``u-v:C,...``."""
        return hb.format_graph(position)

    def _options(
        self, position: tuple[hb.ColouredEdge, ...], player: str
    ) -> Iterator[tuple[tuple[hb.ColouredEdge, ...], str]]:
        for q, i in hb.moves(position, player):
            u, v, c = position[i]
            yield q, f"cut edge {i + 1} ({u}-{v}:{c})"

    def value(self, position: tuple[hb.ColouredEdge, ...]) -> Game:
        """The canonical form, by components (see :mod:`nimlab.cgt.rulesets.hackenbush`)."""
        check_limit(
            f"the value of the Hackenbush graph {hb.format_graph(position)[:40]}",
            _hackenbush_cost(position),
            self.limit,
        )
        return hb.hackenbush(position)

    def analysis_cost(self, position: tuple[hb.ColouredEdge, ...], text: str) -> Cost:
        """The value's estimate, and up to one winning move per edge written."""
        return _hackenbush_cost(position) + output_cost(len(position) * (len(text) + 1))

    def brute_size(self, position: tuple[hb.ColouredEdge, ...]) -> BruteSize:
        """Subtrees of the tree parts, sub-multisets of the others' edges (the search keys
        graphs by their sorted edges); one move per edge and player, each a copy of the
        graph cut and searched from the ground (work in proportion to the edges).

        >>> from nimlab.catalogue import make_game
        >>> make_game("hackenbush").brute_size(hb.parse_graph("g-a:B,a-b:R"))
        BruteSize(states=3, options=2, scale=5.0)
        """
        states = graph_positions(position, ordered=False)
        options = len(position) + sum(1 for _, _, c in position if c == "G")
        scale = 1.0 + _HACKENBUSH_STEPS_PER_EDGE * len(position)
        return BruteSize(states, options, scale=scale)

    def _brute_value(self, position: tuple[hb.ColouredEdge, ...]) -> Game:
        return hb.brute_value(position)

    def _brute_first_wins(self, position: tuple[hb.ColouredEdge, ...], player: str) -> bool:
        return hb.first_player_wins(position, player)

    def small_positions(self, size: int) -> Iterator[tuple[hb.ColouredEdge, ...]]:
        """Every graph of up to ``min(size, 3)`` edges on the nodes g, a, b (loops at g too)."""
        kinds = [
            (u, v, c) for u, v in (("g", "a"), ("g", "b"), ("a", "b"), ("g", "g")) for c in "BRG"
        ]
        yield ()
        for n in range(1, min(size, 3) + 1):
            for edges in product(kinds, repeat=n):
                if list(edges) != sorted(edges):
                    continue
                if len(hb.cut((*edges, ("g", "g", "G")), n)) == n:  # all reach the ground
                    yield tuple(edges)

    def random_position(self, rng: random.Random, size: int) -> tuple[hb.ColouredEdge, ...]:
        """A connected graph of up to ``min(size, 9)`` edges: a random tree from g, plus a
        few edges closing cycles."""
        n = rng.randint(1, max(1, min(size, 9)))
        nodes = ["g"]
        edges: list[hb.ColouredEdge] = []
        for i in range(n):
            colour = rng.choice("BRG")
            if i and rng.random() < 0.25:
                edges.append((rng.choice(nodes), rng.choice(nodes), colour))
            else:
                node = f"n{len(nodes)}"
                edges.append((rng.choice(nodes), node, colour))
                nodes.append(node)
        return tuple(edges)

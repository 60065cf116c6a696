"""Green Hackenbush on any finite multigraph rooted at the ground (the catalogue article, extended).

A position is a multigraph: edges ``u-v`` between alphanumeric nodes, ``g`` being the ground;
loops (``a-a``) and repeated edges are allowed. A move deletes one edge; every edge no longer
connected to the ground falls off. The player who cannot move loses.

Closed form: the *fusion principle* lets the vertices of any cycle be fused into one vertex, the
cycle's edges becoming loops; so every 2-edge-connected component (found from the bridges) becomes a
single vertex carrying one loop per edge, and a loop is worth a stalk of length 1. What is left is a
tree with loops, valued by the *colon principle* (the article's rule for trees): a vertex is worth
the nim-sum of its loops (1 each) and of 1 + (the value above) for each branch. The catalogue
article only states the colon principle for trees; this entry adds the fusion principle for cycles,
checked against exhaustive search on small random graphs.

>>> from nimlab.catalogue import make_game
>>> game = make_game("green-hackenbush")
>>> tree = game.parse_position("g-a,a-b,a-c,g-d")
>>> game.grundy(tree)  # the stalk g-a (1) topped by b, c (1 xor 1 = 0): 1; plus g-d: 1 xor 1
0
>>> triangle = game.parse_position("g-a,a-b,b-g")
>>> game.grundy(triangle), [game.format_position(m.to) for m in game.winning_moves(triangle)]
(1, ['g-a,b-g'])
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement, pairwise

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree

from nimlab.budget import Cost, saturated
from nimlab.catalogue.base import CatalogueGame, CatalogueMove, check_limit, unique_moves
from nimlab.catalogue.brute import BruteSize, graph_positions
from nimlab.catalogue.registry import register
from nimlab.cgt.green import GROUND, Edge, Graph, fused_tree, green_value, prune, reached_nodes
from nimlab.errors import InvalidPositionError

__all__ = ["GreenHackenbushEntry"]

_EDGE = re.compile(r"([A-Za-z0-9]+)-([A-Za-z0-9]+)")


_EDGE_SECONDS = 1.5e-5
"""Seconds per edge of one valuation (fusion and colon principle), on a loaded machine."""


def _distinct_deletions(position: Graph) -> list[tuple[int, Edge]]:
    """The first index of each distinct edge, with the edge: deleting any copy of an edge
    leaves graphs of one value (the same multigraph).

    >>> _distinct_deletions((("g", "a"), ("a", "b"), ("g", "a")))
    [(0, ('g', 'a')), (1, ('a', 'b'))]
    """
    seen: set[Edge] = set()
    found = []
    for index, edge in enumerate(position):
        if edge not in seen:
            seen.add(edge)
            found.append((index, edge))
    return found


@register
class GreenHackenbushEntry(CatalogueGame[Graph]):
    """Green Hackenbush on a multigraph rooted at ``g`` (cycles, loops, multi-edges allowed)."""

    name = "green-hackenbush"
    summary = "Delete an edge; edges cut off from the ground g fall."
    notation = "edges u-v joined by ',' (g is the ground)"
    example = "g-a,a-b,a-c,g-d"
    sequence_meaning = "a cycle of n edges through the ground (n = 1: a loop at g)"

    def parse_position(self, text: str) -> Graph:
        """Edges ``u-v``; every edge must be connected to the ground."""
        edges = []
        for token in filter(None, (t.strip() for t in text.split(","))):
            match = _EDGE.fullmatch(token)
            if match is None:
                raise InvalidPositionError(
                    f"invalid edge {token!r}: write u-v with alphanumeric node names (g = ground)"
                )
            edges.append((match[1], match[2]))
        reached = reached_nodes(edges)
        for u, v in edges:
            if u not in reached:
                raise InvalidPositionError(
                    f"edge '{u}-{v}' is not connected to the ground {GROUND}"
                )
        return tuple(edges)

    def format_position(self, position: Graph) -> str:
        """``u-v,...`` in the given order."""
        return ",".join(f"{u}-{v}" for u, v in position)

    def _without(self, position: Graph, index: int) -> Graph:
        return prune((*position[:index], *position[index + 1 :]))

    @staticmethod
    def _option_cost(option: Graph) -> int:
        """An option is a pruned copy of the graph: the search counts one step per edge."""
        return 1 + len(option)

    brute_option_cost = _option_cost

    def moves(self, position: Graph, /) -> Iterator[Graph]:
        """Delete one edge, then drop what fell."""
        return (self._without(position, i) for i in range(len(position)))

    def brute_size(self, position: Graph) -> BruteSize:
        """Subtrees of the tree parts, distinct subsequences of the others' edges; one
        deletion per edge, each a pruned copy of the graph (one step per edge).

        >>> from nimlab.catalogue import make_game
        >>> make_game("green-hackenbush").brute_size((("g", "a"), ("a", "b"), ("a", "c")))
        BruteSize(states=5, options=3, scale=4.0)
        """
        states = graph_positions([(u, v, "G") for u, v in position], ordered=True)
        return BruteSize(states, len(position), scale=1.0 + len(position))

    def grundy(self, position: Graph) -> int:
        """Fusion + colon principles."""
        return green_value(position)

    def winning_moves(self, position: Graph) -> list[CatalogueMove[Graph]]:
        """Deletions leaving value 0, each checked by the closed form; parallel copies of an
        edge are one deletion (they leave the same graph), so hundreds of ``g-a`` cost one.

        >>> from nimlab.catalogue import make_game
        >>> game = make_game("green-hackenbush")
        >>> [move.label for move in game.winning_moves(game.parse_position("g-a," * 301))]
        ['delete g-a']
        """
        distinct = _distinct_deletions(position)
        edges = len(position)
        # each deletion is valued in about _EDGE_SECONDS per edge (measured: 4 µs on a quiet
        # machine, 15 µs on a loaded one; 5,001 random edges took 75 ms per value)
        steps = saturated(len(distinct) * edges)
        check_limit(
            f"checking {len(distinct)} deletions of {edges} edges",
            Cost(_EDGE_SECONDS * steps, 200 * edges),
            self.limit,
        )
        if green_value(position) == 0:
            return []
        winning = {edge for i, edge in distinct if green_value(self._without(position, i)) == 0}
        return unique_moves(
            CatalogueMove(self._without(position, i), f"delete {u}-{v}")
            for i, (u, v) in enumerate(position)
            if (u, v) in winning
        )

    def explain(self, position: Graph) -> RenderableType:
        """The fused vertices as a tree of bridges, each with its loops and value."""
        if not position:
            return Text("No edges: the player to move loses.")
        found = fused_tree(position)

        def label(node: str) -> str:
            names = ",".join(found.members.get(node, (node,)))
            loops = found.loops.get(node, 0)
            fused = f"{{{names}}}" if len(found.members.get(node, ())) > 1 else names
            shown = f", {loops} loop(s)" if loops else ""
            return f"{fused}{shown}: worth {found.values[node]} from here up"

        tree = Tree(f"ground {label(found.root)}")
        branches = {found.root: tree}
        for node in found.order[1:]:
            above, (u, v) = found.parent[node]
            text = f"edge {u}-{v} (1 + {found.values[node]}) to {label(node)}"
            branches[node] = branches[above].add(text)
        return Group(
            Text(
                "Fusion: the vertices of each cycle become one vertex, its edges loops (1 each);"
                " colon principle: a vertex is worth the nim-sum of its loops and branches."
            ),
            tree,
        )

    def small_positions(self, size: int) -> Iterator[Graph]:
        """Multigraphs on g, a, b with up to ``size + 2`` edges, connected to the ground."""
        kinds = [(u, v) for i, u in enumerate("gab") for v in "gab"[i:]]
        for count in range(size + 3):
            for edges in combinations_with_replacement(kinds, count):
                if prune(edges) == edges:
                    yield edges

    def random_position(self, rng: random.Random, size: int) -> Graph:
        """Up to ``size`` random edges on g, a..e, pruned to the ground-connected part."""
        nodes = "gabcde"
        edges = [(rng.choice(nodes), rng.choice(nodes)) for _ in range(rng.randint(0, size))]
        return prune(edges)

    def sequence_position(self, n: int) -> Graph:
        """A cycle of n edges through the ground."""
        if n <= 1:
            return ((GROUND, GROUND),) * n
        path = [GROUND, *(f"v{i}" for i in range(1, n)), GROUND]
        return tuple(pairwise(path))

    def sequence_cost(self, upto: int) -> Cost:
        """Valuing a cycle of n edges costs about 4n µs (fusion), so the table is quadratic.

        >>> from nimlab.catalogue import make_game
        >>> make_game("green-hackenbush").sequence_cost(1000)
        Cost(seconds=2.003001, bytes=100100)
        """
        return Cost(saturated(2 * upto * (upto + 1) + upto + 1) * 1e-6, (upto + 1) * 100)

    def periodicity(self, values: Sequence[int | None]) -> tuple[int, int]:
        """A cycle through the ground fuses into n loops: n mod 2, period 2 (closed form)."""
        return 2, 0

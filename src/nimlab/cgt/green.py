"""Green Hackenbush values of any finite multigraph rooted at the ground: the fusion principle
for cycles, the colon principle for the tree that is left (Berlekamp, Conway and Guy, *Winning
Ways*, ch. 7). The one owner of these graph algorithms: the catalogue's ``green-hackenbush``
and the green parts of :mod:`nimlab.cgt.rulesets.hackenbush` both use them.

A graph is a tuple of edges ``(u, v)`` between node names, ``g`` the ground; loops and repeated
edges are allowed.

>>> green_value([("g", "a"), ("a", "b"), ("a", "c"), ("g", "d")])
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "GROUND",
    "Edge",
    "FusedTree",
    "Graph",
    "fused_tree",
    "green_value",
    "prune",
    "reached_nodes",
]

GROUND = "g"
Edge = tuple[str, str]
Graph = tuple[Edge, ...]


def reached_nodes(edges: Sequence[Edge]) -> set[str]:
    """The nodes connected to the ground."""
    adjacent: dict[str, list[str]] = {}
    for u, v in edges:
        adjacent.setdefault(u, []).append(v)
        adjacent.setdefault(v, []).append(u)
    reached = {GROUND}
    stack = [GROUND]
    while stack:
        for nxt in adjacent.get(stack.pop(), []):
            if nxt not in reached:
                reached.add(nxt)
                stack.append(nxt)
    return reached


def prune(edges: Sequence[Edge]) -> Graph:
    """The edges still connected to the ground, in their order.

    >>> prune((("g", "a"), ("b", "c"), ("a", "a")))
    (('g', 'a'), ('a', 'a'))
    """
    reached = reached_nodes(edges)
    return tuple(edge for edge in edges if edge[0] in reached)


def _bridges(edges: Graph) -> set[int]:
    """Indices of the bridges (edges on no cycle), by an iterative Tarjan search."""
    adjacent: dict[str, list[tuple[str, int]]] = {}
    for index, (u, v) in enumerate(edges):
        adjacent.setdefault(u, []).append((v, index))
        if u != v:
            adjacent.setdefault(v, []).append((u, index))
    discovered: dict[str, int] = {}
    low: dict[str, int] = {}
    bridges: set[int] = set()
    for root in adjacent:
        if root in discovered:
            continue
        discovered[root] = low[root] = len(discovered)
        stack = [(root, -1, iter(adjacent[root]))]
        while stack:
            node, via, neighbours = stack[-1]
            for nxt, index in neighbours:
                if index == via:
                    continue
                if nxt in discovered:
                    low[node] = min(low[node], discovered[nxt])
                else:
                    discovered[nxt] = low[nxt] = len(discovered)
                    stack.append((nxt, index, iter(adjacent[nxt])))
                    break
            else:
                stack.pop()
                if stack:
                    parent = stack[-1][0]
                    low[parent] = min(low[parent], low[node])
                    if low[node] > discovered[parent]:
                        bridges.add(via)
    return bridges


def fused_components(edges: Graph) -> tuple[dict[str, str], dict[str, int], list[Edge]]:
    """Fuse every cycle: ``(representative of each node, loops per component, bridges)``."""
    bridges = _bridges(edges)
    parent: dict[str, str] = {}

    def find(node: str) -> str:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for index, (u, v) in enumerate(edges):
        find(u)
        find(v)
        if index not in bridges:
            parent[find(u)] = find(v)
    loops: dict[str, int] = {}
    for index, (u, _) in enumerate(edges):
        if index not in bridges:
            loops[find(u)] = loops.get(find(u), 0) + 1
    representative = {node: find(node) for node in list(parent)}
    return representative, loops, [edges[i] for i in sorted(bridges)]


@dataclass(frozen=True)
class FusedTree:
    """A graph after fusion: fused vertices (by representative), their loops, the bridge tree."""

    root: str
    members: dict[str, tuple[str, ...]]
    loops: dict[str, int]
    parent: dict[str, tuple[str, Edge]]  # child -> (parent, the bridge joining them)
    order: tuple[str, ...]  # breadth-first from the root
    values: dict[str, int]  # colon principle: the value of everything above each vertex


def fused_tree(edges: Sequence[Edge]) -> FusedTree:
    """Fuse the cycles, then value the tree of bridges bottom-up (colon principle)."""
    graph = prune(edges)
    representative, loops, bridges = fused_components(graph)
    root = representative.get(GROUND, GROUND)
    tree: dict[str, list[tuple[str, Edge]]] = {}
    for u, v in bridges:
        a, b = representative[u], representative[v]
        tree.setdefault(a, []).append((b, (u, v)))
        tree.setdefault(b, []).append((a, (u, v)))
    order = [root]
    parent: dict[str, tuple[str, Edge]] = {}
    for node in order:
        for child, bridge in tree.get(node, []):
            if child != root and child not in parent:
                parent[child] = (node, bridge)
                order.append(child)
    values = {node: loops.get(node, 0) % 2 for node in order}
    for node in reversed(order[1:]):
        values[parent[node][0]] ^= values[node] + 1
    members: dict[str, list[str]] = {}
    for node, rep in representative.items():
        members.setdefault(rep, []).append(node)
    return FusedTree(
        root=root,
        members={rep: tuple(sorted(nodes)) for rep, nodes in members.items()},
        loops=loops,
        parent=parent,
        order=tuple(order),
        values=values,
    )


def green_value(edges: Sequence[Edge]) -> int:
    """The Grundy value: fusion principle for the cycles, colon principle for the tree.

    >>> green_value([("g", "g")]), green_value([("g", "a"), ("a", "g")]), green_value([])
    (1, 0, 0)
    """
    found = fused_tree(edges)
    return found.values[found.root]

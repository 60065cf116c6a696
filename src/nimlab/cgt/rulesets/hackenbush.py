"""Hackenbush on any graph with blue, red and green edges: exact values by components.

A position is a multigraph rooted at the ground ``g``: edges ``u-v:B`` (blue, Left's),
``u-v:R`` (red, Right's), ``u-v:G`` (green, either's; a bare ``u-v`` is green too), nodes
alphanumeric. A move deletes an edge of one's colour (or a green one); the edges no longer
connected to the ground fall. The value is the sum of the values of the components that meet
only at the ground; a one-colour component of blue (red) edges is worth +n (-n) for its n
edges (one can always be cut alone), an all-green one is the nimber of green Hackenbush
(fusion and colon principles, :mod:`nimlab.catalogue.green_hackenbush`).

>>> str(hackenbush("g-a:B,a-b:R")), str(hackenbush("g-a:G")), str(hackenbush("g-a:B,a-b:G"))
('1/2', '*', '1*')
>>> str(hackenbush("g-a:B,g-a:R")), str(hackenbush("g-a:G,a-b:B"))
('0', '^*')
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from nimlab.cgt.game import ZERO, Game, _canonical, game, integer, star, sum_games
from nimlab.cgt.green import GROUND, reached_nodes
from nimlab.errors import InvalidPositionError

__all__ = [
    "GROUND",
    "ColouredEdge",
    "brute_value",
    "cut",
    "first_player_wins",
    "format_graph",
    "hackenbush",
    "parse_graph",
    "position_bound",
    "stalk_graph",
]

ColouredEdge = tuple[str, str, str]
_EDGE = re.compile(r"([A-Za-z0-9]+)-([A-Za-z0-9]+)(?::([BRGbrg]))?")
_PLAYER_COLOURS = {"L": ("B", "G"), "R": ("R", "G")}


def parse_graph(text: str) -> tuple[ColouredEdge, ...]:
    """Edges ``u-v:C`` joined by ``,`` (C in B, R, G; none = G); each must reach the ground.

    >>> parse_graph("g-a:B, a-b:r, b-c")
    (('g', 'a', 'B'), ('a', 'b', 'R'), ('b', 'c', 'G'))
    >>> parse_graph("a-b:B")
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: edge 'a-b:B' is not connected to the ground g
    """
    edges = []
    for token in filter(None, (t.strip() for t in text.split(","))):
        match = _EDGE.fullmatch(token)
        if match is None:
            raise InvalidPositionError(
                f"invalid edge {token!r}: write u-v:B, u-v:R or u-v:G with alphanumeric node"
                " names (g = ground)"
            )
        edges.append((match[1], match[2], (match[3] or "G").upper()))
    reached = reached_nodes([(u, w) for u, w, _ in edges])
    for u, v, c in edges:
        if u not in reached:
            raise InvalidPositionError(f"edge '{u}-{v}:{c}' is not connected to the ground g")
    return tuple(edges)


def format_graph(edges: Sequence[ColouredEdge]) -> str:
    """``u-v:C,...`` in the given order (``parse_graph`` inverts it)."""
    return ",".join(f"{u}-{v}:{c}" for u, v, c in edges)


def stalk_graph(stalks: Sequence[str]) -> tuple[ColouredEdge, ...]:
    """Red-blue (or green) stalks, bottom-up, as a graph: stalk 1 is ``g-s1n1, s1n1-s1n2...``.

    >>> format_graph(stalk_graph(["BR", "B"]))
    'g-s1n1:B,s1n1-s1n2:R,g-s2n1:B'
    """
    edges = []
    for i, stalk in enumerate(stalks, start=1):
        below = GROUND
        for j, colour in enumerate(stalk, start=1):
            node = f"s{i}n{j}"
            edges.append((below, node, colour))
            below = node
    return tuple(edges)


def cut(edges: Sequence[ColouredEdge], index: int) -> tuple[ColouredEdge, ...]:
    """The graph after deleting edge ``index``: what no longer reaches the ground falls."""
    rest = (*edges[:index], *edges[index + 1 :])
    reached = reached_nodes([(u, w) for u, w, _ in rest])
    return tuple(e for e in rest if e[0] in reached)


def moves(
    edges: Sequence[ColouredEdge], player: str
) -> Iterator[tuple[tuple[ColouredEdge, ...], int]]:
    """``(graph after, index of the edge cut)`` for each move of ``player`` (``L``/``R``)."""
    allowed = _PLAYER_COLOURS[player]
    for i, (_, _, c) in enumerate(edges):
        if c in allowed:
            yield cut(edges, i), i


def _components(edges: Sequence[ColouredEdge]) -> list[tuple[ColouredEdge, ...]]:
    """The parts of the graph that meet only at the ground (each a game of its own)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, v, _ in edges:
        if u != GROUND and v != GROUND:
            parent[find(u)] = find(v)
    groups: dict[str, list[ColouredEdge]] = {}
    for index, e in enumerate(edges):
        u, v, _ = e
        key = find(u) if u != GROUND else find(v) if v != GROUND else f"{GROUND}:{index}"
        groups.setdefault(key, []).append(e)
    return [tuple(group) for group in groups.values()]


def position_bound(edges: Sequence[ColouredEdge]) -> int:
    """An upper bound on the positions reachable from one component: for a tree, its rooted
    subtrees (each node keeps any set of its children's subtrees); otherwise 2^E.

    >>> position_bound(parse_graph("g-a:B,a-b:R,a-c:R")), position_bound(parse_graph("g-a,a-g"))
    (5, 4)
    """
    nodes = {n for u, v, _ in edges for n in (u, v)} - {GROUND}
    if len(edges) != len(nodes) or any(u == v for u, v, _ in edges):
        return 1 << len(edges)
    children: dict[str, list[str]] = {}
    adjacent: dict[str, list[str]] = {}
    for u, v, _ in edges:
        adjacent.setdefault(u, []).append(v)
        adjacent.setdefault(v, []).append(u)
    order = [GROUND]
    seen = {GROUND}
    for node in order:  # breadth-first from the ground: parents before children
        for nxt in adjacent.get(node, []):
            if nxt not in seen:
                seen.add(nxt)
                children.setdefault(node, []).append(nxt)
                order.append(nxt)
    if len(seen) != len(nodes) + 1:
        return 1 << len(edges)
    count: dict[str, int] = {}
    for node in reversed(order):
        total = 1
        for child in children.get(node, []):
            total *= 1 + count[child]
        count[node] = total
    return count[GROUND]


_MEMO: dict[tuple[ColouredEdge, ...], Game] = {}


def _key(edges: Sequence[ColouredEdge]) -> tuple[ColouredEdge, ...]:
    """Edges with their ends sorted, in sorted order (the names are kept)."""
    return tuple(sorted((min(u, v), max(u, v), c) for u, v, c in edges))


def _component_value(edges: tuple[ColouredEdge, ...]) -> Game:
    key = _key(edges)
    found = _MEMO.get(key)
    if found is not None:
        return found
    colours = {c for _, _, c in edges}
    if colours == {"B"}:
        value = integer(len(edges))
    elif colours == {"R"}:
        value = integer(-len(edges))
    elif colours == {"G"}:
        from nimlab.cgt.green import green_value

        value = star(green_value([(u, v) for u, v, _ in edges]))
    else:
        lefts = {_graph_value(q) for q, _ in moves(edges, "L")}
        rights = {_graph_value(q) for q, _ in moves(edges, "R")}
        value = _canonical(list(lefts), list(rights))
    _MEMO[key] = value
    return value


def _graph_value(edges: Sequence[ColouredEdge]) -> Game:
    if not edges:
        return ZERO
    return sum_games(_component_value(c) for c in _components(edges))


def hackenbush(position: str | Sequence[ColouredEdge]) -> Game:
    """The canonical value of a Hackenbush position (text or edges).

    >>> str(hackenbush("g-a:B,a-b:B,b-g:R"))
    '1'
    """
    edges = parse_graph(position) if isinstance(position, str) else tuple(position)
    return _graph_value(edges)


# -- brute-force twins ------------------------------------------------------------------------
def brute_value(position: str | Sequence[ColouredEdge]) -> Game:
    """The value by plain recursion on the whole graph (no components, no shortcut)."""
    edges = parse_graph(position) if isinstance(position, str) else tuple(position)
    memo: dict[tuple[ColouredEdge, ...], Game] = {}

    def value(es: tuple[ColouredEdge, ...]) -> Game:
        k = _key(es)
        if k not in memo:
            memo[k] = game(
                [value(q) for q, _ in moves(es, "L")], [value(q) for q, _ in moves(es, "R")]
            )
        return memo[k]

    return value(edges)


def first_player_wins(position: str | Sequence[ColouredEdge], player: str) -> bool:
    """Whether ``player`` wins moving first, by plain minimax."""
    edges = parse_graph(position) if isinstance(position, str) else tuple(position)
    memo: dict[tuple[tuple[ColouredEdge, ...], str], bool] = {}

    def wins(es: tuple[ColouredEdge, ...], p: str) -> bool:
        k = (_key(es), p)
        if k not in memo:
            other = "R" if p == "L" else "L"
            memo[k] = any(not wins(q, other) for q, _ in moves(es, p))
        return memo[k]

    return wins(edges, player)

"""Upfront estimates of the brute-force search: how many positions it may meet, and their cost.

The search (``analyze --brute``, misère play without a quotient, ``nimlab.outcome`` of a
catalogue game) memoises every position reachable from the start. Each catalogue game bounds
that number from the position's structure, in well under a second, as a :class:`BruteSize`
(:meth:`~nimlab.catalogue.base.CatalogueGame.brute_size`): the product of heap + 1 for games
that lower one heap, a multiset count when positions are kept sorted, compositions when heaps
split, subsets of edges or cells, the divisors of n... The helpers below count these shapes.
:func:`brute_cost` turns a size into seconds and bytes with the per-position figures measured
by ``benchmarks/calibrate_compute_budget.py brute`` (BENCHMARKS.md, "Brute-force search").

>>> size = BruteSize(states=heap_product((5, 6, 7)), options=18)
>>> size.states, size.steps
(336, 6384)
>>> round(brute_cost(size).seconds, 4), brute_cost(size).bytes
(0.016, 134400)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from nimlab.budget import MAX_SECONDS, Cost, saturated, saturated_comb

__all__ = [
    "STATE_BYTES",
    "STEP_SECONDS",
    "BruteSize",
    "binary_below",
    "brute_cost",
    "composition_count",
    "distinct_subsequences",
    "heap_product",
    "increasing_below",
    "multisets",
]

#: Measured (``benchmarks/calibrate_compute_budget.py brute``, BENCHMARKS.md "Brute-force
#: search"): one step (a position expanded or one of its options listed and looked up) takes
#: 1-3 µs on a quiet core of the reference machine and up to 5 µs on a loaded one; 2.5 µs is
#: the figure, each game scaling it by its ``brute_step_scale`` where its moves cost more to
#: build (sorting, graphs cut, canonical forms).
STEP_SECONDS = 2.5e-6
#: Measured the same way: a memoised position (its key, its value, the dict's slot) keeps about
#: 400 bytes.
STATE_BYTES = 400

#: The ground of a Hackenbush graph.
GROUND = "g"

#: Counts are kept as ints up to this size, then as a float (an upper bound far past any budget).
_CAP = 10**300


@dataclass(frozen=True)
class BruteSize:
    """An upper bound on a search: ``states`` positions memoised, each listing at most
    ``options`` moves (``scale`` weighs a step of this game against :data:`STEP_SECONDS`).

    >>> BruteSize(10**400, 10).states == 10**300
    True
    """

    states: int
    options: int
    scale: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "states", max(1, min(int(self.states), _CAP)))
        object.__setattr__(self, "options", max(0, min(int(self.options), _CAP)))

    @property
    def steps(self) -> int:
        """Positions expanded plus moves listed."""
        return self.states * (1 + self.options)


def brute_cost(size: BruteSize) -> Cost:
    """Seconds and bytes of a search of ``size`` (see :data:`STEP_SECONDS`).

    >>> cost = brute_cost(BruteSize(10**6, 9, scale=2.0))
    >>> round(cost.seconds), cost.bytes
    (50, 400000000)
    """
    seconds = min(saturated(size.steps) * STEP_SECONDS * size.scale, MAX_SECONDS)
    return Cost(seconds, size.states * STATE_BYTES)


def heap_product(heaps: Iterable[int]) -> int:
    """Positions below ``heaps`` when a move lowers one heap: the product of heap + 1.

    >>> heap_product((3, 4, 5)), heap_product(()) , heap_product((10**200,) * 3) == 10**300
    (120, 1, True)
    """
    total = 1
    for heap in heaps:
        total *= heap + 1
        if total >= _CAP:
            return _CAP
    return total


def multisets(count: int, kinds: int) -> int:
    """Multisets of ``count`` items of ``kinds`` kinds (sorted positions: ``count`` coins on
    ``kinds`` squares): C(kinds + count - 1, count).

    >>> multisets(3, 4), multisets(0, 5), multisets(2, 0)
    (20, 1, 0)
    """
    if count == 0:
        return 1
    if kinds <= 0:
        return 0
    return min(int(saturated_comb(kinds + count - 1, count)), _CAP)


@lru_cache(maxsize=1024)
def composition_count(heap: int, *, gap: int, exact: bool = False) -> int:
    """Ordered tuples of heaps a heap game can leave from one heap of ``heap`` tokens, when a
    move that splits a heap in two removes at least ``gap`` tokens: sequences of j positive
    heaps summing to at most ``heap - (j - 1)·gap`` (exactly ``heap`` when ``exact``: no move
    removes a token), the empty one included (games that never split have ``heap + 1``).

    >>> composition_count(20, gap=1)  # Kayles: 12,554 met by the search
    17711
    >>> composition_count(20, gap=0, exact=True)  # Grundy's game: 140,538 met
    524289
    >>> composition_count(10**6, gap=1) == 10**300
    True
    """
    if heap == 0:
        return 1
    total = 1
    parts = 1
    while total < _CAP:  # the terms pass the cap within a few thousand parts
        room = heap - (parts - 1) * gap
        if room < parts:
            break
        n, k = (room - 1, parts - 1) if exact else (room, parts)
        exactly = n < 10**6 and k <= 2000
        total += math.comb(n, k) if exactly else int(saturated_comb(n, k))
        parts += 1
    return min(total, _CAP)


def distinct_subsequences(items: Sequence[Hashable]) -> int:
    """Distinct subsequences of ``items`` (the empty one included): positions a game that
    deletes items one at a time, keeping their order, can reach (2^n for distinct items).

    >>> distinct_subsequences("abc"), distinct_subsequences("aaa"), distinct_subsequences("aba")
    (8, 4, 7)
    """
    count = 1
    last: dict[Hashable, int] = {}
    for item in items:
        before = count
        count = min(2 * count - last.get(item, 0), _CAP)
        last[item] = before
    return count


def increasing_below(bounds: Sequence[int]) -> int:
    """Increasing sequences x1 < x2 < ... with 1 <= x_i <= bounds[i] (coins sliding left,
    never over each other, from the cells ``bounds``): exact by a table when it is small, else
    min(C(largest, k), product of (bound_i - i)).

    >>> increasing_below((2, 5, 7, 11))
    122
    >>> increasing_below(()), increasing_below((3,)), increasing_below((10**50, 10**60)) > 10**100
    (1, 3, True)
    """
    k = len(bounds)
    if k == 0:
        return 1
    largest = bounds[-1]
    if k * largest <= 200_000:
        # ways[c] = sequences of the coins so far, the last one at cell c
        ways = [1] * (largest + 1)
        ways[0] = 0
        limit = bounds[0]
        for c in range(limit + 1, largest + 1):
            ways[c] = 0
        for bound in bounds[1:]:
            new = [0] * (largest + 1)
            running = 0
            for c in range(1, bound + 1):
                new[c] = running
                running += ways[c]
            ways = new
        return min(sum(ways), _CAP)
    product = 1
    for index, bound in enumerate(bounds):
        product = min(product * max(bound - index, 1), _CAP)
    return min(int(saturated_comb(largest, k)), product)


def binary_below(coins: str, heads: str = "H") -> int:
    """Rows of coins a game can reach when a move turns a head to tail at k and changes only
    coins left of k: every row is then a smaller binary number (position k worth 2^(k-1)),
    so at most that number + 1 rows.

    >>> binary_below("THHTTH"), binary_below(""), binary_below("H" * 2000) == 10**300
    (39, 1, True)
    """
    last = coins.rfind(heads)
    if last >= 997:  # 2^997 > 10^300
        return _CAP
    value = sum(1 << k for k, coin in enumerate(coins) if coin == heads)
    return value + 1


def sub_multisets(items: Iterable[Hashable]) -> int:
    """Sub-multisets of ``items`` (positions a game that deletes items reaches when it keys
    them sorted): the product of multiplicity + 1.

    >>> sub_multisets("aab"), sub_multisets("")
    (6, 1)
    """
    counts: dict[Hashable, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return heap_product(counts.values())


def grounded_subgraphs(edges: Sequence[tuple[str, str, str]]) -> int:
    """An upper bound on the sets of edges all connected to the ground ``g`` (what Hackenbush
    leaves of ``edges``): with a spanning tree from the ground and the c other edges (cycles,
    loops, parallel copies), 2^c times the sets of tree edges whose every piece touches the
    ground or an end of another edge (counted along the tree, depth-first).

    >>> grounded_subgraphs([("g", "a", "G"), ("a", "b", "G"), ("a", "c", "G")])  # a tree
    5
    >>> cycle = [("g", "a1", "G"), *((f"a{i}", f"a{i + 1}", "G") for i in range(1, 40))]
    >>> grounded_subgraphs([*cycle, ("a40", "g", "G")])  # a cycle: 862 met by the search
    1642
    """
    adjacent: dict[str, list[tuple[str, int]]] = {}
    for index, (u, v, _) in enumerate(edges):
        adjacent.setdefault(u, []).append((v, index))
        adjacent.setdefault(v, []).append((u, index))
    # depth-first from the ground (parents before children): every other edge then joins a
    # node to one of its ancestors, so a cycle is one long path of the tree
    parent: dict[str, str] = {GROUND: GROUND}
    order = [GROUND]
    tree: set[int] = set()
    stack = [(GROUND, iter(adjacent.get(GROUND, [])))]
    while stack:
        node, around = stack[-1]
        for other, index in around:
            if other not in parent:
                parent[other] = node
                tree.add(index)
                order.append(other)
                stack.append((other, iter(adjacent.get(other, []))))
                break
        else:
            stack.pop()
    others = [e for i, e in enumerate(edges) if i not in tree]
    roots = {GROUND} | {n for u, v, _ in others for n in (u, v)}
    # per node: the ways of its subtree's edges where its own piece touches a root (t), does
    # not and has no edge below it (i), does not and has edges (e); every other piece touches
    t = {n: int(n in roots) for n in order}
    i = {n: int(n not in roots) for n in order}
    e = dict.fromkeys(order, 0)
    for node in reversed(order[1:]):
        up = parent[node]
        tu, iu, eu = t[node], i[node], e[node]
        cut = tu + iu  # the edge up not kept: this piece must stand alone
        tv, iv, ev = t[up], i[up], e[up]
        t[up] = min(tv * cut + tv * (tu + iu + eu) + (iv + ev) * tu, _CAP)
        i[up] = min(iv * cut, _CAP)
        e[up] = min(ev * cut + (iv + ev) * (iu + eu), _CAP)
    return min(t[GROUND] << min(len(others), 1000), _CAP)


def graph_positions(edges: Sequence[tuple[str, str, str]], *, ordered: bool) -> int:
    """Graphs a Hackenbush search can reach from ``edges`` (``(u, v, colour)``, ``g`` the
    ground): per part meeting the others only at the ground, the fewer of
    :func:`grounded_subgraphs` and its sub-multisets of edges (``ordered``: the distinct
    subsequences, for a search keyed by the edges in their order); the product over the parts.

    >>> graph_positions([("g", "a", "G"), ("a", "b", "G"), ("a", "c", "G")], ordered=True)
    5
    >>> graph_positions([("g", "a", "G")] * 300, ordered=False)
    301
    """
    from nimlab.cgt.rulesets.hackenbush import _components

    total = 1
    for part in _components(edges):
        other = distinct_subsequences(part) if ordered else sub_multisets(part)
        total = min(total * min(grounded_subgraphs(part), other), _CAP)
    return total


def domino_placements(height: int, width: int, empty: int) -> int:
    """Sets of non-overlapping dominoes on the empty cells (bit ``r * width + c`` of
    ``empty``), the empty set included: the boards a Domineering search can reach. Counted
    by a transfer matrix across the narrower side (cells x 2^side steps, at most 2,000,000), else
    bounded by 2^cells.

    >>> domino_placements(2, 2, 0b1111), domino_placements(4, 4, (1 << 16) - 1)
    (7, 10012)
    >>> domino_placements(1, 5, 0b10111)  # a blocked cell
    3
    """
    cells = bin(empty).count("1")
    if height * width << min(height, width) > 2_000_000:  # a big board: past any budget
        return min(1 << min(cells, 1000), _CAP)
    grid = [[bool(empty >> (r * width + c) & 1) for c in range(width)] for r in range(height)]
    if width > height:  # run along the longer side, the profile across the narrower
        grid = [list(column) for column in zip(*grid, strict=True)]
        height, width = width, height
    # profile bit c: the cell in column c of the current row is covered from the row above
    ways: dict[int, int] = {0: 1}
    for r in range(height):
        for c in range(width):
            step: dict[int, int] = {}
            bit = 1 << c
            for profile, count in ways.items():
                if profile & bit:  # covered from above: nothing to place here
                    key = profile & ~bit
                    step[key] = step.get(key, 0) + count
                    continue
                step[profile] = step.get(profile, 0) + count  # left empty
                if not grid[r][c]:
                    continue
                if r + 1 < height and grid[r + 1][c]:  # a domino down
                    key = profile | bit
                    step[key] = step.get(key, 0) + count
                if c + 1 < width and grid[r][c + 1] and not profile & (bit << 1):
                    key = profile | (bit << 1)  # a domino right: its second cell is covered
                    step[key] = step.get(key, 0) + count
            ways = step
        # a "covered" bit now means covered from the row above, for the next row
    return min(sum(ways.values()), _CAP)

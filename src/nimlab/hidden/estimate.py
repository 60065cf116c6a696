"""The size of a game tree before it is built: Knuth's random walks, stratified
(:func:`estimate_nodes`), for the size guards of the builder and the budgets of
:mod:`nimlab.hidden.budget`."""

from __future__ import annotations

import random
import sys

from nimlab.equilibrium.gametree import GameTree, Heaps, L, R
from nimlab.hidden.builder import Builder, WorkLimitError
from nimlab.hidden.protocol import Rules

__all__ = ["MIN_FINISHED", "estimate_nodes"]

MIN_FINISHED = 16
"""Walks that must reach the end of the game for an estimate not to be taken as unknown
(see ``unfinished`` in :func:`estimate_nodes`)."""


def estimate_nodes(
    rules: Rules,
    position: Heaps,
    *,
    probes: int = 2048,
    seed: int = 0,
    root_heap: int | None = None,
    prune_forced: bool = False,
    known_wins: bool = False,
    max_work: int | None = None,
    misere: bool = False,
    frontier: int = 2048,
    unfinished: int | None = None,
) -> int:
    """Knuth's unbiased estimate of the number of nodes, from random walks, stratified.

    Cheap (``probes`` walks, a fraction of a second) and deterministic (fixed ``seed``);
    used by the size guards. It counts the tree :func:`build_tree` builds with the same
    reductions (by default none: the unreduced tree). The top of the tree is enumerated
    level by level until a level has ``frontier`` nodes (or the tree ends: then the count
    is exact; or ``probes`` nodes have been expanded); the walks start from that level's
    nodes in turn, and each node's subtree is estimated by the mean of its walks.
    Enumerating the top removes the largest source of variance of plain walks from the root
    (the first moves, whose subtrees differ most in size); the error is still large on very
    unbalanced trees.

    With ``max_work``, the walks stop once the belief updates they made looked at that many
    heap vectors in all (counted, so the answer stays deterministic), even inside a walk
    (whose nodes so far then count); a level node left without a walk then counts as the
    mean of the others. ``misere`` counts the misère play's tree. Walks cut by the work cap
    make the answer a lower bound, possibly far too low: with ``unfinished``, the answer is at
    least ``unfinished`` when fewer than :data:`MIN_FINISHED` walks reached the end of the
    game (a tree too large to be sized in the work allowed is taken to be that large).

    >>> from nimlab.hidden.tree import build_tree
    >>> from nimlab.hidden.variants import variant_rules
    >>> full = estimate_nodes(variant_rules("sn"), (4, 4, 1))
    >>> 0 < estimate_nodes(variant_rules("sn"), (4, 4, 1), prune_forced=True) < full
    True
    >>> estimate_nodes(variant_rules("sn"), (9, 9, 1), max_work=10) > 0
    True
    >>> exact = build_tree("sn", (2, 2, 1), prune_forced=False, known_wins=False).nodes
    >>> estimate_nodes(variant_rules("sn"), (2, 2, 1), frontier=10**6) == exact  # enumerated
    True
    """
    tree = GameTree(rules.name, position, misere)
    builder = Builder(tree, rules, sys.maxsize, False, prune_forced, known_wins)
    builder.root_heap = root_heap
    if max_work is not None:
        builder.work_limit = max_work
    roots = [builder.new_history(p, frozenset({position}), None, 0, -1, "") for p in (L, R)]
    counted = 1
    level: list[_Open] = [(position, L, roots)]
    expanded = 0
    # the enumeration may use half the work: the walks need the rest
    top_work = None if max_work is None else max_work // 2
    while level and len(level) < frontier:
        if (top_work is not None and builder.scanned > top_work) or expanded + len(level) > probes:
            break  # a narrow, deep tree: its walks are cheaper than enumerating it
        below: list[_Open] = []
        grown = 0
        for node in level:
            children = _expand(builder, *node, max_work=top_work)
            if children is None:
                break  # over the work in the middle of a level: the walks start from it
            grown += len(children)
            below.extend(child for child in children if child is not None)
        else:
            expanded += len(level)
            counted += grown
            level = below
            continue
        break
    if not level:
        return counted
    rng = random.Random(seed)
    sums, walks = [0] * len(level), [0] * len(level)
    finished = 0
    for done in range(max(probes, 1)):
        if done and max_work is not None and builder.scanned > max_work:
            break
        k = done % len(level)
        size, ended = _walk(builder, level[k], rng, max_work)
        sums[k] += size
        walks[k] += 1
        finished += ended
    means = [total / count for total, count in zip(sums, walks, strict=True) if count]
    fill = sum(means) / len(means)
    subtrees = sum(
        total / count if count else fill for total, count in zip(sums, walks, strict=True)
    )
    estimate = counted + round(subtrees)
    if unfinished is not None and finished < min(MIN_FINISHED, probes):
        return max(estimate, unfinished)
    return estimate


_Open = tuple[Heaps, int, list[int]]
"""A node to expand: its state, the player to move and both players' histories."""


def _expand(
    builder: Builder, state: Heaps, mover: int, hist: list[int], *, max_work: int | None = None
) -> list[_Open | None] | None:
    """The children of a node (``None`` for a terminal one), as :meth:`Builder.visit` makes
    them; none when the node is itself terminal (a known win). ``None`` when the builder's
    work passed ``max_work`` on the way (a node may have hundreds of actions on beliefs of
    thousands of states)."""
    h = hist[mover]
    if (
        builder.known_wins
        and (mover, h) != (L, 0)
        and builder.known_win(state, mover, h) is not None
    ):
        return []
    info = builder.tree.infosets[builder.infoset_of(mover, h)]
    children: list[_Open | None] = []
    for a, act in enumerate(info.actions):
        if max_work is not None and builder.scanned > max_work:
            return None
        st = builder.step(state, act, mover)
        child = list(hist)
        child[mover] = builder.own_child(mover, h, a, st.own)
        if not st.done:
            children.append((st.state, mover, child))
            continue
        try:
            over = builder.settled(st.state, mover, child, hist[1 - mover], st.opp)
        except WorkLimitError:
            return None
        children.append(None if over is not None else (st.state, 1 - mover, child))
    return children


def _walk(
    builder: Builder, start: _Open, rng: random.Random, max_work: int | None
) -> tuple[int, bool]:
    """Knuth's estimate of the nodes below ``start`` from one random walk, and whether the
    walk reached the end of the game (rather than the work cap)."""
    state, mover, hist = start[0], start[1], list(start[2])
    weight, size = 1, 0
    while True:
        h = hist[mover]
        root = (mover, h) == (L, 0)
        if builder.known_wins and not root and builder.known_win(state, mover, h) is not None:
            return size, True
        info = builder.tree.infosets[builder.infoset_of(mover, h)]
        weight *= len(info.actions)
        size += weight
        a = rng.randrange(len(info.actions))
        st = builder.step(state, info.actions[a], mover)
        hist[mover] = builder.own_child(mover, h, a, st.own)
        state = st.state
        if not st.done:
            continue
        try:
            over = builder.settled(state, mover, hist, hist[1 - mover], st.opp)
        except WorkLimitError:
            return size, False  # the next belief alone is over the work
        if over is not None:
            return size, True
        if max_work is not None and builder.scanned > max_work:
            return size, False  # through enormous beliefs: what it has seen is a lower bound
        mover = 1 - mover

"""Building the extensive-form game tree of a variant: :func:`build_tree` checks the position,
sizes the tree first (:mod:`nimlab.hidden.estimate`) and unrolls it
(:mod:`nimlab.hidden.builder`) into the data of :mod:`nimlab.equilibrium.gametree`.

The tree is unrolled from a rules object (:mod:`nimlab.hidden.protocol`). The information set
of the player to move is that player's own history: their actions, what they saw of them, and
what they were told about the opponent's moves (perfect recall by construction). Each history
carries its *belief*, the set of true heaps consistent with it, computed from the parent's
belief alone; actions are a function of the belief, hence identical at every node of an
information set.

Nodes are not stored (only counted) unless ``record_nodes=True``; what the solver needs is the
information sets, the sequences and, for every terminal node, the pair of sequences leading to
it and its payoff.

>>> tree = build_tree("sn", (2, 1))
>>> tree.nodes, tree.infoset_count, tree.value_range()
(4, 1, (-1, 1))
"""

from __future__ import annotations

from nimlab.core.heaps import check_heaps
from nimlab.equilibrium.gametree import GameTree, Heaps
from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.hidden.builder import Builder, Memo
from nimlab.hidden.estimate import estimate_nodes
from nimlab.hidden.protocol import Rules
from nimlab.hidden.restrict import Restriction
from nimlab.hidden.variants import variant_rules

__all__ = ["DEFAULT_MAX_NODES", "ESTIMATE_MARGIN", "build_tree", "growing_tree"]

ESTIMATE_MARGIN = 4
DEFAULT_MAX_NODES = 12_000_000
"""About 7 GB of memory (measured: SN(8,8,1), 7.5 million nodes solved, peaked at 4.1 GB)."""


def _validate(variant: str, heaps: Heaps) -> tuple[Rules, Heaps]:
    rules = variant_rules(variant)
    position = check_heaps(heaps)
    if not any(position):
        raise InvalidPositionError(
            f"position {list(position)} has no chips: give at least one non-empty heap"
        )
    return rules, position


def build_tree(
    variant: str | Rules,
    heaps: Heaps,
    *,
    misere: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
    record_nodes: bool = False,
    prune_forced: bool = True,
    root_heap: int | None = None,
    known_wins: bool = True,
    restrict: tuple[Restriction | None, Restriction | None] | None = None,
    memo: Memo | None = None,
    check_estimate: bool = True,
    without: frozenset[str] = frozenset(),
) -> GameTree:
    """Unroll the game tree of ``variant`` from ``heaps`` (L moves first).

    ``variant`` is a name or a rules object. Raises :class:`TooLargeError` when the tree has
    more than ``max_nodes`` nodes: before anything is built when the estimate
    (:func:`estimate_nodes`, of the unreduced tree, heavy-tailed) exceeds the limit
    ``ESTIMATE_MARGIN`` times over, and in any case as soon as the count passes the limit.

    With ``prune_forced`` (the default) two reductions apply (both proven harmless by tests,
    see ``docs/imperfect.md``). A position reached by a move in which every heap has at most
    one chip is a terminal node: from there each move empties one heap whatever anyone knows
    or does, so the winner is fixed by the number of heaps left (not for rules with silent
    passes, ``kn-empty``, where a pass changes who takes the last chip). And in ``sn``, a
    position with every heap at most 2 whose Nim winner knows the heaps exactly is terminal,
    won by that player: every reply is announced precisely enough for the winner to keep
    knowing the heaps, so the winner's Nim strategy wins at every node the winner cannot
    tell apart, whatever the loser knows or does.

    With ``prune_forced`` and ``known_wins`` (the default), a third one: an information set
    (other than the root) where the mover knows the heaps exactly and has a move after which
    the game is settled as above in the mover's favour is a terminal node won by the mover.
    The move wins at every node of the information set, so playing it there is optimal
    whatever the opponent does, and the opponent's information sets lose only nodes that
    the mover never lets happen (tested against ``known_wins=False``).

    ``root_heap=k`` keeps only L's first moves on heap ``k`` (the subgame ``G_k`` of
    :func:`nimlab.hidden.solve.solve`).

    ``restrict=(rule_l, rule_r)`` holds a player to the actions its
    :class:`~nimlab.hidden.restrict.Restriction` allows (``None``: unrestricted), naming
    histories by :func:`~nimlab.hidden.restrict.history_name`; the tree's
    ``history_ids`` give those names.
    Only the node limit guards a restricted build (the estimate is of the whole tree), or
    a build with ``check_estimate=False`` (its caller has estimated the cost already, see
    :mod:`nimlab.hidden.budget`).
    ``memo`` (a :class:`Memo` of earlier builds of the same game) saves recomputing beliefs.

    The reductions are those of :mod:`nimlab.hidden.reductions` valid for the rules;
    ``without`` names some to leave out (to test them one by one).
    """
    rules, position = _validate(variant, heaps) if isinstance(variant, str) else (variant, heaps)
    tree = GameTree(rules.name, position, misere)
    estimate = 0
    for probes in (128, 2048) if restrict is None and check_estimate else ():
        # a closer look only when the quick one is alarming
        estimate = estimate_nodes(
            rules,
            position,
            probes=probes,
            root_heap=root_heap,
            prune_forced=prune_forced,
            known_wins=known_wins,
        )
        if estimate <= ESTIMATE_MARGIN * max_nodes:
            break
    if estimate > ESTIMATE_MARGIN * max_nodes:
        raise TooLargeError(
            f"the game tree of {rules.name}{position} has about {estimate:,} nodes, more than "
            f"the limit of {max_nodes:,}; raise the limit with --max-nodes",
            estimate=estimate,
            limit=max_nodes,
        )
    builder = Builder(
        tree,
        rules,
        max_nodes,
        record_nodes,
        prune_forced,
        known_wins,
        restrict or (None, None),
        memo,
        without,
    )
    builder.root_heap = root_heap
    builder.start(position)
    return tree


def growing_tree(
    variant: str | Rules,
    heaps: Heaps,
    held: int,
    rule: Restriction,
    *,
    misere: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
    root_heap: int | None = None,
    memo: Memo | None = None,
) -> Builder:
    """The builder of a tree (``builder.tree``) in which player ``held`` is held to ``rule``
    and the opponent plays freely, unrolled as :func:`build_tree` with ``restrict`` does;
    ``builder.grow()`` later extends it by what ``rule`` allows since.

    >>> from nimlab.hidden.restrict import Restriction
    >>> rule = Restriction()
    >>> builder = growing_tree("sn", (3, 1), 1, rule)
    >>> before = builder.tree.nodes
    >>> ids, infosets = builder.tree.history_ids, builder.tree.infosets
    >>> info = next(i for i in infosets if i.player == 1 and len(i.belief) > 1)
    >>> full = builder.actions_of(1, info.belief, info.pending)
    >>> rule.allow(ids[1][info.hist], full[-1], info.belief, info.pending)
    True
    >>> builder.grow(), builder.tree.nodes > before
    (1, True)
    """
    rules, position = _validate(variant, heaps) if isinstance(variant, str) else (variant, heaps)
    restrict = (rule, None) if held == 0 else (None, rule)
    tree = GameTree(rules.name, position, misere)
    builder = Builder(tree, rules, max_nodes, False, True, True, restrict, memo)
    builder.root_heap = root_heap
    builder.held = held
    builder.start(position)
    return builder

"""The extensive-form game tree of a variant, with information sets, beliefs and sequences.

The tree is unrolled from a rules object (:mod:`nimlab.extensive.protocol`). The information set
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

import random
import sys
from array import array
from dataclasses import dataclass, field
from typing import Any

from nimlab.core.heaps import check_heaps
from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.extensive.protocol import Rules, Step
from nimlab.extensive.restrict import HistoryIndex, Restriction
from nimlab.extensive.transforms import Action
from nimlab.extensive.variants import variant_rules

__all__ = [
    "DEFAULT_MAX_NODES",
    "ESTIMATE_MARGIN",
    "GameTree",
    "Infoset",
    "Memo",
    "Node",
    "build_tree",
    "estimate_nodes",
]

Heaps = tuple[Any, ...]
"""A state: the components' states (heap heights for Nim)."""
Belief = frozenset[Heaps]
ESTIMATE_MARGIN = 4
DEFAULT_MAX_NODES = 12_000_000
"""About 7 GB of memory (measured: SN(8,8,1), 7.5 million nodes solved, peaked at 4.1 GB)."""
L, R = 0, 1


@dataclass(frozen=True, slots=True)
class Infoset:
    """One information set: its player (0 = L, 1 = R), the player's sequence leading to it,
    its belief, its actions, the id of its first sequence (action ``a`` has sequence
    ``first_seq + a``), the id of the player's history and its events (for display).

    ``history`` is read on demand from ``trail`` (the player's shared history table, see
    :meth:`GameTree.history`) rather than stored: a tuple per information set would cost
    more memory than the rest of the record.
    """

    player: int
    parent_seq: int
    belief: frozenset[Heaps]
    actions: tuple[Action, ...]
    first_seq: int
    hist: int
    pending: int | None
    trail: list[tuple[int, str]] = field(repr=False, compare=False)

    @property
    def history(self) -> tuple[str, ...]:
        """The events of the player's history, oldest first."""
        return _events(self.trail, self.hist)


@dataclass(frozen=True, slots=True)
class Node:
    """A recorded node (``record_nodes=True``): ``infoset`` is -1 at a terminal node."""

    state: Heaps
    player: int
    infoset: int
    parent: int
    action: int
    payoff: int


@dataclass
class GameTree:
    """The unrolled game: information sets per player, sequences and terminal payoffs.

    ``seq_infoset[p][s]`` is the information set whose action sequence ``s`` of player ``p``
    ends with (-1 for the empty sequence 0). Terminal ``t`` is reached by the sequences
    ``term_seq[0][t]`` and ``term_seq[1][t]`` and pays ``term_payoff[t]`` to L.
    """

    variant: str
    position: Heaps
    misere: bool
    infosets: list[Infoset] = field(default_factory=list)
    seq_infoset: tuple[list[int], list[int]] = field(default_factory=lambda: ([-1], [-1]))
    term_seq: tuple[array[int], array[int]] = field(
        default_factory=lambda: (array("i"), array("i"))
    )
    term_payoff: array[int] = field(default_factory=lambda: array("b"))
    nodes: int = 0
    recorded: list[Node] = field(default_factory=list)
    trail: tuple[list[tuple[int, str]], list[tuple[int, str]]] = field(
        default_factory=lambda: ([], [])
    )
    history_ids: tuple[list[int], list[int]] | None = None
    """Per player, the :class:`HistoryIndex` id of each history (restricted builds only)."""

    def history(self, player: int, hist: int) -> tuple[str, ...]:
        """The events of history ``hist`` of ``player``, oldest first."""
        return _events(self.trail[player], hist)

    @property
    def infoset_count(self) -> int:
        """The number of information sets, both players together."""
        return len(self.infosets)

    def sequence_count(self, player: int) -> int:
        """The number of sequences of ``player``, the empty one included."""
        return len(self.seq_infoset[player])

    def value_range(self) -> tuple[int, int]:
        """The smallest and largest terminal payoff."""
        return min(self.term_payoff), max(self.term_payoff)


def _events(trail: list[tuple[int, str]], hist: int) -> tuple[str, ...]:
    """The non-empty events on the way from the root to history ``hist`` of ``trail``."""
    events = []
    h = hist
    while h >= 0:
        h, event = trail[h]
        if event:
            events.append(event)
    return tuple(reversed(events))


@dataclass
class Memo:
    """What a build computes from beliefs and rules alone, kept to be reused by later builds of
    the same game (same rules and play convention): equal beliefs are shared, and their
    actions and updates computed once."""

    wins: dict[tuple[Heaps, int, int | None], int | None] = field(default_factory=dict)
    steps: dict[tuple[Heaps, Action, int], Step] = field(default_factory=dict)
    pool: dict[Belief, Belief] = field(default_factory=dict)
    actions: dict[tuple[Belief, int | None, int], tuple[Action, ...]] = field(default_factory=dict)
    own_update: dict[tuple[Belief, Action, str, int], tuple[Belief, int | None]] = field(
        default_factory=dict
    )
    opp_update: dict[tuple[Belief, str, int], Belief] = field(default_factory=dict)


class _Builder:
    """Unrolls the tree depth-first, interning each player's histories."""

    def __init__(
        self,
        tree: GameTree,
        rules: Rules,
        max_nodes: int,
        record: bool,
        prune: bool = True,
        known_wins: bool = False,
        restrict: tuple[Restriction | None, Restriction | None] = (None, None),
        index: HistoryIndex | None = None,
        memo: Memo | None = None,
    ) -> None:
        self.tree = tree
        self.restrict = restrict
        self.index = index
        if index is not None:
            tree.history_ids = ([], [])
        self.root_heap: int | None = None
        # the reductions below are Nim's (forced play, small heaps, Bouton's rule)
        self.nim = rules.nim_heaps
        self.over = _no_chip if self.nim else rules.over
        self.prune = prune and not rules.silent_passes and self.nim
        self.known_wins = known_wins and self.prune
        memo = memo or Memo()
        self.wins = memo.wins
        self.rules = rules
        self.max_nodes = max_nodes
        self.record = record
        # per player: history id -> belief, pending heap, last sequence, infoset
        self.belief: tuple[list[frozenset[Heaps]], list[frozenset[Heaps]]] = ([], [])
        self.pending: tuple[list[int | None], list[int | None]] = ([], [])
        self.seq: tuple[list[int], list[int]] = ([], [])
        self.infoset: tuple[list[int], list[int]] = ([], [])
        self.own_children: tuple[dict[tuple[int, int, str], int], ...] = ({}, {})
        self.opp_children: tuple[dict[tuple[int, str], int], ...] = ({}, {})
        self.steps = memo.steps
        self.pool = memo.pool
        self.actions = memo.actions
        self.own_update = memo.own_update
        self.opp_update = memo.opp_update
        # heap vectors looked at while updating beliefs (a state's replies counted as the
        # most a position of this game can have): the walks of estimate_nodes stop on it
        self.scanned = 0
        self.replies = 1 + (sum(tree.position) if self.nim else 16 * len(tree.position))

    def new_history(
        self, p: int, belief: frozenset[Heaps], pending: int | None, seq: int, parent: int, ev: str
    ) -> int:
        self.belief[p].append(self.pool.setdefault(belief, belief))
        self.pending[p].append(pending)
        self.seq[p].append(seq)
        self.infoset[p].append(-1)
        self.tree.trail[p].append((parent, ev))
        ids = self.tree.history_ids
        if self.index is not None and ids is not None:
            ids[p].append(self.index.child(p, ids[p][parent] if parent >= 0 else -1, ev))
        return len(self.seq[p]) - 1

    def infoset_of(self, p: int, h: int) -> int:
        found = self.infoset[p][h]
        if found >= 0:
            return found
        key = (self.belief[p][h], self.pending[p][h])
        actions = self.actions_of(p, *key)
        if p == L and h == 0 and self.root_heap is not None:
            actions = tuple(act for act in actions if act[0] == self.root_heap)
        rule, ids = self.restrict[p], self.tree.history_ids
        if rule is not None and ids is not None:
            actions = rule.filter(ids[p][h], key[0], key[1], actions)
        seqs = self.tree.seq_infoset[p]
        index = len(self.tree.infosets)
        self.tree.infosets.append(
            Infoset(
                p,
                self.seq[p][h],
                self.belief[p][h],
                actions,
                len(seqs),
                h,
                self.pending[p][h],
                self.tree.trail[p],
            )
        )
        seqs.extend([index] * len(actions))
        self.infoset[p][h] = index
        return index

    def actions_of(self, p: int, belief: Belief, pending: int | None) -> tuple[Action, ...]:
        """Player ``p``'s actions on ``belief`` (memoised; both players share Nim's)."""
        key = (belief, pending, 0 if self.nim else p)
        actions = self.actions.get(key)
        if actions is None:
            self.scanned += len(belief)
            actions = self.actions[key] = self.rules.actions(belief, pending, p)
        return actions

    def step(self, state: Heaps, action: Action, p: int) -> Step:
        key = (state, action, 0 if self.nim else p)
        found = self.steps.get(key)
        if found is None:
            found = self.steps[key] = self.rules.step(state, action, p)
        return found

    def own_child(self, p: int, h: int, a: int, own: str) -> int:
        """The mover's history after action ``a`` of its information set, having seen ``own``."""
        key = (h, a, own)
        found = self.own_children[p].get(key)
        if found is not None:
            return found
        info = self.tree.infosets[self.infoset[p][h]]
        action = info.actions[a]
        update = (info.belief, action, own, 0 if self.nim else p)
        known = self.own_update.get(update)
        if known is None:
            self.scanned += len(info.belief)
            belief, pending = set(), None
            for s in info.belief:
                st = self.step(s, action, p)
                if st.own == own and not (st.done and self.over(st.state, 1 - p)):
                    belief.add(st.state)
                    pending = st.pending
            known = self.own_update[update] = (frozenset(belief), pending)
        event = f"{action}" + (f" -> {own}" if own else "")
        child = self.new_history(p, known[0], known[1], info.first_seq + a, h, event)
        self.own_children[p][key] = child
        return child

    def opp_child(self, p: int, h: int, signal: str) -> int:
        """Player ``p``'s history after the opponent's move was announced as ``signal``."""
        key = (h, signal)
        found = self.opp_children[p].get(key)
        if found is not None:
            return found
        update = (self.belief[p][h], signal, 0 if self.nim else p)
        belief = self.opp_update.get(update)
        if belief is None:
            self.scanned += len(update[0]) * self.replies
            signal_of, over = self.rules.signal, self.over
            belief = self.opp_update[update] = frozenset(
                after
                for before in update[0]
                for after in self.rules.replies(before, 1 - p)
                if not over(after, p) and signal_of(before, after) == signal
            )
        event = f"opponent: {signal}" if signal else "opponent moved"
        child = self.new_history(p, belief, None, self.seq[p][h], h, event)
        self.opp_children[p][key] = child
        return child

    def count(self) -> None:
        self.tree.nodes += 1
        if self.tree.nodes > self.max_nodes:
            raise TooLargeError(
                f"the game tree of {self.tree.variant}{self.tree.position} has more than "
                f"{self.max_nodes:,} nodes; raise the limit with --max-nodes",
                estimate=self.tree.nodes,
                limit=self.max_nodes,
            )

    def settled(
        self, state: Heaps, mover: int, child: list[int], before: int, signal: str
    ) -> int | None:
        """After ``mover`` completed a move to ``state``: who takes the last chip, if that is
        settled (then the node is terminal); otherwise ``None``, with the opponent's history
        updated in ``child``.

        Settled: no chips left (``mover`` took the last one); or, with pruning, every heap at
        most 1 (forced play); or, under rules that let a player keep track of heaps of at most
        2 chips (``sn``), every heap at most 2 and the Nim winner knows the heaps exactly.
        """
        other = 1 - mover
        if self.over(state, other):
            return mover
        top = max(state) if self.prune else 0
        if self.prune and top == 1:
            return mover if sum(state) % 2 == 0 else other
        child[other] = self.opp_child(other, before, signal)
        if not (self.prune and top == 2 and self.rules.tracks_small_heaps):
            return None
        to_move_wins = _nim_to_move_wins(state, self.tree.misere)
        winner = other if to_move_wins else mover
        if self.belief[winner][child[winner]] != frozenset({state}):
            return None
        # the winner takes the last chip in normal play; the loser does in misère play
        return winner if not self.tree.misere else 1 - winner

    def known_win(self, state: Heaps, mover: int, h: int) -> int | None:
        """L's payoff if ``mover`` knows the heaps exactly and has a move after which the game
        is settled (see :meth:`settled`) as a win for ``mover`` whatever anyone else knows;
        else ``None``. Then the whole information set is decided: the move wins at each of
        its nodes (they all have these heaps), so it is optimal there."""
        belief = self.belief[mover][h]
        if len(belief) != 1:
            return None
        pending = self.pending[mover][h]
        key = (state, mover, pending)
        if key in self.wins:
            return self.wins[key]
        found = None
        other, misere = 1 - mover, self.tree.misere
        mover_wins = 1 if mover == L else -1
        actions = self.actions_of(mover, belief, pending)
        self.scanned += len(actions)
        for act in actions:
            st = self.step(state, act, mover)
            if not st.done:
                continue
            top = max(st.state)
            if top == 0:
                last = mover
            elif top == 1:
                last = mover if sum(st.state) % 2 == 0 else other
            elif top == 2 and self.rules.tracks_small_heaps:
                if _nim_to_move_wins(st.state, misere):
                    continue  # the opponent is the Nim winner
                last = mover if not misere else other
            else:
                continue
            won = 1 if last == L else -1
            if (-won if misere else won) == mover_wins:
                found = mover_wins
                break
        self.wins[key] = found
        return found

    def visit(self, state: Heaps, mover: int, hist: list[int], parent: int, action: int) -> None:
        self.count()
        h = hist[mover]
        if self.known_wins and (mover, h) != (L, 0):
            payoff = self.known_win(state, mover, h)
            if payoff is not None:
                self.tree.term_seq[L].append(self.seq[L][hist[L]])
                self.tree.term_seq[R].append(self.seq[R][hist[R]])
                self.tree.term_payoff.append(payoff)
                if self.record:
                    self.tree.recorded.append(Node(state, mover, -1, parent, action, payoff))
                return
        index = self.infoset_of(mover, h)
        node = -1
        if self.record:
            node = len(self.tree.recorded)
            self.tree.recorded.append(Node(state, mover, index, parent, action, 0))
        info = self.tree.infosets[index]
        for a, act in enumerate(info.actions):
            st = self.step(state, act, mover)
            child = list(hist)
            child[mover] = self.own_child(mover, h, a, st.own)
            if not st.done:
                self.visit(st.state, mover, child, node, a)
                continue
            other = 1 - mover
            last = self.settled(st.state, mover, child, hist[other], st.opp)
            if last is None:
                self.visit(st.state, other, child, node, a)
                continue
            self.count()
            won = 1 if last == L else -1
            payoff = -won if self.tree.misere else won
            self.tree.term_seq[L].append(self.seq[L][child[L]])
            self.tree.term_seq[R].append(self.seq[R][child[R]])
            self.tree.term_payoff.append(payoff)
            if self.record:
                self.tree.recorded.append(Node(st.state, other, -1, node, a, payoff))


def _no_chip(state: Heaps, player: int) -> bool:
    """Nim's end: every heap is empty (the Nim rules' ``over``, without a method call)."""
    return not any(state)


def _nim_to_move_wins(state: Heaps, misere: bool) -> bool:
    """Bouton's rule, and its misère form (all heaps <= 1: an even number of them)."""
    nim_sum = 0
    for h in state:
        nim_sum ^= h
    if misere and max(state) <= 1:
        return nim_sum == 0
    return nim_sum != 0


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
    index: HistoryIndex | None = None,
    memo: Memo | None = None,
    check_estimate: bool = True,
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
    :func:`nimlab.extensive.solve.solve`).

    ``restrict=(rule_l, rule_r)`` holds a player to the actions its
    :class:`~nimlab.extensive.restrict.Restriction` allows (``None``: unrestricted), naming
    histories by ``index`` (required then); the tree's ``history_ids`` give those names.
    Only the node limit guards a restricted build (the estimate is of the whole tree), or
    a build with ``check_estimate=False`` (its caller has estimated the cost already, see
    :mod:`nimlab.extensive.budget`).
    ``memo`` (a :class:`Memo` of earlier builds of the same game) saves recomputing beliefs.
    """
    rules, position = _validate(variant, heaps) if isinstance(variant, str) else (variant, heaps)
    tree = GameTree(rules.name, position, misere)
    if restrict is not None and index is None:
        raise ValueError("a restricted build needs a HistoryIndex to name histories")
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
    builder = _Builder(
        tree,
        rules,
        max_nodes,
        record_nodes,
        prune_forced,
        known_wins,
        restrict or (None, None),
        index,
        memo,
    )
    builder.root_heap = root_heap
    roots = [builder.new_history(p, frozenset({position}), None, 0, -1, "") for p in (L, R)]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        builder.visit(position, L, roots, -1, -1)
    finally:
        sys.setrecursionlimit(limit)
    return tree


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
    mean of the others. ``misere`` counts the misère play's tree.

    >>> from nimlab.extensive.variants import variant_rules
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
    builder = _Builder(tree, rules, sys.maxsize, False, prune_forced, known_wins)
    builder.root_heap = root_heap
    roots = [builder.new_history(p, frozenset({position}), None, 0, -1, "") for p in (L, R)]
    counted = 1
    level: list[_Open] = [(position, L, roots)]
    expanded = 0
    while level and len(level) < frontier:
        if (max_work is not None and builder.scanned > max_work) or expanded + len(level) > probes:
            break  # a narrow, deep tree: its walks are cheaper than enumerating it
        expanded += len(level)
        below: list[_Open] = []
        for node in level:
            children = _expand(builder, *node)
            counted += len(children)
            below.extend(child for child in children if child is not None)
        level = below
    if not level:
        return counted
    rng = random.Random(seed)
    sums, walks = [0] * len(level), [0] * len(level)
    for done in range(max(probes, 1)):
        if done and max_work is not None and builder.scanned > max_work:
            break
        k = done % len(level)
        sums[k] += _walk(builder, level[k], rng, max_work)
        walks[k] += 1
    means = [total / count for total, count in zip(sums, walks, strict=True) if count]
    fill = sum(means) / len(means)
    subtrees = sum(
        total / count if count else fill for total, count in zip(sums, walks, strict=True)
    )
    return counted + round(subtrees)


_Open = tuple[Heaps, int, list[int]]
"""A node to expand: its state, the player to move and both players' histories."""


def _expand(builder: _Builder, state: Heaps, mover: int, hist: list[int]) -> list[_Open | None]:
    """The children of a node (``None`` for a terminal one), as :meth:`_Builder.visit` makes
    them; none when the node is itself terminal (a known win)."""
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
        st = builder.step(state, act, mover)
        child = list(hist)
        child[mover] = builder.own_child(mover, h, a, st.own)
        if not st.done:
            children.append((st.state, mover, child))
        elif builder.settled(st.state, mover, child, hist[1 - mover], st.opp) is not None:
            children.append(None)
        else:
            children.append((st.state, 1 - mover, child))
    return children


def _walk(builder: _Builder, start: _Open, rng: random.Random, max_work: int | None) -> int:
    """Knuth's estimate of the nodes below ``start`` from one random walk."""
    state, mover, hist = start[0], start[1], list(start[2])
    weight, size = 1, 0
    while True:
        h = hist[mover]
        root = (mover, h) == (L, 0)
        if builder.known_wins and not root and builder.known_win(state, mover, h) is not None:
            return size
        info = builder.tree.infosets[builder.infoset_of(mover, h)]
        weight *= len(info.actions)
        size += weight
        a = rng.randrange(len(info.actions))
        st = builder.step(state, info.actions[a], mover)
        hist[mover] = builder.own_child(mover, h, a, st.own)
        state = st.state
        if not st.done:
            continue
        if builder.settled(state, mover, hist, hist[1 - mover], st.opp) is not None:
            return size
        if max_work is not None and builder.scanned > max_work:
            return size  # a walk through enormous beliefs: what it has seen is a lower bound
        mover = 1 - mover

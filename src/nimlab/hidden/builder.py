"""Unrolling a game tree from rules, depth first: :class:`Builder`, used by
:func:`nimlab.hidden.tree.build_tree` to build and by :mod:`nimlab.hidden.estimate` to
walk. Nim's reductions (forced play, small heaps, known wins) are applied here, and only to
Nim heaps (see ``docs/imperfect.md``).

Nodes are not stored (only counted) unless asked for; what the solver needs is the
information sets, the sequences and, for every terminal node, the pair of sequences leading
to it and its payoff.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import NoReturn

import numpy as np

from nimlab.equilibrium.gametree import (
    NO_PENDING,
    Belief,
    GameTree,
    Heaps,
    L,
    Node,
    R,
    announcement,
    own_event,
)
from nimlab.equilibrium.seqform import offsets
from nimlab.errors import TooLargeError
from nimlab.hidden.children import SIGNAL_BITS, ChildTable, opponent_label, own_label
from nimlab.hidden.protocol import Rules, Step
from nimlab.hidden.reductions import applicable
from nimlab.hidden.restrict import NO_HISTORY, Restriction, history_name
from nimlab.hidden.transforms import Action

__all__ = ["Builder", "Memo", "WorkLimitError"]


class WorkLimitError(Exception):
    """An update of a belief would take :attr:`Builder.scanned` past
    :attr:`Builder.work_limit` (the walks of ``estimate_nodes`` stop there)."""


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


class Builder:
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
        memo: Memo | None = None,
        without: frozenset[str] = frozenset(),
    ) -> None:
        self.tree = tree
        self.restrict = restrict
        # the player whose information sets may gain actions later (see grow), and its nodes
        # in the order visited: their information sets, states and the other player's histories
        self.held: int | None = None
        self.held_infoset: array[int] = array("i")
        self.held_state: list[Heaps] = []
        self.held_other: array[int] = array("i")
        if any(rule is not None for rule in restrict):  # restrictions name histories
            tree.history_ids = (array("q"), array("q"))
        self.root_heap: int | None = None
        # the reductions valid for these rules (nimlab.hidden.reductions), unless switched off
        self.nim = rules.nim_heaps
        self.over = _no_chip if self.nim else rules.over
        active = applicable(rules, without) if prune else frozenset()
        self.forced = "forced-play" in active
        self.small = "small-heaps" in active
        self.known_wins = known_wins and "known-wins" in active
        memo = memo or Memo()
        self.wins = memo.wins
        self.rules = rules
        self.max_nodes = max_nodes
        self.record = record
        # per player: history id -> belief, pending heap, last sequence, infoset
        self.belief: tuple[list[frozenset[Heaps]], list[frozenset[Heaps]]] = ([], [])
        self.pending: tuple[array[int], array[int]] = (array("i"), array("i"))  # NO_PENDING
        self.seq: tuple[array[int], array[int]] = (array("i"), array("i"))
        self.infoset: tuple[array[int], array[int]] = (array("i"), array("i"))
        # per player: its information sets' indices in the tree, in order
        self.own_infosets: tuple[array[int], array[int]] = (array("i"), array("i"))
        # per player: a history's children, by what extends it (own_label, opponent_label)
        self.children = (ChildTable(), ChildTable())
        self.signals: dict[str, int] = {}  # a number for each text seen or told
        self.steps = memo.steps
        self.pool = memo.pool
        self.actions = memo.actions
        self.own_update = memo.own_update
        self.opp_update = memo.opp_update
        # heap vectors looked at while updating beliefs (a state's replies counted as the
        # most a position of this game can have): the walks of estimate_nodes stop on it
        self.scanned = 0
        # past this many, an opponent's-move update is refused before it is made (raises
        # WorkLimitError): one update of a large belief can cost more than all the walks before
        self.work_limit = sys.maxsize
        self.replies = 1 + (
            sum(tree.position)
            if self.nim
            else max(sum(1 for _ in rules.replies(tree.position, p)) for p in (L, R))
        )

    def new_history(
        self, p: int, belief: frozenset[Heaps], pending: int | None, seq: int, parent: int, ev: str
    ) -> int:
        self.belief[p].append(self.pool.setdefault(belief, belief))
        self.pending[p].append(NO_PENDING if pending is None else pending)
        self.seq[p].append(seq)
        self.infoset[p].append(-1)
        self.tree.trail[p].add(parent, ev)
        ids = self.tree.history_ids
        if ids is not None:
            ids[p].append(history_name(p, ids[p][parent] if parent >= 0 else NO_HISTORY, ev))
        return len(self.seq[p]) - 1

    def pending_at(self, p: int, h: int) -> int | None:
        """The heap player ``p`` is in the middle of moving on at history ``h``, if any."""
        pending = self.pending[p][h]
        return None if pending == NO_PENDING else pending

    def infoset_of(self, p: int, h: int) -> int:
        found = self.infoset[p][h]
        if found >= 0:
            return found
        actions = self.allowed_actions(p, h)
        seqs = self.tree.seq_infoset[p]
        index = self.tree.infosets.append(
            p, self.seq[p][h], self.belief[p][h], actions, len(seqs), h, self.pending_at(p, h)
        )
        seqs.extend([index] * len(actions))
        self.infoset[p][h] = index
        self.own_infosets[p].append(index)
        return index

    def allowed_actions(self, p: int, h: int) -> tuple[Action, ...]:
        """The actions of player ``p`` at history ``h``: the rules' actions on its belief, on
        the root heap only at L's root if one is set, and those allowed by ``p``'s
        restriction if any (as it stands now)."""
        belief, pending = self.belief[p][h], self.pending_at(p, h)
        actions = self.actions_of(p, belief, pending)
        if p == L and h == 0 and self.root_heap is not None:
            actions = tuple(act for act in actions if act[0] == self.root_heap)
        rule, ids = self.restrict[p], self.tree.history_ids
        if rule is not None and ids is not None:
            actions = rule.filter(ids[p][h], belief, pending, actions)
        return actions

    def actions_of(self, p: int, belief: Belief, pending: int | None) -> tuple[Action, ...]:
        """Player ``p``'s actions on ``belief`` (memoised; both players share Nim's)."""
        key = (belief, pending, 0 if self.nim else p)
        actions = self.actions.get(key)
        if actions is None:
            self.scanned += len(belief) * (1 if self.nim else self.replies)
            actions = self.actions[key] = self.rules.actions(belief, pending, p)
        return actions

    def step(self, state: Heaps, action: Action, p: int) -> Step:
        key = (state, action, 0 if self.nim else p)
        found = self.steps.get(key)
        if found is None:
            found = self.steps[key] = self.rules.step(state, action, p)
        return found

    def signal(self, text: str) -> int:
        """The number of ``text``, something seen or told (numbered as first met)."""
        found = self.signals.get(text)
        if found is None:
            found = self.signals[text] = len(self.signals)
            if found >= 1 << SIGNAL_BITS:
                raise ValueError(f"more than {1 << SIGNAL_BITS:,} distinct signals")
        return found

    def own_child(self, p: int, h: int, a: int, own: str) -> int:
        """The mover's history after action ``a`` of its information set, having seen ``own``."""
        label = own_label(a, self.signal(own))
        found = self.children[p].get(h, label)
        if found >= 0:
            return found
        infosets, index = self.tree.infosets, self.infoset[p][h]
        action, before = infosets.actions[index][a], infosets.belief[index]
        update = (before, action, own, 0 if self.nim else p)
        known = self.own_update.get(update)
        if known is None:
            self.scanned += len(before)
            belief, pending = set(), None
            for s in before:
                st = self.step(s, action, p)
                if st.own == own and not (st.done and self.over(st.state, 1 - p)):
                    belief.add(st.state)
                    pending = st.pending
            known = self.own_update[update] = (frozenset(belief), pending)
        child = self.new_history(
            p, known[0], known[1], infosets.first_seq[index] + a, h, own_event(action, own)
        )
        self.children[p].put(h, label, child)
        return child

    def opp_child(self, p: int, h: int, signal: str) -> int:
        """Player ``p``'s history after the opponent's move was announced as ``signal``."""
        label = opponent_label(self.signal(signal))
        found = self.children[p].get(h, label)
        if found >= 0:
            return found
        update = (self.belief[p][h], signal, 0 if self.nim else p)
        belief = self.opp_update.get(update)
        if belief is None:
            self.scanned += len(update[0]) * self.replies
            if self.scanned > self.work_limit:
                raise WorkLimitError(self.scanned)
            announced, over = self.rules.announced, self.over
            belief = self.opp_update[update] = frozenset(
                after
                for before in update[0]
                for after in announced(before, 1 - p, signal)
                if not over(after, p)
            )
        child = self.new_history(p, belief, None, self.seq[p][h], h, announcement(signal))
        self.children[p].put(h, label, child)
        return child

    def count(self) -> None:
        self.tree.nodes += 1
        if self.tree.nodes > self.max_nodes:
            self.too_large()

    def too_large(self) -> NoReturn:
        """Refuse the tree: it has passed the node limit."""
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
        top = max(state) if self.forced or self.small else 0
        if self.forced and top == 1:
            return mover if sum(state) % 2 == 0 else other
        child[other] = self.opp_child(other, before, signal)
        if not (self.small and top == 2):
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
        pending = self.pending_at(mover, h)
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
            elif top == 1 and self.forced:
                last = mover if sum(st.state) % 2 == 0 else other
            elif top == 2 and self.small:
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

    def visit(
        self, state: Heaps, mover: int, hist: list[int], parent: int, action: int, came: Step | None
    ) -> None:
        """Unroll the node of ``state`` with ``mover`` to move and histories ``hist``, reached
        from recorded node ``parent`` by its ``action``, a move that did ``came``."""
        tree = self.tree
        tree.nodes += 1
        if tree.nodes > self.max_nodes:
            self.too_large()
        h = hist[mover]
        if self.known_wins and (mover, h) != (L, 0) and len(self.belief[mover][h]) == 1:
            payoff = self.known_win(state, mover, h)
            if payoff is not None:
                tree.term_seq[L].append(self.seq[L][hist[L]])
                tree.term_seq[R].append(self.seq[R][hist[R]])
                tree.term_payoff.append(payoff)
                if self.record:
                    self._record(state, mover, -1, parent, action, payoff, came, hist)
                return
        index = self.infoset[mover][h]
        if index < 0:
            index = self.infoset_of(mover, h)
        node = -1
        if self.record:
            node = len(tree.recorded)
            self._record(state, mover, index, parent, action, 0, came, hist)
        if mover == self.held:
            self.held_infoset.append(index)
            self.held_state.append(state)
            self.held_other.append(hist[1 - mover])
        for a, act in enumerate(tree.infosets.actions[index]):
            self.descend(state, mover, hist, node, a, act)

    def descend(
        self, state: Heaps, mover: int, hist: list[int], node: int, a: int, act: Action
    ) -> None:
        """Play action ``a`` (``act``) of ``mover``'s information set at the node of
        ``state`` with histories ``hist`` (recorded as ``node``), and unroll what follows."""
        tree = self.tree
        st = self.steps.get((state, act, 0 if self.nim else mover))
        if st is None:
            st = self.step(state, act, mover)
        h = hist[mover]
        child = list(hist)
        code = self.signals.get(st.own)
        own = -1 if code is None else self.children[mover].get(h, own_label(a, code))
        child[mover] = own if own >= 0 else self.own_child(mover, h, a, st.own)
        if not st.done:
            self.visit(st.state, mover, child, node, a, st)
            return
        other = 1 - mover
        last = self.settled(st.state, mover, child, hist[other], st.opp)
        if last is None:
            self.visit(st.state, other, child, node, a, st)
            return
        self.count()
        won = 1 if last == L else -1
        payoff = -won if tree.misere else won
        tree.term_seq[L].append(self.seq[L][child[L]])
        tree.term_seq[R].append(self.seq[R][child[R]])
        tree.term_payoff.append(payoff)
        if self.record:
            self._record(st.state, other, -1, node, a, payoff, st, child)

    def start(self, position: Heaps) -> None:
        """Unroll the whole tree from ``position``, L to move."""
        roots = [self.new_history(p, frozenset({position}), None, 0, -1, "") for p in (L, R)]
        with _deep_recursion():
            self.visit(position, L, roots, -1, -1, None)

    def grow(self) -> int:
        """Give the held player's information sets the actions its restriction allows now and
        did not when they were made, unroll what those actions lead to, and return how many
        actions were added. An information set keeps every action it had (the restriction
        only grows), so the tree only grows: sequences keep their names, and their numbers
        are shifted to stay consecutive within each information set."""
        p = self.held
        rule = None if p is None else self.restrict[p]
        ids = self.tree.history_ids
        if p is None or rule is None or ids is None:
            raise ValueError("only a restricted build with a held player can grow")
        histories, keys = rule.take_touched()
        infosets = self.tree.infosets
        extra: dict[int, tuple[Action, ...]] = {}
        visited = np.frombuffer(self.held_infoset, dtype=np.int32)
        for index in np.unique(visited).tolist():  # in the order first visited
            hist = infosets.hist[index]
            key = (infosets.belief[index], self.pending_at(p, hist))
            if ids[p][hist] not in histories and key not in keys:
                continue
            known = infosets.actions[index]
            new = tuple(a for a in self.allowed_actions(p, hist) if a not in known)
            if new:
                extra[index] = new
        if not extra:
            del visited  # an exported buffer would stop the array from growing
            return 0
        self._make_room(p, extra)
        # the nodes of the grown information sets, by information set, each in visited order
        nodes = np.flatnonzero(np.isin(visited, np.fromiter(extra, dtype=np.int32)))
        nodes = nodes[np.argsort(visited[nodes], kind="stable")]
        del visited
        with _deep_recursion():
            for node in nodes.tolist():
                index = self.held_infoset[node]
                hist, actions = infosets.hist[index], infosets.actions[index]
                other = self.held_other[node]
                pair = [hist, other] if p == L else [other, hist]
                for a in range(len(actions) - len(extra[index]), len(actions)):
                    self.descend(self.held_state[node], p, pair, -1, a, actions[a])
        return sum(len(new) for new in extra.values())

    def _make_room(self, p: int, extra: dict[int, tuple[Action, ...]]) -> None:
        """Append ``extra[i]`` to the actions of ``p``'s information sets ``i`` and renumber
        ``p``'s sequences (information sets in order, actions in order) to make room.
        Information sets before the first one that grows keep their numbers."""
        tree = self.tree
        infosets = tree.infosets
        grown = np.fromiter(extra, dtype=np.int64, count=len(extra))
        for index, new in extra.items():
            infosets.actions[index] += new
        own = np.frombuffer(self.own_infosets[p], dtype=np.int32)
        own = own[np.searchsorted(own, grown.min()) :]  # p's information sets from there
        first = np.frombuffer(infosets.first_seq, dtype=np.int32)
        width = np.frombuffer(infosets.width, dtype=np.int32)
        parent = np.frombuffer(infosets.parent_seq, dtype=np.int32)
        old_first, old_width = first[own].astype(np.int64), width[own].astype(np.int64)
        added = np.zeros(len(own), dtype=np.int64)
        added[np.searchsorted(own, grown)] = [len(extra[i]) for i in grown.tolist()]
        # each information set's sequences move by the actions added before it
        shift = np.cumsum(added) - added
        seq_infoset = tree.seq_infoset[p]
        new_of = np.arange(len(seq_infoset), dtype=np.int64)
        new_of[np.repeat(old_first, old_width) + offsets(old_width)] += np.repeat(shift, old_width)
        first[own] = old_first + shift
        width[own] = old_width + added
        parent[own] = new_of[parent[own]]
        del seq_infoset[int(old_first[0]) :]
        seq_infoset.frombytes(np.repeat(own, old_width + added).astype(np.int32).tobytes())
        del own, first, width, parent  # exported buffers would stop the arrays from growing
        for sequences in (tree.term_seq[p], self.seq[p]):  # both renumbered in place
            view = np.frombuffer(sequences, dtype=np.int32)
            view[:] = new_of[view]
            del view

    def _record(
        self,
        state: Heaps,
        player: int,
        infoset: int,
        parent: int,
        action: int,
        payoff: int,
        came: Step | None,
        hist: list[int],
    ) -> None:
        seen, told, done = ("", "", False) if came is None else (came.own, came.opp, came.done)
        node = Node(
            state, player, infoset, parent, action, payoff, seen, told, done, (hist[0], hist[1])
        )
        self.tree.recorded.append(node)


@contextmanager
def _deep_recursion() -> Iterator[None]:
    """Room for the depth-first unrolling's recursion (a node per level)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


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

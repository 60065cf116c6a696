"""Moving through a built game tree: from a node and an action to the next node, with what
each player knows there.

A tree built with ``record_nodes=True`` keeps every node
(:class:`~nimlab.equilibrium.gametree.Node`): its true state, its information set, and what the
move into it showed the mover and told the opponent. A :class:`Cursor` stands on one node;
:meth:`Cursor.child` follows an action, and :meth:`Cursor.events` and :meth:`Cursor.belief` say
what a player has seen and which true states it cannot exclude. Nothing is recomputed from the
rules: matches against the equilibrium (:mod:`nimlab.play.hidden`) and the games nimlab
registers with OpenSpiel walk the solved tree itself.

>>> from nimlab.hidden.tree import build_tree
>>> tree = build_tree("sn", (2, 1), record_nodes=True, prune_forced=False, known_wins=False)
>>> root = Cursor.root(tree)
>>> root.player, [str(a) for a in root.actions]
(0, ['1_1', '1_2', '2_1'])
>>> after = root.child(1)  # L takes 2 from heap 1
>>> after.state, after.player, after.last_move.told
((0, 1), 1, 'heap 1 emptied')
>>> after.events(1), after.events(0)
(('opponent: heap 1 emptied',), ('1_2',))
>>> end = after.child(0)
>>> end.terminal, end.payoff, end.events(0)  # R took the last chip
(True, -1, ('1_2', 'opponent: heap 2 emptied'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nimlab.equilibrium.gametree import Action, GameTree, Infoset, Node, announcement, own_event

__all__ = ["Cursor", "Move"]


@dataclass(frozen=True)
class Move:
    """The move into a node: who made it, the action, what the mover saw, and what the
    opponent was told (``None`` while the turn goes on: the mover acts again)."""

    player: int
    action: Action
    seen: str
    told: str | None
    before: Any
    after: Any

    @property
    def event(self) -> str:
        """The event in the mover's own history (``"look 2 -> 3"``)."""
        return own_event(self.action, self.seen)


@dataclass(frozen=True)
class Cursor:
    """A node of a recorded tree (see the module's docstring)."""

    tree: GameTree = field(repr=False)
    node: int
    children: dict[tuple[int, int], int] = field(repr=False)
    peers: dict[tuple[int, int], frozenset[Any]] = field(repr=False, default_factory=dict)
    """Per (player, history id), the true states of every node with that history."""

    @classmethod
    def root(cls, tree: GameTree) -> Cursor:
        """The root of ``tree`` (built with ``record_nodes=True``)."""
        if not tree.recorded:
            raise ValueError("the tree was built without record_nodes=True")
        children = {(n.parent, n.action): i for i, n in enumerate(tree.recorded) if n.parent >= 0}
        states: dict[tuple[int, int], set[Any]] = {}
        for n in tree.recorded:
            if n.infoset < 0:
                continue  # a terminal node: the last move is not in the histories yet
            for player in (0, 1):
                states.setdefault((player, n.histories[player]), set()).add(n.state)
        peers = {key: frozenset(found) for key, found in states.items()}
        return cls(tree, 0, children, peers)

    @property
    def _node(self) -> Node:
        return self.tree.recorded[self.node]

    @property
    def state(self) -> Any:
        """The true state here."""
        return self._node.state

    @property
    def terminal(self) -> bool:
        """Whether the game is over here."""
        return self._node.infoset < 0

    @property
    def payoff(self) -> int:
        """L's payoff at a terminal node (+1: L won, -1: R won)."""
        if not self.terminal:
            raise ValueError("the game is not over at this node")
        return self._node.payoff

    @property
    def player(self) -> int:
        """The player to move (at a terminal node: the one who would move next)."""
        return self._node.player

    @property
    def infoset(self) -> Infoset:
        """The information set of the player to move."""
        if self.terminal:
            raise ValueError("nobody moves at a terminal node")
        return self.tree.infosets[self._node.infoset]

    @property
    def infoset_index(self) -> int:
        """The index of :attr:`infoset` in the tree (the row of a behaviour strategy)."""
        if self.terminal:
            raise ValueError("nobody moves at a terminal node")
        return self._node.infoset

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions of the player to move."""
        return self.infoset.actions

    def child(self, action: int) -> Cursor:
        """The node after the player to move plays its action number ``action``."""
        found = self.children.get((self.node, action))
        if found is None:
            raise IndexError(f"node {self.node} has no action {action}")
        return Cursor(self.tree, found, self.children, self.peers)

    @property
    def parent(self) -> Cursor | None:
        """The node before the last move (``None`` at the root)."""
        parent = self._node.parent
        return None if parent < 0 else Cursor(self.tree, parent, self.children, self.peers)

    @property
    def last_move(self) -> Move:
        """The move that led here."""
        parent = self.parent
        if parent is None:
            raise ValueError("the root has no move before it")
        node = self._node
        action = parent.actions[node.action]
        told = node.told if node.done else None
        return Move(parent.player, action, node.seen, told, parent.state, node.state)

    def moves(self) -> list[Move]:
        """Every move from the root to here, oldest first."""
        moves: list[Move] = []
        at: Cursor | None = self
        while at is not None and at.node != 0:
            moves.append(at.last_move)
            at = at.parent
        return moves[::-1]

    def events(self, player: int) -> tuple[str, ...]:
        """What ``player`` has seen so far: own actions with what they showed, and the
        announcements of the opponent's moves."""
        node = self._node
        events = self.tree.history(player, node.histories[player])
        if self.terminal and node.done and self.parent is not None:
            # the game ended on the opponent's move before its announcement was recorded
            mover = self.parent.player
            if player != mover and node.histories[player] == self.parent._node.histories[player]:
                events += (announcement(node.told),)
        return events

    def belief(self) -> frozenset[Any]:
        """The true states the player to move cannot exclude."""
        return self.infoset.belief

    def knowledge(self, player: int) -> frozenset[Any]:
        """The true states ``player`` cannot exclude here, whoever is to move: those of every
        node where ``player``'s history is the same (for the player to move, its
        :meth:`belief`). Not at a terminal node, where the game is over.

        >>> from nimlab.hidden.tree import build_tree
        >>> tree = build_tree("kn", (2, 1), record_nodes=True, prune_forced=False, known_wins=False)
        >>> after = Cursor.root(tree).child(1)  # L takes 2 from heap 1; R is told "moved"
        >>> after.player, sorted(after.knowledge(0)), sorted(after.knowledge(1))
        (1, [(0, 1)], [(0, 1), (1, 1), (2, 0)])
        """
        if self.terminal:
            raise ValueError("the game is over at this node")
        return self.peers[(player, self._node.histories[player])]

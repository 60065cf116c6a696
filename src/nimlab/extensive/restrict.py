"""Strategy restrictions: holding a player to a chosen set of actions per information set.

A tree built with a :class:`Restriction` for player ``p`` keeps, at each information set of
``p``, only the actions allowed there: those listed for the set's history, or (at a history
not listed) a single default action. The restricted player's options shrink, so the game
value moves in the opponent's favour: restricting R gives an upper bound on the value,
restricting L a lower bound. :mod:`nimlab.extensive.oracle` grows the allowed sets until the
two bounds meet.

Histories are named across builds by a :class:`HistoryIndex` (a trie of events), so that an
action found useful in one tree can be allowed in another.

>>> index = HistoryIndex()
>>> root = index.child(0, -1, "")
>>> index.child(0, root, "look 1 -> 3") == index.child(0, root, "look 1 -> 3")
True
>>> index.child(0, root, "look 1 -> 3") != index.child(1, root, "look 1 -> 3")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nimlab.extensive.transforms import Action, Move

__all__ = ["HistoryIndex", "Restriction", "default_action"]

Heaps = tuple[int, ...]

EVENT_BITS = 32
"""Bits of a :class:`HistoryIndex` key that hold the event's number."""


@dataclass
class HistoryIndex:
    """Stable ids of the players' histories: ``(parent id, event) -> id``, per player.

    The pair is kept as one int, the parent's id beside the event's number (events are
    numbered as first seen): an int key takes about half the memory of a tuple's.
    """

    tries: tuple[dict[int, int], dict[int, int]] = field(default_factory=lambda: ({}, {}))
    events: dict[str, int] = field(default_factory=dict)

    def child(self, player: int, parent: int, event: str) -> int:
        """The id of history ``parent`` extended by ``event`` (``parent=-1``: the root)."""
        code = self.events.get(event)
        if code is None:
            code = self.events[event] = len(self.events)
        trie = self.tries[player]
        return trie.setdefault((parent + 1) << EVENT_BITS | code, len(trie))


def default_action(belief: frozenset[Heaps], actions: tuple[Action, ...]) -> Action:
    """The action a restricted player takes at a history nobody has allowed anything at.

    With Nim heaps known exactly, a move to Nim-sum 0 if there is one; otherwise (and in
    other games) the first action.

    >>> from nimlab.extensive.variants import variant_rules
    >>> belief = frozenset({(3, 1)})
    >>> str(default_action(belief, variant_rules("sn").actions(belief, None, 0)))
    '1_2'
    """
    if len(belief) == 1 and all(isinstance(h, int) for h in next(iter(belief))):
        (state,) = belief
        total = 0
        for h in state:
            total ^= h
        for act in actions:
            if isinstance(act, Move):  # on Nim heaps a move's label is (amount,)
                height = state[act.component]
                if act.label == (height - (height ^ total),):
                    return act
    return actions[0]


@dataclass
class Restriction:
    """The actions allowed to one player: per history id, a set of actions.

    >>> from nimlab.extensive.variants import variant_rules
    >>> rule, belief = Restriction(), frozenset({(2,)})
    >>> acts = variant_rules("sn").actions(belief, None, 0)
    >>> [str(a) for a in rule.filter(7, belief, None, acts)]  # nothing allowed: the default
    ['1_2']
    >>> rule.allow(7, acts[0], belief, None)
    True
    >>> [str(a) for a in rule.filter(7, belief, None, acts) + rule.filter(8, belief, None, acts)]
    ['1_1', '1_1']
    """

    allowed: dict[int, set[Action]] = field(default_factory=dict)
    by_belief: dict[tuple[frozenset[Heaps], int | None], set[Action]] = field(default_factory=dict)
    touched: tuple[set[int], set[tuple[frozenset[Heaps], int | None]]] = field(
        default_factory=lambda: (set(), set())
    )
    """The histories and (belief, pending heap) keys given an action since
    :meth:`take_touched` last emptied them."""

    def allow(
        self, history: int, action: Action, belief: frozenset[Heaps], pending: int | None
    ) -> bool:
        """Allow ``action`` at ``history`` (whose belief and pending heap are given); true if
        it was not allowed there before. Histories nothing was allowed at yet fall back on the
        actions allowed at any history with the same belief."""
        key = (belief, pending)
        self.by_belief.setdefault(key, set()).add(action)
        found = self.allowed.setdefault(history, set())
        if action in found:
            return False
        found.add(action)
        self.touched[0].add(history)
        self.touched[1].add(key)
        return True

    def take_touched(self) -> tuple[set[int], set[tuple[frozenset[Heaps], int | None]]]:
        """The histories and keys given an action since the last call (then forgotten)."""
        taken = self.touched
        self.touched = (set(), set())
        return taken

    def filter(
        self,
        history: int,
        belief: frozenset[Heaps],
        pending: int | None,
        actions: tuple[Action, ...],
    ) -> tuple[Action, ...]:
        """The allowed actions among ``actions`` (never empty), in their original order."""
        found = self.allowed.get(history) or self.by_belief.get((belief, pending))
        kept = tuple(a for a in actions if a in found) if found else ()
        return kept or (default_action(belief, actions),)

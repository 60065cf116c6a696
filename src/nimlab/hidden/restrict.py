"""Strategy restrictions: holding a player to a chosen set of actions per information set.

A tree built with a :class:`Restriction` for player ``p`` keeps, at each information set of
``p``, only the actions allowed there: those listed for the set's history, or (at a history
not listed) a single default action. The restricted player's options shrink, so the game
value moves in the opponent's favour: restricting R gives an upper bound on the value,
restricting L a lower bound. :mod:`nimlab.hidden.oracle` grows the allowed sets until the
two bounds meet.

Histories are named across builds by :func:`history_name`, a hash of the path of events
from the root, so that an action found useful in one tree can be allowed in another.

>>> root = history_name(0, NO_HISTORY, "")
>>> history_name(0, root, "look 1 -> 3") == history_name(0, root, "look 1 -> 3")
True
>>> history_name(0, root, "look 1 -> 3") != history_name(1, root, "look 1 -> 3")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from nimlab.hidden.transforms import Action, Move

__all__ = ["NO_HISTORY", "Restriction", "default_action", "history_name"]

Heaps = tuple[int, ...]

NO_HISTORY: Final = -1
"""The parent named for a root (:func:`hash` never returns -1)."""


def history_name(player: int, parent: int, event: str) -> int:
    """The name of ``player``'s history ``parent`` (a name; :data:`NO_HISTORY` for none)
    extended by ``event``: a 64-bit hash of the path of events from the root, the same in
    every tree of the process.

    A name takes 8 bytes beside its history (``GameTree.history_ids``) and no table: a trie
    giving each history a number took about 60 bytes a history (34 MB at SN(9,9,1)). Two
    paths may share a name (for 10**7 histories, the odds that any two do are about 3 in a
    million); they would then share their allowed actions, which changes only which
    restricted games are grown, never a result (:mod:`nimlab.hidden.oracle` certifies its
    bounds exactly on trees where the free player keeps every action).
    """
    return hash((player, parent, event))


def default_action(belief: frozenset[Heaps], actions: tuple[Action, ...]) -> Action:
    """The action a restricted player takes at a history nobody has allowed anything at.

    With Nim heaps known exactly, a move to Nim-sum 0 if there is one; otherwise (and in
    other games) the first action.

    >>> from nimlab.hidden.variants import variant_rules
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

    >>> from nimlab.hidden.variants import variant_rules
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

"""The data of an unrolled game tree: information sets with their beliefs, sequences, terminal
payoffs, and (when asked for) every node.

The information set of the player to move is that player's own history: their actions, what
they saw of them, and what they were told about the opponent's moves (perfect recall by
construction). Each history carries its *belief*, the set of true states consistent with it.
The tree is made by :mod:`nimlab.extensive.builder` (through
:func:`nimlab.extensive.tree.build_tree`); :mod:`nimlab.extensive.cursor` moves through its
recorded nodes, :mod:`nimlab.extensive.seqform` turns it into the sequence form.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any

from nimlab.extensive.transforms import Action

__all__ = [
    "Belief",
    "GameTree",
    "Heaps",
    "Infoset",
    "L",
    "Node",
    "R",
    "Trail",
    "announcement",
    "own_event",
]

Heaps = tuple[Any, ...]
"""A state: the components' states (heap heights for Nim)."""
Belief = frozenset[Heaps]
L, R = 0, 1


@dataclass
class Trail:
    """One player's histories as a table in flat arrays, 8 bytes a history: the parent of
    each (-1 for the root) and the number of the event that extends it (events are numbered
    as first seen; the root's event is empty).

    >>> trail = Trail()
    >>> root = trail.add(-1, "")
    >>> trail.add(trail.add(root, "look 1 -> 3"), "opponent moved")
    2
    >>> trail.events_to(2), trail.parents.tolist()
    (('look 1 -> 3', 'opponent moved'), [-1, 0, 1])
    """

    parents: array[int] = field(default_factory=lambda: array("i"))
    codes: array[int] = field(default_factory=lambda: array("i"))
    events: list[str] = field(default_factory=list)
    numbers: dict[str, int] = field(default_factory=dict)

    def add(self, parent: int, event: str) -> int:
        """Append the history ``parent`` extended by ``event``; return its number."""
        code = self.numbers.get(event)
        if code is None:
            code = self.numbers[event] = len(self.events)
            self.events.append(event)
        self.parents.append(parent)
        self.codes.append(code)
        return len(self.parents) - 1

    def events_to(self, hist: int) -> tuple[str, ...]:
        """The non-empty events on the way from the root to history ``hist``."""
        found = []
        h = hist
        while h >= 0:
            event = self.events[self.codes[h]]
            if event:
                found.append(event)
            h = self.parents[h]
        return tuple(reversed(found))


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
    trail: Trail = field(repr=False, compare=False)

    @property
    def history(self) -> tuple[str, ...]:
        """The events of the player's history, oldest first."""
        return self.trail.events_to(self.hist)


@dataclass(frozen=True, slots=True)
class Node:
    """A recorded node (``record_nodes=True``): ``infoset`` is -1 at a terminal node.

    The move into the node (action ``action`` of the parent's player) showed the mover
    ``seen`` and, if it completed the turn (``done``), told the opponent ``told``;
    ``histories`` are both players' history ids here (see :meth:`GameTree.history`). A
    navigation API over recorded nodes is :mod:`nimlab.extensive.cursor`.
    """

    state: Heaps
    player: int
    infoset: int
    parent: int
    action: int
    payoff: int
    seen: str = ""
    told: str = ""
    done: bool = False
    histories: tuple[int, int] = (0, 0)


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
    trail: tuple[Trail, Trail] = field(default_factory=lambda: (Trail(), Trail()))
    history_ids: tuple[array[int], array[int]] | None = None
    """Per player, the name of each history (restricted builds only; see
    :func:`nimlab.extensive.restrict.history_name`)."""

    def history(self, player: int, hist: int) -> tuple[str, ...]:
        """The events of history ``hist`` of ``player``, oldest first."""
        return self.trail[player].events_to(hist)

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


def announcement(signal: str) -> str:
    """The event in a player's history when the opponent's completed move was announced as
    ``signal`` (``""``: nothing but that a move was made).

    >>> announcement("1_2"), announcement("")
    ('opponent: 1_2', 'opponent moved')
    """
    return f"opponent: {signal}" if signal else "opponent moved"


def own_event(action: Action, seen: str) -> str:
    """The event in the mover's history after ``action`` showed it ``seen``.

    >>> own_event("look 2", "3")
    'look 2 -> 3'
    """
    return f"{action}" + (f" -> {seen}" if seen else "")

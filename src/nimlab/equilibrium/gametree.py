"""The data of an unrolled game tree: information sets with their beliefs, sequences, terminal
payoffs, and (when asked for) every node.

The information set of the player to move is that player's own history: their actions, what
they saw of them, and what they were told about the opponent's moves (perfect recall by
construction). Each history carries its *belief*, the set of true states consistent with it.
The tree is made by :mod:`nimlab.hidden.builder` (through
:func:`nimlab.hidden.tree.build_tree`); :mod:`nimlab.equilibrium.cursor` moves through its
recorded nodes, :mod:`nimlab.equilibrium.seqform` turns it into the sequence form.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias, overload

import numpy as np
import numpy.typing as npt

__all__ = [
    "NO_PENDING",
    "Action",
    "Belief",
    "GameTree",
    "Heaps",
    "Infoset",
    "InfosetTable",
    "L",
    "Node",
    "R",
    "Trail",
    "announcement",
    "own_event",
]

Action: TypeAlias = Any
"""An action of the game's rules, shown by its ``str`` (any hashable value: the solver never
looks inside; a hidden game's are :data:`nimlab.hidden.transforms.Action`)."""
Heaps = tuple[Any, ...]
"""A state: the components' states (heap heights for Nim)."""
Belief = frozenset[Heaps]
Indices = npt.NDArray[np.int64]
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


NO_PENDING: Final = -1
"""The pending heap of an information set that has none, in :attr:`InfosetTable.pending`."""


@dataclass
class InfosetTable(Sequence[Infoset]):
    """A tree's information sets as columns, in order: per information set its player, the
    player's sequence leading to it, its first sequence, its number of actions, its history
    and its pending heap (:data:`NO_PENDING` for none) in flat arrays, and its belief and
    action tuple (shared objects) in lists: 37 bytes an information set, against about 190
    for an :class:`Infoset` object with its three integers and its slot in a list. Reading
    entry ``i`` gives an :class:`Infoset` made on the fly; code that reads every information
    set reads the columns (:meth:`columns`).

    >>> table = InfosetTable((Trail(), Trail()))
    >>> table.append(0, 0, frozenset({(2,)}), ("take 1", "take 2"), 1, 0, None)
    0
    >>> len(table), table[0].actions, table[0].pending, [i.first_seq for i in table]
    (1, ('take 1', 'take 2'), None, [1])
    """

    trail: tuple[Trail, Trail]
    player: array[int] = field(default_factory=lambda: array("b"))
    parent_seq: array[int] = field(default_factory=lambda: array("i"))
    first_seq: array[int] = field(default_factory=lambda: array("i"))
    width: array[int] = field(default_factory=lambda: array("i"))
    hist: array[int] = field(default_factory=lambda: array("i"))
    pending: array[int] = field(default_factory=lambda: array("i"))
    belief: list[Belief] = field(default_factory=list)
    actions: list[tuple[Action, ...]] = field(default_factory=list)

    def append(
        self,
        player: int,
        parent_seq: int,
        belief: Belief,
        actions: tuple[Action, ...],
        first_seq: int,
        hist: int,
        pending: int | None,
    ) -> int:
        """Add an information set (the fields of :class:`Infoset`); return its index."""
        self.player.append(player)
        self.parent_seq.append(parent_seq)
        self.first_seq.append(first_seq)
        self.width.append(len(actions))
        self.hist.append(hist)
        self.pending.append(NO_PENDING if pending is None else pending)
        self.belief.append(belief)
        self.actions.append(actions)
        return len(self.actions) - 1

    def __len__(self) -> int:
        return len(self.actions)

    @overload
    def __getitem__(self, index: int) -> Infoset: ...

    @overload
    def __getitem__(self, index: slice) -> list[Infoset]: ...

    def __getitem__(self, index: int | slice) -> Infoset | list[Infoset]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        pending = self.pending[index]
        player = self.player[index]
        return Infoset(
            player,
            self.parent_seq[index],
            self.belief[index],
            self.actions[index],
            self.first_seq[index],
            self.hist[index],
            None if pending == NO_PENDING else pending,
            self.trail[player],
        )

    def __iter__(self) -> Iterator[Infoset]:
        return (self[i] for i in range(len(self)))

    def __reversed__(self) -> Iterator[Infoset]:
        return (self[i] for i in range(len(self) - 1, -1, -1))

    def columns(self) -> tuple[npt.NDArray[np.int8], Indices, Indices, Indices]:
        """Every information set's player, parent sequence, first sequence and number of
        actions as numpy arrays (copies)."""
        return (
            np.array(self.player, dtype=np.int8),
            np.array(self.parent_seq, dtype=np.int64),
            np.array(self.first_seq, dtype=np.int64),
            np.array(self.width, dtype=np.int64),
        )


@dataclass(frozen=True, slots=True)
class Node:
    """A recorded node (``record_nodes=True``): ``infoset`` is -1 at a terminal node.

    The move into the node (action ``action`` of the parent's player) showed the mover
    ``seen`` and, if it completed the turn (``done``), told the opponent ``told``;
    ``histories`` are both players' history ids here (see :meth:`GameTree.history`). A
    navigation API over recorded nodes is :mod:`nimlab.equilibrium.cursor`.
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
    infosets: InfosetTable = field(init=False)
    seq_infoset: tuple[array[int], array[int]] = field(
        default_factory=lambda: (array("i", [-1]), array("i", [-1]))
    )
    term_seq: tuple[array[int], array[int]] = field(
        default_factory=lambda: (array("i"), array("i"))
    )
    term_payoff: array[int] = field(default_factory=lambda: array("b"))
    nodes: int = 0
    recorded: list[Node] = field(default_factory=list)
    trail: tuple[Trail, Trail] = field(default_factory=lambda: (Trail(), Trail()))
    history_ids: tuple[array[int], array[int]] | None = None
    """Per player, the name of each history (restricted builds only; see
    :func:`nimlab.hidden.restrict.history_name`)."""

    def __post_init__(self) -> None:
        self.infosets = InfosetTable(self.trail)

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

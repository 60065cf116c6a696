"""The four hidden-information rules as transforms of a component game.

``schrodinger(c)``, ``fuzzy(c)``, ``kriegspiel(c)`` and ``kriegspiel_empty(c)`` take a
component type ``c`` (:mod:`nimlab.hidden.components`) and give the rules of the hidden game
played on a tuple of components of that type, in the shape the tree builder consumes
(the ``Rules`` protocol of :mod:`nimlab.hidden.protocol`). A *state* is the tuple of the
components' true states; a *belief* is the set of states consistent with what the player to
move has seen.

- Schrödinger (``sn``): the mover selects a component that may have a move for them, learns
  its state (:class:`Look`, seen as the component's notation) and must move in it
  (:class:`Move`); a component whose state the mover knows (the same in every state of the
  belief) is moved in at once. The opponent is told which component was moved in and whether
  it became empty (no move for either player). Parts split off stay in their component.
- Fuzzy (``fsn``): the same without the announcement of emptiness; a look at a component
  with no move for the mover shows it and the mover selects again.
- Kriegspiel (``kn``): the mover asks for ``(component j, label)`` (:class:`Request`) among
  the labels legal for them in component ``j`` of some state of the belief, by component and
  then by label. An impossible request is refused (the mover is told ``refused``, and the
  belief then excludes the states where it was possible, so it is not asked again in the
  turn); an accepted one is made and the opponent only learns that a move was made.
- Kriegspiel-empty (``kn-empty``, heaps only, see
  :class:`~nimlab.hidden.components.HeapComponent`): a request for more chips than the heap
  holds empties it; a request on a heap with no move passes the turn (``refuse_empty=True``:
  it is refused instead, the other reading).

Applied to :class:`~nimlab.hidden.components.NimHeap` these are the paper's Nim variants
(:func:`nimlab.hidden.variants.variant_rules`); their values are those of the Nim-only
rules they replaced (``tests/extensive/test_transforms.py``).

>>> sn = schrodinger(NimHeap())
>>> [str(a) for a in sn.actions(frozenset({(2, 3, 1), (1, 3, 1)}), None, 0)]
['look 1', '2_1', '2_2', '2_3', '3_1']
>>> sn.step((2, 3, 1), Look(0), 0)
Step(state=(2, 3, 1), done=False, own='2', opp='', pending=0)
>>> from nimlab.hidden.components import components_for
>>> kayles = kriegspiel(components_for("kayles"))
>>> [str(a) for a in kayles.actions(frozenset({(((1, 3),),)}), None, 1)][:2]
['try row 1: remove 1 at 1', 'try row 1: remove 2 at 1']
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

from nimlab.errors import InvalidPositionError
from nimlab.hidden.components import ComponentType, HeapComponent, Label, NimHeap
from nimlab.hidden.protocol import Step

__all__ = [
    "Action",
    "Kriegspiel",
    "KriegspielEmpty",
    "Look",
    "Move",
    "Request",
    "Schrodinger",
    "Step",
    "fuzzy",
    "kriegspiel",
    "kriegspiel_empty",
    "schrodinger",
]

S = TypeVar("S", bound=Hashable)
State = tuple[Any, ...]
"""The components' true states, one per component (a heap vector for Nim)."""
Belief = frozenset[State]


class Look(NamedTuple):
    """Select component ``component`` (0-based) and learn its state."""

    component: int

    def __str__(self) -> str:
        return f"look {self.component + 1}"


class Move(NamedTuple):
    """Make move ``label`` on component ``component``, whose state the mover knows."""

    component: int
    label: Label
    text: str

    def __str__(self) -> str:
        return self.text


class Request(NamedTuple):
    """Ask the umpire for move ``label`` on component ``component`` (Kriegspiel)."""

    component: int
    label: Label
    text: str

    def __str__(self) -> str:
        return f"try {self.text}"


Action = Look | Move | Request


def _with(state: State, index: int, new: Hashable) -> State:
    return (*state[:index], new, *state[index + 1 :])


def _played(component: ComponentType[S], state: State, index: int, label: Label, player: int) -> S:
    after = component.play(state[index], label, player)
    if after is None:
        raise InvalidPositionError(
            f"{component.move_text(index, label)} is not a legal move in "
            f"{component.format_position(state)}"
        )
    return after


@dataclass(frozen=True)
class _Transform(Generic[S]):
    """What every rule shares: the component type, and the moves of a whole state."""

    component: ComponentType[S]

    @property
    def nim_heaps(self) -> bool:
        """The components are Nim heaps."""
        return isinstance(self.component, NimHeap)

    def replies(self, state: State, player: int) -> Iterator[State]:
        """Every move of ``player`` in every component."""
        for j, part in enumerate(state):
            for _, after in self.component.moves(part, player):
                yield _with(state, j, after)

    def signal(self, before: State, after: State) -> str:
        """What the opponent is told (each rule says)."""
        raise NotImplementedError

    def announced(self, state: State, player: int, signal: str) -> Iterator[State]:
        """The replies told as ``signal``: every reply, filtered (the rules that can say
        more cheaply do).

        >>> fsn = fuzzy(NimHeap())
        >>> list(fsn.announced((2, 1), 0, "heap 1"))
        [(1, 1), (0, 1)]
        """
        signal_of = self.signal
        return (after for after in self.replies(state, player) if signal_of(state, after) == signal)

    def over(self, state: State, player: int) -> bool:
        """No component has a move for ``player``."""
        return not any(self.component.has_move(part, player) for part in state)


@dataclass(frozen=True)
class Schrodinger(_Transform[S]):
    """Schrödinger (``signal_empty=True``) and Fuzzy Schrödinger rules on ``component``.

    With ``merge_known_looks=False`` every move is a look and then a move (the unreduced
    model).
    """

    signal_empty: bool = True
    merge_known_looks: bool = True
    name: str = "sn"

    @property
    def silent_passes(self) -> bool:
        """Every turn is a move."""
        return False

    @property
    def tracks_small_heaps(self) -> bool:
        """Emptying is told, so a Nim heap of 1 or 2 chips stays known to whoever knew it."""
        return self.signal_empty

    @property
    def announces_heap(self) -> bool:
        """The component moved in is always told."""
        return True

    def actions(self, belief: Belief, pending: int | None, player: int) -> tuple[Action, ...]:
        """After a look at ``pending``: its moves; else the moves of known components, and
        looks at the others (components with no move for ``player`` in any state: none)."""
        first = next(iter(belief))
        if pending is not None:
            return tuple(self._moves(first, pending, player))
        result: list[Action] = []
        for j in range(len(first)):
            parts = {s[j] for s in belief}
            if not any(self.component.has_move(part, player) for part in parts):
                continue
            if len(parts) == 1 and self.merge_known_looks:
                result.extend(self._moves(first, j, player))
            else:
                result.append(Look(j))
        return tuple(result)

    def _moves(self, state: State, j: int, player: int) -> list[Action]:
        text = self.component.move_text
        return [
            Move(j, label, text(j, label)) for label, _ in self.component.moves(state[j], player)
        ]

    def step(self, state: State, action: Action, player: int) -> Step:
        """A look shows the component (with no move: select again); a move ends the turn."""
        if isinstance(action, Look):
            seen = state[action.component]
            pending = action.component if self.component.has_move(seen, player) else None
            return Step(state, False, self.component.format(seen), "", pending)
        if isinstance(action, Request):
            raise TypeError(f"{action} is not a Schrödinger move")
        j = action.component
        after = _with(state, j, _played(self.component, state, j, action.label, player))
        return Step(after, True, "", self.signal(state, after), None)

    def signal(self, before: State, after: State) -> str:
        """``heap k`` (1-based) moved in, plus ``emptied`` when it has no move left and that
        is told."""
        k = next(j for j, (a, b) in enumerate(zip(before, after, strict=True)) if a != b)
        return self._text(k, self.signal_empty and self.component.is_empty(after[k]))

    def _text(self, k: int, emptied: bool) -> str:
        """The signal naming component ``k`` (0-based), and saying it was emptied."""
        told = f"{self.component.unit} {k + 1}"
        return f"{told} emptied" if emptied else told

    def announced(self, state: State, player: int, signal: str) -> Iterator[State]:
        """The moves in the component the signal names (that emptied it, or not, when that
        is told): the same states as filtering every reply, in the same order.

        >>> sn = schrodinger(NimHeap())
        >>> list(sn.announced((3, 2), 1, "heap 1")), list(sn.announced((3, 2), 1, "heap 1 emptied"))
        ([(2, 2), (1, 2)], [(0, 2)])
        """
        told = self._told(len(state)).get(signal)
        if told is None:
            return
        k, emptied = told
        is_empty = self.component.is_empty
        for _, after in self.component.moves(state[k], player):
            if not self.signal_empty or is_empty(after) == emptied:
                yield _with(state, k, after)

    @functools.lru_cache(maxsize=64)  # noqa: B019 (the rules are few, frozen and kept)
    def _told(self, components: int) -> dict[str, tuple[int, bool]]:
        """Each signal of a state of ``components`` components: the component it names, and
        whether it says that component was emptied."""
        said = (False, True) if self.signal_empty else (False,)
        return {self._text(k, e): (k, e) for k in range(components) for e in said}


@dataclass(frozen=True)
class Kriegspiel(_Transform[S]):
    """Kriegspiel rules on ``component``: requests by label, refused when impossible."""

    name: str = "kn"

    @property
    def silent_passes(self) -> bool:
        """Every turn is a move."""
        return False

    @property
    def tracks_small_heaps(self) -> bool:
        """Moves are not announced: nobody keeps track of anything."""
        return False

    @property
    def announces_heap(self) -> bool:
        """Only that a move was made is told."""
        return False

    def actions(self, belief: Belief, pending: int | None, player: int) -> tuple[Action, ...]:
        """Every ``(j, label)`` with ``label`` legal for ``player`` in component ``j`` of some
        state of the belief, by component and label."""
        text = self.component.move_text
        result: list[Action] = []
        for j in range(len(next(iter(belief)))):
            labels = {
                label
                for part in {s[j] for s in belief}
                for label, _ in self.component.moves(part, player)
            }
            result.extend(Request(j, label, text(j, label)) for label in sorted(labels))
        return tuple(result)

    def step(self, state: State, action: Action, player: int) -> Step:
        """A possible request is made (turn over); otherwise the mover is told ``refused``."""
        if not isinstance(action, Request):
            raise TypeError(f"{action} is not a Kriegspiel request")
        j = action.component
        after = self.component.play(state[j], action.label, player)
        if after is None:
            return Step(state, False, "refused", "", None)
        return Step(_with(state, j, after), True, "done", "moved", None)

    def signal(self, before: State, after: State) -> str:
        """The opponent only learns that a move was made."""
        return "moved"


@dataclass(frozen=True)
class KriegspielEmpty(_Transform[int]):
    """Kriegspiel-empty rules on heaps: an over-large request empties the heap.

    Requests are made on heaps that may have a move, for every amount up to the largest
    possible height (or up to ``request_bound`` when that is larger: the unreduced model),
    and for the least amount above it when no amount equals it (all larger ones do the
    same: empty the heap wherever it is not already without a move). A request on a heap
    with no move passes the turn silently, or is refused with ``refuse_empty=True``.
    """

    component: HeapComponent
    refuse_empty: bool = False
    request_bound: int = 0
    name: str = "kn-empty"

    @property
    def silent_passes(self) -> bool:
        """Silent passes exist unless requests on heaps with no move are refused."""
        return not self.refuse_empty

    @property
    def tracks_small_heaps(self) -> bool:
        """Moves are not announced: nobody keeps track of anything."""
        return False

    @property
    def announces_heap(self) -> bool:
        """Only that a move was made is told."""
        return False

    def actions(self, belief: Belief, pending: int | None, player: int) -> tuple[Action, ...]:
        """Requests ``(j, amount)`` on heaps that may have a move (see the class)."""
        heap = self.component
        result: list[Action] = []
        for j in range(len(next(iter(belief)))):
            sizes = {s[j] for s in belief}
            if not any(heap.has_move(size, player) for size in sizes):
                continue
            top = max(sizes)
            amounts = list(heap.amounts(max(top, self.request_bound)))
            above = heap.amount_above(top)
            if above is not None and (not amounts or amounts[-1] < top):
                amounts.append(above)
            result.extend(Request(j, (i,), heap.move_text(j, (i,))) for i in amounts)
        return tuple(result)

    def step(self, state: State, action: Action, player: int) -> Step:
        """Remove the amount if legal, else empty the heap; on a heap with no move: a pass
        (or refused)."""
        if not isinstance(action, Request):
            raise TypeError(f"{action} is not a Kriegspiel request")
        heap, j = self.component, action.component
        if not heap.has_move(state[j], player):
            if self.refuse_empty:
                return Step(state, False, "refused", "", None)
            return Step(state, True, "done", "moved", None)
        after = heap.play(state[j], action.label, player)
        return Step(_with(state, j, 0 if after is None else after), True, "done", "moved", None)

    def signal(self, before: State, after: State) -> str:
        """The opponent only learns that a move was made."""
        return "moved"

    def replies(self, state: State, player: int) -> Iterator[State]:
        """Every move, every emptying by an over-large request, and a silent pass when some
        heap has no move.

        The pass is counted possible whenever a heap has no move, although the mover may
        know that and so never ask for it: the belief built from this is a superset of the
        exact one.
        """
        heap = self.component
        yield from super().replies(state, player)
        for j, size in enumerate(state):
            if heap.has_move(size, player) and heap.amount_above(size) is not None:
                yield _with(state, j, 0)
        if self.silent_passes and not all(heap.has_move(size, player) for size in state):
            yield state


def schrodinger(component: ComponentType[S]) -> Schrodinger[S]:
    """Schrödinger rules (``sn``) on ``component``."""
    return Schrodinger(component)


def fuzzy(component: ComponentType[S]) -> Schrodinger[S]:
    """Fuzzy Schrödinger rules (``fsn``) on ``component``: emptying is not told."""
    return Schrodinger(component, signal_empty=False, name="fsn")


def kriegspiel(component: ComponentType[S]) -> Kriegspiel[S]:
    """Kriegspiel rules (``kn``) on ``component`` (impartial or partizan)."""
    return Kriegspiel(component)


def kriegspiel_empty(
    component: ComponentType[Any], *, refuse_empty: bool = False, request_bound: int = 0
) -> KriegspielEmpty:
    """Kriegspiel-empty rules (``kn-empty``) on heaps (see
    :class:`~nimlab.hidden.components.HeapComponent` for why only heaps).

    >>> from nimlab.hidden.components import components_for
    >>> kriegspiel_empty(components_for("kayles"))
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: kn-empty needs heaps (nim, subtraction): a request ...
    """
    if not isinstance(component, HeapComponent):
        raise InvalidPositionError(
            "kn-empty needs heaps (nim, subtraction): a request for more than a heap holds "
            f"empties it, which has no meaning for {component.name}"
        )
    return KriegspielEmpty(component, refuse_empty, request_bound)

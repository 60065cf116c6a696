"""The rules of the imperfect-information Nim variants: actions, steps and signals.

A rules object says only what happens; the tree builder (:mod:`nimlab.extensive.tree`) turns it
into an extensive-form game. A *belief* is the set of true heap vectors consistent with what the
player to move has seen; the actions of a player depend on the belief (and on the heap the
player has just inspected, if any) only, so they are the same at every node of an information
set.

>>> rules = variant_rules("sn")
>>> [str(a) for a in rules.actions(frozenset({(2, 3, 1), (1, 3, 1)}), None)]
['look 1', '2_1', '2_2', '2_3', '3_1']
>>> rules.step((2, 3, 1), Look(0))
Step(state=(2, 3, 1), done=False, own='2', opp='', pending=0)
>>> rules.step((2, 3, 1), Take(0, 2))
Step(state=(0, 3, 1), done=True, own='', opp='heap 1 emptied', pending=None)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from nimlab.errors import UnknownGameError

__all__ = [
    "VARIANTS",
    "Action",
    "FuzzySchrodingerRules",
    "KriegspielEmptyRules",
    "KriegspielRules",
    "Look",
    "Rules",
    "SchrodingerRules",
    "Step",
    "Take",
    "Try",
    "nim_moves",
    "variant_rules",
]

Heaps = tuple[int, ...]


class Look(NamedTuple):
    """Inspect heap ``heap`` (0-based): its height becomes known to the mover only."""

    heap: int

    def __str__(self) -> str:
        return f"look {self.heap + 1}"


class Take(NamedTuple):
    """Remove ``amount`` chips from heap ``heap`` whose height the mover knows."""

    heap: int
    amount: int

    def __str__(self) -> str:
        return f"{self.heap + 1}_{self.amount}"


class Try(NamedTuple):
    """Ask the umpire to remove ``amount`` chips from heap ``heap`` (Kriegspiel)."""

    heap: int
    amount: int

    def __str__(self) -> str:
        return f"try {self.heap + 1}_{self.amount}"


Action = Look | Take | Try


class Step(NamedTuple):
    """What one action does: the new heaps, whether the turn is over, and who learns what.

    ``own`` is what the mover observes, ``opp`` what the opponent observes when the turn ends
    (empty strings: nothing); ``pending`` is the heap the mover must now play on, if any.
    """

    state: Heaps
    done: bool
    own: str
    opp: str
    pending: int | None


class Rules(Protocol):
    """The rules of one hidden game, as used by the tree builder: the Nim variants here, and
    the same rules on any component game (:mod:`nimlab.extensive.transforms`). A state is a
    tuple of the components' states (heights for Nim); actions are the rules' own values."""

    @property
    def name(self) -> str:
        """The variant's name (``sn``, ``fsn``, ``kn``, ``kn-empty``)."""
        ...

    @property
    def silent_passes(self) -> bool:
        """True when a turn may pass without removing a chip (then play is never forced)."""
        ...

    @property
    def tracks_small_heaps(self) -> bool:
        """True when a player who knows every height keeps knowing them while all are <= 2."""
        ...

    @property
    def announces_heap(self) -> bool:
        """True when the opponent is told which heap (component) a move was on."""
        ...

    @property
    def nim_heaps(self) -> bool:
        """True when a state is a heap vector of Nim (the builder's Nim reductions apply)."""
        ...

    def actions(self, belief: frozenset[Any], pending: int | None, player: int) -> tuple[Any, ...]:
        """``player``'s actions when the true state lies in ``belief`` (``pending``: see
        :class:`Step`)."""
        ...

    def step(self, state: Any, action: Any, player: int) -> Step:
        """``player`` applies ``action`` to the true state."""
        ...

    def signal(self, before: Any, after: Any) -> str:
        """What the opponent is told about a completed move from ``before`` to ``after``."""
        ...

    def replies(self, state: Any, player: int) -> Iterable[Any]:
        """Every result of a complete move of ``player`` (as the non-mover imagines it)."""
        ...

    def over(self, state: Any, player: int) -> bool:
        """``player``, to move, has no move: the game is over."""
        ...


def nim_moves(state: Heaps) -> Iterable[Heaps]:
    """Every ordinary Nim move from ``state``.

    >>> sorted(nim_moves((2, 1)))
    [(0, 1), (1, 1), (2, 0)]
    """
    for k, h in enumerate(state):
        for new in range(h):
            yield (*state[:k], new, *state[k + 1 :])


def _heights(belief: frozenset[Heaps], heap: int) -> set[int]:
    return {s[heap] for s in belief}


def _changed_heap(before: Heaps, after: Heaps) -> int:
    return next(k for k, (a, b) in enumerate(zip(before, after, strict=True)) if a != b)


class _NimHeaps:
    """What the Nim variants share: states are heap vectors, over when every heap is empty."""

    @property
    def nim_heaps(self) -> bool:
        """States are Nim heap vectors."""
        return True

    def over(self, state: Heaps, player: int) -> bool:
        """No chip is left."""
        return not any(state)


@dataclass(frozen=True)
class SchrodingerRules(_NimHeaps):
    """Schrödinger Nim ``sn``: the opponent hears the heap moved on and whether it was emptied.

    A heap whose height the mover knows is played directly (``Take``); a heap of unknown
    height is first inspected (``Look``) and then must be played on. With
    ``merge_known_looks=False`` every move is ``Look`` then ``Take`` (the unreduced model;
    same values, see ``docs/imperfect.md``).
    """

    merge_known_looks: bool = True
    name: str = "sn"
    signal_empty: bool = True

    @property
    def tracks_small_heaps(self) -> bool:
        """Emptying is told, so a heap of 1 or 2 chips stays known to whoever knew it."""
        return self.signal_empty

    @property
    def announces_heap(self) -> bool:
        """The heap moved on is always told."""
        return True

    silent_passes: bool = False

    def actions(
        self, belief: frozenset[Heaps], pending: int | None, player: int = 0
    ) -> tuple[Action, ...]:
        """After ``Look(k)``: ``Take`` on heap ``k``; else ``Take`` on known heaps, or ``Look``."""
        if pending is not None:
            return tuple(Take(pending, i) for i in range(1, next(iter(belief))[pending] + 1))
        result: list[Action] = []
        for k in range(len(next(iter(belief)))):
            heights = _heights(belief, k)
            if heights == {0}:
                continue
            if len(heights) == 1 and self.merge_known_looks:
                result.extend(Take(k, i) for i in range(1, max(heights) + 1))
            else:
                result.append(Look(k))
        return tuple(result)

    def step(self, state: Heaps, action: Action, player: int = 0) -> Step:
        """``Look`` reveals a height to the mover (0: choose again); ``Take`` ends the turn."""
        if isinstance(action, Look):
            seen = state[action.heap]
            return Step(state, False, str(seen), "", action.heap if seen else None)
        k, i = action.heap, action.amount
        after = (*state[:k], state[k] - i, *state[k + 1 :])
        return Step(after, True, "", self.signal(state, after), None)

    def replies(self, state: Heaps, player: int = 0) -> Iterable[Heaps]:
        """Every Nim move."""
        return nim_moves(state)

    def signal(self, before: Heaps, after: Heaps) -> str:
        """``heap k`` (1-based) moved on, plus ``emptied`` when it was emptied and that is told."""
        k = _changed_heap(before, after)
        return f"heap {k + 1} emptied" if self.signal_empty and after[k] == 0 else f"heap {k + 1}"


@dataclass(frozen=True)
class FuzzySchrodingerRules(SchrodingerRules):
    """Fuzzy Schrödinger Nim ``fsn``: like ``sn`` but emptying a heap is not told.

    Inspecting an empty heap tells the mover so, and the mover must choose again.
    """

    name: str = "fsn"
    signal_empty: bool = False


def _request(action: Action) -> tuple[int, int]:
    if isinstance(action, Look):
        raise TypeError(f"{action} is not a Kriegspiel request")
    return action.heap, action.amount


@dataclass(frozen=True)
class KriegspielRules(_NimHeaps):
    """Kriegspiel Nim ``kn``: ask to remove ``i`` chips from heap ``j``; refused if too many.

    The opponent is only told that a move was made. Requests are limited to ``i`` at most the
    largest height the mover still considers possible (larger ones surely fail and teach
    nothing).
    """

    name: str = "kn"

    @property
    def silent_passes(self) -> bool:
        """No passes: every turn removes at least one chip."""
        return False

    @property
    def tracks_small_heaps(self) -> bool:
        """Moves are not announced: nobody keeps track of anything."""
        return False

    @property
    def announces_heap(self) -> bool:
        """Only that a move was made is told."""
        return False

    def actions(
        self, belief: frozenset[Heaps], pending: int | None, player: int = 0
    ) -> tuple[Action, ...]:
        """Every request ``(j, i)`` with ``1 <= i <=`` the largest possible height of heap ``j``."""
        size = len(next(iter(belief)))
        return tuple(Try(k, i) for k in range(size) for i in range(1, max(_heights(belief, k)) + 1))

    def step(self, state: Heaps, action: Action, player: int = 0) -> Step:
        """A request that fits is done (turn over); otherwise the mover is told ``refused``."""
        k, i = _request(action)
        if state[k] < i:
            return Step(state, False, "refused", "", None)
        after = (*state[:k], state[k] - i, *state[k + 1 :])
        return Step(after, True, "done", "moved", None)

    def signal(self, before: Heaps, after: Heaps) -> str:
        """The opponent only learns that a move was made."""
        return "moved"

    def replies(self, state: Heaps, player: int = 0) -> Iterable[Heaps]:
        """Every Nim move."""
        return nim_moves(state)


@dataclass(frozen=True)
class KriegspielEmptyRules(KriegspielRules):
    """``kn-empty``: a request for more chips than a heap holds empties it; nobody is told.

    As in the paper, a request on a heap that is in fact empty removes nothing and still
    passes the turn (a silent pass). Requests are only made on heaps the mover thinks may be
    non-empty, with ``i`` at most the largest possible height (a larger request has the same
    effect and tells the same). Each request then lowers the mover's largest possible height
    of that heap by at least one, so the game is finite.

    ``refuse_empty=True`` is the other reading: a request on an empty heap is refused and
    the mover told so (no passes); it is not a registered variant, the report compares both.
    ``request_bound=b`` allows every amount up to ``b`` on the heaps that may be non-empty
    (the unreduced model, to test that the bound on requests loses nothing).
    """

    name: str = "kn-empty"
    refuse_empty: bool = False
    request_bound: int = 0

    def actions(
        self, belief: frozenset[Heaps], pending: int | None, player: int = 0
    ) -> tuple[Action, ...]:
        """Requests ``(j, i)`` on heaps that may be non-empty, ``i`` up to the largest
        possible height (or up to ``request_bound`` when that is larger)."""
        size = len(next(iter(belief)))
        result: list[Action] = []
        for k in range(size):
            top = max(_heights(belief, k))
            if top:
                result.extend(Try(k, i) for i in range(1, max(top, self.request_bound) + 1))
        return tuple(result)

    @property
    def silent_passes(self) -> bool:
        """Silent passes exist unless requests on empty heaps are refused."""
        return not self.refuse_empty

    def step(self, state: Heaps, action: Action, player: int = 0) -> Step:
        """Remove ``min(i, height)`` chips (possibly none: a pass, or refused)."""
        k, i = _request(action)
        if state[k] == 0 and self.refuse_empty:
            return Step(state, False, "refused", "", None)
        after = (*state[:k], max(state[k] - i, 0), *state[k + 1 :])
        return Step(after, True, "done", "moved", None)

    def replies(self, state: Heaps, player: int = 0) -> Iterable[Heaps]:
        """Every Nim move, and a silent pass when some heap is empty.

        The pass is counted possible whenever a heap is empty, although the mover may know
        that heap is empty and so never ask for it: the belief built from this is a superset
        of the exact one. It can only add requests with an amount above every height
        actually possible, which act exactly like the largest possible amount (both empty
        the heap, and both are told the same), so the value is unchanged.
        """
        yield from nim_moves(state)
        if 0 in state and self.silent_passes:
            yield state


VARIANTS: dict[str, type[SchrodingerRules] | type[KriegspielRules]] = {
    "sn": SchrodingerRules,
    "fsn": FuzzySchrodingerRules,
    "kn": KriegspielRules,
    "kn-empty": KriegspielEmptyRules,
}


def variant_rules(name: str) -> Rules:
    """The rules object of a variant name (``sn``, ``fsn``, ``kn``, ``kn-empty``).

    Unknown names are refused with the list of known ones (``+ELLIPSIS`` below):

    >>> variant_rules("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.UnknownGameError: unknown variant 'chess': known variants are fsn, kn, ...
    """
    if name not in VARIANTS:
        known = ", ".join(sorted(VARIANTS))
        raise UnknownGameError(f"unknown variant {name!r}: known variants are {known}")
    return VARIANTS[name]()

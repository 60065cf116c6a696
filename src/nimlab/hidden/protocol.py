"""What the tree builder needs from the rules of a hidden game: :class:`Rules` and :class:`Step`.

The rules are made by the transforms of :mod:`nimlab.hidden.transforms` (Schrödinger,
Fuzzy, Kriegspiel, Kriegspiel-empty) applied to a component game
(:mod:`nimlab.hidden.components`); the builder (:mod:`nimlab.hidden.tree`) turns them
into an extensive-form game. A *belief* is the set of true states consistent with what the
player to move has seen; a player's actions depend on the belief (and on the component the
player has just inspected, if any) only, so they are the same at every node of an
information set.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple, Protocol

__all__ = ["Rules", "Step"]

State = tuple[Any, ...]


class Step(NamedTuple):
    """What one action does: the new state, whether the turn is over, and who learns what.

    ``own`` is what the mover observes, ``opp`` what the opponent observes when the turn ends
    (empty strings: nothing); ``pending`` is the component the mover must now play on, if any.
    """

    state: State
    done: bool
    own: str
    opp: str
    pending: int | None


class Rules(Protocol):
    """The rules of one hidden game, as used by the tree builder (made by
    :mod:`nimlab.hidden.transforms`). A state is a tuple of the components' states
    (heights for Nim); actions are the rules' own values."""

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

    def announced(self, state: Any, player: int, signal: str) -> Iterable[Any]:
        """The results of :meth:`replies` that the opponent is told as ``signal`` (what a
        belief becomes when the opponent hears it), in the order of :meth:`replies`."""
        ...

    def over(self, state: Any, player: int) -> bool:
        """``player``, to move, has no move: the game is over."""
        ...

"""The base of component games: :class:`ComponentType` (states and labelled moves per player)
and :data:`Label` (a move's name in the game's own terms); see :mod:`nimlab.hidden.components`
for the types and why labels are named independently of states.

>>> ComponentType.impartial, Label
(True, tuple[int, ...])
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import ClassVar, Generic, TypeVar

from nimlab.errors import InvalidPositionError

__all__ = ["ComponentType", "Label"]

Label = tuple[int, ...]
"""A move's name in the game's own terms: a short tuple of integers, ordered and hashable."""

S = TypeVar("S", bound=Hashable)


class ComponentType(ABC, Generic[S]):
    """One kind of component: states of type ``S`` and labelled moves per player."""

    unit: ClassVar[str] = "component"
    """What a component is called for people (``heap``, ``row``, ``stalk``)."""
    impartial: ClassVar[bool] = True

    @property
    @abstractmethod
    def name(self) -> str:
        """The game's name, with its options (``subtraction(max=2)``, ``kayles``, ...)."""

    @abstractmethod
    def moves(self, state: S, player: int) -> tuple[tuple[Label, S], ...]:
        """The legal moves of ``player`` (0 = Left, 1 = Right) as ``(label, state after)``,
        sorted by label."""

    @abstractmethod
    def label_text(self, label: Label) -> str:
        """The move ``label`` in words (``remove 2 at 3``)."""

    @abstractmethod
    def describe(self, state: S) -> str:
        """The state in words, for people."""

    @abstractmethod
    def parse(self, text: str) -> S:
        """A single component in the catalogue's notation (a heap ``5``, a stalk ``BRB``)."""

    @abstractmethod
    def format(self, state: S) -> str:
        """The notation of a state, the inverse of :meth:`parse`."""

    def play(self, state: S, label: Label, player: int) -> S | None:
        """The state after ``player`` makes the move ``label`` (``None``: not legal here)."""
        return dict(self.moves(state, player)).get(label)

    def has_move(self, state: S, player: int) -> bool:
        """Whether ``player`` has a move in ``state``."""
        return bool(self.moves(state, player))

    def is_empty(self, state: S) -> bool:
        """No move for either player."""
        return not self.has_move(state, 0) and (self.impartial or not self.has_move(state, 1))

    def move_text(self, index: int, label: Label) -> str:
        """Move ``label`` on component ``index`` (0-based) for people: ``row 2: remove 2 at 3``."""
        return f"{self.unit} {index + 1}: {self.label_text(label)}"

    def parse_position(self, text: str) -> tuple[S, ...]:
        """Components joined by ``,`` (the catalogue's ``analyze`` notation)."""
        if not text.strip():
            raise InvalidPositionError(f"empty position: give at least one {self.unit}")
        return tuple(self.parse(token.strip()) for token in text.split(","))

    def format_position(self, states: tuple[S, ...]) -> str:
        """The inverse of :meth:`parse_position`."""
        return ",".join(self.format(state) for state in states)

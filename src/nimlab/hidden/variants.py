"""The registry of hidden-information variants: one entry per rule, read by everyone.

Each :class:`Variant` names a transform of :mod:`nimlab.hidden.transforms` and says what
it is; the solver, the CLI, the web playground, OpenSpiel's games, the store's specs and the
sweeps all take the list from :data:`VARIANTS`. Applied to Nim heaps
(:class:`~nimlab.hidden.components.NimHeap`) the transforms are the paper's games
(:func:`variant_rules`).

>>> [v.name for v in VARIANTS.values()]
['sn', 'fsn', 'kn', 'kn-empty']
>>> VARIANTS["kn"].title
'Kriegspiel Nim'
>>> [str(a) for a in variant_rules("sn").actions(frozenset({(2, 3, 1), (1, 3, 1)}), None, 0)]
['look 1', '2_1', '2_2', '2_3', '3_1']
>>> variant_rules("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
nimlab.errors.UnknownGameError: unknown variant 'chess'; known variants: sn, fsn, ...
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from nimlab.errors import UnknownGameError
from nimlab.hidden.components import ComponentType, NimHeap
from nimlab.hidden.protocol import Rules
from nimlab.hidden.transforms import fuzzy, kriegspiel, kriegspiel_empty, schrodinger

__all__ = ["VARIANTS", "Variant", "transform", "variant", "variant_rules"]


@dataclass(frozen=True)
class Variant:
    """One hidden-information rule: its name (the CLI's ``VARIANT``), its title for people,
    what it hides in one line, and the transform that makes its rules on a component game."""

    name: str
    title: str
    summary: str
    make: Callable[[ComponentType[Any]], Rules]


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            "sn",
            "Schrödinger Nim",
            "pick a component, learn its state, move in it; the opponent learns which one "
            "and whether it became empty",
            schrodinger,
        ),
        Variant(
            "fsn",
            "Fuzzy Schrödinger Nim",
            "as Schrödinger, without the announcement of emptiness",
            fuzzy,
        ),
        Variant(
            "kn",
            "Kriegspiel Nim",
            "ask the umpire for a move; an impossible one is refused; the opponent only "
            "learns that a move was made",
            kriegspiel,
        ),
        Variant(
            "kn-empty",
            "Kriegspiel Nim (over-large requests empty the heap)",
            "Kriegspiel where asking for more chips than a heap holds empties it",
            kriegspiel_empty,
        ),
    )
}
"""The variants by name, in the paper's order."""


def variant(name: str) -> Variant:
    """The registered variant ``name`` (:class:`~nimlab.errors.UnknownGameError` otherwise)."""
    if name not in VARIANTS:
        raise UnknownGameError.among("variant", name, VARIANTS)
    return VARIANTS[name]


def transform(name: str, component: ComponentType[Any]) -> Rules:
    """The rules of variant ``name`` on ``component``.

    >>> transform("kn", NimHeap()).name
    'kn'
    """
    return variant(name).make(component)


@cache
def variant_rules(name: str) -> Rules:
    """The rules of variant ``name`` on Nim heaps: the paper's Nim variants."""
    return transform(name, NimHeap())

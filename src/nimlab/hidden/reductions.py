"""The reductions of the tree builder, each with the rules it is valid for.

A reduction makes a node terminal before the game is over, when the outcome from there is
settled whatever anyone knows or does. Each declares, as a test on the rules' properties
(:class:`~nimlab.hidden.protocol.Rules`), which games it is sound for; the builder
(:mod:`nimlab.hidden.builder`) applies exactly the declared ones, and
``tests/extensive/test_reductions_registry.py`` proves each harmless on every variant it
declares, by building with and without it, and inert on every other (game x rule) pair.

>>> from nimlab.hidden.variants import variant_rules
>>> sorted(applicable(variant_rules("sn")))
['forced-play', 'known-wins', 'small-heaps']
>>> sorted(applicable(variant_rules("kn-empty")))  # a silent pass changes who ends the game
[]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from nimlab.hidden.protocol import Rules

__all__ = ["REDUCTIONS", "Reduction", "applicable"]


@dataclass(frozen=True)
class Reduction:
    """One reduction: its name (for ``build_tree(..., without=...)``), what it cuts, and the
    rules it is valid for."""

    name: str
    summary: str
    valid_for: Callable[[Rules], bool]


def _nim_without_passes(rules: Rules) -> bool:
    return rules.nim_heaps and not rules.silent_passes


REDUCTIONS: dict[str, Reduction] = {
    r.name: r
    for r in (
        Reduction(
            "forced-play",
            "every heap at most 1 after a move: each later move empties one heap whatever "
            "anyone knows, so the parity of the heaps left names the winner",
            _nim_without_passes,
        ),
        Reduction(
            "small-heaps",
            "every heap at most 2 and the Nim winner knows the heaps: every reply is announced "
            "precisely enough for the winner to keep knowing them (Schrödinger's announcements)",
            lambda rules: _nim_without_passes(rules) and rules.tracks_small_heaps,
        ),
        Reduction(
            "known-wins",
            "the mover knows the heaps and has a move after which one of the two cuts above "
            "settles the game in its favour: that move is optimal at every node of the set",
            _nim_without_passes,
        ),
    )
}
"""The builder's reductions by name."""


def applicable(rules: Rules, without: frozenset[str] = frozenset()) -> frozenset[str]:
    """The reductions valid for ``rules``, less those named in ``without``."""
    unknown = without - REDUCTIONS.keys()
    if unknown:
        raise ValueError(f"unknown reductions {sorted(unknown)}: known are {sorted(REDUCTIONS)}")
    return frozenset(
        name for name, r in REDUCTIONS.items() if name not in without and r.valid_for(rules)
    )

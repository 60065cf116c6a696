"""Write a hidden game's tree to a file in Gambit's ``.efg`` format (the text is
:func:`nimlab.equilibrium.efg_write.efg_text`'s).

>>> text = efg_text(build_tree("sn", (2, 1), record_nodes=True, prune_forced=False))
>>> print(text.splitlines()[0])
EFG 2 R "sn(2,1)" { "L" "R" }
>>> len(text.splitlines())
15

A catalogue game's hidden version is written with its actions in words:

>>> from nimlab.hidden.games import hidden_game
>>> kayles = hidden_game("sn", "kayles")
>>> text = efg_text(game_tree(kayles, kayles.parse("2"), max_nodes=100), title="sn[kayles](2)")
>>> print(text.splitlines()[3])
p "" 1 1 "" { "row 1: remove 1 at 1" "row 1: remove 2 at 1" "row 1: remove 1 at 2" } 0
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from nimlab.equilibrium.efg_write import efg_text
from nimlab.equilibrium.gametree import GameTree
from nimlab.hidden.tree import build_tree

if TYPE_CHECKING:
    from nimlab.hidden.games import HiddenGame

__all__ = ["game_tree", "write_efg", "write_game_efg"]


def write_efg(
    variant: str,
    heaps: tuple[int, ...],
    path: Path,
    *,
    misere: bool = False,
    max_nodes: int,
    reduced: bool = False,
) -> GameTree:
    """Write the tree of ``variant`` from ``heaps`` to ``path``; return the tree.

    The full game tree by default; ``reduced=True`` writes the tree with nimlab's lossless
    reductions (``prune_forced``), a smaller game of the same value.
    """
    tree = build_tree(
        variant,
        heaps,
        misere=misere,
        max_nodes=max_nodes,
        record_nodes=True,
        prune_forced=reduced,
    )
    path.write_text(efg_text(tree), encoding="utf-8")
    return tree


def game_tree(
    hidden: HiddenGame, states: tuple[Any, ...], *, misere: bool = False, max_nodes: int
) -> GameTree:
    """The whole tree of a catalogue game's hidden version from ``states``, nodes recorded
    (no reduction: the tree :func:`nimlab.hidden.games.solve_hidden` solves)."""
    return build_tree(
        hidden.rules,
        states,
        misere=misere,
        max_nodes=max_nodes,
        record_nodes=True,
        prune_forced=False,
        known_wins=False,
    )


def write_game_efg(
    hidden: HiddenGame,
    states: tuple[Any, ...],
    path: Path,
    *,
    misere: bool = False,
    max_nodes: int,
) -> GameTree:
    """Write the whole tree of ``hidden`` from ``states`` to ``path``, titled with its spec
    (``kn[subtraction(max=2)](6)``); return the tree."""
    tree = game_tree(hidden, states, misere=misere, max_nodes=max_nodes)
    path.write_text(efg_text(tree, title=hidden.spec(states, misere)), encoding="utf-8")
    return tree

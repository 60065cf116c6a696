"""Export a game tree in Gambit's ``.efg`` format (version 2, exact rational payoffs).

>>> text = efg_text(build_tree("sn", (2, 1), record_nodes=True, prune_forced=False))
>>> print(text.splitlines()[0])
EFG 2 R "sn(2,1)" { "L" "R" }
>>> len(text.splitlines())
15

A catalogue game's hidden version is written with its actions in words:

>>> from nimlab.extensive.games import hidden_game
>>> kayles = hidden_game("sn", "kayles")
>>> text = efg_text(game_tree(kayles, kayles.parse("2"), max_nodes=100), title="sn[kayles](2)")
>>> print(text.splitlines()[3])
p "" 1 1 "" { "row 1: remove 1 at 1" "row 1: remove 2 at 1" "row 1: remove 1 at 2" } 0
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from nimlab.extensive.gametree import GameTree
from nimlab.extensive.tree import build_tree

if TYPE_CHECKING:
    from nimlab.extensive.games import HiddenGame

__all__ = ["efg_text", "game_tree", "write_efg", "write_game_efg"]


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def efg_text(tree: GameTree, *, title: str | None = None) -> str:
    """The ``.efg`` text of a tree built with ``record_nodes=True``, named ``title``
    (default: the Nim variant and its heaps).

    Nodes are written in depth-first preorder, unlabelled (Gambit wants node labels unique);
    information sets are numbered per player from 1 and labelled with the player's history;
    there are two outcomes, L wins ``{ 1, -1 }`` and R wins ``{ -1, 1 }``.
    """
    if not tree.recorded:
        raise ValueError("the tree was built without record_nodes=True")
    if title is None:
        heaps = ",".join(map(str, tree.position))
        title = f"{tree.variant}({heaps}{';misere' if tree.misere else ''})"
    numbers: dict[int, int] = {}
    counts = [0, 0]
    lines = [f'EFG 2 R {_quote(title)} {{ "L" "R" }}', '""', ""]
    for node in tree.recorded:
        if node.infoset < 0:
            outcome = 1 if node.payoff > 0 else 2
            payoffs = f"{node.payoff}, {-node.payoff}"
            lines.append(
                f't "" {outcome} "{"L wins" if outcome == 1 else "R wins"}" {{ {payoffs} }}'
            )
            continue
        info = tree.infosets[node.infoset]
        if node.infoset not in numbers:
            counts[info.player] += 1
            numbers[node.infoset] = counts[info.player]
        actions = " ".join(_quote(str(a)) for a in info.actions)
        label = _quote("; ".join(info.history))
        lines.append(f'p "" {info.player + 1} {numbers[node.infoset]} {label} {{ {actions} }} 0')
    return "\n".join(lines) + "\n"


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
    (no reduction: the tree :func:`nimlab.extensive.games.solve_hidden` solves)."""
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

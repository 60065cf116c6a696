"""Export a game tree in Gambit's ``.efg`` format (version 2, exact rational payoffs).

>>> text = efg_text(build_tree("sn", (2, 1), record_nodes=True, prune_forced=False))
>>> print(text.splitlines()[0])
EFG 2 R "sn(2,1)" { "L" "R" }
>>> len(text.splitlines())
15
"""

from __future__ import annotations

from pathlib import Path

from nimlab.extensive.tree import GameTree, build_tree

__all__ = ["efg_text", "write_efg"]


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def efg_text(tree: GameTree) -> str:
    """The ``.efg`` text of a tree built with ``record_nodes=True``.

    Nodes are written in depth-first preorder, unlabelled (Gambit wants node labels unique);
    information sets are numbered per player from 1 and labelled with the player's history;
    there are two outcomes, L wins ``{ 1, -1 }`` and R wins ``{ -1, 1 }``.
    """
    if not tree.recorded:
        raise ValueError("the tree was built without record_nodes=True")
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

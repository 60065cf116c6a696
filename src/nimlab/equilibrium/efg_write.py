"""Write a game tree in Gambit's ``.efg`` format (version 2, exact rational payoffs).

The tree must have been built with ``record_nodes=True``; examples with nimlab's own games are
in :mod:`nimlab.hidden.efg`, which writes their trees to files.
"""

from __future__ import annotations

from nimlab.equilibrium.gametree import GameTree

__all__ = ["efg_text"]


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

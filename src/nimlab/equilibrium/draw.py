"""Draw the part of a game tree reached by an equilibrium as an SVG picture (small games).

>>> from nimlab.hidden.tree import build_tree
>>> from fractions import Fraction
>>> tree = build_tree("sn", (2, 1), record_nodes=True)
>>> pure = [tuple(Fraction(int(a == 0)) for a in range(len(i.actions))) for i in tree.infosets]
>>> svg = equilibrium_svg(tree, (pure, pure))
>>> svg.startswith("<svg"), svg.count("<circle"), svg.count("<rect")
(True, 1, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from html import escape
from typing import Any

from nimlab.equilibrium.certify import Behaviour
from nimlab.equilibrium.gametree import GameTree
from nimlab.errors import TooLargeError
from nimlab.exact import exact_str

__all__ = ["MAX_DRAWN", "equilibrium_svg"]

MAX_DRAWN = 400
"""Most nodes drawn; larger reachable trees are refused."""

DX, DY, R = 70, 80, 14


def equilibrium_svg(
    tree: GameTree,
    behaviours: tuple[Behaviour, Behaviour],
    position: Callable[[tuple[Any, ...]], str] | None = None,
) -> str:
    """SVG of every node reached with positive probability (tree built with record_nodes),
    each labelled with its position (``position`` formats a state; default: heap sizes).

    Black discs: L to move; white discs: R to move; squares: outcomes (payoff to L). Edges are
    labelled with the action and its probability; nodes of one information set share a
    dashed outline colour label ``I<n>``.
    """
    nodes = tree.recorded
    reach = [Fraction(0)] * len(nodes)
    children: list[list[int]] = [[] for _ in nodes]
    for index, node in enumerate(nodes):
        if node.parent < 0:
            reach[index] = Fraction(1)
            continue
        parent = nodes[node.parent]
        p = behaviours[parent.player][parent.infoset][node.action]
        reach[index] = reach[node.parent] * p
        if reach[index]:
            children[node.parent].append(index)
    shown = [i for i in range(len(nodes)) if reach[i]]
    if len(shown) > MAX_DRAWN:
        raise TooLargeError(
            f"the equilibrium reaches {len(shown)} nodes; --draw handles at most {MAX_DRAWN}",
            estimate=len(shown),
            limit=MAX_DRAWN,
        )
    x: dict[int, float] = {}
    depth: dict[int, int] = {0: 0}
    leaves = 0

    def place(i: int) -> None:
        nonlocal leaves
        for c in children[i]:
            depth[c] = depth[i] + 1
            place(c)
        if children[i]:
            x[i] = (x[children[i][0]] + x[children[i][-1]]) / 2
        else:
            x[i] = leaves * DX + DX
            leaves += 1

    place(0)
    width = (leaves + 1) * DX
    height = (max(depth.values()) + 1) * DY + DY
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="10">'
    ]
    for i in shown:
        px, py = x[i], depth[i] * DY + DY / 2
        for c in children[i]:
            cx, cy = x[c], depth[c] * DY + DY / 2
            info = tree.infosets[nodes[i].infoset]
            action = nodes[c].action
            p = behaviours[info.player][nodes[i].infoset][action]
            label = f"{info.actions[action]} {exact_str(p)}"
            parts.append(f'<line x1="{px}" y1="{py}" x2="{cx}" y2="{cy}" stroke="black"/>')
            parts.append(
                f'<text x="{(px + cx) / 2 + 3}" y="{(py + cy) / 2}">{escape(label)}</text>'
            )
    for i in shown:
        node = nodes[i]
        px, py = x[i], depth[i] * DY + DY / 2
        state = ",".join(map(str, node.state)) if position is None else position(node.state)
        if node.infoset < 0:
            parts.append(
                f'<rect x="{px - R}" y="{py - R}" width="{2 * R}" height="{2 * R}" fill="white" '
                f'stroke="black"/><text x="{px - R}" y="{py + R + 12}">{node.payoff:+d}</text>'
            )
            continue
        fill = "black" if node.player == 0 else "white"
        parts.append(f'<circle cx="{px}" cy="{py}" r="{R}" fill="{fill}" stroke="black"/>')
        parts.append(f'<text x="{px + R + 2}" y="{py - 2}">({state}) I{node.infoset}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"

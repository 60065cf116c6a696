"""Drawings for notebooks: thermographs, Domineering boards and Hackenbush graphs as SVG, games
as HTML.

>>> from nimlab.cgt.notation import parse_game
>>> parse_game("{2|-1/2}")._repr_svg_().startswith("<svg")
True
>>> "temperature" in parse_game("±1")._repr_html_()
True
>>> board_svg(["..", "#."]).count("<rect")
4
>>> graph_svg([("g", "a", "B"), ("a", "b", "R"), ("b", "g", "G")]).count("<path")
3
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING

from nimlab.exact import exact_str

if TYPE_CHECKING:
    from nimlab.cgt.game import Game
    from nimlab.cgt.thermograph import Thermograph

__all__ = ["MAX_DRAWN_EDGES", "board_svg", "game_html", "graph_svg", "thermograph_svg"]

#: Graphs of more edges are written, not drawn.
MAX_DRAWN_EDGES = 60
_EDGE_COLOURS = {"B": "#1f5fbf", "R": "#c8322d", "G": "#2f9e44"}


def thermograph_svg(th: Thermograph, width: int = 360, height: int = 260) -> str:
    """The walls (blue: Left's, red: Right's) from t = 0 (or the temperature of a number) up
    to a little above the temperature, then the mast; the value axis has positive values to
    the left."""
    top = max(th.temperature, Fraction(0)) + max(Fraction(1), abs(th.temperature) / 2)
    bottom = min(th.temperature, Fraction(0))
    xs = [v for w in (th.left_wall, th.right_wall) for _, v in w.points] + [th.mean]
    low, high = min(xs) - 1, max(xs) + 1
    margin = 30

    def sx(v: Fraction) -> float:  # positive to the left
        return margin + float((high - v) / (high - low)) * (width - 2 * margin)

    def sy(t: Fraction) -> float:
        return height - margin - float((t - bottom) / (top - bottom)) * (height - 2 * margin)

    def polyline(points: Sequence[tuple[Fraction, Fraction]], colour: str) -> str:
        path = " ".join(f"{sx(v):.1f},{sy(t):.1f}" for t, v in points)
        return (
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"'
            ' stroke-linejoin="round"/>'
        )

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<line x1="{margin}" y1="{sy(Fraction(0)):.1f}" x2="{width - margin}"'
        f' y2="{sy(Fraction(0)):.1f}" stroke="#999"/>',
    ]
    start = th.temperature  # the mast rises from the temperature (below 0 for a number)
    if th.temperature >= 0:
        for wall, colour in ((th.left_wall, "#1f5fbf"), (th.right_wall, "#c0392b")):
            pts = [p for p in wall.points if p[0] <= th.temperature]
            if pts[-1][0] < th.temperature:
                pts.append((th.temperature, wall(th.temperature)))
            parts.append(polyline(pts, colour))
    parts.append(polyline([(start, th.mean), (top, th.mean)], "#333"))
    parts.append(
        f'<text x="{sx(th.mean) + 4:.1f}" y="{margin - 8}">mean {escape(exact_str(th.mean))},'
        f" temperature {escape(exact_str(th.temperature))}</text>"
    )
    for v in sorted({low + 1, th.mean, high - 1}):
        parts.append(
            f'<text x="{sx(v):.1f}" y="{height - margin + 14}" text-anchor="middle">'
            f"{escape(exact_str(v))}</text>"
        )
    parts.append(
        f'<text x="{margin - 4}" y="{sy(Fraction(0)) + 4:.1f}" text-anchor="end">t=0</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def board_svg(rows: Sequence[str], cell: int = 28) -> str:
    """A Domineering board: ``.`` empty (white), anything else filled (grey)."""
    height = len(rows) * cell + 2
    width = max((len(r) for r in rows), default=0) * cell + 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}">'
    ]
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            fill = "white" if ch == "." else "#555"
            parts.append(
                f'<rect x="{c * cell + 1}" y="{r * cell + 1}" width="{cell}" height="{cell}"'
                f' fill="{fill}" stroke="#222"/>'
            )
    parts.append("</svg>")
    return "".join(parts)


def graph_svg(edges: Sequence[tuple[str, str, str]], width: int = 360) -> str | None:
    """A Hackenbush graph over the ground line: nodes in layers by their distance from the
    ground ``g``, blue, red and green edges (parallel edges bent apart, loops as loops), each
    edge numbered from 1 as typed moves number them; None beyond :data:`MAX_DRAWN_EDGES`."""
    if len(edges) > MAX_DRAWN_EDGES:
        return None
    depth = {"g": 0}
    frontier = ["g"]
    while frontier:
        nxt = []
        for node in frontier:
            for u, v, _ in edges:
                for p, q in ((u, v), (v, u)):
                    if p == node and q not in depth:
                        depth[q] = depth[node] + 1
                        nxt.append(q)
        frontier = nxt
    layers: dict[int, list[str]] = {}
    for node, d in depth.items():
        if node != "g":
            layers.setdefault(d, []).append(node)
    row = 60
    ground = 20 + row * max(1, max(layers, default=1))
    height = ground + 24
    pos = {
        node: (width * (i + 1) / (len(nodes) + 1), ground - row * d)
        for d, nodes in layers.items()
        for i, node in enumerate(nodes)
    }
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">',
        f'<rect x="0" y="{ground}" width="{width}" height="{height - ground}" fill="#9c8a6a"/>',
    ]
    feet: dict[str, int] = {}
    copies: dict[tuple[str, str], int] = {}
    loops = 0
    for k, (u, v, colour) in enumerate(edges, start=1):
        copy = copies.get((min(u, v), max(u, v)), 0)
        copies[(min(u, v), max(u, v))] = copy + 1
        if u == v:
            if u == "g":
                x, y = 20.0 + 30 * loops, float(ground)
                loops += 1
            else:
                x, y = pos[u]
            r = 12 + 6 * copy
            path = f"M {x:.1f} {y:.1f} C {x - 1.6 * r:.1f} {y - 2.6 * r:.1f}, {x + 1.6 * r:.1f}"
            path += f" {y - 2.6 * r:.1f}, {x:.1f} {y:.1f}"
            mid = (x, y - 2 * r)
        else:
            a, b = (v, u) if u == "g" else (u, v)
            x1, y1 = pos[a]
            if b == "g":
                n = feet.get(a, 0)
                feet[a] = n + 1
                x2, y2 = x1 + 24 * ((n + 1) // 2) * (1 if n % 2 else -1), float(ground)
                bend = 0.0
            else:
                x2, y2 = pos[b]
                bend = 20.0 * ((copy + 1) // 2) * (1 if copy % 2 else -1)
            length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
            cx = (x1 + x2) / 2 - bend * (y2 - y1) / length
            cy = (y1 + y2) / 2 + bend * (x2 - x1) / length
            path = f"M {x1:.1f} {y1:.1f} Q {cx:.1f} {cy:.1f} {x2:.1f} {y2:.1f}"
            mid = ((x1 + 2 * cx + x2) / 4, (y1 + 2 * cy + y2) / 4)
        parts.append(
            f'<path d="{path}" fill="none" stroke="{_EDGE_COLOURS.get(colour, "#333")}"'
            ' stroke-width="4" stroke-linecap="round"/>'
        )
        parts.append(f'<text x="{mid[0] + 5:.1f}" y="{mid[1] - 3:.1f}">{k}</text>')
    for x, y in pos.values():
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="#333"/>')
    parts.append("</svg>")
    return "".join(parts)


def game_html(g: Game) -> str:
    """The value and its facts as a small table, with the thermograph."""
    rows = [
        ("value", str(g)),
        ("outcome", g.outcome),
        ("left stop", exact_str(g.left_stop)),
        ("right stop", exact_str(g.right_stop)),
        ("mean", exact_str(g.mean)),
        ("temperature", exact_str(g.temperature)),
        ("birthday", str(g.birthday)),
    ]
    table = "".join(f"<tr><td>{k}</td><td><code>{escape(v)}</code></td></tr>" for k, v in rows)
    return f"<div><table>{table}</table>{g.thermograph.svg()}</div>"

"""Drawings for notebooks: thermographs and Domineering boards as SVG, games as HTML.

>>> from nimlab.cgt.notation import parse_game
>>> parse_game("{2|-1/2}")._repr_svg_().startswith("<svg")
True
>>> "temperature" in parse_game("±1")._repr_html_()
True
>>> board_svg(["..", "#."]).count("<rect")
4
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

__all__ = ["board_svg", "game_html", "thermograph_svg"]


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

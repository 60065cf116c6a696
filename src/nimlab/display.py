"""Dependency-free HTML and SVG pieces for the notebook displays of nimlab's results.

Every piece returns a string of well-formed markup with every text escaped: a table, a heap
board (Nim-like heaps as columns of counters, numbered from 1), red-blue Hackenbush stalks and
the graph of a polyline.

>>> html_table(["heap", "size"], [["1", "3"], ["2", "<4>"]])
'<table><thead><tr><th>heap</th><th>size</th></tr></thead><tbody><tr><td>1</td><td>3</td></tr><tr><td>2</td><td>&lt;4&gt;</td></tr></tbody></table>'
>>> heap_board_svg([2, 0]).count("<circle")
2
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from html import escape

__all__ = ["MAX_DRAWN", "heap_board_svg", "html_table", "polyline_svg", "stalks_svg"]

MAX_DRAWN = 400
"""The most counters or edges drawn one by one; larger positions are shown as text."""

_SVG = 'xmlns="http://www.w3.org/2000/svg"'
_BLUE, _RED = "#1f5fbf", "#c8322d"


def html_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain HTML table of ``header`` (no header row when empty) and ``rows``, every cell
    escaped (see the module).

    >>> html_table([], [["value", "1/2"]])
    '<table><tbody><tr><td>value</td><td>1/2</td></tr></tbody></table>'
    """
    cells = "".join(f"<th>{escape(cell)}</th>" for cell in header)
    head = f"<thead><tr>{cells}</tr></thead>" if header else ""
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return f"<table>{head}<tbody>{body}</tbody></table>"


def heap_board_svg(heaps: Sequence[int]) -> str | None:
    """The heaps as columns of counters, numbered from 1 underneath; None when too big to draw
    (more than :data:`MAX_DRAWN` counters, or more than 40 heaps).

    >>> svg = heap_board_svg([3, 1])
    >>> svg.count("<circle"), ">1</text>" in svg, ">2</text>" in svg
    (4, True, True)
    >>> heap_board_svg([10**6]) is None
    True
    """
    if len(heaps) > 40 or sum(heaps) > MAX_DRAWN:
        return None
    step, tallest = 22, max([1, *heaps])
    width, height = step * max(1, len(heaps)) + 8, step * tallest + 30
    parts = [f'<svg {_SVG} width="{width}" height="{height}" viewBox="0 0 {width} {height}">']
    ground = height - 22
    parts.append(f'<line x1="2" y1="{ground}" x2="{width - 2}" y2="{ground}" stroke="#888"/>')
    for index, heap in enumerate(heaps):
        x = 4 + step * index + step // 2
        for level in range(heap):
            y = ground - step // 2 - step * level
            parts.append(f'<circle cx="{x}" cy="{y}" r="8" fill="#e0a030" stroke="#7a5010"/>')
        parts.append(
            f'<text x="{x}" y="{height - 6}" font-size="11" text-anchor="middle">{index + 1}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def stalks_svg(stalks: Sequence[str]) -> str | None:
    """Red-blue Hackenbush stalks (strings of ``B`` and ``R`` from the ground up) drawn as
    coloured edges, numbered from 1 underneath; None when too big to draw.

    >>> svg = stalks_svg(["BR", "R"])
    >>> svg.count('stroke="#1f5fbf"'), svg.count('stroke="#c8322d"')
    (1, 2)
    """
    if len(stalks) > 40 or sum(map(len, stalks)) > MAX_DRAWN:
        return None
    step, edge, tallest = 30, 24, max([1, *map(len, stalks)])
    width, height = step * max(1, len(stalks)) + 8, edge * tallest + 34
    parts = [f'<svg {_SVG} width="{width}" height="{height}" viewBox="0 0 {width} {height}">']
    ground = height - 22
    parts.append(
        f'<line x1="2" y1="{ground}" x2="{width - 2}" y2="{ground}" stroke="#555" '
        'stroke-width="3"/>'
    )
    for index, stalk in enumerate(stalks):
        x = 4 + step * index + step // 2
        for level, colour in enumerate(stalk):
            low, high = ground - edge * level, ground - edge * (level + 1)
            stroke = _BLUE if colour == "B" else _RED
            parts.append(
                f'<line x1="{x}" y1="{low}" x2="{x}" y2="{high}" stroke="{stroke}" '
                'stroke-width="4"/>'
            )
            parts.append(f'<circle cx="{x}" cy="{high}" r="3" fill="#222"/>')
        parts.append(
            f'<text x="{x}" y="{height - 6}" font-size="11" text-anchor="middle">{index + 1}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def polyline_svg(
    points: Sequence[tuple[Fraction, Fraction]],
    marks: Sequence[tuple[Fraction, Fraction]] = (),
    *,
    label: str = "",
) -> str:
    """The graph through ``points`` (increasing x, at least two) with axes through 0, dots at
    ``marks`` and ``label`` as its title; coordinates are rounded only for drawing.

    >>> svg = polyline_svg([(Fraction(-1), Fraction(1)), (Fraction(1), Fraction(-1))],
    ...                    [(Fraction(0), Fraction(0))], label="f & g")
    >>> "<polyline" in svg, svg.count("<circle"), "f &amp; g" in svg
    (True, 1, True)
    """
    width, height, pad = 360, 240, 20
    xs = [float(x) for x, _ in points]
    ys = [float(y) for _, y in points] + [0.0]
    x_low, x_high = min(xs), max(xs)
    y_low, y_high = min(ys), max(ys)
    x_span, y_span = (x_high - x_low) or 1.0, (y_high - y_low) or 1.0

    def at(x: Fraction | float, y: Fraction | float) -> str:
        sx = pad + (float(x) - x_low) / x_span * (width - 2 * pad)
        sy = height - pad - (float(y) - y_low) / y_span * (height - 2 * pad)
        return f"{sx:.2f},{sy:.2f}"

    parts = [f'<svg {_SVG} width="{width}" height="{height}" viewBox="0 0 {width} {height}">']
    if label:
        parts.append(f"<title>{escape(label)}</title>")
    x0, y0 = at(x_low, 0), at(x_high, 0)
    parts.append(_line(x0, y0, "#999"))
    if x_low <= 0 <= x_high:
        parts.append(_line(at(0, y_low), at(0, y_high), "#999"))
    path = " ".join(at(x, y) for x, y in points)
    parts.append(f'<polyline points="{path}" fill="none" stroke="black" stroke-width="1.5"/>')
    for x, y in marks:
        cx, cy = at(x, y).split(",")
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="3" fill="black"/>')
    parts.append("</svg>")
    return "".join(parts)


def _line(start: str, end: str, colour: str) -> str:
    """An SVG line between two ``x,y`` coordinate strings."""
    (x1, y1), (x2, y2) = start.split(","), end.split(",")
    return f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}"/>'

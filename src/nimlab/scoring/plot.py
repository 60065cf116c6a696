"""Plots of payoff functions f_N against N (matplotlib, the ``plot`` extra, imported lazily).

A piecewise-linear function is drawn exactly: a polyline through its breakpoints, extended by
its end slopes to the window's edges. Breakpoints are marked and labelled with their
coordinates. Figures are built without pyplot (no global state, no window); a file is written
only when a path is given.

>>> import tempfile, pathlib
>>> from nimlab.scoring.piecewise import PiecewiseLinear, maximum
>>> f = maximum([PiecewiseLinear.affine(1, 0), PiecewiseLinear.affine(-1, 0)])
>>> figure = plot_payoff(f, title="|N|")
>>> figure.axes[0].get_title()
'|N|'
>>> path = pathlib.Path(tempfile.mkdtemp()) / "abs.svg"
>>> plot_payoff(f, path, title="|N|") is not None, path.exists()
(True, True)
>>> figure_svg(figure).startswith("<svg")
True
>>> figure._repr_svg_().startswith("<svg")  # a notebook shows the figure by itself
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from io import StringIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nimlab.exact import exact_str
from nimlab.scoring.piecewise import PiecewiseLinear, polyline, window

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "Curve",
    "figure_curves",
    "figure_svg",
    "plot_curves",
    "plot_payoff",
]


@dataclass(frozen=True)
class Curve:
    """One function to draw, its legend label, matplotlib line style, and whether to label kinks."""

    function: PiecewiseLinear
    label: str
    style: dict[str, Any] = field(default_factory=dict)
    mark_breakpoints: bool = True


def figure_curves(
    curves: Sequence[Curve],
    *,
    title: str,
    limits: tuple[Fraction, Fraction] | None = None,
    mark: Fraction | None = None,
) -> Figure:
    """Several functions on one pair of axes through N = 0 and f = 0 (like the paper)."""
    import matplotlib.ticker

    low, high = limits or window([c.function for c in curves])
    figure = _shown_figure_class()(figsize=(7.5, 4.5))
    axes = figure.subplots()
    for curve in curves:
        points = polyline(curve.function, low, high)
        style = {"color": "black", "linewidth": 1.5, **curve.style}
        axes.plot(
            [float(x) for x, _ in points], [float(y) for _, y in points], label=curve.label, **style
        )
        if curve.mark_breakpoints:
            slopes = curve.function.slopes
            for k, (x, y) in enumerate(curve.function.breakpoints):
                if low <= x <= high:
                    below = slopes[k] < 0 < slopes[k + 1]  # a local minimum: label under it
                    axes.plot([float(x)], [float(y)], "o", color=style["color"], markersize=4)
                    axes.annotate(
                        f"({exact_str(x)}, {exact_str(y)})",
                        (float(x), float(y)),
                        textcoords="offset points",
                        xytext=(0, -12 if below else 6),
                        ha="center",
                        fontsize=7,
                    )
    if mark is not None and low <= mark <= high:
        axes.axvline(
            float(mark), color="tab:red", linestyle=":", linewidth=1, label=f"N = {exact_str(mark)}"
        )
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.axvline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("N")
    axes.set_ylabel("payoff")
    axes.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    axes.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    if high - low <= 30:
        axes.set_aspect("equal", adjustable="datalim")
    axes.set_title(title)
    axes.grid(True, linewidth=0.3)
    if len(curves) > 1 or mark is not None:
        axes.legend(fontsize=8)
    figure.tight_layout()
    return figure


def plot_curves(
    curves: Sequence[Curve],
    path: Path,
    *,
    title: str,
    limits: tuple[Fraction, Fraction] | None = None,
    mark: Fraction | None = None,
) -> Path:
    """Draw several functions (:func:`figure_curves`) into the file ``path``; return it."""
    figure = figure_curves(curves, title=title, limits=limits, mark=mark)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    return path


def plot_payoff(
    function: PiecewiseLinear,
    path: Path | None = None,
    *,
    title: str = "",
    mark: Fraction | None = None,
) -> Figure:
    """One payoff function with its breakpoints marked and labelled, as a matplotlib figure;
    written to ``path`` (its suffix picks the format) when one is given."""
    figure = figure_curves([Curve(function, title or "f_N")], title=title, mark=mark)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path)
    return figure


@cache
def _shown_figure_class() -> type[Figure]:
    """A matplotlib figure that a notebook shows by itself (as SVG), built without pyplot: a
    plain ``Figure`` is shown only where pyplot's inline backend was set up."""
    from matplotlib.figure import Figure

    class ShownFigure(Figure):
        def _repr_svg_(self) -> str:
            return figure_svg(self)

    return ShownFigure


def figure_svg(figure: Figure) -> str:
    """The figure as an inline ``<svg>`` element (text kept as text, no date stamp)."""
    import matplotlib

    out = StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        figure.savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    return text[text.index("<svg") :]

"""Commands ``scoring`` (payoff function, optimal play, plot) and ``scoring-table``."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from nimlab.cli.app import (
    HEAP_ARGS,
    JSON_OPTION,
    NO_STORE_OPTION,
    app,
    console,
    emit_json,
    progress_lines,
)
from nimlab.core.heaps import format_heaps, parse_heaps
from nimlab.errors import InvalidPositionError
from nimlab.exact import exact_str, parse_rational

if TYPE_CHECKING:  # Scoring Nim's engine is imported when a command runs
    from nimlab.scoring.payoff import Method

__all__ = ["scoring", "scoring_table"]

CLI_MAX_CELLS = 357_913_941
"""``nimlab.scoring.payoff.CLI_MAX_CELLS``, copied so that ``--help`` needs no engine (a test
checks they agree)."""

MAX_CELLS_OPTION = typer.Option(
    CLI_MAX_CELLS,
    "--max-cells",
    help="Budget in cells (reachable positions x values of N) of the grid engine, about 0.9 µs"
    " and 24 bytes each: the default is about 10 minutes and 8 GB. Jobs whose method is"
    " estimated over it are refused (exit 3) before they start.",
)


_WINNER = {"N": "the first player wins", "P": "the second player wins"}
"""The outcome classes in words: in Scoring Nim the letter N is the bonus."""


def _range(interval: dict[str, Any]) -> str:
    """The values of the bonus an interval of optimal moves holds for (``N <= -2``)."""
    low, high = interval["from"], interval["to"]
    if low is not None and low == high:
        return f"N = {low}"
    if low is None:
        return "every N" if high is None else f"N <= {high}"
    return f"N >= {low}" if high is None else f"{low} <= N <= {high}"


def _render(payload: dict[str, Any]) -> None:
    """f_N, its limits in words, the optimal moves by N and, at a given N, the play: from the
    JSON payload, whether it was computed here or read from a results store."""
    console.print(
        f"Scoring Nim {format_heaps(tuple(payload['position']))}: f_N as a function of the bonus N"
    )
    table = Table(box=None, header_style="bold")
    table.add_column("N", justify="right")
    table.add_column("f_N", justify="right")
    table.add_column("slope after", justify="right")
    points = [(parse_rational(x), parse_rational(y)) for x, y in payload["breakpoints"]]
    slopes = [(y2 - y1) / (x2 - x1) for (x1, y1), (x2, y2) in pairwise(points)]
    table.add_row("-inf", "", f"{payload['slope_left']:+d}")
    for (x, y), slope in zip(points, [*slopes, payload["slope_right"]], strict=True):
        table.add_row(exact_str(x), exact_str(y), f"{int(slope):+d}")
    console.print(table)
    console.print(f"f_0 = {payload['value_at_0']}")
    for side, play, outcome, slope, c in (
        ("+inf", "normal play", "normal_outcome", "slope_right", "c_plus"),
        ("-inf", "misère play", "misere_outcome", "slope_left", "c_minus"),
    ):
        winner = _WINNER.get(payload[outcome], payload[outcome])
        sign = "+" if payload[slope] > 0 else "-"
        console.print(f"as the bonus N -> {side} ({play}): {winner}; f_N = {payload[c]} {sign} N")
    if payload.get("intervals"):
        moves = Table(title="optimal moves by N", box=None, header_style="bold")
        moves.add_column("N")
        moves.add_column("optimal moves (position after)")
        for interval in payload["intervals"]:
            listed = "   ".join(format_heaps(tuple(m)) for m in interval["moves"])
            moves.add_row(_range(interval), listed)
        console.print(moves)
    if "N" in payload:
        console.print(f"At N = {payload['N']}: f_N = {payload['payoff']}")
        listed = "   ".join(format_heaps(tuple(p)) for p in payload["optimal_moves"])
        console.print("optimal moves: " + (listed or "none (no stones left)"))
        _render_line([tuple(p) for p in payload["line"]], parse_rational(payload["N"]))


def _render_line(positions: Sequence[tuple[int, ...]], n: Fraction) -> None:
    """An optimal line of play with both players' running scores."""
    line = Table(title="an optimal line of play", box=None, header_style="bold")
    line.add_column("move", justify="right")
    line.add_column("player")
    line.add_column("position")
    line.add_column("first", justify="right")
    line.add_column("second", justify="right")
    line.add_row("", "", format_heaps(positions[0]), "0", "0")
    from nimlab.scoring.play import line_scores

    for k, (first, second) in enumerate(line_scores(positions, n), start=1):
        player = "first" if k % 2 else "second"
        line.add_row(
            str(k), player, format_heaps(positions[k]), exact_str(first), exact_str(second)
        )
    console.print(line)


@app.command("scoring", context_settings=HEAP_ARGS)
def scoring(
    heaps: list[str] = typer.Argument(None, help="Pile sizes, e.g. 5 4 2.", show_default=False),
    bonus: str | None = typer.Option(
        None, "--N", help="The bonus N: integer, decimal or p/q (e.g. --N=-7/2)."
    ),
    plot: Path | None = typer.Option(
        None, "--plot", help="Draw f_N against N into FILE.png or FILE.svg."
    ),
    method: str = typer.Option(
        "grid", "--method", help="grid (certified integer grid, fast) or exact (rational maxima)."
    ),
    max_cells: int = MAX_CELLS_OPTION,
    store: str | None = typer.Option(
        None,
        "--store",
        help="Without --plot: serve/keep f_N in this results store, with --N also that of"
        " each position on the line of play (default: $NIMLAB_STORE, else your results store;"
        " see --no-store).",
    ),
    no_store: bool = NO_STORE_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Scoring Nim: f_N(p) exactly as a function of N, optimal moves, a line of play."""
    from nimlab.scoring.analysis import analyze_scoring
    from nimlab.store import command_store_path

    position = parse_heaps(heaps or [])
    n = None if bonus is None else parse_rational(bonus)
    if method not in ("grid", "exact"):
        raise InvalidPositionError(f"unknown method {method!r}: use grid or exact")
    chosen: Method = "grid" if method == "grid" else "exact"
    store_path = command_store_path(store, no_store=no_store)
    title = f"Scoring Nim {format_heaps(position)}"
    if store_path is not None and plot is None and any(position):
        with progress_lines(title):
            _scoring_stored(store_path, position, n, chosen, max_cells, as_json)
        return
    with progress_lines(title):
        result = analyze_scoring(position, n, method=chosen, max_cells=max_cells)
    if plot is not None:
        if plot.suffix.lower() not in (".png", ".svg"):
            raise InvalidPositionError(f"plot file {str(plot)!r} must end in .png or .svg")
        from nimlab.scoring.plot import plot_payoff

        plot_payoff(result.function, plot, title=f"$f_N({format_heaps(position)})$", mark=n)
    if as_json:
        emit_json({**result.to_json(), "cached": False})
    else:
        _render(result.to_json())
        if plot is not None:
            console.print(f"plot written to {plot}")


def _scoring_stored(
    store_path: Path,
    position: tuple[int, ...],
    bonus: Fraction | None,
    method: Method,
    max_cells: int,
    as_json: bool,
) -> None:
    """f_N through the results store, under the key a ``nimlab sweep scoring`` uses; with a
    bonus N, evaluated there (a line of play reads the record of each position it meets)."""
    from nimlab.sweeps.scoring import ScoringRecords, scoring_at

    if bonus is None:
        records = ScoringRecords(store_path, method, max_cells)
        payload, served = records.get(position), records.computed == 0
    else:
        payload, served = scoring_at(
            store_path, position, bonus, method=method, max_cells=max_cells
        )
    if as_json:
        emit_json({**payload, "cached": served})
        return
    _render(payload)
    where = "served from" if served else "computed and stored in"
    console.print(f"{where} the results store {store_path}", markup=False)


@app.command("scoring-table")
def scoring_table(
    piles: int = typer.Option(..., "--piles", help="Number of piles K."),
    largest: int = typer.Option(..., "--max", help="Largest pile size M (sizes are 1..M)."),
    out: Path = typer.Option(..., "--out", help="Output FILE.csv or FILE.parquet."),
    max_cells: int = MAX_CELLS_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Write every K-pile position's breakpoints and end slopes (sizes 1..M) to CSV or Parquet."""
    from nimlab.scoring.table import write_scoring_table

    count = write_scoring_table(out, piles=piles, largest=largest, max_cells=max_cells)
    if as_json:
        emit_json({"piles": piles, "max": largest, "out": str(out), "count": count})
    else:
        console.print(f"{count} positions written to {out}")

"""Commands ``scoring`` (payoff function, optimal play, plot) and ``scoring-table``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from nimlab.cli.app import HEAP_ARGS, JSON_OPTION, app, console, emit_json
from nimlab.core.heaps import format_heaps, parse_heaps
from nimlab.errors import InvalidPositionError
from nimlab.exact import exact_str, parse_rational
from nimlab.scoring.analysis import ScoringAnalysis, analyze_scoring
from nimlab.scoring.payoff import DEFAULT_MAX_CELLS, Method
from nimlab.scoring.play import line_scores

__all__ = ["scoring", "scoring_table"]

MAX_CELLS_OPTION = typer.Option(
    DEFAULT_MAX_CELLS,
    "--max-cells",
    help="Refuse jobs above this many (reachable positions x values of N) cells.",
)


def _render(result: ScoringAnalysis) -> None:
    f = result.function
    console.print(f"Scoring Nim {format_heaps(result.position)}: f_N as a function of the bonus N")
    table = Table(box=None, header_style="bold")
    table.add_column("N", justify="right")
    table.add_column("f_N", justify="right")
    table.add_column("slope after", justify="right")
    slopes = f.slopes
    table.add_row("-inf", "", f"{int(slopes[0]):+d}")
    for (x, y), slope in zip(f.breakpoints, slopes[1:], strict=False):
        table.add_row(exact_str(x), exact_str(y), f"{int(slope):+d}")
    console.print(table)
    console.print(f"f_0 = {exact_str(f(0))}")
    console.print(
        f"N -> +inf (normal play): {result.normal_outcome};"
        f" f_N = {result.c_plus} {'+' if f.slope_right > 0 else '-'} N  (c+ = {result.c_plus})"
    )
    console.print(
        f"N -> -inf (misère play): {result.misere_outcome};"
        f" f_N = {result.c_minus} {'+' if f.slope_left > 0 else '-'} N  (c- = {result.c_minus})"
    )
    if result.intervals:
        moves = Table(title="optimal moves by N", box=None, header_style="bold")
        moves.add_column("N")
        moves.add_column("optimal moves (position after)")
        for interval in result.intervals:
            label, _, listed = str(interval).partition(": ")
            moves.add_row(label, listed.replace(" | ", "   "))
        console.print(moves)
    if result.bonus is not None and result.line is not None:
        n = result.bonus
        console.print(f"At N = {exact_str(n)}: f_N = {exact_str(f(n))}")
        listed = "   ".join(format_heaps(p) for p in result.optimal_moves)
        console.print("optimal moves: " + (listed or "none (no stones left)"))
        line = Table(title="an optimal line of play", box=None, header_style="bold")
        line.add_column("move", justify="right")
        line.add_column("player")
        line.add_column("position")
        line.add_column("first", justify="right")
        line.add_column("second", justify="right")
        positions = result.line.positions
        line.add_row("", "", format_heaps(positions[0]), "0", "0")
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
        help="Without --N/--plot: serve/keep f_N in this results store"
        " (default: $NIMLAB_STORE, else none).",
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Scoring Nim: f_N(p) exactly as a function of N, optimal moves, a line of play."""
    from nimlab.store import command_store_path

    position = parse_heaps(heaps or [])
    n = None if bonus is None else parse_rational(bonus)
    if method not in ("grid", "exact"):
        raise InvalidPositionError(f"unknown method {method!r}: use grid or exact")
    chosen: Method = "grid" if method == "grid" else "exact"
    store_path = command_store_path(store)
    if store_path is not None and n is None and plot is None:
        _scoring_stored(store_path, position, chosen, max_cells, as_json)
        return
    result = analyze_scoring(position, n, method=chosen, max_cells=max_cells)
    if plot is not None:
        if plot.suffix.lower() not in (".png", ".svg"):
            raise InvalidPositionError(f"plot file {str(plot)!r} must end in .png or .svg")
        from nimlab.scoring.plot import plot_payoff

        plot_payoff(result.function, plot, title=f"$f_N({format_heaps(position)})$", mark=n)
    if as_json:
        emit_json(result.to_json())
    else:
        _render(result)
        if plot is not None:
            console.print(f"plot written to {plot}")


def _scoring_stored(
    store_path: Path, position: tuple[int, ...], method: Method, max_cells: int, as_json: bool
) -> None:
    """f_N through the results store, under the key a ``nimlab sweep scoring`` uses."""
    from nimlab.store import cached_result
    from nimlab.sweeps.tasks import run_task, scoring_task

    task = scoring_task(position, method=method, max_cells=max_cells)
    stored, served = cached_result(store_path, task.spec, task.method, lambda: run_task(task))
    payload = _in_input_order(stored, position)
    if as_json:
        emit_json(payload)
        return
    _render_stored(payload)
    where = "served from" if served else "computed and stored in"
    console.print(f"{where} the results store {store_path}", markup=False)


def _in_input_order(payload: dict[str, Any], position: tuple[int, ...]) -> dict[str, Any]:
    """A stored result (piles as a multiset, largest first) with the piles in input order.

    Positions after a move are permuted the same way and listed as the plain command lists
    them: by the pile moved in, then by what is left in it.
    """
    stored = list(payload["position"])
    source: list[int] = []  # source[i]: the stored index of input pile i
    for pile in position:
        index = next(j for j, size in enumerate(stored) if size == pile and j not in source)
        source.append(index)

    def reorder(after: list[int]) -> list[int]:
        return [after[j] for j in source]

    def move_order(after: list[int]) -> tuple[int, int]:
        moved = next(i for i, (a, b) in enumerate(zip(after, position, strict=True)) if a != b)
        return moved, after[moved]

    intervals = [
        {**interval, "moves": sorted((reorder(m) for m in interval["moves"]), key=move_order)}
        for interval in payload["intervals"]
    ]
    return {**payload, "position": list(position), "intervals": intervals}


def _render_stored(payload: dict[str, Any]) -> None:
    """The breakpoints and end behaviour of a stored f_N."""
    heaps = format_heaps(tuple(payload["position"]))
    console.print(f"Scoring Nim {heaps}: f_N as a function of the bonus N")
    table = Table(box=None, header_style="bold")
    table.add_column("N", justify="right")
    table.add_column("f_N", justify="right")
    table.add_row("-inf", f"slope {payload['slope_left']:+d}")
    for x, y in payload["breakpoints"]:
        table.add_row(x, y)
    table.add_row("+inf", f"slope {payload['slope_right']:+d}")
    console.print(table)
    console.print(f"f_0 = {payload['value_at_0']}")
    console.print(f"N -> +inf (normal play): {payload['normal_outcome']}; c+ = {payload['c_plus']}")
    console.print(
        f"N -> -inf (misère play): {payload['misere_outcome']}; c- = {payload['c_minus']}"
    )


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

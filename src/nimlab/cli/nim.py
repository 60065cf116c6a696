"""Commands ``nim``, ``lost``, ``aesthetic``, ``triangles`` and ``trapezoids``."""

from __future__ import annotations

from collections.abc import Sequence

import typer
from rich.table import Table
from rich.text import Text

from nimlab.budget import DEFAULT_STEPS, Budget, steps_budget
from nimlab.cli.app import HEAP_ARGS, JSON_OPTION, app, console, emit_json
from nimlab.core.heaps import Heaps, format_heaps, parse_heaps
from nimlab.errors import InvalidPositionError
from nimlab.nim import (
    NimAnalysis,
    aesthetic_positions,
    analyze_nim,
    lost_positions,
    lost_trapezoids,
    lost_triangles,
)

__all__ = ["aesthetic", "lost", "nim", "render_nim_sum", "trapezoids", "triangles"]


def render_nim_sum(heaps: Sequence[int], highlight: set[int]) -> Table:
    """The heaps in binary, one per row (numbered from 1), their nim-sum below; highlighted rows
    (0-based indices) in bold green."""
    width = max([1, *(h.bit_length() for h in heaps)])
    table = Table(show_header=True, header_style="bold", box=None)
    table.add_column("heap", justify="right")
    table.add_column("size", justify="right")
    table.add_column("binary", justify="right")
    total = 0
    for index, heap in enumerate(heaps):
        total ^= heap
        style = "bold green" if index in highlight else ""
        table.add_row(str(index + 1), str(heap), format(heap, f"0{width}b"), style=style)
    table.add_section()
    table.add_row("", "nim-sum", format(total, f"0{width}b") + f"  = {total}", style="bold")
    return table


def _render_analysis(result: NimAnalysis) -> None:
    play = "misère" if result.misere else "normal"
    console.print(f"Nim {format_heaps(result.position)} ({play} play)")
    console.print(render_nim_sum(result.position, {m.heap for m in result.winning_moves}))
    if result.misere and all(h <= 1 for h in result.position):
        console.print("Every heap has at most one counter: misère play is decided by parity.")
    if result.winning_moves:
        console.print(Text("N: the player to move wins.", style="bold"))
        for move in result.winning_moves:
            after = format_heaps(move.apply(result.position))
            console.print(f"  winning move: {move}   (leaves {after})")
    else:
        label = " (obviously lost: the heaps pair up)" if result.obviously_lost else ""
        console.print(Text(f"P: the player to move loses{label}.", style="bold"))


@app.command("nim", context_settings=HEAP_ARGS)
def nim(
    heaps: list[str] = typer.Argument(None, help="Heap sizes, e.g. 3 4 5.", show_default=False),
    misere: bool = typer.Option(False, "--misere", help="The last player to move loses."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Analyse a Nim position: nim-sum, outcome and every winning move."""
    result = analyze_nim(parse_heaps(heaps or []), misere=misere)
    if as_json:
        emit_json(result.to_json())
    else:
        _render_analysis(result)


_LIMIT = typer.Option(
    DEFAULT_STEPS,
    "--limit",
    help="Work budget in steps of about a microsecond (default: about 10 minutes, with 8 GB"
    " of memory, more in proportion above it); jobs estimated over it are refused (exit 3).",
)


def _budget(limit: int) -> Budget:
    """The budget ``--limit`` sets (a negative limit is bad input)."""
    if limit < 0:
        raise InvalidPositionError(f"invalid --limit {limit}: it must be non-negative")
    return steps_budget(limit)


def _print_positions(positions: Sequence[Heaps], title: str) -> None:
    console.print(f"{title}: {len(positions)}")
    for position in positions:
        console.print(f"  [{format_heaps(position)}]")


@app.command("lost")
def lost(
    heaps: int = typer.Option(..., "--heaps", help="Number of heaps K."),
    largest: int = typer.Option(..., "--max", help="Largest heap size M (sizes are 1..M)."),
    non_obvious: bool = typer.Option(
        False, "--non-obvious", help="Drop positions whose heaps pair up into equal sizes."
    ),
    smallest: int | None = typer.Option(
        None, "--smallest", help="Keep only positions whose smallest heap has this size."
    ),
    limit: int = _LIMIT,
    as_json: bool = JSON_OPTION,
) -> None:
    """List every lost position (nim-sum 0) with K heaps of sizes 1..M, as multisets."""
    positions = lost_positions(heaps, largest, non_obvious=non_obvious, budget=_budget(limit))
    if smallest is not None:
        positions = [p for p in positions if p[0] == smallest]
    if as_json:
        emit_json({"positions": [list(p) for p in positions], "count": len(positions)})
    else:
        kind = "non-obviously lost" if non_obvious else "lost"
        _print_positions(positions, f"{kind} positions with {heaps} heaps of sizes 1..{largest}")


@app.command("aesthetic")
def aesthetic(
    heaps: int = typer.Option(..., "--heaps", help="Number of heaps K (at least 3)."),
    limit: int = _LIMIT,
    as_json: bool = JSON_OPTION,
) -> None:
    """Lost positions with K distinct heap sizes: least total, then least largest, most smallest."""
    result = aesthetic_positions(heaps, budget=_budget(limit))
    if as_json:
        emit_json(result.to_json())
    else:
        _print_positions(result.positions, f"{heaps} heaps, {result.total} counters, positions")


@app.command("triangles")
def triangles(
    upto: int = typer.Option(100, "--upto", help="Largest n to test."),
    limit: int = _LIMIT,
    as_json: bool = JSON_OPTION,
) -> None:
    """The n for which the perfect triangle 1, 2, ..., n is a lost position."""
    values = lost_triangles(upto, budget=_budget(limit))
    if as_json:
        emit_json({"upto": upto, "n": values})
    else:
        console.print(f"perfect triangles 1..n that are lost, n <= {upto}: {values}")


@app.command("trapezoids")
def trapezoids(
    smallest: int = typer.Option(2, "--min", help="Smallest heap size allowed."),
    largest: int = typer.Option(20, "--max", help="Largest heap size allowed."),
    limit: int = _LIMIT,
    as_json: bool = JSON_OPTION,
) -> None:
    """Lost runs of consecutive heap sizes a, a+1, ..., b with min <= a < b <= max."""
    positions = lost_trapezoids(smallest=smallest, largest=largest, budget=_budget(limit))
    if as_json:
        emit_json({"positions": [list(p) for p in positions], "count": len(positions)})
    else:
        _print_positions(positions, f"lost trapezoids within {smallest}..{largest}")

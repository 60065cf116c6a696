"""Commands ``nimber sum``, ``nimber product`` and ``nimber table``."""

from __future__ import annotations

import typer
from rich.table import Table

from nimlab.cli.app import HEAP_ARGS, JSON_OPTION, app, console, emit_json
from nimlab.core.heaps import parse_heaps
from nimlab.nimbers import nim_product, nim_sum, nim_table

__all__ = ["nimber_app"]

nimber_app = typer.Typer(help="Nimber arithmetic: nim-sum, nim-product and their tables.")
app.add_typer(nimber_app, name="nimber")

_OPERATIONS = {"sum": nim_sum, "product": nim_product}


def _combine(op: str, values: list[str] | None, as_json: bool) -> None:
    args = parse_heaps(values or [], what="nimber")
    result = _OPERATIONS[op](*args)
    if as_json:
        emit_json({"op": op, "args": list(args), "result": result})
    else:
        symbol = " ⊕ " if op == "sum" else " ⊗ "
        console.print(f"{symbol.join(map(str, args))} = {result}")


@nimber_app.command("sum", context_settings=HEAP_ARGS)
def sum_command(
    values: list[str] = typer.Argument(None, help="Nimbers to add.", show_default=False),
    as_json: bool = JSON_OPTION,
) -> None:
    """Nim-sum (XOR) of the given nimbers."""
    _combine("sum", values, as_json)


@nimber_app.command("product", context_settings=HEAP_ARGS)
def product_command(
    values: list[str] = typer.Argument(None, help="Nimbers to multiply.", show_default=False),
    as_json: bool = JSON_OPTION,
) -> None:
    """Nim-product of the given nimbers (any size)."""
    _combine("product", values, as_json)


@nimber_app.command("table")
def table_command(
    op: str = typer.Option("sum", "--op", help="sum or product."),
    size: int = typer.Option(8, "--size", help="Table of the nimbers 0..size-1."),
    method: str = typer.Option("fast", "--method", help="fast, or mex (the definition)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """The operation table of nim-sum or nim-product."""
    table = nim_table(op, size, method=method)
    if as_json:
        emit_json({"op": op, "size": size, "table": table})
        return
    grid = Table(title=f"nim-{op} of 0..{size - 1}", header_style="bold")
    grid.add_column("⊕" if op == "sum" else "⊗", style="bold")
    for b in range(size):
        grid.add_column(str(b), justify="right")
    for a, row in enumerate(table):
        grid.add_row(str(a), *map(str, row))
    console.print(grid)

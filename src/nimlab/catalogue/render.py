r"""Shared pieces of the human explanations: the binary nim-sum table and verdict lines.

>>> from rich.console import Console
>>> console = Console(width=60, color_system=None)
>>> with console.capture() as capture:
...     console.print(nim_sum_table([("heap 0", 3), ("heap 1", 4), ("heap 2", 5)], {0}))
>>> print("\n".join(line.rstrip() for line in capture.get().splitlines()))
 part     value  binary
 heap 0       3     011
 heap 1       4     100
 heap 2       5     101
 nim-sum      2     010
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.table import Table

__all__ = ["nim_sum_table"]


def nim_sum_table(
    rows: Sequence[tuple[str, int]], highlight: Iterable[int] = (), *, title: str = "part"
) -> Table:
    """Label, value and binary of each part, then their nim-sum; highlighted rows in green.

    ``highlight`` holds row indices (the parts a winning move changes).
    """
    marked = set(highlight)
    width = max([1, *(value.bit_length() for _, value in rows)])
    table = Table(show_header=True, header_style="bold", box=None)
    table.add_column(title)
    table.add_column("value", justify="right")
    table.add_column("binary", justify="right")
    total = 0
    for index, (label, value) in enumerate(rows):
        total ^= value
        style = "bold green" if index in marked else ""
        table.add_row(label, str(value), format(value, f"0{width}b"), style=style)
    table.add_row("nim-sum", str(total), format(total, f"0{width}b"), style="bold")
    return table

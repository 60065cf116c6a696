"""``nimlab reproduce PAPER --out DIR``: recompute a paper's claims into a Markdown report.

Each paper has a module with ``write_report(out: Path) -> Path`` that computes every checked
claim, writes ``report.md`` (and figures) into ``out``, and returns the report's path.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import typer

from nimlab.cli.app import (
    MAX_MEMORY_OPTION,
    MAX_SECONDS_OPTION,
    app,
    console,
    option_budget,
    progress_lines,
)
from nimlab.errors import InvalidPositionError

__all__ = ["REPORTS", "reproduce"]

REPORTS: dict[str, str] = {
    "scoring-nim": "nimlab.reports.scoring_nim",
    "nim-variants": "nimlab.reports.nim_variants",
    "hidden-games": "nimlab.reports.hidden_games",
    "misere-census": "nimlab.misere.census",
}

REACHABLE = ("nim-variants", "hidden-games")
"""The reports whose sizes ``--reach`` extends."""


@app.command("reproduce")
def reproduce(
    paper: str = typer.Argument(..., help=f"Which paper: {', '.join(REPORTS)}."),
    out: Path = typer.Option(Path("out"), "--out", help="Directory for the report and figures."),
    reach: int | None = typer.Option(
        None,
        "--reach",
        help="nim-variants: extend the diagonal SN(n,n,1) and the sub-diagonal SN(n,n-1,1) to "
        "this n (10 takes about 2 minutes; estimated first, refused over the budget); "
        "hidden-games: components up to this size (default 5), each game within the command "
        "line's budget instead of a few seconds.",
    ),
    grid: int | None = typer.Option(
        None,
        "--grid",
        help="nim-variants: Table 2 and its misère form for 4 <= n2 <= n1 <= GRID (default 8).",
    ),
    store: Path | None = typer.Option(
        None,
        "--store",
        help="nim-variants: read the games this version solved before from this results store "
        "(e.g. filled by `nimlab sweep solve sn --grid 4..10,4..10,1 --store FILE`) and add "
        "the others to it; every three-heap Kriegspiel game stored there (`nimlab solve kn 4 3 "
        "2 --store FILE`) joins its table and the patterns of its row.",
    ),
    max_seconds: float = MAX_SECONDS_OPTION,
    max_memory: float = MAX_MEMORY_OPTION,
) -> None:
    """Recompute every concrete claim of a paper and write a Markdown report."""
    if paper not in REPORTS:
        known = ", ".join(sorted(REPORTS))
        raise InvalidPositionError(f"unknown paper {paper!r}: known papers are {known}")
    if reach is not None and paper not in REACHABLE:
        raise InvalidPositionError(f"--reach applies to the {' and '.join(REACHABLE)} reports only")
    if reach is not None and reach < 1:
        raise InvalidPositionError(f"--reach must be at least 1, not {reach}")
    if (grid is not None or store is not None) and paper != "nim-variants":
        raise InvalidPositionError("--grid and --store apply to the nim-variants report only")
    if grid is not None and grid < 4:
        raise InvalidPositionError(f"--grid must be at least 4, not {grid}")
    if store is not None and store.exists() and not store.is_file():
        raise InvalidPositionError(f"--store {str(store)!r} is not a file")
    if out.exists() and not out.is_dir():
        raise InvalidPositionError(f"--out {str(out)!r} is a file: give a folder for the report")
    module = importlib.import_module(REPORTS[paper])
    budget = option_budget(max_seconds, max_memory)
    extra: dict[str, Any] = {} if reach is None else {"reach": reach}
    if paper == "nim-variants":
        table2_max = 8 if grid is None else grid
        module.check_grid(table2_max, budget, store=store)  # refused before the folder is made
        module.check_reach(reach, budget, table2_max=table2_max, store=store)
        extra.update(table2_max=table2_max, store=store)
    elif reach is not None:
        module.check_reach(reach, budget)
    out.mkdir(parents=True, exist_ok=True)
    if paper == "hidden-games" and reach is not None:
        extra["budget"] = budget
        extra["max_nodes"] = None
    if paper == "misere-census":  # as many three-digit codes as --max-seconds allows
        extra["budget"] = budget
    with progress_lines(f"reproducing {paper}") as report_line:
        if paper in REACHABLE or paper == "misere-census":
            extra["progress"] = report_line
        report = module.write_report(out, **extra)
    console.print(f"report written to [bold]{report}[/bold]")

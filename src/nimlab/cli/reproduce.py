"""``nimlab reproduce PAPER --out DIR``: recompute a seed paper's claims into a Markdown report.

Each paper has a module with ``write_report(out: Path) -> Path`` that computes every checked
claim, writes ``report.md`` (and figures) into ``out``, and returns the report's path.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import typer

from nimlab.cli.app import app, console
from nimlab.errors import InvalidPositionError

__all__ = ["REPORTS", "reproduce"]

REPORTS: dict[str, str] = {
    "scoring-nim": "nimlab.scoring.reproduce",
    "nim-variants": "nimlab.extensive.reproduce",
}


@app.command("reproduce")
def reproduce(
    paper: str = typer.Argument(..., help=f"Which seed paper: {', '.join(REPORTS)}."),
    out: Path = typer.Option(Path("out"), "--out", help="Directory for the report and figures."),
    reach: int | None = typer.Option(
        None,
        "--reach",
        help="nim-variants: extend the diagonal SN(n,n,1) to this n (9 takes about 10 minutes).",
    ),
) -> None:
    """Recompute every concrete claim of a seed paper and write a Markdown report."""
    if paper not in REPORTS:
        known = ", ".join(sorted(REPORTS))
        raise InvalidPositionError(f"unknown paper {paper!r}: known papers are {known}")
    if reach is not None and paper != "nim-variants":
        raise InvalidPositionError("--reach applies to the nim-variants report only")
    if out.exists() and not out.is_dir():
        raise InvalidPositionError(f"--out {str(out)!r} is a file: give a folder for the report")
    out.mkdir(parents=True, exist_ok=True)
    extra = {} if reach is None else {"reach": reach}
    report = importlib.import_module(REPORTS[paper]).write_report(out, **extra)
    console.print(f"report written to [bold]{report}[/bold]")

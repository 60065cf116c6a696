"""The Typer application shared by every command module, and output helpers.

Command modules import :data:`app` and register with ``@app.command()``; ``nimlab.cli.main``
imports them all and turns exceptions into the exit codes of the contract.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import typer
from rich.console import Console

__all__ = ["HEAP_ARGS", "JSON_OPTION", "app", "console", "emit_json"]

app = typer.Typer(
    name="nimlab",
    help="A laboratory for Nim and its variants: exact game values, fast, from the command line.",
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

console = Console(highlight=False)

JSON_OPTION = typer.Option(False, "--json", help="Print exactly one JSON object on stdout.")

# Heaps are read as strings so that "-3" or "2.5" reach our parser (and its clear message)
# instead of being taken for options; see ``HEAP_ARGS`` in commands.
HEAP_ARGS: dict[str, Any] = {"ignore_unknown_options": True}


def _print_version(asked: bool) -> None:
    if asked:
        from nimlab import __version__

        sys.stdout.write(f"nimlab {__version__}\n")
        raise typer.Exit()


@app.callback()
def _root(
    context: typer.Context,
    version: bool = typer.Option(
        False,
        "--version",
        is_eager=True,
        callback=_print_version,
        help="Print nimlab's version and exit.",
    ),
) -> None:
    """A laboratory for Nim and its variants: exact game values, fast, from the command line."""
    if context.invoked_subcommand is None:
        console.print(context.get_help())


def emit_json(payload: dict[str, Any]) -> None:
    """Write ``payload`` as the single JSON object of the command's standard output."""
    sys.stdout.write(json.dumps(payload) + "\n")

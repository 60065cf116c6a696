"""The Typer application shared by every command module, and output helpers.

Command modules import :data:`app` and register with ``@app.command()``; ``nimlab.cli.main``
imports them all and turns exceptions into the exit codes of the contract.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console

from nimlab.budget import GIB, Budget
from nimlab.errors import InvalidPositionError

if TYPE_CHECKING:  # the catalogue is imported when a command needs it (start-up stays fast)
    from nimlab.catalogue.base import GameOptions

__all__ = [
    "CODE_OPTION",
    "GAME_OPTION",
    "HEAP_ARGS",
    "JSON_OPTION",
    "MAX_MEMORY_OPTION",
    "MAX_SECONDS_OPTION",
    "MAX_TAKE_OPTION",
    "NO_STORE_OPTION",
    "SET_OPTION",
    "VARIANT_NAMES",
    "app",
    "console",
    "emit_json",
    "hidden_game_options",
    "option_budget",
    "progress_lines",
]

app = typer.Typer(
    name="nimlab",
    help="A laboratory for Nim and its variants: exact game values, fast, from the command line.",
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

PIPED_WIDTH = 160
"""Columns of tables when stdout is not a terminal (``$COLUMNS`` overrides it): wide enough
for every table of nimlab, where a terminal's 80 would wrap them."""


def make_console() -> Console:
    """The console of the commands: a terminal's own width; when piped, lines are not wrapped
    and tables get ``$COLUMNS`` or :data:`PIPED_WIDTH` columns.

    >>> import io, contextlib
    >>> with contextlib.redirect_stdout(io.StringIO()):
    ...     piped = make_console()
    >>> piped.width >= 80, piped.soft_wrap
    (True, True)
    """
    if sys.stdout.isatty():
        return Console(highlight=False)
    columns = os.environ.get("COLUMNS", "")
    width = int(columns) if columns.isdigit() and int(columns) > 0 else PIPED_WIDTH
    return Console(highlight=False, width=width, soft_wrap=True)


console = make_console()

QUIET_SECONDS = 2.0
"""Jobs shorter than this print no progress when stderr is not a terminal (the environment
variable ``NIMLAB_PROGRESS_AFTER`` sets another number of seconds; 0 prints every step)."""


def _quiet_seconds() -> float:
    given = os.environ.get("NIMLAB_PROGRESS_AFTER", "")
    try:
        return max(0.0, float(given)) if given else QUIET_SECONDS
    except ValueError:
        return QUIET_SECONDS


@contextmanager
def progress_lines(title: str, *, quiet: float | None = None) -> Iterator[Callable[[str], None]]:
    """A reporter of progress lines on stderr, never on stdout: a rich status line on a
    terminal; otherwise a plain line per report once the job has run for ``quiet`` seconds
    (default :data:`QUIET_SECONDS`), so a short job prints nothing and a piped long one
    shows it is alive. Inside the block it also hears the reports of deep loops
    (:mod:`nimlab.progress`).

    >>> import io, contextlib
    >>> errors = io.StringIO()
    >>> with contextlib.redirect_stderr(errors), progress_lines("test", quiet=0) as report:
    ...     report("step 1 of 2")
    >>> errors.getvalue()
    'step 1 of 2\\n'
    """
    from rich.console import Console

    from nimlab.progress import listening

    stderr = Console(stderr=True, file=sys.stderr)
    started = time.perf_counter()
    after = _quiet_seconds() if quiet is None else quiet
    if not stderr.is_terminal:

        def write(line: str) -> None:
            if time.perf_counter() - started >= after:
                sys.stderr.write(line + "\n")
                sys.stderr.flush()

        with listening(write):
            yield write
        return
    with stderr.status(title) as status:

        def show(line: str) -> None:
            status.update(line)

        with listening(show):
            yield show


VARIANT_NAMES = ("sn", "fsn", "kn", "kn-empty")
"""The hidden-information variants (``nimlab.hidden.variants.VARIANTS``), named in help
texts without importing the solver (a test checks they agree)."""

JSON_OPTION = typer.Option(False, "--json", help="Print exactly one JSON object on stdout.")
NO_STORE_OPTION = typer.Option(
    False,
    "--no-store",
    help="Neither read nor write a results store (by default the result is kept in "
    "$NIMLAB_STORE, else in your results store, and a repeated command is answered from it).",
)

GAME_OPTION = typer.Option(
    None,
    "--game",
    help="Hide the components of this catalogue game instead of Nim heaps: subtraction, octal, "
    "kayles, dawson-kayles, grundy-game, nimble, nim2d, red-blue-hackenbush.",
)
SET_OPTION = typer.Option(
    None, "--set", help="With --game subtraction: the subtraction set, e.g. 1,2."
)
MAX_TAKE_OPTION = typer.Option(None, "--max", min=1, help="With --game subtraction: take 1..K.")
CODE_OPTION = typer.Option(None, "--code", help="With --game octal: the octal code.")


def hidden_game_options(
    game: str | None, subtraction_set: str | None, max_take: int | None, code: str | None
) -> GameOptions | None:
    """The options of ``--game`` from ``--set``, ``--max`` and ``--code``: ``None`` for Nim
    (no ``--game``, or ``--game nim``), which takes none of them.

    >>> hidden_game_options("subtraction", "1,2", None, None).subtraction_set
    (1, 2)
    >>> hidden_game_options(None, None, 2, None)
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: --set, --max and --code go with --game (Nim takes none)
    """
    from nimlab.catalogue.base import GameOptions
    from nimlab.catalogue.registry import find_game, parse_int_list

    if game is None or find_game(game).name == "nim":
        if subtraction_set is not None or max_take is not None or code is not None:
            raise InvalidPositionError("--set, --max and --code go with --game (Nim takes none)")
        return None
    chosen = parse_int_list(subtraction_set, "--set", minimum=1) if subtraction_set else None
    return GameOptions(subtraction_set=chosen, max_take=max_take, code=code)


MAX_SECONDS_OPTION = typer.Option(
    600.0,
    "--max-seconds",
    min=0.0,
    help="Refuse (exit 3, before any work) a job estimated to take more seconds; "
    "raise it to lift the limit.",
)
MAX_MEMORY_OPTION = typer.Option(
    8.0,
    "--max-memory",
    min=0.0,
    help="Refuse (exit 3, before any work) a job estimated to need more GiB of memory; "
    "raise it to lift the limit.",
)


def option_budget(max_seconds: float, max_memory: float) -> Budget:
    """The budget of ``--max-seconds`` and ``--max-memory`` (GiB; ``inf``: no limit).

    >>> from nimlab.budget import CLI_BUDGET
    >>> option_budget(600, 8) == CLI_BUDGET
    True
    """
    return Budget(max_seconds, int(min(max_memory, 2.0**40) * GIB))


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

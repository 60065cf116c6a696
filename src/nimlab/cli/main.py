"""Entry point of ``nimlab``: registers the commands and maps errors to exit codes.

Every module of the ``nimlab.cli`` package (other than this one and ``app``) registers its
commands on the shared Typer app when imported; adding a command is adding a module.

Exit codes (``../shared/CONTRACT.md``): 0 success, 2 bad input, 3 refused as too large,
1 anything unexpected. Errors are one line on stderr starting ``error:``.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import traceback
from collections.abc import Sequence

import typer

import nimlab.cli
from nimlab.cli.app import app
from nimlab.cli.helptext import plain_help
from nimlab.errors import NimlabError, TooLargeError

__all__ = ["EXIT_BAD_INPUT", "EXIT_TOO_LARGE", "EXIT_UNEXPECTED", "main", "run"]

EXIT_OK, EXIT_UNEXPECTED, EXIT_BAD_INPUT, EXIT_TOO_LARGE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def _register_commands() -> None:
    for module in pkgutil.iter_modules(nimlab.cli.__path__):
        if module.name not in ("app", "helptext", "main"):
            importlib.import_module(f"nimlab.cli.{module.name}")


_register_commands()


def _fail(message: str, code: int) -> int:
    sys.stderr.write(f"error: {' '.join(message.split())}\n")
    return code


def _usage_error_message(error: Exception) -> str | None:
    """The message of a click ``UsageError`` (exit code 2), recognised by its interface.

    Typer may vendor its own copy of click, so the class cannot be imported reliably.
    """
    format_message = getattr(error, "format_message", None)
    if getattr(error, "exit_code", None) == EXIT_BAD_INPUT and callable(format_message):
        return str(format_message())
    return None


def _os_error_message(error: OSError) -> str:
    """``OSError`` as one line naming the file (when known) and the operating system's reason.

    >>> _os_error_message(FileNotFoundError(2, "No such file or directory", "in.efg"))
    "cannot use the file 'in.efg': No such file or directory"
    >>> _os_error_message(OSError(28, "No space left on device"))
    'input/output failed: No space left on device'
    """
    reason = error.strerror or str(error) or type(error).__name__
    if error.filename is None:
        return f"input/output failed: {reason}"
    return f"cannot use the file {str(error.filename)!r}: {reason}"


def run(argv: Sequence[str] | None = None) -> int:
    """Run the CLI on ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        command = plain_help(typer.main.get_command(app))
        result = command.main(args=args, prog_name="nimlab", standalone_mode=False)
    except TooLargeError as error:
        return _fail(str(error), EXIT_TOO_LARGE)
    except NimlabError as error:
        return _fail(str(error), EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        return _fail("interrupted; results already stored are kept", EXIT_INTERRUPTED)
    except OSError as error:  # a file that cannot be read or written: the user's input
        return _fail(_os_error_message(error), EXIT_BAD_INPUT)
    except Exception as error:  # the contract's "anything unexpected"
        usage_problem = _usage_error_message(error)
        if usage_problem is not None:
            return _fail(usage_problem, EXIT_BAD_INPUT)
        if os.environ.get("NIMLAB_DEBUG"):
            traceback.print_exc()
        detail = f"unexpected {type(error).__name__}: {error} (set NIMLAB_DEBUG=1 for a traceback)"
        return _fail(detail, EXIT_UNEXPECTED)
    if result == EXIT_INTERRUPTED:  # typer turns Ctrl-C into this exit code, silently
        return _fail("interrupted; results already stored are kept", EXIT_INTERRUPTED)
    return result if isinstance(result, int) else EXIT_OK


def main() -> None:
    """Console-script entry point.

    Lifts, for this process only, the interpreter's limit on decimal conversion of integers
    (4300 digits by default): nimber arithmetic and heap sizes are exact at any size, and
    input length is bounded where text is parsed (``nimlab.core.heaps.MAX_DIGITS``).
    """
    sys.set_int_max_str_digits(0)
    sys.exit(run())

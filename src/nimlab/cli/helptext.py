"""How ``--help`` reads: plain placeholders instead of Python types, and an example per command.

Typer shows each parameter's Python type (``<bool>``, ``<int>``, ``<list[str]>``) beside it.
:func:`plain_help` walks the click command tree once, before it runs, and gives every
parameter a placeholder people read: none for a flag, the option's name in capitals for a
value (``--upto UPTO``, ``--max-seconds SECONDS``), none beside an argument (the usage line
names it); choices keep their list. It also appends the command's
:data:`EXAMPLES` entry to its help, writes each paragraph of a docstring as one line (the
terminal wraps it; the source's line breaks would show), drops reST's double backticks, and
sorts the commands into the panels of :data:`PANELS`, in that order.

>>> import typer
>>> from nimlab.cli.main import app
>>> command = plain_help(typer.main.get_command(app))
>>> solve = command.commands["solve"]
>>> [p.metavar for p in solve.params if p.name in ("misere", "max_seconds")]
['', 'SECONDS']
>>> "nimlab solve sn 3 3 1 --json" in solve.help
True
>>> solve.rich_help_panel, list(command.commands)[:3]
('Imperfect information', ['nim', 'analyze', 'grundy'])
>>> plain_text("Write the ``.efg`` game\\nwith perfect recall.\\n\\nMore.")
'Write the .efg game with perfect recall.\\n\\nMore.'
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["EXAMPLES", "PANELS", "plain_help", "plain_text"]

PANELS: dict[str, tuple[str, ...]] = {
    "Analysis": (
        "nim",
        "analyze",
        "grundy",
        "games",
        "cgt",
        "nimber",
        "lost",
        "aesthetic",
        "triangles",
        "trapezoids",
        "reproduce",
    ),
    "Imperfect information": ("solve", "export-efg", "solve-efg", "solve-openspiel"),
    "Scoring": ("scoring", "scoring-table"),
    "Sweeps and store": ("sweep", "store"),
    "Play and serve": ("play", "serve", "tour"),
}
"""The panels of ``nimlab --help`` and their commands, in the order shown (a command not
listed here goes last, under "Other")."""

EXAMPLES: dict[str, tuple[str, ...]] = {
    "analyze": (
        "nimlab analyze nim 3,4,5",
        "nimlab analyze subtraction 10 --set 1,3,4 --json",
        "nimlab analyze domineering '.../...'",
    ),
    "cgt": ("nimlab cgt '{2|-1/2} + ^*'", "nimlab cgt '±1' --thermograph thermo.svg --json"),
    "grundy": ("nimlab grundy kayles --upto 100", "nimlab grundy octal --code 0.07 --upto 50"),
    "games": ("nimlab games",),
    "misere": ("nimlab misere kayles", "nimlab misere 0.07 --upto 30 --json"),
    "solve-efg": ("nimlab solve-efg game.efg --strategy --json",),
    "nim": ("nimlab nim 3 4 5", "nimlab nim 3 4 5 --misere --json"),
    "lost": ("nimlab lost --heaps 3 --max 7",),
    "aesthetic": ("nimlab aesthetic --heaps 4",),
    "triangles": ("nimlab triangles --upto 1000",),
    "trapezoids": ("nimlab trapezoids --max 100",),
    "solve-openspiel": ("nimlab solve-openspiel kuhn_poker --json",),
    "play": ("nimlab play nim 3,4,5", "nimlab play sn 3,3,1"),
    "reproduce": ("nimlab reproduce nim-variants --out report",),
    "scoring": ("nimlab scoring 3 4", "nimlab scoring 3 4 --N=-7/2 --json"),
    "scoring-table": ("nimlab scoring-table --piles 2 --max 6 --out table.csv",),
    "serve": ("nimlab serve --port 8000",),
    "solve": (
        "nimlab solve sn 3 3 1 --json",
        "nimlab solve kn --game subtraction 3,2 --max 2",
    ),
    "export-efg": ("nimlab export-efg sn 2 2 1 sn221.efg",),
    "tour": ("nimlab tour",),
    "nimber sum": ("nimlab nimber sum 3 5 6",),
    "nimber product": ("nimlab nimber product 2 3",),
    "nimber table": ("nimlab nimber table --size 8",),
    "sweep grundy": ("nimlab sweep grundy --codes 0.07,0.137 --upto 1000",),
    "sweep misere": ("nimlab sweep misere --codes 0.77,0.07,4.7 --max-seconds 30",),
    "sweep scoring": ("nimlab sweep scoring --piles 2 --max 8",),
    "sweep solve": ("nimlab sweep solve sn --grid 4..6,4..6,1 --json",),
    "store ls": ("nimlab store ls --json",),
    "store show": ("nimlab store show 'sn(3,3,1)'",),
    "store export": ("nimlab store export results.csv",),
}
"""Per command (subcommands as ``group name``): the examples its help ends with."""


def _placeholder(param: Any) -> str | None:
    """The placeholder shown for an option without one (``None``: keep typer's choices)."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    described = getattr(param, "type_descriptor", None)
    if described is not None and described.is_choice:
        return None  # typer lists the choices
    longs = [opt for opt in param.opts if opt.startswith("--")]
    option: str = longs[0] if longs else param.opts[0]
    return option.lstrip("-").split("-")[-1].upper()


def _plain(param: Any) -> None:
    """Give ``param`` a plain placeholder: an option its :func:`_placeholder`, an argument
    none in the type column (its name, in the usage line, says what it is)."""
    if param.param_type_name == "argument":
        param.display_type_rich = lambda ctx: None
        return
    placeholder = _placeholder(param)
    if param.metavar is None and placeholder is not None:
        param.metavar = placeholder


def plain_text(text: str) -> str:
    """``text`` with each paragraph on one line and reST's double backticks dropped."""
    paragraphs = re.split(r"\n\s*\n", text.strip())
    return "\n\n".join(" ".join(p.split()) for p in paragraphs).replace("``", "")


def _panels(command: Any) -> None:
    """Order the top-level commands by :data:`PANELS` and put each in its panel."""
    commands = getattr(command, "commands", None)
    if not commands:
        return
    order = [name for names in PANELS.values() for name in names]
    ranked = sorted(commands, key=lambda name: order.index(name) if name in order else len(order))
    for panel, names in PANELS.items():
        for name in names:
            if name in commands:
                commands[name].rich_help_panel = panel
    for name in ranked:
        if name not in order:
            commands[name].rich_help_panel = "Other"
    command.commands = {name: commands[name] for name in ranked}


def plain_help(command: Any, path: str = "") -> Any:
    """``command`` (a click command or group) with plain placeholders and examples, in place."""
    if not path:
        _panels(command)
    for param in command.params:
        _plain(param)
        if getattr(param, "help", None):
            param.help = plain_text(param.help)
    done = "\n\nExamples:\n\n" in (command.help or "")  # a tree already made plain
    if command.help and not done:
        command.help = plain_text(command.help)
    if getattr(command, "short_help", None):
        command.short_help = plain_text(command.short_help)
    make_help_option = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = make_help_option(ctx)
        if option is not None:
            _plain(option)
        return option

    command.get_help_option = help_option
    examples = EXAMPLES.get(path)
    if examples and not done:
        shown = "\n\n".join(f"  {example}" for example in examples)
        command.help = f"{(command.help or '').rstrip()}\n\nExamples:\n\n{shown}"
    for name, sub in getattr(command, "commands", {}).items():
        plain_help(sub, f"{path} {name}".strip())
    return command

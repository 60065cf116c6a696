"""``--help`` as users read it: no Python type placeholders, and examples that run."""

from __future__ import annotations

import re
import shlex
from typing import Any

import pytest
import typer

from nimlab.cli.helptext import EXAMPLES
from nimlab.cli.main import app

PLACEHOLDER = re.compile(r"<(bool|int|float|str|path|list\[[a-z]+\]|[a-z]+)>")


def _paths(command: Any, path: str = "") -> list[str]:
    subcommands = getattr(command, "commands", {})
    if not subcommands:
        return [path]
    return [found for name, sub in subcommands.items() for found in _paths(sub, f"{path} {name}")]


def test_every_command_has_examples() -> None:
    paths = {p.strip() for p in _paths(typer.main.get_command(app))}
    assert paths == set(EXAMPLES)


@pytest.mark.parametrize("path", ["", *EXAMPLES])
def test_help_has_no_type_placeholders_and_shows_the_examples(nimlab: Any, path: str) -> None:
    run = nimlab(*path.split(), "--help", env={"COLUMNS": "100"})
    assert run.code == 0, run.err
    assert not PLACEHOLDER.search(run.out), PLACEHOLDER.search(run.out)
    if path:
        assert "Examples:" in run.out
        for example in EXAMPLES[path]:
            assert example in run.out


RUNNABLE = [
    example
    for path in ("analyze", "grundy", "nim", "scoring", "solve", "nimber sum", "nimber product")
    for example in EXAMPLES[path]
]


@pytest.mark.parametrize("example", RUNNABLE)
def test_the_examples_run(nimlab: Any, example: str) -> None:
    words = shlex.split(example)
    assert words[0] == "nimlab"
    run = nimlab(*words[1:])
    assert run.code == 0, run.err

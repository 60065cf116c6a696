"""The README's command-line block, run as a user pastes it: every line exits 0, a line whose
comment says "refused" exits 3 with one ``error:`` line, and every fraction a comment
promises (``72/305``) is in what the command prints. A README that drifts from the code (a
game that got fast enough to run under a limit it was shown refused by) fails here.

The lines run in order in one directory, since a later line reads what an earlier one wrote
(``export-efg`` then ``solve-efg``). Optional parts shown as ``[--method mex]`` are left out.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.contract.conftest import Run

README = Path(__file__).resolve().parents[2] / "README.md"

COVERED_ELSEWHERE = {
    "serve": "a live server: tests/contract/test_server_contract.py",
    "reproduce nim-variants": "minutes: in-process on a small grid (test_extensive_reproduce.py)"
    " and its refusals as a subprocess (test_reproduce_hidden_cli.py)",
    "reproduce hidden-games": "minutes: tests/contract/test_reproduce_hidden_cli.py",
    "reproduce hidden-partizan": "a minute: tests/contract/test_hidden_partizan_cli.py",
}
"""Lines not run here (by the start of their command), and what runs them instead."""


@dataclass(frozen=True)
class ReadmeLine:
    """One ``nimlab ...  # comment`` line of the README's command-line block."""

    args: tuple[str, ...]
    comment: str


def readme_lines() -> list[ReadmeLine]:
    """The ``nimlab`` lines of the first code block under "## The command line"."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## The command line", 1)[1]
    block = section.split("```", 2)[1]
    lines = []
    for line in block.splitlines():
        if not line.startswith("nimlab "):
            continue
        command, _, comment = line.partition(" #")
        command = re.sub(r"\[[^\]]*\]", "", command)
        lines.append(ReadmeLine(tuple(shlex.split(command)[1:]), comment.strip()))
    return lines


def covered_elsewhere(line: ReadmeLine) -> bool:
    shown = " ".join(line.args)
    return any(shown.startswith(start) for start in COVERED_ELSEWHERE)


def test_the_readme_block_is_found() -> None:
    lines = readme_lines()
    assert len(lines) >= 30
    nim = ReadmeLine(("nim", "3", "4", "5"), "nim-sum in binary, outcome, every winning move")
    assert nim in lines
    assert ReadmeLine(("nimber", "table", "--op", "product", "--size", "8"), "") in lines


def test_every_readme_command_does_what_its_comment_says(nimlab: Any) -> None:
    failures = []
    for line in readme_lines():
        if covered_elsewhere(line):
            continue
        run: Run = nimlab(*line.args, timeout=300)
        shown = f"nimlab {' '.join(line.args)}"
        if "refused" in line.comment:
            if run.code != 3 or not run.err.startswith("error: "):
                failures.append(f"{shown}: exit {run.code}, not refused (3)\n{run.err[-500:]}")
            continue
        if run.code != 0:
            failures.append(f"{shown}: exit {run.code}\n{run.err[-500:]}")
            continue
        for fraction in re.findall(r"(?<![\w/])-?\d+/\d+(?![\w/])", line.comment):
            if fraction not in run.out:
                failures.append(f"{shown}: its comment says {fraction}, not printed")
    assert not failures, "\n".join(failures)

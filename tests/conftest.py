"""Shared fixtures: run the CLI in-process and capture what it prints."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import settings

from nimlab.cli.app import PIPED_WIDTH, console
from nimlab.cli.main import run


@dataclass(frozen=True)
class CliResult:
    """Exit code and captured output of one ``nimlab`` invocation."""

    code: int
    out: str
    err: str

    def json(self) -> Any:
        """The single JSON object on stdout (fails the test if there is anything else)."""
        return json.loads(self.out)


# Hypothesis's deadline (200 ms an example) times the machine, not the code: with the suite on
# every core (pytest-xdist) a worker shares its core with servers and subprocesses. The rest
# of the active profile is kept (under CI=true, Hypothesis's derandomized "ci" profile).
settings.register_profile("nimlab", parent=settings(), deadline=None)
settings.load_profile("nimlab")


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Any:
    """``cli("nim", "3", "4", "5", "--json")`` runs nimlab in-process and returns a CliResult."""

    def invoke(*args: str) -> CliResult:
        capsys.readouterr()
        code = run(list(args))
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return invoke


@pytest.fixture(autouse=True)
def _no_default_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands run by a test (in-process or as subprocesses, which inherit it) use no results
    store unless the test names one: the user's default store is never read or written."""
    monkeypatch.setenv("NIMLAB_STORE", "")


@pytest.fixture(autouse=True)
def _piped_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands print as into a pipe with no ``$COLUMNS`` (tables :data:`PIPED_WIDTH` wide),
    in-process and in subprocesses alike, however the suite is run: pytest-xdist's workers
    inherit ``COLUMNS=80`` from the runner, and the console is made when nimlab is imported."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(console, "width", PIPED_WIDTH)

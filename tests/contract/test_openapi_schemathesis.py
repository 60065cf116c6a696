"""Schemathesis over the server's own ``/api/openapi.json`` finds nothing (issue 44, item 5).

A live ``nimlab serve`` on loopback (its real worker processes and budgets) is driven by the
``schemathesis`` command, deterministically (``--generation-deterministic``, no seed involved),
in its coverage phase (boundary values of every constraint, schema-violating bodies and
parameters, undeclared methods such as ``TRACE``) and a short fuzzing phase, with the checks:

* ``not_a_server_error``: no 5xx at all (503, a job past its budget, would be a finding too:
  the budget here is short, and what it cannot finish must be refused by an estimate, 413);
* ``status_code_conformance``, ``content_type_conformance``, ``response_schema_conformance``:
  every answer is declared for its operation, JSON, and fits its model (``ErrorBody``);
* ``negative_data_rejection``: a request that violates the schema is refused (400, 404, 405,
  413, 422), never answered 200;
* ``positive_data_acceptance``: a request that fits the schema is not refused for its form
  (422): it is answered, or refused for what a schema cannot say (400: a position not in its
  game's notation, an illegal move), for its size (413), for a game that is not there (404),
  or because the playground is full of games in progress (429, with ``Retry-After``: a long
  run starts many hidden games);
* ``unsupported_method``, ``allow_header_conformance``: undeclared methods get 405 with
  ``Allow``.

Bounded: the operations are one per request model (:data:`OPERATIONS`; the others share their
models), :data:`EXAMPLES` generated cases per operation in the fuzzing phase, each request
timed out after :data:`REQUEST_SECONDS`. A failure prints Schemathesis's report, with a
``curl`` line reproducing each finding.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.contract.conftest import start_server

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")

pytestmark = pytest.mark.skipif(
    not SCHEMATHESIS.exists(), reason="schemathesis (the test extra) is not installed"
)

CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "negative_data_rejection",
    "positive_data_acceptance",
    "unsupported_method",
    "allow_header_conformance",
)

CONFIG = """\
[checks]
positive_data_acceptance.expected-statuses = ["2xx", "400", "404", "413", "429"]
negative_data_rejection.expected-statuses = ["400", "404", "405", "413", "422"]
"""
"""What answers the two data checks accept (see the module's docstring)."""

OPERATIONS = (
    r"^/api/(health|games|analyze|grundy|scoring|scoring/play|solve|hidden/new"
    r"|hidden/\{token\}(/act|/hint)?|play/move|partisan/move)$"
)
"""One operation per request model, as far as they differ: ``play/state``, ``play/hint`` and
``play/computer`` take the model of ``play/move`` less its move (``play/computer`` a seed
instead, bounded as ``hidden/new``'s), the ``partisan/`` operations that of
``partisan/move``; what they answer is the same sets of statuses and bodies."""

EXAMPLES = 5
"""Generated cases per operation in the fuzzing phase (the coverage phase has its own)."""

JOB_SECONDS = 5
"""The server's per-request budget: short, so that a runaway job ends fast (and fails the run)."""

REQUEST_SECONDS = 60


def test_schemathesis_finds_nothing(tmp_path: Path) -> None:
    config = tmp_path / "schemathesis.toml"
    config.write_text(CONFIG)
    store = tmp_path / "store.sqlite"
    server = start_server(("--job-seconds", str(JOB_SECONDS)), env={"NIMLAB_STORE": str(store)})
    try:
        done = subprocess.run(
            [
                str(SCHEMATHESIS),
                "--config-file",
                str(config),
                "run",
                f"{server.url}/api/openapi.json",
                "--checks",
                ",".join(CHECKS),
                "--phases",
                "coverage,fuzzing",
                "--include-path-regex",
                OPERATIONS,
                "--max-examples",
                str(EXAMPLES),
                "--generation-deterministic",
                "--workers",
                "1",
                "--request-timeout",
                str(REQUEST_SECONDS),
                "--no-color",
                "--output-truncate",
                "false",
            ],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
        )
    finally:
        server.stop()
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-20_000:]
    selected = re.search(r"Selected: (\d+)/(\d+)", report)
    cases = re.search(r"(\d+) generated, (\d+) passed", report)
    assert selected and cases, report[-3000:]
    assert (int(selected[1]), int(selected[2])) == (13, 19)
    assert int(cases[1]) == int(cases[2]) > 500  # every generated case passed every check

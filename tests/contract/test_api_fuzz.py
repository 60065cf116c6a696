"""The JSON API fuzzed from its own OpenAPI schema: Schemathesis generates requests for every
operation the schema declares (valid and invalid bodies, path parameters, odd methods) against
a live ``nimlab serve`` on loopback. No request may get a 5xx, every response must match the
schema's declared response, and every answer must come within its time budget.

Bounded: at most :data:`EXAMPLES` requests per operation, no Hypothesis deadline (a loaded
machine times itself, not the code), each request timed out after :data:`REQUEST_SECONDS`.

The other checks (declared statuses and content types, schema-valid data accepted, invalid
data rejected, 405 with ``Allow``) are those of ``test_openapi_schemathesis.py``, which drives
the ``schemathesis`` command's coverage phase; this one adds the time of each answer under a
generous budget.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="the test extra is not installed")

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import response_schema_conformance  # noqa: E402

from tests.contract.conftest import LiveServer, start_server  # noqa: E402

EXAMPLES = 30
"""Generated requests per API operation."""

JOB_SECONDS = 30
"""The server's per-request budget in this test (the default is 10 s): generous, so that a
loaded machine cannot turn a slow but legal request into a 503 (past its budget)."""

REQUEST_SECONDS = 120
"""No answer may take longer: the job budget plus the time to start a worker and answer, with
a margin for a machine running the rest of the suite on every core."""


@pytest.fixture
def fuzzed_server(tmp_path: Path) -> Iterator[LiveServer]:
    store = tmp_path / "store.sqlite"
    server = start_server(("--job-seconds", str(JOB_SECONDS)), env={"NIMLAB_STORE": str(store)})
    yield server
    server.stop()


def _fuzz(operation: Any) -> None:
    """Up to :data:`EXAMPLES` generated requests to one operation, each checked."""

    @given(case=operation.as_strategy())
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],
        database=None,
    )
    def check(case: Any) -> None:
        started = time.monotonic()
        response = case.call(timeout=REQUEST_SECONDS)
        elapsed = time.monotonic() - started
        case.validate_response(response, checks=(not_a_server_error, response_schema_conformance))
        assert elapsed < REQUEST_SECONDS, f"{case.method} {case.path}: {elapsed:.1f} s"

    check()


def test_no_server_error_and_responses_match_the_schema(fuzzed_server: LiveServer) -> None:
    """Every operation of the schema fuzzed in turn (Schemathesis's pytest plugin cannot load a
    schema from a fixture under pytest 9, so Hypothesis is driven here directly)."""
    schema = schemathesis.openapi.from_url(f"{fuzzed_server.url}/api/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    paths = {operation.path for operation in operations}
    assert {"/api/health", "/api/analyze", "/api/scoring", "/api/solve"} <= paths
    failures = []
    for operation in operations:
        try:
            _fuzz(operation)
        except Exception as error:  # collect every operation's failure, then report them all
            failures.append(f"{operation.label}: {type(error).__name__}: {error}"[:2000])
    assert not failures, "\n\n".join(failures)

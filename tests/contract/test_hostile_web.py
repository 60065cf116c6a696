"""Hostile and huge requests against a real ``nimlab serve``: every one is answered 4xx or 503
within seconds, never 500, and the server stays healthy. Only 127.0.0.1 is contacted."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.contract.conftest import LiveServer, start_server

BIG = 10**30
HUGE_TEXT = "9" * 5000
TURTLES = "T" * 1999

# Each request, and whether a 200 is acceptable (huge but valid input with a closed form or a
# fast answer); every other answer must be a 4xx or a 503.
CASES: list[tuple[str, Any]] = [
    # oversized integers and exponents
    ("/api/analyze", {"game": "nim", "position": [BIG, 1]}),
    ("/api/analyze", {"game": "nim", "position": HUGE_TEXT}),
    ("/api/scoring", {"position": "3,4", "N": "1e999999999"}),
    ("/api/scoring", {"position": "3,4", "N": "1e99999"}),
    ("/api/scoring", {"position": "3,4", "N": "-1E-99999"}),
    ("/api/scoring", '{"position": "3,4", "N": 1' + "0" * 6000 + "}"),  # raw JSON
    ("/api/analyze", '{"game": "nim", "position": [1' + "0" * 6000 + "]}"),
    ("/api/scoring/play", {"position": "3,4", "N": "1e999999999"}),
    ("/api/grundy", {"game": "kayles", "upto": 10**100}),
    # huge but valid positions
    ("/api/solve", {"variant": "kn", "position": [60, 60, 60, 60]}),
    ("/api/solve", {"variant": "sn", "position": [60, 60, 60, 60]}),
    ("/api/solve", {"variant": "sn", "position": [10**18]}),
    ("/api/solve", {"variant": "sn", "position": [99, 99, 99]}),
    ("/api/solve", {"variant": "kn-empty", "position": [1] * 16}),
    ("/api/solve", {"variant": "kn", "position": [6, 6, 6, 6]}),
    ("/api/solve", {"variant": "fsn", "position": [5, 4, 3]}),
    ("/api/solve", {"variant": "sn", "position": [9, 9, 9, 9], "strategy": True}),
    ("/api/hidden/new", {"variant": "kn", "position": [6, 6, 6, 6]}),
    ("/api/hidden/new", {"variant": "sn", "position": [10**18]}),
    ("/api/analyze", {"game": "red-blue-hackenbush", "position": "BR," * 600 + "B"}),
    ("/api/analyze", {"game": "wythoff", "position": [10**18, 10**18 - 1]}),
    ("/api/analyze", {"game": "kayles", "position": [10**18]}),
    (
        "/api/analyze",
        {"game": "green-hackenbush", "position": ",".join(f"g-a{i}" for i in range(300))},
    ),
    ("/api/scoring", {"position": [60, 60, 60, 60, 60, 60]}),
    ("/api/scoring/play", {"position": [10**18], "N": 1}),
    ("/api/play/hint", {"game": "turning-turtles", "position": TURTLES}),
    ("/api/play/computer", {"game": "kayles", "position": [10**18]}),
    (
        "/api/partisan/hint",
        {"game": "red-blue-hackenbush", "position": "BR," * 600 + "B", "player": "B"},
    ),
    ("/api/grundy", {"game": "subtraction", "upto": 10_000, "options": {"max": 10**18}}),
]
BAD: list[tuple[str, Any]] = [
    # bad types, unknown games and variants, bad options
    ("/api/analyze", {"game": "chess", "position": "3"}),
    ("/api/analyze", {"game": "nim", "position": {"a": 1}}),
    ("/api/analyze", {"game": "nim", "position": [True, 3]}),
    ("/api/analyze", {"game": "octal", "position": "5", "options": {"code": "x.y"}}),
    ("/api/solve", {"variant": "zz", "position": [3]}),
    ("/api/solve", {"variant": "sn", "position": [-1, 3]}),
    ("/api/solve", {"variant": "sn", "position": "3,,x"}),
    ("/api/scoring", {"position": "3,4", "N": "1/0"}),
    ("/api/scoring", {"position": "3,4", "N": "nan"}),
    ("/api/scoring", {"position": "3,4", "N": 1.5}),
    ("/api/grundy", {"game": "nim", "upto": -1}),
    ("/api/play/move", {"game": "nim", "position": "3,4", "move": "9 9"}),
    (
        "/api/partisan/move",
        {"game": "red-blue-hackenbush", "position": "B", "player": "G", "move": ""},
    ),
    ("/api/hidden/new", {"variant": "sn", "position": [2, 1], "first": "nobody"}),
    ("/api/hidden/nope/act", {"action": 0}),
    ("/api/solve", []),
    ("/api/solve", "not json at all"),
    ("/api/solve", {"variant": "sn", "position": [1] * 40_000}),  # a body over 64 KB
]


@pytest.fixture(scope="module")
def hostile_server() -> Iterator[LiveServer]:
    """A server with a short time budget, so that runaway jobs end fast."""
    server = start_server(("--job-seconds", "2", "--workers", "2"))
    yield server
    server.stop()


def _id(case: tuple[str, Any]) -> str:
    path, body = case
    return f"{path}:{body if isinstance(body, str) else repr(body)}"[:60]


@pytest.mark.parametrize(
    ("case", "answered"),
    [pytest.param(case, True, id=_id(case)) for case in CASES]
    + [pytest.param(case, False, id=_id(case)) for case in BAD],
)
def test_hostile_request_gets_4xx_or_503_quickly(
    hostile_server: LiveServer, case: tuple[str, Any], answered: bool
) -> None:
    """Huge valid input: answered (200) or refused (413/503) within seconds; bad input: 4xx."""
    path, body = case
    with hostile_server.client(timeout=60) as client:
        started = time.monotonic()
        if isinstance(body, str):
            response = client.post(path, content=body, headers={"content-type": "application/json"})
        else:
            response = client.post(path, json=body)
        elapsed = time.monotonic() - started
        health = client.get("/api/health", timeout=2)
    allowed = (200, 413, 503) if answered else (400, 404, 405, 413, 422)
    assert response.status_code in allowed, response.text[:300]
    assert response.status_code == 200 or "error" in response.json()
    assert "Traceback" not in response.text
    # "within seconds": refused by estimate or stopped at the server's budget, with a margin
    # for a machine running the suite on every core (load 6 on 2 cores)
    assert elapsed < 30, f"{elapsed:.1f} s"
    assert health.json() == {"ok": True}


def test_the_server_is_still_healthy_and_small_afterwards(hostile_server: LiveServer) -> None:
    with hostile_server.client() as client:
        assert client.get("/api/health").json() == {"ok": True}
        solved = client.post("/api/solve", json={"variant": "sn", "position": [3, 3, 1]})
    assert solved.json()["value"] == "1/3"
    status = f"/proc/{hostile_server.process.pid}/status"
    with open(status, encoding="ascii") as lines:
        rss = next(int(line.split()[1]) for line in lines if line.startswith("VmRSS:"))
    assert rss < 300 * 1024  # kB: the main process does no heavy work itself

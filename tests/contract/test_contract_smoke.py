"""The two promises every other contract test leans on: the console script runs, and a JSON
answer is the whole of stdout even when HiGHS (a C library) is used underneath."""

from __future__ import annotations

from typing import Any

from tests.contract.conftest import LiveServer


def test_solve_json_is_the_whole_of_stdout(nimlab: Any) -> None:
    # SN(3,3,1) = 1/3 (seed 000, Fig. 2); the LP runs in HiGHS, whose banner went to fd 1
    payload = nimlab("solve", "sn", "3", "3", "1", "--json").ok_json()
    assert payload["value"] == "1/3"
    assert payload["exact"] is True


def test_live_server_answers_health(live_server: LiveServer) -> None:
    with live_server.client() as client:
        assert client.get("/api/health").json() == {"ok": True}

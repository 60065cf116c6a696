"""``nimlab solve VARIANT --game GAME POSITION`` as users run it (CONTRACT, added 2026-11-24)."""

from __future__ import annotations

from typing import Any

from tests.contract.conftest import Run


def test_the_cli_solves_a_game_and_says_which(nimlab: Any) -> None:
    run: Run = nimlab("solve", "kn", "--game", "subtraction", "6", "--max", "2", "--json")
    payload = run.ok_json()
    assert (payload["value"], payload["exact"]) == ("0", True)
    assert payload["game"] == "subtraction(max=2)" and payload["options"] == {"max": 2}
    assert payload["position"] == "6"
    wythoff = nimlab("solve", "sn", "--game", "wythoff", "3,5")
    assert "no components" in wythoff.refused(2)
    huge = nimlab("solve", "sn", "--game", "kayles", "500")
    assert "--max-seconds" in huge.refused(3)

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


def test_the_human_output_names_the_game_and_draws_its_positions(
    nimlab: Any, tmp_path: Any
) -> None:
    """The spec ``sn[kayles](3,2)`` is printed as it is (its brackets are not taken for
    markup), and ``--draw`` labels the nodes in the game's notation."""
    drawing = tmp_path / "kayles.svg"
    run = nimlab("solve", "sn", "--game", "kayles", "3,2", "--draw", str(drawing), "--no-store")
    assert run.code == 0, run.err
    assert run.out.startswith("sn[kayles](3,2): value 1 for the first player, L")
    svg = drawing.read_text()
    assert "(3,2) I0" in svg and "row 1: remove 1 at 1" in svg
    stored = nimlab("solve", "sn", "--game", "kayles", "3,2")
    assert stored.code == 0 and stored.out.startswith("sn[kayles](3,2): value 1"), stored.out

"""``nimlab solve-efg FILE.efg [--strategy] [--json]`` as users run it (CONTRACT, issue 14)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.extensive.efg_games import kuhn_efg

DATA = Path(__file__).parents[1] / "extensive" / "data" / "efg"
KEYS = {"value", "exact", "nodes", "infosets", "seconds", "title", "players", "shift"}


def test_kuhn_poker_value_and_strategies(nimlab: Any, tmp_path: Path) -> None:
    """Kuhn (1950): -1/18 for player 1; player 2 calls a bet with the queen 1/3 of the time."""
    path = tmp_path / "kuhn.efg"
    path.write_text(kuhn_efg())
    payload = nimlab("solve-efg", str(path), "--json").ok_json()
    assert payload.keys() >= KEYS and "strategies" not in payload
    assert (payload["value"], payload["exact"], payload["shift"]) == ("-1/18", True, "0")
    assert (payload["nodes"], payload["infosets"]) == (55, 12)
    assert payload["title"] == "Kuhn poker" and payload["players"] == ["Player 1", "Player 2"]
    assert isinstance(payload["seconds"], float) and payload["seconds"] >= 0
    shown = nimlab("solve-efg", str(path), "--strategy", "--json").ok_json()["strategies"]
    assert len(shown) == 12
    queen = [s for s in shown if (s["player"], s["name"]) == (2, "Q after bet")]
    assert queen == [
        {
            "player": 2,
            "infoset": 5,
            "name": "Q after bet",
            "actions": [
                {"action": "fold", "probability": "2/3"},
                {"action": "call", "probability": "1/3"},
            ],
        }
    ]
    for entry in shown:
        assert sum(Fraction(a["probability"]) for a in entry["actions"]) == 1


def test_human_output_names_the_value(nimlab: Any, tmp_path: Path) -> None:
    path = tmp_path / "kuhn.efg"
    path.write_text(kuhn_efg())
    run = nimlab("solve-efg", str(path), "--strategy")
    assert run.code == 0, run.err
    assert "-1/18" in run.out and "certified exact" in run.out and "Q after bet" in run.out


@pytest.mark.parametrize(("heaps", "value"), [(("3", "3", "1"), "1/3"), (("3", "2", "1"), "0")])
def test_export_then_solve_round_trip(
    nimlab: Any, tmp_path: Path, heaps: tuple[str, ...], value: str
) -> None:
    """Seed 000, Fig. 2: SN(3,3,1) = 1/3 and SN(3,2,1) = 0, through nimlab's own .efg file."""
    path = tmp_path / "sn.efg"
    exported = nimlab("export-efg", "sn", *heaps, str(path), "--json").ok_json()
    payload = nimlab("solve-efg", str(path), "--json").ok_json()
    assert (payload["value"], payload["exact"]) == (value, True)
    assert (payload["nodes"], payload["infosets"]) == (exported["nodes"], exported["infosets"])


def test_constant_sum_and_matching_pennies(nimlab: Any) -> None:
    ten = nimlab("solve-efg", str(DATA / "constant_sum.efg"), "--json").ok_json()
    assert (ten["value"], ten["shift"], ten["exact"]) == ("7", "-10", True)
    pennies = nimlab("solve-efg", str(DATA / "matching_pennies.efg"), "--json").ok_json()
    assert (pennies["value"], pennies["exact"]) == ("0", True)


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("three_players.efg", "two-player"),
        ("prisoners_dilemma.efg", "not zero-sum"),
        ("forgetful.efg", "perfect recall"),
        ("bad_chance.efg", "sum to 1"),
        ("missing.efg", "missing.efg"),
    ],
)
def test_bad_files_exit_2(nimlab: Any, name: str, says: str) -> None:
    message = nimlab("solve-efg", str(DATA / name), "--json").refused(2)
    assert says in message


def test_syntax_error_gives_the_place(nimlab: Any, tmp_path: Path) -> None:
    path = tmp_path / "bad.efg"
    path.write_text('EFG 2 R "" { "A" "B" }\np "" 1 1 "" { "a" } 0\nq\n')
    assert "line 3, column 1" in nimlab("solve-efg", str(path)).refused(2)
    assert "directory" in nimlab("solve-efg", str(tmp_path)).refused(2).lower()


def test_too_large_is_refused_with_the_option(nimlab: Any, tmp_path: Path) -> None:
    path = tmp_path / "kuhn.efg"
    path.write_text(kuhn_efg())
    slow = nimlab("solve-efg", str(path), "--max-seconds", "0.000001").refused(3)
    assert "--max-seconds" in slow and "--max-memory" not in slow
    assert "--max-memory" in nimlab("solve-efg", str(path), "--max-memory", "0.01").refused(3)

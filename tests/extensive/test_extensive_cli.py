"""The ``solve`` and ``export-efg`` commands follow the contract."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CONTRACT_KEYS = {"variant", "position", "misere", "value", "exact", "nodes", "infosets", "seconds"}


def test_solve_json_keys(cli: Any) -> None:
    r = cli("solve", "sn", "3", "3", "1", "--json")
    assert r.code == 0, r.err
    data = r.json()
    assert set(data) >= CONTRACT_KEYS
    assert data["value"] == "1/3"  # SN(3,3,1) = 1/3 (seed 000, Fig. 2)
    assert data["exact"] is True
    assert data["position"] == [3, 3, 1]
    assert data["misere"] is False
    assert isinstance(data["nodes"], int) and isinstance(data["infosets"], int)
    assert "strategies" not in data


def test_solve_misere_and_strategy(cli: Any) -> None:
    r = cli("solve", "fsn", "2", "1", "--misere", "--strategy", "--json")
    assert r.code == 0, r.err
    data = r.json()
    assert data["misere"] is True
    assert data["value"] == "1"  # seed 000, Theorem 4.2: exactly one heap > 1
    first = data["strategies"][0]
    assert first["player"] == "L" and first["knows"] == "[2, 1]" and first["reach"] == "1"
    assert sum(Fraction_(p) for p in first["actions"].values()) == 1


def Fraction_(text: str) -> Any:  # noqa: N802
    from fractions import Fraction

    return Fraction(text)


def test_solve_human_output_shows_strategy(cli: Any) -> None:
    r = cli("solve", "sn", "3", "3", "1", "--strategy")
    assert r.code == 0
    assert "1/3" in r.out and "L knows [3, 3, 1]" in r.out


def test_bad_input_exit_codes(cli: Any) -> None:
    assert cli("solve", "sn", "3", "-3", "--json").code == 2
    r = cli("solve", "chess", "3", "--json")
    assert r.code == 2 and r.err.startswith("error:") and "known variants" in r.err
    assert cli("solve", "sn", "0", "0", "--json").code == 2


def test_too_large_exit_3(cli: Any) -> None:
    r = cli("solve", "sn", "9", "9", "1", "--max-nodes", "1000", "--json")
    assert r.code == 3
    assert "--max-nodes" in r.err and "nodes" in r.err
    assert r.out == ""


def test_export_efg_and_draw(cli: Any, tmp_path: Path) -> None:
    target = tmp_path / "g.efg"
    r = cli("export-efg", "sn", "2", "2", str(target), "--json")
    assert r.code == 0, r.err
    text = target.read_text()
    assert text.startswith('EFG 2 R "sn(2,2)"')
    assert text.count("\np ") + text.count("\nt ") == r.json()["nodes"]
    picture = tmp_path / "g.svg"
    r = cli("solve", "sn", "3", "2", "--draw", str(picture), "--json")
    assert r.code == 0, r.err
    assert picture.read_text().startswith("<svg")

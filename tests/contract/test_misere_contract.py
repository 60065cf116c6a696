"""The contract of ``nimlab misere`` and ``analyze ... --misere`` (CONTRACT.md, added
2026-11-28), through the console script."""

from __future__ import annotations

from typing import Any

KEYS = {"code", "order", "p_order", "period", "preperiod", "tame", "pretending", "certified_to"}


def test_misere_kayles_json(nimlab: Any) -> None:
    payload = nimlab("misere", "0.77", "--no-store", "--json").ok_json()
    assert KEYS | {"generators", "relations", "p_portion"} <= payload.keys()
    assert (payload["code"], payload["period"], payload["preperiod"]) == ("0.77", 12, 71)
    assert payload["order"] % 2 == 0 and payload["tame"] is False
    assert payload["pretending"][:4] == ["1", "a", "b", "ab"]
    assert len(payload["pretending"]) == payload["certified_to"] + 1


def test_misere_upto_and_names(nimlab: Any) -> None:
    payload = nimlab("misere", "kayles", "--upto", "20", "--no-store", "--json").ok_json()
    assert payload["code"] == "0.77" and payload["certified_to"] == 20
    assert payload["period"] is None and payload["preperiod"] is None
    octal = nimlab("misere", "octal", "--code", ".07", "--upto", "14", "--no-store", "--json")
    assert octal.ok_json()["order"] == 24


def test_misere_human_output(nimlab: Any) -> None:
    run = nimlab("misere", "0.31", "--no-store")
    assert run.code == 0
    assert "P-portion" in run.out and "certificate" in run.out and "tame" in run.out


def test_misere_bad_input(nimlab: Any) -> None:
    assert "octal code" in nimlab("misere", "0.8", "--no-store").refused(2)
    assert "heap games" in nimlab("misere", "wythoff", "--no-store").refused(2)
    nimlab("misere", "0.77", "--upto", "-1", "--no-store").refused(2)


def test_misere_store(nimlab: Any, tmp_path: Any) -> None:
    store = str(tmp_path / "r.sqlite")
    first = nimlab("misere", "0.07", "--upto", "12", "--store", store, "--json").ok_json()
    again = nimlab("misere", "0.07", "--upto", "12", "--store", store, "--json").ok_json()
    assert (first["cached"], again["cached"]) == (False, True)
    assert first["order"] == again["order"]


def test_analyze_misere_kayles(nimlab: Any) -> None:
    payload = nimlab("analyze", "kayles", "1000,2001,77", "--misere", "--json").ok_json()
    assert (payload["method"], payload["outcome"]) == ("misere-quotient", "N")
    assert payload["game"] == "kayles(misere)" and payload["grundy"] is None
    human = nimlab("analyze", "kayles", "3,7", "--misere")
    assert human.code == 0 and "method: misere-quotient" in human.out


def test_analyze_misere_by_search_and_refused(nimlab: Any) -> None:
    payload = nimlab("analyze", "silver-dollar", "2,5,7", "--misere", "--json").ok_json()
    assert payload["method"] == "brute-force"
    message = nimlab(
        "analyze", "subtraction", "--set", "1,3,4", "900,900,900,900,900", "--misere", "--json"
    ).refused(3)
    assert "--limit" in message

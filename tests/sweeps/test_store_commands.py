"""``--store`` on the single commands: a second identical request is served from the store,
under the same key a sweep uses (so a sweep's results serve them too)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from nimlab.store import STORE_ENV, ResultStore
from nimlab.sweeps import tasks

_TIMING = ("seconds", "timings")


def _untimed(payload: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in payload.items() if key not in _TIMING}


@pytest.fixture
def no_compute(monkeypatch: pytest.MonkeyPatch) -> None:
    """After this fixture, any computation of a sweep task fails the test."""

    def refuse(**params: Any) -> dict[str, Any]:
        raise AssertionError(f"computed again: {params}")

    for kind in list(tasks.KINDS):
        monkeypatch.setitem(tasks.KINDS, kind, refuse)


def _rows(path: Path) -> list[str]:
    with ResultStore(path) as store:
        return [row.spec for row in store.results()]


@pytest.mark.parametrize(
    ("args", "spec"),
    [
        (("solve", "sn", "3", "3", "1"), "sn(3,3,1)"),
        (("solve", "kn", "2", "1", "--misere"), "kn(2,1;misere)"),
        (("scoring", "2", "4", "1"), "scoring(4,2,1)"),
        (("grundy", "octal", "--code", "0.07", "--upto", "200"), "octal(0.07;upto=200)"),
        (("grundy", "kayles", "--upto", "100"), "octal(0.77;upto=100)"),
    ],
)
def test_second_request_is_served(
    cli: Any, tmp_path: Path, request: pytest.FixtureRequest, args: tuple[str, ...], spec: str
) -> None:
    path = tmp_path / "r.sqlite"
    first = cli(*args, "--store", str(path), "--json")
    assert first.code == 0, first.err
    assert _rows(path) == [spec]
    request.getfixturevalue("no_compute")
    second = cli(*args, "--store", str(path), "--json")
    assert second.code == 0, second.err
    # identical, timing keys included (they are stored), but for where the answer came from
    assert (first.json()["cached"], second.json()["cached"]) == (False, True)
    assert {**second.json(), "cached": False} == first.json()
    human = cli(*args, "--store", str(path))
    assert human.code == 0 and "served from the results store" in human.out
    assert _rows(path) == [spec]


def test_json_equals_the_plain_command(cli: Any, tmp_path: Path) -> None:
    path = str(tmp_path / "r.sqlite")
    for args in (
        ("solve", "sn", "3", "3", "1"),
        ("scoring", "4", "2", "1"),
        ("grundy", "dawson-kayles", "--upto", "120"),
    ):
        plain = cli(*args, "--json").json()
        computed = cli(*args, "--store", path, "--json").json()
        served = cli(*args, "--store", path, "--json").json()
        assert plain["cached"] is computed["cached"] is False and served["cached"] is True
        assert _untimed(plain) == _untimed(computed) == _untimed({**served, "cached": False})


def test_human_output_says_computed_then_served(cli: Any, tmp_path: Path) -> None:
    path = str(tmp_path / "r.sqlite")
    first = cli("solve", "sn", "2", "1", "--store", path)
    assert "computed and stored in the results store" in first.out
    assert "served from the results store" in cli("solve", "sn", "2", "1", "--store", path).out


def test_env_variable_selects_the_store(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "env.sqlite"
    monkeypatch.setenv(STORE_ENV, str(path))
    assert cli("scoring", "3", "1", "--json").code == 0
    assert _rows(path) == ["scoring(3,1)"]
    assert "served from" in cli("scoring", "1", "3").out


def test_the_default_store_unless_opted_out(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(STORE_ENV, raising=False)
    default = tmp_path / "default.sqlite"
    monkeypatch.setattr("nimlab.store.results.default_store_path", lambda: default)
    assert cli("solve", "sn", "2", "1", "--no-store", "--json").json()["cached"] is False
    assert cli("scoring", "2", "1", "--no-store").code == 0
    assert "store" not in cli("grundy", "kayles", "--upto", "20", "--no-store").out
    assert not default.exists()
    assert cli("solve", "sn", "2", "1", "--json").json()["cached"] is False
    assert default.exists()
    assert cli("solve", "sn", "1", "2", "--json").json()["cached"] is True
    monkeypatch.setenv(STORE_ENV, "")  # set but empty: no store for any command
    assert cli("solve", "sn", "2", "1", "--json").json()["cached"] is False


def test_sweep_results_serve_the_single_commands(
    cli: Any, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    path = str(tmp_path / "r.sqlite")
    common = ("--store", path, "--workers", "1", "--json")
    assert cli("sweep", "scoring", "--piles", "2", "--max", "3", *common).json()["failed"] == 0
    assert cli("sweep", "grundy", "--codes", "0.07", "--upto", "200", *common).json()["computed"]
    assert cli("sweep", "solve", "sn", "--grid", "2,1", *common).json()["computed"] == 1
    request.getfixturevalue("no_compute")
    assert cli("scoring", "3", "2", "--store", path, "--json").json()["position"] == [3, 2]
    table = cli("grundy", "dawson-kayles", "--upto", "200", "--store", path, "--json").json()
    # Dawson's Kayles: period 34, preperiod 53 (as in docs/sweeps.md)
    assert table["game"] == "dawson-kayles" and (table["period"], table["preperiod"]) == (34, 53)
    assert cli("solve", "sn", "1", "2", "--store", path, "--json").json()["value"] == "1"


def test_limits_still_refuse_with_a_store(cli: Any, tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    result = cli(
        "grundy", "kayles", "--upto", "9000", "--limit", "1000", "--store", str(path), "--json"
    )
    assert result.code == 3 and "--limit" in result.err
    # a limit guards work: a table already stored is served whatever the limit
    args = ("grundy", "kayles", "--upto", "300", "--store", str(path), "--json")
    assert cli(*args).json()["cached"] is False
    assert cli(*args, "--limit", "1").json()["cached"] is True


def test_stored_results_come_back_in_input_order(cli: Any, tmp_path: Path) -> None:
    path = str(tmp_path / "order.sqlite")
    cases = [
        (["scoring", "2", "4", "5"], ["scoring", "5", "4", "2"]),
        (["solve", "sn", "1", "3", "3"], ["solve", "sn", "3", "3", "1"]),
    ]
    for args, stored_first in cases:
        plain = cli(*args, "--json").json()
        assert cli(*stored_first, "--store", path, "--json").code == 0
        served = cli(*args, "--store", path, "--json")
        assert served.code == 0
        served = served.json()
        for timing in ("seconds", "timings"):
            plain.pop(timing, None)
            served.pop(timing, None)
        assert (plain.pop("cached"), served.pop("cached")) == (False, True)
        assert served == plain

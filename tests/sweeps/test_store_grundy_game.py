"""Grundy's game in the store: ``grundy grundy-game --store`` and ``sweep grundy --codes
grundy-game`` share the key ``grundy-game(upto=N)``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from nimlab.errors import InvalidPositionError
from nimlab.grundy import mex
from nimlab.store import ResultStore
from nimlab.sweeps import GRUNDY_GAME, octal_task, parse_codes, parse_spec, tasks


@pytest.fixture
def no_compute(monkeypatch: pytest.MonkeyPatch) -> None:
    """After this fixture, any computation of a sweep task fails the test."""

    def refuse(**params: Any) -> dict[str, Any]:
        raise AssertionError(f"computed again: {params}")

    for kind in list(tasks.KINDS):
        monkeypatch.setitem(tasks.KINDS, kind, refuse)


def _brute_force(upto: int) -> list[int]:
    """Grundy's game by its rule: split a heap into two unequal non-empty heaps."""
    values: list[int] = []
    for n in range(upto + 1):
        values.append(mex(values[a] ^ values[n - a] for a in range(1, (n + 1) // 2)))
    return values


def _specs(path: Path) -> list[str]:
    with ResultStore(path) as store:
        return [row.spec for row in store.results()]


def test_second_call_is_served_and_equals_a_fresh_computation(
    cli: Any, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    path = str(tmp_path / "r.sqlite")
    args = ("grundy", "grundy-game", "--upto", "120")
    fresh = cli(*args, "--json")
    first = cli(*args, "--store", path)
    assert first.code == 0 and "computed and stored in the results store" in first.out
    assert _specs(Path(path)) == ["grundy-game(upto=120)"]
    request.getfixturevalue("no_compute")
    served = cli(*args, "--store", path, "--json")
    assert served.code == 0, served.err
    assert served.out == fresh.out.replace('"cached": false', '"cached": true')
    assert served.json()["values"] == _brute_force(120)
    assert (served.json()["game"], served.json()["period"]) == ("grundy-game", None)
    human = cli("grundy", "grundys-game", "--upto", "120", "--store", path)  # the alias too
    assert human.code == 0 and "served from the results store" in human.out
    assert _specs(Path(path)) == ["grundy-game(upto=120)"]


def test_a_sweep_serves_the_single_command(
    cli: Any, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    path = str(tmp_path / "r.sqlite")
    common = ("--upto", "80", "--store", path, "--workers", "1", "--json")
    summary = cli("sweep", "grundy", "--codes", "grundy-game,0.07,grundy-game", *common)
    assert summary.code == 0, summary.err
    assert (summary.json()["total"], summary.json()["computed"]) == (2, 2)
    shown = cli("store", "show", "grundy-game( upto=80 )", "--store", path, "--json")
    fresh = cli("grundy", "grundy-game", "--upto", "80", "--json").json()
    assert shown.json() == {**fresh, "cached": True}
    request.getfixturevalue("no_compute")
    served = cli("grundy", "grundy-game", "--upto", "80", "--store", path, "--json")
    assert served.json()["values"] == _brute_force(80)


def test_specs_and_codes() -> None:
    task = octal_task(GRUNDY_GAME, 7, method="sparse")
    assert (task.spec, task.method) == ("grundy-game(upto=7)", "sparse")
    assert tasks.run_task(task)["values"] == _brute_force(7)
    assert parse_spec("grundy-game(upto=7)").spec == "grundy-game(upto=7)"
    assert parse_codes("0.07,grundy-game, grundy-game") == ["0.07", GRUNDY_GAME]
    with pytest.raises(InvalidPositionError, match="grundy-game"):
        parse_spec("grundy-game(7)")
    with pytest.raises(InvalidPositionError, match="octal code"):
        parse_codes("grundy")

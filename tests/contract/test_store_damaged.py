"""A damaged results store is a reported condition: a row of the wrong shape (``{}``, wrong
types, truncated JSON) is reported once on stderr, passed over and replaced by the result
computed again; ``nimlab store check`` lists such rows; a file that is not a results store is
refused with exit 2 and one ``error:`` line."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

COMMANDS = {
    "sn(3,3,1)": ("solve", "sn", "3", "3", "1"),
    "scoring(5,4,2)": ("scoring", "5", "4", "2"),
    "octal(0.77;upto=200)": ("grundy", "kayles", "--upto", "200"),
}
DAMAGE = {
    "empty": "{}",
    "types": '{"value": 3, "exact": "yes", "values": "x", "position": 5, "period": []}',
    "truncated": '{"value": "1/3", "exa',
}


@pytest.fixture(scope="module")
def sound(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A store holding the three results, and their JSON as computed."""
    from tests.contract.conftest import run_nimlab

    store = tmp_path_factory.mktemp("sound") / "store.sqlite"
    answers = {
        spec: run_nimlab(*args, "--store", str(store), "--json").ok_json()
        for spec, args in COMMANDS.items()
    }
    return store, answers


def _damaged_copy(sound: Path, folder: Path, payload: str) -> Path:
    store = folder / "damaged.sqlite"
    store.write_bytes(sound.read_bytes())
    with sqlite3.connect(store) as db:
        db.execute("UPDATE results SET payload = ?", (payload,))
    db.close()
    return store


def _without_timing(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k not in {"seconds", "timings", "cached"}}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_row_is_reported_once_recomputed_and_replaced(
    nimlab: Any, sound: tuple[Path, dict[str, Any]], tmp_path: Path, damage: str
) -> None:
    store = _damaged_copy(sound[0], tmp_path, DAMAGE[damage])
    checked = nimlab("store", "check", "--store", str(store), "--json")
    assert checked.code == 2, checked.err
    assert checked.err.startswith("error: ") and checked.err.count("\n") == 1
    assert sorted(row["spec"] for row in checked.json()["damaged"]) == sorted(COMMANDS)
    assert "Traceback" not in checked.err
    for spec, args in COMMANDS.items():
        run = nimlab(*args, "--store", str(store), "--json")
        payload = run.ok_json()
        assert payload["cached"] is False
        assert _without_timing(payload) == _without_timing(sound[1][spec])
        assert run.err.count(f"row for {spec} ") == 1 and "damaged" in run.err, run.err
        assert "recomputing" in run.err and "Traceback" not in run.err
        again = nimlab(*args, "--store", str(store), "--json")
        assert again.ok_json()["cached"] is True and "damaged" not in again.err
    clean = nimlab("store", "check", "--store", str(store), "--json")
    assert clean.code == 0 and clean.json()["damaged"] == [] and clean.json()["rows"] == 3


def _random(path: Path) -> None:
    path.write_bytes(os.urandom(8192))


def _text(path: Path) -> None:
    path.write_text("spec,method\nsn(1),lp\n" * 200)


def _foreign(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        db.execute("INSERT INTO notes (body) VALUES ('hello')")
    db.close()


@pytest.mark.parametrize("make", [_random, _text, _foreign], ids=["random", "text", "foreign"])
@pytest.mark.parametrize(
    "args",
    [("store", "check"), ("solve", "sn", "3", "3", "1"), ("grundy", "kayles", "--upto", "20")],
    ids=["check", "solve", "grundy"],
)
def test_a_file_that_is_not_a_store_is_refused(
    nimlab: Any, tmp_path: Path, make: Any, args: tuple[str, ...]
) -> None:
    store = tmp_path / "not-a-store.sqlite"
    make(store)
    before = store.read_bytes()
    message = nimlab(*args, "--store", str(store), "--json").refused(2)
    assert "not-a-store.sqlite" in message
    assert store.read_bytes() == before


def test_check_of_a_sound_store_exits_0(nimlab: Any, sound: tuple[Path, dict[str, Any]]) -> None:
    checked = nimlab("store", "check", "--store", str(sound[0]), "--json")
    assert checked.code == 0 and checked.json() == {
        "store": str(sound[0]),
        "rows": 3,
        "damaged": [],
    }
    human = nimlab("store", "check", "--store", str(sound[0]))
    assert human.code == 0 and "3 rows" in human.out and "0 damaged" in human.out

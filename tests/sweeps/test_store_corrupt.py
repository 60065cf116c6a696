"""Every store command against every kind of file that is not a results store, in-process (the
console-script versions are in tests/contract/test_store_contract.py): exit 2, one ``error:``
line naming the file and what to do, and the file left byte for byte as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from nimlab.errors import InvalidPositionError
from nimlab.store import ResultStore
from tests.contract.test_store_contract import BROKEN, COMMANDS, snapshot


@pytest.mark.parametrize("kind", sorted(BROKEN))
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_refuses_and_leaves_the_file(
    cli: Any, tmp_path: Path, kind: str, command: tuple[str, ...]
) -> None:
    store = tmp_path / "store.sqlite"
    BROKEN[kind](store)
    before = snapshot(store)
    result = cli(*command, "--store", str(store), "--json")
    assert result.code == 2, result.err
    assert result.err.startswith("error: results store ") and result.err.count("\n") == 1
    assert repr(str(store)) in result.err and "move it away" in result.err
    assert result.out == ""
    assert snapshot(store) == before
    assert [p.name for p in tmp_path.iterdir()] == ["store.sqlite"]


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_the_library_refuses_before_writing(tmp_path: Path, kind: str) -> None:
    store = tmp_path / "store.sqlite"
    BROKEN[kind](store)
    before = snapshot(store)
    for create in (True, False):
        with (
            pytest.raises(InvalidPositionError, match="left as it is"),
            ResultStore(store, create=create) as opened,
        ):
            opened.put("toy(1)", "lp", {"value": "1"}, version="0")
    assert snapshot(store) == before


def test_an_empty_file_is_a_new_store(tmp_path: Path) -> None:
    store = tmp_path / "empty.sqlite"
    store.touch()
    with ResultStore(store, create=False) as opened:  # read-only: stays empty
        assert opened.count() == 0 and opened.results() == [] and opened.get("toy(1)") is None
    assert store.stat().st_size == 0
    with ResultStore(store) as opened:
        assert opened.put("toy(1)", "lp", {"value": "1"}, version="0")
    with ResultStore(store, create=False) as opened:
        assert opened.get("toy(1)", ("auto", "lp")) is not None


def test_an_unreadable_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mode 000 does not stop root (the tests' user): the refusal is checked by failing the
    read the way the system does for other users."""
    store = tmp_path / "locked.sqlite"
    with ResultStore(store) as opened:
        opened.put("toy(1)", "lp", {"value": "1"}, version="0")
    real_open = Path.open

    def denied(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == store:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", denied)
    with pytest.raises(InvalidPositionError, match=r"cannot be read \(Permission denied\)"):
        ResultStore(store, create=False)

"""The results store as users meet it, through the console script: store keys record the method
run, ``"cached"`` says where an answer came from, a file that is not a results store is refused
(exit 2, its path and what to do) and left byte for byte as it was, and sweeps refuse bad input.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.contract.conftest import COMMAND, Run, free_port

Nimlab = Callable[..., Run]


def _rows(nimlab: Nimlab, store: Path) -> list[tuple[str, str]]:
    listing = nimlab("store", "ls", "--store", str(store), "--json").ok_json()
    return sorted((row["spec"], row["method"]) for row in listing["results"])


def test_the_store_key_records_the_method_that_ran(nimlab: Nimlab, tmp_path: Path) -> None:
    store = str(tmp_path / "keys.sqlite")
    lp = nimlab("solve", "sn", "2", "1", "--method", "lp", "--store", store, "--json").ok_json()
    assert lp["cached"] is False and "restricted" not in lp["certificate"]["method"]
    assert _rows(nimlab, Path(store)) == [("sn(2,1)", "lp")]
    # --store keeps --method: restricted games run (their certificate says so), under their key
    args = ("solve", "sn", "1", "2", "--method", "restricted", "--store", store, "--json")
    restricted = nimlab(*args).ok_json()
    assert (
        restricted["cached"] is False and "restricted games" in restricted["certificate"]["method"]
    )
    assert _rows(nimlab, Path(store)) == [("sn(2,1)", "lp"), ("sn(2,1)", "restricted")]
    again = nimlab(*args).ok_json()
    assert again["cached"] is True and again["certificate"] == restricted["certificate"]
    # auto (the default) is answered by a row of any method: the same certified value
    auto = nimlab("solve", "sn", "2", "1", "--store", store, "--json").ok_json()
    assert auto["cached"] is True and auto["value"] == lp["value"] == restricted["value"] == "1"
    assert len(_rows(nimlab, Path(store))) == 2


def test_auto_is_stored_under_the_method_it_ran(nimlab: Nimlab, tmp_path: Path) -> None:
    store = str(tmp_path / "auto.sqlite")
    first = nimlab("solve", "kn", "2", "1", "--misere", "--store", store, "--json").ok_json()
    assert first["cached"] is False and first["method"] == "lp"
    assert _rows(nimlab, Path(store)) == [("kn(2,1;misere)", "lp")]
    lp = ("solve", "kn", "1", "2", "--misere", "--method", "lp", "--store", store, "--json")
    assert nimlab(*lp).ok_json()["cached"] is True  # the lp row answers an explicit lp request
    restricted = ("solve", "kn", "2", "1", "--misere", "--method", "restricted", "--store", store)
    assert nimlab(*restricted, "--json").ok_json()["cached"] is False  # but not restricted
    assert _rows(nimlab, Path(store)) == [
        ("kn(2,1;misere)", "lp"),
        ("kn(2,1;misere)", "restricted"),
    ]


def test_a_decomposed_game_records_both_methods_and_serves_auto_only(
    nimlab: Nimlab, tmp_path: Path
) -> None:
    store = str(tmp_path / "parts.sqlite")
    # SN(7,7,1) by first heap: the part starting on a heap of 7 is large (restricted games),
    # the one starting on the heap of 1 small (the whole LP)
    first = nimlab("solve", "sn", "7", "7", "1", "--store", store, "--json", timeout=300)
    assert first.ok_json()["method"] == "lp+restricted"
    assert _rows(nimlab, Path(store)) == [("sn(7,7,1)", "lp+restricted")]
    again = nimlab("solve", "sn", "1", "7", "7", "--store", store, "--json").ok_json()
    assert again["cached"] is True and again["value"] == "21/89"


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "sn", "3", "1"),
        ("grundy", "kayles", "--upto", "60"),
        ("grundy", "grundy-game", "--upto", "60"),
        ("scoring", "3", "2"),
        ("scoring", "3", "2", "--N=-7/2"),
    ],
)
def test_cached_is_false_when_computed_and_true_when_served(
    nimlab: Nimlab, tmp_path: Path, args: tuple[str, ...]
) -> None:
    plain = nimlab(*args, "--json").ok_json()  # the private NIMLAB_STORE is set: it is used
    served = nimlab(*args, "--json").ok_json()
    without = nimlab(*args, "--json", env={"NIMLAB_STORE": ""}).ok_json()  # no store at all
    assert (plain["cached"], served["cached"], without["cached"]) == (False, True, False)
    timing = {"seconds", "timings", "cached"}
    assert {k: v for k, v in served.items() if k not in timing} == {
        k: v for k, v in without.items() if k not in timing
    }


def test_store_show_is_cached_and_a_non_store_grundy_has_no_flag(nimlab: Nimlab) -> None:
    computed = nimlab("scoring", "4", "1", "--json").ok_json()
    shown = nimlab("store", "show", "scoring(1,4)", "--json").ok_json()
    assert shown == {**computed, "cached": True}
    subtraction = nimlab("grundy", "subtraction", "--set", "1,2", "--upto", "5", "--json")
    assert "cached" not in subtraction.ok_json()  # never stored, never served


# ---- files that are not results stores -------------------------------------------------------


def _valid_store(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE results (id INTEGER PRIMARY KEY, spec TEXT NOT NULL, method TEXT NOT "
            "NULL, version TEXT NOT NULL, payload TEXT NOT NULL, created TEXT NOT NULL, seconds "
            "REAL, UNIQUE (spec, method, version))"
        )
        db.executemany(
            "INSERT INTO results (spec, method, version, payload, created) VALUES (?, ?, ?, ?, ?)",
            [
                (f"scoring({n})", "grid", "0", json.dumps({"x": "y" * 3000}), "now")
                for n in range(9)
            ],
        )
    db.close()


def _truncated(path: Path) -> None:
    _valid_store(path)
    size = path.stat().st_size
    with path.open("r+b") as handle:
        handle.truncate(size - 1000)


def _garbage_pages(path: Path) -> None:
    """A valid header and schema page, then random pages: "database disk image is malformed"."""
    _valid_store(path)
    size = path.stat().st_size
    with path.open("r+b") as handle:
        handle.seek(4096)
        handle.write(os.urandom(size - 4096))


def _garbage(path: Path) -> None:
    path.write_bytes(os.urandom(20_000))


def _foreign_results(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE results (name TEXT, score INTEGER)")
        db.execute("INSERT INTO results VALUES ('ann', 3)")
    db.close()


def _other_program(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, file TEXT)")
        db.execute("INSERT INTO photos (file) VALUES ('a.jpg')")
    db.close()


def _directory(path: Path) -> None:
    path.mkdir()
    (path / "inside.txt").write_text("keep me\n")


BROKEN = {
    "truncated": _truncated,
    "garbage-pages": _garbage_pages,
    "garbage": _garbage,
    "foreign-schema": _foreign_results,
    "other-program": _other_program,
    "directory": _directory,
}

COMMANDS = [
    ("store", "ls"),
    ("store", "show", "scoring(3)"),
    ("sweep", "solve", "sn", "--grid", "1..2", "--workers", "1"),
    ("solve", "sn", "2", "1"),
    ("grundy", "octal", "--code", "0.07", "--upto", "20"),
    ("scoring", "3", "1"),
    ("scoring", "3", "1", "--N", "1/2"),
]


def snapshot(path: Path) -> dict[str, tuple[bytes, int]]:
    """Every file at ``path`` (or in it) with its bytes and modification time."""
    files = sorted(path.iterdir()) if path.is_dir() else [path]
    return {str(f): (f.read_bytes(), f.stat().st_mtime_ns) for f in files}


def _refused_and_untouched(runs: list[Run], store: Path, before: object) -> None:
    for run in runs:
        message = run.refused(2)
        assert repr(str(store)) in message and "move it away" in message, message
    assert snapshot(store) == before
    siblings = {p.name for p in store.parent.iterdir()}
    assert siblings == {store.name}, siblings  # no -wal, -shm or -journal left behind


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_file_that_is_not_a_results_store_is_refused_and_left_alone(
    nimlab: Nimlab, tmp_path: Path, kind: str
) -> None:
    """Each kind of file with a reading and a writing command, the second through
    ``$NIMLAB_STORE`` (tests/sweeps/test_store_corrupt.py runs every command in-process)."""
    store = tmp_path / f"{kind}.sqlite"
    BROKEN[kind](store)
    before = snapshot(store)
    runs = [
        nimlab("store", "ls", "--store", str(store), "--json"),
        nimlab("solve", "sn", "2", "1", "--json", env={"NIMLAB_STORE": str(store)}),
    ]
    _refused_and_untouched(runs, store, before)


def test_every_store_command_refuses_a_damaged_file(nimlab: Nimlab, tmp_path: Path) -> None:
    store = tmp_path / "damaged.sqlite"
    _garbage_pages(store)
    before = snapshot(store)
    with ThreadPoolExecutor(2) as pool:  # independent processes: keep the wall time low
        runs = list(pool.map(lambda args: nimlab(*args, "--store", str(store), "--json"), COMMANDS))
    _refused_and_untouched(runs, store, before)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file of mode 000")
def test_an_unreadable_store_is_refused(nimlab: Nimlab, tmp_path: Path) -> None:
    store = tmp_path / "locked.sqlite"
    _valid_store(store)
    store.chmod(0)
    try:
        assert "cannot be read" in nimlab("store", "ls", "--store", str(store)).refused(2)
    finally:
        store.chmod(0o600)


def test_a_special_file_is_never_opened(nimlab: Nimlab) -> None:
    message = nimlab("solve", "sn", "1", "--store", "/dev/null", "--json").refused(2)
    assert "not a regular file" in message


# ---- rows whose payload is not a JSON object --------------------------------------------------


def test_bad_rows_are_refused_alone(nimlab: Nimlab, tmp_path: Path) -> None:
    store = tmp_path / "rows.sqlite"
    nimlab("scoring", "2", "1", "--store", str(store), "--json").ok_json()
    with sqlite3.connect(store) as db:
        version = db.execute("SELECT version FROM results").fetchone()[0]
        for spec, payload in (("sn(9)", "[1, 2]"), ("sn(8)", "null"), ("sn(7)", "{not json")):
            db.execute(
                "INSERT INTO results (spec, method, version, payload, created)"
                " VALUES (?, 'lp', ?, ?, 'now')",
                (spec, version, payload),
            )
    db.close()
    listing = nimlab("store", "ls", "--store", str(store), "--json")
    assert [row["spec"] for row in listing.ok_json()["results"]] == ["scoring(2,1)"]
    assert sorted(row["spec"] for row in listing.ok_json()["unreadable"]) == [
        "sn(7)",
        "sn(8)",
        "sn(9)",
    ]
    assert "unreadable row sn(9)" in listing.err
    human = nimlab("store", "ls", "--store", str(store))
    assert human.code == 0 and "scoring(2,1)" in human.out and "sn(8)" in human.err
    before = snapshot(store)
    for spec in ("sn(9)", "sn(8)", "sn(7)"):
        message = nimlab("store", "show", spec, "--store", str(store), "--json").refused(2)
        assert spec in message and "damaged" in message
    shown = nimlab("store", "show", "scoring(1,2)", "--store", str(store), "--json").ok_json()
    assert shown["position"] == [2, 1] and shown["cached"] is True
    assert snapshot(store) == before
    checked = nimlab("store", "check", "--store", str(store), "--json")
    assert checked.code == 2 and len(checked.json()["damaged"]) == 3
    assert snapshot(store) == before
    # a command that computes a damaged row's result says so once, and replaces the row
    solved = nimlab("solve", "sn", "9", "--method", "lp", "--store", str(store), "--json")
    assert solved.ok_json()["value"] and solved.json()["cached"] is False
    assert solved.err.count("row for sn(9)") == 1 and "is damaged" in solved.err
    assert nimlab("solve", "sn", "9", "--method", "lp", "--store", str(store), "--json").json()[
        "cached"
    ]
    assert len(nimlab("store", "check", "--store", str(store), "--json").json()["damaged"]) == 2


# ---- sweeps: bad input before any work ---------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "code", "words"),
    [
        (("--grid", "0"), 2, "no position with a chip"),
        (("--grid", "0,0..0"), 2, "no position with a chip"),
        (("--grid", "1", "--scheduler", "bogus"), 2, "tcp://HOST:PORT"),
        (("--grid", "1", "--scheduler", "tcp://127.0.0.1:99999"), 2, "1..65535"),
        (("--grid", "1", "--workers", "0"), 2, "at least 1"),
        (("--grid", "1", "--workers", "-3"), 2, "at least 1"),
        (("--grid", "1", "--method", "simplex"), 2, "unknown --method"),
        (("--grid", "1..100000,1..100000"), 3, "--max-tasks"),
    ],
)
def test_sweep_bad_input(
    nimlab: Nimlab, tmp_path: Path, options: tuple[str, ...], code: int, words: str
) -> None:
    store = tmp_path / "sweep.sqlite"
    run = nimlab("sweep", "solve", "sn", *options, "--store", str(store), "--json")
    assert words in run.refused(code)
    assert run.cpu < 20  # processor time: a loaded machine stretches the wall clock
    assert not store.exists()  # refused before the store is even opened


def test_sweep_nothing_listening_at_the_scheduler(nimlab: Nimlab, tmp_path: Path) -> None:
    address = f"tcp://127.0.0.1:{free_port()}"  # loopback only, and nothing listens there
    run = nimlab("sweep", "solve", "sn", "--grid", "1", "--scheduler", address, "--json")
    assert "no Dask scheduler answers" in run.refused(2) and address in run.err
    assert run.seconds < 60  # waiting, not working: the wall clock, with a margin for load


def test_sweep_where_every_task_is_refused_exits_3_with_its_summary(
    nimlab: Nimlab, tmp_path: Path
) -> None:
    args = ("sweep", "solve", "sn", "--grid", "3..4,3", "--max-nodes", "1", "--workers", "1")
    run = nimlab(*args, "--json")
    assert run.code == 3  # each task refused as too large
    summary = run.json()
    assert (summary["total"], summary["computed"], summary["failed"]) == (2, 0, 2)
    # progress lines may come first on a slow machine (piped, after two seconds); one error line
    errors = [line for line in run.err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith("error: every task computed failed (2)")
    half = nimlab("sweep", "solve", "sn", "--grid", "0..1", "--workers", "1", "--json")
    assert half.ok_json()["computed"] == 1 and "left out 1 position" in half.err


def test_a_store_in_a_missing_folder_is_created(nimlab: Nimlab, tmp_path: Path) -> None:
    store = tmp_path / "new" / "folder" / "r.sqlite"
    assert nimlab("solve", "sn", "1", "--store", str(store), "--json").ok_json()["cached"] is False
    assert store.is_file()


def _without_store_setting(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``nimlab ARGS`` as on a fresh account: no ``$NIMLAB_STORE``, data under ``tmp_path``."""
    env = {k: v for k, v in os.environ.items() if k != "NIMLAB_STORE"}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


@pytest.mark.parametrize(
    "args",
    [("solve", "sn", "4", "4", "1"), ("grundy", "kayles", "--upto", "60"), ("scoring", "3", "2")],
)
def test_without_a_store_setting_the_default_store_answers_a_repeated_command(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    first = json.loads(_without_store_setting(tmp_path, *args, "--json").stdout)
    again = json.loads(_without_store_setting(tmp_path, *args, "--json").stdout)
    assert (first["cached"], again["cached"]) == (False, True)
    assert (tmp_path / "data" / "nimlab" / "results.sqlite").exists()
    opted_out = _without_store_setting(tmp_path, *args, "--no-store", "--json")
    assert json.loads(opted_out.stdout)["cached"] is False


def test_an_unusable_default_store_is_skipped_with_a_warning(tmp_path: Path) -> None:
    store = tmp_path / "data" / "nimlab" / "results.sqlite"
    store.parent.mkdir(parents=True)
    store.write_bytes(b"not a database" * 100)
    run = _without_store_setting(tmp_path, "solve", "sn", "2", "1", "--json")
    assert run.returncode == 0 and json.loads(run.stdout)["value"] == "1"
    assert run.stderr.startswith("warning: not using the default results store")
    assert store.read_bytes() == b"not a database" * 100  # never overwritten

"""Hostile command lines: each row names the exit code the contract promises, and the run must
keep every other promise too: one ``error:`` line and no traceback when refused, an answer in
a few seconds, and no file written anywhere but the test's own folder.

Integers: the contract promises nimber arithmetic and heap sizes of any size, so 5,000 digits
(over Python's default 4,300-digit conversion limit) must work; a single number is read up to
100,000 digits (``nimlab.core.heaps.MAX_DIGITS``) and longer ones are refused at once. Linux
passes at most 128 KiB in one argument and 2 MiB in all, so "10 million digits" on a command
line is spelled as ten arguments of 130,000 digits.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.contract.conftest import Run, run_nimlab

DIGITS_5000 = "7" * 5000
LONGEST_ARGUMENT = "7" * 131_000  # just under the kernel's 128 KiB per argument
MAX_DIGITS = "9" * 100_000

# (arguments; "{tmp}" is the test's folder), the exit code, and paths (under {tmp}) that must
# not exist afterwards
ROWS = [
    # integers of any size where the contract promises them
    pytest.param(("nim", DIGITS_5000, "3", "--json"), 0, (), id="nim-5000-digits"),
    pytest.param(
        ("nimber", "product", DIGITS_5000, "3", "--json"), 0, (), id="nimber-product-5000-digits"
    ),
    pytest.param(("nimber", "sum", DIGITS_5000, "--json"), 0, (), id="nimber-sum-5000-digits"),
    pytest.param(("nimber", "sum", MAX_DIGITS, "1", "--json"), 0, (), id="nimber-100000-digits"),
    pytest.param(("nimber", "sum", LONGEST_ARGUMENT), 2, (), id="nimber-131000-digits"),
    pytest.param(("nim", *[LONGEST_ARGUMENT] * 10), 2, (), id="nim-1.3-million-digits"),
    pytest.param(("analyze", "nim", f"{LONGEST_ARGUMENT},1"), 2, (), id="analyze-131000-digits"),
    pytest.param(("nimber", "table", "--size", "10" * 20), 2, (), id="nimber-table-huge"),
    pytest.param(("solve", "sn", "7" * 400, "1", "--json"), 3, (), id="solve-400-digit-heap"),
    pytest.param(("scoring", DIGITS_5000, "3", "--json"), 3, (), id="scoring-5000-digits"),
    # output files in odd places
    pytest.param(("export-efg", "sn", "2", "2"), 2, (), id="export-efg-no-file"),
    pytest.param(("export-efg", "sn", "2", "2,3"), 2, (), id="export-efg-heaps-last"),
    pytest.param(("export-efg", "sn", "game.efg"), 2, ("game.efg",), id="export-efg-no-heaps"),
    pytest.param(("export-efg", "sn", "2", "2", "/"), 2, (), id="export-efg-root"),
    pytest.param(("export-efg", "sn", "2", "2", "/dev/full"), 2, (), id="export-efg-dev-full"),
    pytest.param(("export-efg", "sn", "2", "2", "{tmp}"), 2, (), id="export-efg-directory"),
    pytest.param(
        ("export-efg", "sn", "2", "2", "{tmp}/missing/g.efg"),
        2,
        ("missing",),
        id="export-efg-missing-folder",
    ),
    pytest.param(
        ("export-efg", "sn", "2", "2", "/proc/nimlab.efg"), 2, (), id="export-efg-into-proc"
    ),
    pytest.param(
        ("export-efg", "sn", "9", "9", "9", "{tmp}/big.efg", "--max-nodes", "100"),
        3,
        ("big.efg",),
        id="export-efg-too-large-writes-nothing",
    ),
    pytest.param(
        ("solve", "sn", "2", "1", "--draw", "/proc/version"), 2, (), id="draw-proc-version"
    ),
    pytest.param(("solve", "sn", "2", "1", "--draw", "{tmp}"), 2, (), id="draw-directory"),
    pytest.param(
        ("solve", "sn", "2", "1", "--draw", "{tmp}/missing/t.svg"),
        2,
        ("missing",),
        id="draw-missing-folder",
    ),
    pytest.param(("solve", "sn", "2", "1", "--draw"), 2, (), id="draw-no-file"),
    pytest.param(("reproduce", "scoring-nim", "--out", "/proc/version"), 2, (), id="reproduce-out"),
    # garbage
    pytest.param(("nim", "3,,4"), 2, (), id="nim-empty-heap"),
    pytest.param(("nim", "0x10"), 2, (), id="nim-hex"),
    pytest.param(("nim", "١٢"), 2, (), id="nim-arabic-digits"),
    pytest.param(("nim", "\udcff"), 2, (), id="nim-undecodable-byte"),
    pytest.param(("nim", "-3"), 2, (), id="nim-negative"),
    pytest.param(("nim", "x" * 100_000), 2, (), id="nim-long-garbage"),
    pytest.param(("nimber", "product", "1/2", "3"), 2, (), id="nimber-fraction"),
    pytest.param(("solve", "sn", "3", "3", "1", "--method", "magic"), 2, (), id="solve-method"),
    pytest.param(("solve", "xx", "1"), 2, (), id="solve-variant"),
    pytest.param(("analyze", "nim", ""), 2, (), id="analyze-empty"),
    # unknown commands and options
    pytest.param(("frobnicate",), 2, (), id="unknown-command"),
    pytest.param(("--frob",), 2, (), id="unknown-root-option"),
    pytest.param(("nimber", "div", "1", "2"), 2, (), id="unknown-subcommand"),
    pytest.param(("nimber", "table", "--frob"), 2, (), id="unknown-option"),
]


@pytest.mark.parametrize(("args", "code", "absent"), ROWS)
def test_hostile(
    nimlab: Any, tmp_path: Path, args: tuple[str, ...], code: int, absent: tuple[str, ...]
) -> None:
    before = {p.name for p in tmp_path.iterdir()}
    filled = tuple(arg.replace("{tmp}", str(tmp_path)) for arg in args)
    result: Run = nimlab(*filled, timeout=60)
    assert result.cpu < 15, f"took {result.cpu:.1f} s of processor time"
    if code == 0:
        previous = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)  # as a consumer of big JSON integers must (README)
        try:
            payload = result.ok_json()
        finally:
            sys.set_int_max_str_digits(previous)
        assert all(type(v) is int for v in payload.get("args", payload.get("position", [])))
        assert "Traceback" not in result.err
    else:
        message = result.refused(code)
        assert len(message) < 2000, f"a {len(message)}-character message"
    for name in absent:
        assert not (tmp_path / name).exists(), f"{name} was written"
    after = {p.name for p in tmp_path.iterdir()} - before
    assert after <= {"store.sqlite"}, f"files written: {after}"
    assert Path("/proc/nimlab.efg").exists() is False


def test_play_survives_garbage_input(tmp_path: Path) -> None:
    """Standard input has no length limit: ten million digits in one line are refused fast."""
    garbage = ["", "zzz", "9 9", "-1 1", "0 999", "0 " + "9" * 5000, "0 " + "9" * 10_000_000]
    env = {"NIMLAB_STORE": str(tmp_path / "store.sqlite")}
    lines = "\n".join([*garbage, "undo", "quit"]) + "\n"
    result = run_nimlab("play", "nim", "3,4,5", stdin=lines, env=env, timeout=60)
    assert result.code == 0, result.err
    assert result.cpu < 15, f"took {result.cpu:.1f} s of processor time"
    assert "Traceback" not in result.err + result.out
    assert "(10,000,002 characters)" in result.out  # the echo of the line, abridged
    assert len(result.out) < 100_000
    assert result.out.rstrip().endswith("bye")


def test_special_files_behind_ordinary_names_are_refused(nimlab: Any, tmp_path: Path) -> None:
    """A pipe would block the writer forever; a link may point at a device."""
    fifo = tmp_path / "pipe.efg"
    os.mkfifo(fifo)
    link = tmp_path / "full.svg"
    link.symlink_to("/dev/full")
    for args in (
        ("export-efg", "sn", "2", "2", str(fifo)),
        ("solve", "sn", "2", "1", "--draw", str(link)),
    ):
        result = nimlab(*args, timeout=30)
        assert "not a regular file" in result.refused(2)

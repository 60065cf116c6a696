"""Every fast Grundy-sequence method equals the plain quadratic reference."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.errors import InvalidPositionError
from nimlab.octal import OctalCode, grundy_game_sequence, grundy_sequence, sparse
from nimlab.octal.plain import plain_sequence
from nimlab.octal.rules import GRUNDY_GAME_RULES, rules_of
from nimlab.octal.sparse import PythonBackend, choose_mask, is_rare, sparse_sequence
from nimlab.progress import listening

NAMED = ["0.07", "0.77", "0.137", "4.7", "0.6", "0.51", "0.16", "0.127", "0.56", "0.4", "0.1"]
NAMED += ["4.0", "0.0", "0.4000001", "0.05", "0.72", "4.07"]

codes = st.builds(
    lambda head, tail: OctalCode.parse(f"{head}." + "".join(map(str, tail))),
    st.sampled_from([0, 4]),
    st.lists(st.integers(0, 7), min_size=0, max_size=5),
)


@pytest.fixture(scope="module")
def plain_values() -> dict[str, list[int]]:
    """The reference sequences, g(0..2500), computed once."""
    table = {text: plain_sequence(rules_of(OctalCode.parse(text)), 2500) for text in NAMED}
    table["grundy"] = plain_sequence(GRUNDY_GAME_RULES, 2500)
    return table


@pytest.mark.parametrize("text", NAMED)
def test_sparse_equals_plain(text: str, plain_values: dict[str, list[int]]) -> None:
    assert grundy_sequence(OctalCode.parse(text), 2500, method="sparse") == plain_values[text]


def test_numba_equals_plain(plain_values: dict[str, list[int]]) -> None:
    # one test for every compiled run: the kernel compiles once (about a second)
    for text in NAMED:
        got = grundy_sequence(OctalCode.parse(text), 2500, method="numba")
        assert got == plain_values[text], text
    assert grundy_game_sequence(2500, method="numba") == plain_values["grundy"]
    assert grundy_game_sequence(0, method="numba") == [0]
    # far beyond the plain reference: the compiled and the Python sparse space agree
    assert grundy_game_sequence(20_000, method="numba") == grundy_game_sequence(
        20_000, method="sparse"
    )
    code = OctalCode.parse("0.16")
    assert grundy_sequence(code, 30_000, method="numba") == grundy_sequence(
        code, 30_000, method="sparse"
    )


@pytest.mark.parametrize("dtype", ["uint16", "uint32"])
def test_numba_kernel_on_wide_values(
    dtype: str, plain_values: dict[str, list[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one compiled kernel over ``uint16``/``uint32`` values (its vector compares then run
    on wider lanes), as it does once a game's values outgrow a byte, equals the plain engine."""
    np = pytest.importorskip("numpy")
    kernels = pytest.importorskip("nimlab.octal.kernels")
    monkeypatch.setattr(kernels, "value_dtype", lambda half: getattr(np, dtype))
    backend = kernels.NumbaBackend(GRUNDY_GAME_RULES, 2500)
    sparse.run_sparse(backend, 2500)
    assert backend.g.dtype == dtype and backend.g.tolist() == plain_values["grundy"]
    for text in ("0.6", "0.16", "4.07", "0.137", "0.0"):
        got = kernels.numba_sequence(rules_of(OctalCode.parse(text)), 2500)
        assert got == plain_values[text], text


_CACHED_RUN = """
import sys
import numpy as np
from nimlab.octal import kernels, sparse
from nimlab.octal.plain import plain_sequence
from nimlab.octal.rules import GRUNDY_GAME_RULES
want = plain_sequence(GRUNDY_GAME_RULES, 1500)
for name in sys.argv[1].split(","):
    kernels.value_dtype = lambda half, kind=getattr(np, name): kind
    backend = kernels.NumbaBackend(GRUNDY_GAME_RULES, 1500)
    sparse.run_sparse(backend, 1500)
    assert backend.g.dtype == name and backend.g.tolist() == want, name
stats = kernels.extend.stats
print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
"""


def test_disk_cache_serves_every_value_type(tmp_path: Path) -> None:
    """The kernels are cached on disk (``cache=True``), one entry per value type: a cache
    written for ``uint16`` values is extended by ``uint8``/``uint32`` runs, and every run,
    compiled or loaded, equals the plain engine."""

    def run(types: str) -> tuple[int, int]:
        env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
        env["PYTHONPATH"] = os.pathsep.join(sys.path)
        done = subprocess.run(
            [sys.executable, "-c", _CACHED_RUN, types],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        hits, misses = done.stdout.split()
        return int(hits), int(misses)

    assert run("uint16") == (0, 1)  # compiled and written
    assert run("uint8,uint16,uint32") == (1, 2)  # uint16 loaded, the others compiled
    assert run("uint32,uint8,uint16") == (3, 0)  # all loaded


@pytest.mark.parametrize("chunk", [63, 65, 129, 1000])
def test_blocks_of_heaps_equal_plain(
    chunk: int, plain_values: dict[str, list[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled kernel marks the rare pairs of 64 consecutive heaps together (a rare heap
    whose partner falls inside the block, heap by heap; an equal split the rules forbid, cut
    out of the block): stretches that start inside a block, shorter or longer than one, equal
    the plain engine, for equal and unequal splits and several removals."""
    monkeypatch.setattr(sparse, "REPORT_EVERY", chunk)
    assert grundy_game_sequence(2500, method="numba") == plain_values["grundy"]
    for text in ("0.6", "0.0", "4.7", "0.4000001", "0.56", "0.72"):
        got = grundy_sequence(OctalCode.parse(text), 2500, method="numba")
        assert got == plain_values[text], text


@pytest.mark.parametrize("chunk", [1, 2, 5, 37, 64])
@pytest.mark.parametrize("method", ["sparse", "numba"])
def test_chunks_between_progress_reports_change_no_value(
    chunk: int, method: str, plain_values: dict[str, list[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine stops every ``REPORT_EVERY`` values to report how far it has come; chunks
    of any size (ending where a value outgrows the range, or not) give the same values, and
    a listener hears the reports."""
    monkeypatch.setattr(sparse, "REPORT_EVERY", chunk)
    heard: list[str] = []
    with listening(heard.append):
        got = grundy_game_sequence(2500, method=method)
        for text in ("0.16", "4.07", "0.137"):
            code = OctalCode.parse(text)
            assert grundy_sequence(code, 2500, method=method) == plain_values[text]
    assert got == plain_values["grundy"]
    reached = [int(line.split("< ")[1].split(" of")[0].replace(",", "")) for line in heard]
    assert len(reached) >= 2500 // chunk and all(0 < n <= 2500 for n in reached)


def test_grundy_game_sparse_and_auto(plain_values: dict[str, list[int]]) -> None:
    assert grundy_game_sequence(2500, method="sparse") == plain_values["grundy"]
    assert grundy_game_sequence(2500) == plain_values["grundy"]
    assert grundy_game_sequence(2500, method="plain") == plain_values["grundy"]


def test_grundy_game_first_values() -> None:
    # Grundy's game, OEIS A002188; also Winning Ways ch. 4 ("Grundy's Game")
    expected = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4]
    for method in ("plain", "sparse"):
        assert grundy_game_sequence(24, method=method) == expected


@settings(max_examples=60, deadline=None)
@given(codes, st.integers(0, 400))
def test_sparse_equals_plain_for_random_codes(code: OctalCode, upto: int) -> None:
    assert grundy_sequence(code, upto, method="sparse") == grundy_sequence(
        code, upto, method="plain"
    )


@settings(max_examples=30, deadline=None)
@given(codes, st.integers(0, 255))
def test_any_mask_gives_the_same_values(code: OctalCode, mask: int) -> None:
    # the mask only changes the speed: run the hot loop with a fixed, arbitrary mask
    rules = rules_of(code)
    backend = PythonBackend(rules)
    backend.reset(mask, 256, 0)
    assert backend.extend(0, 301) == 301  # values stay below 256 this early
    assert backend.g == plain_sequence(rules, 300)


@given(st.lists(st.integers(0, 63), min_size=1, max_size=50))
def test_choose_mask_minimises_rare_positions(values: list[int]) -> None:
    def rare_count(mask: int) -> int:
        return sum(is_rare(v, mask) for v in values[1:])

    best = choose_mask(values, 64)
    assert rare_count(best) == min(rare_count(m) for m in range(64))
    assert best == min(m for m in range(64) if rare_count(m) == rare_count(best))


def test_auto_and_short_sequences() -> None:
    kayles = OctalCode.parse("0.77")
    assert grundy_sequence(kayles, 0) == [0]
    assert grundy_sequence(kayles, 5, method="auto") == [0, 1, 2, 3, 1, 4]
    assert sparse_sequence(rules_of(kayles), 1) == [0, 1]


@pytest.mark.parametrize("upto", [-1, 2.5, True, "10"])
def test_bad_upto_is_refused(upto: object) -> None:
    with pytest.raises(InvalidPositionError, match="upto"):
        grundy_sequence(OctalCode.parse("0.07"), upto)


def test_unknown_method_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match="unknown method 'fast'"):
        grundy_game_sequence(10, method="fast")


def test_without_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util
    import sys

    from nimlab.errors import NimlabError

    monkeypatch.setitem(sys.modules, "nimlab.octal.kernels", None)  # import now fails
    with pytest.raises(NimlabError, match="needs numba"):
        grundy_game_sequence(10, method="numba")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    code = OctalCode.parse("0.16")
    assert grundy_sequence(code, 10_000) == grundy_sequence(code, 10_000, method="sparse")


def test_numba_is_imported_lazily() -> None:
    import subprocess
    import sys

    code = "import sys, nimlab.octal; print('numba' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False"

"""The bounded-memory summary (``grundy --summary``): against the plain mex engine, the
published histograms, a run killed by SIGKILL and resumed, and the CLI's JSON contract."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from nimlab.octal import OctalCode, find_period
from nimlab.octal.plain import plain_sequence
from nimlab.octal.rules import GRUNDY_GAME_RULES, rules_of
from nimlab.octal.sparse import choose_mask, is_rare
from nimlab.octal.summary import SummaryRun, summarize, summarize_code

DATA = Path(__file__).parent.parent / "data" / "rogalski_octal_histograms.json"

MANY = ["0.07", "0.77", "0.137", "4.7", "0.6", "0.51", "0.16", "0.127", "0.4", "0.1", "0.14"]
MANY += ["4.0", "0.4000001", "0.05", "0.72", "4.07", "0.104", "0.034", "0.161", "0.26", "0.3"]


def _expected(values: list[int], upto: int) -> dict[str, Any]:
    """The summary's facts computed naively from a full list of values."""
    head = values[: upto + 1]
    half = max(16, 1 << max(head).bit_length())
    mask = choose_mask(head, half)
    rare = {}
    for v in sorted(set(head[1:])):
        if is_rare(v, mask):
            where = [n for n in range(1, upto + 1) if head[n] == v]
            rare[v] = (len(where), where[0], where[-1])
    return {"counts": dict(Counter(head)), "max": max(head), "mask": mask, "rare": rare}


def _facts(summary: Any) -> dict[str, Any]:
    rare = {v: (r.count, r.first, r.last) for v, r in summary.rare.items()}
    return {"counts": summary.counts, "max": summary.max, "mask": summary.mask, "rare": rare}


@pytest.mark.parametrize("text", MANY)
def test_summary_equals_plain_engine(text: str) -> None:
    code = OctalCode.parse(text)
    values = plain_sequence(rules_of(code), 1500)
    for upto in (0, 1, 37, 1500):
        summary = summarize_code(code, upto)
        assert _facts(summary) == _expected(values, upto)
        found = find_period(code, values[: summary.computed])
        if summary.period is not None:
            assert found is not None
            assert (summary.period, summary.preperiod) == (found.period, found.preperiod)
            assert summary.proven is not None and summary.proven <= summary.computed


def test_grundy_game_summary_equals_plain_engine() -> None:
    values = plain_sequence(GRUNDY_GAME_RULES, 4000)
    summary = summarize(GRUNDY_GAME_RULES, 4000, max_take=None)
    assert _facts(summary) == _expected(values, 4000)
    assert summary.period is None and summary.computed == 4001


@settings(max_examples=25)
@given(
    head=st.sampled_from([0, 4]),
    tail=st.lists(st.integers(0, 7), min_size=1, max_size=4),
    upto=st.integers(0, 700),
)
def test_summary_equals_plain_engine_random_codes(head: int, tail: list[int], upto: int) -> None:
    code = OctalCode.parse(f"{head}." + "".join(map(str, tail)))
    values = plain_sequence(rules_of(code), upto)
    assert _facts(summarize_code(code, upto)) == _expected(values, upto)


def test_periodic_closed_form_matches_the_values() -> None:
    # the period of 0.16 is proven after about 5e5 values; dawson's kayles after 176
    code = OctalCode.parse("0.07")
    values = plain_sequence(rules_of(code), 3000)
    summary = summarize_code(code, 3000)
    assert summary.computed < 400 and (summary.period, summary.preperiod) == (34, 53)
    assert _facts(summary) == _expected(values, 3000)
    huge = summarize_code(code, 2**40)
    assert sum(huge.counts.values()) == 2**40 + 1
    assert huge.rare[max(huge.rare)].last > 2**40 - 34


@pytest.mark.parametrize("code", ["0.014", "0.034", "0.161", "0.167", "0.172"])
def test_published_histograms(code: str) -> None:
    # Published frequencies of g(1..N) at each power of two N (file N; heap 0 is not
    # counted), by M. Rogalski's solver: https://github.com/rogalski-wmii-uni-lodz-pl/octal,
    # results/<code>/<N> (commit 9841c1e); copied into tests/data for N <= 2^16 only.
    published = json.loads(DATA.read_text())["histograms"][code]
    run = SummaryRun(rules=rules_of(OctalCode.parse(code)), key=code, max_take=None)
    run.run(2**16)
    for size, counts in published.items():
        got = np.bincount(run.g[1 : int(size) + 1], minlength=len(counts)).tolist()
        assert got == counts, f"{code}: histogram of g(1..{size})"
    summary = summarize_code(OctalCode.parse(code), 2**16)
    assert summary.period is None
    summary.counts[0] -= 1  # g(0) = 0
    assert summary.counts == {v: c for v, c in enumerate(published[str(2**16)]) if c}


def test_resume_equals_single_run(tmp_path: Path) -> None:
    code = OctalCode.parse("0.6")
    single = summarize_code(code, 30_000)
    checkpoint = tmp_path / "officers.ckpt"
    first = summarize_code(code, 12_345, checkpoint=checkpoint)
    assert first.computed == 12_346 and checkpoint.exists()
    resumed = summarize_code(code, 30_000, checkpoint=checkpoint)
    assert resumed.resumed_from == 12_346
    assert resumed.to_json() | {"seconds": 0, "resumed_from": 0} == single.to_json() | {
        "seconds": 0
    }


def test_checkpoint_writes_the_values_without_a_copy(tmp_path: Path) -> None:
    """A save writes the new values straight from the array: a copy of them (``tobytes``)
    once doubled a run's peak when its first save held every value so far. The file holds
    exactly the values, and a second save appends only the new ones."""
    import tracemalloc

    run = SummaryRun(rules=GRUNDY_GAME_RULES, key="grundy-game", max_take=None)
    run.g = np.arange(1 << 22, dtype=np.uint16)
    run.count = 1 << 21
    checkpoint = tmp_path / "values.ckpt"
    tracemalloc.start()
    try:
        run.save(checkpoint)
        run.count = 1 << 22
        run.save(checkpoint)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < run.g.nbytes // 8  # the values are 8 MB; a copy of the new ones 4 MB
    written = np.fromfile(tmp_path / "values.ckpt.uint16", dtype=np.uint16)
    assert np.array_equal(written, run.g)


def test_resume_after_sigkill(tmp_path: Path) -> None:
    """A real SIGKILL of a running ``nimlab grundy --summary --checkpoint``: the rerun resumes
    from the last checkpoint and prints the single run's histogram."""
    checkpoint = tmp_path / "grundy.ckpt"
    command = [sys.executable, "-m", "nimlab", "grundy", "grundy-game", "--upto", "400000"]
    command += ["--summary", "--json", "--checkpoint", str(checkpoint)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen(
        [*command, "--checkpoint-every", "0.2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if checkpoint.exists() and json.loads(checkpoint.read_text())["count"] > 50_000:
            break
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be killed"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=60)
    killed_at = json.loads(checkpoint.read_text())["count"]
    assert 0 < killed_at < 400_001
    rerun = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    resumed = json.loads(rerun.stdout)
    assert resumed["resumed_from"] >= killed_at
    single = summarize(GRUNDY_GAME_RULES, 400_000, max_take=None).to_json()
    for key in ("counts", "max", "rare", "period", "preperiod"):
        assert resumed[key] == single[key], key


def test_cli_summary_contract(cli: Any) -> None:
    result = cli("grundy", "kayles", "--upto", str(2**40), "--summary", "--json")
    assert result.code == 0, result.err
    payload = json.loads(result.out)
    for key in ("game", "counts", "max", "rare", "period", "preperiod", "stopped_at", "proven"):
        assert key in payload
    assert payload["period"] == 12 and payload["preperiod"] == 71 and payload["proven"] == 168
    assert sum(payload["counts"].values()) == 2**40 + 1
    assert all(isinstance(k, str) for k in payload["counts"])
    text = cli("grundy", "octal", "--code", "0.6", "--upto", "5000", "--summary")
    assert text.code == 0 and "unsettled up to 5,000" in text.out
    assert cli("grundy", "nim", "--upto", "10", "--summary").code == 2
    assert cli("grundy", "kayles", "--upto", "10", "--checkpoint", "x").code == 2
    refused = cli("grundy", "grundy-game", "--upto", str(2**40), "--summary", "--json")
    assert refused.code == 3 and "--limit" in refused.err


def test_census_through_the_store(cli: Any, tmp_path: Path) -> None:
    store = str(tmp_path / "census.db")
    args = ["sweep", "grundy", "--codes", "0.07,0.77,0.6", "--upto", "3000", "--summary"]
    result = cli(*args, "--store", store, "--workers", "1", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["computed"] == 3
    shown = cli("store", "show", "octal(0.07;upto=3000)", "--store", store, "--json")
    dawson = json.loads(shown.out)
    assert (dawson["status"], dawson["period"], dawson["preperiod"]) == ("periodic", 34, 53)
    shown = cli("store", "show", "octal(0.6;upto=3000)", "--store", store, "--json")
    officers = json.loads(shown.out)
    assert officers["status"] == "unsettled" and officers["unsettled_up_to"] == 3000
    values = plain_sequence(rules_of(OctalCode.parse("0.6")), 3000)
    assert officers["counts"] == {str(v): c for v, c in sorted(Counter(values).items())}
    # a plain table of the same spec is not served by the summary row, nor the other way
    table = cli("grundy", "octal", "--code", "0.07", "--upto", "3000", "--store", store, "--json")
    assert json.loads(table.out)["cached"] is False and "values" in json.loads(table.out)
    again = cli(*args, "--store", store, "--workers", "1", "--json")
    assert json.loads(again.out)["skipped"] == 3
    budget = cli(*args, "--per-code-seconds", "0", "--store", store)
    assert budget.code == 2


def test_kernels_stay_in_bounds(tmp_path: Path) -> None:
    """The compiled kernels with numba's bounds checks on (a read or write past an array
    raises instead of corrupting memory), on games whose first values make every value rare.
    The kernels are cached on disk, and numba's cache key ignores ``NUMBA_BOUNDSCHECK``: an
    empty cache directory makes them compile here with the checks."""
    script = (
        "from nimlab.octal import OctalCode\n"
        "from nimlab.octal.rules import GRUNDY_GAME_RULES\n"
        "from nimlab.octal.summary import summarize, summarize_code\n"
        "for text in ('0.6', '0.0', '0.1', '4.0', '0.014', '0.77'):\n"
        "    summarize_code(OctalCode.parse(text), 3000)\n"
        "summarize(GRUNDY_GAME_RULES, 3000, max_take=None)\n"
        "print('ok')\n"
    )
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "PYTHONPATH": os.pathsep.join(sys.path)}
    env["NUMBA_CACHE_DIR"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


_PEAK_OF_CLI = """
import atexit, runpy, sys
from nimlab.octal.summary import warm_up
warm_up()  # compiled (or loaded from numba's cache) before the peak is measured
with open("/proc/self/clear_refs", "w") as clear:
    clear.write("5")  # the kernel starts the peak resident size (VmHWM) afresh
def peak():
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    print(line.split()[1], file=sys.stderr)
atexit.register(peak)
sys.argv = ["nimlab", "grundy", "grundy-game", "--upto", sys.argv[1], "--summary", "--json",
            "--no-store"]
runpy.run_module("nimlab", run_name="__main__")
"""


def test_memory_estimate_covers_the_measured_peak() -> None:
    """``summary_cost``'s peak bytes are not below what the run takes: the values the engine
    allocates (tracemalloc sees numpy's arrays: one ``uint16`` copy, no reversed one) and the
    whole CLI process (its own peak RSS from the kernels' warm-up to its exit: a compile into a
    cold numba cache is not the run's cost)."""
    import tracemalloc

    from nimlab.octal.summary import _ENGINE_BYTES, summary_cost

    upto = (1 << 20) - 1
    _, estimate = summary_cost(GRUNDY_GAME_RULES, upto, max_take=None)
    tracemalloc.start()
    try:
        summary = summarize(GRUNDY_GAME_RULES, upto, max_take=None)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert summary.value_bytes == 2 and 2 * (upto + 1) <= peak <= estimate - _ENGINE_BYTES
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", _PEAK_OF_CLI, str(upto)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["computed"] == upto + 1
    rss = int(done.stderr.strip().splitlines()[-1]) * 1024
    assert rss <= estimate, (rss, estimate)

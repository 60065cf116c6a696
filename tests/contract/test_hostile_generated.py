"""Hostile input generated from each command's grammar (hypothesis): integers from 0 to
10^5000, rationals, malformed lists, unknown options and odd paths, for every command that
takes numbers or files. Whatever comes in, nimlab exits 0, 2 or 3; a refusal is one ``error:``
line; nothing prints a traceback; ``--json`` means stdout is one JSON object.

Most examples run in-process (``nimlab.cli.main.run``, output captured); a few run the console
script as a subprocess, as a user does. Runs are reproducible (``derandomize``, no example
database) and bounded: each command's own budget option is set low (last, so that it wins over
a generated one), and an in-process run that outlives :data:`SECONDS` fails the test.
"""

from __future__ import annotations

import contextlib
import io
import json
import signal
from collections.abc import Iterator
from types import FrameType
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from nimlab.cli.main import run
from tests.contract.conftest import run_nimlab

SECONDS = 60
"""The most one run may take (in-process: an alarm; as a subprocess: its timeout)."""

# -- the vocabulary ------------------------------------------------------------------------------

_SMALL = st.integers(0, 12).map(str)
_HUGE = st.builds(
    lambda lead, zeros: f"{lead}{'0' * zeros}", st.integers(1, 9), st.integers(0, 5000)
)
_MALFORMED = st.sampled_from(
    [
        "-1",
        "1.5",
        "1e999999",
        "0x10",
        "",
        " ",
        "1,,2",
        "\uff13",
        "NaN",
        "inf",
        "1/0",
        "--",
        "+7",
        "9" * 4400,
    ]
)
INTEGER = st.one_of(_SMALL, _SMALL, st.integers(0, 10**6).map(str), _HUGE, _MALFORMED)
"""A number where a count goes: mostly small, else up to 10^5000 digits' worth, or not one."""

RATIONAL = st.one_of(
    INTEGER,
    st.builds(lambda p, q: f"-{p}/{q}", st.integers(0, 10**6), st.integers(0, 10**6)),
    st.sampled_from(["-7/2", "2.25", "1e999999999", "1e-999999999", "1/3e4", "0/0", ".5", "-0"]),
)
LIST = st.lists(st.one_of(_SMALL, _SMALL, INTEGER), min_size=0, max_size=5).map(",".join)
"""A comma-separated list, possibly empty, with huge or malformed entries."""

UNKNOWN_OPTION = st.sampled_from(["--bogus", "-x", "--json=1", "--limit=-1", "--help-me", "---"])
PATH = st.sampled_from(
    ["/dev/zero", "/dev/null", "/", "/proc/self/status", "/nonexistent/game.efg", "x" * 300, "."]
)
GAME = st.sampled_from(
    [
        "nim",
        "subtraction",
        "wythoff",
        "kayles",
        "grundy-game",
        "octal",
        "prime-power",
        "poker-nim",
        "green-hackenbush",
        "red-blue-hackenbush",
        "silver-dollar",
        "no-such-game",
    ]
)

# -- the grammars: each draws one invocation (the budget option last) -----------------------------


def _maybe(draw: Any, *options: Any) -> list[str]:
    """Each (flag, strategy) pair with probability one half, in order."""
    args: list[str] = []
    for flag, values in options:
        if draw(st.booleans()):
            args += [flag, draw(values)]
    return args


@st.composite
def invocation(draw: Any) -> list[str]:
    kind = draw(
        st.sampled_from(
            [
                "nim",
                "analyze",
                "grundy",
                "lost",
                "aesthetic",
                "triangles",
                "trapezoids",
                "nimber",
                "scoring",
                "solve",
                "solve-efg",
                "store",
            ]
        )
    )
    limit = ["--limit", "2000000"]  # about 2 s of estimated work
    if kind == "nim":
        args = ["nim", *draw(st.lists(INTEGER, max_size=4))]
    elif kind == "analyze":
        args = ["analyze", draw(GAME), draw(LIST)]
        args += _maybe(draw, ("--set", LIST), ("--max", INTEGER), ("--code", RATIONAL))
        args += ["--brute"] if draw(st.booleans()) else []
        args += limit
    elif kind == "grundy":
        args = ["grundy", draw(GAME), "--upto", draw(INTEGER), "--no-store"]
        args += _maybe(draw, ("--set", LIST), ("--max", INTEGER), ("--row", INTEGER)) + limit
    elif kind == "lost":
        args = ["lost", "--heaps", draw(INTEGER), "--max", draw(INTEGER)]
        args += _maybe(draw, ("--smallest", INTEGER)) + limit
    elif kind == "aesthetic":
        args = ["aesthetic", "--heaps", draw(INTEGER), *limit]
    elif kind == "triangles":
        args = ["triangles", "--upto", draw(INTEGER), *limit]
    elif kind == "trapezoids":
        args = ["trapezoids", "--min", draw(INTEGER), "--max", draw(INTEGER), *limit]
    elif kind == "nimber":
        op = draw(st.sampled_from(["sum", "product", "inverse", "bogus"]))
        args = ["nimber", op, *draw(st.lists(INTEGER, max_size=3))]
    elif kind == "scoring":
        args = ["scoring", *draw(st.lists(INTEGER, max_size=3)), "--no-store"]
        args += [*_maybe(draw, ("--N", RATIONAL)), "--max-cells", "100000"]
    elif kind == "solve":
        variant = draw(st.sampled_from(["sn", "fsn", "kn", "kn-empty", "bogus"]))
        args = ["solve", variant, *draw(st.lists(INTEGER, min_size=1, max_size=3)), "--no-store"]
        args += [*_maybe(draw, ("--max-nodes", INTEGER)), "--max-seconds", "3"]
    elif kind == "solve-efg":
        args = ["solve-efg", draw(PATH), "--max-seconds", "3"]
    else:
        args = ["store", draw(st.sampled_from(["check", "ls", "show"]))]
        args += [draw(RATIONAL)] if args[1] == "show" else []
        args += ["--store", draw(PATH)]
    if draw(st.integers(0, 9)) == 0:
        args.insert(draw(st.integers(1, len(args))), draw(UNKNOWN_OPTION))
    if draw(st.integers(0, 4)):
        args.append("--json")
    return args


# -- the promise --------------------------------------------------------------------------------


def _check(args: list[str], code: int, out: str, err: str) -> None:
    shown = " ".join(a if len(a) < 60 else f"{a[:20]}...({len(a)} chars)" for a in args)
    where = f"nimlab {shown}: exit {code}\nstderr: {err[-2000:]}"
    assert code in (0, 2, 3), where
    assert "Traceback" not in err, where
    if code in (2, 3):
        errors = [line for line in err.splitlines() if line.startswith("error:")]
        assert len(errors) == 1, where
    elif "--json" in args and "--help" not in args:
        payload = json.loads(out)
        assert isinstance(payload, dict), where


class _TooLongError(Exception):
    """An in-process run outlived :data:`SECONDS`."""


@contextlib.contextmanager
def _alarm(seconds: int) -> Iterator[None]:
    def ring(number: int, frame: FrameType | None) -> None:
        raise _TooLongError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@settings(
    max_examples=90,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a hang would be retried for minutes
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(args=invocation())
def test_generated_invocations_in_process(args: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _alarm(SECONDS):
        code = run(args)
    _check(args, code, out.getvalue(), err.getvalue())


@settings(
    max_examples=6,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a hang would be retried for minutes
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(args=invocation())
def test_generated_invocations_of_the_console_script(args: list[str]) -> None:
    done = run_nimlab(*args, timeout=SECONDS, env={"NIMLAB_STORE": ""})
    _check(args, done.code, done.out, done.err)

"""Every command and option of ``CONTRACT.md`` that exists today, run as users run it: the
installed console script in a subprocess, stdout parsed whole as one JSON object.

Expected values come from the seed documents (cited per check) or from tiny independent
oracles in this file (XOR, mex over the rules), never from nimlab itself. Commands are run a few
at a time in threads (each is its own process) to keep the module near a minute.

Covered in their own modules: ``solve --game`` (``test_hidden_games_cli.py``,
``test_game_plumbing.py``), ``solve-efg`` (``test_solve_efg_cli.py``), ``solve-openspiel``
(``tests/openspiel``), ``reproduce hidden-games`` (``test_reproduce_hidden_cli.py``), the
``cached`` key (``test_store_contract.py``) and ``serve`` (the live-server tests).
``reproduce`` itself takes 16 s and more, so only its refusals are run.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from math import gcd
from pathlib import Path

import pytest

from nimlab import __version__
from tests.contract.conftest import Run, run_nimlab

Invoke = Callable[..., Run]

# Seed 003: the non-obviously lost 4-heap positions whose largest heap is at most 15.
SEED_003_FOUR_HEAPS = (
    "[2,3,4,5],[1,3,4,6],[1,2,5,6],[1,2,4,7],[1,3,5,7],[2,3,6,7],[4,5,6,7],[2,3,8,9],[4,5,8,9],"
    "[6,7,8,9],[1,3,8,10],[4,6,8,10],[5,7,8,10],[1,2,9,10],[5,6,9,10],[4,7,9,10],[1,2,8,11],"
    "[5,6,8,11],[4,7,8,11],[1,3,9,11],[4,6,9,11],[5,7,9,11],[2,3,10,11],[4,5,10,11],[6,7,10,11],"
    "[8,9,10,11],[1,5,8,12],[2,6,8,12],[3,7,8,12],[1,4,9,12],[3,6,9,12],[2,7,9,12],[2,4,10,12],"
    "[3,5,10,12],[1,7,10,12],[3,4,11,12],[2,5,11,12],[1,6,11,12],[1,4,8,13],[3,6,8,13],"
    "[2,7,8,13],[1,5,9,13],[2,6,9,13],[3,7,9,13],[3,4,10,13],[2,5,10,13],[1,6,10,13],"
    "[2,4,11,13],[3,5,11,13],[1,7,11,13],[2,3,12,13],[4,5,12,13],[6,7,12,13],[8,9,12,13],"
    "[10,11,12,13],[2,4,8,14],[3,5,8,14],[1,7,8,14],[3,4,9,14],[2,5,9,14],[1,6,9,14],"
    "[1,5,10,14],[2,6,10,14],[3,7,10,14],[1,4,11,14],[3,6,11,14],[2,7,11,14],[1,3,12,14],"
    "[4,6,12,14],[5,7,12,14],[8,10,12,14],[9,11,12,14],[1,2,13,14],[5,6,13,14],[4,7,13,14],"
    "[9,10,13,14],[8,11,13,14],[3,4,8,15],[2,5,8,15],[1,6,8,15],[2,4,9,15],[3,5,9,15],"
    "[1,7,9,15],[1,4,10,15],[3,6,10,15],[2,7,10,15],[1,5,11,15],[2,6,11,15],[3,7,11,15],"
    "[1,2,12,15],[5,6,12,15],[4,7,12,15],[9,10,12,15],[8,11,12,15],[1,3,13,15],[4,6,13,15],"
    "[5,7,13,15],[8,10,13,15],[9,11,13,15],[2,3,14,15],[4,5,14,15],[6,7,14,15],[8,9,14,15],"
    "[10,11,14,15],[12,13,14,15]"
)

# Seed 001: "The Nim sum table for the first 8 nimbers", row by row.
SEED_001_SUM_TABLE = "01234567 10325476 23016745 32107654 45670123 54761032 67452301 76543210"

COMMANDS = (
    "analyze", "grundy", "games", "nim", "lost", "aesthetic", "triangles", "trapezoids", "play",
    "reproduce", "scoring", "scoring-table", "serve", "solve", "export-efg", "tour", "nimber",
    "sweep", "store", "cgt",
)  # fmt: skip
SUBCOMMANDS = (
    ("nimber", "sum"), ("nimber", "product"), ("nimber", "table"), ("sweep", "solve"),
    ("sweep", "scoring"), ("sweep", "grundy"), ("store", "ls"), ("store", "show"),
)  # fmt: skip


def run_all(
    invoke: Invoke, calls: Iterable[Sequence[str]], stores: Path | None = None
) -> list[Run]:
    """Run several independent commands at once (each a process); results in call order.

    With ``stores`` (a folder), each command gets a results store of its own there."""
    jobs = list(enumerate(calls))

    def one(job: tuple[int, Sequence[str]]) -> Run:
        index, args = job
        if stores is None:
            return invoke(*args)
        return invoke(*args, env={"NIMLAB_STORE": str(stores / f"store{index}.sqlite")})

    with ThreadPoolExecutor(max_workers=3) as pool:
        return list(pool.map(one, jobs))


def is_int(value: object) -> bool:
    """A JSON integer (Python's json keeps any size exact), not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_exact(value: object) -> bool:
    """An exact rational string: ``"p/q"`` in lowest terms or ``"p"``."""
    if not isinstance(value, str):
        return False
    match = re.fullmatch(r"(-?\d+)(?:/(\d+))?", value)
    if match is None:
        return False
    if match.group(2) is None:
        return True
    q = int(match.group(2))
    return q > 1 and gcd(int(match.group(1)), q) == 1


def is_position(value: object) -> bool:
    """A list of non-negative JSON integers."""
    return isinstance(value, list) and all(is_int(h) and h >= 0 for h in value)


# ---- independent oracles: the rules and mex, nothing from nimlab ---------------------------


def mex(values: Iterable[int]) -> int:
    seen = set(values)
    return next(n for n in range(len(seen) + 1) if n not in seen)


@cache
def take_and_split(n: int, takes: tuple[int, ...]) -> int:
    """Grundy value of a row of n pins where a move removes k in ``takes`` adjacent pins,
    leaving up to two rows (Kayles: takes (1, 2); Dawson's Kayles: takes (2,))."""
    return mex(
        take_and_split(a, takes) ^ take_and_split(n - k - a, takes)
        for k in takes
        if k <= n
        for a in range(n - k + 1)
    )


@cache
def grundy_game(n: int) -> int:
    """Grundy's game: split a heap into two non-empty heaps of different sizes."""
    return mex(grundy_game(a) ^ grundy_game(n - a) for a in range(1, (n + 1) // 2) if 2 * a != n)


@cache
def subtraction(n: int, moves: tuple[int, ...]) -> int:
    return mex(subtraction(n - s, moves) for s in moves if s <= n)


# ---- general -------------------------------------------------------------------------------


def test_version_and_help(nimlab: Invoke) -> None:
    calls = [("--version",), ("--help",), (), ("nim", "--help"), ("nimber", "sum", "--help")]
    version, root, bare, nim_help, sum_help = run_all(nimlab, calls)
    assert version.code == 0, version.err
    assert version.out == f"nimlab {__version__}\n"
    assert re.fullmatch(r"nimlab \d+\.\d+\.\d+\n", version.out)
    module = run_nimlab_module("--version")
    assert module.code == 0 and module.out == version.out

    assert root.code == 0 and "Usage: nimlab" in root.out
    assert bare.code == 0 and "Usage: nimlab" in bare.out  # no command: the help
    listed = set(re.findall(r"│ ([a-z][a-z-]*) ", root.out))
    assert set(COMMANDS) <= listed, f"missing from --help: {set(COMMANDS) - listed}"
    assert nim_help.code == 0 and "Usage: nimlab nim" in nim_help.out
    assert sum_help.code == 0 and "Usage: nimlab nimber sum" in sum_help.out


def test_help_of_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    """In-process (a subprocess each would take a minute on a busy machine): the same Typer
    app the console script runs; the start-up itself is covered above."""
    from nimlab.cli.main import run

    calls = [(name, "--help") for name in COMMANDS] + [(*pair, "--help") for pair in SUBCOMMANDS]
    for args in calls:
        code = run(list(args))
        captured = capsys.readouterr()
        assert code == 0, f"{args}: {captured.err}"
        assert f"Usage: nimlab {' '.join(args[:-1])}" in captured.out, args
        assert captured.err == ""


def run_nimlab_module(*args: str) -> Run:
    """``python -m nimlab ARGS`` (the contract's second spelling)."""
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "nimlab", *args], capture_output=True, text=True, timeout=60
    )
    return Run(args, done.returncode, done.stdout, done.stderr, time.monotonic() - start)


def test_bad_input_is_one_error_line_and_exit_2(nimlab: Invoke) -> None:
    calls = [
        ("nim", "3", "-4"),
        ("nim", "--json"),
        ("analyze", "chess", "1,2"),
        ("analyze", "wythoff", "3,5", "--set", "1,2"),
        ("scoring", "3", "2", "1", "--N", "abc", "--json"),
        ("solve", "chess", "3", "3", "1", "--json"),
        ("store", "show", "sn(9,9,9)", "--json"),
        ("no-such-command",),
        ("nim", "3", "--no-such-option"),
    ]
    for args, result in zip(calls, run_all(nimlab, calls), strict=True):
        message = result.refused(2)
        assert len(message) < 400, f"{args}: {message}"


# ---- Nim and nimbers -----------------------------------------------------------------------


@pytest.fixture
def big_ints() -> Iterator[None]:
    """Lift this interpreter's limit on decimal conversion (4300 digits) for one test, as a
    consumer of nimlab's big JSON integers must (see the README)."""
    previous = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    yield
    sys.set_int_max_str_digits(previous)


def sevens(digits: int) -> int:
    """777...7 with ``digits`` digits, built without decimal conversion."""
    return (10**digits - 1) // 9 * 7


@pytest.mark.usefixtures("big_ints")
def test_nim(nimlab: Invoke) -> None:
    big = 2**64 + 12345  # beyond 2**53: must stay an exact JSON integer
    huge = sevens(5000)  # beyond Python's default 4300-digit conversion limit
    calls = [
        ("nim", "3", "4", "5", "--json"),
        ("nim", "1", "2", "3", "--json"),
        ("nim", "1", "1", "--misere", "--json"),
        ("nim", "1", "1", "1", "--misere", "--json"),
        ("nim", str(big), str(big), "--json"),
        ("nim", str(huge), "3", "--json"),
        ("nim", "3", "4", "5"),
    ]
    (n345, n123, m11, m111, pair, giant, human) = run_all(nimlab, calls)

    payload = n345.ok_json()  # seed 003: choose a move that makes the nim-sum 0
    assert payload["position"] == [3, 4, 5] and payload["nim_sum"] == 2
    assert payload["outcome"] == "N"
    moves = [{k: m[k] for k in ("heap", "from", "to")} for m in payload["winning_moves"]]
    assert moves == [{"heap": 0, "from": 3, "to": 1}]

    payload = n123.ok_json()  # seed 003: "The simplest non-obviously lost position is [1,2,3]"
    assert (payload["nim_sum"], payload["outcome"], payload["winning_moves"]) == (0, "P", [])

    # Misere Nim: with every heap of size 1, parity decides (seed 002's Bengali paragraph,
    # with the true rule: an odd number of single counters loses for the player to move).
    assert m11.ok_json()["outcome"] == "N"
    assert m111.ok_json()["outcome"] == "P"

    payload = pair.ok_json()
    assert payload["position"] == [big, big] and is_int(payload["position"][0])
    assert (payload["nim_sum"], payload["outcome"]) == (0, "P")

    payload = giant.ok_json()
    assert payload["position"] == [huge, 3]
    assert payload["nim_sum"] == huge ^ 3
    moves = [{k: m[k] for k in ("heap", "from", "to")} for m in payload["winning_moves"]]
    assert moves == [{"heap": 0, "from": huge, "to": 3}]

    assert human.code == 0 and human.out.strip() and not human.out.lstrip().startswith("{")


@pytest.mark.usefixtures("big_ints")
def test_nimbers(nimlab: Invoke) -> None:
    huge = 10**5000 - 1
    calls = [
        ("nimber", "sum", "5", "3", "--json"),
        ("nimber", "product", "2", "3", "--json"),
        ("nimber", "product", str(2**64), str(2**64), "--json"),
        ("nimber", "product", str(huge), "1", "--json"),
        ("nimber", "sum", str(huge), str(huge), "6", "--json"),
        ("nimber", "table", "--op", "sum", "--size", "8", "--json"),
        ("nimber", "table", "--op", "product", "--size", "4", "--json"),
        ("nimber", "product", "2", "3"),
    ]
    (s53, p23, fermat, identity, cancel, sums, products, human) = run_all(nimlab, calls)
    # seed 001: "5 ⊕ 3 = 101 XOR 011 = 110 = 6"
    assert s53.ok_json() == {"op": "sum", "args": [5, 3], "result": 6}
    payload = p23.ok_json()
    assert (payload["op"], payload["args"], payload["result"]) == ("product", [2, 3], 1)
    # Fermat 2-powers F = 2**(2**k): F ⊗ F = 3F/2, so 2**64 ⊗ 2**64 = 3 * 2**63
    assert fermat.ok_json()["result"] == 3 * 2**63
    # any size: 1 is the identity, x ⊕ x = 0
    assert identity.ok_json()["result"] == huge
    payload = cancel.ok_json()
    assert payload["result"] == 6 and payload["args"] == [huge, huge, 6]

    payload = sums.ok_json()
    assert (payload["op"], payload["size"]) == ("sum", 8)
    assert payload["table"] == [[int(c) for c in row] for row in SEED_001_SUM_TABLE.split()]
    # the nimbers 0..3 form the field of four elements: 2 ⊗ 2 = 3, 2 ⊗ 3 = 1, 3 ⊗ 3 = 2
    table = products.ok_json()["table"]
    assert table == [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
    assert human.code == 0 and "1" in human.out


# ---- the catalogue -------------------------------------------------------------------------

K = (1, 2)  # Kayles: take 1 or 2 adjacent pins
D = (2,)  # Dawson's Kayles (0.07): take 2 adjacent pins


def by_rules(value: Callable[[int], int], *heaps: int) -> tuple[int, str]:
    """Grundy value and outcome of a sum of heaps, from the oracles above."""
    total = 0
    for heap in heaps:
        total ^= value(heap)
    return total, "N" if total else "P"


def nim(*heaps: int) -> tuple[int, str]:
    return by_rules(lambda n: n, *heaps)


# (arguments, (Grundy value or None if not asserted, outcome), "to"s among the winning moves)
ANALYZE_ROWS: list[tuple[tuple[str, ...], tuple[int | None, str], set[str]]] = [
    (("nim", "3,4,5"), nim(3, 4, 5), {"1,4,5"}),
    # seed 002 (misere Nim): all heaps of size 1, parity decides; an odd count loses
    (("nim", "1,1,1", "--misere"), (None, "P"), set()),
    (("wythoff", "3,5"), (0, "P"), set()),  # seed 002: cold positions (1,2), (3,5), (4,7)
    (("wythoff", "4,8"), (None, "N"), {"4,7"}),
    (("staircase", "0,3,1,4"), nim(3, 4), set()),  # seed 002: XOR of the odd steps
    (("nimble", "1,3,3,6"), nim(1, 3, 3, 6), {"1,1,3,3"}),  # seed 002: a coin on k is heap k
    (("poker-nim", "3,4,5", "--additions", "2"), (None, "N"), {"1,4,5"}),  # seed 002: as Nim
    (("turning-turtles", "THHTTH"), nim(2, 3, 6), set()),  # seed 002: {2, 3, 6}
    (("twins", "THHTTH"), nim(1, 2, 5), set()),  # seed 002: {1, 2, 5}
    (("silver-dollar", "2,5,7,11"), nim(2, 3), set()),  # seed 002: piles {2, 3}
    (("nim2d", "1:2,3:0"), nim(1, 2, 3, 0), set()),  # seed 002: coordinates are heaps
    (("prime-power", "56700"), nim(2, 4, 2, 1), set()),  # seed 002: 2^2 3^4 5^2 7
    (
        ("subtraction", "10,7", "--set", "1,3,4"),
        by_rules(lambda n: subtraction(n, (1, 3, 4)), 10, 7),
        set(),
    ),
    (("subtraction", "10,7", "--max", "3"), nim(10 % 4, 7 % 4), set()),  # seed 003: mod k+1
    (("octal", "5,9", "--code", "0.07"), by_rules(lambda n: take_and_split(n, D), 5, 9), set()),
    (("kayles", "7,4"), by_rules(lambda n: take_and_split(n, K), 7, 4), set()),
    (("dawson-kayles", "7,4"), by_rules(lambda n: take_and_split(n, D), 7, 4), set()),
    (("grundy-game", "7,4"), by_rules(grundy_game, 7, 4), set()),
    (("skip-nim", "3,4,5", "--skips", "1,2"), (None, "P"), set()),  # seed 002: A < B
    (("skip-nim", "1,2,3", "--skips", "2,1"), (None, "N"), set()),  # seed 002: A > B
    # seed 002, colon principle: the a-branch (two leaves) is worth 1, g-d is 1: 1 XOR 1 = 0
    (("green-hackenbush", "g-a,a-b,a-c,g-d"), (0, "P"), set()),
    # seed 002 (stalks): BBRB = 1 + 1 - 1/2 + 1/4, RRB = -1 - 1 + 1/2; sum 1/4 > 0: Blue (L)
    (("red-blue-hackenbush", "BBRB,RRB"), (None, "L"), set()),
]


def test_analyze_every_game_of_the_table(nimlab: Invoke) -> None:
    calls = [("analyze", *args, "--json") for args, _, _ in ANALYZE_ROWS]
    problems = []
    for (args, (grundy, outcome), tos), result in zip(
        ANALYZE_ROWS, run_all(nimlab, calls), strict=True
    ):
        if result.code != 0:
            problems.append(f"{args}: exit {result.code}: {result.err.strip()}")
            continue
        payload = result.json()
        assert isinstance(payload["game"], str) and args[0] in payload["game"], args
        assert payload["position"] == args[1], args  # the input notation, as a string
        if args[0] == "red-blue-hackenbush":
            assert payload["grundy"] is None and payload["value"] == "1/4"
        else:
            assert is_int(payload["grundy"]) or payload["grundy"] is None, args
        if grundy is not None and payload["grundy"] != grundy:
            problems.append(f"{args}: grundy {payload['grundy']}, expected {grundy}")
        if payload["outcome"] != outcome:
            problems.append(f"{args}: outcome {payload['outcome']}, expected {outcome}")
        moves = payload["winning_moves"]
        assert isinstance(moves, list) and all(isinstance(m["to"], str) for m in moves), args
        assert (moves == []) == (outcome == "P"), args
        if not tos <= {m["to"] for m in moves}:
            problems.append(f"{args}: winning moves {moves}, expected to include {tos}")
    assert not problems, "\n".join(problems)


def test_grundy_sequences(nimlab: Invoke) -> None:
    calls = [
        ("grundy", "kayles", "--upto", "200", "--json"),
        ("grundy", "subtraction", "--set", "1,3,4", "--upto", "30", "--json"),
        ("grundy", "grundy-game", "--upto", "40", "--json"),
    ]
    kayles, sub, grundy = run_all(nimlab, calls)
    payload = kayles.ok_json()
    assert payload["game"] == "kayles"
    assert payload["values"] == [take_and_split(n, K) for n in range(201)]
    assert (payload["period"], payload["preperiod"]) == (12, 71)  # Guy and Smith
    payload = sub.ok_json()
    assert payload["values"] == [subtraction(n, (1, 3, 4)) for n in range(31)]
    assert payload["period"] in (None, 7) and (payload["preperiod"] is None) == (
        payload["period"] is None
    )
    payload = grundy.ok_json()
    assert payload["values"] == [grundy_game(n) for n in range(41)]
    assert payload["period"] is None  # Grundy's game has no known period


# ---- enumerations --------------------------------------------------------------------------


def test_lost_and_aesthetic_positions(nimlab: Invoke) -> None:
    calls = [
        ("lost", "--heaps", "3", "--max", "7", "--non-obvious", "--json"),
        ("lost", "--heaps", "4", "--max", "15", "--non-obvious", "--json"),
        ("lost", "--heaps", "2", "--max", "3", "--json"),
        ("aesthetic", "--heaps", "5", "--json"),
        ("aesthetic", "--heaps", "9", "--json"),
        ("aesthetic", "--heaps", "13", "--json"),
    ]
    three, four, two, five, nine, thirteen = run_all(nimlab, calls)
    # seed 003: [1,2n,2n+1], [2,4n,4n+2], [2,4n+1,4n+3], [3,4n,4n+3], [3,4n+1,4n+2] up to 7
    expected = [[1, 2, 3], [1, 4, 5], [1, 6, 7], [2, 4, 6], [2, 5, 7], [3, 4, 7], [3, 5, 6]]
    payload = three.ok_json()
    assert (payload["positions"], payload["count"]) == (expected, 7)
    seed = sorted(
        sorted(map(int, p.split(","))) for p in re.findall(r"\[([\d,]+)\]", SEED_003_FOUR_HEAPS)
    )
    payload = four.ok_json()
    assert payload["positions"] == seed and payload["count"] == len(seed) == 105
    assert two.ok_json()["positions"] == [[1, 1], [2, 2], [3, 3]]  # seed 003: equal pairs
    # seed 003: aesthetic starting positions
    payload = five.ok_json()
    assert (payload["heaps"], payload["total"]) == (5, 30)
    assert payload["positions"] == [[3, 4, 6, 8, 9]]
    payload = nine.ok_json()
    assert payload["total"] == 60
    assert payload["positions"] == [[2, 3, 4, 5, 6, 8, 9, 11, 12], [2, 3, 4, 5, 7, 8, 9, 10, 12]]
    payload = thirteen.ok_json()
    assert payload["total"] == 106
    assert sorted(payload["positions"]) == [
        [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 16, 17],
        [1, 2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 16, 17],
        [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 14, 16, 17],
        [1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 14, 16, 17],
    ]


# ---- Scoring Nim ---------------------------------------------------------------------------


def test_scoring(nimlab: Invoke, tmp_path: Path) -> None:
    plot = tmp_path / "f.svg"
    table = tmp_path / "table.csv"
    calls = [
        ("scoring", "3", "2", "1", "--json"),
        ("scoring", "3", "2", "1", "--N=-7/2", "--json"),
        ("scoring", "3", "2", "1", "--N", "-7/2", "--json"),
        ("scoring", "5", "4", "1", "--json"),
        ("scoring", "5", "4", "2", "--N", "100", "--json"),
        ("scoring", "3", "2", "1", "--N", "0.5", "--plot", str(plot), "--json"),
        ("scoring-table", "--piles", "2", "--max", "3", "--out", str(table), "--json"),
    ]
    plain, glued, spaced, f541, f542, plotted, csv = run_all(nimlab, calls, tmp_path)

    # seed 004, Theorem 6.3 with k = 1: f_N(3,2,1) = F_1(N) = 2 - |N|
    payload = plain.ok_json()
    assert payload["position"] == [3, 2, 1]
    assert payload["breakpoints"] == [["0", "2"]]
    assert (payload["slope_left"], payload["slope_right"]) == (1, -1)
    assert is_int(payload["slope_left"])
    for result in (glued, spaced):
        payload = result.ok_json()
        assert (payload["N"], payload["payoff"]) == ("-7/2", "-3/2")
        assert payload["optimal_moves"] and all(is_position(p) for p in payload["optimal_moves"])
        line = payload["line"]
        assert line[0] == [3, 2, 1] and not any(line[-1]) and all(is_position(p) for p in line)
    # seed 004: f_N(2k+1,2k,1) has 4k-3 breakpoints and is at most 2 (Corollary 6.4)
    payload = f541.ok_json()
    assert len(payload["breakpoints"]) == 5
    assert all(is_exact(n) and is_exact(f) for n, f in payload["breakpoints"])
    assert max(int(f) for _, f in payload["breakpoints"]) == 2
    # seed 004, section 5: for N large, f_N(5,4,2) = -3 + N
    assert f542.ok_json()["payoff"] == "97"
    payload = plotted.ok_json()
    assert (payload["N"], payload["payoff"]) == ("1/2", "3/2")
    assert plot.read_text(encoding="utf-8").lstrip().startswith(("<?xml", "<svg"))
    assert csv.ok_json()["count"] == 6  # the multisets of 2 sizes from 1..3
    assert table.read_text(encoding="utf-8").count("\n") == 7


# ---- imperfect information -----------------------------------------------------------------


def test_solve_every_variant(nimlab: Invoke, tmp_path: Path) -> None:
    efg = tmp_path / "game.efg"
    calls = [
        ("solve", "sn", "3", "3", "1", "--strategy", "--json"),
        ("solve", "sn", "4", "4", "1", "--json"),
        ("solve", "fsn", "1", "1", "1", "--misere", "--json"),
        ("solve", "fsn", "3", "1", "--json"),
        ("solve", "kn", "2", "2", "--json"),
        ("solve", "kn-empty", "2", "2", "--json"),
        ("export-efg", "sn", "2", "2", str(efg), "--json"),
        ("solve", "sn", "3", "3", "1"),
    ]
    sn331, sn441, fsn111, fsn31, kn22, kne22, export, human = run_all(nimlab, calls, tmp_path)

    payload = sn331.ok_json()  # seed 000, Table 1 (n1, 3, 1) and Fig. 2: 1/3
    assert payload["variant"] == "sn" and payload["position"] == [3, 3, 1]
    assert payload["misere"] is False and payload["value"] == "1/3"
    assert payload["exact"] is True
    assert is_int(payload["nodes"]) and is_int(payload["infosets"])
    assert isinstance(payload["seconds"], int | float)
    assert isinstance(payload["strategies"], list) and payload["strategies"]
    assert sn441.ok_json()["value"] == "1/5"  # seed 000, Table 2
    payload = fsn111.ok_json()  # seed 000, Theorem 4.2: all heaps 1, d odd: -1
    assert (payload["value"], payload["misere"]) == ("-1", True)
    assert fsn31.ok_json()["value"] == "1"  # Theorem 4.1: exactly one heap above 1
    assert kn22.ok_json()["value"] == "0"  # Theorem 5.1
    assert kne22.ok_json()["value"] == "0"  # section 5: as Kriegspiel Nim up to two heaps
    for result in (sn441, fsn111, fsn31, kn22, kne22):
        assert result.json()["exact"] is True and "strategies" not in result.json()

    payload = export.ok_json()
    assert payload["position"] == [2, 2] and payload["file"] == str(efg)
    text = efg.read_text(encoding="utf-8")
    assert text.startswith("EFG 2 R")
    assert text.count("\np ") + text.count("\nt ") == payload["nodes"]
    assert human.code == 0 and "1/3" in human.out


# ---- sweeps and the store ------------------------------------------------------------------


def test_sweeps_and_store(nimlab: Invoke, tmp_path: Path) -> None:
    store = str(tmp_path / "sweep.sqlite")
    first = nimlab("sweep", "solve", "sn", "--grid", "1..2,1..2", "--workers", "1", "--json",
                   "--store", store)  # fmt: skip
    payload = first.ok_json()
    # {1,1}, {1,2}, {2,2}: positions are multisets
    assert {k: payload[k] for k in ("total", "computed", "skipped", "failed")} == {
        "total": 3, "computed": 3, "skipped": 0, "failed": 0,
    }  # fmt: skip
    calls = [
        ("sweep", "solve", "sn", "--grid", "1..2,1..2", "--workers", "1", "--json",
         "--store", store),
        ("sweep", "scoring", "--piles", "2", "--max", "3", "--workers", "1", "--json"),
        ("sweep", "grundy", "--codes", "0.07,0.77", "--upto", "30", "--workers", "1", "--json"),
        ("store", "ls", "--store", store, "--json"),
    ]  # fmt: skip
    again, scoring, grundy, listing = run_all(nimlab, calls, tmp_path)
    payload = again.ok_json()
    assert (payload["total"], payload["computed"], payload["skipped"]) == (3, 0, 3)
    payload = scoring.ok_json()
    assert (payload["total"], payload["failed"]) == (6, 0) and is_int(payload["computed"])
    assert grundy.ok_json()["total"] == 2

    results = listing.ok_json()["results"]
    assert len(results) == 3
    assert all(isinstance(r[k], str) for r in results for k in ("spec", "method", "created"))
    shows = run_all(
        nimlab, [("store", "show", r["spec"], "--store", store, "--json") for r in results]
    )
    values = {}
    for shown in shows:
        payload = shown.ok_json()
        assert payload["variant"] == "sn" and is_exact(payload["value"])
        values[tuple(sorted(payload["position"]))] = payload["value"]
    # seed 000: with heaps of at most two chips SN is Nim: L wins iff the nim-sum is not 0
    assert values == {(1, 1): "-1", (1, 2): "1", (2, 2): "-1"}
    default = nimlab("store", "ls", "--json", env={"NIMLAB_STORE": store})
    assert len(default.ok_json()["results"]) == 3  # NIMLAB_STORE sets the default store


# ---- the terminal ----------------------------------------------------------------------------


def test_play_and_tour_end_cleanly(tmp_path: Path) -> None:
    env = {"NIMLAB_STORE": str(tmp_path / "store.sqlite")}
    won = run_nimlab("play", "nim", "1", stdin="1 1\n", env=env, timeout=60)
    assert won.code == 0, won.err
    assert "You win" in won.out
    quit_ = run_nimlab("play", "nim", "3,4,5", "--seed", "1", stdin="hint\n1 2\nquit\n", env=env)
    assert quit_.code == 0, quit_.err
    assert "1,4,5" in quit_.out and "Traceback" not in quit_.err
    ended = run_nimlab("play", "nim", "3,4,5", stdin="", env=env)  # end of input
    assert ended.code == 0, ended.err
    # a hidden-information variant of a catalogue game, played to the end by always choosing
    # the first listed action (typed by its label, which the prompt line lists)
    hidden = run_nimlab(
        "play", "kn", "--game", "subtraction", "2,1", "--max", "2", "--seed", "4",
        stdin="try 1_1\n" * 2 + "try 2_1\n" * 2 + "try 1_2\n" * 2 + "quit\n",
        env=env,
    )  # fmt: skip
    assert hidden.code == 0, hidden.err
    assert "Kriegspiel subtraction(max=2)" in hidden.out and "Traceback" not in hidden.err
    tour = run_nimlab("tour", env=env)
    assert tour.code == 0, tour.err
    assert "nimlab" in tour.out

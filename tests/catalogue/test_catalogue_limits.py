"""Work limits: requests whose real cost is large are refused (exit 3) before they run.

The default budget is about 10 minutes; these tests lower it with ``--limit 1000000`` (one
second of estimated work) so that the jobs that must be refused stay small.
"""

from __future__ import annotations

import time

import pytest

SECOND = ("--limit", "1000000")


@pytest.mark.parametrize(
    "args",
    [
        ("green-hackenbush", "--upto", "10000"),  # ran ~375 s before the estimate was quadratic
        ("wythoff", "--upto", "200000"),  # ~20 s measured
        ("turning-turtles", "--upto", "100000"),
        ("staircase", "--upto", "100000"),
        ("prime-power", "--upto", "200000"),  # ~7 s measured
        ("grundy-game", "--upto", "9000"),  # plain method, about 1.8 s
        ("octal", "--code", "0.137", "--upto", "1000000"),  # periodic, but 10^6 values written
    ],
)
def test_slow_tables_are_refused_quickly(cli, args):
    start = time.process_time()  # processor time: a loaded machine stretches the wall clock
    result = cli("grundy", *args, *SECOND, "--json")
    assert result.code == 3, result.err
    assert "would take about" in result.err and "--limit" in result.err
    assert time.process_time() - start < 5


@pytest.mark.parametrize(
    "args",
    [
        ("green-hackenbush", "--upto", "200"),
        ("wythoff", "--upto", "5000"),
        ("turning-turtles", "--upto", "2000"),
        ("prime-power", "--upto", "2000"),
        ("kayles", "--upto", "2000"),
        ("nim", "--upto", "100000"),
    ],
)
def test_moderate_tables_still_work(cli, args):
    result = cli("grundy", *args, "--json")
    assert result.code == 0, result.err
    assert len(result.json()["values"]) == int(args[-1]) + 1


def test_limit_lifts_the_refusal(cli):
    assert cli("grundy", "green-hackenbush", "--upto", "800", *SECOND, "--json").code == 3
    lifted = cli("grundy", "green-hackenbush", "--upto", "800", "--limit", "2000000", "--json")
    assert lifted.code == 0
    assert lifted.json()["values"][:4] == [0, 1, 0, 1]


def test_analyze_wythoff_table_estimate_is_quadratic(cli):
    # (a+1)(b+1) cells of bitset mex whose bitsets grow with b: over the budget at 0,200000,
    # so the Grundy value is null, while the outcome (a closed form) is answered
    result = cli("analyze", "wythoff", "0,200000", *SECOND, "--json")
    assert result.code == 0, result.err
    assert result.json()["grundy"] is None and result.json()["outcome"] == "N"
    assert cli("analyze", "wythoff", "0,2000", *SECOND, "--json").json()["grundy"] == 2000


@pytest.mark.parametrize(
    "args",
    [
        ("kayles", "60"),  # took 28 s to refuse when only expansions were counted
        ("turning-turtles", "THTHTHTHTHTHTHTHTHTHTHTHTHTHTH"),  # over 60 s before
        ("wythoff", "300,400"),  # 13.7 s before (hundreds of moves per position)
        ("green-hackenbush", "g-a,a-b,b-c,c-d,d-e,e-f,f-g,g-h,h-i,i-j,j-k,k-g,a-c,b-d,c-e,d-f"),
        ("red-blue-hackenbush", ",".join(["BRBRBRBRBRBRBRBRBRBR"] * 4)),  # 21^4 sub-positions
    ],
)
def test_slow_brute_force_is_refused_quickly(cli, args):
    start = time.process_time()  # processor time: a loaded machine stretches the wall clock
    result = cli("analyze", *args, "--brute", *SECOND, "--json")
    assert result.code == 3, result.err
    assert "--limit" in result.err
    assert time.process_time() - start < 5


@pytest.mark.parametrize(
    "args",
    [
        ("kayles", "12"),
        ("wythoff", "20,30"),
        ("twins", "THHTTH"),
        ("green-hackenbush", "g-a,a-b,b-c,c-g,a-c,b-g,c-d"),
        ("red-blue-hackenbush", "BBRB,RRB"),
    ],
)
def test_moderate_brute_force_still_works(cli, args):
    result = cli("analyze", *args, "--brute", "--json")
    assert result.code == 0, result.err
    assert result.json()["method"] == "brute-force"

"""Budgets of every command but ``solve``, the way users meet them: the console script.

Huge inputs are refused at once (exit 3, the estimate and ``--limit`` on stderr); work whose
estimate fits the default budget (about 10 minutes and 8 GB) runs, closed forms always do.
"""

from __future__ import annotations

from typing import Any

import pytest

from nimlab.budget import CLI_BUDGET
from nimlab.catalogue import GameOptions, make_game

HUGE = str(10**30)
MANY = ",".join(str(i) for i in range(1, 20_001))

REFUSED: list[tuple[str, ...]] = [
    ("aesthetic", "--heaps", "200"),
    ("triangles", "--upto", str(10**12)),
    ("trapezoids", "--max", str(10**7)),
    ("lost", "--heaps", "6", "--max", "1000"),
    ("analyze", "turning-turtles", "H" * 100_000),
    ("analyze", "red-blue-hackenbush", ",".join(["BRBRRB" * 3] * 2000)),
    ("analyze", "nim", MANY),
    ("analyze", "grundy-game", f"{HUGE},7"),
    ("analyze", "nimble", MANY),
    ("scoring", "40", "40", "40", "--method", "exact"),  # 30,30,30 took 409 s
    ("scoring", "1000", "1000", "1000"),
    ("grundy", "grundy-game", "--upto", str(10**12)),
    ("grundy", "kayles", "--upto", str(10**12)),
    ("grundy", "nim", "--upto", str(10**12)),
    ("grundy", "staircase", "--upto", str(10**7)),
    ("grundy", "twins", "--upto", str(10**7)),
    ("grundy", "green-hackenbush", "--upto", str(10**6)),
    ("grundy", "prime-power", "--upto", str(10**9)),
]


@pytest.mark.parametrize("args", REFUSED, ids=lambda a: " ".join(a)[:50])
def test_huge_input_is_refused_at_once(nimlab: Any, args: tuple[str, ...]) -> None:
    run = nimlab(*args, "--json", timeout=60)
    message = run.refused(3)
    assert "would take about" in message
    assert ("--max-cells" if args[0] == "scoring" else "--limit") in message
    assert run.cpu < 5  # processor time: load stretches the wall clock, not the work


def test_sparse_engine_estimate_refuses_after_its_pilot(nimlab: Any) -> None:
    """The sparse engine's estimate computes 16,383 values first (numba compiles): the
    refusal comes in a few seconds, not at once (slower on a loaded machine)."""
    run = nimlab("grundy", "octal", "--code", "0.106", "--upto", str(10**7), "--json")
    assert "--limit" in run.refused(3)
    assert run.cpu < 20  # processor time: load stretches the wall clock, not the work


def test_negative_limit_is_bad_input(nimlab: Any) -> None:
    assert "--limit" in nimlab("grundy", "kayles", "--upto", "10", "--limit", "-1").refused(2)
    assert "--limit" in nimlab("aesthetic", "--heaps", "5", "--limit", "-5").refused(2)


def test_limit_lifts_the_budget(nimlab: Any) -> None:
    args = ("grundy", "staircase", "--upto", "20000", "--json")
    assert nimlab(*args).ok_json()["values"][:4] == [0, 1, 0, 1]
    assert "--limit" in nimlab(*args, "--limit", "1000").refused(3)


def test_grundy_game_to_200000_runs_with_the_default(nimlab: Any) -> None:
    payload = nimlab("grundy", "grundy-game", "--upto", "200000", "--json", env=NO_STORE).ok_json()
    assert len(payload["values"]) == 200_001
    assert payload["values"][:10] == [0, 0, 0, 1, 0, 2, 1, 0, 2, 1]


def test_octal_record_tables_run_with_the_default(nimlab: Any) -> None:
    for code, upto in (("0.56", "100000"), ("0.127", "30000")):
        run = nimlab("grundy", "octal", "--code", code, "--upto", upto, "--json", env=NO_STORE)
        payload = run.ok_json()
        assert len(payload["values"]) == int(upto) + 1


NO_STORE = {"NIMLAB_STORE": ""}


def test_periodic_table_is_extended_by_its_period(nimlab: Any) -> None:
    """Kayles' period (12, from 71) is proven from 1,024 values: a million values are a
    closed form (the sparse engine would take minutes: 61 s for 400,000)."""
    run = nimlab("grundy", "kayles", "--upto", "1000000", "--json", env=NO_STORE, timeout=60)
    payload = run.ok_json()
    assert (payload["period"], payload["preperiod"]) == (12, 71)
    values = payload["values"]
    assert values[:13] == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
    assert values[1_000_000] == values[71 + (1_000_000 - 71) % 12]
    assert run.cpu < 30  # processor time: load stretches the wall clock, not the work


def test_wythoff_outcome_is_a_closed_form(nimlab: Any) -> None:
    payload = nimlab("analyze", "wythoff", "1000000,1618034", "--json").ok_json()
    assert payload["outcome"] == "P" and payload["grundy"] is None
    hot = nimlab("analyze", "wythoff", f"{HUGE},{HUGE}", "--json").ok_json()
    assert hot["outcome"] == "N" and hot["winning_moves"] == [
        {"to": "0,0", "move": "both piles: take " + HUGE}
    ]


def test_closed_forms_of_huge_positions_answer(nimlab: Any) -> None:
    for game, position in (("nim", f"{HUGE},{HUGE},7"), ("kayles", f"{HUGE},7")):
        assert nimlab("analyze", game, position, "--json").ok_json()["outcome"] == "N"
    # a P-position has no winning moves to write: 20,000 coins are answered at once
    evens = ",".join(str(2 * i) for i in range(1, 20_001))
    assert nimlab("analyze", "silver-dollar", evens, "--json").ok_json()["outcome"] == "P"


def test_scoring_refuses_numbers_too_long_to_build(nimlab: Any) -> None:
    for bonus in ("1e999999999", "1e99999"):
        run = nimlab("scoring", "3", "4", "--N", bonus, "--json", timeout=60)
        assert "too long" in run.refused(2)
        assert run.cpu < 5  # processor time: load stretches the wall clock, not the work


def test_grundy_game_record_is_within_the_default_budget() -> None:
    cost = make_game("grundy-game").sequence_cost(2**21 - 1)
    assert CLI_BUDGET.allows(cost)
    for code, upto in (("0.56", 700_000), ("0.127", 100_000)):
        assert CLI_BUDGET.allows(make_game("octal", GameOptions(code=code)).sequence_cost(upto))


def test_quadratic_engine_is_over_the_default_budget() -> None:
    """0.106 has about n/2 rare values: its sparse engine is quadratic (2.5 s at 65,535)."""
    cost = make_game("octal", GameOptions(code="0.106")).sequence_cost(10**6)
    assert not CLI_BUDGET.allows(cost)
    assert cost.seconds > 10 * 2.5 * (10**6 / 65_536)

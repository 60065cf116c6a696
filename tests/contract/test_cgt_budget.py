"""``nimlab cgt``: a sum of hot games is refused by the estimate of what its value costs (the
thermograph, the text) before the cost is paid; an unrefused sum of 15 such games grew past
22 GB and was killed by the kernel (issue 44)."""

from __future__ import annotations

from typing import Any

import pytest

from nimlab.cgt import parse_game
from nimlab.cli.cgt import cgt_payload, value_cost
from nimlab.errors import TooLargeError


def _hot_sum(n: int) -> str:
    return " + ".join(f"{{{i}|{{{i}|{{{i}|-{i + 1}}}}}}}" for i in range(1, n + 1))


def test_the_text_estimate_is_the_length_written() -> None:
    g = parse_game(_hot_sum(4))
    _, _, text, _ = value_cost(g)
    assert text == f"writing a value of {len(str(g)):,} characters"


def test_a_sum_whose_thermograph_is_over_the_budget_is_refused_before_it_is_drawn() -> None:
    with pytest.raises(TooLargeError, match="thermograph of a game with 3,120 subpositions"):
        # 0.5 s: the sums pass (0.37 s at most), not the thermograph (0.9 s)
        cgt_payload(_hot_sum(5), limit=500_000)


def test_the_console_script_refuses_a_large_sum_with_exit_3(nimlab: Any) -> None:
    run = nimlab("cgt", _hot_sum(5), "--limit", "500000", "--json")
    assert run.code == 3 and run.out == ""
    assert run.err.startswith("error: the thermograph of a game with 3,120 subpositions")
    assert "--limit" in run.err and run.err.count("\n") == 1

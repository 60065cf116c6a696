"""Partial misère quotients against Siegel's MisereSolver: |Q_n| and |P_n| at every heap where
they change, and Φ up to renaming the elements, as MisereSolver reported them (oracles below,
never run here)."""

from __future__ import annotations

from functools import cache

import pytest

from nimlab.quotients import MisereQuotient, misere_quotient

# MisereSolver (CGSuite, github.com/aaron-siegel/cgsuite, lib/core/src/main/scala/org/cgsuite/
# core/misere/solver, built from the snapshot of 2026-11-29 with the octal-code stub described
# in BENCHMARKS.md, "Misère quotients"), run by benchmarks/msv/Settle.java: the heaps n >= 1 at
# which |Q_n| or |P_n| changed, as "n: (|Q_n|, |P_n|)" up to the last heap listed. Dawson's
# Kayles 0.07 goes on to order 360 at heap 30 (Plambeck and Siegel; tests/misere/
# test_misere_dawson.py).
MISERE_SOLVER_ORDERS = {
    "0.07": {2: (2, 1), 4: (6, 2), 10: (12, 3), 14: (24, 5), 25: (144, 23)},
    "0.137": {1: (2, 1), 3: (6, 2), 9: (12, 3), 13: (24, 5), 24: (144, 23)},
    "0.6": {2: (2, 1), 3: (6, 2), 7: (12, 3), 11: (24, 5), 12: (48, 7), 15: (96, 12),
            16: (304, 38)},
    "0.16": {1: (2, 1), 5: (6, 2), 8: (10, 2), 12: (36, 6), 13: (44, 8), 14: (88, 14),
             15: (124, 19), 16: (154, 27)},
    "4.7": {1: (2, 1), 2: (6, 2), 5: (8, 2), 8: (12, 3), 9: (18, 4), 10: (22, 5), 11: (28, 6),
            12: (34, 8), 13: (42, 9), 14: (50, 12), 15: (60, 13), 16: (70, 17)},
    "0.35": {1: (2, 1), 2: (6, 2), 4: (14, 4), 6: (38, 9), 7: (70, 17), 8: (106, 26)},
    "0.45": {2: (2, 1), 4: (6, 2), 9: (12, 3), 10: (28, 5), 15: (32, 6), 16: (74, 14),
             19: (106, 17), 20: (162, 25)},
    "0.54": {1: (2, 1), 4: (6, 2), 7: (10, 2), 10: (12, 2), 14: (30, 5), 17: (42, 8),
             21: (48, 9), 24: (64, 13), 28: (70, 14), 31: (90, 19)},
    "0.26": {2: (2, 1), 3: (6, 2), 9: (8, 2), 11: (12, 3), 13: (18, 4), 15: (24, 6),
             17: (32, 7), 19: (40, 10), 21: (50, 11), 23: (60, 15), 25: (72, 16)},
}  # fmt: skip

# MisereSolver's pretending function at the last heap listed above (its element numbers:
# equal numbers, equal elements), the same run.
MISERE_SOLVER_PHI = {
    "0.35": [0, 1, 10, 14, 4, 2, 30, 54, 82],
    "0.6": [0, 0, 1, 4, 0, 1, 4, 2, 1, 4, 2, 12, 24, 2, 12, 48, 120],
    "0.26": [0, 0, 1, 40, 41, 0, 1, 40, 41, 64, 65, 68, 51, 66, 61, 20, 19, 28, 27, 36, 35, 70,
             63, 30, 17, 38],
}  # fmt: skip


@cache
def _quotient(code: str, upto: int) -> MisereQuotient:
    return misere_quotient(code, upto)


def _renamed(phi: list[int] | tuple[int, ...]) -> list[int]:
    """Φ up to renaming: each heap's first heap with the same element."""
    first: dict[int, int] = {}
    return [first.setdefault(x, n) for n, x in enumerate(phi)]


@pytest.mark.parametrize("code", sorted(MISERE_SOLVER_ORDERS))
def test_orders_where_they_change(code: str) -> None:
    expected = MISERE_SOLVER_ORDERS[code]
    top = max(expected)
    quotient = _quotient(code, top)
    assert quotient.certified_to == top and len(quotient.orders) == top + 1
    pairs = list(zip(quotient.orders, quotient.p_orders, strict=True))
    changes = {n: pairs[n] for n in range(1, top + 1) if pairs[n] != pairs[n - 1]}
    assert changes == expected
    assert (quotient.order, quotient.p_order) == expected[top]


@pytest.mark.parametrize("code", sorted(MISERE_SOLVER_PHI))
def test_pretending_function_up_to_renaming(code: str) -> None:
    theirs = MISERE_SOLVER_PHI[code]
    quotient = _quotient(code, len(theirs) - 1)
    assert _renamed(quotient.phi) == _renamed(theirs)


def test_renaming_distinguishes() -> None:
    # the comparison can fail: two different partitions of the heaps
    assert _renamed([0, 1, 1, 5]) == _renamed([3, 2, 2, 9])
    assert _renamed([0, 1, 1, 5]) != _renamed([0, 1, 2, 5])

"""The incremental period check of misère quotients agrees with ``find_period`` at every heap,
across expansions (elements renumbered), and the octal step on arrays with the generic one."""

from __future__ import annotations

import pytest

from nimlab.octal import OctalCode, find_period
from nimlab.quotients import QuotientSolver
from nimlab.quotients import solver as solver_module
from nimlab.quotients.quotient import PeriodWatch


@pytest.mark.parametrize(("code", "upto"), [("0.77", 170), ("0.12", 60), ("0.07", 24), ("4.7", 14)])
def test_watch_is_find_period_at_every_heap(code: str, upto: int) -> None:
    parsed = OctalCode.parse(code)
    solver = QuotientSolver.for_code(parsed)
    watch = PeriodWatch(parsed)
    seen = 0
    while solver.upto < upto:
        assert watch.update(solver) == find_period(parsed, solver.phi), solver.upto
        seen += watch.update(solver) is not None
        solver.extend(solver.upto + 1)
    if code == "0.77":  # Kayles's quotient settles at heap 167 (period 12, preperiod 71)
        assert seen > 0


@pytest.mark.parametrize(("code", "upto"), [("0.56", 60), ("0.77", 40), ("0.07", 20), ("4.7", 12)])
@pytest.mark.parametrize("compiled_from", [2, 10**9])
def test_octal_step_is_generic_step(
    code: str, upto: int, compiled_from: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the transitions compiled from heap 2 on (numba), or on arrays (numpy) throughout
    monkeypatch.setattr(solver_module, "_COMPILED_HEAP", compiled_from)
    parsed = OctalCode.parse(code)
    fast = QuotientSolver.for_code(parsed)
    generic = QuotientSolver(lambda n: list(parsed.heap_options(n)), name=code)
    assert fast._octal is not None and generic._octal is None
    fast.extend(upto)
    generic.extend(upto)
    assert fast.phi == generic.phi
    assert fast.orders == generic.orders and fast.p_orders == generic.p_orders
    assert fast.expansions == generic.expansions

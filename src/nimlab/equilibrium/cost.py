"""What the solver's methods cost, in seconds and bytes, by formulas fitted to measured runs.

``seconds = a * n**b`` and ``bytes = c * n**d`` over a tree's nodes ``n``, per family of
nimlab's hidden games and per method (``lp``: the whole tree's LP; ``restricted``: restricted
games grown until their bounds meet), plus the beliefs' work the tree builder did
(:mod:`nimlab.hidden.budget` estimates nodes and work before any is done).

>>> cost = fitted_cost(FITS["kn", "lp"], 1000, 0.0)
>>> cost.seconds < 1, cost.bytes > BASE_BYTES
(True, True)
"""

from __future__ import annotations

from nimlab.budget import Cost

__all__ = ["BASE_BYTES", "FITS", "WORK_BYTES", "WORK_SECONDS", "fitted_cost"]

# Fitted constants (see BENCHMARKS.md, "Budgets of solve"; printed by
# benchmarks/calibrate_solve_budget.py --fit): per family of variants and per method,
# seconds = a * n**b and bytes = c * n**d over the parts' estimated nodes n (the whole LP: one
# slope for all families, and its bytes slope 1, its memory being its tree's; restricted
# games: a line per family raised to the envelope of its runs as estimate_solve adds up
# the parts; both refitted 2026-11-27); the beliefs' work per heap vector scanned; the
# interpreter with numpy, scipy and HiGHS. SN(9,9,1) and SN(10,10,1) were measured again
# afterwards, slower with a new HiGHS solver per round: the line still covers the first, and
# BEYOND's floor the second (a refit with them put SN(9,9,1) at 1,108 s; BENCHMARKS.md).
# Kriegspiel's line was refitted alone after its LPs went afresh by the interior point method
# (session 16), with KN(4,3,2) and KN(3,3,3) among its runs: an envelope, loose on two heaps
# (KN(6,4): 427 s estimated, 30 s measured), tight on three. The whole LP's lines keep their
# shared slope, each raised to the envelope of its family's runs (session 17): the least-squares
# lines had put KN(3,3,2) at 11.3 s against 51.7 s measured and SN(8,8,1) at 1.7 GB against 4.1.
# Session 23: Schrödinger Nim's restricted line refitted on the runs of the fewest-new replies
# below BEYOND's first anchor (the runs past it are the floor's), Kriegspiel's with KN(5,3,2).
FITS: dict[tuple[str, str], tuple[float, float, float, float]] = {
    ("fsn", "lp"): (2.341e-06, 1.2292, 1418, 1.0000),
    ("fsn", "restricted"): (1.486e-06, 1.1165, 84.26, 1.0330),
    ("kn", "lp"): (2.485e-06, 1.2292, 171.3, 1.0000),
    ("kn", "restricted"): (3.272e-05, 0.9789, 2187, 0.7646),
    ("sn", "lp"): (1.111e-06, 1.2292, 1642, 1.0000),
    ("sn", "restricted"): (6.697e-02, 0.2793, 1.293e05, 0.4363),
}
BASE_BYTES = 60e6
WORK_SECONDS = 1.0e-5
WORK_BYTES = 225.0


def fitted_cost(fit: tuple[float, float, float, float], nodes: int, work: float) -> Cost:
    """The fitted cost of one part: ``nodes`` estimated, ``work`` heap vectors scanned."""
    n = min(float(nodes), 1e150)  # far beyond any budget, and n**b stays a float
    a, b, c, d = fit
    seconds = a * n**b + WORK_SECONDS * work
    size = c * n**d + WORK_BYTES * work + BASE_BYTES
    return Cost(seconds, int(min(size, 2.0**62)))

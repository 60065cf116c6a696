"""The vectorised rounding of LP plans equals its scalar twin, on real LP optima and noise."""

from __future__ import annotations

import numpy as np
import pytest

from nimlab.equilibrium.certify import behaviour_from_plan
from nimlab.equilibrium.lp import solve_lp
from nimlab.equilibrium.seqform import sequence_form
from nimlab.hidden.tree import build_tree


@pytest.mark.parametrize(
    ("variant", "heaps"), [("sn", (3, 3, 1)), ("sn", (4, 3, 1)), ("fsn", (3, 2, 1)), ("kn", (2, 2))]
)
@pytest.mark.parametrize("denominator", [None, 1, 100, 10_000])
@pytest.mark.parametrize("tolerance", [None, 1e-7, 0.3])
def test_vectorised_rounding_matches_scalar_loop(
    variant: str, heaps: tuple[int, ...], denominator: int | None, tolerance: float | None
) -> None:
    tree = build_tree(variant, heaps)
    lp = solve_lp(sequence_form(tree))
    rng = np.random.default_rng(len(heaps) + sum(heaps))
    for player, plan in ((0, lp.x), (1, lp.y)):
        noisy = plan + rng.normal(0.0, 1e-3, len(plan)) * (rng.random(len(plan)) < 0.3)
        for candidate in (plan, noisy, np.zeros(len(plan))):
            fast = behaviour_from_plan(tree, player, candidate, denominator, tolerance=tolerance)
            slow = behaviour_from_plan(
                tree, player, candidate.tolist(), denominator, tolerance=tolerance
            )
            assert fast == slow

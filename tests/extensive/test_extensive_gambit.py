"""Our ``.efg`` export loads in Gambit and Gambit's own solvers find our exact value."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from nimlab.hidden.efg import write_efg
from nimlab.hidden.solve import solve

GAMES = [("sn", (2, 1)), ("sn", (3, 2)), ("sn", (2, 2)), ("fsn", (2, 1)), ("kn", (2, 2))]


@pytest.mark.parametrize(("variant", "heaps"), GAMES, ids=str)
def test_gambit_agrees(tmp_path: Path, variant: str, heaps: tuple[int, ...]) -> None:
    gbt = pytest.importorskip("pygambit")
    path = tmp_path / "game.efg"
    write_efg(variant, heaps, path, max_nodes=10_000)
    game = gbt.read_efg(str(path))
    first = next(iter(game.players))
    ours = solve(variant, heaps, prune_forced=False)
    assert ours.exact
    # Gambit's sequence-form LCP in rationals
    profile = gbt.nash.lcp_solve(game, rational=True).equilibria[0]
    assert Fraction(str(profile.payoff(first))) == ours.value
    # Gambit's sequence-form LP in rationals; on SN(2,2) (value -1) pygambit 16.7 returns a
    # profile with an all-zero root distribution (payoff 0), so only compare valid profiles.
    profile = gbt.nash.lp_solve(game, rational=True).equilibria[0]
    root = [profile[action] for action in game.root.infoset.actions]
    if sum(root) == 1:
        assert Fraction(str(profile.payoff(first))) == ours.value

"""Every reduction of the builder's registry (``nimlab.hidden.reductions``) over every
variant of the variant registry: where it declares itself valid, leaving it out of a build
changes no value (it is harmless) and never shrinks the tree; where it does not, leaving it
out changes nothing at all (the builder does not apply it). A new reduction or variant is
tested here without a new test."""

from __future__ import annotations

import pytest

from nimlab.hidden.games import hidden_game
from nimlab.hidden.reductions import REDUCTIONS, applicable
from nimlab.hidden.solve import solve_tree
from nimlab.hidden.tree import build_tree
from nimlab.hidden.variants import VARIANTS, variant_rules

POSITIONS = [(2, 1), (2, 2), (3, 2), (2, 2, 1), (3, 2, 1), (3, 3, 1), (4, 2, 1)]


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("name", list(REDUCTIONS))
def test_a_reduction_is_harmless_where_valid_and_inert_elsewhere(
    name: str, variant: str, misere: bool
) -> None:
    valid = REDUCTIONS[name].valid_for(variant_rules(variant))
    for heaps in POSITIONS:
        if variant.startswith("kn") and sum(heaps) > 6:
            continue  # Kriegspiel trees grow fastest
        reduced = build_tree(variant, heaps, misere=misere)
        unreduced = build_tree(variant, heaps, misere=misere, without=frozenset({name}))
        if not valid:
            assert (reduced.nodes, reduced.infoset_count) == (
                unreduced.nodes,
                unreduced.infoset_count,
            )
            continue
        assert reduced.nodes <= unreduced.nodes
        with_it, without_it = solve_tree(reduced), solve_tree(unreduced)
        assert with_it.exact and without_it.exact
        assert with_it.value == without_it.value, heaps


def test_every_reduction_cuts_some_tree_of_a_variant_it_declares() -> None:
    """A declared reduction that never applies would be proven harmless by doing nothing."""
    for name, reduction in REDUCTIONS.items():
        declared = [v for v in VARIANTS if reduction.valid_for(variant_rules(v))]
        assert declared, name
        cut = [
            heaps
            for v in declared
            for heaps in POSITIONS[:6]
            if build_tree(v, heaps).nodes < build_tree(v, heaps, without=frozenset({name})).nodes
        ]
        assert cut, name


@pytest.mark.parametrize("game", ["subtraction", "kayles", "grundy-game", "red-blue-hackenbush"])
def test_no_reduction_is_declared_for_games_other_than_nim(game: str) -> None:
    from nimlab.catalogue.base import GameOptions

    options = GameOptions(max_take=2) if game == "subtraction" else None
    for variant in ("sn", "kn"):
        assert applicable(hidden_game(variant, game, options).rules) == frozenset()


def test_unknown_reductions_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown reductions"):
        build_tree("sn", (2, 1), without=frozenset({"magic"}))

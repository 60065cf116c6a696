"""The reduced trees of :mod:`nimlab.extensive.collapse` against the whole trees they stand for."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.extensive.certify import best_response_value, realisation_plan
from nimlab.extensive.collapse import Collapse
from nimlab.extensive.lp import solve_lp
from nimlab.extensive.seqform import sequence_form
from tests.extensive.grown import allow_at_random, grow_at_random


def _random_behaviour(tree: Any, player: int, rng: random.Random) -> list[tuple[Fraction, ...]]:
    """Random rational action probabilities at ``player``'s information sets (zeros too)."""
    behaviour: list[tuple[Fraction, ...]] = []
    for info in tree.infosets:
        if info.player != player:
            behaviour.append(())
            continue
        weights = [rng.choice([0, 1, 2, 5]) for _ in info.actions]
        weights[rng.randrange(len(weights))] += 1
        total = sum(weights)
        behaviour.append(tuple(Fraction(w, total) for w in weights))
    return behaviour


@given(
    case=st.sampled_from(
        [("sn", (4, 3, 1)), ("sn", (3, 3, 2)), ("kn", (3, 2)), ("fsn", (3, 2, 1))]
    ),
    held=st.sampled_from([0, 1]),
    seed=st.integers(0, 10_000),
    rounds=st.integers(0, 3),
)
@settings(max_examples=30, deadline=None)
def test_a_reduced_tree_is_worth_what_the_whole_tree_is(
    case: tuple[str, tuple[int, ...]], held: int, seed: int, rounds: int
) -> None:
    """Round after round of a growing restricted tree, its reduced tree has the same LP value;
    the free player's best response to any plan of the held player is worth the same in both
    (the held player's sequences are the same); a plan of the free player in the reduced tree,
    expanded, is a plan of the whole tree against which the held player's best response is
    worth the same; and every information set kept keeps its index."""
    variant, heaps = case
    free = 1 - held
    rng = random.Random(seed)
    builder, rule = grow_at_random(variant, heaps, held, seed, 0)
    collapse = Collapse(player=free)
    named: dict[int, tuple[int, int]] = {}
    for number in range(rounds + 1):
        if number:
            allow_at_random(builder, rule, held, rng)
            builder.grow()
        tree = builder.tree
        reduced = collapse.reduce(tree)
        assert (
            abs(solve_lp(sequence_form(tree)).value - solve_lp(sequence_form(reduced)).value) < 1e-9
        )
        held_plan = realisation_plan(tree, held, _random_behaviour(tree, held, rng))
        assert best_response_value(tree, free, held_plan) == best_response_value(
            reduced, free, held_plan
        )
        free_plan = realisation_plan(reduced, free, _random_behaviour(reduced, free, rng))
        expanded = collapse.expand(np.array(free_plan, dtype=object)).tolist()
        form = sequence_form(tree)
        constraints = (form.E if free == 0 else form.F).tocoo()
        sums = [Fraction(0)] * constraints.shape[0]
        for row, col, entry in zip(constraints.row, constraints.col, constraints.data, strict=True):
            sums[row] += int(entry) * expanded[col]
        assert sums == [1] + [0] * (len(sums) - 1)  # a realisation plan of the whole tree
        assert best_response_value(tree, held, expanded) == best_response_value(
            reduced, held, free_plan
        )
        for index, info in enumerate(reduced.infosets):
            key = (info.player, info.hist)
            assert named.setdefault(index, key) == key

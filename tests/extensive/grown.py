"""Restricted trees grown round by round with random actions allowed, shared by the tests of
growing trees, their LPs and their reductions."""

from __future__ import annotations

from typing import Any

from nimlab.hidden.restrict import Restriction


def grow_at_random(
    variant: str, heaps: tuple[int, ...], held: int, seed: int, rounds: int
) -> tuple[Any, Restriction]:
    """A tree of ``variant`` with ``held`` restricted, grown ``rounds`` times, each time after
    allowing random actions at random information sets of the held player."""
    import random

    from nimlab.hidden.tree import growing_tree

    rng = random.Random(seed)
    rule = Restriction()
    builder = growing_tree(variant, heaps, held, rule)
    for _ in range(rounds):
        allow_at_random(builder, rule, held, rng)
        builder.grow()
    return builder, rule


def allow_at_random(builder: Any, rule: Restriction, held: int, rng: Any) -> None:
    """Allow one random action at about 30% of the held player's information sets."""
    tree = builder.tree
    for info in list(tree.infosets):
        if info.player == held and rng.random() < 0.3:
            full = builder.actions_of(held, info.belief, info.pending)
            history = tree.history_ids[held][info.hist]
            rule.allow(history, rng.choice(full), info.belief, info.pending)

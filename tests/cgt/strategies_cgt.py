"""Random short games, and plain game-tree search over their options (no canonical forms)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from hypothesis import strategies as st

from nimlab.cgt import Game, game, number, star

__all__ = ["games", "left_first_wins", "minimax_outcome", "pair_outcome", "right_first_wins"]

_LEAVES = [number(Fraction(k, 2)) for k in range(-4, 5)] + [star(1), star(2)]


def _node(children: st.SearchStrategy[Game]) -> st.SearchStrategy[Game]:
    side = st.lists(children, max_size=3)
    return st.tuples(side, side).map(lambda lr: game(lr[0], lr[1]))


#: Short games of birthday up to about 4, built from numbers and nimbers by options.
games: st.SearchStrategy[Game] = st.recursive(st.sampled_from(_LEAVES), _node, max_leaves=8)


@cache
def left_first_wins(g: Game) -> bool:
    """Left, moving first in g, wins: plain minimax over the options."""
    return any(not right_first_wins(o) for o in g.left)


@cache
def right_first_wins(g: Game) -> bool:
    """Right, moving first in g, wins."""
    return any(not left_first_wins(o) for o in g.right)


def minimax_outcome(g: Game) -> str:
    """L, R, N or P by plain search."""
    left, right = left_first_wins(g), right_first_wins(g)
    return {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}[
        (left, right)
    ]


@cache
def _pair_first(g: Game, h: Game, left: bool) -> bool:
    """The mover wins moving first in the (unreduced) disjunctive sum g + h."""
    if left:
        return any(not _pair_first(o, h, False) for o in g.left) or any(
            not _pair_first(g, o, False) for o in h.left
        )
    return any(not _pair_first(o, h, True) for o in g.right) or any(
        not _pair_first(g, o, True) for o in h.right
    )


def pair_outcome(g: Game, h: Game) -> str:
    """The outcome of g + h by search over pairs of options (no sum is formed)."""
    left, right = _pair_first(g, h, True), _pair_first(g, h, False)
    return {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}[
        (left, right)
    ]

"""A two-player zero-sum game's sequence-form ingredients in flat arrays, no object per node.

:class:`FlatEfg` is what :class:`~nimlab.equilibrium.efg_read.ZeroSumEfg` says, but with
its terminals as columns: per terminal, both players' sequences and the integer
``chance * payoff`` to player 1 (the first player) times one common ``payoff_scale``, the
terminals worth 0 left out. Walkers that visit hundreds of thousands of histories
(:func:`nimlab.openspiel.walk.walk`) fill these arrays directly;
:func:`~nimlab.equilibrium.efg_solve.solve_efg` solves either form.

:func:`worth_table` turns the distinct (chance probability, payoff) pairs of a walk into
integers with one scale:

>>> from fractions import Fraction as F
>>> worth_table([(F(1, 3), F(2)), (F(1, 6), F(-1)), (F(1, 2), F(0))])
([4, -1, 0], 6)
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from nimlab.equilibrium.efg_read import EfgInfoset

__all__ = ["FlatEfg", "worth_table"]


@dataclass(frozen=True)
class FlatEfg:
    """A two-player zero-sum game with perfect recall, its terminals as arrays.

    ``infosets`` are parents first; the sequences of ``infosets[i]`` are
    ``first_sequence + a`` of its player, sequence 0 being the empty one, and
    ``sequence_counts[p]`` counts player ``p``'s, the empty one included. Terminal ``t`` is
    reached by sequences ``term_seq[0][t]`` and ``term_seq[1][t]`` and is worth
    ``term_payoff[t] / payoff_scale`` to player 1 (chance probability included, payoffs
    shifted by ``shift`` as in :class:`~nimlab.equilibrium.efg_read.ZeroSumEfg`); terminals
    worth 0 are left out. ``nodes`` counts every node of the game.
    """

    title: str
    players: tuple[str, str]
    shift: Fraction
    infosets: tuple[EfgInfoset, ...]
    sequence_counts: tuple[int, int]
    term_seq: tuple[array[int], array[int]]
    term_payoff: array[int] | list[int]
    payoff_scale: int
    nodes: int


def worth_table(pairs: Sequence[tuple[Fraction, Fraction]]) -> tuple[list[int], int]:
    """``chance * payoff`` of each pair, as integers over one positive ``scale`` (the least
    common multiple of their denominators)."""
    worth = [c * u for c, u in pairs]
    scale = lcm(*(w.denominator for w in worth))
    return [w.numerator * (scale // w.denominator) for w in worth], scale

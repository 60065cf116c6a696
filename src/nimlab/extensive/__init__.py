"""Imperfect-information Nim: extensive-form trees, sequence-form LP, exact certificates.

>>> from nimlab.extensive import solve
>>> solve("sn", (3, 3, 1)).value
Fraction(1, 3)
"""

from nimlab.extensive.gametree import GameTree
from nimlab.extensive.results import EquilibriumResult, StrategyEntry
from nimlab.extensive.solve import solve, solve_tree
from nimlab.extensive.tree import build_tree
from nimlab.extensive.variants import VARIANTS, variant_rules

__all__ = [
    "VARIANTS",
    "EquilibriumResult",
    "GameTree",
    "StrategyEntry",
    "build_tree",
    "solve",
    "solve_tree",
    "variant_rules",
]

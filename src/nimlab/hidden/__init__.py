"""Hidden-information games made from combinatorial ones (Schrödinger, fuzzy and Kriegspiel
rules as transforms of components), their trees, budgets and exact values.

>>> from nimlab.hidden import solve
>>> solve("sn", (3, 3, 1)).value
Fraction(1, 3)

Catalogue games' hidden versions: :mod:`nimlab.hidden.games` (imported by name).
"""

from nimlab.hidden.solve import solve, solve_tree
from nimlab.hidden.tree import build_tree
from nimlab.hidden.variants import VARIANTS, variant_rules

__all__ = [
    "VARIANTS",
    "build_tree",
    "solve",
    "solve_tree",
    "variant_rules",
]

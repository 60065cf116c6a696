"""Exact equilibria of two-player zero-sum extensive-form games, whatever the game: the tree and
its cursor, the sequence-form LP (warm-started), exact lifting and certificates, ``.efg`` files.

>>> from nimlab.equilibrium.efg_read import parse_efg, to_zero_sum
>>> from nimlab.equilibrium.efg_solve import solve_efg
>>> game = to_zero_sum(parse_efg('EFG 2 R "" { "1" "2" }\\np "" 1 1 "" { "a" "b" } 0\\n'
...     't "" 1 "" { 1, -1 }\\nt "" 2 "" { -1, 1 }\\n'))
>>> solve_efg(game).value
Fraction(1, 1)

Its ``.efg`` modules (``efg_read``, ``efg_solve``, ``efg_write``) and the cursor are imported
by name, as the command line does, so that importing the package stays light.
"""

from nimlab.equilibrium.certify import Certificate, certify_lp
from nimlab.equilibrium.gametree import GameTree
from nimlab.equilibrium.lp import solve_lp
from nimlab.equilibrium.results import EquilibriumResult, StrategyEntry
from nimlab.equilibrium.seqform import SequenceForm, sequence_form

__all__ = [
    "Certificate",
    "EquilibriumResult",
    "GameTree",
    "SequenceForm",
    "StrategyEntry",
    "certify_lp",
    "sequence_form",
    "solve_lp",
]

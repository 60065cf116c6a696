"""Sprague-Grundy values by search: mex and the memoised engine."""

from nimlab.grundy.engine import GrundySolver, grundy_value, outcome, winning_moves
from nimlab.grundy.mex import mex

__all__ = ["GrundySolver", "grundy_value", "mex", "outcome", "winning_moves"]

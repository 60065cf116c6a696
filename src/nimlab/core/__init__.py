"""Games as rules: the impartial-game protocol, outcomes, and game transforms."""

from nimlab.core.game import ImpartialGame, MoveFunctionGame, Outcome
from nimlab.core.heaps import Heaps, format_heaps, parse_heaps
from nimlab.core.transforms import MisereGame, SumGame, disjunctive_sum, is_misere, misere

__all__ = [
    "Heaps",
    "ImpartialGame",
    "MisereGame",
    "MoveFunctionGame",
    "Outcome",
    "SumGame",
    "disjunctive_sum",
    "format_heaps",
    "is_misere",
    "misere",
    "parse_heaps",
]

"""nimlab: a laboratory for Nim and its variants, computed exactly.

>>> from nimlab import analyze_nim, nim_product
>>> analyze_nim([3, 4, 5]).winning_moves
(NimMove(heap=0, from_=3, to=1),)
>>> nim_product(2, 3)
1

The entry points of the other subpackages (imported on first call, so ``import nimlab`` stays
fast): :func:`solve` (imperfect-information Nim), :func:`payoff_function` (Scoring Nim),
:func:`analyze` and :func:`find_game` (the game catalogue).

>>> from nimlab import analyze, solve
>>> str(solve("sn", [3, 3, 1]).value), analyze("wythoff", [3, 5]).outcome.value
('1/3', 'P')
"""

from nimlab.api import analyze, find_game, payoff_function, solve
from nimlab.core import (
    ImpartialGame,
    MisereGame,
    MoveFunctionGame,
    Outcome,
    SumGame,
    disjunctive_sum,
    is_misere,
    misere,
)
from nimlab.errors import (
    InvalidPositionError,
    LoopyGameError,
    NimlabError,
    NoSuchPositionError,
    TooLargeError,
    UnknownGameError,
)
from nimlab.grundy import GrundySolver, grundy_value, mex, outcome, winning_moves
from nimlab.nim import (
    NimAnalysis,
    NimMove,
    aesthetic_positions,
    analyze_nim,
    lost_positions,
    lost_trapezoids,
    lost_triangles,
)
from nimlab.nimbers import nim_inverse, nim_power, nim_product, nim_sqrt, nim_sum, nim_table

__version__ = "0.5.0"

__all__ = [
    "GrundySolver",
    "ImpartialGame",
    "InvalidPositionError",
    "LoopyGameError",
    "MisereGame",
    "MoveFunctionGame",
    "NimAnalysis",
    "NimMove",
    "NimlabError",
    "NoSuchPositionError",
    "Outcome",
    "SumGame",
    "TooLargeError",
    "UnknownGameError",
    "__version__",
    "aesthetic_positions",
    "analyze",
    "analyze_nim",
    "disjunctive_sum",
    "find_game",
    "grundy_value",
    "is_misere",
    "lost_positions",
    "lost_trapezoids",
    "lost_triangles",
    "mex",
    "misere",
    "nim_inverse",
    "nim_power",
    "nim_product",
    "nim_sqrt",
    "nim_sum",
    "nim_table",
    "outcome",
    "payoff_function",
    "solve",
    "winning_moves",
]

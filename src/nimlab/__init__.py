"""nimlab: a laboratory for Nim and its variants, computed exactly.

>>> from nimlab import analyze_nim, nim_product
>>> analyze_nim([3, 4, 5]).winning_moves
(NimMove(heap=0, from_=3, to=1),)
>>> nim_product(2, 3)
1
"""

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

__version__ = "0.2.0"

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
    "analyze_nim",
    "disjunctive_sum",
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
    "winning_moves",
]

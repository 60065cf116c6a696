"""Octal games and Grundy's game: codes, fast Grundy sequences, proven periods.

>>> code = OctalCode.parse("0.77")
>>> values = grundy_sequence(code, 200)
>>> find_period(code, values)
Periodicity(period=12, preperiod=71)
"""

from nimlab.octal.code import OctalCode
from nimlab.octal.periodicity import Periodicity, find_period, proof_length
from nimlab.octal.sequence import METHODS, Method, grundy_game_sequence, grundy_sequence

__all__ = [
    "METHODS",
    "Method",
    "OctalCode",
    "Periodicity",
    "find_period",
    "grundy_game_sequence",
    "grundy_sequence",
    "proof_length",
]

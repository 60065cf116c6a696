"""Misère quotients of heap games (Plambeck and Siegel): compute, certify, play.

The misère quotient of a heap game is a finite commutative monoid Q with a P-portion and a
pretending function Φ (heap -> element) such that a sum of heaps is a misère P-position
exactly when the product of the heaps' elements is in the P-portion.

>>> q = misere_quotient("0.07", upto=14)
>>> q.order, q.p_order, q.pretending[:5]
(24, 5, ['1', '1', 'a', 'a', 'b'])
"""

from nimlab.quotients.brute import BruteMisere, words_upto
from nimlab.quotients.monoid import Monoid
from nimlab.quotients.quotient import DEFAULT_UPTO, MisereQuotient, is_tame, misere_quotient
from nimlab.quotients.solver import HeapMoves, QuotientSolver

__all__ = [
    "DEFAULT_UPTO",
    "BruteMisere",
    "HeapMoves",
    "MisereQuotient",
    "Monoid",
    "QuotientSolver",
    "is_tame",
    "misere_quotient",
    "words_upto",
]

"""Nimber arithmetic: the field of nimbers (nim-sum, nim-product, inverses, square roots)."""

from nimlab.nimbers.arithmetic import (
    Nimber,
    nim_inverse,
    nim_power,
    nim_product,
    nim_sqrt,
    nim_sum,
)
from nimlab.nimbers.tables import nim_table

__all__ = [
    "Nimber",
    "nim_inverse",
    "nim_power",
    "nim_product",
    "nim_sqrt",
    "nim_sum",
    "nim_table",
]

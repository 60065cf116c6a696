"""Operation tables of nimbers, by the fast arithmetic or by the recursive mex definitions.

The mex definitions are the ones of the lecture notes *Combinatorial Game Theory*: ``a ⊕ b`` is the
least nimber not of the form ``a' ⊕ b`` or ``a ⊕ b'`` with ``a' < a``, ``b' < b``; ``a ⊗ b`` is the
least nimber not of the form ``a'⊗b ⊕ a⊗b' ⊕ a'⊗b'``. They are slow (quartic) references that the
fast arithmetic is tested against.

>>> nim_table("product", 4)
[[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
>>> nim_table("product", 8, method="mex") == nim_table("product", 8)
True
"""

from __future__ import annotations

from nimlab.errors import InvalidPositionError
from nimlab.grundy.mex import mex
from nimlab.nimbers.arithmetic import nim_product

__all__ = ["nim_table", "nim_table_by_mex"]

MAX_TABLE_SIZE = 4096
MAX_MEX_TABLE_SIZE = 64


def nim_table_by_mex(op: str, size: int) -> list[list[int]]:
    """The ``size`` x ``size`` table built only from the mex definitions."""
    table = [[0] * size for _ in range(size)]
    for a in range(size):
        for b in range(size):
            if op == "sum":
                excluded = {table[x][b] for x in range(a)} | {table[a][y] for y in range(b)}
            else:
                excluded = {
                    table[x][b] ^ table[a][y] ^ table[x][y] for x in range(a) for y in range(b)
                }
            table[a][b] = mex(excluded)
    return table


def nim_table(op: str, size: int, *, method: str = "fast") -> list[list[int]]:
    """The table of ``op`` on the nimbers ``0..size-1``: ``table[a][b] = a op b``."""
    if op not in ("sum", "product"):
        raise InvalidPositionError(f"unknown nimber operation {op!r}: use 'sum' or 'product'")
    if size < 0 or size > MAX_TABLE_SIZE:
        raise InvalidPositionError(f"table size {size} out of range 0..{MAX_TABLE_SIZE}")
    if method not in ("fast", "mex"):
        raise InvalidPositionError(f"unknown method {method!r}: use 'fast' or 'mex'")
    if method == "mex":
        if size > MAX_MEX_TABLE_SIZE:
            raise InvalidPositionError(
                f"the mex definition is slow: table size {size} exceeds {MAX_MEX_TABLE_SIZE}"
            )
        return nim_table_by_mex(op, size)
    if op == "sum":
        return [[a ^ b for b in range(size)] for a in range(size)]
    return [[nim_product(a, b) for b in range(size)] for a in range(size)]

"""The sequence form of a game tree: sparse constraint matrices E, F and payoff matrix A.

Realisation plans ``x`` of L and ``y`` of R satisfy ``E x = e`` and ``F y = f`` with
``x, y >= 0``; L's expected payoff is ``x^T A y`` (Koller, Megiddo and von Stengel).

>>> from nimlab.extensive.tree import build_tree
>>> form = sequence_form(build_tree("sn", (2, 1)))
>>> form.E.shape, form.F.shape, form.A.shape
((2, 4), (1, 1), (4, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from nimlab.extensive.tree import GameTree

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix  # type: ignore[import-untyped]

__all__ = ["SequenceForm", "constraint_matrix", "sequence_form"]


@dataclass(frozen=True)
class SequenceForm:
    """``E`` (L's constraints), ``F`` (R's) and ``A`` (L's payoff), all scipy CSR matrices.

    Row 0 of ``E`` and ``F`` is the empty sequence (right-hand side 1); row ``r > 0`` is the
    ``r``-th information set of the player, in ``infosets[player]`` order.
    """

    E: csr_matrix
    F: csr_matrix
    A: csr_matrix
    infosets: tuple[list[int], list[int]]


def constraint_matrix(tree: GameTree, player: int) -> tuple[csr_matrix, list[int]]:
    """The constraint matrix of ``player`` and the tree indices of its information sets."""
    from scipy.sparse import csr_matrix

    own = [i for i, info in enumerate(tree.infosets) if info.player == player]
    rows, cols, vals = [0], [0], [1]
    for r, index in enumerate(own, start=1):
        info = tree.infosets[index]
        rows.append(r)
        cols.append(info.parent_seq)
        vals.append(-1)
        k = len(info.actions)
        rows.extend([r] * k)
        cols.extend(range(info.first_seq, info.first_seq + k))
        vals.extend([1] * k)
    shape = (len(own) + 1, tree.sequence_count(player))
    matrix = csr_matrix((np.array(vals, dtype=np.float64), (rows, cols)), shape=shape)
    return matrix, own


def sequence_form(tree: GameTree) -> SequenceForm:
    """Build E, F and A of ``tree`` (duplicate terminal entries are summed)."""
    from scipy.sparse import coo_matrix

    e, own_l = constraint_matrix(tree, 0)
    f, own_r = constraint_matrix(tree, 1)
    shape = (tree.sequence_count(0), tree.sequence_count(1))
    rows = np.frombuffer(tree.term_seq[0], dtype=np.int32)
    cols = np.frombuffer(tree.term_seq[1], dtype=np.int32)
    vals = np.frombuffer(tree.term_payoff, dtype=np.int8).astype(np.float64)
    a = coo_matrix((vals, (rows, cols)), shape=shape).tocsr()
    a.eliminate_zeros()
    return SequenceForm(e, f, a, (own_l, own_r))

"""Warm starts for the LPs of growing restricted games.

Each round of :func:`nimlab.extensive.oracle.solve_restricted` grows the trees of the round
before (:meth:`nimlab.extensive.builder.Builder.grow`): information sets are only appended,
and an information set's actions only gain new ones at the end, so a sequence is named for
good by its information set and action index, wherever the renumbering put it. The previous
optimal basis is carried over by those names: a column or row that existed keeps its status,
a new row starts basic and a new column non-basic, and HiGHS repairs the rest (the basis is
passed as "alien"). Floats only propose: the certificate is computed as before.

>>> from nimlab.extensive.oracle import solve_restricted
>>> solve_restricted("sn", (4, 4, 1), root_heap=0).value
Fraction(1, 5)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from nimlab.extensive.gametree import GameTree

__all__ = ["Basis", "Layout"]

Indices = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Layout:
    """Where a tree's sequences sit: the first sequence of every information set, and per
    player the information set of every sequence (-1 for the empty one)."""

    first: Indices
    seq_infoset: tuple[Indices, Indices]
    infosets: tuple[int, int]

    @classmethod
    def of(cls, tree: GameTree) -> Layout:
        """The layout of ``tree`` as it stands."""
        count = len(tree.infosets)
        first = np.fromiter((info.first_seq for info in tree.infosets), np.int64, count)
        owners = np.fromiter((info.player for info in tree.infosets), np.int64, count)
        ones = int(owners.sum())
        return cls(
            first,
            (np.asarray(tree.seq_infoset[0], np.int64), np.asarray(tree.seq_infoset[1], np.int64)),
            (count - ones, ones),
        )

    def moved(self, player: int, later: Layout) -> Indices:
        """The number in ``later`` (the same tree grown) of each of ``player``'s sequences."""
        owner = self.seq_infoset[player][1:]
        moved = np.zeros(len(owner) + 1, dtype=np.int64)
        moved[1:] = later.first[owner] + np.arange(1, len(owner) + 1) - self.first[owner]
        return moved


@dataclass(frozen=True)
class Basis:
    """Which columns and rows of the LP of :func:`nimlab.extensive.lp.lp_matrix` (columns:
    L's sequences then R's information sets, the empty one first; rows: R's sequences then
    L's information sets) were basic at an optimum, on a tree of this layout."""

    layout: Layout
    columns: Mask
    rows: Mask

    def carried(self, later: Layout) -> tuple[Mask, Mask]:
        """The basic masks for the LP of the grown tree of layout ``later``: old columns and
        rows keep their status, new columns are non-basic and new rows basic.

        >>> from nimlab.extensive.restrict import HistoryIndex, Restriction
        >>> from nimlab.extensive.tree import growing_tree
        >>> builder = growing_tree("sn", (2, 1), 1, Restriction(), HistoryIndex())
        >>> layout = Layout.of(builder.tree)
        >>> basis = Basis(layout, np.array([1, 0, 0, 1, 1], bool), np.array([1, 0, 1], bool))
        >>> [m.tolist() for m in basis.carried(layout)]
        [[True, False, False, True, True], [True, False, True]]
        """
        old, new = self.layout, later
        nx, ny = len(old.seq_infoset[0]), len(old.seq_infoset[1])
        later_nx, later_ny = len(new.seq_infoset[0]), len(new.seq_infoset[1])
        columns = np.zeros(later_nx + new.infosets[1] + 1, dtype=np.bool_)
        columns[old.moved(0, later)] = self.columns[:nx]
        columns[later_nx : later_nx + old.infosets[1] + 1] = self.columns[nx:]
        rows = np.ones(later_ny + new.infosets[0] + 1, dtype=np.bool_)
        rows[old.moved(1, later)] = self.rows[:ny]
        rows[later_ny : later_ny + old.infosets[0] + 1] = self.rows[ny:]
        return columns, rows

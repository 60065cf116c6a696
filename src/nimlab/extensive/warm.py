"""Warm starts for the LPs of growing restricted games.

Each round of :func:`nimlab.extensive.oracle.solve_restricted` solves LPs that differ from
the previous round's by the few actions allowed since. Its sequences and information sets
keep their names across builds (their :class:`~nimlab.extensive.restrict.HistoryIndex` ids),
so the previous optimal basis can be carried over: a column or row that existed keeps its
status, a new row starts basic and a new column non-basic, and HiGHS repairs the rest (the
basis is passed as "alien"). Floats only propose: the certificate is computed as before.

>>> from nimlab.extensive.oracle import solve_restricted
>>> solve_restricted("sn", (4, 4, 1), root_heap=0).value
Fraction(1, 5)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from nimlab.extensive.gametree import GameTree
from nimlab.extensive.seqform import SequenceForm

__all__ = ["Basis", "lp_names"]


def _sequence_names(tree: GameTree, player: int, own: list[int], ids: list[int]) -> list[Hashable]:
    """Sequence ``first_seq + a`` of each of ``player``'s information sets (``own``, in the
    order their sequences were numbered) is named by its history's id and action ``a``."""
    names: list[Hashable] = [(player, -1, None)]
    infosets = tree.infosets
    for i in own:
        info = infosets[i]
        hist = ids[info.hist]
        names.extend([(player, hist, act) for act in info.actions])
    return names


def _infoset_names(tree: GameTree, player: int, own: list[int], ids: list[int]) -> list[Hashable]:
    names: list[Hashable] = [("set", player, -1)]
    names.extend(("set", player, ids[tree.infosets[i].hist]) for i in own)
    return names


def lp_names(tree: GameTree, form: SequenceForm) -> tuple[list[Hashable], list[Hashable]]:
    """Names, stable across builds, of the columns and rows of the LP of
    :func:`nimlab.extensive.lp.lp_matrix`: columns are L's sequences then R's information
    sets (with the empty one first), rows R's sequences then L's information sets."""
    ids = tree.history_ids
    if ids is None:
        raise ValueError("the tree was built without a HistoryIndex: its names are not stable")
    own = form.infosets
    columns = _sequence_names(tree, 0, own[0], ids[0]) + _infoset_names(tree, 1, own[1], ids[1])
    rows = _sequence_names(tree, 1, own[1], ids[1]) + _infoset_names(tree, 0, own[0], ids[0])
    if len(columns) != form.A.shape[0] + form.F.shape[0]:
        raise ValueError("the information sets do not number the sequences in order")
    return columns, rows


@dataclass(frozen=True)
class Basis:
    """Which named columns and rows were basic at an optimum."""

    columns: dict[Hashable, bool]
    rows: dict[Hashable, bool]

    @classmethod
    def named(
        cls,
        names: tuple[list[Hashable], list[Hashable]],
        basic_cols: npt.NDArray[np.bool_],
        basic_rows: npt.NDArray[np.bool_],
    ) -> Basis:
        """The basis of an LP solution, by name."""
        return cls(
            dict(zip(names[0], basic_cols.tolist(), strict=True)),
            dict(zip(names[1], basic_rows.tolist(), strict=True)),
        )

    def carried(
        self, names: tuple[list[Hashable], list[Hashable]]
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """The basic masks for an LP with these names: old entries keep their status, new
        columns are non-basic and new rows basic."""
        columns, rows = self.columns, self.rows
        return (
            np.fromiter((columns.get(n, False) for n in names[0]), dtype=np.bool_),
            np.fromiter((rows.get(n, True) for n in names[1]), dtype=np.bool_),
        )

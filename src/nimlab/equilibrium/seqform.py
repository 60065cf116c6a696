"""The sequence form of a game tree: sparse constraint matrices E, F and payoff matrix A.

Realisation plans ``x`` of L and ``y`` of R satisfy ``E x = e`` and ``F y = f`` with
``x, y >= 0``; L's expected payoff is ``x^T A y`` (Koller, Megiddo and von Stengel).

Any tree with the attributes of :class:`SequenceTree` will do: a variant's
:class:`~nimlab.equilibrium.gametree.GameTree`, or a game read from a file
(:mod:`nimlab.equilibrium.efg_solve`). Terminal payoffs are integers of any size (chance
probabilities already multiplied in and the whole scaled to integers by the caller).

>>> from nimlab.hidden.tree import build_tree
>>> form = sequence_form(build_tree("sn", (2, 1)))
>>> form.E.shape, form.F.shape, form.A.shape
((2, 4), (1, 1), (4, 1))
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from nimlab.equilibrium.csc import Csc
from nimlab.equilibrium.gametree import InfosetTable

Indices = npt.NDArray[np.int64]

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix  # type: ignore[import-untyped]

__all__ = [
    "LpColumns",
    "SequenceForm",
    "SequenceInfoset",
    "SequenceTree",
    "constraint_matrix",
    "infoset_fields",
    "integer_array",
    "largest_payoff",
    "lp_columns",
    "offsets",
    "sequence_form",
]


class SequenceInfoset(Protocol):
    """What the sequence form reads of an information set."""

    @property
    def player(self) -> int:
        """0 (L, player 1, the maximiser) or 1 (R, player 2)."""

    @property
    def parent_seq(self) -> int:
        """The player's sequence leading here (0 = the empty sequence)."""

    @property
    def first_seq(self) -> int:
        """The sequence of action 0; action ``a`` has sequence ``first_seq + a``."""

    @property
    def actions(self) -> Sequence[object]:
        """The actions (only their number is read here)."""


class SequenceTree(Protocol):
    """What the sequence form and the certificate read of a tree.

    ``infosets`` are ordered parents first (an information set comes after the one its
    ``parent_seq`` belongs to); ``seq_infoset[p][s]`` is the index in ``infosets`` of the
    information set whose action sequence ``s`` of player ``p`` ends with (-1 for ``s = 0``);
    terminal ``t`` is reached by ``term_seq[0][t]`` and ``term_seq[1][t]`` and pays L the
    integer ``term_payoff[t]`` (an ``array`` of any integer type code, or a list of ints).
    """

    @property
    def infosets(self) -> Sequence[SequenceInfoset]:
        """The information sets of both players, parents first."""

    @property
    def seq_infoset(self) -> tuple[Sequence[int], Sequence[int]]:
        """Per player, the information set of each sequence."""

    @property
    def term_seq(self) -> tuple[Sequence[int], Sequence[int]]:
        """Per player, the sequence leading to each terminal."""

    @property
    def term_payoff(self) -> Sequence[int]:
        """L's integer payoff at each terminal."""

    def sequence_count(self, player: int) -> int:
        """The number of sequences of ``player``, the empty one included."""


def integer_array(values: Sequence[int]) -> npt.NDArray[np.signedinteger] | None:
    """``values`` as a numpy integer array (no copy for an ``array``), or ``None`` when some
    value does not fit in 64 bits.

    >>> integer_array(array("b", [1, -1])).dtype, integer_array([3, 2**40]).dtype
    (dtype('int8'), dtype('int64'))
    >>> integer_array([2**70]) is None
    True
    """
    if isinstance(values, array):
        return np.frombuffer(values, dtype=np.dtype(values.typecode))
    try:
        return np.array(values, dtype=np.int64)
    except OverflowError:
        return None


def largest_payoff(payoff: npt.NDArray[np.signedinteger]) -> int:
    """The largest absolute payoff (at least 1), to bound integer sums before taking them.

    >>> largest_payoff(np.array([3, -5])), largest_payoff(np.array([], dtype=np.int8))
    (5, 1)
    """
    if not len(payoff):
        return 1
    return max(int(payoff.max()), -int(payoff.min()), 1)


@dataclass(frozen=True)
class SequenceForm:
    """``E`` (L's constraints), ``F`` (R's) and ``A`` (L's payoff), all scipy CSR matrices.

    Row 0 of ``E`` and ``F`` is the empty sequence (right-hand side 1); row ``r > 0`` is the
    ``r``-th information set of the player, in ``infosets[player]`` order.
    """

    E: csr_matrix
    F: csr_matrix
    A: csr_matrix
    infosets: tuple[Indices, Indices]


InfosetFields = tuple[npt.NDArray[np.int8], Indices, Indices, Indices]


def infoset_fields(tree: SequenceTree) -> InfosetFields:
    """Every information set's player, parent sequence, first sequence and number of actions,
    read in one C-level pass per field (a restricted solve reads them every round), or
    copied from the columns of an :class:`~nimlab.equilibrium.gametree.InfosetTable`."""
    infosets = tree.infosets
    if isinstance(infosets, InfosetTable):
        return infosets.columns()
    every = len(infosets)
    return (
        np.fromiter(map(attrgetter("player"), infosets), np.int8, every),
        np.fromiter(map(attrgetter("parent_seq"), infosets), np.int64, every),
        np.fromiter(map(attrgetter("first_seq"), infosets), np.int64, every),
        np.fromiter(map(len, map(attrgetter("actions"), infosets)), np.int64, every),
    )


def offsets(widths: Indices) -> Indices:
    """0, 1, ..., w - 1 for each ``w`` of ``widths``, concatenated: the actions' offsets
    from their information set's first sequence.

    >>> offsets(np.array([2, 0, 3])).tolist()
    [0, 1, 0, 1, 2]
    """
    ends = np.cumsum(widths)
    return np.arange(int(ends[-1]) if len(ends) else 0) - np.repeat(ends - widths, widths)


def constraint_matrix(
    tree: SequenceTree, player: int, fields: InfosetFields
) -> tuple[csr_matrix, Indices]:
    """The constraint matrix of ``player`` and the tree indices of its information sets:
    row 0 is the empty sequence's (``x_0 = 1``), row ``r`` says that the sequences of the
    ``r``-th information set sum to the sequence leading there. ``fields``: the tree's
    :func:`infoset_fields` (read once for both players)."""
    from scipy.sparse import csr_matrix

    rows, cols, vals, count = _constraint_triplets(fields, player)
    shape = (count, tree.sequence_count(player))
    own = np.flatnonzero(fields[0] == player)
    return csr_matrix((vals.astype(np.float64), (rows, cols)), shape=shape), own


def sequence_form(tree: SequenceTree) -> SequenceForm:
    """Build E, F and A of ``tree`` (duplicate terminal entries are summed; payoffs beyond
    64 bits enter A as the nearest floats: the LP only proposes)."""
    from scipy.sparse import coo_matrix

    fields = infoset_fields(tree)
    e, own_l = constraint_matrix(tree, 0, fields)
    f, own_r = constraint_matrix(tree, 1, fields)
    shape = (tree.sequence_count(0), tree.sequence_count(1))
    rows, cols = integer_array(tree.term_seq[0]), integer_array(tree.term_seq[1])
    payoff = integer_array(tree.term_payoff)
    if payoff is None:
        vals = np.array([float(v) for v in tree.term_payoff], dtype=np.float64)
    else:
        vals = payoff.astype(np.float64)
    a = coo_matrix((vals, (rows, cols)), shape=shape).tocsr()
    a.eliminate_zeros()
    return SequenceForm(e, f, a, (own_l, own_r))


@dataclass(frozen=True)
class LpColumns:
    """The LP of :func:`~nimlab.equilibrium.lp.lp_matrix`, ``[[-A^T, F^T], [E, 0]]`` over
    the columns ``(x, q)``, built straight from a tree's arrays in numpy (no SciPy): its
    exact integer entries, its sizes ``(nx, nq, ny, ne)`` and the largest payoff."""

    exact: Csc
    sizes: tuple[int, int, int, int]
    largest: float

    def normalised(self) -> Csc:
        """The same matrix with the payoffs (the block ``-A^T``) divided by the largest
        one, in floats: the LP HiGHS solves (same optimal bases, tamer tolerances)."""
        nx, _, ny, _ = self.sizes
        data = self.exact.data.astype(np.float64)
        payoffs = (self.exact.indices < ny) & (self.exact.columns() < nx)
        data[payoffs] /= self.largest
        return Csc(self.exact.shape, self.exact.indptr, self.exact.indices, data)


def _constraint_triplets(
    fields: InfosetFields, player: int
) -> tuple[Indices, Indices, Indices, int]:
    """Rows, columns and values of ``player``'s constraint matrix (as
    :func:`constraint_matrix`), and its number of rows."""
    owner, parents, firsts, widths = fields
    own = np.flatnonzero(owner == player)
    count = len(own)
    parent, first, width = parents[own], firsts[own], widths[own]
    # the sequences of row r: first[r] .. first[r] + width[r] - 1, in one flat run
    runs = offsets(width) + np.repeat(first, width)
    numbers = np.arange(1, count + 1)
    rows = np.concatenate([[0], numbers, np.repeat(numbers, width)]).astype(np.int64)
    cols = np.concatenate([[0], parent, runs]).astype(np.int64)
    vals = np.concatenate([[1], np.full(count, -1), np.ones(len(runs))]).astype(np.int64)
    return rows, cols, vals, count + 1


def lp_columns(tree: SequenceTree) -> LpColumns:
    """The sequence-form LP of ``tree`` in compressed columns, exact (repeated terminal
    cells summed; ``int64`` entries, or Python integers when the payoffs need them).

    >>> from nimlab.hidden.tree import build_tree
    >>> columns = lp_columns(build_tree("sn", (2, 1)))
    >>> columns.sizes, columns.exact.shape, columns.largest
    ((4, 1, 1, 2), (3, 5), 1.0)
    """
    fields = infoset_fields(tree)
    er, ec, ev, ne = _constraint_triplets(fields, 0)
    fr, fc, fv, nq = _constraint_triplets(fields, 1)
    nx, ny = tree.sequence_count(0), tree.sequence_count(1)
    seq0, seq1 = integer_array(tree.term_seq[0]), integer_array(tree.term_seq[1])
    assert seq0 is not None and seq1 is not None  # sequence numbers fit in 64 bits
    payoff = integer_array(tree.term_payoff)
    vals: npt.NDArray[np.generic]
    if payoff is not None and largest_payoff(payoff) * max(len(payoff), 1) < 2**62:
        vals = np.concatenate([-payoff.astype(np.int64), fv, ev])
    else:
        payoffs = tree.term_payoff if payoff is None else payoff.tolist()
        vals = np.array([-int(u) for u in payoffs] + fv.tolist() + ev.tolist(), dtype=object)
    rows = np.concatenate([seq1.astype(np.int64), fc, ny + er])
    cols = np.concatenate([seq0.astype(np.int64), nx + fr, ec])
    exact = Csc.from_triplets(rows, cols, vals, (ny + ne, nx + nq))
    in_a = (exact.indices < ny) & (exact.columns() < nx)
    largest = float(np.max(np.abs(exact.data[in_a]))) if in_a.any() else 1.0
    return LpColumns(exact, (nx, nq, ny, ne), largest)

"""Warm starts for the LPs of growing restricted games, from the last round's basis.

Each round of :func:`nimlab.hidden.oracle.solve_restricted` grows the trees of the round
before (:meth:`nimlab.hidden.builder.Builder.grow`): information sets are only appended,
and an information set's actions only gain new ones at the end, so a sequence is named for
good by its information set and action index, wherever the renumbering put it
(:class:`Layout`). The LP of a grown tree differs from the last one only by new columns and
rows: every entry between an old column and an old row stays (a new terminal lies below a
new action of the held player, so its entries are in that player's new sequences). So the
HiGHS model is kept and extended (``addCols``, ``addRows``); HiGHS keeps its basis, new
columns non-basic and new rows basic, and starts the simplex from there. Floats only
propose: the certificate is computed as before.

That extended basis is a poor start, though. A new column of a new information set costs 0
and has entries only in new rows, whose duals are 0: its reduced cost is 0, and so is every
other new one. The dual simplex then stalls in degenerate pivots: on one LP of SN(9,9,1) it
moved the objective from -0.3333287 to -0.3333270 between iterations 2,220 and 7,724, then
jumped to the optimum, -0.25 (HiGHS's log). So the new part gets a basis of its own
(:func:`_start_new_part`): at every new information set the player plays its first action
(or the one the caller names: the backward induction's choice of a reduced tree,
:mod:`nimlab.equilibrium.collapse`).
And HiGHS prices by Devex, whose weights start afresh at once, instead of computing the
steepest-edge weights of a basis it did not build. Both together: SN(9,9,1) from 67 s to 36
s, its simplex iterations from 76,658 to 22,301 (``benchmarks/lp_rounds.py``). That start
helps Schrödinger Nim only: Fuzzy Schrödinger and ``kn-empty`` keep HiGHS's extended basis
and pricing, and Kriegspiel starts afresh (below; :data:`STARTS`).

With its own start, nothing of HiGHS's needs to outlive a solve: the start is the status
codes kept here, and Devex's weights start afresh anyway. So each round passes the whole LP
to a new solver (:func:`_whole_model`), in the same columns and rows, and lets it go once
its optimum is read: the two halves' solvers, with their factors and copies of the matrix,
are never held at once. SN(10,10,1) peaks at 1.6 GB instead of 2.1 GB (``BENCHMARKS.md``).
The extended start keeps its model and extends it (``addCols``, ``addRows``): HiGHS's
pricing there carries what it learnt from one round to the next, and a new solver per round
took fsn(5,5,4) 39 rounds instead of 34.

Kriegspiel's trees grow a lot from round to round (KN(4,4,1)'s doubled in each of its
dearest rounds), and its LPs took thousands of simplex iterations from either basis,
about a millisecond each. There each round's LP is solved afresh, with presolve, by HiGHS's
interior point method and a crossover to an optimal vertex: KN(4,3,2) in 324 s instead of
862 s, its LP 240 s instead of 819 s (``BENCHMARKS.md``, session 16).

>>> from nimlab.hidden.oracle import solve_restricted
>>> solve_restricted("sn", (4, 4, 1), root_heap=0).value
Fraction(1, 5)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from nimlab.equilibrium.collapse import ReducedTree
from nimlab.equilibrium.gametree import GameTree
from nimlab.equilibrium.lp import (
    LpSolution,
    ModelOptimum,
    configured_highs,
    lp_matrix,
    optimum,
    pass_columnwise,
    read_optimum,
    run_model,
)
from nimlab.equilibrium.seqform import SequenceForm
from nimlab.errors import NimlabError

if TYPE_CHECKING:
    from scipy.sparse import csc_matrix  # type: ignore[import-untyped]

__all__ = ["DEVEX", "STARTS", "Dropped", "GrowingLp", "Layout", "Start"]

DEVEX = 1
"""HiGHS's ``simplex_dual_edge_weight_strategy`` for Devex pricing."""

Start = Literal["own", "extended", "fresh"]
"""How a growing LP starts each round: ``own``, from the last basis with the new part's own
start (:func:`_start_new_part`), priced by Devex, on a new solver; ``extended``, from
HiGHS's extended basis in the kept solver, priced as HiGHS chooses; ``fresh``, afresh by the
interior point method with presolve and crossover, on a new solver."""

STARTS: dict[str, Start] = {"sn": "own", "kn": "fresh"}
"""The start of each variant's grown LPs (on any component game; the others ``extended``).
Which optimal vertex an LP ends on decides how the trees grow, so the choice is measured on
whole solves (``BENCHMARKS.md``, sessions 12 and 16), own start or fresh first:
Schrödinger Nim SN(9,9,1) 18.3 s against 60.4 s extended, SN(5,5,5) 5.3 s against 21.0 s;
Fuzzy Schrödinger fsn(5,5,4) 70.2 s own against 6.6 s extended; Kriegspiel fresh against
extended KN(4,3,2) 324 s against 862 s, KN(4,4,1) 16.2 s against 44.7 s, KN(5,3,1) 13.1 s
against 26.0 s, KN(3,3,2) 14.4 s against 18.4 s, but two heaps KN(6,4) 41.8 s against 30.9
s (all beside other solves)."""

Indices = npt.NDArray[np.int64]
Codes = npt.NDArray[np.int8]

LOWER, BASIC, UPPER, ZERO = 0, 1, 2, 3
"""HiGHS's basis status codes (``HighsBasisStatus``): at the lower bound, basic, at the
upper bound, a free variable at zero."""


@dataclass(frozen=True)
class Layout:
    """Where a tree's sequences sit: the first sequence of every information set, and per
    player the information set of every sequence (-1 for the empty one)."""

    first: Indices
    seq_infoset: tuple[Indices, Indices]

    @classmethod
    def of(cls, tree: GameTree | ReducedTree) -> Layout:
        """The layout of ``tree`` as it stands."""
        return cls(
            np.array(tree.infosets.first_seq, dtype=np.int64),
            (np.asarray(tree.seq_infoset[0], np.int64), np.asarray(tree.seq_infoset[1], np.int64)),
        )

    def moved(self, player: int, later: Layout) -> Indices:
        """The number in ``later`` (the same tree grown) of each of ``player``'s sequences.

        >>> from nimlab.hidden.restrict import Restriction
        >>> from nimlab.hidden.tree import growing_tree
        >>> builder = growing_tree("sn", (2, 1), 1, Restriction())
        >>> layout = Layout.of(builder.tree)
        >>> layout.moved(0, layout).tolist()
        [0, 1, 2, 3]
        """
        owner = self.seq_infoset[player][1:]
        moved = np.zeros(len(owner) + 1, dtype=np.int64)
        moved[1:] = later.first[owner] + np.arange(1, len(owner) + 1) - self.first[owner]
        return moved


def _extended(known: Indices, moved: Indices | None, count: int, start: int) -> Indices:
    """Model indices for ``count`` items: item ``moved[j]`` keeps ``known[j]`` (or the first
    ``len(known)`` items keep theirs when ``moved`` is None), the rest get ``start``, ``start
    + 1``, ... in order."""
    found = np.full(count, -1, dtype=np.int64)
    if moved is None:
        found[: len(known)] = known
    else:
        found[moved] = known
    new = found < 0
    found[new] = np.arange(start, start + int(new.sum()))
    return found


def _runs(keys: Indices, first: int, count: int) -> Indices:
    """Start offsets of ``count`` runs of sorted ``keys`` with values ``first`` ... ."""
    return np.searchsorted(keys, np.arange(first, first + count)).astype(np.int32)


@dataclass
class GrowingLp:
    """The sequence-form LP of one growing tree, solved from the last round's basis (see
    above).

    ``columns``/``rows`` map the LP of :func:`nimlab.equilibrium.lp.lp_matrix` (columns:
    L's sequences then R's information sets; rows: R's sequences then L's information sets)
    to the model's own columns and rows, which never move. ``start`` (see :data:`Start`):
    ``own`` and ``fresh`` pass the whole LP to a new solver each round; ``extended`` extends
    the kept solver ``highs`` and starts from HiGHS's basis.
    """

    start: Start = "own"
    highs: Any = None
    layout: Layout | None = None
    model: dict[str, Indices] = field(default_factory=dict)
    status: tuple[Codes, Codes] = (np.zeros(0, np.int8), np.zeros(0, np.int8))
    """The model's basis after the last solve, as HiGHS's status codes of its columns and
    rows (kept here: reading them back from HiGHS makes a Python object per entry)."""

    def solve(
        self,
        tree: GameTree | ReducedTree,
        form: SequenceForm,
        first_play: Indices | None = None,
        dominated: tuple[int, Indices] | None = None,
    ) -> LpSolution:
        """Extend the model to the LP of ``tree`` (the tree of the last call, grown) and
        solve it from the last optimal basis. ``first_play``: per information set of the
        tree, the action the own start plays at it when it is new (default: the first).
        ``dominated``: a player and sequences of its that the LP may hold at zero without
        changing the value or the other player's optimal strategies (see
        :func:`_run_or_restart`)."""
        old, later = self.layout, Layout.of(tree)
        nx, nq = form.E.shape[1], form.F.shape[0]
        ny, ne = form.F.shape[1], form.E.shape[0]
        width, height = len(self.status[0]), len(self.status[1])
        empty = np.zeros(0, dtype=np.int64)
        model = self.model
        x = _extended(
            model.get("x", empty), None if old is None else old.moved(0, later), nx, width
        )
        q_start = width + int((x >= width).sum())  # new columns: L's sequences, then R's sets
        q = _extended(model.get("q", empty), None, nq, q_start)
        y = _extended(
            model.get("y", empty), None if old is None else old.moved(1, later), ny, height
        )
        e_start = height + int((y >= height).sum())  # new rows: R's sequences, then L's sets
        e = _extended(model.get("e", empty), None, ne, e_start)
        self.layout, self.model = later, {"x": x, "q": q, "y": y, "e": e}
        columns, rows = np.concatenate([x, q]), np.concatenate([y, e])
        if self.start == "extended":
            found = run_model(self._extend(form, columns, rows, q_start, e_start))
        else:
            h = _whole_model(lp_matrix(form), columns, rows, self.model)
            if self.start == "fresh":
                found = _run_fresh(h)
            else:
                if width:
                    _start_new_part(h, form, later, self.model, self.status, first_play)
                found = _run_or_restart(h, _dropped(self.model, dominated))
        self.status = _status_codes(found, self.model)
        return optimum(found, columns, rows, nx, ny)

    def _extend(
        self, form: SequenceForm, columns: Indices, rows: Indices, q_start: int, e_start: int
    ) -> Any:
        """The kept HiGHS model (made on the first call) with the columns and rows of the
        grown LP added: new columns are ``x`` up to ``q_start``, then ``q``; new rows are
        R's sequences up to ``e_start``, then L's information sets."""
        import highspy

        if self.highs is None:
            self.highs = configured_highs()
        h = self.highs
        width, height = h.getNumCol(), h.getNumRow()
        q = self.model["q"]
        e = self.model["e"]
        matrix = lp_matrix(form).tocoo()
        col, row = columns[matrix.col], rows[matrix.row]
        inf = highspy.kHighsInf
        new_cols, new_rows = len(columns) - width, len(rows) - height
        if new_cols:
            cost = np.zeros(new_cols)
            if width == 0:
                cost[int(q[0])] = -1.0  # minimise -q_0
            pick = (col >= width) & (row < height)  # entries in new rows come with the rows
            order = np.argsort(col[pick], kind="stable")
            h.addCols(
                new_cols,
                cost,
                np.where(np.arange(width, width + new_cols) < q_start, 0.0, -inf),
                np.where(np.arange(width, width + new_cols) < q_start, 1.0, inf),  # x <= 1
                int(pick.sum()),
                _runs(col[pick][order], width, new_cols),
                row[pick][order].astype(np.int32),
                matrix.data[pick][order],
            )
        if new_rows:
            lower = np.where(np.arange(height, height + new_rows) < e_start, -inf, 0.0)
            upper = np.zeros(new_rows)
            if height == 0:
                lower[int(e[0])] = upper[int(e[0])] = 1.0  # x_0 = 1
            pick = row >= height
            order = np.argsort(row[pick], kind="stable")
            h.addRows(
                new_rows,
                lower,
                upper,
                int(pick.sum()),
                _runs(row[pick][order], height, new_rows),
                col[pick][order].astype(np.int32),
                matrix.data[pick][order],
            )
        return h


def _whole_model(
    matrix: csc_matrix, columns: Indices, rows: Indices, model: dict[str, Indices]
) -> Any:
    """A new HiGHS solver holding the whole LP of ``matrix`` (:func:`lp_matrix`) in the
    model's columns and rows (LP column ``j`` is the model's ``columns[j]``, row ``i`` its
    ``rows[i]``), priced by Devex: the same bounds and cost as the kept model's."""
    import highspy

    inf = highspy.kHighsInf
    width, height = len(columns), len(rows)
    by_model = np.empty(width, dtype=np.int64)
    by_model[columns] = np.arange(width)
    permuted = matrix[:, by_model]  # CSC: the model's columns in order
    permuted.indices = rows[permuted.indices]
    permuted.has_sorted_indices = False
    permuted.sort_indices()  # each column's rows in the model's order
    cost, col_lower, col_upper = np.zeros(width), np.zeros(width), np.ones(width)  # x <= 1
    cost[model["q"][0]] = -1.0  # minimise -q_0
    col_lower[model["q"]], col_upper[model["q"]] = -inf, inf
    row_lower, row_upper = np.full(height, -inf), np.zeros(height)  # R's sequences: <= 0
    row_lower[model["e"]] = 0.0  # L's information sets: = 0, and x_0 = 1
    row_lower[model["e"][0]] = row_upper[model["e"][0]] = 1.0
    h = configured_highs()
    h.setOptionValue("simplex_dual_edge_weight_strategy", DEVEX)
    status = pass_columnwise(h, permuted, cost, (col_lower, col_upper), (row_lower, row_upper))
    if status != highspy.HighsStatus.kOk:
        raise NimlabError("HiGHS refused the sequence-form LP of a grown tree")
    return h


STALL_LIMIT = 50_000
"""Simplex iterations from the own start after which a run is taken as stalled (see
:func:`_run_or_restart`): rare, such as one LP of SN(11,11,1) that ran 161,553 iterations
(``BENCHMARKS.md``, session 19), and no LP of SN(10,10,1) or smaller."""


@dataclass(frozen=True)
class Dropped:
    """Model columns (L's sequences) to hold at zero and model rows (R's sequences) to
    free, which rules those sequences out of the LP's plans."""

    columns: Indices
    rows: Indices


def _dropped(model: dict[str, Indices], dominated: tuple[int, Indices] | None) -> Dropped | None:
    """The model's columns or rows of a player's dominated sequences (``None``: none)."""
    if dominated is None or not len(dominated[1]):
        return None
    player, sequences = dominated
    empty = np.zeros(0, dtype=np.int64)
    if player == 0:
        return Dropped(model["x"][sequences], empty)
    return Dropped(empty, model["y"][sequences])


def _run_or_restart(h: Any, dropped: Dropped | None = None) -> ModelOptimum:
    """Run the simplex method from the start ``h`` holds. After :data:`STALL_LIMIT`
    iterations without an optimum, rule the ``dropped`` sequences out and go on from the
    basis reached; with none, forget the start and solve afresh with presolve. The
    iterations counted are those of both runs.

    Dropping the free player's dominated sequences (:attr:`nimlab.equilibrium.collapse.
    Collapse.dominated`) keeps the value and the held player's optimal strategies, and the
    simplex stays on the warm path: SN(11,11,1) in 382 s and 2.9 GB instead of 497 s and
    5.2 GB, its one stalled LP going on for 9,746 iterations where the fresh vertices of
    three grew the trees to 9.8 and 5.9 million nodes instead of 8.4 and 1.7 million
    (``BENCHMARKS.md``, session 21). Not from the start: the LPs run faster (SN(10,10,1)'s
    first part in 24 s instead of 77 s) but their vertices change the rounds, and SN(8,8,1),
    SN(9,9,1) and SN(11,11,1) grew larger trees. What brought SN(12,12,1) within reach was
    the choice of the reply that grows the trees (:mod:`nimlab.hidden.reply`), not this.
    """
    import highspy

    h.setOptionValue("simplex_iteration_limit", STALL_LIMIT)
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kIterationLimit:
        return read_optimum(h)
    spent = int(h.getInfo().simplex_iteration_count)
    h.setOptionValue("simplex_iteration_limit", 2**31 - 1)
    if dropped is None:
        h.clearSolver()
        h.setOptionValue("presolve", "on")
    else:
        _drop(h, dropped)
    h.run()
    found = read_optimum(h)
    return ModelOptimum(
        found.values, found.duals, found.basic_cols, found.basic_rows, spent + found.iterations
    )


def _drop(h: Any, dropped: Dropped) -> None:
    """Hold the ``dropped`` columns at zero and free the ``dropped`` rows in the model
    ``h`` holds (its basis kept)."""
    import highspy

    cols, rows = dropped.columns, dropped.rows
    if len(cols):
        zeros = np.zeros(len(cols))
        h.changeColsBounds(len(cols), cols.astype(np.int32), zeros, zeros)
    if len(rows):
        unbounded = np.full(len(rows), highspy.kHighsInf)
        h.changeRowsBounds(len(rows), rows.astype(np.int32), -unbounded, unbounded)


def _run_fresh(h: Any) -> ModelOptimum:
    """Solve the model ``h`` holds by the interior point method, crossed over to an optimal
    vertex (with presolve: no start is given); should that not end optimal, the simplex
    method goes on from where it stopped."""
    import highspy

    h.setOptionValue("solver", "ipm")
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        h.setOptionValue("solver", "simplex")
        h.run()
    return read_optimum(h)


def _status_codes(found: ModelOptimum, model: dict[str, Indices]) -> tuple[Codes, Codes]:
    """The status codes of the optimal basis ``found``: a non-basic ``x`` sits at 0 or at 1,
    a non-basic ``q`` (free) at zero; a non-basic row of R's sequences (``<= 0``) at its
    upper bound, one of L's information sets (an equation) at its lower."""
    cols = np.where(found.values > 0.5, UPPER, LOWER).astype(np.int8)
    cols[model["q"]] = ZERO
    cols[found.basic_cols] = BASIC
    rows = np.full(len(found.basic_rows), UPPER, dtype=np.int8)
    rows[model["e"]] = LOWER
    rows[found.basic_rows] = BASIC
    return cols, rows


def _start_new_part(
    h: Any,
    form: SequenceForm,
    layout: Layout,
    model: dict[str, Indices],
    status: tuple[Codes, Codes],
    first_play: Indices | None = None,
) -> None:
    """Give the model's new part (the columns and rows beyond ``status``, the basis of the
    last solve) the basis of playing the first action at every new information set: for
    L's, its row tight and its first sequence basic; for R's, its value column ``q`` basic
    and its first sequence's row tight. One basic variable for each tight row keeps the
    basis square; the old part keeps its statuses."""
    import highspy

    width, height = len(status[0]), len(status[1])
    x, q, y, e = model["x"], model["q"], model["y"], model["e"]
    cols = np.full(h.getNumCol(), LOWER, dtype=np.int8)  # a new x at 0
    cols[:width] = status[0]
    cols[q[q >= width]] = ZERO
    rows = np.full(h.getNumRow(), BASIC, dtype=np.int8)  # HiGHS adds rows basic
    rows[:height] = status[1]
    own_l, own_r = form.infosets
    play = layout.first if first_play is None else layout.first + first_play
    new_l = e[1:] >= height  # L's information sets are E's rows 1, 2, ...
    rows[e[1:][new_l]] = LOWER  # sum of its sequences = the one leading here
    cols[x[play[own_l[new_l]]]] = BASIC
    new_r = q[1:] >= width  # R's are F's rows, the columns q 1, 2, ...
    cols[q[1:][new_r]] = BASIC
    rows[y[play[own_r[new_r]]]] = UPPER  # R's first reply, tight
    # HiGHS takes the statuses as lists of its enum: picked from an object array in one take
    codes = np.array([highspy.HighsBasisStatus(code) for code in range(ZERO + 1)], dtype=object)
    basis = highspy.HighsBasis()  # as a new model's own: not valid, alien (HiGHS checks it)
    basis.col_status = codes[cols].tolist()
    basis.row_status = codes[rows].tolist()
    if h.setBasis(basis) != highspy.HighsStatus.kOk:
        raise NimlabError("HiGHS refused the starting basis of a grown sequence-form LP")

"""The free player's optimal reply that asks for the fewest new actions.

Each round of :func:`nimlab.hidden.oracle.solve_restricted` allows the free player every
action its reply plays, and the other half-restricted game's tree grows by everything below
those actions. The LP's optimum is rarely unique, and which optimal vertex the simplex
method ends on decides how much the trees grow. So the reply is chosen on purpose: among the
free player's optimal plans, one putting the least realisation weight on actions its
restriction does not allow yet (:func:`new_sequences`), found by a second LP over the
optimal face (:func:`fewest_new_reply`). The value, the held player's strategy and the
certificate come from the first LP as before; only what is allowed next changes.

The optimal face is cut out by complementary slackness with the first LP's optimum: a
sequence of the free player whose reduced cost is positive is zero in every optimal plan,
and a constraint whose dual is positive is tight in every one. Those fixings shrink the
second LP to a fraction of the first (HiGHS's presolve removes what they fix), and a bound on
the value keeps it optimal whatever the tolerances let through.

SN(10,10,1)'s first part: 18.4 s instead of 70.7 s, its last trees 0.45 + 0.38 million
nodes instead of 2.38 + 0.56 million (``BENCHMARKS.md``, session 23).

>>> from nimlab.hidden.oracle import solve_restricted
>>> solve_restricted("sn", (5, 5, 1), root_heap=0).value
Fraction(3, 13)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from nimlab.equilibrium.lp import (
    LpSolution,
    configured_highs,
    lp_matrix,
    pass_columnwise,
    read_optimum,
)
from nimlab.equilibrium.seqform import SequenceForm
from nimlab.hidden.restrict import Restriction

if TYPE_CHECKING:
    from scipy.sparse import csc_matrix  # type: ignore[import-untyped]

    from nimlab.equilibrium.collapse import ReducedTree
    from nimlab.equilibrium.gametree import GameTree

__all__ = ["SLACK", "fewest_new_reply", "new_sequences"]

SLACK = 1e-9
"""A reduced cost, dual or slack above this is taken as non-zero (so its partner is fixed),
and the reply may fall this far short of the optimal value."""

Vector = npt.NDArray[np.float64]


def new_sequences(
    tree: GameTree | ReducedTree, player: int, rule: Restriction, names: Sequence[int]
) -> npt.NDArray[np.bool_]:
    """Which of ``player``'s sequences in ``tree`` play an action that ``rule`` does not
    allow yet at its history (``names``: the history names of the tree's builder, by
    history). Information sets with one action are skipped: nothing there is a choice.

    >>> from nimlab.hidden.tree import growing_tree
    >>> builder = growing_tree("sn", (2, 1), 1, Restriction())  # R held, L free
    >>> names = builder.tree.history_ids[0]
    >>> new_sequences(builder.tree, 0, Restriction(), names).tolist()  # L's root: 1_1 allowed
    [False, False, True, True]
    """
    infosets = tree.infosets
    owner = np.asarray(tree.seq_infoset[player], dtype=np.int64)
    new = np.zeros(len(owner), dtype=np.bool_)
    width = np.asarray(infosets.width, dtype=np.int64)
    first = np.asarray(infosets.first_seq, dtype=np.int64)
    hist = np.asarray(infosets.hist, dtype=np.int64)
    pending = np.asarray(infosets.pending, dtype=np.int64)
    chosen = np.unique(owner[1:])
    for index in chosen[width[chosen] > 1].tolist():
        actions, waiting = infosets.actions[index], int(pending[index])
        allowed = rule.filter(
            names[int(hist[index])],
            infosets.belief[index],
            None if waiting < 0 else waiting,
            actions,
        )
        start = int(first[index])
        for a, action in enumerate(actions):
            new[start + a] = action not in allowed
    return new


def fewest_new_reply(
    form: SequenceForm, solution: LpSolution, player: int, new: npt.NDArray[np.bool_]
) -> Vector:
    """An optimal realisation plan of ``player`` (the free one) in the LP of ``form``, whose
    optimum is ``solution``, with the least weight on the ``new`` sequences.

    >>> from nimlab.hidden.tree import build_tree
    >>> from nimlab.equilibrium.seqform import sequence_form
    >>> from nimlab.equilibrium.lp import solve_lp
    >>> form = sequence_form(build_tree("sn", (2, 2)))
    >>> solution = solve_lp(form)
    >>> avoid = np.ones(form.F.shape[1], dtype=np.bool_)
    >>> reply = fewest_new_reply(form, solution, 1, avoid)
    >>> round(float(reply[0]), 9), bool(reply[1:].sum() <= solution.y[1:].sum() + 1e-9)
    (1.0, True)
    """
    if solution.values is None or solution.duals is None:
        raise ValueError("the LP's optimum lacks the values and duals a reply needs")
    nx, ny = form.E.shape[1], form.F.shape[1]
    matrix = lp_matrix(form)
    if player == 0:
        # L's reduced costs (HiGHS: cost minus the matrix times the row duals; x costs 0)
        reduced = -(matrix.T @ solution.duals)[:nx]
        zero, tight = reduced > SLACK, np.abs(solution.duals[:ny]) > SLACK
        return _face_plan(form, matrix, solution.value, zero, tight, new)
    slack = -(matrix @ solution.values)[:ny]  # R's sequences' constraints: <= 0
    zero, tight = slack > SLACK, solution.x > SLACK
    swapped = SequenceForm(form.F, form.E, -form.A.T.tocsr(), form.infosets[::-1])
    return _face_plan(swapped, lp_matrix(swapped), -solution.value, zero, tight, new)


def _face_plan(
    form: SequenceForm,
    lp: csc_matrix,
    value: float,
    zero: npt.NDArray[np.bool_],
    tight: npt.NDArray[np.bool_],
    new: npt.NDArray[np.bool_],
) -> Vector:
    """L's plan in the LP of ``form`` (L maximises ``q_0``) worth at least ``value`` (less
    :data:`SLACK`), zero on ``zero``, with R's ``tight`` constraints tight, of least weight
    on ``new``: the LP of :func:`nimlab.equilibrium.lp.lp_matrix` (``lp``) and one row more."""
    import highspy
    from scipy.sparse import csc_matrix, vstack

    nx, nq = form.E.shape[1], form.F.shape[0]
    ny, ne = form.F.shape[1], form.E.shape[0]
    inf = highspy.kHighsInf
    bound = csc_matrix(([1.0], ([0], [nx])), shape=(1, nx + nq))  # the row of q_0
    matrix = vstack([lp, bound], format="csc")
    cost = np.concatenate([new.astype(np.float64), np.zeros(nq)])
    col_lower = np.concatenate([np.zeros(nx), np.full(nq, -inf)])
    col_upper = np.concatenate([np.where(zero, 0.0, 1.0), np.full(nq, inf)])
    row_lower = np.concatenate([np.where(tight, 0.0, -inf), np.zeros(ne), [value - SLACK]])
    row_upper = np.concatenate([np.zeros(ny + ne), [inf]])
    row_lower[ny] = row_upper[ny] = 1.0  # x_0 = 1
    h = configured_highs()
    h.setOptionValue("presolve", "on")
    pass_columnwise(h, matrix, cost, (col_lower, col_upper), (row_lower, row_upper))
    h.run()
    return np.clip(read_optimum(h).values[:nx], 0.0, None)

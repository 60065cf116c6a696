"""The fewest-new reply of :mod:`nimlab.hidden.reply` against the LP optimum it replaces."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.equilibrium.certify import best_response_value
from nimlab.equilibrium.collapse import Collapse
from nimlab.equilibrium.lp import solve_lp
from nimlab.equilibrium.seqform import sequence_form
from nimlab.hidden.reply import fewest_new_reply, new_sequences
from nimlab.hidden.restrict import Restriction
from nimlab.hidden.tree import build_tree
from tests.extensive.grown import grow_at_random

CASES = [("sn", (3, 2, 1)), ("sn", (4, 3)), ("kn", (3, 2)), ("fsn", (3, 3, 1))]


def _plan_constraints_hold(form: object, player: int, plan: np.ndarray) -> bool:
    """``plan`` is a realisation plan of ``player``: non-negative, with the root at 1 and
    each information set's sequences summing to the one leading there."""
    constraints = form.E if player == 0 else form.F  # type: ignore[attr-defined]
    rhs = np.zeros(constraints.shape[0])
    rhs[0] = 1.0
    return bool((plan >= -1e-12).all() and np.allclose(constraints @ plan, rhs, atol=1e-8))


@settings(max_examples=40, deadline=None)
@given(
    case=st.sampled_from(CASES),
    held=st.sampled_from([0, 1]),
    seed=st.integers(0, 10_000),
    rounds=st.integers(0, 2),
)
def test_the_reply_is_optimal_and_no_newer_than_the_lp_vertex(
    case: tuple[str, tuple[int, ...]], held: int, seed: int, rounds: int
) -> None:
    """On a growing restricted tree's reduced LP, with a random set of the free player's
    sequences called new: the reply is a realisation plan of the free player, the held
    player's best response to it is worth the LP's value (it is optimal), and it puts no more
    weight on the new sequences than the LP's own optimal plan does."""
    variant, heaps = case
    free = 1 - held
    builder, _ = grow_at_random(variant, heaps, held, seed, rounds)
    reduced = Collapse(player=free).reduce(builder.tree)
    form = sequence_form(reduced)
    solution = solve_lp(form)
    rng = random.Random(seed)
    count = reduced.sequence_count(free)
    new = np.array([s > 0 and rng.random() < 0.5 for s in range(count)], dtype=np.bool_)
    reply = fewest_new_reply(form, solution, free, new)
    assert _plan_constraints_hold(form, free, reply)
    exact = [Fraction(float(weight)) for weight in reply]
    worth = best_response_value(reduced, held, exact)
    assert abs(float(worth) - solution.value) < 1e-7
    vertex = solution.x if free == 0 else solution.y
    assert reply[new].sum() <= vertex[new].sum() + 1e-9
    assert reply[new].sum() <= _least_new_weight(form, free, solution.value, new) + 1e-7


def _least_new_weight(form: object, player: int, value: float, new: np.ndarray) -> float:
    """The least weight on ``new`` of any plan of ``player`` securing ``value`` (less 1e-9),
    by SciPy's ``linprog`` on the plain sequence form, with no complementary slackness: the
    reply's fixings must not cut the least-weight plans off."""
    from scipy.optimize import linprog  # type: ignore[import-untyped]
    from scipy.sparse import bmat, csr_matrix  # type: ignore[import-untyped]

    own, other = (form.E, form.F) if player == 0 else (form.F, form.E)  # type: ignore[attr-defined]
    payoff = form.A if player == 0 else -form.A.T  # type: ignore[attr-defined]
    secured = value if player == 0 else -value
    n, m = own.shape[1], other.shape[0]
    # variables (plan, other's values q): other's best reply worth q_0 >= secured, i.e.
    # other.T q <= payoff.T plan, q_0 >= secured, own plan = e
    cost = np.concatenate([new.astype(float), np.zeros(m)])
    a_ub = bmat([[-payoff.T, other.T], [None, csr_matrix(([-1.0], ([0], [0])), shape=(1, m))]])
    b_ub = np.concatenate([np.zeros(other.shape[1]), [-(secured - 1e-9)]])
    rhs = np.zeros(own.shape[0])
    rhs[0] = 1.0
    a_eq = bmat([[own, csr_matrix((own.shape[0], m))]])
    bounds = [(0, None)] * n + [(None, None)] * m
    found = linprog(cost, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=rhs, bounds=bounds)
    assert found.status == 0
    return float(found.fun)


def test_a_sure_win_is_played_even_when_new() -> None:
    """In SN(3,1) L wins surely (value 1); with every sequence called new, the reply is still
    a plan that wins surely: the value bound is never traded for fewer new actions."""
    tree = build_tree("sn", (3, 1))
    form = sequence_form(tree)
    solution = solve_lp(form)
    assert solution.value == 1.0
    new = np.ones(form.E.shape[1], dtype=np.bool_)
    new[0] = False
    reply = fewest_new_reply(form, solution, 0, new)
    assert _plan_constraints_hold(form, 0, reply)
    assert best_response_value(tree, 1, [Fraction(float(w)) for w in reply]) == 1


def test_new_sequences_follow_the_restriction() -> None:
    """A sequence is new until its action is allowed at its history, and stays old after."""
    builder = grow_at_random("sn", (3, 2), 1, 0, 0)[0]  # R held, L free
    tree = builder.tree
    rule = Restriction()
    names = tree.history_ids[0]
    before = new_sequences(tree, 0, rule, names)
    root = tree.infosets[0]
    assert (
        before[root.first_seq : root.first_seq + len(root.actions)].sum() == len(root.actions) - 1
    )
    action = root.actions[-1]
    rule.allow(names[root.hist], action, root.belief, root.pending)
    after = new_sequences(tree, 0, rule, names)
    last = root.first_seq + len(root.actions) - 1
    assert before[last] and not after[last]
    assert after[root.first_seq : last].all()  # the default is no longer the allowed one

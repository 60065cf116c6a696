"""Restricted games grown by L's pure best responses instead of the upper game's LP (tried in
session 18, not kept: ``BENCHMARKS.md``).

Run: ``.venv/bin/python benchmarks/pure_responses.py sn 7 7 1 --root-heap 0 [--every K]
[--all-ties]``.

Each round solves the lower game (L held, R free) as :func:`~nimlab.hidden.oracle.
solve_restricted` does and allows the support of R's strategy ``y`` to R. Then, in the grown
upper tree (R held to what is allowed, so to ``y``'s support; L free), it computes L's pure
best response to ``y`` by a backward pass over L's information sets, ties broken toward
actions L is allowed already, and allows its actions to L (``--all-ties``: every tied action
at the information sets it reaches). Its value bounds the game's value from above; when it
is allowed already, it equals the lower game's value and the bounds meet. With ``--every
K``, every K-th round (and any round whose response adds nothing) also solves the upper
game's LP and allows its support to L, as ``solve_restricted`` does every round. Prints each
round's float bounds, then the rounds, the trees' nodes and the seconds of the LPs. Float
bounds only: nothing here is certified.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from nimlab.equilibrium.gametree import NO_PENDING, GameTree
from nimlab.equilibrium.seqform import SequenceForm, sequence_form
from nimlab.equilibrium.warm import GrowingLp
from nimlab.hidden.builder import Memo
from nimlab.hidden.oracle import _allow_support
from nimlab.hidden.restrict import Restriction
from nimlab.hidden.tree import growing_tree

Named = dict[tuple[int, Any], float]


def plan_by_name(tree: GameTree, player: int, plan: npt.NDArray[np.float64]) -> Named:
    """``player``'s realisation plan keyed by (history name, action), where positive."""
    assert tree.history_ids is not None
    names, owner, infosets = tree.history_ids[player], tree.seq_infoset[player], tree.infosets
    found: Named = {}
    for s in np.flatnonzero(plan > 1e-12).tolist():
        if s:
            i = owner[s]
            found[(names[infosets.hist[i]], infosets.actions[i][s - infosets.first_seq[i]])] = plan[
                s
            ]
    return found


def plan_in(tree: GameTree, player: int, named: Named) -> npt.NDArray[np.float64]:
    """The plan ``named`` on ``tree``'s sequences of ``player`` (0 where not named)."""
    assert tree.history_ids is not None
    owner, _, first, _ = tree.infosets.columns()
    plan = np.zeros(len(tree.seq_infoset[player]))
    plan[0] = 1.0
    names, infosets = tree.history_ids[player], tree.infosets
    for i in np.flatnonzero(owner == player).tolist():
        name = names[infosets.hist[i]]
        for a, act in enumerate(infosets.actions[i]):
            plan[first[i] + a] = named.get((name, act), 0.0)
    return plan


def respond(
    tree: GameTree, form: SequenceForm, y: npt.NDArray[np.float64], rule: Restriction, ties: bool
) -> tuple[float, int]:
    """L's best-response value to R's plan ``y`` on ``tree`` (L free), and how many of the
    response's actions (``ties``: and of the actions tied with them) ``rule`` newly allows."""
    assert tree.history_ids is not None
    owner, parent, first, width = tree.infosets.columns()
    value = np.asarray(form.A @ y, dtype=np.float64)  # then each sequence's value below it
    names, infosets = tree.history_ids[0], tree.infosets
    mine = np.flatnonzero(owner == 0)
    picked: dict[int, list[int]] = {}

    def pending(i: int) -> int | None:
        return None if infosets.pending[i] == NO_PENDING else infosets.pending[i]

    for i in mine[::-1].tolist():  # a child information set comes after its parent
        values = value[first[i] : first[i] + width[i]]
        best = values.max()
        tied = np.flatnonzero(values >= best - 1e-9).tolist()
        allowed = rule.filter(
            names[infosets.hist[i]], infosets.belief[i], pending(i), infosets.actions[i]
        )
        choice = next((a for a in tied if infosets.actions[i][a] in allowed), tied[0])
        picked[i] = tied if ties else [choice]
        picked[i].remove(choice)
        picked[i].insert(0, choice)  # the response itself first
        value[parent[i]] += best
    played = np.zeros(len(value), dtype=bool)
    played[0] = True
    added = 0
    for i in mine.tolist():
        if played[parent[i]]:
            played[first[i] + picked[i][0]] = True
            for a in picked[i]:
                added += rule.allow(
                    names[infosets.hist[i]], infosets.actions[i][a], infosets.belief[i], pending(i)
                )
    return float(value[0]), added


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("heaps", nargs="+", type=int)
    parser.add_argument("--root-heap", type=int, default=None)
    parser.add_argument("--every", type=int, default=0, help="the upper LP every K rounds")
    parser.add_argument("--all-ties", action="store_true")
    args = parser.parse_args()
    heaps, start = tuple(args.heaps), time.perf_counter()
    rules, memo = (Restriction(), Restriction()), Memo()
    lower = growing_tree(args.variant, heaps, 0, rules[0], root_heap=args.root_heap, memo=memo)
    upper = None
    lps = (GrowingLp(start="own"), GrowingLp(start="own"))
    seconds, iterations, upper_lps = [0.0, 0.0], [0, 0], 0
    for number in range(1, 1000):
        if number > 1:
            lower.grow()
        t0 = time.perf_counter()
        low = lps[0].solve(lower.tree, sequence_form(lower.tree))
        seconds[0] += time.perf_counter() - t0
        iterations[0] += low.iterations
        added = _allow_support(lower.tree, 1, low.y, rules[1])
        named = plan_by_name(lower.tree, 1, low.y)
        if upper is None:
            upper = growing_tree(
                args.variant, heaps, 1, rules[1], root_heap=args.root_heap, memo=memo
            )
        else:
            upper.grow()
        form = sequence_form(upper.tree)
        bound, new = respond(
            upper.tree, form, plan_in(upper.tree, 1, named), rules[0], args.all_ties
        )
        if args.every and (number % args.every == 0 or new == 0):
            t0 = time.perf_counter()
            high = lps[1].solve(upper.tree, form)
            seconds[1] += time.perf_counter() - t0
            iterations[1] += high.iterations
            upper_lps += 1
            new += _allow_support(upper.tree, 0, high.x, rules[0])
            bound = min(bound, high.value)
        print(f"round {number}: {low.value:.9f} <= v <= {bound:.9f}, added {added + new}")
        if bound - low.value < 1e-9 or added + new == 0:
            break
    assert upper is not None
    print(
        f"{args.variant}{heaps} part {args.root_heap}: {low.value:.9f} after {number} rounds, "
        f"{time.perf_counter() - start:.1f} s; trees {lower.tree.nodes:,} (lower) and "
        f"{upper.tree.nodes:,} (upper) nodes; lower LPs {seconds[0]:.2f} s, {iterations[0]:,} "
        f"iterations; {upper_lps} upper LPs {seconds[1]:.2f} s, {iterations[1]:,} iterations"
    )


if __name__ == "__main__":
    main()

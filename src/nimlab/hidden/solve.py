"""Solve a variant exactly: build the tree, solve the sequence-form LP, certify in rationals.

>>> result = solve("sn", (3, 2, 1))
>>> result.value, result.exact
(Fraction(0, 1), True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from nimlab.budget import CLI_BUDGET, Budget
from nimlab.equilibrium.certify import Certificate, certify_lp
from nimlab.equilibrium.gametree import GameTree
from nimlab.equilibrium.lp import solve_lp
from nimlab.equilibrium.results import EquilibriumResult
from nimlab.equilibrium.seqform import sequence_form
from nimlab.equilibrium.strategy import strategy_entries
from nimlab.errors import NimlabError
from nimlab.hidden.budget import (
    CLOSED_FORM,
    METHODS,
    RESTRICT_ABOVE,
    SolveEstimate,
    check_solve_budget,
    estimate_solve,
)
from nimlab.hidden.oracle import Round, solve_restricted
from nimlab.hidden.tree import DEFAULT_MAX_NODES, build_tree
from nimlab.hidden.variants import variant_rules

RoundReport = Callable[[int | None, "Round"], None]
"""A progress callback: the first heap of the part (or None) and the round just finished."""

__all__ = [
    "METHODS",
    "RESTRICT_ABOVE",
    "RoundReport",
    "solve",
    "solve_tree",
]


#: Which tree the ``nodes`` of a result count, by how it was solved (shown with the count).
TREES = {
    "closed form": "no tree: one non-empty heap has a closed form",
    "first heap": "the games after L's first move, one per heap size, forced moves played out",
    "restricted": "the restricted games' trees, each a part of the whole tree",
    "reduced": "the whole tree with forced moves played out and known wins cut",
    "whole": "the whole tree, every move kept",
}


def solve(
    variant: str,
    heaps: tuple[int, ...],
    *,
    misere: bool = False,
    strategies: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
    prune_forced: bool = True,
    decompose: bool = True,
    method: str = "auto",
    progress: RoundReport | None = None,
    budget: Budget | None = CLI_BUDGET,
    estimate: SolveEstimate | None = None,
) -> EquilibriumResult:
    """The exact value of ``variant`` from ``heaps`` for the first player L, certified.

    ``exact`` is true only when both exact best-response values coincide. ``method`` is one
    of :data:`METHODS`; ``strategies`` and ``prune_forced=False`` always take ``lp``. A
    game solved by restricted games is guarded by ``max_nodes`` per restricted tree, so it
    may be far larger than the limit; ``nodes`` then counts the restricted trees' nodes.
    ``progress(heap, round)`` is called after every round of restricted games (``heap``: the
    first heap of the part being solved, or ``None``).

    With ``decompose`` (and without ``strategies``), in variants that announce the heap
    moved on (``sn``, ``fsn``) the game splits at L's first move: once L has chosen heap
    ``k`` both players know it, and the rest is a game ``G_k`` sharing no information set
    with the others, so ``v = max_k v(G_k)``. Heaps of equal size give mirror-image games,
    so one heap per size is solved. ``nodes`` and ``infosets`` then count the games solved,
    and the result carries no behaviour strategies (they belong to the parts' trees): ask
    for ``strategies=True`` or ``decompose=False`` to get them for the whole game.

    Before any work the cost is estimated (:func:`nimlab.hidden.budget.estimate_solve`,
    whose parts and methods are the ones run here) and checked against ``budget`` (``None``:
    not checked), raising :class:`~nimlab.errors.TooLargeError` when it is over. Pass the
    ``estimate`` of the same arguments if it is already known.
    """
    start = time.perf_counter()
    variant_rules(variant)
    if method not in METHODS:
        raise NimlabError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    if estimate is None:
        estimate = estimate_solve(
            variant,
            heaps,
            misere=misere,
            method=method,
            strategies=strategies,
            prune_forced=prune_forced,
            decompose=decompose,
        )
    if budget is not None:
        check_solve_budget(estimate, budget, "a larger budget (the budget argument)")
    if estimate.method == CLOSED_FORM:
        return replace(_one_heap(estimate, start), tree=TREES["closed form"])
    if estimate.parts[0].root_heap is not None:
        parts = _solve_by_first_heap(estimate, max_nodes, prune_forced, start, progress)
        return replace(parts, tree=TREES["first heap"])
    if estimate.method == "restricted":
        found = _solve_restricted(variant, heaps, misere, None, max_nodes, progress)
        return replace(found, tree=TREES["restricted"])
    tree = build_tree(
        variant,
        heaps,
        misere=misere,
        max_nodes=max_nodes,
        prune_forced=prune_forced,
        check_estimate=False,
    )
    built = time.perf_counter()
    result = solve_tree(tree, strategies=strategies, started=(start, built))
    return replace(result, tree=TREES["reduced" if prune_forced else "whole"])


def _solve_restricted(
    variant: str,
    heaps: tuple[int, ...],
    misere: bool,
    root_heap: int | None,
    max_nodes: int,
    progress: RoundReport | None,
    enough: Fraction | None = None,
) -> EquilibriumResult:
    def report(step: Round) -> None:
        if progress is not None:
            progress(root_heap, step)

    return solve_restricted(
        variant,
        heaps,
        misere=misere,
        root_heap=root_heap,
        max_nodes=max_nodes,
        progress=report,
        enough=enough,
    )


def _one_heap(estimate: SolveEstimate, start: float) -> EquilibriumResult:
    """A position with one non-empty heap, in every variant: L knows it and takes it all
    (normal play: L wins, 1), or in misère play leaves one chip, which R must then take
    (L wins, 1) unless the heap is a single chip that L must take itself (-1). No tree.

    >>> solve("kn", (0, 7, 0)).value, solve("fsn", (1,), misere=True).value
    (Fraction(1, 1), Fraction(-1, 1))
    """
    (height,) = [h for h in estimate.heaps if h]
    value = Fraction(-1 if estimate.misere and height == 1 else 1)
    seconds = time.perf_counter() - start
    timings = {"build": 0.0, "lp": 0.0, "certify": 0.0, "total": seconds}
    certificate = Certificate(value, value, "closed form: one non-empty heap")
    return EquilibriumResult(
        estimate.variant,
        tuple(estimate.heaps),
        estimate.misere,
        value,
        True,
        0,
        0,
        certificate,
        timings,
        method=CLOSED_FORM,
    )


def _solve_by_first_heap(
    estimate: SolveEstimate,
    max_nodes: int,
    prune_forced: bool,
    start: float,
    progress: RoundReport | None,
) -> EquilibriumResult:
    parts: list[EquilibriumResult] = []
    variant, heaps, misere = estimate.variant, estimate.heaps, estimate.misere
    for part in estimate.parts:
        k = part.root_heap
        if part.method == "restricted":
            # L secures the best certified lower bound so far by another first heap: a part
            # proven unable to beat it need not be solved to the end
            enough = max((p.certificate.lower for p in parts), default=None)
            parts.append(_solve_restricted(variant, heaps, misere, k, max_nodes, progress, enough))
            continue
        t0 = time.perf_counter()
        tree = build_tree(
            variant,
            heaps,
            misere=misere,
            max_nodes=max_nodes,
            prune_forced=prune_forced,
            root_heap=k,
            check_estimate=False,
        )
        parts.append(solve_tree(tree, started=(t0, time.perf_counter())))
    lower = max(p.certificate.lower for p in parts)
    upper = max(p.certificate.upper for p in parts)
    exact = lower == upper  # every part exact, or proven unable to beat the best
    method = "max over first heaps of: " + "; ".join(sorted({p.certificate.method for p in parts}))
    timings = {key: sum(p.timings[key] for p in parts) for key in ("build", "lp", "certify")}
    timings["total"] = time.perf_counter() - start
    best = max(parts, key=lambda p: p.value)
    return EquilibriumResult(
        variant,
        tuple(heaps),
        misere,
        lower if exact else best.value,
        exact,
        sum(p.nodes for p in parts),
        sum(p.infosets for p in parts),
        Certificate(lower, upper, method),
        timings,
        method="+".join(sorted({p.method for p in parts})),
    )


def solve_tree(
    tree: GameTree, *, strategies: bool = False, started: tuple[float, float] | None = None
) -> EquilibriumResult:
    """Solve and certify an already built tree (see :func:`solve`)."""
    start, built = started or (time.perf_counter(),) * 2
    form = sequence_form(tree)
    lp = solve_lp(form)
    solved = time.perf_counter()
    certificate, behaviours = certify_lp(tree, form, lp)
    certified = time.perf_counter()
    value = (
        certificate.lower if certificate.certified else Fraction(lp.value).limit_denominator(10**6)
    )
    entries = strategy_entries(tree, behaviours) if strategies else None
    end = time.perf_counter()
    timings = {
        "build": built - start,
        "lp": solved - built,
        "certify": certified - solved,
        "total": end - start,
    }
    return EquilibriumResult(
        tree.variant,
        tree.position,
        tree.misere,
        value,
        certificate.certified,
        tree.nodes,
        tree.infoset_count,
        certificate,
        timings,
        entries,
        behaviours,
    )

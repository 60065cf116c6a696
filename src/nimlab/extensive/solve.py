"""Solve a variant exactly: build the tree, solve the sequence-form LP, certify in rationals.

>>> result = solve("sn", (3, 2, 1))
>>> result.value, result.exact
(Fraction(0, 1), True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from nimlab.core.heaps import check_heaps
from nimlab.errors import NimlabError
from nimlab.extensive.certify import (
    Behaviour,
    Certificate,
    behaviour_from_plan,
    certify,
    exact_plans_from_basis,
)
from nimlab.extensive.lp import LpSolution, lp_matrix, solve_lp
from nimlab.extensive.results import EquilibriumResult
from nimlab.extensive.rules import Rules, variant_rules
from nimlab.extensive.seqform import SequenceForm, sequence_form
from nimlab.extensive.strategy import strategy_entries
from nimlab.extensive.tree import DEFAULT_MAX_NODES, GameTree, build_tree, estimate_nodes

if TYPE_CHECKING:
    from nimlab.extensive.oracle import Round

RoundReport = Callable[[int | None, "Round"], None]
"""A progress callback: the first heap of the part (or None) and the round just finished."""

__all__ = [
    "BASIS_LIMIT",
    "DENOMINATORS",
    "METHODS",
    "RESTRICT_ABOVE",
    "ROUNDING_TOLERANCE",
    "RoundReport",
    "certify_lp",
    "solve",
    "solve_tree",
]

DENOMINATORS = (100, 10_000, 1_000_000, 10_000_000, 1_000_000_000)
"""Denominator bounds tried, in turn, when rounding the LP's behaviour strategies."""

ROUNDING_TOLERANCE = 1e-7
"""A rounding that moves some reached probability further than this is not even certified
(except with the last, finest denominator bound)."""

BASIS_LIMIT = 1500
"""Largest optimal basis (basic columns) re-solved exactly when rounding does not certify."""

METHODS = ("auto", "lp", "restricted")
"""How a game (or each part of a decomposed one) is solved: ``lp``, the LP of the whole tree;
``restricted``, restricted games grown until their bounds meet
(:mod:`nimlab.extensive.oracle`); ``auto``, ``restricted`` when the tree is estimated to have
more than :data:`RESTRICT_ABOVE` nodes."""

RESTRICT_ABOVE = 1_000_000
"""Estimated nodes above which ``auto`` solves by restricted games (measured: SN(8,8,1)'s
6.2-million-node first part takes 98 s and 4 GB whole, 63 s and 0.3 GB restricted)."""


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
    """
    start = time.perf_counter()
    rules = variant_rules(variant)
    if method not in METHODS:
        raise NimlabError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    if strategies or not prune_forced:
        method = "lp"
    if decompose and not strategies and rules.announces_heap and len(heaps) > 1 and any(heaps):
        return _solve_by_first_heap(
            variant, heaps, misere, max_nodes, prune_forced, method, start, progress
        )
    if _restricted(rules, heaps, None, method):
        return _solve_restricted(variant, heaps, misere, None, max_nodes, progress)
    tree = build_tree(variant, heaps, misere=misere, max_nodes=max_nodes, prune_forced=prune_forced)
    built = time.perf_counter()
    return solve_tree(tree, strategies=strategies, started=(start, built))


def _restricted(rules: Rules, heaps: tuple[int, ...], root_heap: int | None, method: str) -> bool:
    """Whether ``method`` solves this game (or part) by restricted games."""
    if method != "auto":
        return method == "restricted"
    position = check_heaps(heaps)
    if not any(position):
        return False
    for probes in (128, 2048):  # the estimate runs low: look closer unless the game is tiny
        estimate = estimate_nodes(
            rules, position, probes=probes, root_heap=root_heap, prune_forced=True, known_wins=True
        )
        if estimate < RESTRICT_ABOVE // 20:
            return False
    return estimate > RESTRICT_ABOVE


def _solve_restricted(
    variant: str,
    heaps: tuple[int, ...],
    misere: bool,
    root_heap: int | None,
    max_nodes: int,
    progress: RoundReport | None,
) -> EquilibriumResult:
    from nimlab.extensive.oracle import solve_restricted

    def report(step: Round) -> None:
        if progress is not None:
            progress(root_heap, step)

    return solve_restricted(
        variant, heaps, misere=misere, root_heap=root_heap, max_nodes=max_nodes, progress=report
    )


def _solve_by_first_heap(
    variant: str,
    heaps: tuple[int, ...],
    misere: bool,
    max_nodes: int,
    prune_forced: bool,
    method: str,
    start: float,
    progress: RoundReport | None,
) -> EquilibriumResult:
    parts: list[EquilibriumResult] = []
    rules = variant_rules(variant)
    seen: set[int] = set()
    for k, size in enumerate(heaps):
        if size == 0 or size in seen:
            continue
        seen.add(size)
        if _restricted(rules, heaps, k, method):
            parts.append(_solve_restricted(variant, heaps, misere, k, max_nodes, progress))
            continue
        t0 = time.perf_counter()
        tree = build_tree(
            variant,
            heaps,
            misere=misere,
            max_nodes=max_nodes,
            prune_forced=prune_forced,
            root_heap=k,
        )
        parts.append(solve_tree(tree, started=(t0, time.perf_counter())))
    lower = max(p.certificate.lower for p in parts)
    upper = max(p.certificate.upper for p in parts)
    exact = all(p.exact for p in parts)
    method = "max over first heaps of: " + "; ".join(sorted({p.certificate.method for p in parts}))
    timings = {key: sum(p.timings[key] for p in parts) for key in ("build", "lp", "certify")}
    timings["total"] = time.perf_counter() - start
    best = max(parts, key=lambda p: p.value)
    return EquilibriumResult(
        variant,
        tuple(heaps),
        misere,
        lower if exact else best.value,
        exact and lower == upper,
        sum(p.nodes for p in parts),
        sum(p.infosets for p in parts),
        Certificate(lower, upper, method),
        timings,
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


def certify_lp(
    tree: GameTree, form: SequenceForm, lp: LpSolution
) -> tuple[Certificate, tuple[Behaviour, Behaviour]]:
    """Exact bounds from the LP's plans: rounded with finer and finer denominators, then, if
    that does not close the gap, re-solved exactly from the optimal basis (small bases)."""
    behaviours: tuple[Behaviour, Behaviour] = ([], [])
    certificate = Certificate(Fraction(-1), Fraction(1), "none")
    for denominator in DENOMINATORS:
        last = denominator == DENOMINATORS[-1]
        tolerance = None if last else ROUNDING_TOLERANCE
        bx = behaviour_from_plan(tree, 0, lp.x, denominator, tolerance=tolerance)
        by = behaviour_from_plan(tree, 1, lp.y, denominator, tolerance=tolerance)
        if bx is None or by is None:
            continue
        behaviours = (bx, by)
        certificate = certify(tree, behaviours, f"rounding (denominators <= {denominator})")
        if certificate.certified:
            break
    if not certificate.certified and int(lp.basic_cols.sum()) <= BASIS_LIMIT:
        sizes = (form.E.shape[1], form.F.shape[0], form.F.shape[1], form.E.shape[0])
        x, y = exact_plans_from_basis(tree, lp_matrix(form), lp.basic_cols, lp.basic_rows, sizes)
        exact_x, exact_y = behaviour_from_plan(tree, 0, x), behaviour_from_plan(tree, 1, y)
        if exact_x is not None and exact_y is not None:
            candidate = certify(tree, (exact_x, exact_y), "exact optimal basis (python-flint)")
            if candidate.upper - candidate.lower <= certificate.upper - certificate.lower:
                certificate, behaviours = candidate, (exact_x, exact_y)
    return certificate, behaviours

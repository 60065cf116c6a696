"""Solving large games through restricted games whose bounds meet (a double oracle).

The full sequence-form LP of SN(9,9,1) does not fit in memory, but its equilibria use few
actions. Hold R to a set of allowed actions and let L play freely: the value of that game is
an upper bound on the true value, and its LP gives L's best reply to the restricted R, an
unrestricted strategy. Hold L instead and let R play freely: a lower bound, and R's reply.
Each round allows every action those replies use, so the sets only grow, and they stop
growing only when the bounds meet (when L's reply is allowed to L and R's to R, each
half-restricted game contains the other's equilibrium). The bounds are certified exactly
on their own trees (:func:`nimlab.equilibrium.certify.certify_lp`): R's rounded strategy in the
first game is a strategy of the full game and L's exact best response to it, computed on a
tree where L keeps every action, is an upper bound; symmetrically for the lower bound.

With the own start of :mod:`nimlab.equilibrium.warm` (Schrödinger Nim), each LP is made of
the tree reduced by :mod:`nimlab.equilibrium.collapse`: where the held player has no choice
left, the free player's subtree is one terminal worth its best reply, found by backward
induction, and that reply (the first best action meeting the fewest information sets) is
both the free player's plan there and its LP's start. The LPs shrink (in one late upper game
of SN(9,9,1), 45,015 of L's 141,921 sequences are kept) and the support added each round is
the backward induction's wherever it can be: SN(11,11,1) in 991 s and 3.35 GB instead of
1,670 s and 4.37 GB, and in 451 s (5.7 GB) with :data:`nimlab.equilibrium.warm.STALL_LIMIT`
(``BENCHMARKS.md``). The bound that decides the certificate is computed
again on the whole tree.

What a round allows next is, where :func:`takes_fewest_new` says so (SN(n1, n2, 1)), not the
LP's vertex but the free player's optimal plan with the least weight on actions not allowed
yet (:mod:`nimlab.hidden.reply`): the trees grow by less, and the LPs with them.

>>> result = solve_restricted("sn", (3, 3, 1), root_heap=0)
>>> result.value, result.exact
(Fraction(1, 3), True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from nimlab.equilibrium.certify import (
    Certificate,
    best_response_value,
    certify_lp,
    realisation_plan,
)
from nimlab.equilibrium.collapse import Collapse, ReducedTree
from nimlab.equilibrium.gametree import GameTree
from nimlab.equilibrium.lp import LpSolution
from nimlab.equilibrium.results import EquilibriumResult
from nimlab.equilibrium.seqform import sequence_form
from nimlab.equilibrium.warm import STARTS, GrowingLp
from nimlab.hidden.builder import Builder, Memo
from nimlab.hidden.protocol import Rules
from nimlab.hidden.reply import fewest_new_reply, new_sequences
from nimlab.hidden.restrict import Restriction
from nimlab.hidden.tree import DEFAULT_MAX_NODES, growing_tree

__all__ = ["MAX_ROUNDS", "Round", "solve_restricted", "takes_fewest_new"]

MAX_ROUNDS = 200
"""Rounds after which the search gives up (and reports uncertified bounds)."""


def takes_fewest_new(name: str, heaps: tuple[Any, ...], misere: bool = False) -> bool:
    """Whether the free player's reply is its optimal plan with the fewest new actions
    (:mod:`nimlab.hidden.reply`) rather than the LP's vertex: for Schrödinger Nim with
    three heaps, the smallest a single chip, in normal play, where that was measured faster
    (SN(9,7,1) 0.63x, SN(10,10,1) 0.27x, SN(11,11,1) 0.48x the time, and SN(12,12,1) in 24
    minutes). Elsewhere it was slower: SN(5,5,5) 12x, SN(6,5,4) 5.1x, SN(8,8,2) 17.8x, misère
    SN(10,10,1) 1.16x (``BENCHMARKS.md``, session 23), so the vertex stays.

    >>> takes_fewest_new("sn", (12, 12, 1)), takes_fewest_new("sn", (5, 5, 5))
    (True, False)
    """
    if name != "sn" or misere or len(heaps) != 3:
        return False
    if not all(isinstance(h, int) for h in heaps):
        return False
    smallest, middle, _ = sorted(int(h) for h in heaps)
    return smallest == 1 < middle


SUPPORT = 1e-9
"""A sequence whose float realisation probability exceeds this is in a reply's support."""


@dataclass(frozen=True)
class Round:
    """One round (numbered from 1): the float bounds, the sizes of both restricted trees, the
    actions added, the seconds taken; then, per half (the upper bound's game first), the
    seconds of its LP and HiGHS's simplex iterations."""

    index: int
    upper: float
    lower: float
    nodes: tuple[int, int]
    added: int
    seconds: float
    lp_seconds: tuple[float, float] = (0.0, 0.0)
    iterations: tuple[int, int] = (0, 0)


@dataclass
class _Half:
    """One half-restricted game: its tree, the tree its LP is made of (reduced, or the tree
    itself), that LP's solution, and the free player's plan in ``tree``. The LP's sequence
    form is not kept (made again to certify), nor the last round's games while the next are
    solved: SN(11,11,1) peaks at 5.10 GB instead of 5.58 GB (``BENCHMARKS.md``)."""

    tree: GameTree
    solved: GameTree | ReducedTree
    lp: LpSolution
    plan: npt.NDArray[np.float64]
    lp_seconds: float


def _allow_support(
    tree: GameTree, player: int, plan: npt.NDArray[np.float64], rule: Restriction
) -> int:
    """Allow every action ``player``'s plan plays with positive probability; count the new."""
    ids = tree.history_ids
    assert ids is not None  # a restricted build names its histories
    added = 0
    seq_infoset = tree.seq_infoset[player]
    for s in np.flatnonzero(plan > SUPPORT).tolist():
        if s == 0:
            continue
        info = tree.infosets[seq_infoset[s]]
        action = info.actions[s - info.first_seq]
        added += rule.allow(ids[player][info.hist], action, info.belief, info.pending)
    return added


def _certify(game: _Half, held: int) -> Certificate:
    """Exact bounds from the LP of a half-restricted game (``held``: its restricted player),
    found on the tree the LP was made of. From a reduced tree, the bound that counts, the
    free player's best response to the held player's rounded strategy, is computed again on
    the whole tree: the certificate does not rest on the reduction."""
    certificate, behaviours = certify_lp(game.solved, sequence_form(game.solved), game.lp)
    if game.solved is game.tree or not behaviours[held]:
        return certificate
    plan = realisation_plan(game.solved, held, behaviours[held])  # the same sequences
    bound = best_response_value(game.tree, 1 - held, plan)
    if held == 1:
        return Certificate(certificate.lower, bound, certificate.method)
    return Certificate(bound, certificate.upper, certificate.method)


def solve_restricted(
    variant: str | Rules,
    heaps: tuple[Any, ...],
    *,
    misere: bool = False,
    root_heap: int | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_rounds: int = MAX_ROUNDS,
    progress: Callable[[Round], None] | None = None,
    enough: Fraction | None = None,
) -> EquilibriumResult:
    """The exact value of ``variant`` from ``heaps`` by growing restricted games (see above).
    ``variant`` is a Nim variant's name, or the rules of any hidden game
    (:func:`nimlab.hidden.games.hidden_game`) with ``heaps`` its components' states.

    ``nodes`` and ``infosets`` count the two restricted trees of the last round; the
    certificate's bounds are exact best-response values, ``exact`` only when they meet.

    With ``enough`` (a value L is known to secure elsewhere: another first heap's), the
    rounds stop as soon as the upper bound is certified at most ``enough``: this game then
    cannot raise L's value, and its certificate is that upper bound alone (lower bound -1).

    >>> part = solve_restricted("sn", (5, 5, 1), root_heap=2, enough=Fraction(1, 5))
    >>> part.exact, part.certificate.upper <= Fraction(1, 5)
    (False, True)
    """
    start = time.perf_counter()
    memo = Memo()
    rules = (Restriction(), Restriction())
    timings = {"build": 0.0, "lp": 0.0, "certify": 0.0}
    name = variant if isinstance(variant, str) else variant.name
    fewest_new = takes_fewest_new(name, tuple(heaps), misere)
    lp_start = STARTS.get(name, "extended")
    # per held player: the LP of its growing tree
    lps = (GrowingLp(start=lp_start), GrowingLp(start=lp_start))
    builders: list[Builder | None] = [None, None]  # per held player: its growing tree
    # per held player: the reduction of its trees (see the module's text)
    collapses = tuple(Collapse(player=1 - held) if lp_start == "own" else None for held in (0, 1))

    def half(held: int) -> _Half:
        t0 = time.perf_counter()
        builder = builders[held]
        if builder is None:
            builder = builders[held] = growing_tree(
                variant,
                heaps,
                held,
                rules[held],
                misere=misere,
                max_nodes=max_nodes,
                root_heap=root_heap,
                memo=memo,
            )
        else:
            builder.grow()
        tree = builder.tree
        t1 = time.perf_counter()
        collapse = collapses[held]
        solved = tree if collapse is None else collapse.reduce(tree)
        form = sequence_form(solved)
        first_play = dominated = None
        if collapse is not None and solved is not tree:
            first_play, dominated = collapse.first_play, (1 - held, collapse.dominated)
        lp = lps[held].solve(solved, form, first_play, dominated)
        plan = lp.y if held == 0 else lp.x
        free = 1 - held
        if fewest_new and tree.history_ids is not None:
            new = new_sequences(solved, free, rules[free], tree.history_ids[free])
            plan = fewest_new_reply(form, lp, free, new)
        if solved is not tree:
            assert collapse is not None
            plan = collapse.expand(plan)
        lp_seconds = time.perf_counter() - t1
        timings["build"] += t1 - t0
        timings["lp"] += lp_seconds
        return _Half(tree, solved, lp, plan, lp_seconds)

    upper_game = lower_game = None
    certificate = Certificate(Fraction(-1), Fraction(1), "none")
    tried = 2.0  # the float upper bound last tried against ``enough``
    for number in range(1, max_rounds + 1):
        t0 = time.perf_counter()
        upper_game = lower_game = None  # the last round's LPs, let go before the new ones
        upper_game = half(1)
        added = _allow_support(upper_game.tree, 0, upper_game.plan, rules[0])
        lower_game = half(0)  # already facing L's newly allowed actions
        added += _allow_support(lower_game.tree, 1, lower_game.plan, rules[1])
        gap = upper_game.lp.value - lower_game.lp.value
        if progress is not None:
            nodes = (upper_game.tree.nodes, lower_game.tree.nodes)
            elapsed = time.perf_counter() - t0
            bounds = (upper_game.lp.value, lower_game.lp.value)
            lp_seconds = (upper_game.lp_seconds, lower_game.lp_seconds)
            iterations = (upper_game.lp.iterations, lower_game.lp.iterations)
            progress(Round(number, *bounds, nodes, added, elapsed, lp_seconds, iterations))
        bound = upper_game.lp.value
        if enough is not None and bound <= float(enough) + 1e-9 and bound < tried and gap >= 1e-9:
            tried = bound
            t1 = time.perf_counter()
            upper = _certify(upper_game, 1)
            timings["certify"] += time.perf_counter() - t1
            if upper.upper <= enough:
                certificate = Certificate(
                    Fraction(-1),
                    upper.upper,
                    f"restricted games, stopped at most {enough}; {upper.method}",
                )
                break
        if gap < 1e-9 or added == 0:
            t1 = time.perf_counter()
            upper = _certify(upper_game, 1)
            lower = _certify(lower_game, 0)
            timings["certify"] += time.perf_counter() - t1
            certificate = Certificate(
                lower.lower, upper.upper, f"restricted games; {lower.method}; {upper.method}"
            )
            if certificate.certified or added == 0:
                break
    assert upper_game is not None and lower_game is not None
    timings["total"] = time.perf_counter() - start
    value = (
        certificate.lower
        if certificate.certified
        else Fraction(lower_game.lp.value).limit_denominator(10**6)
    )
    return EquilibriumResult(
        name,
        tuple(heaps),
        misere,
        value,
        certificate.certified,
        upper_game.tree.nodes + lower_game.tree.nodes,
        upper_game.tree.infoset_count + lower_game.tree.infoset_count,
        certificate,
        timings,
        method="restricted",
    )

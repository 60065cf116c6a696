"""What ``solve`` will cost, estimated in well under a second, before any work is done.

:func:`estimate_solve` follows :func:`nimlab.hidden.solve.solve`'s own choices: the parts
of the decomposition by first heap (``sn``, ``fsn``), and in each part the method that will
run (``auto``: ``restricted`` above :data:`RESTRICT_ABOVE` estimated nodes, else ``lp``).
Each part's whole tree is sized by Knuth's random walks (a median of batch means,
deterministic, with a cap on the beliefs scanned) unless a closed-form lower bound on its
nodes is already hopeless (then the walks, which would be slow, are skipped). Seconds and
bytes come from formulas fitted to measured runs (``BENCHMARKS.md``, "Budgets of solve").

>>> small = estimate_solve("sn", (3, 3, 1))
>>> small.method, small.cost.seconds < 1
('decomposed by first heap: lp', True)
>>> huge = estimate_solve("kn", (60, 60, 60, 60))
>>> huge.method, huge.lower_bound, huge.cost.seconds > 1e9
('restricted', True, True)
>>> check_solve_budget(huge, Budget(600, 8 << 30), "a larger budget")
... # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
Traceback (most recent call last):
  ...
nimlab.errors.TooLargeError: solving kn(60,60,60,60) by restricted games would take about ...
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from nimlab.budget import Budget, Cost, abridged, check_cost, saturated
from nimlab.core.heaps import check_heaps
from nimlab.equilibrium.cost import BASE_BYTES, FITS, fitted_cost
from nimlab.errors import InvalidPositionError
from nimlab.hidden.estimate import estimate_nodes
from nimlab.hidden.protocol import Rules
from nimlab.hidden.variants import variant_rules

__all__ = [
    "CLOSED_FORM",
    "METHODS",
    "RESTRICT_ABOVE",
    "PartEstimate",
    "SolveEstimate",
    "check_solve_budget",
    "estimate_solve",
    "floor_position",
    "node_limit",
]

METHODS = ("auto", "lp", "restricted")
"""How a game (or each part of a decomposed one) is solved: ``lp``, the LP of the whole tree;
``restricted``, restricted games grown until their bounds meet
(:mod:`nimlab.hidden.oracle`); ``auto``, ``restricted`` when the tree is estimated to have
more than :data:`RESTRICT_ABOVE` nodes."""

RESTRICT_ABOVE = 250_000
"""Estimated nodes (of :func:`estimate_solve`'s estimator, which runs low: about 1x in
``kn``, up to 10x in ``sn``) above which ``auto`` solves a part by restricted games; the
measured crossover is near SN(7,6,1) (0.47 million nodes built, 5.2 s whole, 4.6 s
restricted)."""

PROBES = 10_240
"""Random walks per game, split between the parts (at least :data:`MIN_PROBES` each); their
mean is Knuth's unbiased estimate (a median of batch means, used before, ran 5-25x low on
SN(7,7,1)..SN(9,9,1), whose walks are heavy-tailed). About 0.3 s in all on a quiet machine
(16,384 walks took 1.3 s of processor time for fsn(5,5,4) on a loaded one)."""
MIN_PROBES = 2048
MAX_WORK = 300_000
"""Heap vectors the walks of a game (its parts together) may scan in their beliefs before
they stop (about 0.5 s on a quiet machine; 400,000 took 1.3 s of processor time for
fsn(5,5,4) on a loaded one, over the second an estimate may take)."""
CALIBRATED_HEAPS = 3
"""The most heaps of a calibrated run (``benchmarks/data/solve_costs.txt``): the walks of a
position with more share :data:`PROBES` and :data:`MAX_WORK` as if it were that many times
``heaps / CALIBRATED_HEAPS`` parts, since every heap vector they build, copy and compare is
that much longer (a 14-heap position took 1.4 s on the calibrated allowance)."""
HOPELESS_NODES = 1e11
"""Closed-form lower bounds above this many nodes are used as they are (no walks)."""
HOPELESS_WORK = 1e9

Anchor = tuple[tuple[int, ...], Cost, float, float]
"""A measured run by restricted games (position, cost) and the growth exponents of its seconds
and bytes in the closed-form node bound beyond it."""

BEYOND: dict[str, tuple[Anchor, ...]] = {
    "sn": (
        ((10, 10, 1), Cost(19.7, 442_000_000), 2.0, 1.1),
        ((11, 11, 1), Cost(309.7, 1_159_000_000), 1.5, 1.1),
    ),
}
"""Per family, its largest measured runs by restricted games, smallest first: a floor for the
estimate of a position whose closed-form node bound reaches an anchor's, extrapolated from
the largest such anchor (the random walks no longer see such trees grow: alone they
estimate SN(11,11,1) at SN(10,10,1)'s 2.4 min). Measured on 2026-11-28 (session 23, the
reply with the fewest new actions), each beside another run: SN(10,10,1) 19.7 s and 442
MB; SN(11,11,1), where the bound grows 4x, 155.9 s and 1,159 MB, and SN(11,10,1), placed as
SN(11,11,1) by :func:`floor_position`, 309.7 s and 1,124 MB: 15.7x and 2.6x at most, under
4**2 and 4**1.1 (4.6x); the second anchor takes the larger of the two. SN(12,12,1), 4x
SN(11,11,1)'s bound, 1,460.6 s and 3.45 GB: 4.7x and 3.0x, under 4**1.5 (8x) and 4**1.1.
Before (sessions 13-22) the floor stood on the slower runs of older solvers, up to 550 s and
5.6 GB for SN(11,11,1) and SN(11,10,1)."""
CLOSED_FORM = "closed form"
"""The method of a position with one non-empty heap: L, who knows it, decides the game at once
(:func:`nimlab.hidden.solve.solve` gives its value without a tree; never refused)."""
NODE_BYTES = 550
"""Peak bytes per node actually built by a whole-tree solve (SN(8,8,1): 7.46 million nodes,
4.06 GB)."""


@dataclass(frozen=True)
class PartEstimate:
    """One game solved: ``root_heap`` (L's first heap in a decomposition, else ``None``), its
    method (``lp`` or ``restricted``), its estimated whole-tree nodes, its cost and the belief
    work the cost counts (heap vectors scanned, a lower bound)."""

    root_heap: int | None
    method: str
    nodes: int
    cost: Cost
    work: float = 0.0


@dataclass(frozen=True)
class SolveEstimate:
    """The estimated cost of ``solve(variant, heaps, ...)``.

    ``method``: ``lp`` or ``restricted``, or ``decomposed by first heap: ...`` with the
    parts' methods; ``nodes``: the estimated nodes of the trees the method sizes itself by
    (the parts' whole trees); ``lower_bound``: the nodes are a closed-form lower bound (the
    game is too large to be worth walking).
    """

    variant: str
    heaps: tuple[int, ...]
    misere: bool
    method: str
    nodes: int
    cost: Cost
    parts: tuple[PartEstimate, ...]
    lower_bound: bool
    spec: str | None = None
    """The game's name in messages when it is not the variant on ``heaps`` (a catalogue
    game's hidden version, e.g. ``sn[kayles](3,2)``)."""

    @property
    def what(self) -> str:
        """``solving sn(9,9,1) by restricted games`` (for messages)."""
        kind = "misère " if self.misere else ""
        how = {"lp": "the whole tree's LP", "restricted": "restricted games"}.get(
            self.method, "parts (" + self.method.split(": ", 1)[-1] + ")"
        )
        heaps = ",".join(map(abridged, self.heaps))
        game = self.spec if self.spec is not None else f"{kind}{self.variant}({heaps})"
        return f"solving {game} by {how}"


def check_solve_budget(estimate: SolveEstimate, budget: Budget, lift: str) -> None:
    """Raise :class:`~nimlab.errors.TooLargeError` when ``estimate`` is over ``budget``.

    >>> check_solve_budget(estimate_solve("sn", (3, 2, 1)), Budget(1, 1 << 30), "--max-seconds")
    """
    check_cost(estimate.what, estimate.cost, budget, lift)


def node_limit(budget: Budget) -> int:
    """The most nodes a tree may grow to while built within ``budget``'s memory.

    >>> node_limit(Budget(600, 8 << 30))
    15618062
    """
    return int(budget.bytes // NODE_BYTES)


def estimate_solve(
    variant: str,
    heaps: tuple[int, ...],
    *,
    misere: bool = False,
    method: str = "auto",
    strategies: bool = False,
    prune_forced: bool = True,
    decompose: bool = True,
) -> SolveEstimate:
    """The cost of :func:`nimlab.hidden.solve.solve` with the same arguments.

    >>> estimate_solve("sn", (10**18, 1)).cost.seconds > 1e20
    True
    >>> estimate_solve("kn", (0, 10**18)).method  # one heap: L takes it all
    'closed form'
    >>> estimate_solve("sn", (0, 0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: position [0, 0] has no chips: give at least one ...
    """
    rules = variant_rules(variant)
    if method not in METHODS:
        raise InvalidPositionError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    position = check_heaps(heaps)
    if not any(position):
        raise InvalidPositionError(
            f"position {list(position)} has no chips: give at least one non-empty heap"
        )
    if not strategies and sum(1 for h in position if h) == 1:
        cost = Cost(0.0, int(BASE_BYTES))
        part = PartEstimate(None, CLOSED_FORM, 0, cost)
        return SolveEstimate(rules.name, position, misere, CLOSED_FORM, 0, cost, (part,), False)
    if strategies or not prune_forced:
        method = "lp"
    roots: list[int | None] = [None]
    if decompose and not strategies and rules.announces_heap and len(position) > 1:
        first: dict[int, int] = {}
        for k, size in enumerate(position):
            if size:
                first.setdefault(size, k)
        roots = list(first.values())
    log2_bound = _log2_bound(rules, position, prune_forced)
    hopeless = log2_bound > math.log2(HOPELESS_NODES)
    share = len(roots) * max(1.0, len(position) / CALIBRATED_HEAPS)
    probes = max(MIN_PROBES, int(PROBES / share))
    family = "kn" if rules.name.startswith("kn") else rules.name
    parts = []
    for root in roots:
        work = _belief_work(rules, position, root)
        if hopeless or work > HOPELESS_WORK:
            nodes = max(1, int(2 ** min(log2_bound, 1000) / len(roots)))
        else:
            nodes = estimate_nodes(
                rules,
                position,
                probes=probes,
                max_work=int(MAX_WORK / share),
                root_heap=root,
                prune_forced=prune_forced,
                known_wins=True,
                misere=misere,
            )
        how = method if method != "auto" else "restricted" if nodes > RESTRICT_ABOVE else "lp"
        cost = fitted_cost(FITS[family, how], nodes, work)
        parts.append(PartEstimate(root, how, nodes, cost, work))
    cost = parts[0].cost
    for part in parts[1:]:
        cost = cost + part.cost
    methods = sorted({part.method for part in parts})
    if "restricted" in methods and family in BEYOND:
        floor_bound = _log2_bound(rules, floor_position(position), prune_forced)
        cost = _beyond_the_largest_run(rules, family, floor_bound, prune_forced, cost)
    shown = methods[0] if roots == [None] else "decomposed by first heap: " + ", ".join(methods)
    return SolveEstimate(
        rules.name,
        position,
        misere,
        shown,
        sum(part.nodes for part in parts),
        cost,
        tuple(parts),
        hopeless,
    )


def floor_position(position: tuple[int, ...]) -> tuple[int, ...]:
    """The position whose closed-form node bound places ``position`` against
    :data:`BEYOND`'s run: every heap one chip short of the largest counted as the largest.
    Decomposed by L's first heap, the part where L starts on such a heap keeps the largest
    heap whole and grows as large as the diagonal's game (SN(10,9,1) 857 s against
    SN(10,10,1)'s 871 s in one sweep; SN(11,10,1) 550 s and 5.26 GB against SN(11,11,1)'s
    473 s and 5.6 GB on 2026-11-28), though its own bound is a doubling smaller.

    >>> floor_position((11, 10, 1)), floor_position((11, 9, 1))
    ((11, 11, 1), (11, 9, 1))
    """
    top = max(position)
    return tuple(top if height == top - 1 else height for height in position)


def _beyond_the_largest_run(
    rules: Rules, family: str, log2_bound: float, prune_forced: bool, cost: Cost
) -> Cost:
    """``cost``, raised to the floor of :data:`BEYOND` when the position's closed-form node
    bound reaches that of one of the family's largest measured runs (the largest such).

    >>> cost = estimate_solve("sn", (11, 11, 1)).cost  # measured: 155.9 s and 1,159 MB
    >>> cost.seconds >= 155.9 and cost.bytes >= 1.159e9
    True
    >>> cost = estimate_solve("sn", (11, 10, 1)).cost  # measured: 309.7 s and 1,124 MB
    >>> cost.seconds >= 309.7 and cost.bytes >= 1.124e9
    True
    >>> cost = estimate_solve("sn", (12, 12, 1)).cost  # measured: 1,460.6 s and 3.45 GB
    >>> 1460.6 <= cost.seconds <= 3600 and 3.45e9 <= cost.bytes <= 16e9
    True
    >>> estimate_solve("sn", (3, 10**6)).cost.seconds > 1e100  # no overflow
    True
    """
    reached = [
        (anchor, doublings)
        for anchor in BEYOND[family]
        if (doublings := log2_bound - _log2_bound(rules, anchor[0], prune_forced)) >= 0
    ]
    if not reached:
        return cost
    (_, measured, seconds_growth, bytes_growth), doublings = reached[-1]
    # in powers of two, capped far beyond any budget (2**1000 would overflow a float)
    seconds = measured.seconds * 2 ** min(doublings * seconds_growth, 500.0)
    size = min(measured.bytes * 2 ** min(doublings * bytes_growth, 500.0), 2.0**62)
    return Cost(max(cost.seconds, seconds), max(cost.bytes, int(size)))


def _log2_bound(rules: Rules, position: tuple[int, ...], prune_forced: bool) -> float:
    """A closed-form lower bound on log2 of a part's nodes (the walks' fallback)."""
    return max(
        _log2_nodes_bound(rules, position, prune_forced) - math.log2(len(position)),
        # L's first turn alone: every amount of every heap (L knows them all) is an action
        math.log2(saturated(sum(position))),
    )


def _belief_work(rules: Rules, position: tuple[int, ...], root: int | None) -> float:
    """A lower bound on the heap vectors scanned while updating beliefs, from R's first turn.

    ``sn``, ``fsn``: after L played on heap ``k`` (of ``h`` chips) without emptying it, R
    knows it holds 1 to ``h - 1`` chips, and looks at it: each of the ``h - 1`` sights is
    checked against each of the ``h - 1`` heaps R thinks possible. ``kn``, ``kn-empty``: R
    thinks possible each of L's ``m`` moves and has about ``m`` requests, each checked
    against each of them.
    """
    if rules.announces_heap:
        sizes = {position[k] for k in ([root] if root is not None else range(len(position)))}
        return saturated(sum((h - 1) ** 2 for h in sizes if h > 1) * len(position))
    return min(saturated(sum(position)), 1e150) ** 2  # a float beyond any budget, not inf


def _log2_nodes_bound(rules: Rules, position: tuple[int, ...], prune_forced: bool) -> float:
    """log2 of a lower bound on the number of nodes of the (reduced) whole tree.

    Every sequence of ordinary Nim moves is a path of the tree (each variant lets the mover
    make it), and it is not cut by a reduction while its positions keep enough chips: with
    the reductions, at least two heaps of 3 or more (``sn``, ``fsn``: no single move can
    then reach a position whose winner is settled) or one (``kn``: there a mover never
    knows the heaps after the opponent's move); ``kn-empty`` and ``prune_forced=False``
    have no reductions. So the sequences on the heaps that keep at least ``floor`` chips,
    one chip at a time in any order (a multinomial) or each heap in turn in any amounts
    (compositions), are leaves of the tree.

    >>> round(_log2_nodes_bound(variant_rules("kn-empty"), (1, 1, 1), True), 3)  # 3! orders
    2.585
    >>> _log2_nodes_bound(variant_rules("sn"), (9, 1), True)  # one large heap: no bound
    0.0
    """
    reduced = prune_forced and not rules.silent_passes
    floor, needed = (0, 1) if not reduced else (3, 1) if not rules.announces_heap else (3, 2)
    spare = [min(h, 10**150) - floor for h in position if h >= floor and h > 0]
    if len(spare) < needed:
        return 0.0
    total = sum(spare)
    orders = (math.lgamma(total + 1) - sum(math.lgamma(c + 1) for c in spare)) / math.log(2)
    compositions = float(sum(c - 1 for c in spare if c > 0))
    return max(orders, compositions, 0.0)

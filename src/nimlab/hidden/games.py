"""Hidden-information versions of catalogue games: the rules of a variant applied to a game's
components, the estimate of their cost, and their exact solution.

``solve_hidden("kn", "subtraction", "6", options=GameOptions(max_take=2))`` is Kriegspiel
played on one subtraction heap of 6 (take 1 or 2), solved exactly like the Nim variants: the
tree is built from :func:`nimlab.hidden.transforms.transform` of the game's component type
(:func:`nimlab.hidden.components.components_for`), then the sequence-form LP and the exact
certificate. Nim's own reductions (forced play, small heaps) apply only to Nim; other games
are solved on their whole tree.

>>> from nimlab.catalogue.base import GameOptions
>>> result = solve_hidden("kn", "subtraction", "6", options=GameOptions(max_take=2))
>>> result.value, result.exact  # not -1 as with perfect information: R cannot see the heap
(Fraction(0, 1), True)
>>> solve_hidden("sn", "kayles", "4").value  # one component: the mover sees it, and wins
Fraction(1, 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from nimlab.budget import CLI_BUDGET, Budget, Cost, check_cost
from nimlab.catalogue.base import GameOptions
from nimlab.equilibrium.cost import FITS, fitted_cost
from nimlab.equilibrium.results import EquilibriumResult
from nimlab.errors import InvalidPositionError
from nimlab.hidden.boards import DomineeringBoard, HackenbushGraph
from nimlab.hidden.budget import HOPELESS_NODES, METHODS, SolveEstimate, node_limit
from nimlab.hidden.components import (
    ComponentType,
    GrundyRow,
    HackenbushStalk,
    HeapComponent,
    Nim2dCounter,
    OctalRow,
    components_for,
)
from nimlab.hidden.estimate import estimate_nodes
from nimlab.hidden.oracle import Round, solve_restricted
from nimlab.hidden.protocol import Rules
from nimlab.hidden.tree import build_tree
from nimlab.hidden.variants import transform
from nimlab.hidden.variants import variant as registered

__all__ = [
    "MAX_SIZE",
    "PLAY_STATES",
    "HiddenGame",
    "estimate_hidden",
    "hidden_game",
    "play_nodes",
    "solve_hidden",
]

MAX_SIZE = 200
"""The most chips (heap sizes, counters of rows, edges of stalks, coordinates of counters) a
hidden game may start with: the trees grow exponentially with them (Schrödinger Nim with 25
chips, SN(12,12,1), is the largest solved: 24 minutes), and the random walks that size a tree
must stay short. Larger positions are refused at once, without walks."""


WALK_WORK = 100_000
"""States the sizing walks may scan in beliefs, each counted with the replies it is checked
against (measured: at most about a second for positions of :data:`MAX_SIZE` chips, e.g.
Schrödinger Kayles on rows of 100 and 100). A tree whose walks cannot reach the end of the
game within it is taken to be hopeless (2^MAX_SIZE nodes): sizing it from cut walks would
underestimate it without limit."""


PARTIZAN_WALK_WORK = 20_000
"""The walks' work for partizan games, whose moves cost more to list than a heap game's (a
Hackenbush graph is cut and its grounded part found; a Domineering board is scanned). With
:data:`WALK_WORK`, a 30-edge Hackenbush star was sized in 2.2 CPU s and an empty 8 x 4
Domineering board in 1.6; with this, 0.9 and 0.7 (both hopeless either way), and the estimates
of the boards the playground solves stay as they were (4 x 3 Domineering: 486,000 nodes with
either work; 10,000 would give 308,000)."""


RESTRICTED_SLOWDOWN = 10.0
"""Restricted games over the whole LP, at worst, in seconds, as measured on catalogue games
(``docs/imperfect.md``): 172.6 s against 16.3 s for Fuzzy subtraction(max 2) on heaps 4,4,3
(value -1); 142.8 s against 34.4 s for Schrödinger subtraction(max 2) on 5,4,3 (75 rounds);
but 0.39 s against 11.5 s for Kriegspiel Dawson's Kayles on 6,5."""


@dataclass(frozen=True)
class HiddenGame:
    """A variant (``sn``, ``fsn``, ``kn``, ``kn-empty``) on a catalogue game's components."""

    variant: str
    game: str
    options: dict[str, Any]
    component: ComponentType[Any]
    rules: Rules

    def parse(self, position: str | list[int] | tuple[int, ...]) -> tuple[Any, ...]:
        """A position from the game's ``analyze`` notation (or a list of heap sizes)."""
        text = position if isinstance(position, str) else ",".join(map(str, position))
        states = self.component.parse_position(text)
        if not states:
            raise InvalidPositionError(f"{self.game} position {text!r} has no component")
        return states

    def spec(self, states: tuple[Any, ...], misere: bool) -> str:
        """``kn[subtraction(S=1,2)](6)`` or with ``;misere``."""
        suffix = ";misere" if misere else ""
        text = self.component.format_position(states)
        return f"{self.variant}[{self.component.name}]({text}{suffix})"


def hidden_game(variant: str, game: str, options: GameOptions | None = None) -> HiddenGame:
    """The hidden-information game ``variant`` of catalogue game ``game`` with ``options``.

    >>> hidden_game("kn", "red-blue-hackenbush").component.name
    'red-blue-hackenbush'
    >>> hidden_game("kn-empty", "kayles")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: ...
    """
    registered(variant)
    given = options or GameOptions()
    component = components_for(game, given)
    shown = {flag.removeprefix("--"): _option_value(given, flag) for flag in given.given()}
    shown.pop("misere", None)
    return HiddenGame(variant, component.name, shown, component, transform(variant, component))


def _option_value(options: GameOptions, flag: str) -> Any:
    value = {
        "--set": options.subtraction_set,
        "--max": options.max_take,
        "--code": options.code,
    }.get(flag)
    return list(value) if isinstance(value, tuple) else value


def _size(component: ComponentType[Any], state: Any) -> int:
    """The chips of one component: what the tree's depth and width grow with (the empty
    cells of a board, the edges of a graph)."""
    if isinstance(component, HeapComponent):
        return int(state)
    if isinstance(component, OctalRow | GrundyRow):
        return sum(length for _, length in state)
    if isinstance(component, HackenbushStalk):
        return len(state)
    if isinstance(component, Nim2dCounter):
        return int(state[0]) + int(state[1])
    if isinstance(component, DomineeringBoard):
        return str(state).count(".")
    if isinstance(component, HackenbushGraph):
        return len(state)
    return MAX_SIZE + 1  # an unknown kind of component is not sized: refused


PLAY_STATES = 2_000
"""Distinct positions :func:`play_nodes` may memoise (at most about 0.2 s, for Hackenbush
graphs, whose cuts are the slowest moves): a game that reaches more has at least that many
nodes, and at least as many as the largest subtree counted."""


def play_nodes(component: ComponentType[Any], states: tuple[Any, ...]) -> int:
    """The nodes of the perfect-information game tree of a partizan game from ``states``, L
    first (every sequence of moves until the mover has none), counted exactly by memoised
    recursion over positions; when more than :data:`PLAY_STATES` positions are reached, a
    lower bound (that many, or the largest subtree counted before).

    A lower bound on the nodes of its Kriegspiel tree: every sequence of real moves is a path
    of it (the refused requests and the umpire's messages only add nodes). Random walks
    cannot see such a tree: the long sequences (cut one edge at a time) are all of it, and a
    walk, which cuts at a random height, almost never takes one (two stalks of 40 edges were
    walked at 25,821 nodes; they have 2.1e23, and this bound, over the positions' cap, finds
    6.5e17).

    >>> play_nodes(HackenbushStalk(), ("BR", "RB"))  # its Kriegspiel tree: 11 nodes
    9
    >>> play_nodes(HackenbushStalk(), ("B" * 10, "R" * 10))  # the tree built: 352,716 nodes
    352716
    >>> play_nodes(HackenbushStalk(), ("B" * 40, "R" * 40)) > 10**17
    True
    """
    memo: dict[tuple[tuple[Any, ...], int], int] = {}

    def count(position: tuple[Any, ...], player: int) -> int:
        key = (position, player)
        found = memo.get(key)
        if found is not None:
            return found
        if len(memo) >= PLAY_STATES:
            raise _TooManyError
        total = 1
        for k, state in enumerate(position):
            for _, after in component.moves(state, player):
                total += count((*position[:k], after, *position[k + 1 :]), 1 - player)
        memo[key] = total
        return total

    try:
        return count(tuple(states), 0)
    except _TooManyError:
        return max(PLAY_STATES, *memo.values())


class _TooManyError(Exception):
    """More positions than :data:`PLAY_STATES`."""


def estimate_hidden(
    hidden: HiddenGame,
    states: tuple[Any, ...],
    *,
    misere: bool = False,
    method: str = "auto",
    strategies: bool = False,
) -> SolveEstimate:
    """The estimated cost of solving ``hidden`` from ``states`` by ``method``: Knuth's random
    walks over the tree (capped in work), then the Nim variants' fitted cost per node of the
    whole tree's LP (``BENCHMARKS.md``). Positions over :data:`MAX_SIZE` chips are hopeless.
    For partizan games the nodes are at least :func:`play_nodes` (the walks alone sized two
    40-edge stalks at 25,821 nodes, and two 10-edge ones at 242,012 where 352,716 are built:
    estimated 16 s now, solved in 6.1 s).

    ``auto`` (and any request for ``strategies``) is the whole LP, whose cost is calibrated.
    Restricted games (``restricted``) have no such calibration on catalogue games: they were
    30x faster than the LP on one game and 10x slower on another (:data:`RESTRICTED_SLOWDOWN`),
    so they are estimated at the bound measured, that many times the LP's seconds, in at most
    the LP's memory (their trees are parts of the whole tree).

    >>> hidden = hidden_game("sn", "kayles", GameOptions())
    >>> estimate = estimate_hidden(hidden, hidden.parse("3,2"), method="restricted")
    >>> whole = estimate_hidden(hidden, hidden.parse("3,2"))
    >>> estimate.what, whole.method
    ('solving sn[kayles](3,2) by restricted games', 'lp')
    >>> estimate.cost.seconds == RESTRICTED_SLOWDOWN * whole.cost.seconds
    True
    """
    if method not in METHODS:
        raise InvalidPositionError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    size = sum(_size(hidden.component, state) for state in states)
    family = "kn" if hidden.variant.startswith("kn") else hidden.variant
    # partizan games: the move sequences bound the tree from below (random walks miss them)
    bound = (
        0 if size > MAX_SIZE or hidden.component.impartial else play_nodes(hidden.component, states)
    )
    if size > MAX_SIZE:
        nodes = 2**MAX_SIZE
    elif bound > HOPELESS_NODES:
        nodes = bound  # far beyond any budget: the walks would only take their half-second
    else:
        nodes = max(
            bound,
            estimate_nodes(
                hidden.rules,
                states,
                probes=2048,
                max_work=WALK_WORK if hidden.component.impartial else PARTIZAN_WALK_WORK,
                prune_forced=False,
                known_wins=False,
                misere=misere,
                unfinished=2**MAX_SIZE,
            ),
        )
    if strategies or method == "auto":
        method = "lp"
    cost = fitted_cost(FITS[family, "lp"], nodes, 0.0)
    if method == "restricted":
        cost = Cost(RESTRICTED_SLOWDOWN * cost.seconds, cost.bytes)
    return SolveEstimate(
        hidden.variant,
        (),
        misere,
        method,
        nodes,
        cost,
        (),
        size > MAX_SIZE,
        spec=hidden.spec(states, misere),
    )


def solve_hidden(
    variant: str,
    game: str,
    position: str | list[int] | tuple[int, ...],
    *,
    options: GameOptions | None = None,
    misere: bool = False,
    method: str = "auto",
    strategies: bool = False,
    budget: Budget | None = CLI_BUDGET,
    max_nodes: int | None = None,
    estimate: SolveEstimate | None = None,
    progress: Callable[[Round], None] | None = None,
) -> EquilibriumResult:
    """The exact value for L (who moves first) of ``variant`` on ``game`` from ``position``,
    by ``method`` (see :func:`estimate_hidden`; restricted games report each round to
    ``progress``).

    Refused (:class:`~nimlab.errors.TooLargeError`) before any work when the estimate is over
    ``budget`` (``None``: not checked), and while building when a tree passes ``max_nodes``
    (default: as many as ``budget``'s memory holds). Pass the ``estimate`` of
    :func:`estimate_hidden` if it is already known.

    >>> small = solve_hidden("kn", "dawson-kayles", "5,3", method="restricted")
    >>> small.value == solve_hidden("kn", "dawson-kayles", "5,3", method="lp").value
    True
    >>> small.method, small.exact
    ('restricted', True)
    """
    from nimlab.hidden.solve import TREES, solve_tree

    start = time.perf_counter()
    hidden = hidden_game(variant, game, options)
    states = hidden.parse(position)
    if hidden.rules.over(states, 0):
        text = hidden.component.format_position(states)
        raise InvalidPositionError(f"{hidden.game} position {text!r}: L has no move to start")
    if estimate is None:
        estimate = estimate_hidden(
            hidden, states, misere=misere, method=method, strategies=strategies
        )
    if budget is not None:
        check_cost(estimate.what, estimate.cost, budget, "a larger budget (the budget argument)")
    limit = max_nodes if max_nodes is not None else node_limit(budget or CLI_BUDGET)
    if estimate.method == "restricted":
        result = solve_restricted(
            hidden.rules, states, misere=misere, max_nodes=limit, progress=progress
        )
    else:
        tree = build_tree(
            hidden.rules,
            states,
            misere=misere,
            max_nodes=limit,
            prune_forced=False,
            known_wins=False,
            check_estimate=False,
        )
        result = solve_tree(tree, strategies=strategies, started=(start, time.perf_counter()))
    return replace(
        result,
        tree=TREES["restricted" if estimate.method == "restricted" else "whole"],
        variant=variant,
        position=(),
        game=hidden.game,
        options=hidden.options,
        notation=hidden.component.format_position(states),
    )

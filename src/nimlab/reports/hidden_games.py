"""``nimlab reproduce hidden-games``: exact values of hidden-information catalogue games.

Seed 000 solves Schrödinger, Fuzzy and Kriegspiel versions of Nim only; it says the rules
apply to subtraction games and (Kriegspiel) to any combinatorial game. This report solves
them, exactly, on small positions of subtraction games with S = {1,2} and {1,2,3}, Kayles and
Dawson's Kayles rows, and Kriegspiel red-blue Hackenbush stalks, in normal and misère play;
beside every value it puts the perfect-information outcome (:func:`perfect_outcome`, a
brute force over the components' moves, independent of the solver), and it checks, as
observations over the positions computed (never as theorems), which of the paper's
statements about Nim carry over.

Every game goes through :func:`nimlab.hidden.games.solve_hidden` with a per-game budget;
a game estimated over it is listed as not computed ("—"), never guessed.

>>> from nimlab.hidden.components import components_for
>>> perfect_outcome(components_for("subtraction", GameOptions(max_take=2)), (6,))
-1
>>> perfect_outcome(components_for("red-blue-hackenbush"), ("BR", "RB"))
-1
"""

from __future__ import annotations

import csv
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from nimlab.budget import GIB, Budget
from nimlab.catalogue.base import GameOptions
from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.exact import exact_str
from nimlab.hidden.components import ComponentType, components_for
from nimlab.hidden.games import solve_hidden
from nimlab.hidden.solve import solve

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_MAX_NODES",
    "DEFAULT_REACH",
    "MAX_REACH",
    "MAX_STALK",
    "Family",
    "Result",
    "families",
    "perfect_outcome",
    "write_report",
]

DEFAULT_REACH = 5
"""The largest component (chips of a heap, counters of a row) of the two-component tables."""

DEFAULT_BUDGET = Budget(seconds=2.0, bytes=2 * GIB)
"""The most one game may be estimated to cost in the default report (about a minute in all)."""

MAX_REACH = 12
"""The largest reach: beyond it even listing the positions is long, and no game would solve."""

MAX_STALK = 6
"""The longest Hackenbush stalk of the tables (there are ``2**n`` stalks of ``n`` edges)."""

DEFAULT_MAX_NODES = 600_000
"""The most nodes one game's tree may have in the default report: the estimate can be low for
Kriegspiel, whose trees this stops while they are built."""

PAPER = (
    "M. van den Bergh, W. Kusters, F. Spieksma, *Nim variants*, ICGA Journal 44(1), 2022 (seed 000)"
)

NIM_CONTROL = ("1", "3", "1,1", "2,1", "2,2", "3,1", "3,2", "3,3", "2,1,1", "2,2,1", "3,3,1")
"""Nim positions solved both through the generic transforms and by Nim's own solver (those
with heaps up to the report's reach)."""

CONVENTIONS = (False, True)
"""Normal play, then misère."""


@dataclass(frozen=True)
class Family:
    """A table of the report: one catalogue game, its options, the variants and positions."""

    key: str
    title: str
    game: str
    options: GameOptions
    variants: tuple[str, ...]
    positions: tuple[str, ...]


@dataclass(frozen=True)
class Result:
    """One game of the report: ``value`` is ``None`` when it was over the per-game budget."""

    family: str
    variant: str
    position: str
    misere: bool
    perfect: int
    value: Fraction | None
    exact: bool
    nodes: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """Exact values as ``"p/q"`` strings; ``value`` is ``null`` when not computed."""
        return {
            "family": self.family,
            "variant": self.variant,
            "position": self.position,
            "misere": self.misere,
            "perfect": self.perfect,
            "value": None if self.value is None else exact_str(self.value),
            "exact": self.exact,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def perfect_outcome(
    component: ComponentType[Any], states: tuple[Any, ...], misere: bool = False
) -> int:
    """The outcome with perfect information, for L who moves first: ``1`` if L wins, ``-1``
    if R does (a brute force over the components' moves; the player with no move loses, or
    in misère play wins).

    >>> nim = components_for("nim")
    >>> perfect_outcome(nim, (1, 2, 3)), perfect_outcome(nim, (1, 1), misere=True)
    (-1, 1)
    """

    @cache
    def wins(position: tuple[Any, ...], player: int) -> bool:
        after = [
            (*position[:i], state, *position[i + 1 :])
            for i, part in enumerate(position)
            for _, state in component.moves(part, player)
        ]
        if not after:
            return misere
        return any(not wins(next_position, 1 - player) for next_position in after)

    return 1 if wins(tuple(states), 0) else -1


def _pairs(items: list[str]) -> list[str]:
    """Every pair of ``items`` (the later one first), by increasing later one."""
    return [f"{a},{b}" for i, a in enumerate(items) for b in items[: i + 1]]


def check_reach(reach: int | None, budget: Budget) -> None:
    """Refuse a reach out of range (:class:`~nimlab.errors.InvalidPositionError`) before
    anything is computed; each game has its own budget, so ``budget`` bounds nothing more.

    >>> check_reach(13, DEFAULT_BUDGET)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: the reach must be 1 to 12, not 13
    """
    if reach is not None and not 1 <= reach <= MAX_REACH:
        raise InvalidPositionError(f"the reach must be 1 to {MAX_REACH}, not {reach}")


def families(reach: int = DEFAULT_REACH) -> list[Family]:
    """The report's tables for components up to ``reach``: heaps and rows alone (a heap up
    to ``2 * reach``, a row up to ``reach + 2``) and in pairs, Schrödinger ``(n1, n2, 1)``,
    Hackenbush stalks of up to ``reach`` edges alone and of up to ``reach - 2`` in pairs
    (at most :data:`MAX_STALK` edges: every colouring of a stalk is there).

    >>> [family.key for family in families(3)]  # doctest: +NORMALIZE_WHITESPACE
    ['nim', 'sub12', 'sub123', 'sub12-three', 'sub123-three', 'kayles', 'dawson-kayles',
     'hackenbush']
    """
    sizes = [str(n) for n in range(1, reach + 1)]
    heaps = [*map(str, range(1, 2 * reach + 1)), *_pairs(sizes)]
    rows = [*map(str, range(1, reach + 3)), *_pairs(sizes)]
    three = [f"{a},{b},1" for b in range(3, reach + 1) for a in range(b, reach + 1)]
    check_reach(reach, DEFAULT_BUDGET)
    longest = min(reach, MAX_STALK)
    stalks = ["".join(s) for n in range(1, longest + 1) for s in itertools.product("BR", repeat=n)]
    short = [s for s in stalks if len(s) <= max(longest - 2, 1)]
    hidden = ("sn", "fsn", "kn")
    nim = tuple(p for p in NIM_CONTROL if max(_sizes(p)) <= reach)
    family = [
        Family("nim", "Nim (control)", "nim", GameOptions(), hidden, nim),
        *(
            Family(
                f"sub{''.join(map(str, range(1, k + 1)))}",
                f"subtraction, S = {{{','.join(map(str, range(1, k + 1)))}}}",
                "subtraction",
                GameOptions(max_take=k),
                hidden,
                tuple(heaps),
            )
            for k in (2, 3)
        ),
        *(
            Family(
                f"sub{''.join(map(str, range(1, k + 1)))}-three",
                f"Schrödinger subtraction, S = {{{','.join(map(str, range(1, k + 1)))}}}, "
                "(n1, n2, 1)",
                "subtraction",
                GameOptions(max_take=k),
                ("sn",),
                tuple(three),
            )
            for k in (2, 3)
        ),
        Family("kayles", "Kayles rows", "kayles", GameOptions(), hidden, tuple(rows)),
        Family(
            "dawson-kayles",
            "Dawson's Kayles rows",
            "dawson-kayles",
            GameOptions(),
            hidden,
            tuple(rows),
        ),
        Family(
            "hackenbush",
            "Kriegspiel red-blue Hackenbush stalks (L = Blue moves first)",
            "red-blue-hackenbush",
            GameOptions(),
            ("kn",),
            (*stalks, *_pairs(short)),
        ),
    ]
    return family


class _Runner:
    """Solves every game of the report once, within the per-game budget."""

    def __init__(
        self, budget: Budget, max_nodes: int | None, progress: Callable[[str], None] | None
    ) -> None:
        self.budget = budget
        self.max_nodes = max_nodes
        self.progress = progress
        self.results: dict[tuple[str, str, str, bool], Result] = {}

    def run(self, family: Family) -> list[str]:
        """Solve ``family``'s games; its positions where L has a move to start."""
        component = components_for(family.game, family.options)
        kept = []
        for position in family.positions:
            states = component.parse_position(position)
            if not any(component.moves(state, 0) for state in states):
                continue  # L cannot move: no game to hide
            kept.append(position)
            for misere, variant in itertools.product(CONVENTIONS, family.variants):
                perfect = perfect_outcome(component, states, misere)
                self.results[family.key, variant, position, misere] = self._solve(
                    family, variant, position, misere, perfect
                )
        return kept

    def _solve(
        self, family: Family, variant: str, position: str, misere: bool, perfect: int
    ) -> Result:
        start = time.perf_counter()
        try:
            result = solve_hidden(
                variant,
                family.game,
                position,
                options=family.options,
                misere=misere,
                budget=self.budget,
                max_nodes=self.max_nodes,
            )
        except TooLargeError:
            value, exact, nodes = None, False, 0
        else:
            value, exact, nodes = result.value, result.exact, result.nodes
        seconds = time.perf_counter() - start
        if self.progress is not None:
            shown = "over budget" if value is None else exact_str(value)
            kind = " misère" if misere else ""
            self.progress(f"{variant} {family.game}{kind} {position}: {shown} ({seconds:.2f} s)")
        return Result(family.key, variant, position, misere, perfect, value, exact, nodes, seconds)

    def value(self, family: str, variant: str, position: str, misere: bool) -> Fraction | None:
        """The value of one game, ``None`` if not computed or not in the report."""
        found = self.results.get((family, variant, position, misere))
        return None if found is None else found.value


def _cell(value: Fraction | None) -> str:
    return "—" if value is None else exact_str(value)


def _table(runner: _Runner, family: Family, positions: list[str]) -> list[str]:
    """Rows: positions; columns: per convention, the perfect-information outcome and each
    variant's value."""
    head = ["position"]
    for misere in CONVENTIONS:
        kind = "misère " if misere else ""
        head += [f"{kind}perfect info", *(f"{kind}{v}" for v in family.variants)]
    if family.key == "nim":
        head += [f"{v} (Nim solver)" for v in family.variants]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for position in positions:
        cells = [position]
        for misere in CONVENTIONS:
            first = runner.results[family.key, family.variants[0], position, misere]
            cells.append(str(first.perfect))
            cells += [_cell(runner.value(family.key, v, position, misere)) for v in family.variants]
        if family.key == "nim":
            heaps = tuple(int(h) for h in position.split(","))
            cells += [exact_str(solve(v, heaps).value) for v in family.variants]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


Claim = Callable[[Result], Fraction | None]
"""What a statement predicts for one game (``None``: the statement says nothing of it)."""


def _sizes(position: str) -> list[int]:
    return [int(part) for part in position.split(",")]


def _check(runner: _Runner, family: Family, variant: str, misere: bool, claim: Claim) -> str:
    """Whether ``claim`` holds on ``family``'s games, with the positions checked and every
    counterexample (its value and the perfect-information outcome)."""
    held: list[str] = []
    failed: list[str] = []
    missing: list[str] = []
    for (key, var, position, conv), result in runner.results.items():
        if (key, var, conv) != (family.key, variant, misere):
            continue
        predicted = claim(result)
        if predicted is None:
            continue
        if result.value is None:
            missing.append(f"({position})")
        elif result.value == predicted and result.exact:
            held.append(f"({position})")
        else:
            failed.append(
                f"({position}) = {exact_str(result.value)} "
                f"[claimed {exact_str(predicted)}, perfect info {result.perfect}]"
            )
    where = f"{family.title}, {variant}{' misère' if misere else ''}"
    if not held and not failed:
        return f"* {where}: no position computed."
    if failed:
        text = (
            f"* {where}: **fails** on {len(failed)} of {len(held) + len(failed)} positions: "
            + "; ".join(failed)
            + (f". Holds on {', '.join(held)}" if held else "")
        )
    else:
        text = f"* {where}: holds on all {len(held)} positions checked: {', '.join(held)}"
    if missing:
        text += f". Over the budget, not checked: {', '.join(missing)}"
    return text + "."


def _fsn_claim(sizes: list[int], misere: bool) -> Fraction:
    """Theorems 4.1 (normal) and 4.2 (misère) of the paper, on the components' sizes."""
    big = sum(1 for size in sizes if size > 1)
    if big == 0:
        sign = 1 if len(sizes) % 2 == 1 else -1
        return Fraction(-sign if misere else sign)
    return Fraction(1 if big == 1 else 0)


def _lemmas(runner: _Runner, family: Family) -> list[str]:
    """Lemma 3.1 (v(n1, n2, 1) non-decreasing in n1 >= n2 >= 3) and Lemma 3.2 (in [0, 1/4]
    for n1, n2 >= 4) on ``family``'s three-component games."""
    values: dict[tuple[int, int], Fraction] = {}
    for position in family.positions:
        value = runner.value(family.key, "sn", position, False)
        if value is not None:
            n1, n2, _ = _sizes(position)
            values[n1, n2] = value
    drops = [
        f"({n1 + 1},{n2},1) = {exact_str(values[n1 + 1, n2])} < ({n1},{n2},1) = {exact_str(v)}"
        for (n1, n2), v in sorted(values.items())
        if (n1 + 1, n2) in values and values[n1 + 1, n2] < v
    ]
    pairs = [(n1, n2) for n1, n2 in values if (n1 + 1, n2) in values]
    bounded = {k: v for k, v in values.items() if min(k) >= 4}
    outside = [
        f"({n1},{n2},1) = {exact_str(v)}"
        for (n1, n2), v in sorted(bounded.items())
        if not 0 <= v <= Fraction(1, 4)
    ]
    shown = ", ".join(f"({n1},{n2},1) = {exact_str(v)}" for (n1, n2), v in sorted(values.items()))
    return [
        f"* {family.title}: values {shown or 'none computed'}.",
        "  * Lemma 3.1 (non-decreasing in n1): "
        + (
            f"**fails**: {'; '.join(drops)}."
            if drops
            else f"holds on the {len(pairs)} steps computed."
        ),
        "  * Lemma 3.2 (in [0, 1/4] for n1, n2 >= 4): "
        + (
            f"**fails**: {'; '.join(outside)}."
            if outside
            else f"holds on the {len(bounded)} positions computed."
        ),
    ]


def _single(result: Result) -> Fraction | None:
    return Fraction(result.perfect) if "," not in result.position else None


def _several(result: Result) -> Fraction | None:
    return Fraction(result.perfect) if "," in result.position else None


def _small(result: Result) -> Fraction | None:
    sizes = _sizes(result.position)
    return Fraction(result.perfect) if len(sizes) > 1 and max(sizes) <= 2 else None


def _large(result: Result) -> Fraction | None:
    sizes = _sizes(result.position)
    return Fraction(0) if len(sizes) > 1 and min(sizes) >= 3 else None


def _fsn(result: Result) -> Fraction | None:
    return _fsn_claim(_sizes(result.position), result.misere)


def _kn_pair(result: Result) -> Fraction | None:
    sizes = _sizes(result.position)
    if len(sizes) != 2 or max(sizes) < 2:
        return None
    return Fraction(0 if min(sizes) >= 2 else 1)


def _observations(runner: _Runner, by_key: dict[str, Family]) -> list[str]:
    heaps_and_rows = [by_key[k] for k in ("sub12", "sub123", "kayles", "dawson-kayles")]
    lines = [
        "## Which of the paper's statements carry over",
        "",
        "Each statement about Nim is checked on every position of the tables it speaks of; "
        "these are observations on the positions computed, not theorems. A counterexample "
        "shows its value, the value the statement claims, and the perfect-information outcome.",
        "",
        "### One component (Section 3.1: with one heap the game is Nim)",
        "",
        "Claimed: the hidden value equals the perfect-information outcome.",
        "",
    ]
    for family in [by_key["nim"], *heaps_and_rows]:
        for variant, misere in itertools.product(family.variants, CONVENTIONS):
            lines.append(_check(runner, family, variant, misere, _single))
    lines += [
        "",
        "### All components of at most 2 chips (Section 3.1: then SN is Nim)",
        "",
        "Claimed: the Schrödinger value equals the perfect-information outcome (two or more "
        "components, each of at most two chips or counters).",
        "",
    ]
    for family, misere in itertools.product(heaps_and_rows, CONVENTIONS):
        lines.append(_check(runner, family, "sn", misere, _small))
    lines += [
        "",
        "### Beyond the paper: is Schrödinger the perfect-information game?",
        "",
        "Claimed (a question, not the paper's): with two or more components, the Schrödinger "
        "value equals the perfect-information outcome.",
        "",
    ]
    for family, misere in itertools.product(heaps_and_rows, CONVENTIONS):
        lines.append(_check(runner, family, "sn", misere, _several))
    lines += [
        "",
        "### Theorem 3.1: every component large (at least 3), at least two components: value 0",
        "",
    ]
    for family, misere in itertools.product(heaps_and_rows, CONVENTIONS):
        lines.append(_check(runner, family, "sn", misere, _large))
    lines += [
        "",
        "### Theorems 4.1 and 4.2: Fuzzy Schrödinger",
        "",
        "Claimed, with the components' sizes for Nim's heaps: all of size 1: the parity of "
        "their number decides (reversed in misère play); exactly one larger than 1: value 1; "
        "otherwise 0.",
        "",
    ]
    for family, misere in itertools.product(
        [by_key[k] for k in ("nim", "sub12", "sub123", "kayles")], CONVENTIONS
    ):
        lines.append(_check(runner, family, "fsn", misere, _fsn))
    lines += [
        "",
        "### Theorem 5.1 (and Section 5): Kriegspiel with two components",
        "",
        "Claimed: both of at least 2 chips: value 0; sizes (n, 1) with n >= 2: value 1.",
        "",
    ]
    for family in [by_key["nim"], *heaps_and_rows]:
        lines.append(_check(runner, family, "kn", False, _kn_pair))
    lines += ["", "### Lemmas 3.1 and 3.2: Schrödinger (n1, n2, 1)", ""]
    for key in ("sub12-three", "sub123-three"):
        lines += _lemmas(runner, by_key[key])
    hackenbush = by_key["hackenbush"]
    lines += [
        "",
        "### Kriegspiel red-blue Hackenbush against perfect information",
        "",
        "Compared with the perfect-information outcome (L = Blue moves first); Section 6 of the "
        "paper proposes this game and makes no claim.",
        "",
        *(_check(runner, hackenbush, "kn", misere, _single) for misere in CONVENTIONS),
        *(_check(runner, hackenbush, "kn", misere, _several) for misere in CONVENTIONS),
        "",
    ]
    return lines


def write_report(
    out: Path,
    *,
    reach: int = DEFAULT_REACH,
    budget: Budget = DEFAULT_BUDGET,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    progress: Callable[[str], None] | None = None,
) -> Path:
    """Solve the report's games (components up to ``reach``, each within ``budget`` and
    ``max_nodes``, ``None``: as many as the budget's memory holds) and
    write ``out/report.md``, with every game in ``out/results.json`` and ``out/results.csv``.
    ``progress`` receives one line per game solved."""
    start = time.perf_counter()
    runner = _Runner(budget, max_nodes, progress)
    chosen = families(reach)
    by_key = {family.key: family for family in chosen}
    tables: list[str] = []
    for family in chosen:
        kept = runner.run(family)
        tables += [f"### {family.title}", "", *_table(runner, family, kept), ""]
    results = list(runner.results.values())
    nodes = "" if max_nodes is None else f", or a tree of more than {max_nodes:,} nodes"
    over = sum(1 for result in results if result.value is None)
    lines = [
        "# Hidden-information versions of catalogue games",
        "",
        f"Schrödinger (`sn`), Fuzzy (`fsn`) and Kriegspiel (`kn`) rules of {PAPER}, applied to "
        "the components of catalogue games (rules: `docs/imperfect.md`). Values are for the "
        "first player L (+1 L wins, -1 R wins), certified in exact arithmetic; in red-blue "
        "Hackenbush L is Blue and moves first. *perfect info* is the outcome of the same "
        "position with perfect information (a brute force over the components' moves, "
        "independent of the solver). `—`: over the per-game budget "
        f"({budget.seconds:g} s estimated{nodes}), not computed. Components of up to {reach} chips "
        "(one heap: twice that).",
        "",
        "## Values",
        "",
        *tables,
        *_observations(runner, by_key),
        "## Summary",
        "",
        f"* {len(results) - over} games solved exactly, {over} over the per-game budget.",
        f"* Report computed in {time.perf_counter() - start:.1f} s.",
        "",
    ]
    out.mkdir(parents=True, exist_ok=True)
    rows = [result.to_json() for result in results]
    (out / "results.json").write_text(json.dumps({"reach": reach, "results": rows}, indent=1))
    with (out / "results.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path

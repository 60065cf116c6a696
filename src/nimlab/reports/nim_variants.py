"""``nimlab reproduce nim-variants``: recompute the claims of seed 000 into a Markdown report.

The paper's claims quoted here (Tables 1 and 2, Theorems 3.1, 4.1, 4.2, 5.1, Lemmas 3.1 and
3.2, Fig. 2) are the things being checked; every value beside them is computed afresh and
certified exactly.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path

from nimlab.budget import Budget, Cost, check_cost, options_over
from nimlab.equilibrium.results import EquilibriumResult
from nimlab.equilibrium.strategy import format_strategies
from nimlab.exact import exact_str
from nimlab.hidden.budget import estimate_solve
from nimlab.hidden.components import NimHeap
from nimlab.hidden.solve import solve, solve_tree
from nimlab.hidden.transforms import kriegspiel_empty
from nimlab.hidden.tree import build_tree
from nimlab.patterns import guess_and_check

__all__ = [
    "PAPER",
    "TABLE_1",
    "TABLE_2",
    "check_grid",
    "check_reach",
    "fibonacci",
    "kriegspiel_rows",
    "patterns_section",
    "stored_positions",
    "tightened_bounds",
    "write_report",
]

PAPER = (
    "M. van den Bergh, W. Kusters, F. Spieksma, *Nim variants*, ICGA Journal 44(1), 2022 (seed 000)"
)

TABLE_1: list[tuple[str, Callable[[int], tuple[int, ...]], range, Fraction]] = [
    ("(n1,1,1), n1>=1", lambda n: (n, 1, 1), range(1, 7), Fraction(1)),
    ("(3,2,1)", lambda n: (3, 2, 1), range(1), Fraction(0)),
    ("(n1,2,1), n1>=4", lambda n: (n, 2, 1), range(4, 8), Fraction(1, 2)),
    ("(n1,3,1), n1>=3", lambda n: (n, 3, 1), range(3, 7), Fraction(1, 3)),
    ("(n1,2,2), n1>=3", lambda n: (n, 2, 2), range(3, 6), Fraction(1)),
    ("(n1,n1,2), n1>=3", lambda n: (n, n, 2), range(3, 5), Fraction(1, 3)),
    ("(n1,3,2), n1>=4", lambda n: (n, 3, 2), range(4, 5), Fraction(1, 3)),
    ("(n1,n2,n3) all >=3", lambda n: (n, 3, 3), range(3, 4), Fraction(0)),
]
"""Table 1 of the paper: a family, the sizes n1 checked here, and the claimed value."""

TABLE_2: dict[tuple[int, int], Fraction] = {
    (4, 4): Fraction(1, 5),
    (5, 4): Fraction(1, 4),
    (6, 4): Fraction(1, 4),
    (7, 4): Fraction(1, 4),
    (5, 5): Fraction(3, 13),
    (6, 5): Fraction(5, 21),
    (7, 5): Fraction(5, 21),
    (6, 6): Fraction(4, 17),
    (7, 6): Fraction(13, 55),
}
"""Table 2 of the paper: v(SN(n1, n2, 1)) keyed by (n1, n2)."""


def _fsn_claim(heaps: tuple[int, ...], misere: bool) -> Fraction:
    """Theorems 4.1 (normal) and 4.2 (misère) of the paper."""
    big = sum(1 for h in heaps if h > 1)
    if big == 0:
        sign = 1 if len(heaps) % 2 == 1 else -1
        return Fraction(-sign if misere else sign)
    return Fraction(1 if big == 1 else 0)


def _size(result: EquilibriumResult) -> tuple[int, int]:
    """Games compared by their chips, then by the nodes solved (restricted games solve far
    fewer nodes than a whole tree has)."""
    return sum(result.position), result.nodes


def _stored(store: Path, variant: str, heaps: tuple[int, ...], misere: bool) -> bool:
    """Whether ``store`` holds this version's result of the game (from ``nimlab solve`` or a
    ``nimlab sweep solve``)."""
    from nimlab.specs import solve_task
    from nimlab.store.results import ResultStore, current_version

    if not store.exists():
        return False
    task = solve_task(variant, heaps, misere=misere)
    with ResultStore(store) as results:
        return results.get(task.spec, task.accepts, current_version()) is not None


def stored_positions(store: Path, variant: str, count: int) -> list[tuple[int, ...]]:
    """The positions of ``count`` heaps at which ``store`` holds this version's result of
    ``variant`` in normal play (from ``nimlab solve`` or a sweep), fewest chips first: how a
    report takes in games solved beyond its own budget.

    >>> import tempfile
    >>> stored_positions(Path(tempfile.mkdtemp()) / "none.sqlite", "kn", 3)
    []
    """
    import re

    from nimlab.specs import solve_task
    from nimlab.store.results import ResultStore, current_version

    if not store.exists():
        return []
    pattern = re.compile(rf"{re.escape(variant)}\((\d+(?:,\d+){{{count - 1}}})\)")
    version = current_version()
    found: set[tuple[int, ...]] = set()
    with ResultStore(store, create=False) as results:
        for row in results.results(prefix=f"{variant}("):
            match = pattern.fullmatch(row.spec)
            if match is None or row.version != version:
                continue
            heaps = tuple(int(h) for h in match.group(1).split(","))
            if row.method in solve_task(variant, heaps).accepts:
                found.add(heaps)
    return sorted(found, key=lambda heaps: (sum(heaps), heaps))


class _Report:
    def __init__(
        self, progress: Callable[[str], None] | None = None, store: Path | None = None
    ) -> None:
        self.progress = progress
        self.store = store
        self.from_store = 0
        self.lines: list[str] = []
        self.checked = 0
        self.failed: list[str] = []
        self.largest: EquilibriumResult | None = None
        self.solved: dict[tuple[str, tuple[int, ...], bool], EquilibriumResult] = {}

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def solve(
        self, variant: str, heaps: tuple[int, ...], misere: bool = False
    ) -> EquilibriumResult:
        key = (variant, heaps, misere)
        if key in self.solved:
            return self.solved[key]
        served = False
        if self.store is None:
            result = solve(variant, heaps, misere=misere)
        else:
            from nimlab.specs import solve_task
            from nimlab.store import cached_result

            task = solve_task(variant, heaps, misere=misere)
            payload, served = cached_result(
                self.store,
                task.spec,
                task.method,
                lambda: solve(variant, heaps, misere=misere).to_json(),
                accepts=task.accepts,
                recorded=task.recorded,
            )
            result = EquilibriumResult.from_json(payload)
            self.from_store += served
        self.solved[key] = result
        if self.progress is not None:
            kind = " misère" if misere else ""
            heaps_text = ",".join(map(str, heaps))
            how = "from the store" if served else f"{result.seconds:.2f} s"
            self.progress(
                f"{variant}({heaps_text}){kind}: {exact_str(result.value)} "
                f"({how}; {len(self.solved)} games so far)"
            )
        if self.largest is None or _size(result) > _size(self.largest):
            self.largest = result
        return result

    def row(self, label: str, claim: Fraction | None, result: EquilibriumResult) -> str:
        ok = "" if claim is None else ("yes" if result.value == claim and result.exact else "NO")
        if claim is not None:
            self.checked += 1
            if ok == "NO":
                self.failed.append(label)
        paper = "" if claim is None else exact_str(claim)
        return (
            f"| {label} | {paper} | {exact_str(result.value)} | {result.exact} | {ok} | "
            f"{result.nodes:,} | {result.infosets:,} | {result.seconds:.2f} |"
        )

    def fibonacci_rows(self, step: int, sizes: range) -> dict[int, Fraction]:
        """Solve SN(n + step, n, 1) for ``n`` in ``sizes`` and add a row each against the
        conjectured F(2n - 6 + step)/F(2n - 3 + step); the values by ``n``."""
        values: dict[int, Fraction] = {}
        for n in sizes:
            pattern = Fraction(fibonacci(2 * n - 6 + step), fibonacci(2 * n - 3 + step))
            result = self.solve("sn", (n + step, n, 1))
            values[n] = result.value
            agrees = "yes" if result.exact and result.value == pattern else "NO"
            self.add(
                f"| SN({n + step},{n},1) | {exact_str(pattern)} | {exact_str(result.value)} | "
                f"{result.exact} | {agrees} | {result.nodes:,} | {result.infosets:,} | "
                f"{result.seconds:.2f} |"
            )
        self.add("")
        return values

    header = (
        "| game | paper | computed | exact | agrees | nodes | infosets | seconds |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    )


def _positions(sizes: Iterable[int], count: int) -> list[tuple[int, ...]]:
    return [p for p in itertools.combinations_with_replacement(sorted(sizes, reverse=True), count)]


def fibonacci(n: int) -> int:
    """The ``n``-th Fibonacci number (F(1) = F(2) = 1).

    >>> [fibonacci(n) for n in range(1, 9)]
    [1, 1, 2, 3, 5, 8, 13, 21]
    """
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def _columns(
    table: dict[tuple[int, int], Fraction], table2_max: int, kind: str
) -> dict[str, dict[int, Fraction]]:
    """The columns of a Table 2 grid as families: ``SN(n, n2, 1)`` for ``n >= n2``."""
    return {
        f"{kind}SN(n, {n2}, 1), n >= {n2}": {n: table[(n, n2)] for n in range(n2, table2_max + 1)}
        for n2 in range(4, table2_max + 1)
    }


def kriegspiel_rows(values: dict[tuple[int, ...], Fraction]) -> dict[str, dict[int, Fraction]]:
    """The rows of three-heap Kriegspiel games as families: ``KN(n, b, c)`` for ``n >= b``
    over the games in ``values`` (heaps in any order), where a row has at least three
    values (a guess made from two and checked on the third, or more).

    >>> rows = kriegspiel_rows({(n, 3, 1): Fraction(0) for n in range(3, 6)} | {(2, 2, 2): 1})
    >>> {name: list(row) for name, row in rows.items()}
    {'KN(n, 3, 1), n >= 3': [3, 4, 5]}
    """
    rows: dict[tuple[int, int], dict[int, Fraction]] = {}
    for (n, b, c), value in sorted((sorted(h, reverse=True), v) for h, v in values.items()):
        rows.setdefault((b, c), {})[n] = Fraction(value)
    return {
        f"KN(n, {b}, {c}), n >= {b}": row for (b, c), row in sorted(rows.items()) if len(row) >= 3
    }


def tightened_bounds(table: dict[tuple[int, int], Fraction]) -> list[str]:
    """Lemma 3.2 (``0 <= v <= 1/4`` for ``n1, n2 >= 4``) tightened where the computed grid
    allows: for each ``k``, the least and greatest computed ``v(SN(n1, n2, 1))`` over
    ``n1 >= n2 >= k`` (the game is symmetric in its first two heaps), with where each is
    attained. Observations on the games computed, not theorems.

    >>> grid = {(4, 4): Fraction(1, 5), (5, 4): Fraction(1, 4), (5, 5): Fraction(3, 13)}
    >>> for line in tightened_bounds(grid):
    ...     print(line)  # doctest: +NORMALIZE_WHITESPACE
    * n1, n2 >= 4: 1/5 <= v <= 1/4 (0.2000000 to 0.2500000; least at SN(4,4,1),
      greatest at SN(5,4,1); 3 games)
    * n1, n2 >= 5: 3/13 <= v <= 3/13 (0.2307692 to 0.2307692; least at SN(5,5,1),
      greatest at SN(5,5,1); 1 game)
    """
    lines = []
    for k in sorted({n2 for _, n2 in table}):
        games = {key: v for key, v in table.items() if key[1] >= k}
        least = min(games, key=lambda key: (games[key], key))
        most = max(games, key=lambda key: (games[key], key))
        count = f"{len(games)} game{'s' if len(games) > 1 else ''}"
        lines.append(
            f"* n1, n2 >= {k}: {exact_str(games[least])} <= v <= {exact_str(games[most])} "
            f"({float(games[least]):.7f} to {float(games[most]):.7f}; least at "
            f"SN({least[0]},{least[1]},1), greatest at SN({most[0]},{most[1]},1); {count})"
        )
    return lines


def patterns_section(families: dict[str, dict[int, Fraction]]) -> list[str]:
    """The report's section of patterns guessed from each family's values but its last and
    checked on the last (:mod:`nimlab.patterns`); conjectures, never theorems.

    >>> lines = patterns_section({"SN(n, 3, 1)": {n: Fraction(1, 3) for n in range(3, 7)}})
    >>> [line for line in lines if line.startswith("|")][2]
    '| SN(n, 3, 1) | v(n) = 1/3 for n >= 3 | v(3..5) = 1/3, 1/3, 1/3 | 2 | v(6) = 1/3: holds |'
    >>> patterns_section({"SN(n, 8, 1)": {8: Fraction(55, 233)}})[-2]  # doctest: +ELLIPSIS
    '| SN(n, 8, 1) | none: 1 value cannot ... (`--grid` and `--reach` add values) | | | |'
    """
    lines = [
        "## Patterns guessed and checked",
        "",
        "For each family, a closed form is guessed by exact linear algebra from every value "
        "but the last (constant, linear recurrences of order 1-3, a Möbius recurrence "
        "v(n+1) = (a v(n) + b)/(c v(n) + d), a ratio of linear functions of n; the simplest "
        "that the values over-determine), then checked on the last value, which the guess "
        "did not see. These are conjectures, not theorems.",
        "",
        "| family | conjecture | made from | spare equations | check |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, values in families.items():
        conjecture = guess_and_check(values, held_out=1) if len(values) > 1 else None
        if conjecture is None:
            lines.append(
                f"| {name} | none: {len(values)} value{'s' if len(values) > 1 else ''} "
                "cannot over-determine a guess and check it (`--grid` and `--reach` add "
                "values) | | | |"
            )
            continue
        made = conjecture.made_from
        shown = ", ".join(exact_str(v) for _, v in made)
        checks = "; ".join(
            f"v({c.n}) = {exact_str(c.computed)}: {'holds' if c.holds else 'FAILS'}"
            for c in conjecture.checks
        )
        lines.append(
            f"| {name} | {conjecture.formula} | v({made[0][0]}..{made[-1][0]}) = {shown} | "
            f"{conjecture.spare} | {checks} |"
        )
    lines.append("")
    return lines


def check_reach(
    reach: int | None, budget: Budget, *, table2_max: int = 8, store: Path | None = None
) -> None:
    """Refuse (:class:`~nimlab.errors.TooLargeError`) a diagonal SN(n, n, 1) beyond
    ``table2_max`` whose games not already in ``store`` are estimated to cost more than
    ``budget``, before anything is computed (a game solved once, by ``nimlab solve ...
    --store``, is read back and costs nothing).

    >>> from nimlab.budget import CLI_BUDGET
    >>> check_reach(9, CLI_BUDGET)
    >>> check_reach(13, CLI_BUDGET)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.TooLargeError: the diagonal ... SN(n,n-1,1) for n = 9..13 would take about ...
    """
    if reach is None or reach <= table2_max:
        return
    cost = Cost(0.0, 0)
    for n in range(table2_max + 1, reach + 1):
        for heaps in ((n, n, 1), (n, n - 1, 1)):
            if store is None or not _stored(store, "sn", heaps, False):
                cost = cost + estimate_solve("sn", heaps).cost
    what = (
        f"the diagonal SN(n,n,1) and the sub-diagonal SN(n,n-1,1) for n = {table2_max + 1}..{reach}"
    )
    check_cost(what, cost, budget, options_over(cost, budget))


def check_grid(
    grid: int, budget: Budget, *, store: Path | None = None, table2_max: int = 8
) -> None:
    """Refuse (:class:`~nimlab.errors.TooLargeError`) a grid of Table 2 (and its misère
    form) beyond ``table2_max`` whose games not already in ``store`` are estimated to cost
    more than ``budget``, before anything is computed. Each game of row ``n1`` is counted
    at the estimate of the row's largest, SN(n1, n1, 1) (one estimate per row).

    >>> from nimlab.budget import CLI_BUDGET
    >>> check_grid(8, CLI_BUDGET)
    >>> check_grid(12, CLI_BUDGET)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.TooLargeError: the grid SN(n1,n2,1) for 4 <= n2 <= n1 <= 12 would take about ...
    """
    cost = Cost(0.0, 0)
    what = f"the grid SN(n1,n2,1) for 4 <= n2 <= n1 <= {grid}"
    for n1 in range(grid, table2_max, -1):  # the largest first: an early refusal is quick
        missing = [
            (n2, misere)
            for n2 in range(4, n1 + 1)
            for misere in (False, True)
            if store is None or not _stored(store, "sn", (n1, n2, 1), misere)
        ]
        if missing:
            largest = estimate_solve("sn", (n1, n1, 1)).cost
            cost = cost + Cost(largest.seconds * len(missing), largest.bytes)
            check_cost(what, cost, budget, f"{options_over(cost, budget)}, or --store with a sweep")


def write_report(
    out: Path,
    *,
    table2_max: int = 8,
    reach: int | None = None,
    large_kn: bool = True,
    progress: Callable[[str], None] | None = None,
    store: Path | None = None,
) -> Path:
    """Recompute the paper's claims and open questions; write ``out/report.md``.

    Table 2 (and its misère form) is extended to ``table2_max``; the diagonal SN(n, n, 1)
    further, to ``reach`` (default: ``table2_max``), and compared with the pattern
    F(2n-6)/F(2n-3) it follows. ``large_kn`` adds three-heap Kriegspiel games of up to half
    a million nodes. ``progress`` hears a line per game solved. With ``store`` (a results
    store), a game this version of nimlab solved before (by ``nimlab solve`` or ``nimlab
    sweep solve``) is read from it, and a game solved here is added to it.
    """
    start = time.perf_counter()
    r = _Report(progress, store)
    r.add(f"# Reproduction: {PAPER}", "")
    r.add("Values are for the first player L (+1 L wins, -1 R wins), certified exactly.", "")

    r.add("## Table 1: three-heap Schrödinger Nim", "", *r.header)
    for label, family, sizes, claim in TABLE_1:
        for n in sizes:
            heaps = family(n)
            r.add(r.row(f"{label}: SN{heaps}", claim, r.solve("sn", heaps)))
    r.add("")

    r.add(f"## Table 2: SN(n1, n2, 1), 4 <= n2 <= n1 <= {table2_max}", "", *r.header)
    table2: dict[tuple[int, int], Fraction] = {}
    for n1 in range(4, table2_max + 1):
        for n2 in range(4, n1 + 1):
            result = r.solve("sn", (n1, n2, 1))
            table2[(n1, n2)] = result.value
            r.add(r.row(f"SN({n1},{n2},1)", TABLE_2.get((n1, n2)), result))
    r.add("")
    bounded = all(0 <= v <= Fraction(1, 4) for v in table2.values())
    monotone = all(
        table2[(n1, n2)] <= table2[(n1 + 1, n2)]
        for (n1, n2) in table2
        if (n1 + 1, n2) in table2 and n1 >= n2
    )
    r.add(
        f"* Lemma 3.2 (0 <= v <= 1/4 for n1, n2 >= 4): {'holds' if bounded else 'FAILS'} on "
        f"all {len(table2)} games above.",
        f"* Lemma 3.1 (v non-decreasing in n1 for n1 >= n2): {'holds' if monotone else 'FAILS'}"
        " on the games above.",
        "",
        "Lemma 3.2 tightened where the values above allow (observations on these games, not "
        "theorems; both ends are compared with sqrt(5) - 2 = 0.2360680, the limit of the "
        "diagonal's pattern below):",
        "",
        *tightened_bounds(table2),
        "",
    )

    last = max(reach or table2_max, table2_max)
    r.add(
        f"## Beyond the paper: the diagonal SN(n, n, 1), 4 <= n <= {last}",
        "",
        "A pattern conjectured from values computed here (not in the paper): v(SN(n, n, 1)) = "
        "F(2n-6)/F(2n-3) with F the Fibonacci numbers (1, 1, 2, 3, 5, ...). Larger games are "
        "solved by restricted games (`--method restricted`).",
        "",
        "| game | F(2n-6)/F(2n-3) | computed | exact | agrees | nodes | infosets | seconds |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    )
    diagonal = r.fibonacci_rows(0, range(4, last + 1))
    below = [(n1, n2) for n1, n2 in table2 if n1 > n2]
    plateaus = all(table2[(n1, n2)] == table2[(n2 + 1, n2)] for n1, n2 in below)
    r.add(
        f"## Beyond the paper: the sub-diagonal SN(n+1, n, 1), 4 <= n < {last}",
        "",
        "A pattern conjectured from values computed here: v(SN(n+1, n, 1)) = F(2n-5)/F(2n-2), "
        "the diagonal's one step along.",
        "",
        f"* Each column of Table 2 constant from its sub-diagonal game on (v(SN(n1, n, 1)) = "
        f"v(SN(n+1, n, 1)) for n1 > n): {'holds' if plateaus else 'FAILS'} on the "
        f"{len(below)} game{'s' if len(below) != 1 else ''} of Table 2 below its diagonal (an "
        "observation, not a theorem).",
        "",
        "| game | F(2n-5)/F(2n-2) | computed | exact | agrees | nodes | infosets | seconds |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    )
    subdiagonal = r.fibonacci_rows(1, range(4, last))
    families = {
        "SN(n, n, 1), n >= 4": diagonal,
        "SN(n+1, n, 1), n >= 4": subdiagonal,
        **_columns(table2, table2_max, ""),
    }

    r.add("## Theorem 3.1: every heap >= 3, d >= 2, value 0", "", *r.header)
    for heaps in [*_positions(range(3, 6), 2), (3, 3, 3)]:
        r.add(r.row(f"SN{heaps}", Fraction(0), r.solve("sn", heaps)))
    r.add("")

    for misere, name in ((False, "4.1"), (True, "4.2")):
        r.add(f"## Theorem {name}: Fuzzy Schrödinger Nim{' (misère)' if misere else ''}", "")
        r.add(*r.header)
        for count in (1, 2, 3):
            for heaps in _positions(range(1, 4), count):
                claim = _fsn_claim(heaps, misere)
                r.add(r.row(f"FSN{heaps}", claim, r.solve("fsn", heaps, misere)))
        r.add("")

    r.add("## Theorem 5.1: Kriegspiel Nim with two heaps >= 2 has value 0", "", *r.header)
    for heaps in _positions(range(2, 5), 2):
        r.add(r.row(f"KN{heaps}", Fraction(0), r.solve("kn", heaps)))
    for n in range(2, 5):
        r.add(r.row(f"KN({n},1)", Fraction(1), r.solve("kn", (n, 1))))
    r.add("")

    r.add("## Fig. 2: an equilibrium of SN(3,3,1)", "")
    fig = solve("sn", (3, 3, 1), strategies=True)
    r.add(f"Value {exact_str(fig.value)} (paper: 1/3), exact: {fig.exact}.", "", "```")
    r.add(format_strategies(fig.strategies or ()), "```", "")
    r.add(
        "The LP's equilibrium is the mirror image of Fig. 2 (it plays on the second heap): "
        "L removes 1 or 2 chips with probabilities 2/3 and 1/3, R answers uniformly.",
        "",
    )

    r.add(
        "## Beyond the paper: misère Schrödinger Nim",
        "",
        "Whoever takes the last chip loses: small positions, the families of Table 1 and the "
        f"grid of Table 2 (4 <= n2 <= n1 <= {table2_max}), with no claim to check.",
        "",
        *r.header,
    )
    for heaps in [*_positions(range(1, 5), 2), *_positions(range(1, 4), 3)]:
        r.add(r.row(f"SN-{heaps}", None, r.solve("sn", heaps, True)))
    for label, family, sizes, _ in TABLE_1:
        for n in sizes:
            heaps = family(n)
            r.add(r.row(f"misère {label}: SN-{heaps}", None, r.solve("sn", heaps, True)))
    misere2: dict[tuple[int, int], Fraction] = {}
    for n1 in range(4, table2_max + 1):
        for n2 in range(4, n1 + 1):
            result = r.solve("sn", (n1, n2, 1), True)
            misere2[(n1, n2)] = result.value
            r.add(r.row(f"misère SN-({n1},{n2},1)", None, result))
    r.add("")
    misere_diagonal = {n: misere2[(n, n)] for n in range(4, table2_max + 1)}
    families["misère SN(n, n, 1), n >= 4"] = misere_diagonal
    families.update(_columns(misere2, table2_max, "misère "))

    r.add("## Beyond the paper: Kriegspiel Nim with three heaps", "")
    kn3: list[tuple[int, ...]] = [(1, 1, 1), (2, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2, 1)]
    kn3 += [(4, 1, 1), (4, 2, 1), (5, 1, 1), (5, 2, 1), (2, 2, 2), (3, 3, 1)]
    kn3 += [(4, 3, 1), (3, 3, 2), (4, 4, 1), (5, 3, 1)] if large_kn else []
    if store is not None:
        r.add(
            "Also every other three-heap game this version of nimlab solved into the results "
            f"store {store} (for example by `nimlab solve kn 4 3 2 --store {store} "
            "--max-seconds 3600`).",
            "",
        )
        kn3 += [heaps for heaps in stored_positions(store, "kn", 3) if heaps not in kn3]
    r.add(*r.header)
    kn3_values: dict[tuple[int, ...], Fraction] = {}
    for heaps in kn3:
        result = r.solve("kn", heaps)
        if result.exact:  # a pattern is guessed and checked on certified values only
            kn3_values[heaps] = result.value
        r.add(r.row(f"KN{heaps}", None, result))
    r.add("")
    families.update(kriegspiel_rows(kn3_values))
    r.add(*patterns_section(families))

    r.add(
        "## Beyond the paper: `kn-empty`",
        "",
        "The paper says the values of this variant equal those of Kriegspiel Nim for up to two "
        "heaps. Read literally (a request on an empty heap passes the turn silently) this "
        "fails for KN(n, 1); with requests on empty heaps refused it fails for KN(3, 3). "
        "Both readings:",
        "",
        "| game | KN | kn-empty (silent pass) | kn-empty (refused) |",
        "| --- | --- | --- | --- |",
    )
    refused = kriegspiel_empty(NimHeap(), refuse_empty=True)
    for heaps in [(2, 1), (3, 1), (2, 2), (3, 2), (3, 3), (4, 2), (2, 2, 1), (3, 2, 1)]:
        kn = r.solve("kn", heaps)
        silent = r.solve("kn-empty", heaps)
        other = solve_tree(build_tree(refused, heaps))
        r.add(
            f"| {heaps} | {exact_str(kn.value)} | {exact_str(silent.value)} | "
            f"{exact_str(other.value)} |"
        )
    r.add("")

    total = time.perf_counter() - start
    verdict = "all agree" if not r.failed else f"disagreements: {', '.join(r.failed)}"
    largest = r.largest
    r.add("## Summary", "")
    r.add(f"* {r.checked} claims checked: {verdict}.")
    if largest is not None:
        r.add(
            f"* Largest game here: {largest.variant}{largest.position}, {largest.nodes:,} nodes "
            f"and {largest.infosets:,} information sets solved, {largest.seconds:.1f} s."
        )
    if store is not None:
        r.add(f"* {r.from_store} of {len(r.solved)} games read from the results store {store}.")
    r.add(f"* Report computed in {total:.1f} s.", "")
    out.mkdir(parents=True, exist_ok=True)
    path = out / "report.md"
    path.write_text("\n".join(r.lines), encoding="utf-8")
    return path

"""``nimlab reproduce hidden-partizan``: Kriegspiel Domineering and Hackenbush beside their
combinatorial values.

Seed 000 (section 6) proposes Kriegspiel versions of Hackenbush and Domineering and hopes to
"distinguish some structure akin to that in the class of combinatorial games" by comparing
them. This report computes the comparison: for every Domineering board in a 3x3 or 2x4 box
(up to the symmetries, at most ``max_cells`` empty cells), every rectangle the budget allows,
small Hackenbush graphs (stalks, trees, cycles, in every colouring by blue, red and green)
and sums of two small positions, it puts the exact Kriegspiel value with either player first
beside the canonical value and outcome class of :mod:`nimlab.cgt`, and checks, as
observations over the positions computed (never as theorems), what carries over.

Values are for Left (+1 Left wins, -1 Right wins). The hidden games start with Left
(:mod:`nimlab.hidden.games`); Right first on a position is Left first on its negative (the
transposed board, the graph with blue and red exchanged), with the value's sign changed.
A side with no move to start loses at once (normal play): that value needs no tree.

>>> kriegspiel_pair("domineering", "../..")  # ±1: whoever starts wins
(Fraction(1, 1), Fraction(-1, 1))
>>> kriegspiel_pair("hackenbush", "g-a:B,a-b:R")  # 1/2: Left wins whoever starts
(Fraction(1, 1), Fraction(1, 1))
>>> outcome_of_pair(Fraction(1), Fraction(-1)), outcome_of_pair(Fraction(1, 3), Fraction(1))
('N', 'mixed')
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from nimlab.budget import GIB, Budget
from nimlab.cgt import Game, domineering, hackenbush
from nimlab.errors import TooLargeError
from nimlab.exact import exact_str
from nimlab.hidden.boards import DomineeringBoard, HackenbushGraph, swap_colours, transpose_board
from nimlab.hidden.games import hidden_game, solve_hidden

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_MAX_CELLS",
    "DEFAULT_MAX_NODES",
    "Entry",
    "boards",
    "graphs",
    "kriegspiel_pair",
    "negative",
    "outcome_of_pair",
    "side_by_side",
    "write_report",
]

DEFAULT_MAX_CELLS = 9
"""The most empty cells of a board (edges of a graph, cells or edges of a sum) in the default
report: every board of the 3x3 box."""

DEFAULT_BUDGET = Budget(seconds=45.0, bytes=4 * GIB)
"""The most one game may be estimated to cost in the default report: enough for the 3x4 and
2x6 rectangles with either player first (the estimate of the largest, 4x3 with Left first,
is 39 s for 11 s of work on a loaded two-core machine), not for 4x4."""

DEFAULT_MAX_NODES = 1_000_000
"""The most nodes one game's tree may have in the default report (4x3 has 690,878)."""

PAPER = (
    "M. van den Bergh, W. Kusters, F. Spieksma, *Nim variants*, ICGA Journal 44(1), 2022 (seed 000)"
)

RECTANGLES = tuple((h, w) for h in range(1, 5) for w in range(1, 7) if h * w <= 16)
"""The rectangles tried (each within the budget or shown as not computed)."""

DOMINEERING_PARTS = ("./.", "..", "../..", "...", "././.", ".#/..", ".../...", "../../..")
"""Small boards added in pairs, side by side (a blocked column between them)."""

HACKENBUSH_PARTS = (
    "g-a:B",
    "g-a:R",
    "g-a:G",
    "g-a:B,a-b:R",
    "g-a:R,a-b:B",
    "g-a:B,a-b:G",
    "g-a:G,a-b:B",
    "g-a:B,a-b:R,a-c:R",
)
"""Small graphs added in pairs (sharing only the ground)."""

SHAPES = {
    "stalk": ("g-a", "g-a,a-b", "g-a,a-b,b-c"),
    "tree": ("g-a,a-b,a-c", "g-a,a-b,a-c,a-d", "g-a,a-b,b-c,a-d"),
    "cycle": ("g-a,a-g", "g-a,a-b,b-g", "g-a,a-b,b-c,c-g", "g-a,a-b,b-c,c-a"),
}
"""The Hackenbush graphs, each in every colouring (blue, red, green) up to exchanging blue
and red; ``max_cells`` bounds their edges."""


def negative(kind: str, position: str) -> str:
    """The negative of a position: the transposed board, or blue and red exchanged.

    >>> negative("domineering", ".#/.."), negative("hackenbush", "g-a:B,a-b:G,a-c:R")
    ('../#.', 'g-a:R,a-b:G,a-c:B')
    """
    if kind == "domineering":
        return transpose_board(DomineeringBoard().parse(position))
    graph = HackenbushGraph()
    return graph.format(swap_colours(graph.parse(position)))


def _value(kind: str, position: str) -> Game:
    return domineering(position) if kind == "domineering" else hackenbush(position)


def kriegspiel_pair(
    kind: str,
    position: str,
    *,
    budget: Budget | None = DEFAULT_BUDGET,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> tuple[Fraction | None, Fraction | None]:
    """The Kriegspiel values for Left with Left first and with Right first (``None``: over
    the budget)."""
    return _left_first(kind, position, budget, max_nodes)[0], _right_first(
        kind, position, budget, max_nodes
    )[0]


def _left_first(
    kind: str, position: str, budget: Budget | None, max_nodes: int | None
) -> tuple[Fraction | None, int]:
    hidden = hidden_game("kn", kind)
    states = hidden.parse(position)
    if hidden.rules.over(states, 0):
        return Fraction(-1), 0  # Left cannot move: Left loses at once
    try:
        result = solve_hidden("kn", kind, position, budget=budget, max_nodes=max_nodes)
    except TooLargeError:
        return None, 0
    if not result.exact:
        return None, result.nodes
    return result.value, result.nodes


def _right_first(
    kind: str, position: str, budget: Budget | None, max_nodes: int | None
) -> tuple[Fraction | None, int]:
    value, nodes = _left_first(kind, negative(kind, position), budget, max_nodes)
    return (None if value is None else -value), nodes


def outcome_of_pair(left_first: Fraction | None, right_first: Fraction | None) -> str:
    """The outcome class of a hidden game from its two values for Left: ``L``, ``R``, ``N``,
    ``P`` when both are ±1, ``mixed`` when one is in between, ``—`` when not computed."""
    if left_first is None or right_first is None:
        return "—"
    win, loss = Fraction(1), Fraction(-1)
    classes = {(win, win): "L", (loss, loss): "R", (win, loss): "N", (loss, win): "P"}
    return classes.get((left_first, right_first), "mixed")


def _perfect(value: Game) -> tuple[Fraction, Fraction]:
    """The perfect-information outcome for Left with Left first, with Right first."""
    outcome = value.outcome
    return Fraction(1 if outcome in "LN" else -1), Fraction(1 if outcome in "LP" else -1)


SECOND_PLAYER_WINS = (Fraction(-1), Fraction(1))
"""The two values for Left of a second-player win: Left first loses, Right first wins."""


@dataclass(frozen=True)
class Entry:
    """One position of the report: its value, outcome, and the two Kriegspiel values."""

    kind: str
    family: str
    position: str
    value: Game
    left_first: Fraction | None
    right_first: Fraction | None
    nodes: int
    seconds: float
    parts: tuple[str, ...] = field(default=())

    @property
    def outcome(self) -> str:
        """The outcome class with perfect information."""
        return str(self.value.outcome)

    @property
    def hidden_outcome(self) -> str:
        """The outcome class of the Kriegspiel game (``mixed``: a value strictly between)."""
        return outcome_of_pair(self.left_first, self.right_first)

    @property
    def computed(self) -> bool:
        """Both values are known."""
        return self.left_first is not None and self.right_first is not None

    def to_json(self) -> dict[str, Any]:
        """Exact strings; ``null`` when over the budget."""
        return {
            "game": self.kind,
            "family": self.family,
            "position": self.position,
            "parts": list(self.parts),
            "value": str(self.value),
            "outcome": self.outcome,
            "kriegspiel_left_first": _json(self.left_first),
            "kriegspiel_right_first": _json(self.right_first),
            "kriegspiel_outcome": self.hidden_outcome,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def _json(value: Fraction | None) -> str | None:
    return None if value is None else exact_str(value)


# -- positions ----------------------------------------------------------------------------------


def _board_text(cells: frozenset[tuple[int, int]]) -> str:
    rows = range(min(r for r, _ in cells), max(r for r, _ in cells) + 1)
    cols = range(min(c for _, c in cells), max(c for _, c in cells) + 1)
    return "/".join("".join("." if (r, c) in cells else "#" for c in cols) for r in rows)


def _symmetric(cells: frozenset[tuple[int, int]]) -> Iterator[frozenset[tuple[int, int]]]:
    """The images of a board under the 8 symmetries of the square (4 of them, those with a
    transposition, exchange the players: the report keeps one board of each class, and its
    Right-first column is the other's Left-first one)."""
    for flip_r, flip_c, swap in itertools.product((1, -1), (1, -1), (False, True)):
        yield frozenset(
            ((c, r) if swap else (r, c)) for r, c in ((flip_r * r, flip_c * c) for r, c in cells)
        )


def _key(cells: frozenset[tuple[int, int]]) -> str:
    return min(_board_text(image) for image in _symmetric(cells))


def boards(max_cells: int = DEFAULT_MAX_CELLS) -> list[str]:
    """Every board of one region (its empty cells connected) with a blocked cell inside its
    bounding box that fits a 3x3 or a 2x4 box, with 2 to ``max_cells`` empty cells, one of
    each class under the symmetries of the square, by empty cells.

    >>> boards(4)
    ['#./..', '##./...', '#.#/...', '#../..#']
    """
    found: dict[str, frozenset[tuple[int, int]]] = {}
    for h, w in ((3, 3), (2, 4)):
        box = [(r, c) for r in range(h) for c in range(w)]
        for size in range(2, min(max_cells, h * w) + 1):
            for chosen in itertools.combinations(box, size):
                cells = frozenset(chosen)
                text = _board_text(cells)
                if "#" not in text or not _connected(cells):
                    continue  # a rectangle (in its own table), or a sum (see the sums)
                key = _key(cells)
                if key not in found and (_moves(key, 0) or _moves(key, 1)):
                    found[key] = cells
    return sorted(found, key=lambda text: (text.count("."), text))


def _connected(cells: frozenset[tuple[int, int]]) -> bool:
    """The empty cells form one region (side by side)."""
    start = next(iter(cells))
    seen, stack = {start}, [start]
    while stack:
        r, c = stack.pop()
        for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return len(seen) == len(cells)


def _moves(board: str, player: int) -> bool:
    return bool(DomineeringBoard().moves(board, player))


def graphs(max_edges: int = DEFAULT_MAX_CELLS) -> list[tuple[str, str]]:
    """``(family, graph)`` for each shape of :data:`SHAPES` of at most ``max_edges`` edges, in
    every colouring up to exchanging blue and red.

    >>> [graph for family, graph in graphs(1)]
    ['g-a:B', 'g-a:G']
    """
    found: list[tuple[str, str]] = []
    for family, shapes in SHAPES.items():
        for shape in shapes:
            edges = shape.split(",")
            if len(edges) > max_edges:
                continue
            seen: set[str] = set()
            for colours in itertools.product("BGR", repeat=len(edges)):
                swapped = "".join({"B": "R", "R": "B", "G": "G"}[c] for c in colours)
                key = min("".join(colours), swapped)
                if key in seen:
                    continue
                seen.add(key)
                found.append(
                    (family, ",".join(f"{e}:{c}" for e, c in zip(edges, key, strict=True)))
                )
    return found


def side_by_side(kind: str, first: str, second: str) -> str:
    """The sum of two positions: boards side by side with a blocked column between them (the
    shorter padded with blocked rows below), graphs sharing only the ground.

    >>> side_by_side("domineering", "./.", "..")
    '.#../.###'
    >>> side_by_side("hackenbush", "g-a:B,a-b:R", "g-a:G")
    'g-a:B,a-b:R,g-a2:G'
    """
    if kind == "domineering":
        a, b = first.split("/"), second.split("/")
        height = max(len(a), len(b))
        a += ["#" * len(a[0])] * (height - len(a))
        b += ["#" * len(b[0])] * (height - len(b))
        return "/".join(f"{x}#{y}" for x, y in zip(a, b, strict=True))
    graph = HackenbushGraph()
    renamed = [
        (u if u == "g" else u + "2", v if v == "g" else v + "2", c)
        for _, u, v, c in graph.parse(second)
    ]
    return first + "," + ",".join(f"{u}-{v}:{c}" for u, v, c in renamed)


def _size(kind: str, position: str) -> int:
    return position.count(".") if kind == "domineering" else position.count(":")


# -- computing ----------------------------------------------------------------------------------


@dataclass
class _Runner:
    budget: Budget
    max_nodes: int | None
    progress: Callable[[str], None] | None
    entries: list[Entry] = field(default_factory=list)

    def add(self, kind: str, family: str, position: str, parts: tuple[str, ...] = ()) -> Entry:
        start = time.perf_counter()
        left, n1 = _left_first(kind, position, self.budget, self.max_nodes)
        right, n2 = _right_first(kind, position, self.budget, self.max_nodes)
        seconds = time.perf_counter() - start
        entry = Entry(
            kind, family, position, _value(kind, position), left, right, n1 + n2, seconds, parts
        )
        self.entries.append(entry)
        if self.progress is not None:
            shown = f"{_cell(left)} / {_cell(right)}"
            self.progress(f"kn {kind} {position}: {shown} ({seconds:.2f} s)")
        return entry


def _cell(value: Fraction | None) -> str:
    return "—" if value is None else exact_str(value)


def _table(entries: list[Entry], with_parts: bool = False) -> list[str]:
    head = ["position", *(["parts"] if with_parts else []), "value", "outcome"]
    head += ["perfect L first", "perfect R first", "kn L first", "kn R first", "kn outcome"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for e in entries:
        perfect = _perfect(e.value)
        cells = [
            f"`{e.position}`",
            *([" + ".join(f"`{p}`" for p in e.parts)] if with_parts else []),
        ]
        cells += [f"`{e.value}`", e.outcome, str(perfect[0]), str(perfect[1])]
        cells += [_cell(e.left_first), _cell(e.right_first), e.hidden_outcome]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


# -- observations -------------------------------------------------------------------------------


def _escaped(value: Game) -> str:
    """A value for a Markdown table cell (``|`` would end the cell)."""
    return str(value).replace("|", "\\|")


def _listing(entries: list[Entry], limit: int = 12) -> str:
    shown = [
        f"`{e.position}` ({e.value}: kn {_cell(e.left_first)} / {_cell(e.right_first)})"
        for e in entries[:limit]
    ]
    more = f", and {len(entries) - limit} more" if len(entries) > limit else ""
    return ", ".join(shown) + more


def _claim(title: str, entries: list[Entry], holds: Callable[[Entry], bool]) -> list[str]:
    computed = [e for e in entries if e.computed]
    broken = [e for e in computed if not holds(e)]
    skipped = len(entries) - len(computed)
    verdict = "**holds**" if not broken else f"**fails** on {len(broken)}"
    text = f"* {title}: {verdict} of {len(computed)} positions computed"
    if skipped:
        text += f" ({skipped} over the budget, not checked)"
    if broken:
        text += f". Counterexamples: {_listing(broken)}"
    elif computed:
        text += f". Examples: {_listing(computed, 4)}"
    return [text + "."]


def _numbers_hold(e: Entry) -> bool:
    sign = 1 if e.value > 0 else -1
    return e.left_first == sign and e.right_first == sign


def _observations(entries: list[Entry], sums: list[Entry]) -> list[str]:
    singles = entries
    everything = [*entries, *sums]
    numbers = [e for e in everything if e.value.is_number and e.value != 0]
    zeros = [e for e in everything if e.value == 0]
    lines = ["## What carries over, and what breaks", ""]
    lines += _claim(
        "Numbers stay won by the side they favour (a positive number: Left wins whoever "
        "starts; a negative one: Right)",
        numbers,
        _numbers_hold,
    )
    lines += _claim(
        "Zero positions stay second-player wins (Kriegspiel L first -1, R first +1)",
        zeros,
        lambda e: (e.left_first, e.right_first) == SECOND_PLAYER_WINS,
    )
    for outcome in "LRNP":
        chosen = [e for e in everything if e.outcome == outcome and not e.value.is_number]
        if chosen:
            lines += _claim(
                f"Non-number positions of outcome {outcome} keep their outcome class",
                chosen,
                lambda e: e.hidden_outcome == e.outcome,
            )
    computed = [e for e in everything if e.computed]
    same = [e for e in computed if (e.left_first, e.right_first) == _perfect(e.value)]
    better = [e for e in computed if e.hidden_outcome != e.outcome]
    lines += [
        f"* Over all {len(computed)} positions computed, the Kriegspiel values equal the "
        f"perfect-information outcome with either player first on {len(same)}; on "
        f"{len(better)} the hidden moves change the result"
        + (f": {_listing(better)}." if better else "."),
    ]
    changes = [
        (e, hidden)
        for e in computed
        for hidden, perfect in zip((e.left_first, e.right_first), _perfect(e.value), strict=True)
        if hidden is not None and hidden != perfect
    ]
    if changes:
        flipped = [e for e, hidden in changes if abs(hidden) == 1]
        lines.append(
            f"* Of the {len(changes)} (position, first player) cases where hiding changes the "
            f"result, {len(changes) - len(flipped)} become a mixed value strictly between -1 "
            f"and 1 and {len(flipped)} a sure win for the other side"
            + (f": {_listing(flipped)}." if flipped else ".")
        )
    lines += ["", "### Sums", ""]
    lines += _claim(
        "G + (-G) stays a second-player win (the mirror strategy needs to see the move it mirrors)",
        [e for e in sums if e.parts and e.parts[1] == _negative_of(e)],
        lambda e: (e.left_first, e.right_first) == SECOND_PLAYER_WINS,
    )
    by_position = {(e.kind, e.position): e for e in singles}
    both_left = []
    for e in sums:
        parts = [by_position.get((e.kind, p)) for p in e.parts]
        if all(p is not None and p.hidden_outcome == "L" for p in parts):
            both_left.append(e)
    lines += _claim(
        "A sum of two positions that Left wins in Kriegspiel whoever starts is won by Left "
        "whoever starts",
        both_left,
        lambda e: e.hidden_outcome == "L",
    )
    lines += _claim(
        "The Kriegspiel outcome of a sum is the outcome of the sum's combinatorial value",
        sums,
        lambda e: e.hidden_outcome == e.outcome,
    )
    return [*lines, ""]


def _negative_of(entry: Entry) -> str:
    return negative(entry.kind, entry.parts[0])


# -- the report ---------------------------------------------------------------------------------


def write_report(
    out: Path,
    *,
    max_cells: int = DEFAULT_MAX_CELLS,
    budget: Budget = DEFAULT_BUDGET,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    progress: Callable[[str], None] | None = None,
) -> Path:
    """Solve the report's games (boards and graphs of at most ``max_cells`` empty cells or
    edges, rectangles and sums within the budget) and write ``out/report.md`` and
    ``out/results.json``."""
    start = time.perf_counter()
    runner = _Runner(budget, max_nodes, progress)
    rectangles = [
        runner.add("domineering", "rectangle", "/".join(["." * w] * h))
        for h, w in RECTANGLES
        if h * w <= max(max_cells, 12)
    ]
    blocked = [runner.add("domineering", "board", board) for board in boards(max_cells)]
    trees = [runner.add("hackenbush", family, graph) for family, graph in graphs(max_cells)]
    sums: list[Entry] = []
    for kind, small in (("domineering", DOMINEERING_PARTS), ("hackenbush", HACKENBUSH_PARTS)):
        pairs = list(itertools.combinations_with_replacement(small, 2))
        pairs += [(part, negative(kind, part)) for part in small]
        done: set[str] = set()
        for first, second in pairs:
            position = side_by_side(kind, first, second)
            if position not in done and _size(kind, position) <= max(max_cells, 12):
                done.add(position)
                sums.append(runner.add(kind, "sum", position, (first, second)))
    listed = {(e.kind, e.position) for e in runner.entries}
    unlisted = [
        runner.add(kind, "part", part)
        for kind, part in dict.fromkeys((e.kind, p) for e in sums for p in e.parts)
        if (kind, part) not in listed
    ]
    singles = [*rectangles, *blocked, *trees, *unlisted]
    over = sum(1 for e in runner.entries if not e.computed)
    lines = [
        "# Kriegspiel Domineering and Hackenbush beside their combinatorial values",
        "",
        f"Seed 000 ({PAPER}, section 6) proposes Kriegspiel versions of Hackenbush and "
        'Domineering and hopes to find "structure akin to that in the class of combinatorial '
        'games" by comparing them. Here it is computed. Rules: `docs/imperfect.md` (section '
        '"Kriegspiel Domineering and Hackenbush"): a move is a request to the umpire, refused '
        "when it is impossible (the mover tries again); the opponent learns only that a move "
        "was made. Values are for Left (+1 Left wins, -1 Right wins, in between: Left's "
        "expected result under optimal mixed play), certified in exact arithmetic, with Left "
        "first (*kn L first*) and with Right first (*kn R first*: Left first on the negative "
        "position, sign changed). *value* and *outcome* are the canonical form and outcome "
        "class of `nimlab.cgt` (perfect information); *perfect L/R first* the outcome for Left "
        "that the class gives; *kn outcome* the class of the two Kriegspiel values (`mixed`: "
        f"one strictly between -1 and 1). `—`: over the per-game budget ({budget.seconds:g} s "
        "estimated"
        + ("" if max_nodes is None else f", or a tree of more than {max_nodes:,} nodes")
        + f"), not computed. Boards and graphs of at most {max_cells} empty cells or edges.",
        "",
        *_observations(singles, sums),
        "## Domineering rectangles",
        "",
        "Left places vertical dominoes, Right horizontal ones.",
        "",
        *_table(rectangles),
        "",
        "## Domineering boards with blocked cells",
        "",
        "Every board that fits a 3x3 or 2x4 box with a blocked cell (`#`) inside its bounding "
        "box, one of each class under the symmetries of the square (a transposed board is the "
        "negative: its columns are these with Left and Right exchanged).",
        "",
        *_table(blocked),
        "",
        "## Hackenbush graphs",
        "",
        "Stalks, trees and cycles in every colouring by blue (`B`, Left's), red (`R`, Right's) "
        "and green (`G`, either's), up to exchanging blue and red; `g` is the ground.",
        "",
        *_table(trees),
        "",
        "## Sums of two positions",
        "",
        "Boards side by side with a blocked column between them; graphs sharing the ground. "
        "The parts' own rows are in the tables above, or below when they are not.",
        "",
        *_table(sums, with_parts=True),
        "",
        "### Parts not listed above",
        "",
        *_table(unlisted),
        "",
        "## Summary",
        "",
        f"* {len(runner.entries)} positions, {len(runner.entries) - over} with both Kriegspiel "
        f"values exact, {over} over the per-game budget.",
        f"* Report computed in {time.perf_counter() - start:.1f} s.",
        "",
    ]
    out.mkdir(parents=True, exist_ok=True)
    data = {
        "max_cells": max_cells,
        "budget_seconds": budget.seconds,
        "results": [e.to_json() for e in runner.entries],
    }
    (out / "results.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path

"""Sweep tasks: one pure function ``(spec params) -> JSON dict`` per kind, in one table.

A task's identity is its canonical spec string (``octal(0.07;upto=1000)``,
``grundy-game(upto=1000)``, ``scoring(5,4,2)``, ``sn(3,3,1)``, ``sn(3,3,1;misere)``) + its
method + the nimlab version; that triple is the key of the results store. Heap positions are
canonical as multisets: largest heap first.

>>> task = octal_task(".07", 10)
>>> task.spec, task.method
('octal(0.07;upto=10)', 'auto')
>>> result = run_task(task)
>>> result["game"], result["values"], result["period"]
('octal(0.07)', [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3], None)
>>> parse_spec("scoring(2, 4,1)") == scoring_task((4, 2, 1))
True
>>> run_task(scoring_task((1,)))["breakpoints"]
[]
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from nimlab.core.heaps import Heaps, check_heaps, format_heaps, parse_heap, parse_heaps
from nimlab.errors import InvalidPositionError, UnknownGameError

__all__ = [
    "GRUNDY_GAME",
    "KINDS",
    "SOLVE_VARIANTS",
    "Task",
    "TaskKind",
    "canonical_position",
    "octal_task",
    "parse_spec",
    "run_task",
    "scoring_task",
    "solve_available",
    "solve_task",
]

SOLVE_VARIANTS = ("sn", "fsn", "kn", "kn-empty")
GRUNDY_GAME = "grundy-game"
"""The code name of Grundy's game in ``sweep grundy --codes`` (it is not an octal game)."""
_SOLVE_MODULE = "nimlab.extensive.solve"


@dataclass(frozen=True)
class Task:
    """One unit of a sweep: which kind, its canonical spec, the method and the parameters."""

    kind: str
    spec: str
    method: str
    params: Mapping[str, Any]


@dataclass(frozen=True)
class TaskKind:
    """A sweep kind: the pure function computing one result and its default method."""

    compute: Callable[..., dict[str, Any]]
    method: str


def _compute_octal(*, code: str, upto: int, method: str) -> dict[str, Any]:
    """The JSON of ``nimlab grundy octal --code C --upto N --json`` (same record); for the
    code name ``grundy-game``, that of ``nimlab grundy grundy-game --upto N --json``."""
    from nimlab.catalogue import make_game
    from nimlab.catalogue.analysis import GrundyTable
    from nimlab.catalogue.base import GameOptions
    from nimlab.octal import OctalCode, find_period, grundy_game_sequence, grundy_sequence

    chosen: Any = method  # checked by octal_task
    if code == GRUNDY_GAME:  # no period is known, and none is proven here
        game = make_game(GRUNDY_GAME, GameOptions())
        values = grundy_game_sequence(upto, method=chosen)
        periodicity = None
    else:
        game = make_game("octal", GameOptions(code=code))
        parsed = OctalCode.parse(code)
        values = grundy_sequence(parsed, upto, method=chosen)
        periodicity = find_period(parsed, values)
    table = GrundyTable(
        game=game.spec,
        values=tuple(values),
        period=None if periodicity is None else periodicity.period,
        preperiod=None if periodicity is None else periodicity.preperiod,
        meaning=game.sequence_meaning or "",
    )
    return table.to_json()


def _compute_scoring(
    *, position: list[int], method: str, max_cells: int | None = None
) -> dict[str, Any]:
    """The keys of ``nimlab scoring H... --json`` (without ``--N``)."""
    from nimlab.scoring.analysis import analyze_scoring
    from nimlab.scoring.payoff import DEFAULT_MAX_CELLS

    limit = DEFAULT_MAX_CELLS if max_cells is None else max_cells
    result = analyze_scoring(position, method=method, max_cells=limit)  # type: ignore[arg-type]
    return result.to_json()


def _compute_solve(
    *, variant: str, position: list[int], misere: bool, max_nodes: int | None = None
) -> dict[str, Any]:
    """The keys of ``nimlab solve VARIANT H... [--misere] --json``."""
    from nimlab.extensive.solve import solve
    from nimlab.extensive.tree import DEFAULT_MAX_NODES

    limit = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
    payload: dict[str, Any] = solve(
        variant, tuple(position), misere=misere, max_nodes=limit
    ).to_json()
    return payload


KINDS: dict[str, TaskKind] = {
    "grundy": TaskKind(_compute_octal, "auto"),
    "scoring": TaskKind(_compute_scoring, "grid"),
    "solve": TaskKind(_compute_solve, "lp"),
}
"""Every sweep kind, by the name of its ``nimlab sweep`` sub-command."""


def run_task(task: Task) -> dict[str, Any]:
    """Compute one task (in a worker): the JSON object stored under its spec."""
    return KINDS[task.kind].compute(**task.params)


def solve_available() -> bool:
    """Whether the imperfect-information solver (``nimlab solve``) can be imported here."""
    try:
        importlib.import_module(_SOLVE_MODULE)
    except ImportError:
        return False
    return True


def canonical_position(heaps: Iterable[object]) -> Heaps:
    """A position as a multiset: its heaps, largest first.

    >>> canonical_position([1, 3, 3])
    (3, 3, 1)
    """
    return tuple(sorted(check_heaps(heaps), reverse=True))


def octal_task(code: str, upto: int, *, method: str | None = None) -> Task:
    """The task computing ``g(0..upto)`` of the octal game ``code`` and its proven period;
    ``code`` may also be the name ``grundy-game`` (Grundy's game, which has no octal code).

    >>> octal_task("grundy-game", 9).spec
    'grundy-game(upto=9)'
    """
    from nimlab.octal import METHODS, OctalCode

    chosen = method or KINDS["grundy"].method
    if chosen not in METHODS:
        raise InvalidPositionError(f"unknown method {chosen!r}; known: {', '.join(METHODS)}")
    if isinstance(upto, bool) or not isinstance(upto, int) or upto < 0:
        raise InvalidPositionError(f"upto must be a non-negative integer, got {upto!r}")
    if code.strip() == GRUNDY_GAME:
        params = {"code": GRUNDY_GAME, "upto": upto, "method": chosen}
        return Task("grundy", f"{GRUNDY_GAME}(upto={upto})", chosen, params)
    canonical = str(OctalCode.parse(code))
    params = {"code": canonical, "upto": upto, "method": chosen}
    return Task("grundy", f"octal({canonical};upto={upto})", chosen, params)


def scoring_task(
    position: Iterable[object], *, method: str | None = None, max_cells: int | None = None
) -> Task:
    """The task computing f_N(position) as an exact function of N.

    Empty piles take no part in the game, so they are not part of the spec either.
    ``max_cells`` lifts or lowers the solver's size limit; a limit does not change a result,
    so it is not part of the spec.

    >>> scoring_task((2, 0, 4)).spec
    'scoring(4,2)'
    """
    chosen = method or KINDS["scoring"].method
    if chosen not in ("grid", "exact"):
        raise InvalidPositionError(f"unknown scoring method {chosen!r}; known: grid, exact")
    heaps = tuple(pile for pile in canonical_position(position) if pile)
    if not heaps:
        raise InvalidPositionError("a Scoring Nim position needs at least one non-empty pile")
    params: dict[str, Any] = {"position": list(heaps), "method": chosen}
    if max_cells is not None:
        params["max_cells"] = max_cells
    return Task("scoring", f"scoring({format_heaps(heaps)})", chosen, params)


def solve_task(
    variant: str,
    position: Iterable[object],
    *,
    misere: bool = False,
    max_nodes: int | None = None,
) -> Task:
    """The task solving ``variant`` (sn, fsn, kn, kn-empty) at ``position``; ``max_nodes``
    (not part of the spec) lifts or lowers the tree-size limit."""
    if variant not in SOLVE_VARIANTS:
        raise UnknownGameError(
            f"unknown variant {variant!r}; known variants: {', '.join(SOLVE_VARIANTS)}"
        )
    heaps = canonical_position(position)
    if not heaps:
        raise InvalidPositionError(f"a {variant} position needs at least one heap")
    suffix = ";misere" if misere else ""
    params: dict[str, Any] = {"variant": variant, "position": list(heaps), "misere": misere}
    if max_nodes is not None:
        params["max_nodes"] = max_nodes
    return Task("solve", f"{variant}({format_heaps(heaps)}{suffix})", KINDS["solve"].method, params)


_SPEC_RE = re.compile(r"\s*([a-z-]+)\((.*)\)\s*")


def parse_spec(text: str) -> Task:
    """The task of a spec string (with the kind's default method); the inverse of ``.spec``.

    >>> parse_spec("octal(.07;upto=5)").spec, parse_spec("sn(1,3,3;misere)").spec
    ('octal(0.07;upto=5)', 'sn(3,3,1;misere)')
    >>> parse_spec("grundy-game(upto=40)").spec
    'grundy-game(upto=40)'
    >>> parse_spec("chess(1)")
    Traceback (most recent call last):
    ...
    nimlab.errors.UnknownGameError: unknown spec 'chess(1)'; known: octal(CODE;upto=N), ...
    """
    match = _SPEC_RE.fullmatch(text)
    known = (
        "octal(CODE;upto=N), grundy-game(upto=N), scoring(H,...),"
        " VARIANT(H,...[;misere]) for sn, fsn, kn, kn-empty"
    )
    if match is None or match.group(1) not in ("octal", GRUNDY_GAME, "scoring", *SOLVE_VARIANTS):
        raise UnknownGameError(f"unknown spec {text!r}; known: {known}")
    name, inner = match.groups()
    if name == GRUNDY_GAME:
        key, _, value = inner.partition("=")
        if key.strip() != "upto":
            raise InvalidPositionError(f"spec {text!r}: expected grundy-game(upto=N)")
        return octal_task(GRUNDY_GAME, parse_heap(value, what="upto"))
    head, _, option = (part.strip() for part in inner.partition(";"))
    if name == "octal":
        key, _, value = option.partition("=")
        if key.strip() != "upto":
            raise InvalidPositionError(f"spec {text!r}: expected octal(CODE;upto=N)")
        return octal_task(head, parse_heap(value, what="upto"))
    heaps = parse_heaps(head)
    if name == "scoring":
        if option:
            raise InvalidPositionError(f"spec {text!r}: scoring(H,...) takes no option")
        return scoring_task(heaps)
    if option not in ("", "misere"):
        raise InvalidPositionError(f"spec {text!r}: the only option is ';misere'")
    return solve_task(name, heaps, misere=option == "misere")

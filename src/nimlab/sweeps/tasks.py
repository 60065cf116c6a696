"""Sweep tasks: one pure function ``(spec params) -> JSON dict`` per kind, in one table.

What a task is called (its spec, method and store key) is :mod:`nimlab.specs`'s business;
this module only runs tasks, in whatever process an executor chose.

>>> from nimlab.specs import octal_task, scoring_task
>>> result = run_task(octal_task(".07", 10))
>>> result["game"], result["values"], result["period"]
('octal(0.07)', [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3], None)
>>> run_task(scoring_task((1,)))["breakpoints"]
[]
>>> from nimlab.catalogue import GameOptions
>>> from nimlab.specs import solve_task
>>> result = run_task(solve_task("kn", "6", game="subtraction", options=GameOptions(max_take=2)))
>>> result["position"], result["game"], result["options"], result["value"]
('6', 'subtraction(max=2)', {'max': 2}, '0')
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from nimlab.specs import GRUNDY_GAME, Task

__all__ = ["KINDS", "TaskCompute", "run_task", "solve_available"]

_SOLVE_MODULE = "nimlab.hidden.solve"

TaskCompute = Callable[..., dict[str, Any]]
"""The pure function of a kind: the task's params as keywords -> the JSON object stored."""


def _compute_octal(
    *, code: str, upto: int, method: str, max_seconds: float | None = None
) -> dict[str, Any]:
    """The JSON of ``nimlab grundy octal --code C --upto N --json`` (same record); for the
    code name ``grundy-game``, that of ``nimlab grundy grundy-game --upto N --json``; with
    method ``summary``, that of ``... --summary --json`` (stopped after ``max_seconds``)."""
    if method == "summary":
        from nimlab.octal import OctalCode
        from nimlab.octal.rules import GRUNDY_GAME_RULES
        from nimlab.octal.summary import summarize, summarize_code

        if code == GRUNDY_GAME:
            found = summarize(GRUNDY_GAME_RULES, upto, max_take=None, max_seconds=max_seconds)
            return {"game": GRUNDY_GAME, **found.to_json()}
        parsed = OctalCode.parse(code)
        found = summarize_code(parsed, upto, max_seconds=max_seconds)
        return {"game": f"octal({parsed})", **found.to_json()}
    from nimlab.catalogue import make_game
    from nimlab.catalogue.analysis import GrundyTable
    from nimlab.catalogue.base import GameOptions
    from nimlab.octal import OctalCode, find_period, grundy_game_sequence, grundy_sequence

    chosen: Any = method  # checked by octal_task
    if chosen == "auto":  # the catalogue's own choice (it fills a proven period in at once)
        from nimlab.catalogue.analysis import grundy_table

        options = GameOptions() if code == GRUNDY_GAME else GameOptions(code=code)
        game = make_game(code if code == GRUNDY_GAME else "octal", options)
        return grundy_table(game, upto).to_json()
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
    *,
    variant: str,
    position: Any,
    misere: bool,
    method: str,
    max_nodes: int | None = None,
    budget: list[float] | None = None,
    game: str | None = None,
    options: dict[str, Any] | None = None,
    progress: Callable[..., None] | None = None,
) -> dict[str, Any]:
    """The keys of ``nimlab solve VARIANT H... [--misere] [--method M] --json``; ``budget``
    is ``[seconds, bytes]`` (default: the command line's); ``position`` is a list of heaps.
    With ``game`` and its ``options``
    (``set``, ``max``, ``code``), those of ``nimlab solve VARIANT --game GAME POSITION
    --json``, ``position`` the game's notation (a string). ``progress`` hears the rounds of
    restricted games (see :func:`nimlab.hidden.solve.solve`); it is not part of the task."""
    from nimlab.budget import CLI_BUDGET, Budget
    from nimlab.hidden.budget import node_limit
    from nimlab.hidden.solve import solve

    allowed = CLI_BUDGET if budget is None else Budget(float(budget[0]), int(budget[1]))
    limit = node_limit(allowed) if max_nodes is None else max_nodes
    if game is not None:
        from nimlab.hidden.games import solve_hidden
        from nimlab.specs import game_options

        return solve_hidden(
            variant,
            game,
            str(position),
            options=game_options(options or {}),
            misere=misere,
            method=method,
            budget=allowed,
            max_nodes=limit,
            progress=None if progress is None else lambda step: progress(None, step),
        ).to_json()
    payload: dict[str, Any] = solve(
        variant,
        tuple(position),
        misere=misere,
        max_nodes=limit,
        method=method,
        budget=allowed,
        progress=progress,
    ).to_json()
    return payload


def _compute_misere(*, code: str, upto: int | None, seconds: float) -> dict[str, Any]:
    """The JSON of ``nimlab misere CODE [--upto N] --json``."""
    from nimlab.catalogue.misere_games import heap_game
    from nimlab.quotients.quotient import misere_quotient

    name, parsed, moves = heap_game(code)
    game: Any = parsed if parsed is not None else moves
    return misere_quotient(game, upto, name=name, seconds=seconds).to_json()


KINDS: dict[str, TaskCompute] = {
    "grundy": _compute_octal,
    "misere": _compute_misere,
    "scoring": _compute_scoring,
    "solve": _compute_solve,
}
"""Every sweep kind, by the name of its ``nimlab sweep`` sub-command."""


def run_task(task: Task, progress: Callable[..., None] | None = None) -> dict[str, Any]:
    """Compute one task (in a worker): the JSON object stored under its spec. ``progress``
    (solve tasks only) hears the rounds of restricted games as the solver reports them."""
    if progress is not None and task.kind == "solve":
        return _compute_solve(**task.params, progress=progress)
    return KINDS[task.kind](**task.params)


def solve_available() -> bool:
    """Whether the imperfect-information solver (``nimlab solve``) can be imported here."""
    try:
        importlib.import_module(_SOLVE_MODULE)
    except ImportError:
        return False
    return True

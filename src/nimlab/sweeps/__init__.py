"""Sweeps: grids of tasks run on all local cores or a Dask cluster, results kept in the store.

>>> sorted(KINDS)
['grundy', 'scoring', 'solve']
"""

from nimlab.sweeps.executors import (
    DaskExecutor,
    Executor,
    LocalPoolExecutor,
    TaskFunction,
    TaskOutcome,
    default_workers,
)
from nimlab.sweeps.grid import DEFAULT_MAX_TASKS, bounded_positions, parse_codes, parse_grid
from nimlab.sweeps.runner import SweepInterrupted, SweepSummary, pending_tasks, run_sweep
from nimlab.sweeps.tasks import (
    GRUNDY_GAME,
    KINDS,
    SOLVE_VARIANTS,
    Task,
    TaskKind,
    canonical_position,
    octal_task,
    parse_spec,
    run_task,
    scoring_task,
    solve_available,
    solve_task,
)

__all__ = [
    "DEFAULT_MAX_TASKS",
    "GRUNDY_GAME",
    "KINDS",
    "SOLVE_VARIANTS",
    "DaskExecutor",
    "Executor",
    "LocalPoolExecutor",
    "SweepInterrupted",
    "SweepSummary",
    "Task",
    "TaskFunction",
    "TaskKind",
    "TaskOutcome",
    "bounded_positions",
    "canonical_position",
    "default_workers",
    "octal_task",
    "parse_codes",
    "parse_grid",
    "parse_spec",
    "pending_tasks",
    "run_sweep",
    "run_task",
    "scoring_task",
    "solve_available",
    "solve_task",
]

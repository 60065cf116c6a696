"""Sweeps: grids of tasks run on all local cores or a Dask cluster, results kept in the store.

Tasks are named by :mod:`nimlab.specs` (re-exported here); :mod:`nimlab.sweeps.tasks` runs them.

>>> sorted(KINDS)
['grundy', 'misere', 'scoring', 'solve']
"""

from nimlab.specs import (
    GRUNDY_GAME,
    SOLVE_VARIANTS,
    Task,
    canonical_position,
    octal_task,
    parse_spec,
    scoring_task,
    solve_task,
)
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
from nimlab.sweeps.tasks import KINDS, TaskCompute, run_task, solve_available

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
    "TaskCompute",
    "TaskFunction",
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

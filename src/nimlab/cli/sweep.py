"""Commands ``sweep solve|scoring|grundy`` (grids on cores or Dask), ``store ls|show|export``.

Exit codes: 2 for bad input (a bad grid, option, scheduler address or store file) before any
work; 3 for a sweep with more tasks than ``--max-tasks``; 1 when a sweep ran and every task it
computed failed (some failures among successes still exit 0: ``failed`` in the summary).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from nimlab.budget import abridge_numbers
from nimlab.cli.app import (
    CODE_OPTION,
    GAME_OPTION,
    HEAP_ARGS,
    JSON_OPTION,
    MAX_MEMORY_OPTION,
    MAX_SECONDS_OPTION,
    MAX_TAKE_OPTION,
    SET_OPTION,
    VARIANT_NAMES,
    app,
    console,
    emit_json,
    hidden_game_options,
    option_budget,
    progress_lines,
)
from nimlab.errors import InvalidPositionError, NimlabError
from nimlab.store.results import STORE_ENV, ResultStore, UnreadableResult, resolve_store_path

if TYPE_CHECKING:  # the engines are imported when a command runs (nimlab --help stays fast)
    from nimlab.core.heaps import Heaps
    from nimlab.specs import Task
    from nimlab.sweeps.executors import Executor, TaskOutcome
    from nimlab.sweeps.runner import SweepSummary

    OnStart = Callable[[SweepSummary], None]
    OnOutcome = Callable[[TaskOutcome], None]

__all__ = ["store_app", "sweep_app"]

sweep_app = typer.Typer(
    help="Run a grid of computations on all cores or a Dask cluster; results go to the store.",
    no_args_is_help=True,
)
store_app = typer.Typer(
    help=f"The results store (SQLite; --store PATH or ${STORE_ENV} choose the file).",
    no_args_is_help=True,
)
app.add_typer(sweep_app, name="sweep")
app.add_typer(store_app, name="store")

STORE_OPTION = typer.Option(
    None, "--store", help=f"Results store file (default: ${STORE_ENV}, else the user data dir)."
)
WORKERS_OPTION = typer.Option(
    None, "--workers", help="Worker processes (default: one per core; Dask LocalCluster too)."
)
SCHEDULER_OPTION = typer.Option(
    None, "--scheduler", help="Run on a Dask cluster: its scheduler address, tcp://HOST:PORT."
)
CLUSTER_OPTION = typer.Option(
    None, "--cluster", help="'local': start a Dask LocalCluster (processes) for this sweep."
)
DEFAULT_MAX_TASKS = 1_000_000
"""``nimlab.sweeps.grid.DEFAULT_MAX_TASKS``, copied so that ``--help`` needs no engine (a test
checks they agree)."""

MAX_TASKS_OPTION = typer.Option(
    DEFAULT_MAX_TASKS, "--max-tasks", help="Refuse sweeps with more tasks than this."
)


def _executor(workers: int | None, scheduler: str | None, cluster: str | None) -> Executor:
    from nimlab.sweeps.executors import DaskExecutor, LocalPoolExecutor

    if scheduler is not None and cluster is not None:
        raise InvalidPositionError("give either --scheduler or --cluster, not both")
    if cluster is not None and cluster != "local":
        raise InvalidPositionError(f"unknown cluster {cluster!r}: the only one is 'local'")
    if scheduler is not None:
        if not scheduler.strip():
            raise InvalidPositionError("--scheduler needs an address like tcp://HOST:PORT")
        return DaskExecutor(scheduler, workers=workers)
    if cluster == "local":
        return DaskExecutor(None, workers=workers)
    return LocalPoolExecutor(workers)


def _on_terminal() -> bool:
    """Whether standard error is a terminal (then sweeps draw a progress bar there)."""
    return sys.stderr.isatty()


@contextmanager
def _progress(title: str) -> Iterator[tuple[OnStart, OnOutcome]]:
    """``(on_start, on_outcome)`` callbacks reporting on stderr, never on stdout: a rich
    progress bar on a terminal, else a plain line per task once the sweep has run for a
    couple of seconds (:func:`~nimlab.cli.app.progress_lines`)."""
    errors = Console(stderr=True, file=sys.stderr)
    if not _on_terminal():
        with progress_lines(title) as write:
            counts = [0, 0]

            def on_start_plain(summary: SweepSummary) -> None:
                counts[1] = summary.total - summary.skipped
                _announce_skipped(errors, summary)

            def on_outcome_plain(outcome: TaskOutcome) -> None:
                counts[0] += 1
                what = "computed" if outcome.ok else f"failed: {outcome.error}"
                write(
                    f"{counts[0]}/{counts[1]} {outcome.task.spec} {what} ({outcome.seconds:.2f} s)"
                )

            yield on_start_plain, on_outcome_plain
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Task as ProgressTask

    class _RateColumn(ProgressColumn):
        """Tasks finished per second."""

        def render(self, task: ProgressTask) -> Text:
            speed = task.finished_speed or task.speed
            shown = "" if speed is None else f"{speed:.2f} tasks/s"
            return Text(shown, style="progress.data.speed")

    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        TimeElapsedColumn(),
        console=errors,
        transient=False,
    )
    ids: list[TaskID] = []

    def on_start(summary: SweepSummary) -> None:
        _announce_skipped(errors, summary)
        ids.append(bar.add_task(title, total=summary.total - summary.skipped))

    def on_outcome(outcome: TaskOutcome) -> None:
        bar.advance(ids[0])
        if not outcome.ok:
            bar.console.print(
                f"[red]failed[/red] {escape(outcome.task.spec)}: {escape(str(outcome.error))}"
            )

    with bar:
        yield on_start, on_outcome


def _announce_skipped(errors: Console, summary: SweepSummary) -> None:
    if summary.skipped:
        errors.print(f"{summary.skipped} of {summary.total} already in the store: skipped")


def _render_summary(summary: SweepSummary) -> None:
    table = Table(title="sweep summary", box=None, header_style="bold", show_header=False)
    table.add_column("", style="bold")
    table.add_column("", justify="right")
    table.add_row("tasks", str(summary.total))
    table.add_row("computed", str(summary.computed))
    table.add_row("skipped (already stored)", str(summary.skipped))
    table.add_row("failed", str(summary.failed))
    if summary.interrupted:
        table.add_row("not reached (interrupted)", str(summary.missing - summary.failed))
    table.add_row("time", f"{summary.seconds:.2f} s")
    table.add_row("executor", f"{summary.executor} ({summary.workers} workers)")
    table.add_row("store", summary.store)
    console.print(table)
    for spec, error in summary.failures:
        console.print(f"[red]failed[/red] {escape(spec)}: {escape(str(error))}")


def _sweep(
    tasks: Sequence[Task],
    *,
    title: str,
    store: str | None,
    workers: int | None,
    scheduler: str | None,
    cluster: str | None,
    as_json: bool,
) -> None:
    from nimlab.sweeps.runner import SweepInterrupted, run_sweep

    path = resolve_store_path(store)
    executor = _executor(workers, scheduler, cluster)
    ResultStore(path).close()  # a file that is not a results store is refused before any work
    try:
        with executor, _progress(title) as (on_start, on_outcome):
            summary = run_sweep(
                tasks, store_path=path, executor=executor, on_start=on_start, on_outcome=on_outcome
            )
    except SweepInterrupted as interruption:
        summary = interruption.summary
        _report(summary, as_json)
        sys.stderr.write(
            f"interrupted: {summary.computed} results stored, {summary.missing} missing; "
            "rerun the same command to compute only those\n"
        )
        raise
    _report(summary, as_json)
    if summary.failed and not summary.computed:
        example = abridge_numbers(f"{summary.failures[0][0]}: {summary.failures[0][1]}")
        sys.stderr.write(f"error: every task computed failed ({summary.failed}), e.g. {example}\n")
        raise typer.Exit(_failures_exit(summary.failures))


def _failures_exit(failures: Sequence[tuple[str, str]]) -> int:
    """The exit code of a sweep whose every task failed: 3 when each was refused as too large,
    2 when each was bad input, 1 otherwise (something unexpected).

    >>> _failures_exit([("a", "TooLargeError: ..."), ("b", "TooLargeError: ...")])
    3
    >>> _failures_exit([("a", "InvalidPositionError: ..."), ("b", "TooLargeError: ...")])
    1
    """
    kinds = {error.partition(":")[0] for _, error in failures}
    if kinds == {"TooLargeError"}:
        return 3
    if kinds <= {"InvalidPositionError", "NoSuchPositionError", "UnknownGameError"}:
        return 2
    return 1


def _report(summary: SweepSummary, as_json: bool) -> None:
    if as_json:
        emit_json(summary.to_json())
    else:
        _render_summary(summary)


@sweep_app.command("grundy")
def sweep_grundy(
    codes: str = typer.Option(
        ...,
        "--codes",
        help="Octal codes C1,C2,... or ranges like 0.01..0.77; grundy-game for Grundy's game.",
    ),
    upto: int = typer.Option(..., "--upto", help="Compute g(0..N) of each code."),
    method: str = typer.Option("auto", "--method", help="auto, plain, sparse or numba."),
    summary: bool = typer.Option(
        False,
        "--summary",
        help="A census: store each code's summary (as grundy --summary: histogram, rare values,"
        " period and preperiod when proven, else unsettled up to the heap reached).",
    ),
    per_code_seconds: float | None = typer.Option(
        None,
        "--per-code-seconds",
        help="With --summary: stop each code after this many seconds (unsettled up to where it"
        " came).",
    ),
    store: str | None = STORE_OPTION,
    workers: int | None = WORKERS_OPTION,
    scheduler: str | None = SCHEDULER_OPTION,
    cluster: str | None = CLUSTER_OPTION,
    max_tasks: int = MAX_TASKS_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Grundy sequences and proven periods of many octal games (and of Grundy's game)."""
    from nimlab.specs import octal_task
    from nimlab.sweeps.grid import parse_codes

    if per_code_seconds is not None and (not summary or per_code_seconds <= 0):
        raise InvalidPositionError("--per-code-seconds needs --summary and a positive number")
    if summary:
        if method not in ("auto", "summary"):
            raise InvalidPositionError("--summary runs its own engine: leave out --method")
        method = "summary"
    tasks = [
        octal_task(code, upto, method=method, max_seconds=per_code_seconds)
        for code in parse_codes(codes, max_tasks=max_tasks)
    ]
    _sweep(
        tasks,
        title="grundy",
        store=store,
        workers=workers,
        scheduler=scheduler,
        cluster=cluster,
        as_json=as_json,
    )


@sweep_app.command("misere")
def sweep_misere(
    codes: str = typer.Option(
        ...,
        "--codes",
        help="Octal codes C1,C2,... or ranges like 0.01..0.77; grundy-game for Grundy's game.",
    ),
    upto: int | None = typer.Option(
        None, "--upto", help="Quotients of heaps up to N (default: until Φ's period is proven)."
    ),
    max_seconds: float = typer.Option(
        600.0, "--max-seconds", min=0.0, help="Per code: stop and keep the heaps settled by then."
    ),
    store: str | None = STORE_OPTION,
    workers: int | None = WORKERS_OPTION,
    scheduler: str | None = SCHEDULER_OPTION,
    cluster: str | None = CLUSTER_OPTION,
    max_tasks: int = MAX_TASKS_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Misère quotients of many octal games (the records of `nimlab misere --json`)."""
    from nimlab.specs import misere_task
    from nimlab.sweeps.grid import parse_codes

    if upto is not None and upto < 0:
        raise InvalidPositionError(f"invalid --upto {upto}: it must be non-negative")
    tasks = [
        misere_task(code, upto, seconds=max_seconds)
        for code in parse_codes(codes, max_tasks=max_tasks)
    ]
    _sweep(
        tasks,
        title="misere",
        store=store,
        workers=workers,
        scheduler=scheduler,
        cluster=cluster,
        as_json=as_json,
    )


@sweep_app.command("scoring")
def sweep_scoring(
    piles: int = typer.Option(..., "--piles", help="Number of piles K."),
    largest: int = typer.Option(..., "--max", help="Largest pile size M (sizes are 1..M)."),
    max_cells: int | None = typer.Option(
        None, "--max-cells", help="Per position: refuse above this many cells (as `scoring`)."
    ),
    store: str | None = STORE_OPTION,
    workers: int | None = WORKERS_OPTION,
    scheduler: str | None = SCHEDULER_OPTION,
    cluster: str | None = CLUSTER_OPTION,
    max_tasks: int = MAX_TASKS_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Scoring Nim payoff functions f_N of every K-pile position with piles 1..M."""
    from nimlab.specs import scoring_task
    from nimlab.sweeps.grid import bounded_positions

    positions = bounded_positions(piles=piles, largest=largest, max_tasks=max_tasks)
    _sweep(
        [scoring_task(position, max_cells=max_cells) for position in positions],
        title="scoring",
        store=store,
        workers=workers,
        scheduler=scheduler,
        cluster=cluster,
        as_json=as_json,
    )


@sweep_app.command("solve", context_settings=HEAP_ARGS)
def sweep_solve(
    variant: str = typer.Argument(..., help=f"One of {', '.join(VARIANT_NAMES)}."),
    grid: str = typer.Option(
        ...,
        "--grid",
        help="Heaps a or ranges a..b, e.g. 4..10,4..10,1 (with --game: heap sizes or row "
        "lengths of the game; for domineering HEIGHTS,WIDTHS of empty boards, e.g. 1..2,2..4).",
    ),
    game: str | None = GAME_OPTION,
    subtraction_set: str | None = SET_OPTION,
    max_take: int | None = MAX_TAKE_OPTION,
    code: str | None = CODE_OPTION,
    misere: bool = typer.Option(False, "--misere", help="The misère form of the variant."),
    method: str = typer.Option(
        "auto", "--method", help="auto, lp or restricted (as `solve`); recorded in the store key."
    ),
    max_nodes: int | None = typer.Option(
        None, "--max-nodes", min=0, help="Per position: refuse larger trees (as `solve`)."
    ),
    max_seconds: float = MAX_SECONDS_OPTION,
    max_memory: float = MAX_MEMORY_OPTION,
    store: str | None = STORE_OPTION,
    workers: int | None = WORKERS_OPTION,
    scheduler: str | None = SCHEDULER_OPTION,
    cluster: str | None = CLUSTER_OPTION,
    max_tasks: int = MAX_TASKS_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Values of an imperfect-information Nim variant over a grid of positions (a position
    without chips is left out; a grid of only such positions is refused). With --game,
    the variant on a catalogue game's heaps or rows (a position where the first player has
    no move is left out)."""
    from nimlab.specs import METHODS, solve_task
    from nimlab.sweeps.grid import game_positions, parse_grid
    from nimlab.sweeps.tasks import solve_available

    if method not in METHODS["solve"]:
        raise InvalidPositionError(
            f"unknown --method {method!r}: choose one of {', '.join(METHODS['solve'])}"
        )
    allowed = option_budget(max_seconds, max_memory)
    budget = (allowed.seconds, allowed.bytes)
    options = hidden_game_options(game, subtraction_set, max_take, code)
    kept: Sequence[Heaps | str]
    if game is None:
        cells: Sequence[Heaps | str] = parse_grid(grid, max_tasks=max_tasks)
        kept = [cell for cell in cells if any(cell)]
        why, empty = "without chips", "with a chip: use heaps >= 1"
    else:
        from nimlab.hidden.games import hidden_game

        hidden = hidden_game(variant, game, options)
        cells = game_positions(hidden, grid, max_tasks=max_tasks)
        kept = [cell for cell in cells if not hidden.rules.over(hidden.parse(cell), 0)]
        why, empty = "where the first player has no move", "where the first player has a move"
    tasks = [
        solve_task(
            variant,
            position,
            misere=misere,
            method=method,
            max_nodes=max_nodes,
            budget=budget,
            game=game,
            options=options,
        )
        for position in kept
    ]
    if not tasks:
        raise InvalidPositionError(f"grid {grid!r} has no position {empty}")
    if len(tasks) < len(cells):
        sys.stderr.write(f"left out {len(cells) - len(tasks)} position(s) {why}\n")
    if not solve_available():
        raise NimlabError("sweep solve is not available yet: this nimlab has no `solve` solver")
    _sweep(
        tasks,
        title=f"solve {variant}",
        store=store,
        workers=workers,
        scheduler=scheduler,
        cluster=cluster,
        as_json=as_json,
    )


def _open_existing(store: str | None) -> ResultStore | None:
    path = resolve_store_path(store)
    return ResultStore(path) if path.exists() else None


@store_app.command("ls")
def store_ls(
    prefix: str = typer.Option("", "--prefix", help="Only specs starting with this, e.g. octal("),
    store: str | None = STORE_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """List the stored results: spec, method, version, when, how long it took."""
    opened = _open_existing(store)
    results, unreadable = ([], []) if opened is None else opened.scan(prefix=prefix)
    if opened is not None:
        opened.close()
    for row in unreadable:
        sys.stderr.write(
            f"unreadable row {row.spec} ({row.method}, {row.version}): {row.problem}\n"
        )
    if as_json:
        emit_json(
            {
                "store": str(resolve_store_path(store)),
                "results": [r.to_json() for r in results],
                "unreadable": [row.to_json() for row in unreadable],
            }
        )
        return
    table = Table(box=None, header_style="bold")
    for column in ("spec", "method", "version", "created", "seconds"):
        table.add_column(column, justify="right" if column == "seconds" else "left")
    for result in results:
        seconds = "" if result.seconds is None else f"{result.seconds:.3f}"
        created = result.created[:19].replace("T", " ")
        table.add_row(escape(result.spec), result.method, result.version, created, seconds)
    console.print(table)
    console.print(f"{len(results)} results in {resolve_store_path(store)}")


@store_app.command("show")
def store_show(
    spec: str = typer.Argument(..., help="A spec as listed by `nimlab store ls`."),
    method: str | None = typer.Option(None, "--method", help="Only this method."),
    version: str | None = typer.Option(None, "--version", help="Only this nimlab version."),
    store: str | None = STORE_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Print a stored result: the same JSON as the command that computed it, ``cached``
    true; with no --method, the newest row of any method."""
    from nimlab.specs import parse_spec, with_cached

    try:
        key = parse_spec(spec).spec
    except NimlabError:
        key = spec.strip()  # not a sweep spec: look it up as written
    opened = _open_existing(store)
    found = None
    damaged: list[UnreadableResult] = []
    if opened is not None:
        with opened:
            found = opened.get(key, method, version, then=None)
            damaged = [row for row in opened.scan(prefix=key)[1] if row.spec == key]
    if found is None and damaged:
        raise InvalidPositionError(
            f"the row for {key} in the store {str(resolve_store_path(store))!r} is damaged"
            f" ({damaged[0].problem}): run the command that computes it again to replace it"
        )
    if found is None:
        raise InvalidPositionError(
            f"no result for {spec!r} in the store {str(resolve_store_path(store))!r}"
        )
    if as_json:
        emit_json(with_cached(found.payload, True))
    else:
        console.print(f"{found.spec}  [{found.method}, nimlab {found.version}, {found.created}]")
        console.print_json(json.dumps(found.payload))


@store_app.command("check")
def store_check(
    store: str | None = STORE_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Check every stored row; list the damaged ones (not JSON objects, or lacking what their
    kind of result holds). Exit 0 when every row is sound; 2 (the contract's code for bad input,
    with one ``error:`` line) when some are damaged (commands pass over such a row and replace it
    when they compute the result again) or when the file is not a results store."""
    path = resolve_store_path(store)
    with ResultStore(path, create=False) as opened:
        good, damaged = opened.scan()
    if as_json:
        emit_json(
            {
                "store": str(path),
                "rows": len(good) + len(damaged),
                "damaged": [row.to_json() for row in damaged],
            }
        )
    else:
        for row in damaged:
            console.print(
                f"damaged: {row.spec} ({row.method}, nimlab {row.version}, {row.created}):"
                f" {row.problem}",
                markup=False,
            )
        console.print(
            f"{len(good) + len(damaged)} rows in {path}, {len(damaged)} damaged", markup=False
        )
    if damaged:
        sys.stderr.write(
            f"error: store {path}: {len(damaged)} damaged row(s); the commands that compute"
            " them replace them\n"
        )
        raise typer.Exit(2)


@store_app.command("export")
def store_export(
    out: Path = typer.Argument(..., help="FILE.csv, FILE.json or FILE.parquet."),
    fmt: str | None = typer.Option(None, "--format", help="csv, json or parquet (else: suffix)."),
    prefix: str = typer.Option("", "--prefix", help="Only specs starting with this."),
    store: str | None = STORE_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Write every stored result (one row each, the result as JSON text) to a file."""
    from nimlab.store.export import export_results

    path = resolve_store_path(store)
    with ResultStore(path, create=False) as opened:
        count = export_results(opened, out, fmt=fmt, prefix=prefix)
        skipped = len(opened.scan(prefix=prefix)[1])
    if skipped:
        sys.stderr.write(f"left out {skipped} unreadable row(s): see `nimlab store ls`\n")
    if as_json:
        emit_json({"store": str(path), "out": str(out), "count": count})
    else:
        console.print(f"{count} results written to {out}")

"""``nimlab solve`` and ``nimlab export-efg``: imperfect-information Nim variants."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape

from nimlab.cli.app import (
    CODE_OPTION,
    GAME_OPTION,
    HEAP_ARGS,
    JSON_OPTION,
    MAX_MEMORY_OPTION,
    MAX_SECONDS_OPTION,
    MAX_TAKE_OPTION,
    NO_STORE_OPTION,
    SET_OPTION,
    app,
    console,
    emit_json,
    hidden_game_options,
    option_budget,
    progress_lines,
)
from nimlab.cli.paths import output_path, writing
from nimlab.core.heaps import parse_heaps
from nimlab.errors import InvalidPositionError
from nimlab.exact import exact_str

if TYPE_CHECKING:
    from nimlab.budget import Budget
    from nimlab.catalogue import GameOptions
    from nimlab.hidden.budget import SolveEstimate
    from nimlab.hidden.oracle import Round
    from nimlab.hidden.protocol import Rules
    from nimlab.hidden.solve import RoundReport

__all__ = ["export_efg", "solve"]

_HEAPS = re.compile(r"[0-9,]*")

_STORE = typer.Option(
    None,
    "--store",
    help="Serve/keep the result in this results store (default: $NIMLAB_STORE, else your "
    "results store; see --no-store).",
)
_MAX_NODES = typer.Option(
    None,
    "--max-nodes",
    min=0,
    help="While building, refuse (exit 3) any tree that grows past this many nodes "
    "(default: as many as --max-memory holds, at 550 bytes a node).",
)


@app.command("solve", context_settings=HEAP_ARGS)
def solve(
    variant: str = typer.Argument(..., help="sn, fsn, kn or kn-empty."),
    heaps: list[str] = typer.Argument(
        ..., help="Heap sizes, e.g. 3 3 1; with --game, a position in the game's notation."
    ),
    game: str | None = GAME_OPTION,
    subtraction_set: str | None = SET_OPTION,
    max_take: int | None = MAX_TAKE_OPTION,
    code: str | None = CODE_OPTION,
    misere: bool = typer.Option(False, "--misere", help="Whoever takes the last chip loses."),
    strategy: bool = typer.Option(False, "--strategy", help="Show the equilibrium strategies."),
    draw: Path | None = typer.Option(None, "--draw", help="Draw the equilibrium tree (SVG)."),
    max_nodes: int | None = _MAX_NODES,
    max_seconds: float = MAX_SECONDS_OPTION,
    max_memory: float = MAX_MEMORY_OPTION,
    method: str = typer.Option(
        "auto",
        "--method",
        help="lp (the whole tree's LP), restricted (restricted games grown until their "
        "bounds meet; for large games), or auto (restricted for large trees).",
    ),
    store: str | None = _STORE,
    no_store: bool = NO_STORE_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Exact value of an imperfect-information Nim variant, certified in rationals.

    The cost of the method that will run is estimated first, in well under a second.
    """
    from nimlab.hidden.budget import METHODS, estimate_solve, node_limit
    from nimlab.hidden.variants import variant_rules
    from nimlab.store import command_store_path

    variant_rules(variant)
    if method not in METHODS:
        raise InvalidPositionError(
            f"unknown --method {method!r}: choose one of {', '.join(METHODS)}"
        )
    budget = option_budget(max_seconds, max_memory)
    if max_nodes is None:
        max_nodes = node_limit(budget)
    options = hidden_game_options(game, subtraction_set, max_take, code)
    if options is not None and game is not None:
        store_path = command_store_path(store, no_store=no_store)
        if store_path is not None and not strategy and draw is None:
            text = ",".join(heaps)
            stored = (variant, text, misere, max_nodes, method, budget, as_json)
            _solve_stored(store_path, *stored, game=game, options=options)
            return
        wanted = (strategy, draw, method)
        _solve_game(variant, game, heaps, options, misere, wanted, budget, max_nodes, as_json)
        return
    position = parse_heaps(heaps)
    store_path = command_store_path(store, no_store=no_store)
    if store_path is not None and not strategy and draw is None:
        # a stored result is served whatever its cost; the budget guards a computation
        _solve_stored(store_path, variant, position, misere, max_nodes, method, budget, as_json)
        return
    estimate = estimate_solve(variant, position, misere=misere, method=method, strategies=strategy)
    _check_budget(estimate, budget)
    if draw is not None:
        _draw(variant, position, misere, max_nodes, draw)
    from nimlab.equilibrium.strategy import format_strategies
    from nimlab.hidden.solve import solve as solve_game

    with _round_status() as report:
        result = solve_game(
            variant,
            position,
            misere=misere,
            strategies=strategy,
            max_nodes=max_nodes,
            method=method,
            progress=report,
            budget=None,  # checked above, with the options that lift it
            estimate=estimate,
        )
    if as_json:
        emit_json({**result.to_json(), "cached": False})
        return
    kind = "misère " if misere else ""
    status = "certified exact" if result.exact else "NOT certified (float estimate)"
    console.print(
        f"{kind}{variant}({','.join(map(str, position))}): value [bold]{exact_str(result.value)}"
        f"[/bold] for the first player, L ({status}); {result.nodes:,} nodes, "
        f"{result.infosets:,} information sets ({result.tree}), {result.seconds:.2f} s"
    )
    if result.strategies is not None:
        console.print(format_strategies(result.strategies), markup=False)


def _check_budget(estimate: SolveEstimate, budget: Budget, what: str | None = None) -> None:
    """Refuse (exit 3) an estimate over ``budget``, naming the options that lift it."""
    from nimlab.budget import check_cost, options_over

    lift = options_over(estimate.cost, budget)
    check_cost(what or estimate.what, estimate.cost, budget, lift)


def _solve_game(
    variant: str,
    game: str,
    position: list[str],
    options: GameOptions,
    misere: bool,
    wanted: tuple[bool, Path | None, str],
    budget: Budget,
    max_nodes: int,
    as_json: bool,
) -> None:
    """``solve VARIANT --game GAME POSITION``: the variant on a catalogue game's components;
    ``wanted``: the strategies?, a drawing's path, the method."""
    from nimlab.equilibrium.strategy import format_strategies
    from nimlab.hidden.games import estimate_hidden, hidden_game, solve_hidden

    hidden = hidden_game(variant, game, options)
    text = ",".join(position)
    states = hidden.parse(text)
    strategy, draw, method = wanted
    estimate = estimate_hidden(
        hidden, states, misere=misere, method=method, strategies=strategy or draw is not None
    )
    _check_budget(estimate, budget)
    if draw is not None:
        _draw(hidden.rules, states, misere, max_nodes, draw, hidden.component.format_position)
    with _round_status() as report:
        result = solve_hidden(
            variant,
            game,
            text,
            options=options,
            misere=misere,
            strategies=strategy,
            budget=None,  # checked above, with the options that lift it
            max_nodes=max_nodes,
            estimate=estimate,
            progress=lambda step: report(None, step),
        )
    if as_json:
        emit_json({**result.to_json(), "cached": False})
        return
    status = "certified exact" if result.exact else "NOT certified (float estimate)"
    console.print(
        f"{escape(hidden.spec(states, misere))}: value [bold]{exact_str(result.value)}[/bold] "
        f"for the first player, L ({status}); {result.nodes:,} nodes, {result.infosets:,} "
        f"information sets ({result.tree}), {result.seconds:.2f} s"
    )
    if result.strategies is not None:
        console.print(format_strategies(result.strategies), markup=False)


@contextmanager
def _round_status() -> Iterator[RoundReport]:
    """Progress of restricted games on stderr (:func:`~nimlab.cli.app.progress_lines`)."""
    with progress_lines("solving") as write:

        def report(heap: int | None, step: Round) -> None:
            # "#": the heap's place in the position, not its size
            part = "" if heap is None else f"L first on heap #{heap + 1}, "
            low, high = step.lower + 0.0, step.upper + 0.0  # no "-0.0"
            write(
                f"{part}round {step.index}: {low:.9f} <= v <= {high:.9f} "
                f"({step.nodes[0] + step.nodes[1]:,} nodes)"
            )

        yield report


def _solve_stored(
    store_path: Path,
    variant: str,
    position: tuple[int, ...] | str,
    misere: bool,
    max_nodes: int,
    method: str,
    budget: Budget,
    as_json: bool,
    game: str | None = None,
    options: GameOptions | None = None,
) -> None:
    """Solve by ``method`` through the results store, under the key a ``nimlab sweep solve``
    uses (``auto`` is served by a row of any method: see :mod:`nimlab.specs`); only a
    computation is held to ``budget``. With ``game``, ``position`` is in its notation."""
    from nimlab.specs import solve_task
    from nimlab.store import cached_result
    from nimlab.sweeps.tasks import run_task

    allowed = (budget.seconds, budget.bytes)
    task = solve_task(
        variant,
        position,
        misere=misere,
        method=method,
        max_nodes=max_nodes,
        budget=allowed,
        game=game,
        options=options,
    )
    shown, estimate = _stored_position(task.params, position, game, options)

    def compute() -> dict[str, Any]:
        _check_budget(estimate(), budget)
        with _round_status() as report:  # computed here: its rounds are reported as well
            return run_task(task, progress=report)

    stored, served = cached_result(
        store_path, task.spec, task.method, compute, accepts=task.accepts, recorded=task.recorded
    )
    # The key is the multiset of components (the value does not depend on their order).
    payload = {**stored, "position": shown, "cached": served}
    if as_json:
        emit_json(payload)
        return
    _print_stored(payload, task.spec, served, store_path)


def _stored_position(
    params: Mapping[str, Any],
    position: tuple[int, ...] | str,
    game: str | None,
    options: GameOptions | None,
) -> tuple[object, Callable[[], SolveEstimate]]:
    """The position as the user gave it (heaps as a list, a game's in its notation) and
    the estimate of computing the task of ``params``."""
    from nimlab.hidden.budget import estimate_solve

    if "game" not in params:  # Nim, whatever --game said
        heaps = parse_heaps(position) if isinstance(position, str) else position
        variant, misere, method = params["variant"], params["misere"], params["method"]
        return list(heaps), lambda: estimate_solve(variant, heaps, misere=misere, method=method)
    from nimlab.hidden.games import estimate_hidden, hidden_game

    hidden = hidden_game(params["variant"], str(game), options)
    states = hidden.parse(str(position))
    canonical = hidden.parse(params["position"])
    return hidden.component.format_position(states), lambda: estimate_hidden(
        hidden, canonical, misere=params["misere"], method=params["method"]
    )


def _print_stored(payload: dict[str, Any], spec: str, served: bool, store_path: Path) -> None:
    status = "certified exact" if payload["exact"] else "NOT certified (float estimate)"
    console.print(
        f"{escape(spec)}: value [bold]{payload['value']}[/bold] for the first player, L "
        f"({status}); {payload['nodes']:,} nodes, {payload['infosets']:,} information sets"
        f" ({payload.get('tree', 'the whole tree as built')}), {payload['seconds']:.2f} s"
    )
    where = "served from" if served else "computed and stored in"
    console.print(f"{where} the results store {store_path}", markup=False)


def _draw(
    variant: str | Rules,
    position: tuple[Any, ...],
    misere: bool,
    max_nodes: int,
    path: Path,
    notation: Callable[[tuple[Any, ...]], str] | None = None,
) -> None:
    from nimlab.equilibrium.draw import equilibrium_svg
    from nimlab.hidden.solve import solve_tree
    from nimlab.hidden.tree import build_tree

    output_path(path, "drawing")
    tree = build_tree(variant, position, misere=misere, max_nodes=max_nodes, record_nodes=True)
    result = solve_tree(tree)
    with writing(path, "drawing"):
        path.write_text(equilibrium_svg(tree, result.behaviours, notation), encoding="utf-8")


@app.command("export-efg", context_settings=HEAP_ARGS)
def export_efg(
    variant: str = typer.Argument(..., help="sn, fsn, kn or kn-empty."),
    args: list[str] = typer.Argument(
        ...,
        help="Heap sizes (with --game, a position in the game's notation), then the output "
        "file (e.g. game.efg; not a number).",
    ),
    game: str | None = GAME_OPTION,
    subtraction_set: str | None = SET_OPTION,
    max_take: int | None = MAX_TAKE_OPTION,
    code: str | None = CODE_OPTION,
    misere: bool = typer.Option(False, "--misere", help="Whoever takes the last chip loses."),
    max_nodes: int = typer.Option(
        2_000_000, "--max-nodes", help="Refuse games whose tree has more nodes (exit 3)."
    ),
    reduced: bool = typer.Option(
        False,
        "--reduced",
        help="Write the smaller tree with nimlab's lossless reductions (Nim variants only).",
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Write the game tree in Gambit's .efg format (exact rational payoffs).

    The last argument is the output file; it must not look like heap sizes (digits and
    commas), so that a forgotten file name is refused instead of taken from the heaps.
    With --game, the whole tree of the variant on the game's components, its actions in words.
    """
    from nimlab.hidden.efg import write_efg, write_game_efg
    from nimlab.hidden.variants import variant_rules

    variant_rules(variant)
    if _HEAPS.fullmatch(args[-1].strip()):
        raise InvalidPositionError(
            f"give the output file after the heap sizes (the last argument {args[-1]!r} is "
            "a heap size), e.g. nimlab export-efg sn 3 3 1 game.efg"
        )
    if len(args) < 2:
        raise InvalidPositionError(
            "give the heap sizes before the output file, e.g. nimlab export-efg sn 3 3 1 game.efg"
        )
    summary: dict[str, Any] = {"variant": variant}
    options = hidden_game_options(game, subtraction_set, max_take, code)
    if options is not None and game is not None:
        from nimlab.hidden.games import hidden_game

        if reduced:
            raise InvalidPositionError("--reduced applies to the Nim variants only")
        hidden = hidden_game(variant, game, options)
        states = hidden.parse(",".join(args[:-1]))
        path = output_path(Path(args[-1]), "game file")
        with writing(path, "game file"):
            tree = write_game_efg(hidden, states, path, misere=misere, max_nodes=max_nodes)
        summary["position"] = hidden.component.format_position(states)
        summary["game"], summary["options"] = hidden.game, hidden.options
    else:
        position = parse_heaps(args[:-1])
        path = output_path(Path(args[-1]), "game file")
        with writing(path, "game file"):
            tree = write_efg(
                variant, position, path, misere=misere, max_nodes=max_nodes, reduced=reduced
            )
        summary["position"] = list(position)
    counted = (
        "the reduced tree, nimlab's lossless reductions applied"
        if reduced
        else ("the whole tree, every move kept")
    )
    summary.update(
        {
            "misere": misere,
            "file": str(path),
            "nodes": tree.nodes,
            "infosets": tree.infoset_count,
            "tree": counted,
        }
    )
    if as_json:
        emit_json(summary)
    else:
        console.print(
            f"wrote {path}: {tree.nodes:,} nodes, {tree.infoset_count:,} information sets"
            f" ({counted})"
        )

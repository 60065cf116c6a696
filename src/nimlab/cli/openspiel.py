"""``nimlab solve-openspiel``: the exact value of an OpenSpiel two-player zero-sum game."""

from __future__ import annotations

import time

import typer

from nimlab.cli.app import JSON_OPTION, MAX_MEMORY_OPTION, app, option_budget
from nimlab.cli.efg import report

__all__ = ["solve_openspiel"]


@app.command("solve-openspiel")
def solve_openspiel(
    game_string: str = typer.Argument(
        ..., help="An OpenSpiel game string, e.g. kuhn_poker or 'liars_dice(dice_sides=4)'."
    ),
    strategy: bool = typer.Option(
        False, "--strategy", help="Show equilibrium strategies, in OpenSpiel's labels."
    ),
    max_nodes: int = typer.Option(
        3_000_000,
        "--max-nodes",
        min=1,
        help="Refuse (exit 3) a game with more states; raise it to lift the limit.",
    ),
    max_memory: float = MAX_MEMORY_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Exact value for player 0 (the first player) of an OpenSpiel two-player zero-sum (or
    constant-sum) game with perfect recall, chance included, certified in rationals.

    Needs the extra 'openspiel'. OpenSpiel's float probabilities and payoffs are read as
    fractions with denominators up to 10**6.
    """
    from nimlab.equilibrium.efg_solve import solve_efg
    from nimlab.errors import TooLargeError
    from nimlab.openspiel.walk import load, walk

    start = time.perf_counter()
    game = load(game_string)
    try:
        tree = walk(game, max_nodes=max_nodes, max_bytes=option_budget(600, max_memory).bytes)
    except TooLargeError as error:
        lift = "--max-memory (or lower --max-nodes)" if "memory" in str(error) else "--max-nodes"
        raise TooLargeError(
            f"{game_string}: {error}; lift it with {lift}",
            estimate=error.estimate,
            limit=error.limit,
        ) from error
    walked = time.perf_counter()
    result = solve_efg(tree, strategies=strategy)
    seconds = time.perf_counter() - start
    timings = {"walk": walked - start, "solve": result.seconds}
    source = {"game": game_string}
    report(result, source, game_string, "player 0", seconds, timings, as_json, first_player=0)

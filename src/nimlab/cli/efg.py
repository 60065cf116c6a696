"""``nimlab solve-efg``: the exact value of any two-player zero-sum game in Gambit's format."""

from __future__ import annotations

import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from nimlab.cli.app import (
    JSON_OPTION,
    MAX_MEMORY_OPTION,
    MAX_SECONDS_OPTION,
    app,
    console,
    emit_json,
    option_budget,
)
from nimlab.errors import InvalidPositionError
from nimlab.exact import exact_str

if TYPE_CHECKING:
    from nimlab.equilibrium.efg_solve import EfgResult

__all__ = ["report", "solve_efg"]


@app.command("solve-efg")
def solve_efg(
    file: Path = typer.Argument(..., help="A Gambit .efg file (version 2)."),
    strategy: bool = typer.Option(
        False, "--strategy", help="Show equilibrium strategies, in the file's labels."
    ),
    max_seconds: float = MAX_SECONDS_OPTION,
    max_memory: float = MAX_MEMORY_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Exact value for player 1 of a two-player zero-sum (or constant-sum) extensive-form game
    with perfect recall, chance nodes included, certified in rationals.

    The cost is estimated from the file's size before reading, and from its nodes before solving.
    """
    from nimlab.budget import Cost, check_cost, options_over
    from nimlab.equilibrium.efg_read import read_efg
    from nimlab.equilibrium.efg_solve import estimate_efg, estimate_efg_file
    from nimlab.equilibrium.efg_solve import solve_efg as solve_game

    start = time.perf_counter()
    budget = option_budget(max_seconds, max_memory)

    def check(what: str, cost: Cost) -> None:
        check_cost(what, cost, budget, options_over(cost, budget))

    status = file.stat()
    if not stat.S_ISREG(status.st_mode):  # /dev/zero, a pipe: no size to estimate, no end
        kind = "a directory" if stat.S_ISDIR(status.st_mode) else "not a regular file"
        raise InvalidPositionError(f"{str(file)!r} is {kind}: give a .efg file")
    size = status.st_size
    check(f"reading {file} ({size:,} bytes)", estimate_efg_file(size))
    game = read_efg(file, max_bytes=size)  # a file that grew since is refused, not read
    check(f"solving {file} ({game.nodes:,} nodes)", estimate_efg(game.nodes))
    read = time.perf_counter()
    result = solve_game(game, strategies=strategy)
    seconds = time.perf_counter() - start
    title = f"{result.title!r} " if result.title else ""
    heading = f"{title}({file})"
    who = f"player 1 {result.players[0]!r}"
    timings = {"read": read - start, "solve": result.seconds}
    report(result, {"file": str(file)}, heading, who, seconds, timings, as_json)


def report(
    result: EfgResult,
    source: dict[str, str],
    heading: str,
    who: str,
    seconds: float,
    timings: dict[str, float],
    as_json: bool,
    *,
    first_player: int = 1,
) -> None:
    """Print a solved game: one JSON object (``source`` keys first, the contract's keys, the
    timings) or the value and the strategies, players numbered from ``first_player``."""
    if as_json:
        payload = result.to_json()
        payload["seconds"] = round(seconds, 6)
        payload["timings"] = {name: round(value, 6) for name, value in timings.items()}
        emit_json({**source, **payload})
        return
    status = "certified exact" if result.exact else "NOT certified (float estimate)"
    console.print(
        f"{heading}: value {exact_str(result.value)} for {who} ({status}); "
        f"{result.nodes:,} nodes, {result.infosets:,} information sets, {seconds:.2f} s",
        markup=False,
    )
    for entry in result.strategies or ():
        shown = ", ".join(f"{a!r}: {exact_str(p)}" for a, p in entry.actions)
        player = entry.player - 1 + first_player
        console.print(
            f"player {player} at information set {entry.number} {entry.name!r}: {shown}",
            markup=False,
        )

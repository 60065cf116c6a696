"""``nimlab solve-efg``: the exact value of any two-player zero-sum game in Gambit's format."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from nimlab.cli.app import JSON_OPTION, app, console, emit_json
from nimlab.exact import exact_str

__all__ = ["solve_efg"]


@app.command("solve-efg")
def solve_efg(
    file: Path = typer.Argument(..., help="A Gambit .efg file (version 2)."),
    strategy: bool = typer.Option(
        False, "--strategy", help="Show equilibrium strategies, in the file's labels."
    ),
    max_seconds: float = typer.Option(
        600.0,
        "--max-seconds",
        min=0.0,
        help="Refuse (exit 3) a game estimated to take more seconds; raise it to lift the limit.",
    ),
    max_memory: float = typer.Option(
        8.0,
        "--max-memory",
        min=0.0,
        help="Refuse (exit 3) a game estimated to need more GiB of memory; raise it to lift "
        "the limit.",
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Exact value for player 1 of a two-player zero-sum (or constant-sum) extensive-form game
    with perfect recall, chance nodes included, certified in rationals.

    The cost is estimated from the file's size before reading, and from its nodes before solving.
    """
    from nimlab.budget import GIB, Budget, Cost, check_cost
    from nimlab.extensive.efg_read import read_efg
    from nimlab.extensive.efg_solve import estimate_efg, estimate_efg_file
    from nimlab.extensive.efg_solve import solve_efg as solve_game

    start = time.perf_counter()
    budget = Budget(max_seconds, int(min(max_memory, 2.0**40) * GIB))  # inf: no limit

    def check(what: str, cost: Cost) -> None:
        over = (cost.seconds > budget.seconds, cost.bytes > budget.bytes)
        lift = [o for o, hit in zip(("--max-seconds", "--max-memory"), over, strict=True) if hit]
        check_cost(what, cost, budget, " and ".join(lift))

    size = file.stat().st_size
    check(f"reading {file} ({size:,} bytes)", estimate_efg_file(size))
    game = read_efg(file)
    check(f"solving {file} ({game.nodes:,} nodes)", estimate_efg(game.nodes))
    read = time.perf_counter()
    result = solve_game(game, strategies=strategy)
    seconds = time.perf_counter() - start
    if as_json:
        payload = result.to_json()
        payload["seconds"] = round(seconds, 6)
        payload["timings"] = {
            "read": round(read - start, 6),
            "solve": round(result.seconds, 6),
        }
        emit_json({"file": str(file), **payload})
        return
    status = "certified exact" if result.exact else "NOT certified (float estimate)"
    title = f"{result.title!r} " if result.title else ""
    console.print(
        f"{title}({file}): value {exact_str(result.value)} for player 1 "
        f"{result.players[0]!r} ({status}); {result.nodes:,} nodes, {result.infosets:,} "
        f"information sets, {seconds:.2f} s",
        markup=False,
    )
    for entry in result.strategies or ():
        shown = ", ".join(f"{a!r}: {exact_str(p)}" for a, p in entry.actions)
        console.print(
            f"player {entry.player} at information set {entry.number} {entry.name!r}: {shown}",
            markup=False,
        )

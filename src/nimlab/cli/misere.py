"""Command ``misere``: the misère quotient of an octal game (or Grundy's game), certified."""

from __future__ import annotations

from typing import Any

import typer
from rich.text import Text

from nimlab.cli.app import JSON_OPTION, NO_STORE_OPTION, app, console, emit_json, progress_lines
from nimlab.errors import InvalidPositionError

__all__ = ["misere_command", "print_quotient"]


@app.command("misere")
def misere_command(
    game: str = typer.Argument(
        ..., help="An octal code (0.77, .07, 4.7) or a heap game: kayles, dawson-kayles, ..."
    ),
    upto: int | None = typer.Option(
        None,
        "--upto",
        help="The partial quotient of heaps up to N (default: until the period of Φ is proven,"
        " at most 200 heaps).",
    ),
    code: str | None = typer.Option(None, "--code", help="With octal: the octal code."),
    max_seconds: float = typer.Option(
        600.0,
        "--max-seconds",
        min=0.0,
        help="Stop after about this many seconds and report the quotient of the heaps settled"
        " by then (settled: false). A quotient's growth cannot be estimated ahead.",
    ),
    store: str | None = typer.Option(
        None,
        "--store",
        help="Serve/keep the result in this results store (default: $NIMLAB_STORE, else your"
        " results store; see --no-store).",
    ),
    no_store: bool = NO_STORE_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """The misère quotient: presentation, P-portion, pretending function Φ and certificate."""
    from nimlab.specs import misere_task, with_cached
    from nimlab.store import cached_result, command_store_path
    from nimlab.sweeps.tasks import run_task

    if upto is not None and upto < 0:
        raise InvalidPositionError(f"invalid --upto {upto}: it must be non-negative")
    task = misere_task(game if code is None else _octal(game, code), upto, seconds=max_seconds)
    store_path = command_store_path(store, no_store=no_store)
    with progress_lines(f"misère quotient of {task.params['code']}"):
        if store_path is None:
            payload, served = run_task(task), False
        else:
            payload, served = cached_result(
                store_path,
                task.spec,
                task.method,
                lambda: run_task(task),
                accepts=task.accepts,
                recorded=task.recorded,
            )
    if as_json:
        emit_json(with_cached(payload, served))
        return
    print_quotient(payload)
    if store_path is not None:
        where = "served from" if served else "computed and stored in"
        console.print(f"{where} the results store {store_path}", markup=False)


def _octal(game: str, code: str) -> str:
    """``octal --code C`` is the code ``C``."""
    if game.strip().lower() not in ("octal", "octal-game"):
        raise InvalidPositionError(f"option --code does not apply to {game} (only to octal)")
    return code


def print_quotient(payload: dict[str, Any]) -> None:
    """A quotient's JSON for people."""

    def say(line: str) -> None:
        console.print(line, markup=False, highlight=False)

    console.print(Text(f"misère quotient of {payload['code']}", style="bold"))
    tame = "tame (misère Nim)" if payload["tame"] else "wild (not misère Nim)"
    say(f"order |Q| = {payload['order']}, |P| = {payload['p_order']}; {tame}")
    gens = payload["generators"]
    say("generators: " + (", ".join(gens) if gens else "none"))
    relations = payload["relations"]
    say(f"relations ({len(relations)}): " + ("; ".join(relations[:30]) or "none"))
    if len(relations) > 30:
        say(f"  ... {len(relations) - 30} more (--json lists them all)")
    p_portion = payload["p_portion"]
    say("P-portion: " + (", ".join(p_portion[:40]) or "empty"))
    if len(p_portion) > 40:
        say(f"  ... {len(p_portion) - 40} more")
    pretending = payload["pretending"]
    say(f"Φ(n), the element of a heap of n, for n = 0..{len(pretending) - 1}:")
    width = max(len(w) for w in pretending)
    for start in range(0, len(pretending), 10):
        row = " ".join(w.rjust(width) for w in pretending[start : start + 10])
        say(f"{start:>4}: {row}")
    certified = payload["certified_to"]
    if payload["period"] is not None:
        say(
            f"period {payload['period']}, preperiod {payload['preperiod']} (proven: the octal"
            f" periodicity theorem applied to Φ, from the heaps up to {certified}): the quotient"
            " of all heaps"
        )
    elif not payload.get("settled", True):
        say(
            f"not settled: stopped at heap {certified} (partial quotient of order"
            f" {payload['order']}); raise --max-seconds to go further"
        )
    else:
        say(f"no period of Φ proven up to heap {certified}: the partial quotient Q_{certified}")
    say(
        f"certificate: every sum of heaps up to {certified} has the outcome the quotient predicts"
        " (no P-failure and no N-failure: a proof by induction on sums)"
    )
    last = payload.get("last_outside_kernel")
    if last is not None:
        say(f"last heap whose element lies outside the kernel: {last}")
    say(f"computed in {payload['seconds']} s")

"""Commands ``analyze``, ``grundy`` and ``games``: the game catalogue from the command line."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.text import Text

from nimlab.budget import DEFAULT_STEPS
from nimlab.cli.app import (
    HEAP_ARGS,
    JSON_OPTION,
    NO_STORE_OPTION,
    app,
    console,
    emit_json,
    progress_lines,
)
from nimlab.core.game import Outcome
from nimlab.errors import InvalidPositionError

if TYPE_CHECKING:  # the catalogue is imported when a command runs (nimlab --help stays fast)
    from nimlab.catalogue import CatalogueGame, GameOptions

__all__ = ["analyze_command", "games_command", "grundy_command"]

_VERDICTS = {
    Outcome.N: "N: the player to move wins.",
    Outcome.P: "P: the player to move loses (the previous player wins).",
    Outcome.L: "L: Left (Blue) wins, whoever starts.",
    Outcome.R: "R: Right (Red) wins, whoever starts.",
}

_MISERE = typer.Option(
    False,
    "--misere",
    help="The last player to move loses (any impartial game: nim by its rule, octal games by"
    " their misère quotient, others by search).",
)
_SET = typer.Option(None, "--set", help="subtraction: the finite subtraction set, e.g. 1,3,4.")
_MAX = typer.Option(None, "--max", help="subtraction: take 1..K counters.", show_default=False)
_ADDITIONS = typer.Option(None, "--additions", help="poker-nim: additions allowed per player.")
_CAP = typer.Option(None, "--cap", help="poker-nim: no heap may grow beyond C.")
_SKIPS = typer.Option(None, "--skips", help="skip-nim: skips A,B of the first and second player.")
_CODE = typer.Option(None, "--code", help="octal: the octal code, e.g. 0.07.")
_ROW = typer.Option(None, "--row", help="wythoff: the row R tabulated by grundy (pairs R,n).")
_LIMIT = typer.Option(
    DEFAULT_STEPS,  # the catalogue's DEFAULT_LIMIT
    "--limit",
    help="Work budget of what is not a closed form (tables, searches), in steps of about a"
    " microsecond: default about 10 minutes, with 8 GB of memory (more in proportion above"
    " it). Jobs estimated over it are refused (exit 3) before they start.",
)


def _options(
    misere: bool,
    subtraction_set: str | None,
    max_take: int | None,
    additions: int | None,
    cap: int | None,
    skips: str | None,
    code: str | None,
    row: int | None,
    limit: int,
) -> GameOptions:
    from nimlab.catalogue import GameOptions
    from nimlab.catalogue.registry import parse_int_list, parse_skips

    for flag, number in (("--max", max_take), ("--additions", additions), ("--cap", cap)):
        if number is not None and number < 0:
            raise InvalidPositionError(f"invalid {flag} {number}: it must be non-negative")
    if row is not None and row < 0:
        raise InvalidPositionError(f"invalid --row {row}: it must be non-negative")
    if limit < 0:
        raise InvalidPositionError(f"invalid --limit {limit}: it must be non-negative")
    return GameOptions(
        misere=misere,
        subtraction_set=(
            parse_int_list(subtraction_set, "--set", minimum=1) if subtraction_set else None
        ),
        max_take=max_take,
        additions=additions,
        cap=cap,
        skips=parse_skips(skips) if skips is not None else None,
        code=code,
        row=row,
        limit=limit,
    )


@app.command("analyze", context_settings=HEAP_ARGS)
def analyze_command(
    game: str = typer.Argument(..., help="The game, e.g. nim, wythoff, silver-dollar."),
    position: list[str] = typer.Argument(
        None, help="The position in the game's notation (see 'nimlab games').", show_default=False
    ),
    misere: bool = _MISERE,
    subtraction_set: str | None = _SET,
    max_take: int | None = _MAX,
    additions: int | None = _ADDITIONS,
    cap: int | None = _CAP,
    skips: str | None = _SKIPS,
    code: str | None = _CODE,
    row: int | None = _ROW,
    limit: int = _LIMIT,
    brute: bool = typer.Option(
        False, "--brute", help="Search the game tree instead of the closed form (see --limit)."
    ),
    outcome_only: bool = typer.Option(
        False, "--outcome-only", help="Skip the Grundy value (null), e.g. for huge Wythoff piles."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Analyse a position of a catalogue game: Grundy value, outcome, winning moves."""
    from nimlab.catalogue import analyze, make_game

    options = _options(misere, subtraction_set, max_take, additions, cap, skips, code, row, limit)
    entry = make_game(game, options)
    text = ",".join(position or [])
    result = analyze(entry, text, brute_force=brute, outcome_only=outcome_only)
    if as_json:
        emit_json(result.to_json())
        return
    console.print(Text(f"{result.game}: {result.position or '(empty)'}", style="bold"))
    if brute:
        console.print("By exhaustive search of the game tree (no closed form used).")
    else:
        console.print(entry.explain(entry.parse_position(text)))
        if result.method != "closed-form":
            console.print(f"method: {result.method}")
    payload = result.to_json()
    if "canonical" in payload:  # a partizan value: its facts, as CGSuite prints them
        for key in ("value", "left_stop", "right_stop", "mean", "temperature", "birthday"):
            console.print(f"{key.replace('_', ' ')}: {payload[key]}", markup=False)
    elif result.value is not None:
        console.print(f"value: {payload['value']}")
    if result.grundy is not None:
        console.print(f"Grundy value: {result.grundy}")
    console.print(Text(_VERDICTS[result.outcome], style="bold"))
    for move in result.winning_moves:
        who = f"{move['player']} " if "player" in move else ""
        console.print(f"  winning move: {who}{move['move']}   (leaves {move['to'] or '(empty)'})")


@app.command("grundy")
def grundy_command(
    game: str = typer.Argument(..., help="The game, e.g. subtraction, kayles, octal."),
    upto: int = typer.Option(..., "--upto", help="Tabulate g(0..N)."),
    misere: bool = _MISERE,
    subtraction_set: str | None = _SET,
    max_take: int | None = _MAX,
    code: str | None = _CODE,
    row: int | None = _ROW,
    limit: int = _LIMIT,
    store: str | None = typer.Option(
        None,
        "--store",
        help="Octal games and grundy-game: serve/keep the table in this results store"
        " (default: $NIMLAB_STORE, else your results store; see --no-store).",
    ),
    no_store: bool = NO_STORE_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Grundy values g(0..N) of a game's single-heap positions, with the proven period."""
    from nimlab.catalogue import grundy_table, make_game
    from nimlab.store import command_store_path

    if upto < 0:
        raise InvalidPositionError(f"invalid --upto {upto}: it must be non-negative")
    options = _options(misere, subtraction_set, max_take, None, None, None, code, row, limit)
    entry = make_game(game, options)
    store_path = command_store_path(store, no_store=no_store)
    stored_code = _sweep_code(entry)
    if store_path is not None and stored_code is not None:
        with progress_lines(f"grundy values of {entry.spec} to {upto:,}"):
            _grundy_stored(store_path, entry, stored_code, upto, as_json)
        return
    with progress_lines(f"grundy values of {entry.spec} to {upto:,}"):
        table = grundy_table(entry, upto)
    if as_json:
        emit_json(table.to_json() if stored_code is None else {**table.to_json(), "cached": False})
        return
    _print_table(table.game, table.meaning, table.values, table.period, table.preperiod)


def indexed_rows(values: Sequence[int | None], per_row: int = 10) -> list[str]:
    """``values`` as rows of ``per_row``, each led by the index of its first value, columns
    aligned (``-``: no value).

    >>> print("\\n".join(indexed_rows([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 12, 6, None], 5)))
     0:  0  1  2  3  1
     5:  4  3  2  1  4
    10: 12  6  -
    """
    shown = ["-" if v is None else str(v) for v in values]
    width = max((len(v) for v in shown), default=1)
    lead = len(str(max(len(shown) - 1, 0) // per_row * per_row))
    return [
        f"{start:>{lead}}: " + " ".join(v.rjust(width) for v in shown[start : start + per_row])
        for start in range(0, len(shown), per_row)
    ]


def _print_table(
    game: str,
    meaning: str,
    values: Sequence[int | None],
    period: int | None,
    preperiod: int | None,
) -> None:
    """A Grundy table for people: its title, rows of ten values led by their first index, and
    the period."""
    upto = len(values) - 1
    console.print(Text(f"{game}: g(n) for n = 0..{upto}, n = {meaning}", style="bold"))
    for row in indexed_rows(values):
        console.print(row, markup=False, highlight=False)
    if period is not None:
        console.print(f"period {period}, preperiod {preperiod} (proven)")
    else:
        console.print("no period proven from these values")


def _sweep_code(entry: CatalogueGame[Any]) -> str | None:
    """What ``nimlab sweep grundy --codes`` calls this game (an octal code, or the name
    ``grundy-game``), or None for a game whose table is not stored."""
    from nimlab.specs import GRUNDY_GAME

    code = getattr(entry, "code", None)
    if code is not None:
        return str(code)
    return GRUNDY_GAME if entry.name == GRUNDY_GAME else None


def _grundy_stored(
    store_path: Path, entry: CatalogueGame[Any], code: str, upto: int, as_json: bool
) -> None:
    """An octal game's (or Grundy's game's) table through the store, under the key ``nimlab
    sweep grundy`` uses (``octal(CODE;upto=N)``: kayles and dawson-kayles share it with their
    codes; ``grundy-game(upto=N)``)."""
    from nimlab.catalogue.base import check_limit
    from nimlab.specs import octal_task
    from nimlab.store import cached_result
    from nimlab.sweeps.tasks import run_task

    task = octal_task(code, upto)

    def compute() -> dict[str, Any]:  # a stored table is served whatever its size
        check_limit(f"a table of {upto + 1} values", entry.sequence_cost(upto), entry.limit)
        return run_task(task)

    stored, served = cached_result(
        store_path, task.spec, task.method, compute, accepts=task.accepts, recorded=task.recorded
    )
    payload = {
        **stored,
        "game": entry.spec,
        "meaning": entry.sequence_meaning or "",
        "cached": served,
    }
    if as_json:
        emit_json(payload)
        return
    _print_table(
        entry.spec, payload["meaning"], payload["values"], payload["period"], payload["preperiod"]
    )
    where = "served from" if served else "computed and stored in"
    console.print(f"{where} the results store {store_path}", markup=False)


def _game_row(cls: type[CatalogueGame[object]]) -> dict[str, object]:
    return {
        "name": cls.name,
        "aliases": list(cls.aliases),
        "summary": cls.summary,
        "notation": cls.notation,
        "example": cls.example,
        "options": sorted(cls.option_flags),
        "impartial": cls.impartial,
        "grundy_sequence": cls.sequence_meaning,
    }


@app.command("games")
def games_command(as_json: bool = JSON_OPTION) -> None:
    """List the catalogue's games, their position notation and options."""
    from rich.table import Table

    from nimlab.catalogue import registered_games

    rows = [_game_row(cls) for cls in registered_games()]
    if as_json:
        emit_json({"games": rows})
        return
    table = Table("game", "position", "example", "options", "rules", box=None)
    for cls in registered_games():
        options = " ".join(sorted(cls.option_flags))
        table.add_row(cls.name, cls.notation, cls.example, options, cls.summary)
    console.print(table)

"""Command ``cgt``: a value calculator over CGSuite's notation (canonical form, stops, mean,
temperature, thermograph)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.text import Text

from nimlab.cli.app import JSON_OPTION, app, console, emit_json
from nimlab.errors import InvalidPositionError
from nimlab.exact import exact_str

__all__ = ["cgt_command", "cgt_payload"]

_OUTCOME_WORDS = {
    "L": "L: Left wins, whoever starts.",
    "R": "R: Right wins, whoever starts.",
    "N": "N: the first player wins.",
    "P": "P: the second player wins.",
}


def cgt_payload(expression: str) -> dict[str, Any]:
    """The JSON of ``nimlab cgt EXPRESSION``.

    >>> cgt_payload("{2|-1/2} + ^*")["mean"]
    '3/4'
    >>> cgt_payload("±1 + ±1")["value"]
    '0'
    """
    from nimlab.cgt import parse_game

    g = parse_game(expression)
    return {
        "expression": expression,
        "value": str(g),
        "canonical": g.to_json(),
        "outcome": g.outcome,
        "left_stop": exact_str(g.left_stop),
        "right_stop": exact_str(g.right_stop),
        "mean": exact_str(g.mean),
        "temperature": exact_str(g.temperature),
        "birthday": g.birthday,
        "thermograph": g.thermograph.to_json(),
    }


@app.command("cgt")
def cgt_command(
    expression: str = typer.Argument(
        ..., help="A sum of games in CGSuite's notation, e.g. '{2|-1/2} + ^*', '±1', '{0||0|-2}'."
    ),
    thermograph: Path | None = typer.Option(
        None, "--thermograph", help="Write the thermograph as an SVG drawing to this file."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Short partizan games: canonical form, outcome, stops, mean, temperature, thermograph."""
    from nimlab.cgt import parse_game

    payload = cgt_payload(expression)
    if thermograph is not None:
        if thermograph.suffix.lower() != ".svg":
            raise InvalidPositionError(
                f"invalid --thermograph {str(thermograph)!r}: write a .svg file"
            )
        try:
            thermograph.write_text(parse_game(expression).thermograph.svg(), encoding="utf-8")
        except OSError as error:
            raise InvalidPositionError(
                f"cannot write --thermograph {str(thermograph)!r}: {error.strerror}"
            ) from None
    if as_json:
        emit_json(payload)
        return
    console.print(Text(f"{expression} = {payload['value']}", style="bold"), markup=False)
    for key in ("left_stop", "right_stop", "mean", "temperature", "birthday"):
        console.print(f"{key.replace('_', ' ')}: {payload[key]}", markup=False)
    console.print(Text(_OUTCOME_WORDS[payload["outcome"]], style="bold"))
    if thermograph is not None:
        console.print(f"thermograph written to {thermograph}", markup=False)

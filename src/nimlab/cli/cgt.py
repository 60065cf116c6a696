"""Command ``cgt``: a value calculator over CGSuite's notation (canonical form, stops, mean,
temperature, thermograph)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.text import Text

from nimlab.budget import DEFAULT_STEPS, Cost
from nimlab.cli.app import JSON_OPTION, app, console, emit_json
from nimlab.errors import InvalidPositionError
from nimlab.exact import exact_str

if TYPE_CHECKING:  # the games are imported when the command runs (nimlab --help stays fast)
    from nimlab.cgt.game import Game

__all__ = ["cgt_command", "cgt_payload"]

_OUTCOME_WORDS = {
    "L": "L: Left wins, whoever starts.",
    "R": "R: Right wins, whoever starts.",
    "N": "N: the first player wins.",
    "P": "P: the second player wins.",
}


#: Calibrated (BENCHMARKS.md, "Partizan games"): forming a sum a + b visits at most
#: |a| x |b| pairs of subpositions (|g| = :func:`nimlab.cgt.game.subpositions`), about 20 µs
#: and 2 kB each (number translation and memoised sums make most sums far cheaper); on large
#: hot sums more, as each pair's simplification compares more options: measured (CPU) on sums
#: of games {i|{i|{i|-i-1}}}, 8.6 µs a pair at 63 pairs, 23.5 at 9,510, 51.8 at 293,797, about
#: 3.6 µs x pairs^0.21, taken here with a margin of 1.5; and memory, 1.8 kB a pair at 1,729
#: pairs, 3.3 kB at 53,040, 4.4 kB at 293,797, about 508 B x pairs^0.171, with the same margin
#: (the unrefused sum of 15 such games grew past 15 GB forming its eighth term).
_SECONDS_PER_PAIR = 2e-5
_SECONDS_PER_PAIR_SCALE = 5.4e-6
_PAIR_GROWTH = 0.21
_BYTES_PER_PAIR = 2000
_BYTES_PER_PAIR_SCALE = 760
_PAIR_BYTES_GROWTH = 0.171
#: A thermograph costs about 250 µs per subposition on such sums (76,480: 19.1 s).
_SECONDS_PER_SUBPOSITION = 3e-4
_BYTES_PER_SUBPOSITION = 4000
#: Values whose text is longer are named by their size in messages.
_SHORT_TEXT = 10_000


def sum_cost(a: Game, b: Game) -> Cost:
    """The estimated worst cost of forming ``a + b``.

    >>> from nimlab.cgt import parse_game
    >>> sum_cost(parse_game("^"), parse_game("*2"))  # 9 pairs
    Cost(seconds=0.00018, bytes=18000)
    """
    from nimlab.cgt.game import subpositions

    pairs = subpositions(a) * subpositions(b)
    seconds = max(_SECONDS_PER_PAIR, _SECONDS_PER_PAIR_SCALE * pairs**_PAIR_GROWTH)
    size = max(_BYTES_PER_PAIR, _BYTES_PER_PAIR_SCALE * pairs**_PAIR_BYTES_GROWTH)
    return Cost(pairs * seconds, round(pairs * size))


def value_cost(g: Game) -> tuple[str, Cost, str, Cost]:
    """What the value ``g`` costs once formed: its thermograph (stops, mean and temperature
    come from it) and writing its text, each named for a refusal.

    >>> from nimlab.cgt import parse_game
    >>> what, cost, _, text = value_cost(parse_game("{2|-1/2}"))
    >>> what, cost.seconds < 0.01, text.bytes < 1000
    ('the thermograph of a game with 6 subpositions', True, True)
    """
    from nimlab.catalogue.base import output_cost
    from nimlab.cgt.game import subpositions
    from nimlab.cgt.notation import text_length

    size = subpositions(g)
    characters = text_length(g)
    return (
        f"the thermograph of a game with {size:,} subpositions",
        Cost(size * _SECONDS_PER_SUBPOSITION, size * _BYTES_PER_SUBPOSITION),
        f"writing a value of {characters:,} characters",
        output_cost(characters),
    )


def cgt_payload(expression: str, limit: int = DEFAULT_STEPS) -> dict[str, Any]:
    """The JSON of ``nimlab cgt EXPRESSION``; each sum is estimated before it is formed and
    refused (TooLargeError) over the budget ``limit`` sets.

    >>> cgt_payload("{2|-1/2} + ^*")["mean"]
    '3/4'
    >>> cgt_payload("±1 + ±1")["value"]
    '0'
    """
    from nimlab.catalogue.analysis import canonical_keys
    from nimlab.catalogue.base import check_limit
    from nimlab.cgt import parse_game

    def before_add(a: Game, b: Game) -> None:
        if a.number is None and b.number is None:
            check_limit(f"the sum {_short(a)} + {_short(b)}", sum_cost(a, b), limit)

    g = parse_game(expression, before_add)
    thermograph, thermograph_cost, text, text_cost = value_cost(g)
    check_limit(thermograph, thermograph_cost, limit)
    check_limit(text, text_cost, limit)
    return {
        "expression": expression,
        "value": str(g),
        **canonical_keys(g),
        "outcome": g.outcome,
        "left_stop": exact_str(g.left_stop),
        "right_stop": exact_str(g.right_stop),
        "mean": exact_str(g.mean),
        "temperature": exact_str(g.temperature),
        "birthday": g.birthday,
        "thermograph": g.thermograph.to_json(),
    }


def _short(g: Game) -> str:
    """At most 30 characters of ``g``'s text; never writes a long text whole."""
    from nimlab.cgt.game import subpositions
    from nimlab.cgt.notation import text_length

    if text_length(g) > _SHORT_TEXT:
        return f"(a game with {subpositions(g):,} subpositions)"
    text = str(g)
    return text if len(text) <= 30 else f"{text[:27]}..."


@app.command("cgt")
def cgt_command(
    expression: str = typer.Argument(
        ..., help="A sum of games in CGSuite's notation, e.g. '{2|-1/2} + ^*', '±1', '{0||0|-2}'."
    ),
    thermograph: Path | None = typer.Option(
        None, "--thermograph", help="Write the thermograph as an SVG drawing to this file."
    ),
    limit: int = typer.Option(
        DEFAULT_STEPS,  # the catalogue's DEFAULT_LIMIT
        "--limit",
        help="Work budget in steps of about a microsecond (default about 10 minutes and 8 GB):"
        " a sum estimated over it is refused (exit 3) before it is formed.",
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Short partizan games: canonical form, outcome, stops, mean, temperature, thermograph."""
    from nimlab.cgt import parse_game

    if limit < 0:
        raise InvalidPositionError(f"invalid --limit {limit}: it must be non-negative")
    payload = cgt_payload(expression, limit)
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

"""Request bodies of the JSON API, with type and size limits (pydantic models).

Types are strict (``"3"`` is not a heap, ``true`` is not a number); strings and lists have a
maximum length; game and variant names are enums of the registered ones (aliases included,
exactly as written); option lists, octal codes and the bonus N have patterns. All of it is in
the OpenAPI schema, and a body that breaks it is answered 422. Which options go with which game
is in the schema too (:func:`options_by_game`), checked by the catalogue (400). Sizes that are
well-formed but too large for the playground (a position over 2000 characters, a number over
10**18) are declared in the schema too (``maxLength``, ``maximum``) and refused with status 413
(too large) by :func:`position_text`.

>>> request = AnalyzeRequest.model_validate({"game": "nim", "position": [3, 4, 5]})
>>> position_text(request.position)
'3,4,5'
>>> options = OptionsIn.model_validate({"misere": True, "set": "1,3,4"})
>>> options.to_game_options(limit=1000).subtraction_set
(1, 3, 4)
>>> position_text("1," + "9" * 30)
Traceback (most recent call last):
  ...
nimlab.errors.TooLargeError: number 999999999999... in the position is over the limit 10**18
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
)

from nimlab.catalogue import GameOptions, registered_games
from nimlab.catalogue.registry import parse_int_list, parse_skips
from nimlab.errors import TooLargeError
from nimlab.hidden.variants import VARIANTS
from nimlab.play.allowance import ALLOWANCE_GAMES
from nimlab.play.partisan import PARTISAN_GAMES

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_EXPONENT",
    "MAX_GRUNDY_UPTO",
    "MAX_NUMBER",
    "MAX_POSITION_CHARS",
    "AnalyzeRequest",
    "ComputerRequest",
    "GameRequest",
    "GrundyRequest",
    "HiddenActRequest",
    "HiddenStartRequest",
    "MoveRequest",
    "OptionsIn",
    "PartisanComputerRequest",
    "PartisanMoveRequest",
    "PartisanRequest",
    "ScoringPlayRequest",
    "ScoringRequest",
    "SolveRequest",
    "position_text",
]

#: Largest request body accepted (bytes); larger ones get 413.
MAX_BODY_BYTES = 64 * 1024
#: Longest position (characters) and largest number in a position of the analysis endpoints.
MAX_POSITION_CHARS = 2000
MAX_NUMBER = 10**18
#: Largest ``upto`` of ``/api/grundy`` (413 beyond).
MAX_GRUNDY_UPTO = 10_000
#: Largest power of ten in a bonus N written with an exponent (``1e1000``; 413 beyond).
MAX_EXPONENT = 1000

_NUMBER = re.compile(r"[0-9]+")

#: Patterns of the option texts and the bonus N: exactly what their parsers accept (spaces
#: allowed around numbers), so a text that fits is never refused for its form.
_INT = r" *[0-9]+ *"
SET_PATTERN = r"^ *0*[1-9][0-9]* *(, *0*[1-9][0-9]* *)*$"
SKIPS_PATTERN = rf"^{_INT},{_INT}$"
CODE_PATTERN = r"^ *([0-7]\.[0-7]*|[0-7]?\.[0-7]+) *$"
N_PATTERN = r"^ *[+-]?([0-9]+/0*[1-9][0-9]*|([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?) *$"


#: Whole numbers written as floats (``3.0``) are integers in JSON Schema; up to this size a
#: float holds them exactly, so they are taken as integers (beyond it they are refused, 422:
#: the JSON parser may already have rounded them).
EXACT_FLOAT = 2**53


def _whole(value: object) -> object:
    """``3.0`` as ``3`` (an integer in JSON Schema), exact below :data:`EXACT_FLOAT`."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= EXACT_FLOAT:
        return int(value)
    return value


#: An integer: JSON ``3`` or ``3.0``; never ``true`` or ``"3"`` (bounds go before the
#: validator, so that the schema shows them).
Int = Annotated[StrictInt, BeforeValidator(_whole)]


def _names(keep: Callable[[Any], bool]) -> list[str]:
    """The registered games ``keep`` selects, by name and alias."""
    return [name for cls in registered_games() if keep(cls) for name in (cls.name, *cls.aliases)]


def _member(names: Iterable[str], what: str) -> AfterValidator:
    """Check that a string is one of ``names`` (422 otherwise)."""
    allowed = tuple(names)

    def check(value: str) -> str:
        if value not in allowed:
            raise ValueError(f"unknown {what} {value[:40]!r}; known {what}s: {', '.join(allowed)}")
        return value

    return AfterValidator(check)


def _enum(names: Iterable[str]) -> Any:
    """``names`` as the enum of a string in the schema."""
    return Field(json_schema_extra={"enum": list(names)})


_ALL = _names(lambda cls: True)
_SEQUENCE = _names(lambda cls: bool(cls.sequence_meaning))
_PLAY = _names(lambda cls: cls.impartial or cls.name in ALLOWANCE_GAMES)
_PARTISAN = _names(lambda cls: cls.name in PARTISAN_GAMES)

#: Any catalogue game (``/api/analyze``, the components of ``/api/solve``).
Name = Annotated[str, _member(_ALL, "game"), _enum(_ALL)]
#: Games with a Grundy sequence (``/api/grundy``).
SequenceName = Annotated[str, _member(_SEQUENCE, "game"), _enum(_SEQUENCE)]
#: Games ``/api/play/...`` plays: impartial ones and those with allowances.
PlayName = Annotated[str, _member(_PLAY, "game"), _enum(_PLAY)]
#: Games ``/api/partisan/...`` plays.
PartisanName = Annotated[str, _member(_PARTISAN, "game"), _enum(_PARTISAN)]
#: The hidden-information variants.
VariantName = Annotated[str, _member(VARIANTS, "variant"), _enum(VARIANTS)]
Count = Annotated[StrictInt, Field(ge=0, le=MAX_NUMBER), BeforeValidator(_whole)]
Seed = Annotated[StrictInt, Field(ge=0, le=2**63), BeforeValidator(_whole)] | None
#: The bonus N of Scoring Nim: an integer, or exact text (``3``, ``-1/2``, ``0.25``, ``1e3``;
#: an exponent over :data:`MAX_EXPONENT` is refused with 413).
Bonus = Annotated[str, Field(max_length=40, pattern=N_PATTERN)] | Int
Position = (
    Annotated[
        str,
        Field(max_length=MAX_BODY_BYTES, json_schema_extra={"maxLength": MAX_POSITION_CHARS}),
    ]
    | Annotated[
        list[
            Annotated[
                StrictInt,
                Field(ge=0, json_schema_extra={"maximum": MAX_NUMBER}),
                BeforeValidator(_whole),
            ]
        ],
        Field(max_length=MAX_BODY_BYTES // 2),
    ]
)


#: The keys of ``options``, named like the command-line flags without dashes.
OPTION_KEYS = ("misere", "set", "max", "additions", "cap", "skips", "code", "row")


def _takes(cls: Any) -> frozenset[str]:
    """The option keys a game takes: its flags, and ``misere`` for every impartial game."""
    keys = {flag.removeprefix("--") for flag in cls.option_flags}
    return frozenset(keys | {"misere"} if cls.impartial else keys)


def _only(keys: frozenset[str]) -> dict[str, Any]:
    """The schema of ``options`` that leaves every key but ``keys`` unset (null, or false)."""
    unset = {key: {"const": False} if key == "misere" else {"type": "null"} for key in OPTION_KEYS}
    return {"properties": {key: rule for key, rule in unset.items() if key not in keys}}


#: Options a game cannot do without (the catalogue's ``configure`` refuses it, 400): octal
#: games need a code, subtraction games a set or a maximum, not both.
_NEEDS: dict[str, dict[str, Any]] = {
    "octal": {"required": ["code"], "properties": {"code": {"type": "string"}}},
    "subtraction": {
        "oneOf": [
            {
                "required": ["set"],
                "properties": {"set": {"type": "string"}, "max": {"type": "null"}},
            },
            {
                "required": ["max"],
                "properties": {"max": {"type": "integer", "minimum": 1}, "set": {"type": "null"}},
            },
        ]
    },
}


def options_by_game(games: Iterable[str], without: frozenset[str] | None) -> list[dict[str, Any]]:
    """The branches (``anyOf``) of a request schema that say which options go with which of
    ``games``, games with the same options together; with ``without``, the options a request
    without a game takes (those of Nim, or none).

    >>> [branch["properties"]["game"]["enum"] for branch in options_by_game(["nim", "octal"], None)]
    [['nim'], ['octal']]
    >>> options_by_game([], frozenset())[0]["properties"]["options"]["properties"]["set"]
    {'type': 'null'}
    """
    wanted = set(games)
    groups: dict[tuple[frozenset[str], str | None], list[str]] = {}
    for cls in registered_games():
        need = cls.name if cls.name in _NEEDS else None
        for name in (cls.name, *cls.aliases):
            if name in wanted:
                groups.setdefault((_takes(cls), need), []).append(name)
    branches: list[dict[str, Any]] = []
    for (keys, need), names in groups.items():
        options, required = _only(keys), ["game"]
        if need is not None:  # the game's own rules on top of the keys it takes
            options = {"allOf": [options, _NEEDS[need]]}
            required.append("options")
        branches.append(
            {"required": required, "properties": {"game": {"enum": names}, "options": options}}
        )
    if without is not None:
        branches.append({"properties": {"game": {"type": "null"}, "options": _only(without)}})
    return branches


def _options_apply(schema: dict[str, Any], model: type[Any]) -> None:
    """Add the options each game takes to the schema of ``model`` (:func:`options_by_game`)."""
    games, without = getattr(model, "OPTIONS_FOR", (None, None))
    if games is not None:
        schema["anyOf"] = options_by_game(games, without)


class _Strict(BaseModel):
    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, json_schema_extra=_options_apply
    )

    #: The games whose options the schema states, and those of a request without a game.
    OPTIONS_FOR: ClassVar[tuple[list[str] | None, frozenset[str] | None]] = (None, None)


class OptionsIn(_Strict):
    """Game options, named like the command-line flags of ``nimlab analyze`` (no dashes)."""

    misere: StrictBool = False
    subtraction_set: Annotated[
        str | None, Field(alias="set", max_length=200, pattern=SET_PATTERN)
    ] = None
    max_take: Annotated[Count | None, Field(alias="max")] = None
    additions: Count | None = None
    cap: Count | None = None
    skips: Annotated[str | None, Field(max_length=100, pattern=SKIPS_PATTERN)] = None
    code: Annotated[str | None, Field(max_length=64, pattern=CODE_PATTERN)] = None
    row: Count | None = None

    def to_game_options(self, *, limit: int) -> GameOptions:
        """The catalogue's options (lists parsed strictly), with the work bound ``limit``."""
        return GameOptions(
            misere=self.misere,
            subtraction_set=(
                parse_int_list(self.subtraction_set, "set", minimum=1)
                if self.subtraction_set
                else None
            ),
            max_take=self.max_take,
            additions=self.additions,
            cap=self.cap,
            skips=parse_skips(self.skips) if self.skips is not None else None,
            code=self.code,
            row=self.row,
            limit=limit,
        )


class AnalyzeRequest(_Strict):
    """``POST /api/analyze``: a catalogue game, a position and options."""

    game: Name
    position: Position
    options: OptionsIn = Field(default_factory=OptionsIn)

    OPTIONS_FOR = (_ALL, None)


class GameRequest(AnalyzeRequest):
    """A position to play (``/api/play/...``); ``misere``: the last move loses (the same as
    ``options.misere``, for every impartial game: octal games by their misère quotient)."""

    misere: StrictBool = False

    game: PlayName

    OPTIONS_FOR = (_PLAY, None)


class MoveRequest(GameRequest):
    """``POST /api/play/move``: the move typed by the player."""

    move: Annotated[str, Field(max_length=200)]


class ComputerRequest(GameRequest):
    """``POST /api/play/computer``: optionally a seed for the computer's random choices."""

    seed: Seed = None


class PartisanRequest(_Strict):
    """``POST /api/partisan/...``: a partisan game, its position and the player to move
    (``B`` or ``L`` for Blue/Left, ``R`` for Red/Right)."""

    game: PartisanName
    position: Annotated[str, Field(max_length=MAX_POSITION_CHARS)]
    player: Literal["B", "L", "R"]


class PartisanMoveRequest(PartisanRequest):
    """``POST /api/partisan/move``: the position after the player's move."""

    move: Annotated[str, Field(min_length=0, max_length=MAX_POSITION_CHARS)]


class PartisanComputerRequest(PartisanRequest):
    """``POST /api/partisan/computer``: optionally a seed for breaking ties at random."""

    seed: Seed = None


class GrundyRequest(_Strict):
    """``POST /api/grundy``: the Grundy values g(0..upto) of a game's sequence."""

    game: SequenceName

    OPTIONS_FOR = (_SEQUENCE, None)
    upto: Annotated[
        StrictInt,
        Field(ge=0, json_schema_extra={"maximum": MAX_GRUNDY_UPTO}),
        BeforeValidator(_whole),
    ]
    options: OptionsIn = Field(default_factory=OptionsIn)


class ScoringRequest(_Strict):
    """``POST /api/scoring``: Scoring Nim heaps and, optionally, the bonus N (exact)."""

    position: Position
    N: Bonus | None = None


class ScoringPlayRequest(ScoringRequest):
    """``POST /api/scoring/play``: Scoring Nim heaps and the bonus N (exact), required here."""

    N: Bonus


class SolveRequest(_Strict):
    """``POST /api/solve``: an imperfect-information variant, its heaps, misère or not; with
    ``game`` (and its ``options``, as for ``/api/analyze``), the variant on that catalogue
    game's components, the position in the game's notation."""

    variant: VariantName
    position: Position
    misere: StrictBool = False
    strategy: StrictBool = False
    game: Name | None = None

    OPTIONS_FOR = (_ALL, frozenset())
    options: OptionsIn = Field(default_factory=OptionsIn)


class HiddenStartRequest(SolveRequest):
    """``POST /api/hidden/new``: start a game against the equilibrium strategy."""

    first: Literal["you", "computer"] = "you"
    seed: Seed = None

    OPTIONS_FOR = (_ALL, frozenset({"misere"}))  # without a game: Nim


class HiddenActRequest(_Strict):
    """``POST /api/hidden/{id}/act``: the action, by index or by label (``look 1``, ``2_3``)."""

    action: (
        Annotated[StrictInt, Field(ge=0, le=10_000), BeforeValidator(_whole)]
        | Annotated[str, Field(max_length=40)]
    )


def position_text(position: str | list[int]) -> str:
    """The notation of a position given as text or as a list of heaps, size-checked."""
    text = position if isinstance(position, str) else ",".join(str(h) for h in position)
    if len(text) > MAX_POSITION_CHARS:
        raise TooLargeError(
            f"position has {len(text)} characters, over the limit {MAX_POSITION_CHARS}",
            estimate=len(text),
            limit=MAX_POSITION_CHARS,
        )
    for token in _NUMBER.findall(text):
        if len(token) > 18 and int(token) > MAX_NUMBER:
            raise TooLargeError(
                f"number {token[:12]}... in the position is over the limit 10**18",
                limit=MAX_NUMBER,
            )
    return text

"""Request bodies of the JSON API, with type and size limits (pydantic models).

Types are strict (``"3"`` is not a heap, ``true`` is not a number); strings and lists have a
maximum length. Sizes that are well-formed but too large for the playground (big numbers,
many heaps) are refused later with status 413 by :func:`position_text`.

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
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from nimlab.catalogue import GameOptions
from nimlab.catalogue.registry import parse_int_list, parse_skips
from nimlab.errors import TooLargeError

__all__ = [
    "MAX_BODY_BYTES",
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
    "ScoringRequest",
    "SolveRequest",
    "position_text",
]

#: Largest request body accepted (bytes); larger ones get 413.
MAX_BODY_BYTES = 64 * 1024
#: Longest position (characters) and largest number in a position of the analysis endpoints.
MAX_POSITION_CHARS = 2000
MAX_NUMBER = 10**18

_NUMBER = re.compile(r"[0-9]+")

Name = Annotated[str, Field(min_length=1, max_length=64)]
Count = Annotated[StrictInt, Field(ge=0, le=MAX_NUMBER)]
Position = (
    Annotated[str, Field(max_length=MAX_BODY_BYTES)]
    | Annotated[list[StrictInt], Field(max_length=MAX_BODY_BYTES // 2)]
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class OptionsIn(_Strict):
    """Game options, named like the command-line flags of ``nimlab analyze`` (no dashes)."""

    misere: StrictBool = False
    subtraction_set: Annotated[str | None, Field(alias="set", max_length=200)] = None
    max_take: Annotated[Count | None, Field(alias="max")] = None
    additions: Count | None = None
    cap: Count | None = None
    skips: Annotated[str | None, Field(max_length=100)] = None
    code: Annotated[str | None, Field(max_length=64)] = None
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


class GameRequest(AnalyzeRequest):
    """A position to play (``/api/play/...``); ``misere``: the last move loses (the same as
    ``options.misere``, for every impartial game: octal games by their misère quotient)."""

    misere: StrictBool = False


class MoveRequest(GameRequest):
    """``POST /api/play/move``: the move typed by the player."""

    move: Annotated[str, Field(max_length=200)]


class ComputerRequest(GameRequest):
    """``POST /api/play/computer``: optionally a seed for the computer's random choices."""

    seed: Annotated[StrictInt | None, Field(ge=0, le=2**63)] = None


class PartisanRequest(_Strict):
    """``POST /api/partisan/...``: a partisan game, its position and the player to move
    (``B`` or ``L`` for Blue/Left, ``R`` for Red/Right)."""

    game: Name
    position: Annotated[str, Field(max_length=MAX_POSITION_CHARS)]
    player: Literal["B", "L", "R"]


class PartisanMoveRequest(PartisanRequest):
    """``POST /api/partisan/move``: the position after the player's move."""

    move: Annotated[str, Field(min_length=0, max_length=MAX_POSITION_CHARS)]


class PartisanComputerRequest(PartisanRequest):
    """``POST /api/partisan/computer``: optionally a seed for breaking ties at random."""

    seed: Annotated[StrictInt | None, Field(ge=0, le=2**63)] = None


class GrundyRequest(_Strict):
    """``POST /api/grundy``: the Grundy values g(0..upto) of a game's sequence."""

    game: Name
    upto: Annotated[StrictInt, Field(ge=0)]
    options: OptionsIn = Field(default_factory=OptionsIn)


class ScoringRequest(_Strict):
    """``POST /api/scoring``: Scoring Nim heaps and, optionally, the bonus N (exact)."""

    position: Position
    N: Annotated[str, Field(max_length=40)] | StrictInt | None = None


class SolveRequest(_Strict):
    """``POST /api/solve``: an imperfect-information variant, its heaps, misère or not; with
    ``game`` (and its ``options``, as for ``/api/analyze``), the variant on that catalogue
    game's components, the position in the game's notation."""

    variant: Name
    position: Position
    misere: StrictBool = False
    strategy: StrictBool = False
    game: Name | None = None
    options: OptionsIn = Field(default_factory=OptionsIn)


class HiddenStartRequest(SolveRequest):
    """``POST /api/hidden/new``: start a game against the equilibrium strategy."""

    first: Literal["you", "computer"] = "you"
    seed: Annotated[StrictInt | None, Field(ge=0, le=2**63)] = None


class HiddenActRequest(_Strict):
    """``POST /api/hidden/{id}/act``: the action, by index or by label (``look 1``, ``2_3``)."""

    action: Annotated[StrictInt, Field(ge=0, le=10_000)] | Annotated[str, Field(max_length=40)]


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

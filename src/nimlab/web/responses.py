"""The error answers of the JSON API, declared once for the OpenAPI schema.

Every error the server answers is a JSON object with a one-line ``error`` for people (and for
422, and the HTTP errors of routing, FastAPI's ``detail``): :class:`ErrorBody`. The sets of
statuses an operation can answer are named here and given to the routes of :mod:`nimlab.web.api`
(``responses=``), so ``/api/openapi.json`` declares each of them with its body model and headers
(``Retry-After`` on 429, ``Allow`` on 405).

>>> sorted(COMPUTING)
[400, 405, 413, 422, 503]
>>> HIDDEN_NEW[429]["headers"]["Retry-After"]["schema"]
{'type': 'integer', 'minimum': 1}
>>> ErrorBody.model_validate({"error": "unknown game 'chess'"}).detail is None
True
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ALWAYS",
    "COMPUTING",
    "HIDDEN_NEW",
    "MATCH",
    "ErrorBody",
    "Issue",
    "error_responses",
    "exact_bounds",
]


class Issue(BaseModel):
    """One problem of a request that does not fit the schema (422), without the echoed input."""

    model_config = ConfigDict(extra="forbid")

    type: str
    loc: list[str | int]
    msg: str


class ErrorBody(BaseModel):
    """Every error the API answers: ``error``, one line for people; ``detail``, the problems
    of an ill-formed request (422) or the text of a routing error (404, 405)."""

    model_config = ConfigDict(extra="forbid")

    error: str = Field(description="What went wrong, one line for people.")
    detail: list[Issue] | str | None = Field(
        default=None, description="422: the problems found; 404/405: the HTTP reason."
    )


_WHY: dict[int, str] = {
    400: "Bad input the schema cannot express: a position not in the game's notation, an"
    " illegal move, a body that is not JSON; and an option the game does not take (the"
    " request's `anyOf` says which options go with which game).",
    404: "No game in progress with this id (finished long ago, or the server restarted).",
    405: "The method is not allowed on this path; `Allow` lists those that are.",
    413: "Too large for the playground: a body over 64 KiB, or a request whose size or"
    " estimated work is over a limit (the message gives the limit).",
    422: "The body or a parameter does not fit the schema (types are strict).",
    429: "The playground is full of games in progress; try again after `Retry-After` seconds.",
    503: "The job ran past the server's time or memory budget and was stopped, or the server"
    " is busy or stopping; try again later.",
}

_HEADERS: dict[int, dict[str, Any]] = {
    405: {
        "Allow": {
            "description": "The methods this path answers, e.g. `POST`.",
            "schema": {"type": "string"},
        }
    },
    429: {
        "Retry-After": {
            "description": "Seconds to wait before starting a new game.",
            "schema": {"type": "integer", "minimum": 1},
        }
    },
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI response objects of ``statuses`` (for FastAPI's ``responses=``), each with
    :class:`ErrorBody` as its JSON body; 405 and 413 are added, as any path can answer them.

    >>> sorted(error_responses(404))
    [404, 405, 413]
    """
    declared: dict[int | str, dict[str, Any]] = {}
    for status in sorted({*statuses, 405, 413}):
        declared[status] = {"model": ErrorBody, "description": _WHY[status]}
        if status in _HEADERS:
            declared[status]["headers"] = _HEADERS[status]
    return declared


#: Every path: a method it does not answer (405), a body over 64 KiB (413).
ALWAYS = error_responses()
#: A request computed in a worker: bad input, too large, ill-formed, over the budgets.
COMPUTING = error_responses(400, 413, 422, 503)
#: ``POST /api/hidden/new``: as :data:`COMPUTING`, and a full playground (429).
HIDDEN_NEW = error_responses(400, 413, 422, 429, 503)
#: A game in progress: an action that is not legal (400), no such game (404), ill-formed (422).
MATCH = error_responses(400, 404, 422)


_BOUNDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})


def exact_bounds(document: Any) -> Any:
    """``document`` (an OpenAPI schema) with its whole-number bounds written as integers:
    FastAPI writes ``le=2**63`` as ``9.223372036854776e+18``, a float that also admits
    ``2**63 + 1`` to a reader comparing floats. The bounds nimlab uses are exact as floats.

    >>> exact_bounds({"a": {"maximum": 1e18, "minimum": 0.0, "example": 1.0}})
    {'a': {'maximum': 1000000000000000000, 'minimum': 0, 'example': 1.0}}
    """
    if isinstance(document, dict):
        return {
            key: int(value)
            if key in _BOUNDS and isinstance(value, float) and value.is_integer()
            else exact_bounds(value)
            for key, value in document.items()
        }
    if isinstance(document, list):
        return [exact_bounds(item) for item in document]
    return document

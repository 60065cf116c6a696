"""What a stored payload must hold to be served: the keys and types each kind of spec needs.

A row can be valid JSON and still be damaged (``{}``, a string where a number was, a table
cut short): the commands that read it would fail on it. :func:`payload_problem` says what is
wrong with a payload for its spec, or ``None``; the store treats such a row as damaged.

>>> payload_problem("sn(3,3,1)", {})
"no 'value'"
>>> payload_problem("octal(0.07;upto=3)", {"values": [0, 0, 1], "period": 3, "preperiod": 0})
"3 'values', not the 4 of upto=3"
>>> payload_problem("scoring(2,1)", {"position": [2, 1], "breakpoints": [], "slope_left": 1,
...     "slope_right": 1, "value_at_0": "3", "intervals": []}) is None
True
>>> payload_problem("mystery(1)", {}) is None  # a spec nimlab does not know: not judged
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["payload_problem", "spec_kind"]

_RATIONAL = re.compile(r"-?[0-9]{1,4000}(/[0-9]{1,4000})?")
_UPTO = re.compile(r"upto=([0-9]{1,18})\)$")
_SOLVE = re.compile(r"[a-z][a-z-]*(\[.*\])?\(.*\)$", re.DOTALL)

Check = Callable[[Any], bool]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_natural(value: Any) -> bool:
    return _is_int(value) and value >= 0


def _is_rational(value: Any) -> bool:
    return isinstance(value, str) and _RATIONAL.fullmatch(value) is not None


def _optional(check: Check) -> Check:
    return lambda value: value is None or check(value)


def _list_of(check: Check) -> Check:
    return lambda value: isinstance(value, list) and all(check(item) for item in value)


def _is_interval(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and _optional(_is_rational)(value.get("from"))
        and _optional(_is_rational)(value.get("to"))
        and _list_of(_list_of(_is_natural))(value.get("moves"))
    )


def _is_point(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(map(_is_rational, value))


_SHAPES: dict[str, dict[str, Check]] = {
    "grundy": {
        "values": _list_of(_is_natural),
        "period": _optional(_is_natural),
        "preperiod": _optional(_is_natural),
    },
    "scoring": {
        "position": _list_of(_is_natural),
        "breakpoints": _list_of(_is_point),
        "slope_left": _is_int,
        "slope_right": _is_int,
        "value_at_0": _is_rational,
        "intervals": _list_of(_is_interval),
    },
    "solve": {
        "value": _is_rational,
        "exact": lambda value: isinstance(value, bool),
        "nodes": _is_natural,
        "infosets": _is_natural,
        "method": lambda value: isinstance(value, str),
        "misere": lambda value: isinstance(value, bool),
    },
}


def spec_kind(spec: str) -> str | None:
    """``grundy``, ``scoring`` or ``solve`` for the specs nimlab writes, else ``None``.

    >>> spec_kind("grundy-game(upto=9)"), spec_kind("scoring(3)"), spec_kind("kn[kayles](3)")
    ('grundy', 'scoring', 'solve')
    """
    if spec.startswith(("octal(", "grundy-game(")):
        return "grundy"
    if spec.startswith("scoring("):
        return "scoring"
    if spec.startswith(("sn(", "fsn(", "kn(", "kn-empty(", "sn[", "fsn[", "kn[", "kn-empty[")):
        return "solve" if _SOLVE.match(spec) else None
    return None


def payload_problem(spec: str, payload: Mapping[str, Any]) -> str | None:
    """What is wrong with ``payload`` as the stored result of ``spec``, or ``None``."""
    kind = spec_kind(spec)
    if kind is None:
        return None
    for key, check in _SHAPES[kind].items():
        if key not in payload:
            return f"no {key!r}"
        if not check(payload[key]):
            return f"{key!r} of the wrong type"
    upto = _UPTO.search(spec) if kind == "grundy" else None
    if upto is not None and len(payload["values"]) != int(upto[1]) + 1:
        wanted = int(upto[1]) + 1
        return f"{len(payload['values'])} 'values', not the {wanted} of upto={upto[1]}"
    return None

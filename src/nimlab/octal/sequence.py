"""Grundy sequences of octal games and of Grundy's game, with a choice of method.

Methods: ``"plain"`` (the quadratic reference), ``"sparse"`` (sparse space, pure Python),
``"numba"`` (sparse space, compiled; needs numba) and ``"auto"``: numba when it can be imported
and ``upto >= 10000``, else pure-Python sparse space for ``upto >= 10000``, else plain
(below that, compiling would take longer than computing). All methods return the same list.

>>> from nimlab.octal.code import OctalCode
>>> grundy_sequence(OctalCode.parse("0.07"), 10)
[0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3]
>>> grundy_game_sequence(12, method="sparse")
[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1]
"""

from __future__ import annotations

import importlib.util
from typing import Literal

from nimlab.errors import InvalidPositionError, NimlabError
from nimlab.octal.code import OctalCode
from nimlab.octal.plain import plain_sequence
from nimlab.octal.rules import GRUNDY_GAME_RULES, MoveRules, rules_of
from nimlab.octal.sparse import sparse_sequence

__all__ = ["METHODS", "Method", "grundy_game_sequence", "grundy_sequence"]

Method = Literal["auto", "plain", "sparse", "numba"]
METHODS: tuple[Method, ...] = ("auto", "plain", "sparse", "numba")
_AUTO_FAST_FROM = 10_000


def grundy_sequence(code: OctalCode, upto: int, *, method: Method = "auto") -> list[int]:
    """``g(0), ..., g(upto)`` of the octal game ``code``."""
    return _sequence(rules_of(code), upto, method)


def grundy_game_sequence(upto: int, *, method: Method = "auto") -> list[int]:
    """``g(0), ..., g(upto)`` of Grundy's game (split a heap into two unequal heaps)."""
    return _sequence(GRUNDY_GAME_RULES, upto, method)


def _sequence(rules: MoveRules, upto: int, method: str) -> list[int]:
    """Dispatch on ``method`` after checking the arguments."""
    if isinstance(upto, bool) or not isinstance(upto, int) or upto < 0:
        raise InvalidPositionError(f"upto must be a non-negative integer, got {upto!r}")
    if method not in METHODS:
        raise InvalidPositionError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    if method == "auto":
        if upto < _AUTO_FAST_FROM:
            method = "plain"
        else:
            method = "numba" if importlib.util.find_spec("numba") is not None else "sparse"
    if method == "plain":
        return plain_sequence(rules, upto)
    if method == "sparse":
        return sparse_sequence(rules, upto)
    try:
        from nimlab.octal.kernels import numba_sequence  # lazy: numba is heavy and optional
    except ImportError as error:
        raise NimlabError(
            f"method 'numba' needs numba (pip install 'nimlab[fast]'): {error}"
        ) from error
    return numba_sequence(rules, upto)

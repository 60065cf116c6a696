"""The exceptions nimlab raises; every message quotes the offending input.

>>> from nimlab.errors import InvalidPositionError
>>> issubclass(InvalidPositionError, ValueError)
True
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = [
    "InvalidPositionError",
    "LoopyGameError",
    "NimlabError",
    "NoSuchPositionError",
    "PlaygroundFullError",
    "TooLargeError",
    "UnknownGameError",
]


class NimlabError(Exception):
    """Base class of every error nimlab raises on purpose."""


class InvalidPositionError(NimlabError, ValueError):
    """A position (or a parameter of a game) is malformed: a negative heap, a bad token, ..."""


class UnknownGameError(NimlabError, KeyError):
    """A game name that is not in the catalogue; the message lists the known names."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0]) if self.args else ""

    @classmethod
    def among(cls, kind: str, name: str, known: Iterable[str]) -> UnknownGameError:
        """The error for an unknown ``kind`` (``game``, ``variant``) named ``name``, with the
        closest known names first ("did you mean") and then all of them.

        >>> print(UnknownGameError.among("game", "kayls", ["nim", "kayles", "wythoff"]))
        unknown game 'kayls'; did you mean 'kayles'? known games: nim, kayles, wythoff
        """
        names = list(known)
        close = difflib.get_close_matches(name.strip().lower(), names, n=2, cutoff=0.5)
        guess = f"did you mean {' or '.join(map(repr, close))}? " if close else ""
        return cls(f"unknown {kind} {name!r}; {guess}known {kind}s: {', '.join(names)}")


class LoopyGameError(NimlabError):
    """A game graph has a cycle, so Sprague-Grundy values (of finite games) do not apply."""


class NoSuchPositionError(NimlabError, ValueError):
    """A search was asked for positions that provably do not exist (e.g. 2 distinct lost heaps)."""


class PlaygroundFullError(NimlabError):
    """The server keeps as many games in progress as it can: a new one must wait (HTTP 429,
    Too Many Requests)."""


class TooLargeError(NimlabError):
    """A job would exceed a size limit; the message gives the estimate and how to lift the limit."""

    def __init__(self, message: str, *, estimate: int | None = None, limit: int | None = None):
        super().__init__(message)
        self.estimate = estimate
        self.limit = limit

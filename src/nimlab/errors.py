"""The exceptions nimlab raises; every message quotes the offending input.

>>> from nimlab.errors import InvalidPositionError
>>> issubclass(InvalidPositionError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "InvalidPositionError",
    "LoopyGameError",
    "NimlabError",
    "NoSuchPositionError",
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


class LoopyGameError(NimlabError):
    """A game graph has a cycle, so Sprague-Grundy values (of finite games) do not apply."""


class NoSuchPositionError(NimlabError, ValueError):
    """A search was asked for positions that provably do not exist (e.g. 2 distinct lost heaps)."""


class TooLargeError(NimlabError):
    """A job would exceed a size limit; the message gives the estimate and how to lift the limit."""

    def __init__(self, message: str, *, estimate: int | None = None, limit: int | None = None):
        super().__init__(message)
        self.estimate = estimate
        self.limit = limit

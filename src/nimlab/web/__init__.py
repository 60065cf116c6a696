"""The local web playground: a FastAPI app serving the JSON API and a static front end.

FastAPI is imported only by :func:`create_app` (the ``web`` extra); the play logic shared with
``nimlab play`` (:mod:`nimlab.play.impartial`, :mod:`nimlab.play.hidden`) does without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from nimlab.web.guard import JobLimits

__all__ = ["create_app"]


def create_app(limits: JobLimits | None = None) -> FastAPI:
    """The playground application (see :func:`nimlab.web.app.create_app`)."""
    from nimlab.web.app import create_app as factory

    return factory(limits)

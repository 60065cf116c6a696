"""The FastAPI application: the JSON API, the static front end, and errors as 4xx JSON.

Error policy (``../shared/CONTRACT.md``): ``NimlabError`` -> 400 ``{"error": ...}``,
``TooLargeError`` -> 413, a job past the server's time or memory budget (or no worker free)
-> 503 (:class:`~nimlab.web.guard.BudgetExceededError`), malformed or ill-typed bodies -> 422
with ``error`` and FastAPI's ``detail``, bodies over :data:`~nimlab.web.models.MAX_BODY_BYTES`
-> 413, a full playground -> 429 with ``Retry-After``, an unknown path -> 404 and a method a
path does not answer -> 405 with ``Allow``. Every error body is
:class:`~nimlab.web.responses.ErrorBody`, and ``/api/openapi.json`` declares, for each operation,
the statuses it can answer (:mod:`nimlab.web.responses`). Anything unexpected becomes a JSON 500
without a traceback (the tests make sure none happens).
"""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from nimlab.errors import NimlabError, PlaygroundFullError, TooLargeError
from nimlab.web.api import router, warm_up
from nimlab.web.docs_page import add_docs_page
from nimlab.web.guard import BudgetExceededError, JobLimits, JobPool
from nimlab.web.models import MAX_BODY_BYTES
from nimlab.web.responses import exact_bounds

__all__ = ["STATIC_DIR", "BodyLimit", "create_app"]

STATIC_DIR = Path(__file__).parent / "static"

_FIELD = re.compile(r"(?!body$)[A-Za-z_]\w*|[0-9]+")  # drops "body" and union tags
_log = logging.getLogger("nimlab.web")


class BodyLimit:
    """ASGI middleware: read the request body up front and refuse it with 413 when too long."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Buffer at most ``max_bytes`` of body, then hand the request on."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.max_bytes:
            await _reject(send, self.max_bytes)
            return
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _reject(send, self.max_bytes)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def _reject(send: Send, limit: int) -> None:
    body = json.dumps({"error": f"request body over {limit} bytes"}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _validation_summary(errors: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """A one-line message and the errors without the echoed input."""
    cleaned: list[dict[str, Any]] = [
        {key: e[key] for key in ("type", "loc", "msg") if key in e} for e in errors
    ]
    parts: list[str] = []
    for e in cleaned:
        where = ".".join(str(p) for p in e.get("loc", ()) if _FIELD.fullmatch(str(p))) or "body"
        part = f"{where}: {str(e.get('msg')).removeprefix('Value error, ')}"
        if part not in parts:
            parts.append(part)
    return "invalid request: " + "; ".join(parts[:5]), cleaned


def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
    """An HTTP error of routing or a handler as :class:`~nimlab.web.responses.ErrorBody`,
    with its headers: 405 keeps ``Allow`` (sorted) and says which methods the path answers."""
    headers = dict(error.headers or {})
    message = str(error.detail)
    if error.status_code == 405:
        allowed = sorted(m.strip() for m in headers.get("Allow", "").split(",") if m.strip())
        headers["Allow"] = ", ".join(allowed)
        message = f"method {request.method} is not allowed on {request.url.path[:200]}"
        if allowed:
            message += f"; allowed: {', '.join(allowed)}"
    elif error.status_code == 404 and error.detail == "Not Found":
        message = f"nothing at {request.url.path[:200]}"
    body = {"error": message, "detail": str(error.detail)}
    return JSONResponse(body, status_code=error.status_code, headers=headers)


def _declare_exact_bounds(app: FastAPI) -> None:
    """Serve the OpenAPI document with integer bounds (:func:`.responses.exact_bounds`)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if not getattr(app.state, "exact_openapi", False):
            app.openapi_schema = exact_bounds(generate())
            app.state.exact_openapi = True
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]


def create_app(limits: JobLimits | None = None) -> FastAPI:
    """The playground: ``/`` (the page), ``/static/...`` and the JSON API under ``/api/``.

    Computing requests run in child processes of ``app.state.jobs``, a
    :class:`~nimlab.web.guard.JobPool` with ``limits`` (the defaults: 10 s per request,
    2 GiB for the server and its children together).

    >>> from fastapi.testclient import TestClient
    >>> TestClient(create_app()).get("/api/health").json()
    {'ok': True}
    """
    app = FastAPI(
        title="nimlab playground",
        description="Play and explore Nim and its variants, computed exactly.",
        docs_url=None,  # served from local assets below (add_docs_page)
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )

    app.state.jobs = JobPool(limits or JobLimits())
    # A new hidden game whose estimate is over the budgets is refused at once (413). With
    # NIMLAB_SERVE_REFUSE_BY_ESTIMATE=0 it is run anyway and stopped by the budgets (503): how
    # the tests show that the budgets hold when an estimate is wrong.
    app.state.refuse_by_estimate = os.environ.get("NIMLAB_SERVE_REFUSE_BY_ESTIMATE", "1") != "0"
    warm_up()

    @app.exception_handler(BudgetExceededError)
    async def over_budget(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=503)

    @app.exception_handler(PlaygroundFullError)
    async def full(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=429, headers={"Retry-After": "60"})

    @app.exception_handler(TooLargeError)
    async def too_large(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=413)

    @app.exception_handler(NimlabError)
    async def bad_input(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: Exception) -> JSONResponse:
        errors = error.errors() if isinstance(error, RequestValidationError) else []
        message, detail = _validation_summary(list(errors))
        return JSONResponse({"error": message, "detail": detail}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: Exception) -> JSONResponse:
        if not isinstance(error, StarletteHTTPException):
            return JSONResponse({"error": "bad request"}, status_code=400)
        return _http_error(request, error)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> JSONResponse:
        _log.error("unexpected %s on %s: %s", type(error).__name__, request.url.path, error)
        message = f"unexpected {type(error).__name__}; please report it"
        return JSONResponse({"error": message}, status_code=500)

    app.include_router(router)
    _declare_exact_bounds(app)
    add_docs_page(app)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html")

    app.add_middleware(BodyLimit)
    return app

"""Command ``serve``: the local web playground (FastAPI + uvicorn), on 127.0.0.1 by default.

Its budgets (per-request seconds, the server-wide memory ceiling, workers and queue) come from
options or environment variables (``NIMLAB_SERVE_JOB_SECONDS``, ``NIMLAB_SERVE_MAX_MEMORY``,
``NIMLAB_SERVE_WORKERS``, ``NIMLAB_SERVE_QUEUE``); see ``docs/playground.md``.

>>> parse_size("2G"), parse_size("512M"), parse_size("1000000")
(2147483648, 536870912, 1000000)
"""

from __future__ import annotations

import re
import socket
from typing import Any

import typer

from nimlab.cli.app import app, console
from nimlab.errors import InvalidPositionError

__all__ = ["parse_size", "serve"]

_SIZE = re.compile(r"([0-9]{1,15})\s*([KMGT]?)i?B?", re.IGNORECASE)
_ENV = {
    "seconds": "NIMLAB_SERVE_JOB_SECONDS",
    "memory": "NIMLAB_SERVE_MAX_MEMORY",
    "workers": "NIMLAB_SERVE_WORKERS",
    "queue": "NIMLAB_SERVE_QUEUE",
}


def parse_size(text: str) -> int:
    """Bytes from ``123``, ``512M``, ``2G`` (binary units)."""
    found = _SIZE.fullmatch(text.strip())
    if found is None:
        raise InvalidPositionError(f"invalid --max-memory {text!r}: use bytes or e.g. 512M, 2G")
    return int(found.group(1)) << (10 * " KMGT".index(found.group(2).upper() or " "))


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (port 0: a free one), or a clear error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise InvalidPositionError(
            f"cannot listen on {host}:{port} ({error.strerror}); choose another --port or --host"
        ) from None
    return sock


@app.command("serve")
def serve(
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Interface to bind (loopback by default)."
    ),
    port: int = typer.Option(8000, "--port", help="TCP port (0 picks a free one)."),
    job_seconds: float = typer.Option(
        10.0,
        "--job-seconds",
        envvar=_ENV["seconds"],
        help="Time budget of each computing request (seconds; 503 beyond it).",
    ),
    max_memory: str = typer.Option(
        "2G",
        "--max-memory",
        envvar=_ENV["memory"],
        help="Resident memory ceiling of the server and its workers together (e.g. 2G, 512M).",
    ),
    workers: int = typer.Option(
        2, "--workers", envvar=_ENV["workers"], help="Computing requests run at once."
    ),
    queue: int = typer.Option(
        256, "--queue", envvar=_ENV["queue"], help="Requests waiting for a worker (503 beyond)."
    ),
) -> None:
    """Start the web playground: play and explore the games in a browser."""
    if not 0 <= port <= 65535:
        raise InvalidPositionError(f"invalid --port {port}: use 0..65535")
    try:
        import uvicorn

        from nimlab.web import create_app
        from nimlab.web.guard import JobLimits, resident_bytes
    except ImportError as error:  # the optional 'web' extra is missing
        raise InvalidPositionError(
            f"the playground needs FastAPI and uvicorn ({error.name} is missing): "
            "pip install 'nimlab[web]'"
        ) from error
    limits = JobLimits(job_seconds, parse_size(max_memory), workers, queue)
    sock = _listen(host, port)
    try:
        limits.check(resident_bytes())
    except InvalidPositionError:
        sock.close()
        raise
    bound = int(sock.getsockname()[1])
    shown = f"[{host}]" if ":" in host else host
    console.print(f"nimlab playground: [bold cyan]http://{shown}:{bound}/[/] (Ctrl-C to stop)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        console.print(
            "[yellow]warning:[/] listening beyond this machine; anyone who can reach it can use it"
        )
    application = create_app(limits)

    class Server(uvicorn.Server):
        """Uvicorn, whose first SIGTERM or Ctrl-C also kills the running jobs' children."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            application.state.jobs.stop()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(application, log_level="warning", timeout_graceful_shutdown=3)
    with sock:
        Server(config).run(sockets=[sock])

"""Command ``serve``: the local web playground (FastAPI + uvicorn), on 127.0.0.1 by default."""

from __future__ import annotations

import socket

import typer

from nimlab.cli.app import app, console
from nimlab.errors import InvalidPositionError

__all__ = ["serve"]


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
) -> None:
    """Start the web playground: play and explore the games in a browser."""
    if not 0 <= port <= 65535:
        raise InvalidPositionError(f"invalid --port {port}: use 0..65535")
    try:
        import uvicorn

        from nimlab.web import create_app
    except ImportError as error:  # the optional 'web' extra is missing
        raise InvalidPositionError(
            f"the playground needs FastAPI and uvicorn ({error.name} is missing): "
            "pip install 'nimlab[web]'"
        ) from error
    sock = _listen(host, port)
    bound = int(sock.getsockname()[1])
    shown = f"[{host}]" if ":" in host else host
    console.print(f"nimlab playground: [bold cyan]http://{shown}:{bound}/[/] (Ctrl-C to stop)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        console.print(
            "[yellow]warning:[/] listening beyond this machine; anyone who can reach it can use it"
        )
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
    with sock:
        server.run(sockets=[sock])

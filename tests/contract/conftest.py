"""The contract as users meet it: the installed console script in a subprocess, and a real
``nimlab serve`` process on a free loopback port.

In-process runs (``tests/conftest.py``'s ``cli``) cannot see a C library writing to file
descriptor 1, an interpreter limit hit at start-up, or a server that never answers; these
fixtures can. Only 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

SCRIPT = Path(sys.executable).with_name("nimlab")
"""The console script the install put beside this interpreter (``.venv/bin/nimlab``)."""

COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "nimlab"]


@dataclass(frozen=True)
class Run:
    """One finished ``nimlab`` process: its exit code, both streams, its wall time and its
    processor time (user + system, of the process and the children it waited for).

    A promise about time ("refused at once") is checked on ``cpu``: the work the command did,
    which a loaded machine does not stretch as it stretches ``seconds``.
    """

    args: tuple[str, ...]
    code: int
    out: str
    err: str
    seconds: float
    cpu: float = float("nan")  # not measured: every comparison with it fails

    def json(self) -> Any:
        """The whole of stdout parsed as one JSON object (fails if anything else is there)."""
        try:
            payload = json.loads(self.out)
        except json.JSONDecodeError as error:
            raise AssertionError(
                f"nimlab {' '.join(self.args)}: stdout is not one JSON object ({error}):\n"
                f"{self.out[:2000]}"
            ) from None
        assert isinstance(payload, dict), f"stdout holds a {type(payload).__name__}, not an object"
        return payload

    def ok_json(self) -> dict[str, Any]:
        """Exit 0 and exactly one JSON object on stdout."""
        assert self.code == 0, f"nimlab {' '.join(self.args)}: exit {self.code}\n{self.err}"
        payload: dict[str, Any] = self.json()
        return payload

    def refused(self, code: int) -> str:
        """Exit ``code`` (2 or 3) with one ``error:`` line on stderr, no traceback, and no
        stdout; returns the message."""
        where = f"nimlab {' '.join(self.args)}"
        assert self.code == code, f"{where}: exit {self.code}, expected {code}\n{self.err}"
        lines = self.err.strip().splitlines()
        assert len(lines) == 1, f"{where}: stderr is not one line:\n{self.err}"
        assert lines[0].startswith("error: "), f"{where}: {lines[0]!r}"
        assert "Traceback" not in self.err
        assert self.out == "", f"{where}: stdout not empty:\n{self.out[:500]}"
        return lines[0]


def run_nimlab(
    *args: str,
    timeout: float = 120,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    stdin: str | None = None,
) -> Run:
    """Run the console script with ``args`` and return what it did (killed after ``timeout``)."""
    environment = {**os.environ, **(env or {})}
    environment.pop("NIMLAB_DEBUG", None)
    start, before = time.monotonic(), children_cpu()
    done = subprocess.run(
        [*COMMAND, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment,
        cwd=cwd,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )
    seconds, cpu = time.monotonic() - start, children_cpu() - before
    return Run(tuple(args), done.returncode, done.stdout, done.stderr, seconds, cpu)


def children_cpu() -> float:
    """Processor seconds (user + system) of this process's finished, waited-for children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.fixture
def nimlab(tmp_path: Path) -> Any:
    """``nimlab("solve", "sn", "3", "3", "1", "--json")``: the console script in a subprocess,
    with a private results store (``NIMLAB_STORE`` in ``tmp_path``)."""

    def invoke(*args: str, timeout: float = 120, env: dict[str, str] | None = None) -> Run:
        private = {"NIMLAB_STORE": str(tmp_path / "store.sqlite"), **(env or {})}
        return run_nimlab(*args, timeout=timeout, env=private, cwd=tmp_path)

    return invoke


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LiveServer:
    """A ``nimlab serve`` process on loopback: its base URL and the process itself."""

    url: str
    process: subprocess.Popen[str]

    def client(self, timeout: float = 30) -> httpx.Client:
        """An HTTP client for this server."""
        return httpx.Client(base_url=self.url, timeout=timeout)

    def stop(self, grace: float = 10) -> float:
        """SIGTERM, then wait; returns the seconds the server took to exit (SIGKILL after
        ``grace``, and then the test should fail on the returned figure)."""
        start = time.monotonic()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return time.monotonic() - start


def start_server(extra_args: tuple[str, ...] = (), env: dict[str, str] | None = None) -> LiveServer:
    """Start ``nimlab serve --port P`` and wait until ``/api/health`` answers."""
    port = free_port()
    environment = {**os.environ, **(env or {})}
    process = subprocess.Popen(
        [*COMMAND, "serve", "--host", "127.0.0.1", "--port", str(port), *extra_args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    server = LiveServer(f"http://127.0.0.1:{port}", process)
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            raise AssertionError(f"nimlab serve exited {process.returncode}")
        try:
            if httpx.get(f"{server.url}/api/health", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            server.stop()
            raise AssertionError("nimlab serve did not answer /api/health within 30 s")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One ``nimlab serve`` process per test module, with a private (empty) results store."""
    store = tmp_path_factory.mktemp("store") / "store.sqlite"
    server = start_server(env={"NIMLAB_STORE": str(store)})
    yield server
    server.stop()


@pytest.fixture(scope="module")
def client(live_server: LiveServer) -> Iterator[httpx.Client]:
    """An HTTP client of the module's ``nimlab serve`` (``live_server``), patient with a busy
    machine."""
    with live_server.client(timeout=120) as http:
        yield http


def post_ok(client: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` to ``path``; assert 200 (saying what was sent otherwise); the JSON."""
    response = client.post(path, json=body)
    assert response.status_code == 200, f"{path} {body}: {response.status_code} {response.text}"
    payload: dict[str, Any] = response.json()
    return payload

"""A ``nimlab serve`` killed outright (SIGKILL, as the OOM killer does) takes its job processes
with it: none survives it for more than a few seconds, and its port stops answering. Only
127.0.0.1 is contacted."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.contract.conftest import COMMAND, free_port

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")

# A hidden game whose exact equilibrium takes several seconds (10-20 s here): a job in flight.
_LONG_JOB = ("/api/hidden/new", {"variant": "sn", "position": [5, 5, 1]})


def _group(pgid: int) -> list[int]:
    """The live (not zombie) processes of process group ``pgid``."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(stat.parent.name))
    return members


def _answers(port: int) -> bool:
    """Whether anything accepts a connection on 127.0.0.1:``port``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _post(url: str) -> None:
    with contextlib.suppress(httpx.HTTPError), httpx.Client(base_url=url, timeout=60) as client:
        client.post(_LONG_JOB[0], json=_LONG_JOB[1])


def test_sigkill_of_the_server_leaves_no_job_process_and_frees_its_port(tmp_path: Path) -> None:
    jobs = 2
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    environment = {**os.environ, "NIMLAB_STORE": str(tmp_path / "store.sqlite")}
    server = subprocess.Popen(
        [*COMMAND, "serve", "--port", str(port), "--job-seconds", "60", "--workers", str(jobs)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=environment,
        start_new_session=True,  # its own process group: whatever it leaves is found by group
    )
    pgid = server.pid
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, f"nimlab serve exited {server.returncode}"
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            assert time.monotonic() < deadline, "nimlab serve did not answer within 60 s"
            time.sleep(0.1)
        clients = [threading.Thread(target=_post, args=(url,), daemon=True) for _ in range(jobs)]
        for client in clients:
            client.start()
        deadline = time.monotonic() + 30
        while len(_group(pgid)) < 1 + jobs:  # the server and its job processes
            assert time.monotonic() < deadline, f"no job started: {_group(pgid)}"
            time.sleep(0.05)
        in_flight = [pid for pid in _group(pgid) if pid != server.pid]

        server.send_signal(signal.SIGKILL)
        server.wait(10)
        killed = time.monotonic()
        deadline = killed + 30
        while _group(pgid) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = _group(pgid)
        gone_after = time.monotonic() - killed
        print(f"SIGKILL with {len(in_flight)} jobs in flight: all gone in {gone_after:.2f} s")
        assert left == [], f"processes outlived the server: {left} (jobs were {in_flight})"
        assert not _answers(port), f"port {port} still answers after the server was killed"
        assert gone_after < 10
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(10)

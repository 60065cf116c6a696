"""A built wheel installs and runs outside the checkout: ``python -m build`` makes an sdist and
from it the wheel, a fresh virtual environment in a temporary folder (no system site-packages,
no ``PYTHONPATH``) installs it with its ``web`` and ``lp`` extras at the locked versions, and
the installed console script answers ``--version``, solves a hidden game as JSON and serves
the playground with its static files and the API's docs page.

Slow by nature (two builds and an install, from pip's cache after the first run): 1.5 to 2
minutes, with timeouts that allow many times that.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

import nimlab

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("build", reason="the test extra is not installed")


def _run(*command: str | Path, cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    environment.update(PIP_DISABLE_PIP_VERSION_CHECK="1", NIMLAB_STORE="")
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stderr[-3000:]}"
    return done


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _install(work: Path) -> Path:
    """Build an sdist and, from it, the wheel (``python -m build``), and install the wheel into
    a fresh venv under ``work``; returns the venv's ``bin`` folder."""
    dist = work / "dist"
    _run(sys.executable, "-m", "build", "--outdir", dist, ROOT, cwd=work, timeout=600)
    version = nimlab.__version__
    assert (dist / f"nimlab-{version}.tar.gz").is_file()
    (wheel,) = dist.glob("nimlab-*.whl")
    assert wheel.name == f"nimlab-{version}-py3-none-any.whl"
    venv = work / "venv"
    _run(sys.executable, "-m", "venv", venv, cwd=work, timeout=300)
    python = venv / "bin" / "python"
    _run(
        python, "-m", "pip", "install", "--quiet",
        "-c", ROOT / "requirements.lock", f"nimlab[web,lp] @ {wheel.as_uri()}",
        cwd=work, timeout=1200,
    )  # fmt: skip
    return venv / "bin"


def test_the_wheel_installs_and_runs_outside_the_checkout(tmp_path: Path) -> None:
    """One test, so that parallel workers never build and install the wheel twice."""
    installed = _install(tmp_path)
    _check_the_package_is_outside_the_checkout(installed)
    _check_version_and_a_solve_as_json(installed)
    _check_serve_answers_the_page_and_its_static_files(installed)


def _check_the_package_is_outside_the_checkout(installed: Path) -> None:
    where = _run(
        installed / "python", "-c", "import nimlab; print(nimlab.__file__)",
        cwd=installed, timeout=120,
    ).stdout.strip()  # fmt: skip
    assert Path(where).is_relative_to(installed.parent), where
    assert not Path(where).is_relative_to(ROOT)


def _check_version_and_a_solve_as_json(installed: Path) -> None:
    version = _run(installed / "nimlab", "--version", cwd=installed, timeout=120)
    assert version.stdout == f"nimlab {nimlab.__version__}\n"
    solved = _run(
        installed / "nimlab", "solve", "sn", "3", "3", "1", "--json", cwd=installed, timeout=300
    )
    payload = json.loads(solved.stdout)
    assert (payload["value"], payload["exact"]) == ("1/3", True)


def _check_serve_answers_the_page_and_its_static_files(installed: Path) -> None:
    port = _free_port()
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    server = subprocess.Popen(
        [str(installed / "nimlab"), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=installed,
        env={**environment, "NIMLAB_STORE": ""},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, f"nimlab serve exited {server.returncode}"
            try:
                if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "nimlab serve did not answer within 120 s"
            time.sleep(0.2)
        with httpx.Client(base_url=url, timeout=60) as client:
            page = client.get("/")
            assert page.status_code == 200 and "/static/app.js" in page.text
            for static in ("/static/app.js", "/static/style.css", "/api/docs"):
                assert client.get(static).status_code == 200, static
            docs = client.get("/api/docs").text
            assert "/api/docs-assets/swagger-ui-bundle.js" in docs
            assert client.get("/api/docs-assets/swagger-ui-bundle.js").status_code == 200
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

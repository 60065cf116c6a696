"""The docs site builds in strict mode: a broken link, a missing page or an API reference that
does not resolve fails here (and in ``make docs``), not on a reader's screen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("mkdocs", reason="the docs extra is not installed")


def _mkdocs(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    # about 30 s on an idle machine; generous for a loaded one
    run = _mkdocs("build", "--strict", "--site-dir", str(tmp_path / "site"), timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    site = tmp_path / "site"
    for page in ("index.html", "tutorial/index.html", "api/index.html", "interface/index.html"):
        assert (site / page).is_file(), page
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    assert 'id="nimlab.solve"' in api and 'id="nimlab.analyze_nim"' in api
    notebook = (site / "notebooks" / "theorist-equilibrium" / "index.html").read_text("utf-8")
    assert "1/3" in notebook


def test_every_docs_page_is_in_the_navigation() -> None:
    """A page left out of ``nav`` is built but unreachable (mkdocs only says so at INFO)."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    docs = ROOT / "docs"
    pages = [
        path.relative_to(docs).as_posix()
        for pattern in ("*.md", "api/*.md", "notebooks/*.ipynb")
        for path in docs.glob(pattern)
    ]
    missing = [page for page in pages if page not in config]
    assert not missing, f"not in mkdocs.yml's nav: {missing}"

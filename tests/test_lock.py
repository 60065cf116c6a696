"""The install is pinned: what ``make test`` installed is exactly what ``requirements.lock`` says,
and the lock covers every dependency pyproject declares (so a new machine gets what CI tested)."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"requirements.lock: {line!r} is not pinned with =="
            pins[_normal(name)] = version.strip()
    return pins


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower().strip()


def test_installed_versions_are_the_locked_ones() -> None:
    pins = _pins()
    installed = {_normal(d.metadata["Name"]): d.version for d in metadata.distributions()}
    differing = {
        name: (version, installed[name])
        for name, version in pins.items()
        if name in installed and installed[name] != version
    }
    assert not differing, f"installed versions differ from requirements.lock: {differing}"


def test_every_declared_dependency_is_locked() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        declared.extend(extra)
    names = {_normal(re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0]) for d in declared}
    names.discard("nimlab")
    missing = sorted(names - set(_pins()))
    assert not missing, f"declared but not in requirements.lock (run make lock): {missing}"

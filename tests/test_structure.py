"""The structure of the package: no import circle among the modules of ``nimlab.extensive``,
and the layers import downwards only (``extensive`` -> ``play`` -> ``cli`` and ``web``). Local
imports inside functions count too: a circle hidden in a function is still a circle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import nimlab

ROOT = Path(nimlab.__file__).parent
PACKAGE = ROOT / "extensive"


def _imported(path: Path) -> set[str]:
    """The dotted names ``path`` imports (modules, and names from modules), anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def _imports(path: Path) -> set[str]:
    """The ``nimlab.extensive`` modules that ``path`` imports, anywhere in it."""
    return {
        name[17:]
        for name in _imported(path)
        if name.startswith("nimlab.extensive.") and (PACKAGE / f"{name[17:]}.py").exists()
    }


@pytest.mark.parametrize(
    ("package", "forbidden", "allowed"),
    [
        ("extensive", ("nimlab.play", "nimlab.cli", "nimlab.web"), ()),
        ("play", ("nimlab.cli", "nimlab.web"), ()),
        # the serve command starts the web app: the one way from the CLI into the web
        ("cli", ("nimlab.web",), ("serve.py",)),
        ("web", ("nimlab.cli",), ()),
    ],
)
def test_the_layers_import_downwards(
    package: str, forbidden: tuple[str, ...], allowed: tuple[str, ...]
) -> None:
    wrong = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in (ROOT / package).glob("*.py")
        if path.name not in allowed
        for name in _imported(path)
        if name.startswith(forbidden)
    }
    assert not wrong


def test_the_modules_of_extensive_import_each_other_without_a_circle() -> None:
    graph = {
        path.stem: _imports(path) - {path.stem}
        for path in PACKAGE.glob("*.py")
        if path.stem != "__init__"
    }
    assert {"tree", "transforms", "variants", "protocol", "solve", "oracle"} <= set(graph)
    done: set[str] = set()

    def visit(module: str, trail: list[str]) -> None:
        if module in trail:
            cycle = [*trail[trail.index(module) :], module]
            raise AssertionError("import circle: " + " -> ".join(cycle))
        if module in done:
            return
        for child in sorted(graph[module]):
            visit(child, [*trail, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])

"""The structure of ``nimlab.extensive``: no import circle among its modules (local imports
inside functions count too: a circle hidden in a function is still a circle)."""

from __future__ import annotations

import ast
from pathlib import Path

import nimlab.extensive

PACKAGE = Path(nimlab.extensive.__file__).parent


def _imports(path: Path) -> set[str]:
    """The ``nimlab.extensive`` modules that ``path`` imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            if name.startswith("nimlab.extensive.") and (PACKAGE / f"{name[17:]}.py").exists():
                found.add(name[17:])
    return found


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

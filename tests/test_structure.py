"""The structure of the package, read from its imports: the layers of :data:`LAYERS` import
downwards only, the modules of each package import each other without a circle, and no package
holds more than a fifth of the code. Local imports inside functions count too: a circle hidden
in a function is still a circle. Imports for the type checker only (under ``TYPE_CHECKING``)
do not: they are no dependency when the code runs."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import nimlab

ROOT = Path(nimlab.__file__).parent

LAYERS: tuple[tuple[str, ...], ...] = (
    # foundations; ``__version__`` is the version string of nimlab/__init__.py (the store keys
    # its results by it), not the root package's entry points
    ("errors", "exact", "core", "budget", "progress", "display", "patterns", "__version__"),
    ("grundy", "nim", "octal", "cgt", "quotients"),  # values: Grundy, Nim, octal, canonical, misère
    ("nimbers", "catalogue", "scoring"),  # nim arithmetic, the game catalogue, Scoring Nim
    ("equilibrium",),  # the game-agnostic exact extensive-form solver
    ("hidden",),  # hidden-information games built from combinatorial ones
    ("api", "openspiel"),  # nimlab's Python entry points; the OpenSpiel adapter
    ("specs", "store"),  # names of tasks; the results store
    ("sweeps",),  # grids of tasks run into the store
    ("reports",),  # the papers' reports (nimlab reproduce)
    ("play",),  # matches against the engines
    ("web",),  # the web playground
    ("cli",),  # the command line (``nimlab serve`` starts the web app)
    ("nimlab", "__main__"),  # the root package (its entry points) and ``python -m nimlab``
)
"""Every part of nimlab (a package, or a module directly under src/nimlab), bottom to top."""

LAYER = {unit: level for level, units in enumerate(LAYERS) for unit in units}
LARGEST_SHARE = 0.2


def _files() -> Iterator[Path]:
    yield from sorted(ROOT.rglob("*.py"))


def _unit(path: Path) -> str:
    """The part ``path`` belongs to: its package, its module's name, or ``nimlab`` for the
    root package's ``__init__``."""
    parts = path.relative_to(ROOT).parts
    if len(parts) > 1:
        return parts[0]
    return "nimlab" if parts[0] == "__init__.py" else parts[0].removesuffix(".py")


def _module_exists(dotted: str) -> bool:
    """Whether ``nimlab.a.b`` names a module or package under src/nimlab."""
    path = ROOT.joinpath(*dotted.split(".")[1:])
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imported_modules(path: Path) -> set[str]:
    """The nimlab modules ``path`` imports, anywhere in it (``from m import x`` is module
    ``m.x`` when that is a module, else ``m``)."""
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            module = node.module or ""
            if module == "nimlab" or module.startswith("nimlab."):
                for alias in node.names:
                    dotted = f"{module}.{alias.name}"
                    if _module_exists(dotted) or (module, alias.name) == ("nimlab", "__version__"):
                        found.add(dotted)
                    else:
                        found.add(module)
        elif isinstance(node, ast.Import):
            found |= {
                alias.name
                for alias in node.names
                if alias.name == "nimlab" or alias.name.startswith("nimlab.")
            }
    return found


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:``: an import made for the
    type checker only is no dependency when the code runs (local imports in functions count)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            for other in node.orelse:
                yield other
                yield from _runtime_nodes(other)
            continue
        yield node
        yield from _runtime_nodes(node)


def _unit_of(dotted: str) -> str:
    """The part of nimlab that module ``nimlab...`` belongs to."""
    parts = dotted.split(".")
    return "nimlab" if len(parts) == 1 else parts[1]


def test_every_part_has_one_layer() -> None:
    units = {_unit(path) for path in _files()}
    listed = [unit for layer in LAYERS for unit in layer]
    assert len(listed) == len(set(listed))
    assert units == set(listed) - {"__version__"}


def test_the_layers_import_downwards() -> None:
    wrong = sorted(
        f"{path.relative_to(ROOT)} ({_unit(path)}) imports {name} ({_unit_of(name)})"
        for path in _files()
        for name in _imported_modules(path)
        if LAYER[_unit_of(name)] > LAYER[_unit(path)]
    )
    assert not wrong


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import circle in ``graph`` (module -> modules it imports), or ``None``."""
    done: set[str] = set()

    def visit(node: str, trail: list[str]) -> list[str] | None:
        if node in trail:
            return [*trail[trail.index(node) :], node]
        if node in done:
            return None
        for child in sorted(graph.get(node, ())):
            found = visit(child, [*trail, node])
            if found:
                return found
        done.add(node)
        return None

    for node in sorted(graph):
        found = visit(node, [])
        if found:
            return found
    return None


def test_the_parts_import_each_other_without_a_circle() -> None:
    graph: dict[str, set[str]] = {}
    for path in _files():
        unit = _unit(path)
        graph.setdefault(unit, set()).update(
            {_unit_of(name) for name in _imported_modules(path)} - {unit}
        )
    assert _circle(graph) is None


def test_the_modules_of_each_package_import_each_other_without_a_circle() -> None:
    packages = sorted({path.parent for path in _files() if path.parent != ROOT})
    assert {ROOT / "equilibrium", ROOT / "hidden", ROOT / "reports"} <= set(packages)
    for package in packages:
        prefix = "nimlab." + ".".join(package.relative_to(ROOT).parts)
        graph = {
            path.stem: {
                name.removeprefix(prefix + ".").split(".")[0] if name != prefix else "__init__"
                for name in _imported_modules(path)
                if name == prefix or name.startswith(prefix + ".")
            }
            - {path.stem}
            for path in package.glob("*.py")
        }
        circle = _circle(graph)
        assert circle is None, f"{package.name}: import circle " + " -> ".join(circle or [])


def test_no_part_holds_more_than_a_fifth_of_the_code() -> None:
    lines: dict[str, int] = {}
    for path in _files():
        unit = _unit(path)
        lines[unit] = lines.get(unit, 0) + len(path.read_text(encoding="utf-8").splitlines())
    total = sum(lines.values())
    assert {unit for unit, count in lines.items() if count > LARGEST_SHARE * total} == set()


def test_a_circle_is_found() -> None:
    """The circle finder itself can fail."""
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None

"""The command line starts fast: importing it loads no engine (numpy, the LP solvers, the game
catalogue, the hidden-information solver, sweeps), so ``nimlab --help`` and ``nimlab nim 3 4 5``
take a fraction of a second (``benchmarks/bench_startup.py`` measures it; BENCHMARKS.md has the
figures). The engines are imported by the commands that use them.

Checked on the modules loaded, not on a clock, so the test means the same on a loaded machine.
Help texts that name an engine's constant keep a copy of it; the copies are checked here.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = (
    "numpy",
    "scipy",
    "highspy",
    "flint",
    "numba",
    "matplotlib",
    "dask",
    "nimlab.catalogue",
    "nimlab.cgt",
    "nimlab.equilibrium",
    "nimlab.hidden",
    "nimlab.reports",
    "nimlab.octal",
    "nimlab.play",
    "nimlab.specs",
    "nimlab.sweeps",
)


def _loaded_after(code: str) -> set[str]:
    script = f"import sys\n{code}\nprint('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    return set(done.stdout.split())


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_importing_the_command_line_loads_no_engine() -> None:
    assert _heavy(_loaded_after("import nimlab.cli.main")) == []


@pytest.mark.parametrize("argv", [["--help"], ["nim", "3", "4", "5"], ["nimber", "sum", "3", "5"]])
def test_light_commands_load_no_engine(argv: list[str]) -> None:
    code = (
        "import contextlib, io\n"
        "from nimlab.cli.main import run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert run({argv!r}) == 0\n"
    )
    assert _heavy(_loaded_after(code)) == []


def test_a_command_loads_its_engine() -> None:
    """The check above can fail: a command that needs the catalogue imports it."""
    code = (
        "import contextlib, io\n"
        "from nimlab.cli.main import run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert run(['analyze', 'kayles', '7,4']) == 0\n"
    )
    assert "nimlab.catalogue" in _heavy(_loaded_after(code))


def test_the_copies_in_help_texts_agree_with_the_engines() -> None:
    from nimlab.cli.app import VARIANT_NAMES
    from nimlab.cli.play import PLAY_POKER_CAP
    from nimlab.cli.scoring import CLI_MAX_CELLS
    from nimlab.cli.sweep import DEFAULT_MAX_TASKS
    from nimlab.hidden.variants import VARIANTS
    from nimlab.play import impartial
    from nimlab.scoring import payoff
    from nimlab.sweeps import grid

    assert tuple(VARIANTS) == VARIANT_NAMES
    assert impartial.PLAY_POKER_CAP == PLAY_POKER_CAP
    assert payoff.CLI_MAX_CELLS == CLI_MAX_CELLS
    assert grid.DEFAULT_MAX_TASKS == DEFAULT_MAX_TASKS

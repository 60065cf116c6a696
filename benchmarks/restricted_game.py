"""What the restricted-games benchmarks share: their command line (a variant, its heaps,
``--misere``) and the solve they measure, by restricted games with no budget and no node
limit. Imported by ``lp_rounds.py``, ``memory_phases.py`` and ``traced_memory.py`` (a
script's own folder is on ``sys.path``, so each still runs as
``.venv/bin/python benchmarks/NAME.py``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from nimlab.equilibrium.results import EquilibriumResult
from nimlab.hidden.oracle import Round
from nimlab.hidden.solve import solve


def game_parser(doc: str) -> argparse.ArgumentParser:
    """A parser for ``VARIANT HEAPS... [--misere]``, described by ``doc``'s first line."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("heaps", nargs="+", type=int)
    parser.add_argument("--misere", action="store_true")
    return parser


def solve_game(
    args: argparse.Namespace, progress: Callable[[int | None, Round], None] | None = None
) -> EquilibriumResult:
    """Solve the parsed game by restricted games, reporting each round to ``progress``."""
    return solve(
        args.variant,
        tuple(args.heaps),
        misere=args.misere,
        method="restricted",
        budget=None,
        max_nodes=10**9,
        progress=progress,
    )

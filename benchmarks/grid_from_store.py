"""The SN(n1, n2, 1) grid as a sweep left it in a results store: values and seconds.

Run: ``.venv/bin/python benchmarks/grid_from_store.py STORE [--grid 10] [--misere]`` after
``nimlab sweep solve sn --grid 4..10,4..10,1 [--misere] --store STORE``. Prints two Markdown
triangles (rows n1, columns n2, 4 <= n2 <= n1 <= grid): the exact values and the seconds each
game took, with the sweep's total; a game missing from the store is shown as ``-``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from nimlab.specs import solve_task
from nimlab.store.results import ResultStore, current_version


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--grid", type=int, default=10)
    parser.add_argument("--misere", action="store_true")
    options = parser.parse_args()
    sizes = range(4, options.grid + 1)
    found = {}
    with ResultStore(options.store) as store:
        for n1 in sizes:
            for n2 in range(4, n1 + 1):
                task = solve_task("sn", (n1, n2, 1), misere=options.misere)
                row = store.get(task.spec, task.accepts, current_version())
                if row is not None:
                    found[n1, n2] = row
    header = "| n1 \\ n2 | " + " | ".join(map(str, sizes)) + " |"
    rule = "| --- " * (len(sizes) + 1) + "|"
    for title, cell in (
        ("value", lambda row: row.payload["value"] + ("" if row.payload["exact"] else "?")),
        ("seconds", lambda row: f"{row.payload['seconds']:.1f}"),
    ):
        print(f"{'misère ' if options.misere else ''}{title}\n\n{header}\n{rule}")
        for n1 in sizes:
            cells = [cell(found[n1, n2]) if (n1, n2) in found else "-" for n2 in range(4, n1 + 1)]
            print(f"| {n1} | " + " | ".join(cells + [""] * (len(sizes) - len(cells))) + " |")
        print()
    total = sum(row.payload["seconds"] for row in found.values())
    print(f"{len(found)} games, {total:.0f} s of solving in all")


if __name__ == "__main__":
    main()

"""Python's own memory at the largest round of a restricted-games solve, by source line.

Run: ``.venv/bin/python benchmarks/traced_memory.py sn 9 9 1 [--misere] [--top 18]``.
Traces allocations (``tracemalloc``, about 2-3x slower), keeps a snapshot at the end of
the round where the traced memory is largest, and prints the nodes, the traced megabytes,
the bytes per node and the ``--top`` source lines holding most of it. Then each nimlab
module's share (an allocation counts for the innermost nimlab module on its stack, so a
numpy array goes to the module that asked for it; code loaded by imports apart), and the
tree's own: the modules in :data:`TREE` (histories, information sets, sequences, terminals,
children), per node. HiGHS's memory is not traced (``benchmarks/memory_phases.py``
measures the whole process).
"""

from __future__ import annotations

import tracemalloc

from restricted_game import game_parser, solve_game

from nimlab.hidden.oracle import Round

TREE = ("builder.py", "gametree.py", "children.py", "child_kernels.py")
"""The modules that hold a tree while it is built and grown."""


def owner(trace: tracemalloc.Trace) -> str:
    """The innermost nimlab module on ``trace``'s stack, "imports" for code being loaded,
    else the innermost file."""
    frames = list(reversed(trace.traceback))  # innermost first
    if any("<frozen importlib" in f.filename for f in frames):
        return "imports"
    for frame in frames:
        if "/nimlab/" in frame.filename:
            return frame.filename.rsplit("/", 1)[-1]
    return frames[0].filename.rsplit("/", 1)[-1]


def main() -> None:
    parser = game_parser(__doc__)
    parser.add_argument("--top", type=int, default=18, help="how many source lines to print")
    args = parser.parse_args()
    tracemalloc.start(3)
    largest: list[tuple[int, tracemalloc.Snapshot]] = []

    def keep(part: int | None, step: Round) -> None:
        traced, _ = tracemalloc.get_traced_memory()
        if not largest or traced > largest[0][0]:
            largest[:] = [(traced, tracemalloc.take_snapshot())]

    result = solve_game(args, keep)
    traced, snapshot = largest[0]
    print(
        f"{result.variant}{result.position}: {result.value}, {result.nodes:,} nodes; "
        f"{traced / 1e6:.1f} MB traced at the largest round, "
        f"{traced / result.nodes:.0f} bytes a node"
    )
    for stat in snapshot.statistics("lineno")[: args.top]:
        frame = stat.traceback[0]
        where = f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}"
        print(f"{stat.size / 1e6:8.1f} MB {stat.count:10,} blocks  {where}")
    shares: dict[str, int] = {}
    for trace in snapshot.traces:
        name = owner(trace)
        shares[name] = shares.get(name, 0) + trace.size
    print("by module:")
    for name, size in sorted(shares.items(), key=lambda item: -item[1])[: args.top]:
        print(f"{size / 1e6:8.1f} MB  {name}")
    tree = sum(shares.get(name, 0) for name in TREE)
    print(
        f"the tree ({', '.join(TREE)}): {tree / 1e6:.1f} MB, {tree / result.nodes:.0f} bytes a node"
    )


if __name__ == "__main__":
    main()

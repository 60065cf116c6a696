"""Readable equilibrium strategies: what each player knows where, and what they then do.

Like the paper's Fig. 2: for every information set reached with positive probability, the
player's knowledge of each heap (an exact height ``3``, an upper bound ``≤3``, or a set of
possible heights) and the probabilities of the actions played.

>>> from fractions import Fraction
>>> knowledge(frozenset({(2, 3, 1), (1, 3, 1)}))
'[≤2, 3, 1]'
>>> knowledge(frozenset({(0, 3), (2, 3)}))
'[{0,2}, 3]'
"""

from __future__ import annotations

from fractions import Fraction

from nimlab.equilibrium.certify import Behaviour, realisation_plan
from nimlab.equilibrium.gametree import GameTree
from nimlab.equilibrium.results import StrategyEntry
from nimlab.exact import exact_str

__all__ = ["format_strategies", "knowledge", "reach_probabilities", "strategy_entries"]

PLAYERS = ("L", "R")


def knowledge(belief: frozenset[tuple[int, ...]]) -> str:
    """A player's knowledge of the heaps, heap by heap, from the belief."""
    parts = []
    for k in range(len(next(iter(belief)))):
        heights = sorted({s[k] for s in belief})
        top = heights[-1]
        if len(heights) == 1:
            parts.append(str(top))
        elif heights == list(range(heights[0], top + 1)) and heights[0] <= 1:
            parts.append(f"≤{top}")
        else:
            parts.append("{" + ",".join(map(str, heights)) + "}")
    return "[" + ", ".join(parts) + "]"


def reach_probabilities(tree: GameTree, behaviours: tuple[Behaviour, Behaviour]) -> list[Fraction]:
    """The probability that play under ``behaviours`` passes through each information set.

    Each terminal passes through at most one node of an information set (perfect recall), so
    the reach of a set is the total probability of the terminals below it; those are found
    from the chain of own sequences above each terminal.
    """
    plans = (realisation_plan(tree, 0, behaviours[0]), realisation_plan(tree, 1, behaviours[1]))
    mass: tuple[list[Fraction], list[Fraction]] = tuple(  # type: ignore[assignment]
        [Fraction(0)] * tree.sequence_count(p) for p in (0, 1)
    )
    for s0, s1 in zip(tree.term_seq[0], tree.term_seq[1], strict=True):
        p = plans[0][s0] * plans[1][s1]
        if p:
            mass[0][s0] += p
            mass[1][s1] += p
    reach = [Fraction(0)] * tree.infoset_count
    for index in range(tree.infoset_count - 1, -1, -1):
        info = tree.infosets[index]
        own = mass[info.player]
        total = sum(own[info.first_seq : info.first_seq + len(info.actions)], Fraction(0))
        reach[index] = total
        own[info.parent_seq] += total
    return reach


def strategy_entries(
    tree: GameTree, behaviours: tuple[Behaviour, Behaviour]
) -> tuple[StrategyEntry, ...]:
    """The information sets reached with positive probability, in the order of the tree."""
    reach = reach_probabilities(tree, behaviours)
    entries = []
    for index, info in enumerate(tree.infosets):
        if not reach[index]:
            continue
        knows = knowledge(info.belief)
        if info.pending is not None:
            knows += f", must play heap {info.pending + 1}"
        played = tuple(
            (str(action), p)
            for action, p in zip(info.actions, behaviours[info.player][index], strict=True)
            if p
        )
        entries.append(
            StrategyEntry(PLAYERS[info.player], info.history, knows, reach[index], played)
        )
    return tuple(entries)


def format_strategies(entries: tuple[StrategyEntry, ...]) -> str:
    """Plain-text rendering, one information set per line.

    >>> entry = StrategyEntry("L", (), "[3, 3, 1]", Fraction(1),
    ...     (("1_1", Fraction(2, 3)), ("1_2", Fraction(1, 3))))
    >>> print(format_strategies((entry,)))
    L knows [3, 3, 1] (reached 1; after: start): 1_1 2/3, 1_2 1/3
    """
    lines = []
    for e in entries:
        after = "; ".join(e.history) or "start"
        moves = ", ".join(f"{name} {exact_str(p)}" for name, p in e.actions)
        lines.append(
            f"{e.player} knows {e.knows} (reached {exact_str(e.reach)}; after: {after}): {moves}"
        )
    return "\n".join(lines)

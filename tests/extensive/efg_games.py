"""Games written as ``.efg`` text from their rules, shared by the tests of reading and solving.

Kuhn poker is worth -1/18 to player 1 (Kuhn 1950); the random games have chance nodes, outcomes
at any node and perfect recall by construction.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

F = Fraction


def kuhn_efg() -> str:
    """Kuhn poker (Kuhn 1950) from its rules: cards J < Q < K, ante 1, one bet of 1."""
    cards = "JQK"
    deals = [(a, b) for a in range(3) for b in range(3) if a != b]
    moves = " ".join(f'"{cards[a]}{cards[b]}" 1/6' for a, b in deals)
    lines = ['EFG 2 R "Kuhn poker" { "Player 1" "Player 2" }', f'c "" 1 "deal" {{ {moves} }} 0']
    outcomes: dict[int, int] = {}

    def leaf(x: int) -> str:  # player 1 wins x
        number = outcomes.setdefault(x, len(outcomes) + 1)
        return f't "" {number} "{x}" {{ {x} {-x} }}'

    for a, b in deals:
        win = 1 if a > b else -1
        lines += [
            f'p "" 1 {a + 1} "{cards[a]}" {{ "check" "bet" }} 0',
            f'p "" 2 {b + 1} "{cards[b]} after check" {{ "check" "bet" }} 0',
            leaf(win),
            f'p "" 1 {a + 4} "{cards[a]} check bet" {{ "fold" "call" }} 0',
            leaf(-1),
            leaf(2 * win),
            f'p "" 2 {b + 4} "{cards[b]} after bet" {{ "fold" "call" }} 0',
            leaf(1),
            leaf(2 * win),
        ]
    return "\n".join(lines) + "\n"


def random_efg(seed: int) -> str:
    """A random zero-sum game with chance, perfect recall by construction (an information set
    is the player's own past moves plus a random bucket), outcomes at any node, and repeated
    information sets and outcomes written in full or omitted at random."""
    rng = random.Random(seed)
    lines = [f'EFG 2 R "random {seed}" {{ "P1" "P2" }}', '""']
    infosets: dict[tuple[Any, ...], tuple[int, int]] = {}  # key -> (number, actions)
    outcomes: list[int] = []  # player 1's payoff of outcome k + 1

    def outcome(terminal: bool) -> str:
        if outcomes and rng.random() < 0.3:
            k = rng.randrange(len(outcomes)) + 1
            return (
                str(k)
                if rng.random() < 0.5
                else f'{k} "o{k}" {{ {outcomes[k - 1]} {-outcomes[k - 1]} }}'
            )
        if not terminal and rng.random() < 0.6:
            return "0"
        outcomes.append(rng.randint(-3, 3))
        k = len(outcomes)
        return f'{k} "o{k}" {{ {outcomes[-1]}, {-outcomes[-1]} }}'

    def node(depth: int, own: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
        kind = "t" if depth >= 4 or rng.random() < 0.2 else rng.choice("cpp")
        if kind == "t":
            lines.append(f't "" {outcome(True)}')
            return
        if kind == "c":
            weights = [rng.randint(0, 3) for _ in range(rng.randint(1, 3))]
            if not any(weights):
                weights[0] = 1
            probs = [F(w, sum(weights)) for w in weights]
            moves = " ".join(f'"c{i}" {p}' for i, p in enumerate(probs))
            number = len(lines)  # a fresh chance information set
            lines.append(f'c "" {number} "" {{ {moves} }} {outcome(False)}')
            for _ in probs:
                node(depth + 1, own)
            return
        player = rng.randint(1, 2)
        key = (player, own[player - 1], rng.randrange(2))
        fresh = key not in infosets
        if fresh:
            count = sum(k[0] == player for k in infosets)
            infosets[key] = (count + 1, rng.randint(1, 3))
        number, actions = infosets[key]
        names = " ".join(f'"a{a}"' for a in range(actions))
        written = fresh or rng.random() < 0.5
        given = f'"{player}.{number}" {{ {names} }} ' if written else ""
        lines.append(f'p "" {player} {number} {given}{outcome(False)}')
        for a in range(actions):
            mine = (*own[player - 1], number, a)
            node(depth + 1, (mine, own[1]) if player == 1 else (own[0], mine))

    node(0, ((), ()))
    return "\n".join(lines) + "\n"

"""Solve a two-player zero-sum ``.efg`` game exactly, chance nodes included.

A :class:`~nimlab.equilibrium.efg_read.ZeroSumEfg` becomes an :class:`EfgGameTree` for the
sequence form: each terminal pays player 1 ``chance * payoff``, and all of these are scaled by
one positive integer (``payoff_scale``, the least common multiple of their denominators) to
integers. The LP proposes in floats; the certificate (both exact best-response values equal)
disposes; the value as written is the certified value divided by the scale, minus the
reader's ``shift``.

A coin is tossed; player 1, seeing it, bets (2 on heads, -1 on tails) or passes (0):

>>> from nimlab.equilibrium.efg_read import parse_efg, to_zero_sum
>>> game = to_zero_sum(parse_efg('''EFG 2 R "coin" { "P1" "P2" }
... c "" 1 "toss" { "heads" 1/3 "tails" 2/3 } 0
... p "" 1 1 "saw heads" { "bet" "pass" } 0
... t "" 1 "win" { 2 -2 }
... t "" 2 "nothing" { 0 0 }
... p "" 1 2 "saw tails" { "bet" "pass" } 0
... t "" 3 "lose" { -1 1 }
... t "" 2
... '''))
>>> result = solve_efg(game, strategies=True)
>>> result.value, result.exact, efg_tree(game).payoff_scale
(Fraction(2, 3), True, 3)
>>> [(s.name, [str(p) for _, p in s.actions]) for s in result.strategies or ()]
[('saw heads', ['1', '0']), ('saw tails', ['0', '1'])]
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from math import lcm
from typing import Any, NamedTuple

from nimlab.budget import Cost
from nimlab.display import html_table
from nimlab.equilibrium.certify import certify_lp
from nimlab.equilibrium.cost import BASE_BYTES, FITS, fitted_cost
from nimlab.equilibrium.efg_flat import FlatEfg
from nimlab.equilibrium.efg_read import ZeroSumEfg
from nimlab.equilibrium.lp import solve_columns
from nimlab.equilibrium.seqform import lp_columns
from nimlab.exact import exact_str

__all__ = [
    "EfgGameTree",
    "EfgResult",
    "EfgStrategy",
    "efg_tree",
    "estimate_efg",
    "estimate_efg_file",
    "solve_efg",
]

READ_BYTES_PER_SECOND = 2.5e6
"""Reading and checking an ``.efg`` file (measured: 2.8 to 3 MB/s on exported SN(3,3,1) and
SN(4,4,1), 117 kB and 1.4 MB)."""
READ_PEAK_PER_BYTE = 30
"""Peak memory of reading, per byte of the file (measured: 21 to 25)."""


class _Infoset(NamedTuple):
    player: int
    parent_seq: int
    first_seq: int
    actions: tuple[str, ...]


@dataclass(frozen=True)
class EfgGameTree:
    """A :class:`~nimlab.equilibrium.seqform.SequenceTree` from a file: terminal ``t`` pays
    player 1 ``term_payoff[t] / payoff_scale`` (chance probability included)."""

    infosets: tuple[_Infoset, ...]
    seq_infoset: tuple[Sequence[int], Sequence[int]]
    term_seq: tuple[array[int], array[int]]
    term_payoff: array[int] | list[int]
    payoff_scale: int

    def sequence_count(self, player: int) -> int:
        """The number of sequences of ``player``, the empty one included."""
        return len(self.seq_infoset[player])


def efg_tree(game: ZeroSumEfg | FlatEfg) -> EfgGameTree:
    """The sequence-form tree of ``game``, with integer payoffs (terminals worth 0 dropped)."""
    infosets = tuple(
        _Infoset(info.player, info.parent_sequence, info.first_sequence, info.actions)
        for info in game.infosets
    )
    if isinstance(game, FlatEfg):
        return _flat_tree(game, infosets)
    seq_infoset = (
        tuple(s.infoset for s in game.sequences[0]),
        tuple(s.infoset for s in game.sequences[1]),
    )
    worth = [(t.seq1, t.seq2, t.chance * t.payoff) for t in game.terminals if t.chance * t.payoff]
    scale = lcm(*(w.denominator for _, _, w in worth))
    payoffs = [w.numerator * (scale // w.denominator) for _, _, w in worth]
    fits = all(-(2**63) <= p < 2**63 for p in payoffs)
    return EfgGameTree(
        infosets,
        seq_infoset,
        (array("i", (s for s, _, _ in worth)), array("i", (s for _, s, _ in worth))),
        array("q", payoffs) if fits else payoffs,
        scale,
    )


def _flat_tree(game: FlatEfg, infosets: tuple[_Infoset, ...]) -> EfgGameTree:
    """The sequence-form tree of a game already in arrays: only each sequence's information
    set is worked out (its terminals are used as they are)."""
    seq_infoset: tuple[array[int], array[int]] = (array("i", [-1]), array("i", [-1]))
    for index, info in enumerate(infosets):
        seq_infoset[info.player].extend([index] * len(info.actions))
    for player in (0, 1):
        if len(seq_infoset[player]) != game.sequence_counts[player]:
            raise ValueError(f"player {player}'s sequences do not match their information sets")
    return EfgGameTree(infosets, seq_infoset, game.term_seq, game.term_payoff, game.payoff_scale)


@dataclass(frozen=True)
class EfgStrategy:
    """A player's equilibrium behaviour at one information set, in the file's labels.

    ``player`` is 1 or 2 (the file's order), ``number`` and ``name`` those of the file.
    """

    player: int
    number: int
    name: str
    actions: tuple[tuple[str, Fraction], ...]

    def to_json(self) -> dict[str, Any]:
        """JSON form: exact probabilities as strings."""
        return {
            "player": self.player,
            "infoset": self.number,
            "name": self.name,
            "actions": [{"action": a, "probability": exact_str(p)} for a, p in self.actions],
        }


@dataclass(frozen=True)
class EfgResult:
    """The value of a file's game for player 1 (as written, shift undone) and its proof.

    ``exact`` is true only when the certificate's bounds meet; ``lower`` and ``upper`` are
    those bounds in the file's payoffs. ``seconds`` times the solve (the file already read).
    """

    title: str
    players: tuple[str, str]
    shift: Fraction
    value: Fraction
    exact: bool
    lower: Fraction
    upper: Fraction
    method: str
    nodes: int
    infosets: int
    seconds: float
    strategies: tuple[EfgStrategy, ...] | None

    def to_json(self) -> dict[str, Any]:
        """The JSON keys of ``nimlab solve-efg`` (``strategies`` only when computed)."""
        payload: dict[str, Any] = {
            "title": self.title,
            "players": list(self.players),
            "value": exact_str(self.value),
            "exact": self.exact,
            "lower": exact_str(self.lower),
            "upper": exact_str(self.upper),
            "method": self.method,
            "shift": exact_str(self.shift),
            "nodes": self.nodes,
            "infosets": self.infosets,
            "seconds": round(self.seconds, 6),
        }
        if self.strategies is not None:
            payload["strategies"] = [s.to_json() for s in self.strategies]
        return payload

    def __repr__(self) -> str:
        """A one-line summary (a file has no notation to round-trip).

        >>> from nimlab.equilibrium.efg_read import parse_efg, to_zero_sum
        >>> solve_efg(to_zero_sum(parse_efg('EFG 2 R "one" { "A" "B" } t "" 1 "" { 1 -1 }')))
        <EfgResult 'one': value 1 for A (exact), 1 nodes, 0 infosets>
        """
        bounds = f"between {exact_str(self.lower)} and {exact_str(self.upper)}"
        exact = "exact" if self.exact else bounds
        return (
            f"<EfgResult {self.title!r}: value {exact_str(self.value)} for {self.players[0]} "
            f"({exact}), {self.nodes} nodes, {self.infosets} infosets>"
        )

    def _repr_html_(self) -> str:
        """The value for player 1, its certificate, sizes and time, and the strategies."""
        facts = [
            [f"value for {self.players[0]}", exact_str(self.value)],
            ["exact", "yes" if self.exact else "no"],
            ["bounds", f"{exact_str(self.lower)} to {exact_str(self.upper)}"],
            ["certificate", self.method],
            ["nodes", str(self.nodes)],
            ["information sets", str(self.infosets)],
            ["seconds", f"{self.seconds:.3f}"],
        ]
        parts = [f"<div><p><b>{escape(self.title)}</b></p>", html_table([], facts)]
        if self.strategies is not None:
            rows = [
                [
                    self.players[s.player - 1],
                    s.name,
                    ", ".join(f"{a}: {exact_str(p)}" for a, p in s.actions),
                ]
                for s in self.strategies
            ]
            parts.append(html_table(["player", "information set", "actions"], rows))
        parts.append("</div>")
        return "".join(parts)


def solve_efg(game: ZeroSumEfg | FlatEfg, *, strategies: bool = False) -> EfgResult:
    """Solve ``game`` (read from a file, or walked into arrays) by the sequence-form LP and
    certify its value exactly.

    Matching pennies is worth 0:

    >>> from nimlab.equilibrium.efg_read import parse_efg, to_zero_sum
    >>> pennies = to_zero_sum(parse_efg('''EFG 2 R "" { "A" "B" }
    ... p "" 1 1 "" { "H" "T" } 0
    ... p "" 2 1 "" { "h" "t" } 0
    ... t "" 1 "" { 1 -1 }
    ... t "" 2 "" { -1 1 }
    ... p "" 2 1 0
    ... t "" 2
    ... t "" 1
    ... '''))
    >>> solve_efg(pennies).to_json()["value"]
    '0'
    """
    start = time.perf_counter()
    tree = efg_tree(game)
    columns = lp_columns(tree)
    lp = solve_columns(columns.normalised(), columns.sizes)
    certificate, behaviours = certify_lp(tree, columns, lp, quick=True)
    scale = tree.payoff_scale
    lower, upper = certificate.lower / scale - game.shift, certificate.upper / scale - game.shift
    if certificate.certified:
        value = lower
    else:
        largest = columns.largest
        value = Fraction(lp.value * largest / scale).limit_denominator(10**6) - game.shift
    entries = None
    if strategies:
        entries = tuple(
            EfgStrategy(
                info.player + 1,
                info.number,
                info.name,
                tuple(zip(info.actions, behaviours[info.player][i], strict=True)),
            )
            for i, info in enumerate(game.infosets)
        )
    return EfgResult(
        game.title,
        game.players,
        game.shift,
        value,
        certificate.certified,
        lower,
        upper,
        certificate.method,
        game.nodes,
        len(game.infosets),
        time.perf_counter() - start,
        entries,
    )


def estimate_efg_file(size: int) -> Cost:
    """The cost of reading and checking a file of ``size`` bytes.

    >>> estimate_efg_file(5_000_000).seconds
    2.0
    """
    return Cost(size / READ_BYTES_PER_SECOND, int(BASE_BYTES + READ_PEAK_PER_BYTE * size))


def estimate_efg(nodes: int) -> Cost:
    """The cost of solving and certifying a game of ``nodes`` nodes once read (the whole-tree
    LP fit of Kriegspiel Nim, whose trees are the least regular of nimlab's own).

    >>> estimate_efg(100).seconds < 0.01 < estimate_efg(10**8).seconds / 1000
    True
    """
    return fitted_cost(FITS["kn", "lp"], nodes, 0.0)

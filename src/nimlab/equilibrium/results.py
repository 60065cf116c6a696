"""The frozen result record of an equilibrium computation, and its JSON form.

>>> from fractions import Fraction
>>> from nimlab.equilibrium.certify import Behaviour, Certificate
>>> record = EquilibriumResult("sn", (2, 1), False, Fraction(1), True, 6, 2,
...     Certificate(Fraction(1), Fraction(1), "rounding"), {"total": 0.0})
>>> record.to_json()["value"], record.to_json()["exact"]
('1', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from typing import Any

from nimlab.display import html_table
from nimlab.equilibrium.certify import Behaviour, Certificate
from nimlab.exact import exact_str

__all__ = ["EquilibriumResult", "StrategyEntry"]


@dataclass(frozen=True)
class StrategyEntry:
    """One information set of an equilibrium: its player, what that player knows, how
    likely it is reached, and the action probabilities."""

    player: str
    history: tuple[str, ...]
    knows: str
    reach: Fraction
    actions: tuple[tuple[str, Fraction], ...]

    def to_json(self) -> dict[str, Any]:
        """JSON form: exact probabilities as strings."""
        return {
            "player": self.player,
            "history": list(self.history),
            "knows": self.knows,
            "reach": exact_str(self.reach),
            "actions": {name: exact_str(p) for name, p in self.actions},
        }


@dataclass(frozen=True)
class EquilibriumResult:
    """Value and certificate of one game, with the sizes, timings (seconds per phase), both
    behaviour strategies (probabilities per information set of the tree) and, when asked for,
    the readable equilibrium at every information set reached."""

    variant: str
    position: tuple[int, ...]
    misere: bool
    value: Fraction
    exact: bool
    nodes: int
    infosets: int
    certificate: Certificate
    timings: dict[str, float]
    strategies: tuple[StrategyEntry, ...] | None = field(default=None)
    behaviours: tuple[Behaviour, Behaviour] = field(default=([], []), repr=False, compare=False)
    game: str | None = None
    """The catalogue game whose components are hidden (``None``: Nim, ``position`` the heaps)."""
    options: dict[str, Any] | None = None
    notation: str = ""
    """The position in the game's ``analyze`` notation (with ``game``)."""
    method: str = "lp"
    """The method that ran: ``lp``, ``restricted``, ``closed form`` (one non-empty heap), or,
    for a game decomposed by L's first heap, its parts' methods joined by ``+``."""
    tree: str = "the whole tree as built"
    """Which tree ``nodes`` and ``infosets`` count, in words: the whole tree, the games after
    L's first move, the last restricted games, or none (a closed form)."""

    @property
    def seconds(self) -> float:
        """Total wall-clock time."""
        return self.timings["total"]

    def to_json(self) -> dict[str, Any]:
        """The contract's keys (``nimlab solve --json``) plus certificate and timings."""
        payload: dict[str, Any] = {
            "variant": self.variant,
            "position": list(self.position),
            "misere": self.misere,
            "value": exact_str(self.value),
            "exact": self.exact,
            "nodes": self.nodes,
            "infosets": self.infosets,
            "seconds": round(self.seconds, 6),
            "method": self.method,
            "tree": self.tree,
            "certificate": {
                "lower": exact_str(self.certificate.lower),
                "upper": exact_str(self.certificate.upper),
                "method": self.certificate.method,
            },
            "timings": {k: round(v, 6) for k, v in self.timings.items()},
        }
        if self.game is not None:
            payload["position"] = self.notation
            payload["game"] = self.game
            payload["options"] = dict(self.options or {})
        if self.strategies is not None:
            payload["strategies"] = [entry.to_json() for entry in self.strategies]
        return payload

    @classmethod
    def from_json(cls, payload: dict[str, Any]) -> EquilibriumResult:
        """A Nim position's result read back from :meth:`to_json` (a results store's row);
        strategies and behaviours are not in it.

        >>> from nimlab.hidden.solve import solve
        >>> result = solve("sn", (3, 2, 1))
        >>> again = EquilibriumResult.from_json(result.to_json())
        >>> (again.value, again.exact, again.nodes, again.certificate) == (
        ...     result.value, result.exact, result.nodes, result.certificate)
        True
        """
        certificate = payload["certificate"]
        return cls(
            payload["variant"],
            tuple(payload["position"]),
            payload["misere"],
            Fraction(payload["value"]),
            payload["exact"],
            payload["nodes"],
            payload["infosets"],
            Certificate(
                Fraction(certificate["lower"]),
                Fraction(certificate["upper"]),
                certificate["method"],
            ),
            dict(payload["timings"]),
            method=payload["method"],
            tree=payload.get("tree", "the whole tree as built"),
        )

    def __str__(self) -> str:
        """A readable summary: the game, the value for the first player and its chance of
        winning, whether it is certified, and what the tree counted.

        >>> from nimlab import solve
        >>> print(solve("sn", (3, 3, 1)))  # doctest: +ELLIPSIS
        sn(3,3,1): value 1/3 for the first player (wins with probability 2/3), exact ...
        """
        if self.game is None:
            name = f"{self.variant}({','.join(map(str, self.position))})"
        else:
            name = f"{self.variant}[{self.game}]({self.notation})"
        name += " misère" if self.misere else ""
        chance = exact_str((1 + self.value) / 2)
        status = "exact (certified)" if self.exact else "not certified"
        return (
            f"{name}: value {exact_str(self.value)} for the first player (wins with probability"
            f" {chance}), {status}; {self.nodes:,} nodes and {self.infosets:,} information sets"
            f" ({self.tree}), solved by {self.method}; {self.seconds:.2f} s"
        )

    def __repr__(self) -> str:
        """The call that computes this result, e.g. ``solve('sn', [3, 3, 1])``."""
        arguments = [repr(self.variant)]
        if self.game is None:
            arguments.append(repr(list(self.position)))
        else:
            arguments.append(repr(self.notation))
        if self.misere:
            arguments.append("misere=True")
        if self.game is not None:
            arguments.append(f"game={self.game.partition('(')[0]!r}")
            if self.options:
                arguments.append(f"options={self.options!r}")
        return f"solve({', '.join(arguments)})"

    def _repr_html_(self) -> str:
        """Value, the exact certificate (bounds and method), sizes and time, and the strategy
        table when the strategies were computed."""
        where = self.game or "nim"
        shown = self.notation if self.game is not None else ",".join(map(str, self.position))
        play = " (misère)" if self.misere else ""
        certificate = self.certificate
        facts = [
            ["value", exact_str(self.value)],
            ["exact", "yes: the bounds meet" if self.exact else "no: the bounds differ"],
            ["lower bound", exact_str(certificate.lower)],
            ["upper bound", exact_str(certificate.upper)],
            ["certificate", certificate.method],
            ["nodes", str(self.nodes)],
            ["information sets", str(self.infosets)],
            ["seconds", f"{self.seconds:.3f}"],
        ]
        parts = [
            f"<div><p><b>{escape(self.variant.upper())}</b> of {escape(where)}{play} "
            f"<code>{escape(shown)}</code></p>",
            html_table([], facts),
        ]
        if self.strategies is not None:
            rows = [
                [
                    entry.player,
                    " ".join(entry.history),
                    entry.knows,
                    exact_str(entry.reach),
                    ", ".join(f"{name}: {exact_str(p)}" for name, p in entry.actions),
                ]
                for entry in self.strategies
            ]
            parts.append(html_table(["player", "history", "knows", "reach", "actions"], rows))
        parts.append("</div>")
        return "".join(parts)

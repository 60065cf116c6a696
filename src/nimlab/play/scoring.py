"""Scoring Nim against the computer at one bonus N: the position, both scores, every move with
its gain, and the computer's optimal replies. Shared by ``nimlab play scoring`` and the web
playground (``POST /api/scoring/play``).

Every counter taken scores 1 and the last one also scores N. The gain of a move is what the
mover scores minus what the opponent nets from then on, ``taken (+ N if it empties the
table) - f_N(after)``; optimal moves gain exactly ``f_N`` of the position.

>>> from fractions import Fraction
>>> match = ScoringMatch.start((2, 1), Fraction(3))
>>> match.value, [(o.to, str(o.gain), o.optimal) for o in match.options()]
(Fraction(4, 1), [((0, 1), '-2', False), ((1, 1), '4', True), ((2, 0), '-4', False)])
>>> match.play("1,1"), match.scores
(Fraction(1, 1), [Fraction(1, 1), Fraction(0, 1)])
>>> match.play("0,1"), match.play("0,0"), match.over, match.scores  # the last counter: 1 + N
(Fraction(1, 1), Fraction(4, 1), True, [Fraction(5, 1), Fraction(1, 1)])
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from nimlab.core.heaps import Heaps, format_heaps
from nimlab.errors import InvalidPositionError
from nimlab.exact import exact_str
from nimlab.play.impartial import check_play_text, open_state
from nimlab.scoring.payoff import PayoffSolution, solve_payoffs
from nimlab.scoring.play import moves, optimal_moves

__all__ = ["PLAY_MAX_CELLS", "ScoringMatch", "ScoringOption"]

PLAY_MAX_CELLS = 2_000_000
"""The largest payoff computation a match starts (cells: positions x values of N)."""


@dataclass(frozen=True)
class ScoringOption:
    """One move: the position after it, the counters taken, whether it takes the last one
    (and the bonus), its gain and whether it is optimal."""

    to: Heaps
    taken: int
    bonus: bool
    gain: Fraction
    optimal: bool

    def to_json(self) -> dict[str, Any]:
        """``to`` (a list), ``taken``, ``bonus``, ``gain`` (exact string), ``optimal``."""
        return {
            "to": list(self.to),
            "taken": self.taken,
            "bonus": self.bonus,
            "gain": exact_str(self.gain),
            "optimal": self.optimal,
        }


@dataclass
class ScoringMatch:
    """A game in progress: the heaps, the bonus, the scores of the player who moved first
    and of the other (``scores[0]``, ``scores[1]``), and whose turn it is (0 or 1)."""

    solution: PayoffSolution
    heaps: Heaps
    bonus: Fraction
    scores: list[Fraction] = field(default_factory=lambda: [Fraction(0), Fraction(0)])
    to_move: int = 0

    @classmethod
    def start(
        cls, heaps: Heaps, bonus: Fraction, *, max_cells: int = PLAY_MAX_CELLS
    ) -> ScoringMatch:
        """A new game from ``heaps`` at bonus ``bonus`` (size-checked as play is)."""
        check_play_text(format_heaps(heaps))
        return cls(solve_payoffs(heaps, max_cells=max_cells), tuple(heaps), Fraction(bonus))

    @property
    def over(self) -> bool:
        """No counter is left."""
        return not any(self.heaps)

    @property
    def value(self) -> Fraction:
        """``f_N`` here: what the player to move nets with best play from now on."""
        return self.solution.function(self.heaps)(self.bonus)

    def options(self) -> list[ScoringOption]:
        """Every move of the player to move, with its gain."""
        value = self.value
        found = []
        for taken, after in moves(self.heaps):
            last = not any(after)
            gain = taken + (self.bonus if last else 0) - self.solution.function(after)(self.bonus)
            found.append(ScoringOption(after, taken, last, gain, gain == value))
        return found

    def optimal(self) -> tuple[Heaps, ...]:
        """The positions after the optimal moves."""
        return optimal_moves(self.solution, self.heaps, self.bonus)

    def play(self, move: str | Heaps) -> Fraction:
        """Make a move, typed (``heap amount``, heaps from 1, or the position after it) or
        given as the position after it; the mover's points are returned."""
        after = self._parse(move) if isinstance(move, str) else tuple(move)
        if after not in {option.to for option in self.options()}:
            raise InvalidPositionError(
                f"illegal move {format_heaps(after)!r} from {format_heaps(self.heaps)}"
            )
        points = Fraction(sum(self.heaps) - sum(after)) + (0 if any(after) else self.bonus)
        self.scores[self.to_move] += points
        self.heaps, self.to_move = after, 1 - self.to_move
        return points

    def computer_move(self, rng: random.Random) -> Heaps:
        """An optimal move for the player to move, chosen at random among them."""
        return rng.choice(self.optimal())

    def _parse(self, text: str) -> Heaps:
        after = open_state("nim", format_heaps(self.heaps)).parse_move(text).position
        if not isinstance(after, tuple):
            raise InvalidPositionError(f"illegal move {text!r}")
        return tuple(int(h) for h in after)

    def to_json(self) -> dict[str, Any]:
        """The keys of ``POST /api/scoring/play``: ``position``, ``N``, ``f_N``, ``options``
        and ``over``."""
        return {
            "position": list(self.heaps),
            "N": exact_str(self.bonus),
            "f_N": exact_str(self.value),
            "options": [option.to_json() for option in self.options()],
            "over": self.over,
        }

"""Scoring Nim against the computer at one bonus N: the position, both scores, every move with
its gain, and the computer's optimal replies. Shared by ``nimlab play scoring`` and the web
playground (``POST /api/scoring/play``).

Every counter taken scores 1 and the last one also scores N. The gain of a move is what the
mover scores minus what the opponent nets from then on, ``taken - f_N(after)``: the bonus of a
move that empties the table is already in ``f_N(empty) = -N`` (the player to move there has
lost the bonus to the other), so it is never added again. Optimal moves gain exactly ``f_N``
of the position.

>>> from fractions import Fraction
>>> match = ScoringMatch.start((2, 1), Fraction(3))
>>> match.value, [(o.to, str(o.gain), o.optimal) for o in match.options()]
(Fraction(4, 1), [((0, 1), '-2', False), ((1, 1), '4', True), ((2, 0), '-4', False)])
>>> match.play("1,1"), match.scores
(Fraction(1, 1), [Fraction(1, 1), Fraction(0, 1)])
>>> one = ScoringMatch.start((2,), Fraction(3))  # emptying the table gains 2 + N, not 2 + 2N
>>> [(o.words, str(o.gain), o.optimal) for o in one.options()]
[('take 2 from heap 1 (the last counter)', '5', True), ('take 1 from heap 1', '-3', False)]
>>> print(one.options()[1].feedback)  # doctest: +NORMALIZE_WHITESPACE
That move nets 8 points fewer than best play (-3 instead of 5); the best was take 2 from
heap 1 (the last counter).
>>> match.play("0,1"), match.play("0,0"), match.over, match.scores  # the last counter: 1 + N
(Fraction(1, 1), Fraction(4, 1), True, [Fraction(5, 1), Fraction(1, 1)])
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from nimlab.core.heaps import Heaps, format_heaps, heap_name
from nimlab.errors import InvalidPositionError
from nimlab.exact import exact_str
from nimlab.play.impartial import check_play_text, open_state
from nimlab.scoring.payoff import PayoffSolution, solve_payoffs
from nimlab.scoring.play import moves, optimal_moves

__all__ = ["PLAY_MAX_CELLS", "ScoringMatch", "ScoringOption", "move_words"]

PLAY_MAX_CELLS = 2_000_000
"""The largest payoff computation a match starts (cells: positions x values of N)."""


@dataclass(frozen=True)
class ScoringOption:
    """One move: the position after it, the counters taken, whether it takes the last one
    (and the bonus), its gain, how far that falls short of best play (0 when optimal), the
    move in words and what to say to a player who made it."""

    to: Heaps
    taken: int
    bonus: bool
    gain: Fraction
    shortfall: Fraction
    words: str
    feedback: str

    @property
    def optimal(self) -> bool:
        """Whether the move gains as much as best play."""
        return self.shortfall == 0

    def to_json(self) -> dict[str, Any]:
        """``to`` (a list), ``taken``, ``bonus``, ``gain`` and ``shortfall`` (exact strings),
        ``optimal``, ``words`` and ``feedback``."""
        return {
            "to": list(self.to),
            "taken": self.taken,
            "bonus": self.bonus,
            "gain": exact_str(self.gain),
            "shortfall": exact_str(self.shortfall),
            "optimal": self.optimal,
            "words": self.words,
            "feedback": self.feedback,
        }


def move_words(before: Heaps, after: Heaps) -> str:
    """A move in words, heaps numbered from 1.

    >>> move_words((5, 4, 2), (5, 1, 2)), move_words((1,), (0,))
    ('take 3 from heap 2', 'take 1 from heap 1 (the last counter)')
    """
    index = next(i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b)
    last = "" if any(after) else " (the last counter)"
    return f"take {before[index] - after[index]} from {heap_name(index)}{last}"


def _points(amount: Fraction) -> str:
    return f"{exact_str(amount)} point{'' if amount == 1 else 's'}"


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
        """Every move of the player to move, with its gain (``taken - f_N(after)``) and the
        words a player who makes it is told."""
        value = self.value
        gains = [
            (taken, after, taken - self.solution.function(after)(self.bonus))
            for taken, after in moves(self.heaps)
        ]
        best = next((move_words(self.heaps, a) for _, a, gain in gains if gain == value), None)
        found = []
        for taken, after, gain in gains:
            shortfall = value - gain
            if shortfall == 0:
                feedback = f"Best play: that move nets {exact_str(gain)}, as much as any move."
            else:
                feedback = (
                    f"That move nets {_points(shortfall)} fewer than best play"
                    f" ({exact_str(gain)} instead of {exact_str(value)}); the best was {best}."
                )
            words = move_words(self.heaps, after)
            found.append(
                ScoringOption(after, taken, not any(after), gain, shortfall, words, feedback)
            )
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
        """The keys of ``POST /api/scoring/play``: ``position``, ``N``, ``f_N``, ``options``,
        ``best`` (one optimal move in words, None when the game is over) and ``over``."""
        options = self.options()
        return {
            "position": list(self.heaps),
            "N": exact_str(self.bonus),
            "f_N": exact_str(self.value),
            "options": [option.to_json() for option in options],
            "best": next((o.words for o in options if o.optimal), None),
            "over": self.over,
        }

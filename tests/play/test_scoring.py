"""Scoring Nim sessions (``nimlab.play.scoring``) against a brute-force game value."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest

from nimlab.errors import InvalidPositionError
from nimlab.play.scoring import ScoringMatch


def _net(heaps: tuple[int, ...], bonus: Fraction) -> Fraction:
    """What the player to move nets with best play (plain recursion over every move)."""

    @cache
    def best(position: tuple[int, ...]) -> Fraction:
        if not any(position):
            return Fraction(0)
        found = []
        for i, pile in enumerate(position):
            for smaller in range(pile):
                after = (*position[:i], smaller, *position[i + 1 :])
                points = pile - smaller + (bonus if not any(after) else 0)
                found.append(points - best(after))
        return max(found)

    return best(heaps)


@pytest.mark.parametrize("heaps", [(2, 1), (3, 2, 1), (4, 1), (2, 2, 2)])
@pytest.mark.parametrize("bonus", [Fraction(-3), Fraction(0), Fraction(1, 2), Fraction(5)])
def test_gains_and_optimal_play_match_brute_force(heaps: tuple[int, ...], bonus: Fraction) -> None:
    match = ScoringMatch.start(heaps, bonus)
    assert match.value == _net(heaps, bonus)
    for option in match.options():
        points = option.taken + (bonus if option.bonus else 0)
        assert option.gain == points - _net(option.to, bonus)
        assert option.optimal == (option.gain == match.value)
    # both players optimal: the first player's margin is f_N of the start
    rng = random.Random(1)
    while not match.over:
        match.play(match.computer_move(rng))
    assert match.scores[0] - match.scores[1] == _net(heaps, bonus)


def test_typed_moves_count_heaps_from_1_and_illegal_ones_are_refused() -> None:
    match = ScoringMatch.start((3, 2), Fraction(1))
    assert match.play("1 2") == 2 and match.heaps == (1, 2) and match.to_move == 1
    with pytest.raises(InvalidPositionError):
        match.play("3,3")
    assert match.to_json()["f_N"] == str(match.value) and match.to_json()["over"] is False

"""Optimal moves, intervals of N and lines of play, against the brute-force recursion."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.scoring.analysis import analyze_scoring
from nimlab.scoring.payoff import payoff_value, solve_payoffs
from nimlab.scoring.play import MoveInterval, move_intervals, moves, optimal_line, optimal_moves

positions = st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=3).map(tuple)
bonuses = st.fractions(min_value=-14, max_value=14, max_denominator=4)


@settings(max_examples=50, deadline=None)
@given(positions, bonuses)
def test_optimal_moves_match_brute_force(position: tuple[int, ...], bonus: Fraction) -> None:
    solution = solve_payoffs(position)
    value = payoff_value(position, bonus)
    expected = tuple(
        after for taken, after in moves(position) if taken - payoff_value(after, bonus) == value
    )
    assert optimal_moves(solution, position, bonus) == expected


@settings(max_examples=50, deadline=None)
@given(positions, bonuses)
def test_intervals_cover_the_axis(position: tuple[int, ...], bonus: Fraction) -> None:
    solution = solve_payoffs(position)
    intervals = move_intervals(solution, position)
    if not any(position):
        assert intervals == []
        return
    best = set(optimal_moves(solution, position, bonus))
    inside = [
        i
        for i in intervals
        if (i.low is None or i.low <= bonus) and (i.high is None or bonus <= i.high)
    ]
    assert inside
    for interval in inside:
        assert set(interval.moves) <= best  # each listed move is optimal on the closed interval
    if all(i.low != bonus and i.high != bonus for i in inside):
        assert len(inside) == 1 and set(inside[0].moves) == best  # interior: exactly those


@settings(max_examples=40, deadline=None)
@given(positions, bonuses)
def test_line_of_play_realises_the_payoff(position: tuple[int, ...], bonus: Fraction) -> None:
    solution = solve_payoffs(position)
    line = optimal_line(solution, position, bonus)
    assert line.positions[0] == position and not any(line.positions[-1])
    assert line.payoff == solution.function(position)(bonus)
    assert sum(line.scores) == sum(position) + bonus  # constant sum (seed 004, Sect. 3)


def test_interval_rendering_and_json() -> None:
    half = Fraction(1, 2)
    assert str(MoveInterval(None, None, ((0,),))) == "every N: 0"
    assert str(MoveInterval(half, half, ((1, 0),))) == "N = 1/2: 1,0"
    assert MoveInterval(None, Fraction(-4), ((5, 4, 1),)).to_json() == {
        "from": None,
        "to": "-4",
        "moves": [[5, 4, 1]],
    }


def test_terminal_and_single_pile_analysis() -> None:
    done = analyze_scoring([0, 0], bonus=3).to_json()
    assert done["payoff"] == "-3" and done["line"] == [[0, 0]] and done["optimal_moves"] == []
    assert done["normal_outcome"] == "P" and done["misere_outcome"] == "N"
    one = analyze_scoring([1]).to_json()
    assert one["breakpoints"] == [] and one["value_at_0"] == "1"  # f_N(1) = 1 + N

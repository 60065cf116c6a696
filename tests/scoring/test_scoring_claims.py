"""Every concrete claim of seed 004 (Oginuma & Shinoda, "Scoring Nim"), reproduced or refuted."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.nim.analysis import nim_outcome
from nimlab.reports.scoring_nim import check_claims, write_report
from nimlab.scoring.payoff import c_minus, c_plus, payoff_function, solve_payoffs
from nimlab.scoring.piecewise import PiecewiseLinear, maximum
from nimlab.scoring.play import line_scores, move_intervals, optimal_line, optimal_moves

F = Fraction


def absolute(shift: int) -> PiecewiseLinear:
    """|N + shift|."""
    return maximum([PiecewiseLinear.affine(1, shift), PiecewiseLinear.affine(-1, -shift)])


def big_f(k: int) -> PiecewiseLinear:
    """F_k(N) = 2 - min_{j in J_k} |N - j| (seed 004, Def. 6.2)."""
    return maximum(2 - absolute(-j) for j in range(-(2 * k - 2), 2 * k - 1, 2))


THREE = solve_payoffs([9, 9, 9])
ONES = solve_payoffs([14, 14, 1])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=6), min_size=1, max_size=4))
def test_prop_3_1_kinks_at_integers_slopes_pm1_parity(heaps: list[int]) -> None:
    # seed 004, Prop. 3.1, checked on the exact engine (which would find any rational kink)
    f = payoff_function(heaps, method="exact")
    assert all(x.denominator == 1 and y.denominator == 1 for x, y in f.breakpoints)
    assert all(abs(s) == 1 for s in f.slopes)
    for n in range(-4, 5):
        assert (f(n) - sum(heaps) - n) % 2 == 0


def test_prop_3_1_iii_slope_tells_who_takes_last_stone() -> None:
    for key in solve_payoffs([4, 4, 4]).keys:
        if not key:
            continue
        f = THREE.function(key)
        for n in (F(-7, 2), F(1, 2), F(11, 2)):
            line = optimal_line(THREE, key, n)
            first_takes_last = len(line.positions) % 2 == 0
            assert first_takes_last == (f.slopes[sum(x < n for x, _ in f.breakpoints)] == 1)


def test_limits_are_normal_and_misere_nim() -> None:
    # seed 004, Sect. 1 / Def. 5.4: N -> +inf normal play, N -> -inf misère play
    for key in THREE.keys:
        f = THREE.function(key)
        assert (f.slope_right < 0) == (nim_outcome(key).value == "P")
        assert (f.slope_left > 0) == (nim_outcome(key, misere=True).value == "P")


def test_eq_1_and_prop_4_1() -> None:
    assert payoff_function([1]) == PiecewiseLinear.affine(1, 1)  # f_N(1) = 1 + N (eq. 1)
    assert payoff_function([1, 1]) == PiecewiseLinear.affine(-1, 0)  # f_N(1,1) = -N (Prop. 4.1)
    for x in range(2, 10):
        assert THREE.function([x]) == absolute(1) + (x - 1)  # x - 1 + |1+N| (eq. 1)
        assert THREE.function([x, 1]) == absolute(0) + (x - 1)  # x - 1 + |N| (Prop. 4.1)
        assert optimal_moves(THREE, (x, 1), F(1, 2)) == ((1, 1),)
        assert optimal_moves(THREE, (x, 1), F(-1, 2)) == ((0, 1),)


def test_prop_4_2_two_piles() -> None:
    bumpy = maximum([1 - absolute(1), absolute(1) - 1])
    for x in range(2, 10):
        assert THREE.function([x, x]) == 1 - absolute(1)  # eq. (3)
        for y in range(2, x):
            assert THREE.function([x, y]) == bumpy + (x - y)  # eq. (4)
            assert optimal_moves(THREE, (x, y), F(-1)) == ((0, y),)  # greedy inside (-2, 0)
            assert optimal_moves(THREE, (x, y), F(1, 2)) == ((y, y),)  # equalise outside


def test_prop_4_2_equal_piles_move_is_not_unique() -> None:
    # seed 004 says "the optimal move is to take all stones from one pile"; it is *an* optimal
    # move, the only one just for -2 < N < 0
    assert set(optimal_moves(THREE, (4, 4), F(-1))) == {(0, 4), (4, 0)}
    assert (2, 4) in optimal_moves(THREE, (4, 4), F(1, 2))


def test_props_5_1_5_2_5_3() -> None:
    four = solve_payoffs([6, 6, 6, 6])
    for key in four.keys:
        f = four.function(key)
        if len(key) >= 2 and key[:2] == (1, 1):
            assert f == four.function(key[2:])  # Prop. 5.1
        paired = len(key) % 2 == 0 and all(key[i] == key[i + 1] for i in range(0, len(key), 2))
        if key and paired and key[-1] >= 2:
            assert f == 1 - absolute(1)  # Prop. 5.2
        if key:
            q = sorted(key, reverse=True)
            alternating = sum(q[0::2]) - sum(q[1::2])
            for n in (F(-1), F(-1, 2), F(0)):  # Prop. 5.3
                assert f(n) == (alternating + n if len(q) % 2 else alternating - n)


def test_prop_5_5_thresholds_and_c_values() -> None:
    for key in THREE.keys:
        f = THREE.function(key)
        xs = [x for x, _ in f.breakpoints]
        if xs:
            assert xs[-1] <= sum(key) - 2 and xs[0] >= -sum(key)
        assert c_plus(key) == f.intercept_right and c_minus(key) == f.intercept_left
    assert c_plus([3, 2, 1]) == 2 and c_minus([3, 2, 1]) == 2  # Sect. 5
    assert c_plus([5, 4, 2]) == -3  # Sect. 5: 4 stones against 7
    for k in range(1, 7):
        assert c_plus([2 * k + 1, 2 * k, 1]) == c_minus([2 * k + 1, 2 * k, 1]) == 2 * k  # eq. (5)


def test_prop_6_1() -> None:
    assert THREE.function([1, 1, 1]) == PiecewiseLinear.affine(1, 1)
    for x in range(1, 10):
        for z in range(1, 10):
            if max(x, z) >= 2:
                assert THREE.function([x, x, z]) == absolute(1) + (z - 1)  # eq. (6)


@pytest.mark.parametrize("k", range(1, 7))
def test_theorem_6_3_and_corollary_6_4(k: int) -> None:
    fk = big_f(k)
    assert ONES.function([2 * k + 1, 2 * k, 1]) == fk  # (i)
    assert len(fk.breakpoints) == 4 * k - 3
    for x in range(2 * k + 2, 15):
        g = ONES.function([x, 2 * k, 1])
        assert g == maximum([fk, absolute(0) - 2 * k]) + (x - 2 * k - 1)  # (ii)
        assert min(y for _, y in g.breakpoints) == x - 2 * k - 1  # Cor. 6.4(ii)
        assert [n for n, y in g.breakpoints if y == x - 2 * k - 1] == [-2 * k, 2 * k]
        if 2 * k + 1 < x:
            h = ONES.function([x, 2 * k + 1, 1])
            assert h == maximum([fk, absolute(0) - (2 * k - 2)]) + (x - 2 * k - 2)  # (iii)
            assert min(y for _, y in h.breakpoints) >= x - 2 * k - 1  # Cor. 6.4(iii)


def test_fig_2_and_section_2_move_table() -> None:
    solution = solve_payoffs([5, 4, 2])
    table = [(i.low, i.high, set(i.moves)) for i in move_intervals(solution, (5, 4, 2))]
    assert table == [  # seed 004, Sect. 2
        (None, F(-4), {(5, 4, 1)}),
        (F(-4), F(-1), {(1, 4, 2), (0, 4, 2)}),
        (F(-1), F(1), {(0, 4, 2)}),
        (F(1), F(4), {(1, 4, 2)}),
        (F(4), None, {(5, 4, 1)}),
    ]
    line = [(5, 4, 2), (1, 4, 2), (1, 3, 2), (1, 0, 2), (1, 0, 1), (1, 0, 0), (0, 0, 0)]
    for before, after in pairwise(line):
        assert after in optimal_moves(solution, before, 3)
    assert line_scores(line, 3)[-1] == (8, 6)  # 8 points against 3 + N = 6


def test_section_6_move_table_9_8_1() -> None:
    solution = solve_payoffs([9, 8, 1])
    for sign in (1, -1):  # seed 004, Sect. 6: the table depends on |N|
        for n, move in [(F(1, 2), (0, 8, 1)), (2, (2, 8, 1)), (4, (4, 8, 1)), (7, (6, 8, 1))]:
            assert optimal_moves(solution, (9, 8, 1), sign * n) == (move,)


def test_example_10_8_1_is_wrong_for_negative_n() -> None:
    f = payoff_function([10, 8, 1])
    for n in (6, 7, 8):
        assert f(n) == 9 - n  # as printed, for N > 0
        assert f(-n) == 9 - n  # the paper's "9 - N" would give 9 + n: it should be 9 - |N|
    for n in (8, 10):
        assert f(n) == f(-n) == n - 7  # "N - 7" should be |N| - 7


def test_remark_6_5_symmetry() -> None:
    f = payoff_function([5, 4, 3])
    assert any(f(n) != f(-n) for n in range(8)) and any(f(-1 + n) != f(-1 - n) for n in range(8))
    g = payoff_function([4, 4, 2])
    assert all(g(-1 + n) == g(-1 - n) for n in range(12))


def test_reproduce_report_verdicts(tmp_path: Path) -> None:
    wrong = {c.ref for c in check_claims(small=True) if not c.holds}
    assert wrong == {"Fig. 1", "Prop. 4.2 (text)", "Sect. 5, c-(3,2,1)", "Ex. (10,8,1)"}
    report = write_report(tmp_path, small=True)
    text = report.read_text()
    assert "WRONG" in text and "9-|N|" in text
    assert len(list(tmp_path.glob("fig*.png"))) == 5

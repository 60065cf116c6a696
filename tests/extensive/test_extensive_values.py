"""Values of the paper's variants recomputed exactly (seed 000: van den Bergh et al.)."""

from __future__ import annotations

from fractions import Fraction
from functools import reduce
from operator import xor

import pytest

from nimlab.hidden.solve import solve


def value(variant: str, *heaps: int, misere: bool = False) -> Fraction:
    result = solve(variant, heaps, misere=misere)
    assert result.exact, result.certificate
    return result.value


@pytest.mark.parametrize(
    ("heaps", "expected"),
    [
        pytest.param((3, 3, 1), Fraction(1, 3), id="sn-3-3-1"),  # seed 000, Fig. 2
        pytest.param((3, 2, 1), Fraction(0), id="sn-3-2-1"),  # seed 000, Table 1
        pytest.param((4, 2, 1), Fraction(1, 2), id="sn-4-2-1"),  # Table 1, (n1,2,1) n1>=4
        pytest.param((5, 2, 1), Fraction(1, 2), id="sn-5-2-1"),  # Table 1
        pytest.param((4, 3, 1), Fraction(1, 3), id="sn-4-3-1"),  # Table 1, (n1,3,1)
        pytest.param((3, 2, 2), Fraction(1), id="sn-3-2-2"),  # Table 1, (n1,2,2)
        pytest.param((3, 3, 2), Fraction(1, 3), id="sn-3-3-2"),  # Table 1, (n1,n2,2)
        pytest.param((4, 1, 1), Fraction(1), id="sn-4-1-1"),  # Table 1, (n1,1,1)
        pytest.param((4, 4, 1), Fraction(1, 5), id="sn-4-4-1"),  # Table 2
        pytest.param((5, 4, 1), Fraction(1, 4), id="sn-5-4-1"),  # Table 2, Corollary 3.1
    ],
)
def test_schrodinger_tables(heaps: tuple[int, ...], expected: Fraction) -> None:
    assert value("sn", *heaps) == expected


@pytest.mark.parametrize("heaps", [(3, 3), (3, 4), (5, 3), (3, 3, 3)])
def test_theorem_3_1_large_heaps_value_zero(heaps: tuple[int, ...]) -> None:
    # seed 000, Theorem 3.1: every heap >= 3, d >= 2 -> value 0
    assert value("sn", *heaps) == 0


@pytest.mark.parametrize(
    "heaps", [(1,), (2,), (2, 1), (2, 2), (1, 1, 1), (2, 2, 1), (2, 1, 1), (2, 2, 2)]
)
def test_small_heaps_are_plain_nim(heaps: tuple[int, ...]) -> None:
    # seed 000, section 3.1: heaps of at most 2 chips make SN(n) equivalent to NIM(n)
    expected = 1 if reduce(xor, heaps) else -1
    assert value("sn", *heaps) == expected


def fsn_theorem(heaps: tuple[int, ...], misere: bool) -> int:
    # seed 000, Theorems 4.1 (normal) and 4.2 (misère)
    big = sum(1 for h in heaps if h > 1)
    if big == 0:
        odd = len(heaps) % 2 == 1
        return (1 if odd else -1) * (-1 if misere else 1)
    return 1 if big == 1 else 0


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize(
    "heaps",
    [(1,), (1, 1), (1, 1, 1), (3,), (2, 1), (3, 1, 1), (2, 2), (3, 2), (2, 2, 1), (3, 2, 1)],
)
def test_theorems_4_1_and_4_2_fuzzy(heaps: tuple[int, ...], misere: bool) -> None:
    assert value("fsn", *heaps, misere=misere) == fsn_theorem(heaps, misere)


@pytest.mark.parametrize("heaps", [(2, 2), (3, 2), (3, 3), (4, 2)])
def test_theorem_5_1_kriegspiel_two_heaps(heaps: tuple[int, ...]) -> None:
    # seed 000, Theorem 5.1: KN(n1, n2) = 0 for n1, n2 >= 2
    assert value("kn", *heaps) == 0


@pytest.mark.parametrize("n", [2, 3, 4])
def test_kriegspiel_one_small_heap_wins(n: int) -> None:
    # seed 000, section 5: KN(n) and KN(n, 1) (n >= 2) are won by L
    assert value("kn", n) == 1
    assert value("kn", n, 1) == 1


@pytest.mark.parametrize("heaps", [(2, 2), (3, 2), (3, 3)])
def test_kriegspiel_empty_two_big_heaps_match_kriegspiel(heaps: tuple[int, ...]) -> None:
    # seed 000, end of section 5: kn-empty values equal KN values for two heaps
    assert value("kn-empty", *heaps) == value("kn", *heaps) == 0


@pytest.mark.parametrize("n", [2, 3])
def test_kriegspiel_empty_silent_pass_breaks_the_one_heap_win(n: int) -> None:
    # Our finding (not the paper's claim): with silent passes on empty heaps, KN-empty(n, 1)
    # is 0 while KN(n, 1) = 1: after L leaves (1, 1) and R empties one heap, L may ask for
    # the empty one and pass silently.
    assert value("kn-empty", n) == 1
    assert value("kn-empty", n, 1) == 0


def test_misere_schrodinger_small_heaps_follow_misere_nim() -> None:
    # misère Nim: L wins iff (some heap > 1 and nim-sum != 0) or (all <= 1 and nim-sum == 0)
    for heaps in [(1,), (1, 1), (2,), (2, 1), (2, 2), (1, 1, 1), (2, 2, 1)]:
        nim_sum = reduce(xor, heaps)
        wins = nim_sum != 0 if max(heaps) > 1 else nim_sum == 0
        assert value("sn", *heaps, misere=True) == (1 if wins else -1), heaps


def test_lemma_3_2_bounds_and_lemma_3_1_monotone() -> None:
    # seed 000, Lemma 3.2: v in [0, 1/4] for n1, n2 >= 4; Lemma 3.1: non-decreasing in n1
    v44, v54 = value("sn", 4, 4, 1), value("sn", 5, 4, 1)
    assert 0 <= v44 <= v54 <= Fraction(1, 4)

"""Nimber arithmetic: field axioms, the lecture notes' table, and the mex definitions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nimlab import InvalidPositionError
from nimlab.nimbers import nim_inverse, nim_power, nim_product, nim_sqrt, nim_sum, nim_table
from nimlab.nimbers.tables import nim_table_by_mex
from tests.strategies import nimbers

# The nim-sum table of 0..7 as printed in seed 001 ("The Nim sum table for the first 8 nimbers"),
# one row per line of the seed with the row label dropped.
SEED_001_NIM_SUM_ROWS = """
01234567
10325476
23016745
32107654
45670123
54761032
67452301
76543210
"""


def test_seed_001_nim_sum_table_is_regenerated_by_the_mex_definition() -> None:
    expected = [[int(c) for c in row] for row in SEED_001_NIM_SUM_ROWS.split()]
    assert nim_table_by_mex("sum", 8) == expected
    assert nim_table("sum", 8) == expected


def test_fast_product_agrees_with_the_mex_definition_on_0_to_31() -> None:
    assert nim_table("product", 32) == nim_table_by_mex("product", 32)


def test_fermat_two_powers() -> None:
    # Distinct Fermat 2-powers multiply as integers; a Fermat 2-power squared is 3/2 of itself.
    fermat = [2 ** (2**k) for k in range(8)]
    for i, a in enumerate(fermat):
        for b in fermat[i + 1 :]:
            assert nim_product(a, b) == a * b
        assert nim_product(a, a) == 3 * a // 2


@given(nimbers, nimbers, nimbers)
def test_field_axioms(a: int, b: int, c: int) -> None:
    assert nim_sum(a, b) == nim_sum(b, a)
    assert nim_product(a, b) == nim_product(b, a)
    assert nim_product(a, nim_product(b, c)) == nim_product(nim_product(a, b), c)
    assert nim_product(a, nim_sum(b, c)) == nim_sum(nim_product(a, b), nim_product(a, c))
    assert nim_product(a, 1) == a
    assert nim_product(a, 0) == 0


@given(nimbers.filter(lambda x: x > 0))
def test_inverse_and_square_root(a: int) -> None:
    assert nim_product(a, nim_inverse(a)) == 1
    root = nim_sqrt(a)
    assert nim_product(root, root) == a


@given(st.integers(0, 2**40), st.integers(0, 50))
def test_power_is_repeated_product(a: int, e: int) -> None:
    expected = 1
    for _ in range(e):
        expected = nim_product(expected, a)
    assert nim_power(a, e) == expected


def test_products_stay_in_their_subfield() -> None:
    for bits in (8, 16, 32, 64, 128):
        top = 2**bits - 1
        assert nim_product(top, top) < 2**bits


def test_bad_nimbers_raise() -> None:
    with pytest.raises(InvalidPositionError, match="-1"):
        nim_sum(3, -1)
    with pytest.raises(InvalidPositionError):
        nim_product(True, 2)
    with pytest.raises(InvalidPositionError, match="no multiplicative inverse"):
        nim_inverse(0)
    with pytest.raises(InvalidPositionError, match="unknown nimber operation"):
        nim_table("quotient", 4)


@given(nimbers, nimbers)
def test_table_driven_product_matches_the_plain_recursion(a: int, b: int) -> None:
    from nimlab.nimbers.arithmetic import _mul_by_recursion

    bits = 256
    assert nim_product(a, b) == _mul_by_recursion(a, b, bits)

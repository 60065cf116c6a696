"""Guessed patterns (:mod:`nimlab.patterns`): each model finds its own kind of sequence, a
guess never uses the held-out values, and what it was made from it reproduces."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nimlab.patterns import guess_and_check
from nimlab.reports.nim_variants import fibonacci


def _family(rule: object, first: int, count: int) -> dict[int, Fraction]:
    assert callable(rule)
    return {n: Fraction(rule(n)) for n in range(first, first + count)}


@pytest.mark.parametrize(
    ("values", "model", "formula"),
    [
        (
            _family(lambda n: Fraction(fibonacci(2 * n - 6), fibonacci(2 * n - 3)), 4, 7),
            "Möbius recurrence",
            "v(n+1) = (v(n) + 1)/(v(n) + 5) for n >= 4",
        ),
        (_family(fibonacci, 1, 8), "linear recurrence of order 2", "v(n) = v(n-1) + v(n-2)"),
        (_family(lambda n: 3 * 2**n, 0, 4), "linear recurrence of order 1", "v(n) = 2 v(n-1)"),
        (
            _family(lambda n: Fraction(n, n + 1), 1, 6),
            "ratio of linear functions of n",
            "v(n) = n/(n + 1) for n >= 1",
        ),
        (
            {4: Fraction(1, 5), **_family(lambda n: Fraction(1, 4), 5, 4)},
            "constant",
            "v(n) = 1/4 for n >= 5",
        ),
        (
            _family(lambda n: n**2 + 1, 0, 8),
            "linear recurrence of order 3",
            "v(n) = 3 v(n-1) - 3 v(n-2) + v(n-3)",
        ),
    ],
)
def test_each_model_finds_its_kind_and_is_confirmed(
    values: dict[int, Fraction], model: str, formula: str
) -> None:
    conjecture = guess_and_check(values, held_out=1)
    assert conjecture is not None
    assert conjecture.model == model and conjecture.formula.startswith(formula)
    assert conjecture.confirmed and conjecture.spare >= 1
    last = max(values)
    assert [c.n for c in conjecture.checks] == [last]
    assert all(n < last for n, _ in conjecture.made_from)


def test_a_wrong_guess_is_reported_as_failing_its_check() -> None:
    """Constant on the values it saw, then a different value: the check fails."""
    values = {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3), 4: Fraction(2, 7)}
    conjecture = guess_and_check(values, held_out=1)
    assert conjecture is not None and conjecture.formula == "v(n) = 1/3 for n >= 1"
    assert not conjecture.confirmed
    assert conjecture.to_json()["checks"] == [
        {"n": 4, "predicted": "1/3", "computed": "2/7", "holds": False}
    ]


def test_too_few_values_give_no_guess_and_gaps_are_refused() -> None:
    assert guess_and_check({1: Fraction(1), 2: Fraction(3)}, held_out=1) is None
    with pytest.raises(ValueError, match="consecutive"):
        guess_and_check({1: Fraction(1), 3: Fraction(2)})


rationals = st.fractions(min_value=-20, max_value=20, max_denominator=12)


@given(st.lists(rationals, min_size=2, max_size=9), st.integers(-5, 5), st.integers(0, 3))
def test_a_guess_reproduces_what_it_was_made_from(
    values: list[Fraction], first: int, held_out: int
) -> None:
    """Whatever the data, a guess predicts every value it was made from and sees none of the
    held-out ones."""
    family = dict(enumerate(values, start=first))
    conjecture = guess_and_check(family, held_out=min(held_out, len(values) - 1))
    if conjecture is None:
        return
    for n, value in conjecture.made_from:
        assert conjecture.predict(n) == value
    seen = len(values) - len(conjecture.checks)
    assert {n for n, _ in conjecture.made_from} <= set(range(first, first + seen))
    assert conjecture.spare >= 1


@given(
    st.tuples(st.integers(-3, 3), st.integers(-3, 3)).filter(lambda c: c[1] != 0),
    st.tuples(st.integers(-9, 9), st.integers(-9, 9)),
)
def test_a_linear_recurrence_of_order_two_is_found_or_a_simpler_rule_fits(
    coefficients: tuple[int, int], start: tuple[int, int]
) -> None:
    """Seven terms of v(n) = c1 v(n-1) + c2 v(n-2), the last held out: the guess is
    confirmed, unless the terms seen also follow a rule with fewer coefficients."""
    terms = list(start)
    while len(terms) < 7:
        terms.append(coefficients[0] * terms[-1] + coefficients[1] * terms[-2])
    conjecture = guess_and_check({n: Fraction(t) for n, t in enumerate(terms)}, held_out=1)
    assert conjecture is not None
    if not conjecture.confirmed:
        assert conjecture.model in ("constant", "linear recurrence of order 1")

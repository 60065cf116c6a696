"""The laws of short games, as properties over random games (and exact thermal facts)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies_cgt import games, minimax_outcome, pair_outcome

from nimlab.cgt import ZERO, Game, game, number, parse_game, star, switch, up
from nimlab.cgt.game import neg

DYADIC = st.builds(lambda n, k: Fraction(n, 2**k), st.integers(-12, 12), st.integers(0, 3))
POSITIVE = st.builds(lambda n, k: Fraction(n, 2**k), st.integers(1, 12), st.integers(0, 3))


@given(games)
def test_negative_cancels(g: Game) -> None:
    assert g + (-g) is ZERO
    assert neg(neg(g)) is g


@given(games)
def test_canonical_form_is_idempotent_and_round_trips(g: Game) -> None:
    assert game(g.left, g.right) is g
    assert parse_game(str(g)) is g


@given(games, games)
def test_equal_values_are_one_object(g: Game, h: Game) -> None:
    """Uniqueness of canonical forms: g <= h <= g only for the same interned form."""
    assert (g <= h and h <= g) == (g is h)
    assert (g - h is ZERO) == (g is h)


@given(games, games, games)
@settings(max_examples=60)
def test_order_is_a_partial_order(g: Game, h: Game, k: Game) -> None:
    assert g <= g
    if g <= h and h <= k:
        assert g <= k
    assert (g < h) == (g <= h and g is not h)
    assert g.confused(h) == (not g <= h and not h <= g)
    # g <= h iff h - g >= 0
    assert (g <= h) == (h - g >= 0)


@given(games)
def test_outcome_is_the_game_tree_search(g: Game) -> None:
    assert g.outcome == minimax_outcome(g)
    # g >= 0 iff Left wins moving second
    assert (g >= 0) == (minimax_outcome(g) in ("L", "P"))
    assert (g <= 0) == (minimax_outcome(g) in ("R", "P"))


@given(games, games)
@settings(max_examples=80)
def test_sum_outcome_by_search_over_pairs(g: Game, h: Game) -> None:
    """The canonical sum has the outcome of the unreduced sum (searched without any sum)."""
    assert (g + h).outcome == pair_outcome(g, h)
    assert g + h is h + g


@given(games, games, games)
@settings(max_examples=40)
def test_sum_is_associative(g: Game, h: Game, k: Game) -> None:
    assert (g + h) + k is g + (h + k)


@given(games)
def test_stops_and_temperature(g: Game) -> None:
    assert g.left_stop >= g.right_stop
    if g.is_number:
        assert g.temperature < 0 and g.mean == g.number
    else:
        assert g.temperature >= 0
        assert g.right_stop <= g.mean <= g.left_stop


@given(games, games)
@settings(max_examples=60)
def test_mean_is_additive_and_temperature_subadditive(g: Game, h: Game) -> None:
    s = g + h
    assert s.mean == g.mean + h.mean
    if not s.is_number:
        assert s.temperature <= max(g.temperature, h.temperature)


@given(DYADIC, DYADIC, POSITIVE)
def test_numbers_and_switches(x: Fraction, centre: Fraction, radius: Fraction) -> None:
    """x + {c+r | c-r}: mean x + c, temperature r; numbers add exactly."""
    sw = switch(centre + radius, centre - radius)
    total = number(x) + sw
    assert total.mean == x + centre
    assert total.temperature == radius
    assert total.left_stop == x + centre + radius and total.right_stop == x + centre - radius
    assert (number(x) + number(centre)).number == x + centre
    assert number(x).temperature == Fraction(-1, x.denominator)


@given(st.lists(POSITIVE, min_size=1, max_size=4))
def test_sum_of_switches(radii: list[Fraction]) -> None:
    """A sum of ±r's: mean 0, temperature the largest r (or a number when they cancel)."""
    total = ZERO
    for r in radii:
        total = total + switch(r, -r)
    assert total.mean == 0
    if not total.is_number:
        assert total.temperature <= max(radii)


def test_small_infinitesimals() -> None:
    u = up()
    assert u > 0 and u.confused(star(1)) and (u + star(1)).confused(0)  # ^ || *
    assert u + u + star(1) > 0  # ^^* > 0
    assert str(u + u) == "^^" and str(-u) == "v" and str(u + star(1)) == "^*"
    assert u < number(Fraction(1, 1 << 20))
    tiny2 = parse_game("{0||0|-2}")
    assert 0 < tiny2 < u


def test_twenty_component_sum_is_fast() -> None:
    import time

    parts = [parse_game(t) for t in ("{2|-1/2}", "^*", "±1", "{0||0|-2}", "3/4")] * 4
    start = time.perf_counter()
    total = ZERO
    for g in parts:
        total = total + g
    assert time.perf_counter() - start < 30  # generous; measured well under a second
    assert total.mean == 4 * (Fraction(3, 4) + Fraction(3, 4))


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("{2|-1/2}", "{2|-1/2}"),
        ("±1", "±1"),
        ("1/2", "1/2"),
        ("^", "^"),
        ("↑", "^"),
        ("v", "v"),
        ("↓", "v"),
        ("^*", "^*"),
        ("*2", "*2"),
        ("{0||0|-2}", "{0||0|-2}"),
        ("3/4", "3/4"),
        ("-2", "-2"),
        ("^2", "^^"),
        ("^^", "^^"),
        ("{0|^*}", "^^"),
        ("*3 + *", "*2"),
        ("1/2 + 1/2", "1"),
        ("{1|1}", "1*"),
        ("-1v*", "-1v*"),
        ("±1 + ±1", "0"),
        ("{0,*|0}", "^*"),
        ("2±1", "{3|1}"),
    ],
)
def test_notation(text: str, shown: str) -> None:
    g = parse_game(text)
    assert str(g) == shown
    assert parse_game(str(g)) is g


@pytest.mark.parametrize("bad", ["", "{1|", "1/3", "{1||2||3}", "*x", "x", "1 +", "{1|2}}"])
def test_bad_notation(bad: str) -> None:
    from nimlab.errors import InvalidPositionError

    with pytest.raises(InvalidPositionError):
        parse_game(bad)

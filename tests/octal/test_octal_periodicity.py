"""find_period: proven periods by the octal periodicity theorem, checked against long runs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.errors import InvalidPositionError
from nimlab.octal import OctalCode, Periodicity, find_period, grundy_sequence, proof_length

codes = st.builds(
    lambda head, tail: OctalCode.parse(f"{head}." + "".join(map(str, tail))),
    st.sampled_from([0, 4]),
    st.lists(st.integers(0, 7), min_size=0, max_size=4),
)


def _proven(text: str, period: int, preperiod: int) -> tuple[OctalCode, list[int]]:
    """The values of ``text`` exactly as far as the theorem needs for the expected answer."""
    code = OctalCode.parse(text)
    length = proof_length(code, Periodicity(period, preperiod))
    return code, grundy_sequence(code, length - 1)


@pytest.mark.parametrize(
    ("text", "period", "preperiod"),
    [
        # Kayles: period 12, last exceptional value at n = 70 (Winning Ways ch. 4; OEIS A002186)
        pytest.param("0.77", 12, 71, id="kayles"),
        # Dawson's chess: period 34, exceptions n = 0, 14, 16, 17, 31, 34, 51 (OEIS A002187)
        pytest.param("0.137", 34, 52, id="dawsons-chess"),
        # Dawson's Kayles is Dawson's chess shifted by one heap: last exception n = 52
        pytest.param("0.07", 34, 53, id="dawsons-kayles"),
        # .127: period 4, last exception n = 46577 (Gangolli & Plambeck 1989; OEIS A071464)
        pytest.param("0.127", 4, 46578, id="0.127"),
        # .16: period 149459, last exception n = 105350 (Gangolli & Plambeck 1989; OEIS A071430)
        pytest.param("0.16", 149459, 105351, id="0.16"),
        # .56: period 144 (Gangolli & Plambeck 1989; OEIS A071436). OEIS says the last
        # exception is n = 326637; we find g(326639) != g(326783), checked by a direct mex.
        pytest.param("0.56", 144, 326640, id="0.56"),
    ],
)
def test_known_periods_are_proven(text: str, period: int, preperiod: int) -> None:
    code, values = _proven(text, period, preperiod)
    assert find_period(code, values) == Periodicity(period, preperiod)
    last = preperiod - 1
    assert values[last] != values[last + period]
    # one value fewer and the theorem no longer applies
    assert find_period(code, values[:-1]) is None


def test_dawsons_kayles_is_dawsons_chess_shifted() -> None:
    kayles = grundy_sequence(OctalCode.parse("0.07"), 300)
    chess = grundy_sequence(OctalCode.parse("0.137"), 299)
    assert kayles[1:] == chess


def test_too_few_values_prove_nothing() -> None:
    code = OctalCode.parse("0.77")
    assert find_period(code, []) is None
    assert find_period(code, [0]) is None
    assert find_period(code, grundy_sequence(code, 150)) is None


def test_trivial_games() -> None:
    assert find_period(OctalCode.parse("0.0"), [0] * 4) == Periodicity(1, 0)
    assert find_period(OctalCode.parse("0.0"), [0] * 3) is None
    nim = OctalCode.parse("0.333")  # remove 1, 2 or 3: g(n) = n mod 4
    assert find_period(nim, grundy_sequence(nim, 20)) == Periodicity(4, 0)


def test_negative_values_are_refused() -> None:
    with pytest.raises(InvalidPositionError):
        find_period(OctalCode.parse("0.7"), [0, -1, 0])


@settings(max_examples=40, deadline=None)
@given(codes)
def test_a_proven_period_holds_far_beyond_and_is_least(code: OctalCode) -> None:
    values = grundy_sequence(code, 299, method="sparse")
    found = find_period(code, values)
    longer = grundy_sequence(code, 1499, method="sparse")
    if found is None:
        return
    p, n0 = found.period, found.preperiod
    assert find_period(code, longer) == found
    assert all(longer[n + p] == longer[n] for n in range(n0, len(longer) - p))
    if n0 > 0:
        assert longer[n0 - 1 + p] != longer[n0 - 1]
    for q in range(1, p):
        if p % q == 0:
            assert any(longer[n + q] != longer[n] for n in range(n0, n0 + p))

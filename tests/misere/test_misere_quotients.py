"""Misère quotients against brute force: every sum of up to four heaps of at most 12, random
codes and sums beyond (hypothesis), even orders, the tame quotients of Nim, certificates."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.errors import InvalidPositionError
from nimlab.octal import OctalCode
from nimlab.quotients import BruteMisere, MisereQuotient, misere_quotient, words_upto
from nimlab.quotients.certificate import check_certificate

# Kayles, Dawson's Kayles, 0.137 (Dawson's chess), and two-digit codes whose quotients grow
# at different heaps; 4.7 (split a heap, or take one) separately: its sums of four heaps have
# too many positions for a quick search.
CODES = ("0.77", "0.07", "0.137", "0.6", "0.16", "0.31", "0.75")


@cache
def _quotient(code: str, upto: int) -> MisereQuotient:
    return misere_quotient(code, upto)


@cache
def _brute(code: str) -> BruteMisere:
    return BruteMisere(OctalCode.parse(code).heap_options)


@pytest.mark.parametrize("code", CODES)
def test_every_sum_of_four_heaps_up_to_12(code: str) -> None:
    quotient, brute = _quotient(code, 12), _brute(code)
    wrong = [w for w in words_upto(4, 12) if quotient.is_p(w) != brute.is_p(w)]
    assert wrong == []
    assert quotient.certified_to == 12


def test_4_7_every_sum_of_three_heaps_up_to_12() -> None:
    quotient, brute = _quotient("4.7", 12), _brute("4.7")
    assert [w for w in words_upto(3, 12) if quotient.is_p(w) != brute.is_p(w)] == []


codes = st.builds(
    lambda head, tail: f"{head}." + "".join(map(str, tail)),
    st.sampled_from([0, 0, 0, 4]),
    st.lists(st.integers(0, 7), min_size=1, max_size=3),
)


@settings(max_examples=25)
@given(code=codes, heaps=st.lists(st.integers(0, 16), min_size=1, max_size=3))
def test_random_codes_and_sums(code: str, heaps: list[int]) -> None:
    try:
        parsed = OctalCode.parse(code)
    except InvalidPositionError:
        return  # a code hypothesis built that is not an octal code (e.g. 0.0)
    quotient = misere_quotient(parsed, max(heaps), seconds=20)
    if not quotient.settled:
        return  # not within the time: nothing is claimed
    assert quotient.is_p(heaps) == BruteMisere(parsed.heap_options).is_p(heaps)
    assert all(order % 2 == 0 for order in quotient.orders if order > 1)


@pytest.mark.parametrize("code", CODES)
def test_orders_are_even(code: str) -> None:
    # Rubinstein-Salzedo and Zhou (2026): impartial misère quotients have even order; Q_n is
    # trivial (order 1) only while no heap has a move
    quotient = _quotient(code, 12)
    for n, order in enumerate(quotient.orders):
        assert order == 1 or order % 2 == 0, (code, n, order)


def _nim(n: int) -> list[tuple[int, ...]]:
    return [(k,) if k else () for k in range(n)]


@pytest.mark.parametrize("bits", [2, 3, 4])
def test_nim_below_a_power_of_two_is_tame(bits: int) -> None:
    # seed 002: misère Nim is the nim-sum rule except that heaps of one decide by parity; in
    # monoid form the quotient of heaps below 2^n has order 2^n + 2 and |P| = 2
    quotient = misere_quotient(_nim, (1 << bits) - 1, name="nim")
    assert (quotient.order, quotient.p_order, quotient.tame) == ((1 << bits) + 2, 2, True)
    brute = BruteMisere(_nim)
    assert all(quotient.is_p(w) == brute.is_p(w) for w in words_upto(3, (1 << bits) - 1))


def test_wild_quotients_are_not_tame() -> None:
    assert not _quotient("0.77", 12).tame
    assert misere_quotient("0.31").tame is True  # 0.31: a heap of 1 or a heap of 2 as Nim


def test_kayles_is_periodic_and_answers_huge_heaps() -> None:
    kayles = misere_quotient("0.77")
    assert (kayles.period, kayles.preperiod) == (12, 71)
    assert kayles.certified_to == 2 * 71 + 2 * 12 + 2 - 1  # the periodicity proof's length
    # a huge sum costs a product of three elements; a smaller one with the same elements agrees
    big = kayles.is_p((1000, 2001, 77))
    small = tuple(71 + (h - 71) % 12 for h in (1000, 2001, 77))
    assert big == kayles.is_p(small)
    assert kayles.element(10**18) == kayles.element(71 + (10**18 - 71) % 12)


def test_partial_quotient_refuses_heaps_beyond_it() -> None:
    with pytest.raises(InvalidPositionError, match="certified to heap 10"):
        misere_quotient("0.07", 10).is_p((11,))


@pytest.mark.parametrize("code", ["0.77", "0.07", "4.7"])
def test_certificates_recheck(code: str) -> None:
    message = check_certificate(_quotient(code, 12).certificate(), count=3, largest=10)
    assert message.startswith(f"{OctalCode.parse(code)}: proof checked for heaps up to 12")


def test_a_tampered_certificate_fails() -> None:
    cert = _quotient("0.77", 12).certificate()
    cert["phi"][5] = cert["phi"][4]
    with pytest.raises(ValueError, match="certificate fails"):
        check_certificate(cert, count=2, largest=6)


def test_presentation_names_every_element() -> None:
    quotient = _quotient("0.77", 12)
    assert len(set(quotient.names)) == quotient.order and "?" not in quotient.names
    assert quotient.pretending[:4] == ["1", "a", "b", "ab"]
    assert "a^2 = 1" in quotient.relations

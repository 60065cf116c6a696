"""Factorisation: complete and right on products of known primes, with and without
python-flint, and a hard composite refused before the hard part starts."""

from __future__ import annotations

import math
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.budget import Budget
from nimlab.catalogue import factoring
from nimlab.catalogue.factoring import factorize, split_easy
from nimlab.errors import TooLargeError

# Primes checked by trial division below (small ones) or well known (Mersenne and others).
KNOWN_PRIMES = (2, 3, 5, 7, 997, 1009, 65537, 2**31 - 1, 2**61 - 1, 10**9 + 7, 2**89 - 1)
P31 = 10**30 + 57  # prime
Q31 = 10**30 + 469  # prime


def _is_prime_by_trial(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, math.isqrt(n) + 1))


def test_the_known_primes_are_prime() -> None:
    small = [p for p in KNOWN_PRIMES if p < 10**10]
    assert all(map(_is_prime_by_trial, small))
    assert factorize(2**89 - 1) == {2**89 - 1: 1}


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(KNOWN_PRIMES), st.integers(1, 6), max_size=4))
def test_factorize_recovers_a_product_of_primes(exponents: dict[int, int]) -> None:
    # the hard part (primes above 2^40) is estimated by its worst case, a balanced
    # semiprime of its size: keep it within the default budget (at most 46 digits here)
    exponents = {p: (1 if p > 2**40 else e) for p, e in exponents.items()}
    n = math.prod(p**e for p, e in exponents.items())
    assert factorize(n) == dict(sorted(exponents.items()))


def test_a_hard_part_is_refused_by_its_worst_case() -> None:
    # primes of 19 and 27 digits, five and four times: 199 digits with no factor below 2^40
    # (python-flint would find them; the estimate assumes the worst, a balanced semiprime)
    with pytest.raises(TooLargeError, match="199 digits"):
        factorize((2**61 - 1) ** 5 * (2**89 - 1) ** 4 * 2)


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.sampled_from(KNOWN_PRIMES[:8]), st.integers(1, 4), max_size=3))
def test_without_flint_the_same(exponents: dict[int, int]) -> None:
    n = math.prod(p**e for p, e in exponents.items())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(factoring, "_has_flint", lambda: False)
        assert factorize(n) == dict(sorted(exponents.items()))


def test_a_power_of_a_large_prime_is_easy() -> None:
    assert split_easy(P31**7).hard == {}
    assert factorize(P31**7 * 12) == {2: 2, 3: 1, P31: 7}


def test_a_semiprime_of_two_31_digit_primes_is_split() -> None:
    assert factorize(P31 * Q31) == {P31: 1, Q31: 1}


def test_a_hard_composite_is_refused_before_the_hard_part() -> None:
    n = (10**39 + 3) * (10**40 + 121)  # 80 digits, no factor below 2^40
    assert split_easy(n).hard  # nothing easy
    start = time.process_time()  # processor time: a loaded machine stretches the wall clock
    with pytest.raises(TooLargeError, match="factoring"):
        factorize(n, budget=Budget(60, 8 << 30))
    assert time.process_time() - start < 2


def test_the_console_script_refuses_a_hard_number_at_once(tmp_path: Path) -> None:
    n = (10**41 + 109) * (10**42 + 63)  # 84 digits: about half an hour by the sieve
    before = resource.getrusage(resource.RUSAGE_CHILDREN)  # the child's processor time
    run = subprocess.run(
        [sys.executable, "-m", "nimlab", "analyze", "prime-power", str(n), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "NIMLAB_STORE": str(tmp_path / "store.sqlite")},
    )
    assert run.returncode == 3 and run.stdout == ""
    assert run.stderr.startswith("error: factoring") and "--limit" in run.stderr
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime) < 10

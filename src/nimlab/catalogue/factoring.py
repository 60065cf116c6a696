"""Integer factorisation with its cost known before the hard part starts.

:func:`split_easy` finds, in a bounded and small amount of work, every factor that is cheap to
find: primes below 1,000 by trial division, then (with python-flint) primes below about 2^40, or
(without it) what a short Pollard-rho run finds; prime cofactors and perfect powers are
recognised. What is left are composites with only large prime factors, the *hard* part.
:func:`hard_cost` bounds the time to split them: python-flint's quadratic sieve on a
balanced semiprime of that many digits (measured: 0.24 s at 50 digits, 2.7 s at 60, 18 s at
68, 34 s at 72, 125 s at 76, interpolated; a factor of about 1.39 per digit from 76 on) times
:data:`_SIEVE_MARGIN`, since numbers of one size differ (a 74-digit semiprime estimated at
65 s ran past 150 s), or
without python-flint Pollard's rho, whose expected work is about the square root of the
smallest prime factor, at most ``m ** (1/4)`` steps.
:func:`factorize` refuses (:class:`~nimlab.errors.TooLargeError`) when that bound is over the
budget, before it starts, and otherwise factors completely.

>>> factorize(56700)
{2: 2, 3: 4, 5: 2, 7: 1}
>>> hard = split_easy((10**30 + 57) * (10**30 + 469))
>>> hard.factors, len(hard.hard)  # two 31-digit primes: nothing easy
({}, 1)
>>> factorize(10**3 * (10**30 + 57) * (10**30 + 469))
{2: 3, 5: 3, 1000000000000000000000000000057: 1, 1000000000000000000000000000469: 1}
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from nimlab.budget import CLI_BUDGET, Budget, Cost, abridged, check_cost

__all__ = ["Split", "factorize", "hard_cost", "is_probable_prime", "split_easy"]

_SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_TRIAL_BELOW = 1000
_SMOOTH_BITS = 40
_EASY_RHO_STEPS = 20_000
"""Pollard-rho steps per composite in the easy pass (without python-flint): about 30 ms."""
_POWER_CHECK_DIGITS = 5_000
"""Perfect powers are looked for in hard composites up to this many digits."""
_SIEVE_SECONDS_AT_76 = 125.0
_SIEVE_GROWTH_PER_DIGIT = 1.39
_SIEVE_MEASURED = ((50, 0.24), (60, 2.7), (68, 18.0), (72, 34.0), (76, _SIEVE_SECONDS_AT_76))
_SIEVE_MARGIN = 3.0
"""The sieve's time varies between numbers of one size: the estimate is the measured
balanced semiprime's, three times over (the 74-digit one of issue 44 took more than twice
the interpolated 65 s)."""
_SIEVE_BYTES = 200_000_000
_RHO_STEP_SECONDS = 2.5e-6  # a 256-bit modulus; the cost grows with the size (see hard_cost)


def _has_flint() -> bool:
    try:
        import flint  # noqa: F401
    except ImportError:  # pragma: no cover - flint is in the lp extra that make installs
        return False
    return True


def is_probable_prime(n: int) -> bool:
    """Baillie-PSW (python-flint) or Miller-Rabin on the first 13 primes (exact below
    3.3·10^24; no composite is known to pass either above).

    >>> [p for p in range(30) if is_probable_prime(p)]
    [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    """
    if n < 2:
        return False
    if _has_flint():
        from flint import fmpz

        return bool(fmpz(n).is_probable_prime())
    for p in _SMALL_PRIMES:
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in _SMALL_PRIMES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@dataclass
class Split:
    """Factors found so far (``{p: e}``) and the composites still to split (with exponents)."""

    factors: dict[int, int] = field(default_factory=dict)
    hard: dict[int, int] = field(default_factory=dict)

    def add(self, target: dict[int, int], m: int, e: int) -> None:
        """Count ``m ** e`` into ``target``."""
        target[m] = target.get(m, 0) + e


def _perfect_power(m: int) -> tuple[int, int]:
    """``(r, k)`` with ``m == r ** k`` and ``k`` largest (``(m, 1)`` when ``m`` is not a power).

    >>> _perfect_power(3**12), _perfect_power(10**6 + 3)
    ((3, 12), (1000003, 1))
    """
    best = (m, 1)
    for k in range(2, m.bit_length()):
        r = _iroot(m, k)
        if r < 2:
            break
        if r**k == m:
            best = (r, k)
    if best[1] > 1:
        inner, k = _perfect_power(best[0])
        return inner, k * best[1]
    return best


def _iroot(m: int, k: int) -> int:
    """The integer ``k``-th root of ``m >= 0`` (rounded down).

    >>> _iroot(10**20, 3), _iroot(26, 3), _iroot(27, 3)
    (4641588, 2, 3)
    """
    if _has_flint():
        from flint import fmpz

        return int(fmpz(m).root(k))
    r = 1 << -(-m.bit_length() // k)
    while True:
        s = ((k - 1) * r + m // r ** (k - 1)) // k
        if s >= r:
            return r
        r = s


def _rho(n: int, steps: int) -> int | None:
    """A non-trivial factor of the odd composite ``n`` within ``steps`` steps, if found."""
    done = 0
    for c in range(1, 100):
        x = y = 2
        d = 1
        while d == 1:
            x = (x * x + c) % n
            y = (y * y + c) % n
            y = (y * y + c) % n
            d = math.gcd(abs(x - y), n)
            done += 1
            if done > steps:
                return None
        if d != n:
            return d
    return None


def _smooth_parts(m: int) -> list[tuple[int, int]]:
    """``m`` as found by a cheap pass: (part, exponent) pairs, parts prime or hard."""
    if _has_flint():
        from flint import fmpz

        return [(int(p), int(e)) for p, e in fmpz(m).factor_smooth(bits=_SMOOTH_BITS)]
    d = _rho(m, _EASY_RHO_STEPS) if m % 2 else 2
    return [(m, 1)] if d is None else [(d, 1), (m // d, 1)]


def split_easy(n: int) -> Split:
    """The cheap part of factoring ``n >= 1`` (see the module docstring)."""
    split = Split()
    for p in range(2, _TRIAL_BELOW):
        while n % p == 0:
            split.add(split.factors, p, 1)
            n //= p
    stack = [(n, 1)] if n > 1 else []
    while stack:
        m, e = stack.pop()
        if is_probable_prime(m):
            split.add(split.factors, m, e)
            continue
        if len(str(m)) <= _POWER_CHECK_DIGITS:
            root, k = _perfect_power(m)
            if k > 1:
                stack.append((root, e * k))
                continue
        parts = _smooth_parts(m)
        if len(parts) == 1 and parts[0] == (m, 1):
            split.add(split.hard, m, e)
        else:
            stack.extend((part, e * k) for part, k in parts)
    return split


def hard_cost(hard: dict[int, int]) -> Cost:
    """An upper estimate of the time and memory to split the hard composites.

    >>> hard_cost({}).seconds
    0.0
    >>> 100 < hard_cost({10**79 + 1: 1}).seconds  # 80 digits: minutes by the sieve
    True
    """
    seconds, memory = 0.0, 0
    for m in hard:
        digits = len(str(m))
        if _has_flint():
            seconds += _SIEVE_MARGIN * _sieve_seconds(digits)
            memory = max(memory, _SIEVE_BYTES)
        else:
            steps = 2.0 ** (m.bit_length() / 4)
            scale = max(1.0, m.bit_length() / 256) ** 1.6
            seconds += steps * _RHO_STEP_SECONDS * scale
    return Cost(seconds, memory)


def _sieve_seconds(digits: int) -> float:
    """The quadratic sieve's measured time on a balanced semiprime of ``digits`` digits,
    interpolated geometrically between the measured sizes, extrapolated beyond them.

    >>> [round(_sieve_seconds(d), 1) for d in (40, 60, 74, 80)]
    [0.0, 2.7, 65.2, 466.6]
    """
    low_digits, low_seconds = _SIEVE_MEASURED[0]
    if digits <= low_digits:
        return low_seconds * 1.25 ** (digits - low_digits)
    for high_digits, high_seconds in _SIEVE_MEASURED[1:]:
        if digits <= high_digits:
            share = (digits - low_digits) / (high_digits - low_digits)
            return float(low_seconds * (high_seconds / low_seconds) ** share)
        low_digits, low_seconds = high_digits, high_seconds
    return _SIEVE_SECONDS_AT_76 * _SIEVE_GROWTH_PER_DIGIT ** min(digits - 76, 900)


def factorize(n: int, *, budget: Budget = CLI_BUDGET) -> dict[int, int]:
    """The prime factorisation ``{p: e}`` of ``n >= 1``, primes increasing; refused
    (:class:`~nimlab.errors.TooLargeError`) before the hard part when :func:`hard_cost` is
    over ``budget``.

    >>> factorize(1440600), factorize(1)
    ({2: 3, 3: 1, 5: 2, 7: 4}, {})
    """
    split = split_easy(n)
    if split.hard:
        digits = max(len(str(m)) for m in split.hard)
        what = f"factoring {abridged(n)} (a part with no small factor has {digits} digits)"
        check_cost(what, hard_cost(split.hard), budget, "--limit")
    factors = split.factors
    for m, e in split.hard.items():
        for p, k in _factor_hard(m).items():
            factors[p] = factors.get(p, 0) + k * e
    return dict(sorted(factors.items()))


def _factor_hard(m: int) -> dict[int, int]:
    """The complete factorisation of a composite with only large prime factors."""
    if _has_flint():
        from flint import fmpz

        return {int(p): int(e) for p, e in fmpz(m).factor()}
    found: dict[int, int] = {}
    stack = [m]
    while stack:
        x = stack.pop()
        if is_probable_prime(x):
            found[x] = found.get(x, 0) + 1
            continue
        d = _rho(x, 1 << 62)
        if d is None:  # never seen: rho with 99 constants and no step bound
            raise ArithmeticError(f"Pollard rho failed on {x}")
        stack.extend((d, x // d))
    return found

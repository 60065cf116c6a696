"""Budgets: what a job is estimated to cost before it runs, and the refusal when that is too much.

Every command or request that could run long or large first estimates the cost *of the method
that will actually run* (in well under a second), as a :class:`Cost` in seconds and bytes,
and compares it with a :class:`Budget`. Estimates come from formulas calibrated against
measured runs (the figures are in ``BENCHMARKS.md``); work with a closed form is never
estimated or refused.

>>> budget = Budget(seconds=600, bytes=8 * GIB)
>>> check_cost("the Grundy table of kayles up to 1000", Cost(0.01, 10_000), budget, "--limit")
>>> check_cost("the tree of kn(60,60,60,60)", Cost(4e9, 10**15), budget, "--max-nodes")
... # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
Traceback (most recent call last):
  ...
nimlab.errors.TooLargeError: the tree of kn(60,60,60,60) would take about 127 years and 1000 TB,
over the budget of 10 min and 8.6 GB; lift it with --max-nodes
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from nimlab.errors import TooLargeError

__all__ = [
    "CLI_BUDGET",
    "DEFAULT_STEPS",
    "GIB",
    "MAX_BYTES",
    "MAX_SECONDS",
    "STEP_SECONDS",
    "Budget",
    "Cost",
    "abridge_numbers",
    "abridged",
    "check_cost",
    "format_bytes",
    "format_seconds",
    "saturated",
    "saturated_comb",
    "steps_budget",
]

GIB = 1 << 30


#: The largest figures a :class:`Cost` holds: far beyond any budget, and within a float's range
#: (estimates of inputs with thousands of digits would overflow it).
MAX_SECONDS = 1e300
MAX_BYTES = 10**300


@dataclass(frozen=True)
class Cost:
    """An estimated cost: wall seconds on one core of the reference machine, and peak bytes.

    Both are capped at :data:`MAX_SECONDS` and :data:`MAX_BYTES` (an exact int for seconds is
    taken as it is, never converted to a float whole):

    >>> Cost(10**400, 10**400) == Cost(float("inf"), MAX_BYTES)
    True
    """

    seconds: float
    bytes: int

    def __post_init__(self) -> None:
        seconds = self.seconds
        if isinstance(seconds, int):
            seconds = saturated(seconds)
        object.__setattr__(self, "seconds", min(float(seconds), MAX_SECONDS))
        object.__setattr__(self, "bytes", min(int(self.bytes), MAX_BYTES))

    def __add__(self, other: Cost) -> Cost:
        """Two jobs one after the other: times add up, the peak is the larger one.

        >>> Cost(1.0, 100) + Cost(2.0, 50)
        Cost(seconds=3.0, bytes=100)
        """
        return Cost(self.seconds + other.seconds, max(self.bytes, other.bytes))

    def to_json(self) -> dict[str, float | int]:
        """``{"seconds": ..., "bytes": ...}``."""
        return {"seconds": round(self.seconds, 3), "bytes": int(self.bytes)}


@dataclass(frozen=True)
class Budget:
    """The most a job may be estimated to cost: seconds and bytes."""

    seconds: float
    bytes: int

    def allows(self, cost: Cost) -> bool:
        """Whether ``cost`` fits in both limits."""
        return cost.seconds <= self.seconds and cost.bytes <= self.bytes


CLI_BUDGET = Budget(seconds=600.0, bytes=8 * GIB)
"""The command line's default: about 10 minutes and 8 GiB (lifted by each command's option)."""


def format_seconds(seconds: float) -> str:
    """A duration for people.

    >>> format_seconds(0.2), format_seconds(75), format_seconds(7200), format_seconds(4e9)
    ('0.2 s', '1.2 min', '2.0 h', '127 years')
    """
    if seconds < 60:
        return f"{seconds:.2g} s"
    if seconds < 3600:
        minutes = seconds / 60
        return f"{minutes:.0f} min" if minutes >= 9.5 else f"{minutes:.1f} min"
    if seconds < 86400 * 2:
        return f"{seconds / 3600:.1f} h"
    if seconds < 86400 * 365 * 2:
        return f"{seconds / 86400:.0f} days"
    years = seconds / (86400 * 365.25)
    return f"{years:.3g} years" if years < 1e6 else f"{years:.1e} years"


def format_bytes(size: float) -> str:
    """A size in decimal units.

    >>> format_bytes(512), format_bytes(3.5e6), format_bytes(8 * GIB), format_bytes(1e15)
    ('512 B', '3.5 MB', '8.6 GB', '1000 TB')
    >>> format_bytes(10**400)
    '1.0e+300 B'
    """
    if size >= 1e18:  # beyond any machine: as a power of ten
        return f"{saturated(size) if isinstance(size, int) else size:.1e} B"
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            shown = f"{size / scale:.2g}" if size < 10 * scale else f"{size / scale:.0f}"
            return f"{shown} {unit}"
    return f"{size:.0f} B"


def check_cost(what: str, cost: Cost, budget: Budget, lift: str) -> None:
    """Raise :class:`TooLargeError` when ``cost`` is over ``budget``.

    The message names ``what``, the estimate, the budget and ``lift`` (the option or setting
    that lifts the limit, e.g. ``"--limit"``).
    """
    if budget.allows(cost):
        return
    what = abridge_numbers(what)
    raise TooLargeError(
        f"{what} would take about {format_seconds(cost.seconds)} and "
        f"{format_bytes(cost.bytes)}, over the budget of {format_seconds(budget.seconds)} "
        f"and {format_bytes(budget.bytes)}; lift it with {lift}",
        estimate=int(min(cost.seconds, 2**62)),
        limit=int(budget.seconds),
    )


_LONG_NUMBER = re.compile(r"[0-9]{31,}")


def abridge_numbers(text: str) -> str:
    """``text`` (a message) with each run of more than 30 digits shown by its ends and length,
    as :func:`abridged` shows a number.

    >>> abridge_numbers("a table up to " + "1" + "0" * 129)
    'a table up to 10000000000000…00000000000000 (130 digits)'
    """
    return _LONG_NUMBER.sub(
        lambda run: f"{run[0][:14]}…{run[0][-14:]} ({len(run[0]):,} digits)", text
    )


def options_over(cost: Cost, budget: Budget) -> str:
    """The command line's options that lift ``budget`` for ``cost``: the one for each
    limit it is over (``--max-seconds``, ``--max-memory`` or both).

    >>> options_over(Cost(700, 1), CLI_BUDGET), options_over(Cost(1, 10 * GIB), CLI_BUDGET)
    ('--max-seconds', '--max-memory')
    >>> options_over(Cost(700, 10 * GIB), CLI_BUDGET)
    '--max-seconds and --max-memory'
    """
    over = (cost.seconds > budget.seconds, cost.bytes > budget.bytes)
    names = ("--max-seconds", "--max-memory")
    return " and ".join(name for name, hit in zip(names, over, strict=True) if hit)


STEP_SECONDS = 1e-6
"""A step of ``--limit``: about a microsecond of work on the reference machine."""

DEFAULT_STEPS = round(CLI_BUDGET.seconds / STEP_SECONDS)
"""The default ``--limit``: :data:`CLI_BUDGET`'s seconds, in steps."""


def steps_budget(steps: int) -> Budget:
    """The budget ``--limit STEPS`` sets: ``STEPS`` microseconds of estimated work, and
    :data:`CLI_BUDGET`'s memory (more, in proportion, when ``STEPS`` is above the default).

    >>> steps_budget(DEFAULT_STEPS) == CLI_BUDGET
    True
    >>> steps_budget(2 * DEFAULT_STEPS)
    Budget(seconds=1200.0, bytes=17179869184)
    >>> steps_budget(1_000_000).seconds
    1.0
    """
    memory = max(CLI_BUDGET.bytes, CLI_BUDGET.bytes * steps // DEFAULT_STEPS)
    return Budget(seconds=steps * STEP_SECONDS, bytes=memory)


def abridged(number: int, digits: int = 30) -> str:
    """An integer for a message: as it is up to ``digits`` digits, else its ends and length
    (computed without converting the whole number to text, which Python limits).

    >>> abridged(12345), abridged(int("7" * 4000) * 10**1000 + 1)
    ('12345', '77777777777777…00000000000001 (5,000 digits)')
    """
    magnitude = abs(number)
    if magnitude < 10**digits:
        return str(number)
    length = int(magnitude.bit_length() * 0.30102999566398120)
    while 10**length <= magnitude:
        length += 1
    while 10 ** (length - 1) > magnitude:
        length -= 1
    half = digits // 2 - 1
    head = magnitude // 10 ** (length - half)
    tail = str(magnitude % 10**half).zfill(half)
    sign = "-" if number < 0 else ""
    return f"{sign}{head}…{tail} ({length:,} digits)"


def saturated(count: int) -> float:
    """``count`` as a float for cost formulas, capped far beyond any budget (inputs may have
    thousands of digits, beyond a float's range).

    >>> saturated(10**400) == saturated(10**500) == 1e300
    True
    """
    return float(min(count, 10**300))


def saturated_comb(n: int, k: int) -> float:
    """``math.comb(n, k)`` as :func:`saturated` gives it, without building a huge number
    (``n`` may have thousands of digits, ``k`` may be a million).

    ``comb(n, k) >= 2**k`` when ``2k <= n`` and ``comb(n, k) >= n`` for ``0 < k < n``, so
    beyond 1,000 for ``min(k, n - k)`` or 1,100 bits for ``n`` it is over the cap anyway.

    >>> saturated_comb(10, 3), saturated_comb(10**5000, 2), saturated_comb(2 * 10**6, 10**6)
    (120.0, 1e+300, 1e+300)
    >>> saturated_comb(5, 7), saturated_comb(10**6, 10**6 - 1)
    (0.0, 1000000.0)
    """
    if k < 0 or k > n:
        return 0.0
    k = min(k, n - k)
    if k == 0:
        return 1.0
    if k > 1000 or n.bit_length() > 1100:
        return saturated(10**300)
    return saturated(math.comb(n, k))

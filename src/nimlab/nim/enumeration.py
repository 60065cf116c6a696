"""Enumerations of lost Nim positions: the lists of the "Nim" blog post (9 April 2021) and more.

A position is *lost* (for the player to move) when its nim-sum is 0; *obviously lost* when its
heaps pair up into equal sizes (the mirror strategy); *non-obviously lost* when lost but not
obviously so. Positions are multisets, written as ascending tuples.

>>> lost_positions(3, 7, non_obvious=True)
[(1, 2, 3), (1, 4, 5), (1, 6, 7), (2, 4, 6), (2, 5, 7), (3, 4, 7), (3, 5, 6)]
>>> aesthetic_positions(5).positions
((3, 4, 6, 8, 9),)
>>> lost_triangles(20)
[0, 3, 7, 11, 15, 19]
>>> lost_trapezoids(smallest=2, largest=9)
[(2, 3, 4, 5), (2, 3, 4, 5, 6, 7, 8, 9), (4, 5, 6, 7), (6, 7, 8, 9)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from nimlab.budget import CLI_BUDGET, Budget, Cost, check_cost, saturated, saturated_comb
from nimlab.core.heaps import Heaps
from nimlab.errors import InvalidPositionError, NoSuchPositionError

__all__ = [
    "AestheticPositions",
    "aesthetic_positions",
    "is_obviously_lost",
    "lost_positions",
    "lost_trapezoids",
    "lost_triangles",
]

#: The calibrated costs (BENCHMARKS.md): seconds per prefix examined by :func:`lost_positions`,
#: per partition tried by :func:`aesthetic_positions`, per pair of :func:`lost_trapezoids`,
#: and the bytes of each number listed in a result.
_PREFIX_SECONDS = 5e-7
_PARTITION_SECONDS = 2.5e-5
_PAIR_SECONDS = 1e-7
_LISTED_SECONDS = 3.2e-7
_NUMBER_BYTES = 40
_NUMBER_SECONDS = 1e-8


def is_obviously_lost(heaps: Sequence[int]) -> bool:
    """Whether the non-empty heaps split into pairs of equal size.

    >>> is_obviously_lost([3, 5, 3, 5]), is_obviously_lost([1, 2, 3]), is_obviously_lost([0, 4, 4])
    (True, False, True)
    """
    return all(count % 2 == 0 for size, count in Counter(heaps).items() if size)


def _check_count(name: str, value: int, minimum: int) -> None:
    if value < minimum:
        raise InvalidPositionError(f"{name} must be at least {minimum}, got {value}")


def _lost_multisets(heaps: int, largest: int) -> Iterator[Heaps]:
    """Ascending ``heaps``-tuples over ``1..largest`` with nim-sum 0, in lexicographic order.

    The first ``heaps - 1`` sizes are chosen freely (ascending); the last is then forced to be
    their nim-sum, and is kept when it is a valid, not smaller, size. No recursion: the first
    ``heaps - 2`` sizes run as an odometer (a million heaps are as easy as three), the last
    two in an inner loop.

    >>> list(_lost_multisets(4, 3))
    [(1, 1, 1, 1), (1, 1, 2, 2), (1, 1, 3, 3), (2, 2, 2, 2), (2, 2, 3, 3), (3, 3, 3, 3)]
    >>> len(next(_lost_multisets(100_000, 2)))  # far beyond the interpreter's recursion limit
    100000
    """
    if heaps < 2:
        return
    depth = heaps - 2  # the odometer's digits; the last two sizes are the inner loop
    prefix = [1] * depth
    partials = [(index + 1) % 2 for index in range(depth)]  # nim-sums of prefix[: index + 1]
    while True:
        head = tuple(prefix)
        partial = partials[-1] if depth else 0
        for size in range(prefix[-1] if depth else 1, largest + 1):
            last = partial ^ size
            if size <= last <= largest:
                yield (*head, size, last)
        turning = depth - 1
        while turning >= 0 and prefix[turning] == largest:
            turning -= 1
        if turning < 0:
            return
        value = prefix[turning] + 1
        running = partials[turning - 1] if turning else 0
        for index in range(turning, depth):
            prefix[index] = value
            running ^= value
            partials[index] = running


def lost_cost(heaps: int, largest: int) -> Cost:
    """The cost of :func:`lost_positions`: the ascending prefixes of ``heaps - 1`` sizes
    (``C(largest + heaps - 2, heaps - 1)``), and the positions found, ``heaps`` numbers
    each: a prefix gives at most one, about one in ``min(heaps, largest)`` of them (one in
    ``heaps`` for a few heaps of many sizes, one in two for many heaps of sizes 1 and 2).

    >>> round(lost_cost(3, 2000).seconds, 2), lost_cost(3, 2000).bytes
    (1.02, 80040120)
    >>> lost_cost(10**6, 2).bytes > 10**13, lost_cost(10**130, 10**130).seconds > 1e200
    (True, True)
    """
    prefixes = saturated_comb(largest + heaps - 2, heaps - 1)
    found = prefixes // saturated(min(heaps, largest)) + 1
    numbers = min(found * saturated(heaps), 1e300)
    seconds = prefixes * _PREFIX_SECONDS + numbers * _NUMBER_SECONDS
    return Cost(seconds, int(numbers * _NUMBER_BYTES))


def lost_positions(
    heaps: int, largest: int, *, non_obvious: bool = False, budget: Budget | None = None
) -> list[Heaps]:
    """Every lost position with ``heaps`` heaps of sizes ``1..largest``, as ascending tuples;
    refused (:class:`~nimlab.errors.TooLargeError`) when estimated over ``budget``.

    >>> lost_positions(2, 3)
    [(1, 1), (2, 2), (3, 3)]
    >>> lost_positions(4, 5, non_obvious=True)
    [(2, 3, 4, 5)]
    """
    _check_count("the number of heaps", heaps, 1)
    _check_count("the largest heap size", largest, 1)
    what = f"listing the lost positions of {heaps} heaps up to {largest}"
    _check(
        what, lost_cost(heaps, largest), budget, "--limit (or use fewer heaps or a smaller --max)"
    )
    found = _lost_multisets(heaps, largest)
    if non_obvious:  # sorted positive heaps pair up iff they do so in consecutive pairs
        return [p for p in found if p[0::2] != p[1::2]]
    return list(found)


def _check(what: str, cost: Cost, budget: Budget | None, lift: str = "--limit") -> None:
    """Refuse ``cost`` over ``budget`` (no budget: :data:`~nimlab.budget.CLI_BUDGET`); the
    command line's ``--limit`` lifts it."""
    check_cost(what, cost, budget or CLI_BUDGET, lift)


@dataclass(frozen=True)
class AestheticPositions:
    """The optimal "aesthetic" starting positions with a given number of heaps."""

    heaps: int
    total: int
    positions: tuple[Heaps, ...]

    def to_json(self) -> dict[str, Any]:
        """The contract's keys ``heaps``, ``total`` and ``positions``."""
        return {
            "heaps": self.heaps,
            "total": self.total,
            "positions": [list(p) for p in self.positions],
        }


def _partitions(total: int, parts: int, largest_part: int) -> Iterator[tuple[int, ...]]:
    """Partitions of ``total`` into at most ``parts`` parts each <= ``largest_part``, descending."""
    if total == 0:
        yield ()
        return
    if parts == 0:
        return
    for first in range(min(total, largest_part), 0, -1):
        for rest in _partitions(total - first, parts - 1, first):
            yield (first, *rest)


def aesthetic_cost(heaps: int) -> Cost:
    """The cost of :func:`aesthetic_positions`: the partitions of the excesses tried, up to
    the excess of the answer, measured to be at most about ``heaps`` (12, 33, 24, 29 for
    20, 30, 40, 50 heaps), so the partitions of ``0..heaps + 3``. Beyond
    :data:`_COUNTED_HEAPS` heaps the count alone is over any budget (p(1000) > 10**31), so it
    is not computed: a million heaps are refused at once.

    >>> aesthetic_cost(30).seconds < 10, aesthetic_cost(200).seconds > 600
    (True, True)
    >>> aesthetic_cost(10**6).seconds == aesthetic_cost(10**130).seconds == 1e300
    True
    """
    if heaps > _COUNTED_HEAPS:
        return Cost(saturated(10**300), int(saturated(heaps) * _NUMBER_BYTES))
    tried = sum(_partition_counts(heaps + 3))
    return Cost(tried * _PARTITION_SECONDS, heaps * _NUMBER_BYTES)


_COUNTED_HEAPS = 1000


def _partition_counts(n: int) -> list[int]:
    """p(0..n), the numbers of partitions (Euler's pentagonal recurrence), in one table.

    >>> _partition_counts(7), _partition_counts(100)[-1]
    ([1, 1, 2, 3, 5, 7, 11, 15], 190569292)
    """
    p = [1] + [0] * n
    for m in range(1, n + 1):
        k, total = 1, 0
        while True:
            for pentagonal in (k * (3 * k - 1) // 2, k * (3 * k + 1) // 2):
                if pentagonal > m:
                    break
                total += (-1) ** (k + 1) * p[m - pentagonal]
            if k * (3 * k - 1) // 2 > m:
                break
            k += 1
        p[m] = total
    return p


def aesthetic_positions(heaps: int, *, budget: Budget | None = None) -> AestheticPositions:
    """Lost positions with ``heaps`` distinct positive sizes, chosen by the blog's order.

    Minimise the total, then the largest heap, then maximise the smallest; every tie is kept.
    The ``k``-th smallest heap of ``k``-th-smallest-first distinct sizes is ``k + b_k`` with
    ``b`` non-decreasing, so a position of total ``K(K+1)/2 + e`` is a partition of the
    excess ``e`` into at most ``K`` parts: totals are tried in increasing order of excess.

    >>> aesthetic_positions(3)
    AestheticPositions(heaps=3, total=6, positions=((1, 2, 3),))
    """
    _check_count("the number of heaps", heaps, 1)
    _check(f"the aesthetic positions of {heaps} heaps", aesthetic_cost(heaps), budget)
    if heaps < 3:
        raise NoSuchPositionError(
            f"no lost position has {heaps} distinct positive heap sizes (at least 3 are needed)"
        )
    base = heaps * (heaps + 1) // 2
    excess = 0
    while True:
        winners: list[Heaps] = []
        for partition in _partitions(excess, heaps, excess):
            shifts = (0,) * (heaps - len(partition)) + partition[::-1]
            position = tuple(index + 1 + shift for index, shift in enumerate(shifts))
            nim_sum = 0
            for size in position:
                nim_sum ^= size
            if nim_sum == 0:
                winners.append(position)
        if winners:
            smallest_largest = min(p[-1] for p in winners)
            tied = [p for p in winners if p[-1] == smallest_largest]
            best_smallest = max(p[0] for p in tied)
            chosen = sorted(p for p in tied if p[0] == best_smallest)
            return AestheticPositions(heaps, base + excess, tuple(chosen))
        excess += 1


def lost_triangles(upto: int, *, budget: Budget | None = None) -> list[int]:
    """The ``n <= upto`` for which the perfect triangle ``1, 2, ..., n`` is lost: by the
    closed form 1 ^ 2 ^ ... ^ n = 0 iff n = 0 or n = 3 (mod 4); only the size of the answer
    (``upto / 4`` numbers) may be refused."""
    _check_count("upto", upto, 0)
    count = saturated(upto // 4 + 1)
    cost = Cost(count * 1e-7, int(count * _NUMBER_BYTES))
    _check(f"listing the lost triangles up to {upto}", cost, budget)
    return [0, *range(3, upto + 1, 4)]


def trapezoids_cost(smallest: int, largest: int) -> Cost:
    """The cost of :func:`lost_trapezoids`: every pair ``a <= b``, and the runs found
    (about an eighth of the pairs, of length ``(b - a) / 3`` on average).

    >>> trapezoids_cost(2, 1500).seconds > 20, trapezoids_cost(2, 10**7).bytes > 10**15
    (True, True)
    >>> trapezoids_cost(1, 10**5000).seconds > 1e200
    True
    """
    span = saturated(max(0, largest - smallest + 1))
    pairs = min(span * (span + 1) / 2, 1e300)
    listed = min(pairs / 8 * (span / 3 + 1), 1e300)
    return Cost(pairs * _PAIR_SECONDS + listed * _LISTED_SECONDS, int(listed * _NUMBER_BYTES))


def lost_trapezoids(*, smallest: int, largest: int, budget: Budget | None = None) -> list[Heaps]:
    """Runs ``a, a+1, ..., b`` with ``smallest <= a < b <= largest`` whose nim-sum is 0."""
    _check_count("the smallest heap", smallest, 1)
    cost = trapezoids_cost(smallest, largest)
    _check(f"listing the lost trapezoids within {smallest}..{largest}", cost, budget)
    found: list[Heaps] = []
    for start in range(smallest, largest + 1):
        nim_sum = 0
        for end in range(start, largest + 1):
            nim_sum ^= end
            if nim_sum == 0:
                found.append(tuple(range(start, end + 1)))
    return found

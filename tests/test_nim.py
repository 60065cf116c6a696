"""Nim analysis against brute force, and every list of the blog post (seed 003) regenerated."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest
from hypothesis import given

from nimlab import (
    InvalidPositionError,
    NoSuchPositionError,
    Outcome,
    aesthetic_positions,
    analyze_nim,
    grundy_value,
    lost_positions,
    lost_trapezoids,
    lost_triangles,
    misere,
    outcome,
    winning_moves,
)
from nimlab.nim import NimGame, is_obviously_lost
from tests.strategies import big_heaps, heaps

NIM = NimGame()


def parse_seed_list(text: str) -> list[tuple[int, ...]]:
    """Positions written as the blog writes them: [a,b,c],[d,e,f],..."""
    body = text.replace(" ", "").replace("\n", "").strip(".")
    return [tuple(int(x) for x in chunk.split(",")) for chunk in body.strip("[]").split("],[")]


@given(heaps)
def test_bouton_agrees_with_brute_force(position: tuple[int, ...]) -> None:
    result = analyze_nim(position)
    assert result.nim_sum == grundy_value(NIM, position)
    assert result.outcome == outcome(NIM, position)
    moved_to = {move.apply(position) for move in result.winning_moves}
    assert moved_to == set(winning_moves(NIM, position))


@given(heaps)
def test_misere_rule_agrees_with_brute_force(position: tuple[int, ...]) -> None:
    result = analyze_nim(position, misere=True)
    assert result.outcome == outcome(misere(NIM), position)
    moved_to = {move.apply(position) for move in result.winning_moves}
    assert moved_to == set(winning_moves(misere(NIM), position))


@given(big_heaps)
def test_winning_moves_on_huge_heaps_reach_nim_sum_zero(position: tuple[int, ...]) -> None:
    result = analyze_nim(position)
    for move in result.winning_moves:
        after = move.apply(position)
        assert analyze_nim(after).nim_sum == 0 and move.to < move.from_
    assert (result.outcome == Outcome.N) == (result.nim_sum != 0) == bool(result.winning_moves)


def test_seed_002_misere_parity_rule() -> None:
    # Seed 002: with every heap of size 1, an odd number of heaps loses for the player to move.
    assert analyze_nim([1, 1, 1], misere=True).outcome == Outcome.P
    assert analyze_nim([1, 1], misere=True).outcome == Outcome.N
    # Empty heaps change nothing: the rule is "every heap has at most one counter".
    assert analyze_nim([1, 0, 1, 1], misere=True).outcome == Outcome.P


def test_invalid_heaps_raise_specific_errors() -> None:
    with pytest.raises(InvalidPositionError, match="-1"):
        analyze_nim([3, -1])
    with pytest.raises(InvalidPositionError, match=r"2\.5"):
        analyze_nim([3, 2.5])  # type: ignore[list-item]


def test_obviously_lost() -> None:
    assert is_obviously_lost((2, 2, 7, 7))
    assert not is_obviously_lost((1, 2, 3))


# --- seed 003, the "Nim" blog post ---------------------------------------------------------


def test_simplest_non_obviously_lost_position_is_1_2_3() -> None:
    smallest = min(
        (p for n in range(1, 5) for p in lost_positions(n, 6, non_obvious=True)),
        key=lambda p: (sum(p), p),
    )
    assert smallest == (1, 2, 3)


def test_lost_two_heap_positions_are_exactly_the_equal_pairs() -> None:
    assert lost_positions(2, 30) == [(a, a) for a in range(1, 31)]
    assert lost_positions(2, 30, non_obvious=True) == []


def test_three_simplest_winning_positions_with_more_than_one_winning_move() -> None:
    # Seed 003: [1,3,3] [2,2,3] [2,3,3] are the three simplest such positions; all can be
    # reduced to [1,2,3] or to [a,a]. Moves are counted by the position they leave.
    found = []
    for total in range(3, 9):
        for position in combinations_with_replacement(range(1, total), 3):
            if sum(position) == total:
                results = {
                    tuple(sorted(m.apply(position))) for m in analyze_nim(position).winning_moves
                }
                if len(results) > 1:
                    found.append((position, results))
    assert [p for p, _ in found] == [(1, 3, 3), (2, 2, 3), (2, 3, 3)]
    for _, results in found:
        assert all(r == (1, 2, 3) or (r[0] == 0 and r[1] == r[2]) for r in results)


@pytest.mark.parametrize(
    ("smallest", "seed_list"),
    [
        (1, "[1,2,3],[1,4,5],[1,6,7],[1,8,9],[1,10,11],[1,12,13],[1,14,15],[1,16,17],[1,18,19]"),
        (2, "[2,4,6],[2,5,7],[2,8,10],[2,9,11],[2,12,14],[2,13,15],[2,16,18],[2,17,19]"),
        (3, "[3,4,7],[3,5,6],[3,8,11],[3,9,10],[3,12,15],[3,13,14],[3,16,19],[3,17,18]"),
        (
            4,
            "[4,8,12],[4,9,13],[4,10,14],[4,11,15],[4,16,20],[4,17,21],[4,18,22],[4,19,23],"
            "[4,24,28],[4,25,29],[4,26,30],[4,27,31],[4,32,36],[4,33,37],[4,34,38],[4,35,39],"
            "[4,40,44],[4,41,45],[4,42,46],[4,43,47]",
        ),
    ],
    ids=["smallest-1", "smallest-2", "smallest-3", "smallest-4"],
)
def test_seed_003_three_heap_lists(smallest: int, seed_list: str) -> None:
    expected = parse_seed_list(seed_list)
    largest = max(p[-1] for p in expected)
    found = [p for p in lost_positions(3, largest, non_obvious=True) if p[0] == smallest]
    assert found == expected


def test_seed_003_three_heap_patterns_hold_further() -> None:
    # [1, 2n, 2n+1]; [2, 4n, 4n+2] or [2, 4n+1, 4n+3]; [3, 4n, 4n+3] or [3, 4n+1, 4n+2].
    found = lost_positions(3, 200, non_obvious=True)
    for smallest, rule in [
        (1, lambda b, c: b % 2 == 0 and c == b + 1),
        (2, lambda b, c: (b % 4 == 0 and c == b + 2) or (b % 4 == 1 and c == b + 2)),
        (3, lambda b, c: (b % 4 == 0 and c == b + 3) or (b % 4 == 1 and c == b + 1)),
    ]:
        group = [p for p in found if p[0] == smallest]
        assert group and all(rule(b, c) for _, b, c in group)


SEED_003_FOUR_HEAPS_UP_TO_15 = """
[2,3,4,5],[1,3,4,6],[1,2,5,6],[1,2,4,7],[1,3,5,7],[2,3,6,7],[4,5,6,7],[2,3,8,9],[4,5,8,9],
[6,7,8,9],[1,3,8,10],[4,6,8,10],[5,7,8,10],[1,2,9,10],[5,6,9,10],[4,7,9,10],[1,2,8,11],
[5,6,8,11],[4,7,8,11],[1,3,9,11],[4,6,9,11],[5,7,9,11],[2,3,10,11],[4,5,10,11],[6,7,10,11],
[8,9,10,11],[1,5,8,12],[2,6,8,12],[3,7,8,12],[1,4,9,12],[3,6,9,12],[2,7,9,12],[2,4,10,12],
[3,5,10,12],[1,7,10,12],[3,4,11,12],[2,5,11,12],[1,6,11,12],[1,4,8,13],[3,6,8,13],[2,7,8,13],
[1,5,9,13],[2,6,9,13],[3,7,9,13],[3,4,10,13],[2,5,10,13],[1,6,10,13],[2,4,11,13],[3,5,11,13],
[1,7,11,13],[2,3,12,13],[4,5,12,13],[6,7,12,13],[8,9,12,13],[10,11,12,13],[2,4,8,14],
[3,5,8,14],[1,7,8,14],[3,4,9,14],[2,5,9,14],[1,6,9,14],[1,5,10,14],[2,6,10,14],[3,7,10,14],
[1,4,11,14],[3,6,11,14],[2,7,11,14],[1,3,12,14],[4,6,12,14],[5,7,12,14],[8,10,12,14],
[9,11,12,14],[1,2,13,14],[5,6,13,14],[4,7,13,14],[9,10,13,14],[8,11,13,14],[3,4,8,15],
[2,5,8,15],[1,6,8,15],[2,4,9,15],[3,5,9,15],[1,7,9,15],[1,4,10,15],[3,6,10,15],[2,7,10,15],
[1,5,11,15],[2,6,11,15],[3,7,11,15],[1,2,12,15],[5,6,12,15],[4,7,12,15],[9,10,12,15],
[8,11,12,15],[1,3,13,15],[4,6,13,15],[5,7,13,15],[8,10,13,15],[9,11,13,15],[2,3,14,15],
[4,5,14,15],[6,7,14,15],[8,9,14,15],[10,11,14,15],[12,13,14,15]
"""


def test_seed_003_four_heap_list() -> None:
    expected = parse_seed_list(SEED_003_FOUR_HEAPS_UP_TO_15)
    found = lost_positions(4, 15, non_obvious=True)
    assert len(found) == len(expected) == 105
    assert set(found) == set(expected)
    assert found == sorted(found)


def test_lost_positions_match_a_brute_force_filter() -> None:
    for count in range(1, 7):
        brute = [
            p
            for p in combinations_with_replacement(range(1, 10), count)
            if analyze_nim(p).outcome == Outcome.P
        ]
        assert lost_positions(count, 9) == brute
        assert lost_positions(count, 9, non_obvious=True) == [
            p for p in brute if not is_obviously_lost(p)
        ]


@pytest.mark.parametrize(
    ("heaps", "total", "seed_positions"),
    [
        (3, 6, "[1,2,3]"),
        (4, 14, "[2,3,4,5]"),
        (5, 30, "[3,4,6,8,9]"),
        (6, 30, "[1,2,4,6,8,9]"),
        (7, 28, "[1,2,3,4,5,6,7]"),
        (8, 44, "[2,3,4,5,6,7,8,9]"),
        (9, 60, "[2,3,4,5,7,8,9,10,12],[2,3,4,5,6,8,9,11,12]"),
        (10, 60, "[1,2,3,4,5,6,8,9,10,12]"),
        (11, 66, "[1,2,3,4,5,6,7,8,9,10,11]"),
        (12, 90, "[2,3,4,5,6,7,8,9,10,11,12,13]"),
        (
            13,
            106,
            "[1,2,3,4,5,6,7,9,10,12,14,16,17],[1,2,3,4,5,6,7,8,11,12,14,16,17],"
            "[1,2,3,4,5,6,7,8,10,13,14,16,17],[1,2,3,4,5,6,7,8,10,12,15,16,17]",
        ),
    ],
    ids=lambda v: str(v) if isinstance(v, int) else "",
)
def test_seed_003_aesthetic_positions(heaps: int, total: int, seed_positions: str) -> None:
    result = aesthetic_positions(heaps)
    assert result.total == total
    assert set(result.positions) == set(parse_seed_list(seed_positions))


def test_aesthetic_positions_are_optimal_by_exhaustive_search() -> None:
    # Every set of K distinct sizes from 1..12 with nim-sum 0, ordered by the blog's rules.
    from itertools import combinations

    for count in range(3, 7):
        lost = [p for p in combinations(range(1, 13), count) if analyze_nim(p).nim_sum == 0]
        best_key = min((sum(p), p[-1], -p[0]) for p in lost)
        best = {p for p in lost if (sum(p), p[-1], -p[0]) == best_key}
        assert set(aesthetic_positions(count).positions) == best


def test_aesthetic_needs_three_heaps() -> None:
    with pytest.raises(NoSuchPositionError):
        aesthetic_positions(2)


def test_seed_003_perfect_triangles() -> None:
    seed = [0, 3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63, 67, 71, 75, 79]
    seed += [83, 87, 91, 95, 99]
    assert lost_triangles(100) == seed
    assert lost_triangles(10_000) == [0] + [4 * k - 1 for k in range(1, 2501)]


SEED_003_TRAPEZOIDS = """
[2,3,4,5],[2,3,4,5,6,7,8,9],[2,3,4,5,6,7,8,9,10,11,12,13],[2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17],
[4,5,6,7],[4,5,6,7,8,9,10,11],[4,5,6,7,8,9,10,11,12,13,14,15],[4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19],
[6,7,8,9],[6,7,8,9,10,11,12,13],[6,7,8,9,10,11,12,13,14,15,16,17],
[8,9,10,11],[8,9,10,11,12,13,14,15],[8,9,10,11,12,13,14,15,16,17,18,19],
[10,11,12,13],[10,11,12,13,14,15,16,17],
[12,13,14,15],[12,13,14,15,16,17,18,19],
[14,15,16,17],
[16,17,18,19]
"""


def test_seed_003_trapezoids() -> None:
    expected = parse_seed_list(SEED_003_TRAPEZOIDS)
    assert lost_trapezoids(smallest=2, largest=20) == expected
    # The blog's conjecture (length a multiple of 4, even smallest heap) holds much further.
    for run in lost_trapezoids(smallest=2, largest=300):
        assert len(run) % 4 == 0 and run[0] % 2 == 0


def test_no_non_obviously_lost_position_has_all_heaps_equal() -> None:
    for size in range(1, 9):
        for count in range(1, 9):
            position = (size,) * count
            lost = analyze_nim(position).outcome == Outcome.P
            assert lost == (count % 2 == 0) and (not lost or is_obviously_lost(position))

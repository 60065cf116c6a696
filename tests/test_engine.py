"""The generic Sprague-Grundy engine: values, outcomes, winning moves, sums, misère, loops."""

from __future__ import annotations

from functools import reduce
from operator import xor

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nimlab import (
    GrundySolver,
    LoopyGameError,
    MoveFunctionGame,
    Outcome,
    disjunctive_sum,
    grundy_value,
    misere,
    outcome,
    winning_moves,
)
from nimlab.nim import NimGame


def subtraction(*subtrahends: int) -> MoveFunctionGame[int]:
    return MoveFunctionGame(lambda n: [n - s for s in subtrahends if s <= n])


def test_subtraction_game_values_by_hand() -> None:
    # S = {1, 2}: g(n) = n mod 3, a standard textbook fact.
    game = subtraction(1, 2)
    assert [grundy_value(game, n) for n in range(9)] == [0, 1, 2, 0, 1, 2, 0, 1, 2]


def test_single_heap_nim_has_value_n() -> None:
    heap = MoveFunctionGame(lambda n: range(n))
    assert [grundy_value(heap, n) for n in range(30)] == list(range(30))


def test_a_chain_of_200000_positions_needs_no_recursion() -> None:
    chain = MoveFunctionGame(lambda n: [n - 1] if n > 0 else [])
    assert grundy_value(chain, 200_000) == 0
    assert grundy_value(chain, 199_999) == 1


def test_loopy_game_raises() -> None:
    cycle = MoveFunctionGame(lambda n: [(n + 1) % 3])
    with pytest.raises(LoopyGameError, match="reached from itself"):
        grundy_value(cycle, 0)


def test_self_loop_raises() -> None:
    with pytest.raises(LoopyGameError):
        grundy_value(MoveFunctionGame(lambda n: [n]), 5)


@given(st.lists(st.integers(0, 12), min_size=1, max_size=3))
def test_sum_of_games_has_nim_sum_of_values(parts: list[int]) -> None:
    game = subtraction(1, 3, 4)
    total = disjunctive_sum(*[game] * len(parts))
    expected = reduce(xor, (grundy_value(game, p) for p in parts), 0)
    assert grundy_value(total, tuple(parts)) == expected


@given(st.lists(st.integers(0, 6), min_size=0, max_size=3).map(tuple))
def test_winning_moves_lead_to_p_positions(position: tuple[int, ...]) -> None:
    game = NimGame()
    winners = winning_moves(game, position)
    assert all(grundy_value(game, w) == 0 for w in winners)
    assert (outcome(game, position) == Outcome.N) == bool(winners)


def test_misere_values_of_a_heap_and_the_misere_wrapper_is_idempotent() -> None:
    heap = MoveFunctionGame(lambda n: range(n))
    # Misère single heap: n = 1 is lost (you must take the last counter), others won.
    assert [outcome(misere(heap), n) for n in range(4)] == [
        Outcome.N,
        Outcome.P,
        Outcome.N,
        Outcome.N,
    ]
    wrapped = misere(heap)
    assert misere(wrapped) is wrapped


def test_solver_counts_positions_and_reuses_its_memo() -> None:
    solver = GrundySolver(subtraction(1, 2))
    assert solver.grundy_value(10) == 1
    assert len(solver) == 11
    assert solver.winning_moves(10) == [9]
    assert solver.outcome(9) == Outcome.P


def test_unhashable_game_objects_still_work() -> None:
    class Unhashable:
        __hash__ = None  # type: ignore[assignment]

        def moves(self, n: int) -> list[int]:
            return list(range(n))

    assert grundy_value(Unhashable(), 6) == 6

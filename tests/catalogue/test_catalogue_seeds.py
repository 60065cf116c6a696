"""Seed 002/003 claims about the catalogue games, recomputed; the seeds' slips pinned down."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import reduce
from operator import xor

import pytest

from nimlab.catalogue import GameOptions, make_game
from nimlab.catalogue.factoring import factorize
from nimlab.cgt.green import prune
from nimlab.core import MoveFunctionGame
from nimlab.core.game import Outcome
from nimlab.grundy import GrundySolver


def test_misere_nim_all_ones_parity() -> None:
    # misère Nim, all heaps 1: the parity of the number of heaps decides (seed 002, Bengali
    # paragraph). The seed says an odd number means the current player "cannot be beaten";
    # in fact the player to move loses.
    game = make_game("nim", GameOptions(misere=True))
    for count in range(1, 7):
        expected = Outcome.P if count % 2 else Outcome.N
        assert game.brute_outcome((1,) * count) is expected


@pytest.mark.parametrize("skips", [(a, b) for a in range(3) for b in range(3)])
def test_skip_nim_claims(skips: tuple[int, int]) -> None:
    # A > B: first player wins; A < B: second wins; A = B: normal Nim (seed 002, "Nim With Skip")
    game = make_game("skip-nim", GameOptions(skips=skips))
    a, b = skips
    for heaps in itertools.product(range(4), repeat=2):
        found = game.brute_outcome(game.parse_position(f"{heaps[0]},{heaps[1]}"))
        if a != b:
            assert found is (Outcome.N if a > b else Outcome.P)
        else:
            assert found is (Outcome.N if heaps[0] ^ heaps[1] else Outcome.P)


def test_prime_power_examples_and_slip() -> None:
    # 56700 = 2^2·3^4·5^2·7 -> piles {2, 4, 2, 1} (seed 002, Bengali paragraph)
    assert list(factorize(56700).values()) == [2, 4, 2, 1]
    # The seed writes 1440600 = 2^2·2^2·3·5·5·7·7·7·7: that product is 2881200, not 1440600.
    assert 2**2 * 2**2 * 3 * 5 * 5 * 7**4 == 2881200
    # The piles {3, 1, 2, 4} it gives are those of the true factorisation 2^3·3·5^2·7^4.
    assert factorize(1440600) == {2: 3, 3: 1, 5: 2, 7: 4}
    game = make_game("prime-power")
    assert game.grundy(1440600) == 3 ^ 1 ^ 2 ^ 4
    assert game.brute_grundy(1440600) == game.grundy(1440600)


def test_prime_power_one_loses() -> None:
    # "Loser: N = 1" (seed 002, "Dividing a number")
    assert make_game("prime-power").brute_outcome(1) is Outcome.P


def test_staircase_even_steps_are_useless() -> None:
    # "Solution: xor odd positions" (seed 002, Staircase Nim)
    game = make_game("staircase")
    for steps in itertools.product(range(3), repeat=4):
        assert game.brute_grundy(steps) == steps[1] ^ steps[3]


def test_poker_nim_is_nim() -> None:
    # Poker Nim "can be viewed as standard Nim" (seed 002) — for the outcome, whatever K and cap
    for additions, cap in [(1, 3), (2, 3), (3, 2)]:
        game = make_game("poker-nim", GameOptions(additions=additions, cap=cap))
        for heaps in itertools.product(range(cap + 1), repeat=2):
            found = game.brute_outcome(game.parse_position(f"{heaps[0]},{heaps[1]}"))
            assert found is (Outcome.N if heaps[0] ^ heaps[1] else Outcome.P)


def test_turtles_and_twins_example() -> None:
    # THHTTH => {2, 3, 6} (Turning Turtles) and {1, 2, 5} (Twins) (seed 002)
    turtles, twins = make_game("turning-turtles"), make_game("twins")
    assert [v for _, v in turtles.head_values("THHTTH")] == [2, 3, 6]
    assert [v for _, v in twins.head_values("THHTTH")] == [1, 2, 5]
    assert turtles.brute_grundy("THHTTH") == 2 ^ 3 ^ 6
    assert twins.brute_grundy("THHTTH") == 1 ^ 2 ^ 5


def test_twins_single_head_is_nim_heap_k_minus_1() -> None:
    # Seed 002 "F(n) = F(n-1) in normal nim": the true rule is g(head at k) = k - 1.
    twins = make_game("twins")
    values = [twins.brute_grundy("T" * (k - 1) + "H") for k in range(1, 9)]
    assert values == [k - 1 for k in range(1, 9)]
    assert len(set(values)) == len(values)  # not a constant, as F(n) = F(n-1) would give


def test_silver_dollar_example_and_slip() -> None:
    game = make_game("silver-dollar")
    # {2, 5, 7, 11}: piles {1, 2, 1, 3}, every second from the right dropped: {2, 3} (seed 002)
    assert game.gaps((2, 5, 7, 11)) == (1, 2, 1, 3)
    assert game.grundy((2, 5, 7, 11)) == 2 ^ 3 == game.brute_grundy((2, 5, 7, 11))
    # The seed's sentence says {2, 5, 7, 10}: a different position, and a lost one.
    assert game.gaps((2, 5, 7, 10)) == (1, 2, 1, 2)
    assert game.brute_outcome((2, 5, 7, 10)) is Outcome.P


def test_wythoff_cold_positions() -> None:
    # cold (n, m), n <= m: (0,0), (1,2), (3,5), (4,7), (6,10), (8,13) (seed 002, Wythoff's game)
    game = make_game("wythoff")
    cold = [
        (n, m) for m in range(14) for n in range(m + 1) if game.brute_outcome((n, m)) is Outcome.P
    ]
    assert cold == [(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13)]
    # "all positions of the form (0, m) and (m, m) with m > 0 are hot"
    for m in range(1, 50):
        assert game.outcome((0, m)) is Outcome.N and game.outcome((m, m)) is Outcome.N
    # "(1, 2) is cold, because the only positions that can be reached from it, (0,1), (0,2),
    # and (1,1), are all hot": the seed forgets (1, 0), hot as well.
    assert set(game.moves((1, 2))) == {(0, 2), (1, 1), (1, 0), (0, 1)}


def test_subtraction_bounded_slip() -> None:
    # Seed 003: "compute nim sum mod (k+1)". Counterexample found by search: the claim calls
    # a position lost although the player to move wins.
    counterexamples = []
    for k in (1, 2, 3):
        game = make_game("subtraction", GameOptions(max_take=k))
        for heaps in itertools.product(range(7), repeat=2):
            claimed_lost = reduce(xor, heaps) % (k + 1) == 0
            if claimed_lost != (game.brute_outcome(heaps) is Outcome.P):
                counterexamples.append((k, heaps))
            # the true rule: the nim-sum of the heaps each reduced mod k+1
            assert game.brute_grundy(heaps) == (heaps[0] % (k + 1)) ^ (heaps[1] % (k + 1))
    assert (2, (1, 2)) in counterexamples


def test_red_blue_seed_example() -> None:
    # {4, 8, 9, 11, 16}: +V +V -V/2 -V/4 +V/8 = 11V/8 (seed 002); even = blue, odd = red
    stalk = "".join("B" if n % 2 == 0 else "R" for n in (4, 8, 9, 11, 16))
    game = make_game("red-blue-hackenbush")
    position = game.parse_position(stalk)
    assert stalk == "BBRRB"
    assert game.value(position) == game.brute_value(position) == Fraction(11, 8)


def test_red_blue_sums_add() -> None:
    # "For multiple stalk, don't xor, just add all of them" (seed 002)
    game = make_game("red-blue-hackenbush")
    rng = random.Random(7)
    for _ in range(30):
        position = game.random_position(rng, 4)
        assert game.brute_value(position) == sum(game.brute_value((s,)) for s in position)


def test_green_hackenbush_random_graphs_with_cycles() -> None:
    # fusion + colon principles against exhaustive search on random multigraphs
    game = make_game("green-hackenbush")
    solver = GrundySolver(game)
    rng = random.Random(2026)
    for _ in range(300):
        nodes = "gabcd"[: rng.randint(2, 5)]
        edges = [(rng.choice(nodes), rng.choice(nodes)) for _ in range(rng.randint(1, 8))]
        position = prune(edges)
        assert game.grundy(position) == solver.grundy_value(position), position


@pytest.mark.parametrize("name", ["kayles", "dawson-kayles", "grundy-game"])
def test_heap_games_single_heaps_brute_force(name: str) -> None:
    game = make_game(name)
    # exhaustive search over positions kept sorted (multisets of heaps)
    canonical = MoveFunctionGame(lambda p: (tuple(sorted(q)) for q in game.moves(p)))
    solver = GrundySolver(canonical)
    assert game.grundy_values(22) == [solver.grundy_value((n,)) for n in range(23)]


def test_octal_periods_proven() -> None:
    kayles = make_game("kayles")
    assert kayles.periodicity(kayles.grundy_values(200)) == (12, 71)
    dawson = make_game("dawson-kayles")
    assert dawson.periodicity(dawson.grundy_values(200)) == (34, 53)

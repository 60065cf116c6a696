"""OpenSpiel both ways: its games solved exactly, and nimlab's variants inside OpenSpiel.

Expected values come from the literature (Kuhn poker is worth -1/18 to the first player), from
symmetry (Goofspiel), from nimlab's seeds (SN(3,3,1) is worth 1/3) and from OpenSpiel's own
algorithms (its best responses, its expected returns, its CFR+), never from the code under test.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the optional extra 'openspiel' is not installed")

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import expected_game_score, exploitability  # noqa: E402

from nimlab.catalogue.base import GameOptions  # noqa: E402
from nimlab.equilibrium.efg_solve import EfgResult, solve_efg  # noqa: E402
from nimlab.errors import TooLargeError  # noqa: E402
from nimlab.hidden.games import solve_hidden  # noqa: E402
from nimlab.hidden.tree import build_tree  # noqa: E402
from nimlab.openspiel import OpenSpielGameError, game_string, load, walk  # noqa: E402
from tests.contract.conftest import run_nimlab  # noqa: E402


def solved(text: str) -> tuple[Any, EfgResult]:
    game = load(text)
    return game, solve_efg(walk(game), strategies=True)


def legal_actions(game: Any) -> dict[tuple[int, str], list[int]]:
    """Every information state string of the game with its legal actions (a plain walk)."""
    found: dict[tuple[int, str], list[int]] = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        player = state.current_player()
        found[player, state.information_state_string(player)] = state.legal_actions()
        stack.extend(state.child(a) for a in state.legal_actions())
    return found


def openspiel_check(game: Any, result: EfgResult) -> tuple[float, float]:
    """OpenSpiel's exploitability of nimlab's exact strategies, and their expected value for
    player 0 by OpenSpiel."""
    legal = legal_actions(game)
    table = policy_lib.TabularPolicy(game)
    for entry in result.strategies or ():
        row = table.policy_for_key(entry.name)
        row[:] = 0
        actions = legal[entry.player - 1, entry.name]
        for action, (_, p) in zip(actions, entry.actions, strict=True):
            row[action] = float(p)
    gap = exploitability.exploitability(game, table)
    value = expected_game_score.policy_value(game.new_initial_state(), [table, table])[0]
    return gap, float(value)


def test_kuhn_poker_is_worth_minus_one_eighteenth() -> None:
    game, result = solved("kuhn_poker")
    assert (result.value, result.exact) == (Fraction(-1, 18), True)
    assert (result.nodes, result.infosets) == (58, 12)
    gap, value = openspiel_check(game, result)
    assert gap < 1e-12
    assert value == pytest.approx(-1 / 18, abs=1e-12)


def test_leduc_poker_exact_value_agrees_with_openspiel() -> None:
    game, result = solved("leduc_poker")
    assert result.exact and result.lower == result.upper == result.value
    assert (result.nodes, result.infosets) == (9457, 936)
    gap, value = openspiel_check(game, result)
    assert gap < 1e-9  # OpenSpiel's best responses gain nothing against nimlab's strategies
    assert abs(value - float(result.value)) < 1e-9
    assert abs(value + 0.0856) < 1e-4  # the value OpenSpiel's examples report


def test_small_liars_dice_and_goofspiel() -> None:
    game, result = solved("liars_dice(numdice=1,dice_sides=4)")
    assert result.exact
    gap, value = openspiel_check(game, result)
    assert gap < 1e-9 and abs(value - float(result.value)) < 1e-9
    goofspiel = "goofspiel(num_cards=4,imp_info=True,points_order=descending)"
    turn_based = f"turn_based_simultaneous_game(game={goofspiel})"
    _, goof = solved(turn_based)
    assert (goof.value, goof.exact) == (0, True)  # a symmetric game


def test_refusals() -> None:
    with pytest.raises(OpenSpielGameError, match="turn_based_simultaneous_game"):
        load("goofspiel(num_cards=3)")
    with pytest.raises(OpenSpielGameError, match="not zero-sum"):
        load("tiny_hanabi")
    with pytest.raises(OpenSpielGameError, match="3 players"):
        load("kuhn_poker(players=3)")
    with pytest.raises(OpenSpielGameError, match="Unknown game"):
        load("no_such_game")
    with pytest.raises(TooLargeError, match="more than 100 states"):
        walk(load("leduc_poker"), max_nodes=100)


def test_schrodinger_nim_inside_openspiel() -> None:
    text = game_string("sn", (3, 3, 1))
    game = pyspiel.load_game(text)
    result = solve_efg(walk(game), strategies=True)
    assert (result.value, result.exact) == (Fraction(1, 3), True)  # the seeds' value
    unreduced = build_tree("sn", (3, 3, 1), prune_forced=False, known_wins=False)
    assert (result.nodes, result.infosets) == (unreduced.nodes, unreduced.infoset_count)
    gap, value = openspiel_check(game, result)
    assert gap < 1e-9 and value == pytest.approx(1 / 3, abs=1e-9)
    # OpenSpiel's CFR+ (on the cached tree, fast) approaches the same value
    cached = pyspiel.load_game(f"cached_tree(game={text})")
    solver = pyspiel.CFRPlusSolver(cached)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    cfr_gap = pyspiel.exploitability(cached, average)
    cfr_value = pyspiel.expected_returns(cached.new_initial_state(), average, -1, True)[0]
    assert cfr_gap < 0.005
    assert abs(cfr_value - 1 / 3) <= 2 * cfr_gap


def test_solve_openspiel_command() -> None:
    run = run_nimlab("solve-openspiel", "kuhn_poker", "--json")
    payload = run.ok_json()
    assert payload["game"] == "kuhn_poker"
    assert (payload["value"], payload["exact"]) == ("-1/18", True)
    assert (payload["nodes"], payload["infosets"]) == (58, 12)
    assert payload["seconds"] > 0
    assert "turn_based" in run_nimlab("solve-openspiel", "goofspiel").refused(2)
    assert "Unknown game" in run_nimlab("solve-openspiel", "no_such_game").refused(2)
    assert "--max-nodes" in run_nimlab(
        "solve-openspiel", "leduc_poker", "--max-nodes", "100"
    ).refused(3)
    nim = run_nimlab("solve-openspiel", game_string("sn", (2, 1)), "--json").ok_json()
    assert (nim["value"], nim["exact"]) == ("1", True)  # the first player empties heap 1 first


@pytest.mark.parametrize(
    ("variant", "game", "position", "options"),
    [
        ("kn", "subtraction", "4,2", GameOptions(max_take=2)),
        ("sn", "kayles", "3,2", GameOptions()),
        ("kn", "red-blue-hackenbush", "BR,RB", GameOptions()),
        ("fsn", "octal", "3,2", GameOptions(code="0.137")),
        ("sn", "subtraction", "5", GameOptions(subtraction_set=(1, 3))),
    ],
)
def test_catalogue_games_inside_openspiel(
    variant: str, game: str, position: str, options: GameOptions
) -> None:
    """A catalogue game's hidden version, loaded by OpenSpiel and walked by nimlab's own
    .efg solver through OpenSpiel's API, has the value of nimlab's solver and its tree."""
    text = game_string(variant, position, game=game, options=options)
    result = solve_efg(walk(pyspiel.load_game(text)))
    ours = solve_hidden(variant, game, position, options=options)
    assert (result.value, result.exact) == (ours.value, True)
    assert result.nodes == ours.nodes


def test_walk_arrays_and_memory_projection() -> None:
    """The flat walk: one entry per terminal worth something, sequences in range, and the
    memory projection refuses a budget the walk cannot keep."""
    tree = walk(load("liars_dice(numdice=1,dice_sides=4)"))
    assert tree.nodes == 8181 and tree.payoff_scale == 16  # 1/16 per pair of dice
    assert len(tree.term_seq[0]) == len(tree.term_seq[1]) == len(tree.term_payoff) > 0
    for player in (0, 1):
        assert (
            min(tree.term_seq[player]) >= 0
            and max(tree.term_seq[player]) < (tree.sequence_counts[player])
        )
    assert all(tree.term_payoff)
    with pytest.raises(TooLargeError, match="memory budget"):
        walk(load("liars_dice(numdice=1,dice_sides=5)"), max_nodes=10**8, max_bytes=1)


# The walk against a plain count of OpenSpiel's states (chance included), its node limit.
WALKED_GAMES = [
    "kuhn_poker",
    "liars_dice(numdice=1,dice_sides=3)",
    "turn_based_simultaneous_game(game=goofspiel(num_cards=3,imp_info=True,points_order=random))",
]


def plain_count(game: Any) -> tuple[int, int, set[tuple[int, str]]]:
    """States, terminal states and (player, information state string) pairs, by a plain
    depth-first walk of OpenSpiel's states."""
    states, terminals, infosets = 0, 0, set()
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        states += 1
        if state.is_terminal():
            terminals += 1
        elif state.is_chance_node():
            stack.extend(state.child(a) for a, p in state.chance_outcomes() if p > 0)
        else:
            player = state.current_player()
            infosets.add((player, state.information_state_string(player)))
            stack.extend(state.child(a) for a in state.legal_actions())
    return states, terminals, infosets


@pytest.mark.parametrize("text", WALKED_GAMES)
def test_walk_counts_every_state_and_refuses_past_the_limit(text: str) -> None:
    game = load(text)
    states, terminals, infosets = plain_count(game)
    tree = walk(game)
    assert tree.nodes == states
    assert len(tree.term_seq[0]) <= terminals  # terminals worth 0 are left out
    assert {(i.player, i.name) for i in tree.infosets} == infosets
    assert walk(game, max_nodes=states).nodes == states  # the limit is inclusive
    with pytest.raises(TooLargeError):
        walk(game, max_nodes=states - 1)


@pytest.mark.parametrize("sides", [4, 5])
def test_liars_dice_exact_value_agrees_with_openspiel_to_1e12(sides: int) -> None:
    game, result = solved(f"liars_dice(numdice=1,dice_sides={sides})")
    assert result.exact and result.lower == result.upper == result.value
    gap, value = openspiel_check(game, result)
    assert abs(value - float(result.value)) < 1e-12  # OpenSpiel's float evaluation
    assert gap < 1e-12  # its best responses gain nothing

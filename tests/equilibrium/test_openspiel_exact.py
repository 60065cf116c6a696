"""OpenSpiel's games walked into arrays and solved exactly: the walk against a plain count
of OpenSpiel's states, and Liar's Dice's exact value against OpenSpiel's own float
evaluation and best responses (never against the code under test)."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the optional extra 'openspiel' is not installed")

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import expected_game_score, exploitability  # noqa: E402

from nimlab.equilibrium.efg_solve import solve_efg  # noqa: E402
from nimlab.errors import TooLargeError  # noqa: E402
from nimlab.openspiel import load, walk  # noqa: E402

GAMES = [
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


@pytest.mark.parametrize("text", GAMES)
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


def legal_actions(game: Any) -> dict[str, list[int]]:
    """Every information state string of the game with its legal actions (a plain walk)."""
    found: dict[str, list[int]] = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        player = state.current_player()
        found[state.information_state_string(player)] = state.legal_actions()
        stack.extend(state.child(a) for a in state.legal_actions())
    return found


@pytest.mark.parametrize("sides", [4, 5])
def test_liars_dice_exact_value_agrees_with_openspiel_to_1e12(sides: int) -> None:
    game = load(f"liars_dice(numdice=1,dice_sides={sides})")
    result = solve_efg(walk(game), strategies=True)
    assert result.exact and result.lower == result.upper == result.value
    legal = legal_actions(game)
    table = policy_lib.TabularPolicy(game)
    for entry in result.strategies or ():
        row = table.policy_for_key(entry.name)
        row[:] = 0
        for action, (_, p) in zip(legal[entry.name], entry.actions, strict=True):
            row[action] = float(p)
    value = expected_game_score.policy_value(game.new_initial_state(), [table, table])[0]
    assert abs(value - float(result.value)) < 1e-12  # OpenSpiel's float evaluation
    assert exploitability.exploitability(game, table) < 1e-12  # its best responses gain nothing

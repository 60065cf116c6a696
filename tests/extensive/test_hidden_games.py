"""Hidden-information versions of catalogue games, over every (game x rule) pair that exists:
the registries are read, so a new component type or transform is tested without a new test.

Laws checked on small positions: the value is certified exact and lies in [-1, 1]; under the
Schrödinger and Fuzzy rules a single component is a game of perfect information (the mover
sees it), so its value is +1 or -1 as brute force over the component's own moves says, in
normal and misère play; Nim through the generic path equals the Nim solver; and the issue's
example, Kriegspiel on one subtraction heap of 6 (take 1 or 2), is worth 0, not -1.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from nimlab.catalogue.base import GameOptions
from nimlab.errors import InvalidPositionError
from nimlab.extensive.components import ComponentType, HeapComponent, components_for
from nimlab.extensive.games import MAX_SIZE, hidden_game, solve_hidden
from nimlab.extensive.solve import solve
from nimlab.extensive.variants import VARIANTS

# (game, options, small positions with several components, single components)
GAMES: list[tuple[str, GameOptions, list[str], list[str]]] = [
    ("nim", GameOptions(), ["2,1", "2,2"], ["3"]),
    ("subtraction", GameOptions(max_take=2), ["3,2", "2,2,1"], ["4", "6"]),
    ("subtraction", GameOptions(subtraction_set=(1, 3)), ["3,2"], ["5"]),
    ("kayles", GameOptions(), ["3,2", "2,1,1"], ["4", "5"]),
    ("dawson-kayles", GameOptions(), ["4,3"], ["5"]),
    ("octal", GameOptions(code="0.137"), ["3,2"], ["4"]),
    ("grundy-game", GameOptions(), ["5,3"], ["6", "7"]),
    ("nim2d", GameOptions(), ["1:1,2:0"], ["2:1"]),
    ("red-blue-hackenbush", GameOptions(), ["BR,RB", "BBR,R"], ["BRB"]),
]


def _pairs() -> list[Any]:
    found = []
    for game, options, positions, _ in GAMES:
        for variant in VARIANTS:
            try:
                hidden_game(variant, game, options)
            except InvalidPositionError:
                continue  # e.g. kn-empty on rows, Schrödinger on partizan stalks
            for position in positions:
                found.append(
                    pytest.param(
                        variant, game, options, position, id=f"{variant}-{game}-{position}"
                    )
                )
    return found


@pytest.mark.parametrize(("variant", "game", "options", "position"), _pairs())
@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_values_are_certified_and_bounded(
    variant: str, game: str, options: GameOptions, position: str, misere: bool
) -> None:
    result = solve_hidden(variant, game, position, options=options, misere=misere)
    assert result.exact and result.certificate.lower == result.certificate.upper
    assert -1 <= result.value <= 1
    assert result.to_json()["game"] == hidden_game(variant, game, options).game


def _wins(component: ComponentType[Any], state: Any, misere: bool) -> bool:
    """Perfect information, one component, impartial: does the player to move win?"""

    @cache
    def wins(current: Any) -> bool:
        options = [after for _, after in component.moves(current, 0)]
        if not options:
            return misere
        return any(not wins(after) for after in options)

    return wins(state)


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize("variant", ["sn", "fsn"])
@pytest.mark.parametrize(
    ("game", "options", "single"),
    [(g, o, s) for g, o, _, singles in GAMES if g != "red-blue-hackenbush" for s in singles],
)
def test_one_component_under_schrodinger_is_perfect_information(
    variant: str, game: str, options: GameOptions, single: str, misere: bool
) -> None:
    component = components_for(game, options)
    (state,) = component.parse_position(single)
    expected = Fraction(1 if _wins(component, state, misere) else -1)
    assert solve_hidden(variant, game, single, options=options, misere=misere).value == expected


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("heaps", [(2, 1), (2, 2, 1), (3, 2)])
def test_nim_through_the_generic_path_equals_the_nim_solver(
    variant: str, heaps: tuple[int, ...]
) -> None:
    generic = solve_hidden(variant, "nim", ",".join(map(str, heaps)))
    assert generic.value == solve(variant, heaps).value


def test_kriegspiel_on_one_subtraction_heap_hides_the_opponents_move() -> None:
    # issue 12: with perfect information 6 (take 1 or 2) is lost for the mover (6 = 0 mod 3)
    component = components_for("subtraction", GameOptions(max_take=2))
    assert not _wins(component, 6, misere=False)
    result = solve_hidden("kn", "subtraction", "6", options=GameOptions(max_take=2))
    assert result.value == 0 and result.exact


def test_heap_components_are_sized_and_huge_positions_refused_at_once() -> None:
    assert isinstance(components_for("subtraction", GameOptions(max_take=2)), HeapComponent)
    from nimlab.errors import TooLargeError

    with pytest.raises(TooLargeError):
        solve_hidden("sn", "kayles", str(MAX_SIZE + 1))


@pytest.mark.parametrize(("variant", "game", "options", "position"), _pairs())
def test_the_built_tree_has_perfect_recall(
    variant: str, game: str, options: GameOptions, position: str
) -> None:
    """Checked on the recorded nodes, independently of how the builder names histories: at
    every node of an information set, its player's last own action (the sequence leading
    there, found by walking up the parents) is the information set's parent sequence, and
    the true state lies in the information set's belief."""
    from nimlab.extensive.tree import build_tree

    hidden = hidden_game(variant, game, options)
    states = hidden.parse(position)
    tree = build_tree(
        hidden.rules,
        states,
        record_nodes=True,
        prune_forced=False,
        known_wins=False,
        check_estimate=False,
    )
    nodes = tree.recorded
    for node in nodes:
        if node.infoset < 0:
            continue
        info = tree.infosets[node.infoset]
        assert info.player == node.player and node.state in info.belief
        own_sequence, child, parent = 0, node, node.parent
        while parent >= 0:
            above = nodes[parent]
            if above.player == node.player:
                own_sequence = tree.infosets[above.infoset].first_seq + child.action
                break
            child, parent = above, above.parent
        assert own_sequence == info.parent_seq

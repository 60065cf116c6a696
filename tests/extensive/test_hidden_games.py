"""Hidden-information versions of catalogue games, over every (game x rule) pair that exists:
the registries are read, so a new component type or transform is tested without a new test.

Laws checked on small positions: the value is certified exact and lies in [-1, 1]; under the
Schrödinger and Fuzzy rules a single component is a game of perfect information (the mover
sees it), so its value is +1 or -1 as brute force over the component's own moves says, in
normal and misère play; Nim through the generic path equals the Nim solver; and the issue's
example, Kriegspiel on one subtraction heap of 6 (take 1 or 2), is worth 0, not -1.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from nimlab.catalogue.base import GameOptions
from nimlab.equilibrium.cursor import Cursor
from nimlab.errors import InvalidPositionError
from nimlab.hidden.components import ComponentType, HeapComponent, components_for
from nimlab.hidden.games import MAX_SIZE, hidden_game, solve_hidden
from nimlab.hidden.solve import solve
from nimlab.hidden.variants import VARIANTS
from nimlab.play.hidden import HiddenMatch, solved

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
    ("domineering", GameOptions(), [".../...", "#../..."], []),  # partizan: singles elsewhere
    ("hackenbush", GameOptions(), ["g-a:B,a-b:G,g-c:R", "g-a:B,a-b:R,b-g:G"], []),
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
    the true state lies in the information set's belief. What a player is shown to know
    (:meth:`Cursor.knowledge`, read off the nodes sharing its history) holds the true state
    and, when it moves, lies in that belief (it can be smaller: under Kriegspiel with empty
    heaps announced, the builder's belief does not use that the opponent offers no request
    on a heap it knows is empty)."""
    from nimlab.hidden.tree import build_tree

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
    root = Cursor.root(tree)
    for index, node in enumerate(nodes):
        if node.infoset < 0:
            continue
        info = tree.infosets[node.infoset]
        assert info.player == node.player and node.state in info.belief
        at = Cursor(tree, index, root.children, root.peers)
        assert node.state in at.knowledge(node.player) <= info.belief
        assert node.state in at.knowledge(1 - node.player)
        own_sequence, child, parent = 0, node, node.parent
        while parent >= 0:
            above = nodes[parent]
            if above.player == node.player:
                own_sequence = tree.infosets[above.infoset].first_seq + child.action
                break
            child, parent = above, above.parent
        assert own_sequence == info.parent_seq


def _small_pairs() -> list[Any]:
    """The pairs whose whole recorded tree is small (walked node by node in Python below)."""
    from nimlab.hidden.games import estimate_hidden

    small = []
    for pair in _pairs():
        variant, game, options, position = pair.values
        hidden = hidden_game(variant, game, options)
        if estimate_hidden(hidden, hidden.parse(position)).nodes <= 100_000:
            small.append(pair)
    return small


@pytest.mark.parametrize(("variant", "game", "options", "position"), _small_pairs())
@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_random_matches_through_play_follow_the_rules(
    variant: str, game: str, options: GameOptions, position: str, misere: bool
) -> None:
    """A match (``nimlab.play``) walks the solved tree only; replaying its record through the
    rules gives the same states and observations, and the game ends where the rules say it
    does, won by the player the convention names (the tree's payoff)."""
    hidden = hidden_game(variant, game, options)
    for seed in range(3):
        rng = random.Random(seed)
        match = HiddenMatch.start(
            variant, position, game=game, options=options, misere=misere, seed=seed
        )
        while not match.over:
            assert "history" not in match.view()
            match.act(rng.choice(match.view()["actions"])["index"])
        state = hidden.parse(position)
        for move in match.at.moves():
            step = hidden.rules.step(state, move.action, move.player)
            assert (step.state, step.own) == (move.after, move.seen)
            assert (step.opp if step.done else None) == move.told
            state = step.state
        next_player = match.at.player
        assert state == match.at.state and hidden.rules.over(state, next_player)
        winner = next_player if misere else 1 - next_player
        assert match.at.payoff == (1 if winner == 0 else -1)
        assert match.view()["winner"] == ("you" if winner == 0 else "computer")


def _best_response(root: Cursor, player: int, other: list[tuple[Fraction, ...]]) -> Fraction:
    """L's payoff when ``player`` best-responds to the opponent's behaviour strategy ``other``,
    by backward induction on the recorded tree (independent of the certificate's sequence-form
    computation): ``weight(n)`` sums the payoffs of the terminals below node ``n``, each times
    the opponent's probability of reaching it from the root, with ``player``'s choices fixed
    per information set (perfect recall: a set's choice depends on deeper sets only)."""
    nodes = root.tree.recorded
    sign = 1 if player == 0 else -1
    reach = [Fraction(1)] * len(nodes)
    members: dict[int, list[int]] = {}
    for n, node in enumerate(nodes):  # preorder: a parent before its children
        if node.parent >= 0:
            parent = nodes[node.parent]
            own = parent.player == player
            reach[n] = reach[node.parent] * (1 if own else other[parent.infoset][node.action])
        if node.infoset >= 0 and node.player == player:
            members.setdefault(node.infoset, []).append(n)
    weights: dict[int, Fraction] = {}
    choices: dict[int, int] = {}

    def weight(n: int) -> Fraction:
        if n not in weights:
            node = nodes[n]
            if node.infoset < 0:
                weights[n] = reach[n] * sign * node.payoff
            elif node.player == player:
                weights[n] = weight(root.children[n, choice(node.infoset)])
            else:
                actions = len(root.tree.infosets[node.infoset].actions)
                weights[n] = sum((weight(root.children[n, a]) for a in range(actions)), Fraction())
        return weights[n]

    def choice(infoset: int) -> int:
        if infoset not in choices:
            actions = range(len(root.tree.infosets[infoset].actions))
            choices[infoset] = max(
                actions, key=lambda a: sum(weight(root.children[m, a]) for m in members[infoset])
            )
        return choices[infoset]

    return sign * weight(0)


@pytest.mark.parametrize(("variant", "game", "options", "position"), _small_pairs())
@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_best_responses_recomputed_on_the_tree_meet_at_the_value(
    variant: str, game: str, options: GameOptions, position: str, misere: bool
) -> None:
    """Each player's equilibrium strategy holds the best response of the other to the value."""
    hidden = hidden_game(variant, game, options)
    text = hidden.component.format_position(hidden.parse(position))
    game_solved = solved(variant, text, misere, game, options)
    l_behaviour, r_behaviour = game_solved.behaviours
    assert _best_response(game_solved.root, 1, l_behaviour) == game_solved.value
    assert _best_response(game_solved.root, 0, r_behaviour) == game_solved.value


@pytest.mark.parametrize(("variant", "game", "options", "position"), _pairs())
@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_restricted_games_equal_the_whole_lp(
    variant: str, game: str, options: GameOptions, position: str, misere: bool
) -> None:
    from nimlab.hidden.oracle import solve_restricted

    hidden = hidden_game(variant, game, options)
    whole = solve_hidden(variant, game, position, options=options, misere=misere)
    grown = solve_restricted(hidden.rules, hidden.parse(position), misere=misere)
    assert grown.exact and grown.value == whole.value

"""Hackenbush on any graph: components against the brute-force twin and game-tree search;
green-only graphs against green Hackenbush, red-blue stalks against the stalk values."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.catalogue import make_game
from nimlab.catalogue.red_blue_hackenbush import stalk_value
from nimlab.cgt import hackenbush, number, parse_game, star
from nimlab.cgt.green import green_value
from nimlab.cgt.rulesets.hackenbush import (
    ColouredEdge,
    brute_value,
    first_player_wins,
    format_graph,
    parse_graph,
    stalk_graph,
)
from nimlab.errors import InvalidPositionError


def _random_graph(rng: random.Random, edges: int, colours: str = "BRG") -> tuple[ColouredEdge, ...]:
    nodes = ["g"]
    result: list[ColouredEdge] = []
    for i in range(edges):
        colour = rng.choice(colours)
        if i and rng.random() < 0.3:
            result.append((rng.choice(nodes), rng.choice(nodes), colour))
        else:
            node = f"n{len(nodes)}"
            result.append((rng.choice(nodes), node, colour))
            nodes.append(node)
    return tuple(result)


@given(st.randoms(use_true_random=False), st.integers(1, 7))
@settings(max_examples=80)
def test_components_equal_the_brute_force_twin(rng: random.Random, n: int) -> None:
    graph = _random_graph(rng, n)
    assert hackenbush(graph) is brute_value(graph)


@given(st.randoms(use_true_random=False), st.integers(1, 8))
@settings(max_examples=80)
def test_outcome_is_the_game_tree_search(rng: random.Random, n: int) -> None:
    graph = _random_graph(rng, n)
    left, right = first_player_wins(graph, "L"), first_player_wins(graph, "R")
    expected = {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}
    assert hackenbush(graph).outcome == expected[(left, right)]


@given(st.randoms(use_true_random=False), st.integers(1, 9))
@settings(max_examples=60)
def test_green_graphs_are_the_green_hackenbush_nimbers(rng: random.Random, n: int) -> None:
    graph = _random_graph(rng, n, "G")
    plain = [(u, v) for u, v, _ in graph]
    entry = make_game("green-hackenbush")
    expected = star(green_value(plain))
    assert hackenbush(graph) is expected
    assert entry.grundy(entry.parse_position(",".join(f"{u}-{v}" for u, v in plain))) == (
        expected.nimber
    )
    if n <= 7:  # and by search, without the fusion principle
        assert brute_value(graph) is expected


@given(st.lists(st.text("BR", min_size=1, max_size=5), min_size=1, max_size=3))
@settings(max_examples=80)
def test_red_blue_stalks_are_a_special_case(stalks: list[str]) -> None:
    """The stalk values of ``red-blue-hackenbush`` are the graph values of the same stalks."""
    graph = stalk_graph(stalks)
    expected = sum((stalk_value(s) for s in stalks), start=stalk_value(""))
    assert hackenbush(graph) is number(expected)
    entry = make_game("red-blue-hackenbush")
    assert entry.value(entry.parse_position(",".join(stalks))) == expected


@pytest.mark.parametrize(
    ("graph", "value"),
    [
        ("g-a:B", "1"),
        ("g-a:R", "-1"),
        ("g-a:G", "*"),
        ("g-a:B,a-b:R", "1/2"),  # Winning Ways ch. 1: a blue edge under a red one is 1/2
        ("g-a:B,g-a:R", "0"),
        ("g-a:G,a-b:B", "^*"),  # a blue edge on a green one: {0,*|0} = ^*
        ("g-a:B,a-b:G", "1*"),
        ("g-a:B,a-b:B,b-g:R", "1"),
        ("g-g:B", "1"),
    ],
)
def test_small_graphs(graph: str, value: str) -> None:
    assert hackenbush(graph) is parse_game(value)
    assert brute_value(graph) is parse_game(value)


def test_notation() -> None:
    edges = parse_graph("g-a:b,a-b")
    assert format_graph(edges) == "g-a:B,a-b:G"
    for bad in ("a-b:B", "g-a:X", "g_a:B", "g-a:B,,c-d:R"):
        with pytest.raises(InvalidPositionError):
            parse_graph(bad)

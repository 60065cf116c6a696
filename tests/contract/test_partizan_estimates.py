"""Issue 44, no job past its estimate, in partizan games: Kriegspiel Hackenbush stalks sized
by their move sequences (refused at once through the console script and the web API), and a
deep Hackenbush value written fast, or refused from the length of its text."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from nimlab.cgt.rulesets.hackenbush import brute_value, parse_graph
from nimlab.hidden.games import estimate_hidden, hidden_game, play_nodes, solve_hidden
from nimlab.web import create_app
from tests.contract.conftest import Run


def _stalks(edges: int) -> str:
    """Two one-colour stalks: Left's blue and Right's red, ``edges`` each."""
    return "B" * edges + "," + "R" * edges


def _path(edges: int, colours: str) -> str:
    """A path from the ground, its edges coloured by ``colours`` in turn."""
    ends = ["g", *(f"v{i}" for i in range(1, edges + 1))]
    return ",".join(f"{ends[i]}-{ends[i + 1]}:{colours[i % len(colours)]}" for i in range(edges))


@pytest.mark.parametrize("edges", [20, 40])
def test_long_stalks_are_refused_at_once_by_the_console_script(nimlab: Any, edges: int) -> None:
    # before: two 40-edge stalks were walked at 25,821 nodes (0.7 s) and ran past 400 MB
    run: Run = nimlab(
        "solve", "kn", "--game", "red-blue-hackenbush", _stalks(edges), "--no-store", timeout=120
    )
    assert run.code == 3, run.err
    (line,) = run.err.strip().splitlines()
    assert line.startswith("error: solving kn[red-blue-hackenbush]") and "--max-seconds" in line
    assert run.cpu < 10, run  # refused from the estimate (under a second on a quiet machine)


@pytest.mark.parametrize("route", ["/api/solve", "/api/hidden/new"])
def test_long_stalks_are_refused_by_the_web_api(route: str) -> None:
    client = TestClient(create_app())
    body = {"variant": "kn", "game": "red-blue-hackenbush", "position": _stalks(40)}
    response = client.post(route, json=body)
    assert response.status_code == 413, response.text
    assert "nodes" in response.json()["error"]


def test_small_stalks_still_solve(nimlab: Any) -> None:
    run: Run = nimlab("solve", "kn", "--game", "red-blue-hackenbush", _stalks(4), "--json")
    payload = run.ok_json()
    assert payload["value"] == "-1" and payload["exact"] is True
    # one-colour stalks: the Kriegspiel tree is the move sequences' tree, node for node
    hidden = hidden_game("kn", "red-blue-hackenbush")
    assert payload["nodes"] == play_nodes(hidden.component, hidden.parse(_stalks(4)))


@pytest.mark.parametrize(
    ("game", "position"),
    [
        ("red-blue-hackenbush", "BRB,RB"),
        ("red-blue-hackenbush", _stalks(5)),
        ("hackenbush", "g-a:B,a-b:R,g-c:G,c-d:B"),
        ("domineering", "../../.."),
    ],
)
def test_the_move_sequences_bound_the_tree_built(game: str, position: str) -> None:
    hidden = hidden_game("kn", game)
    states = hidden.parse(position)
    built = solve_hidden("kn", game, position, budget=None).nodes
    bound = play_nodes(hidden.component, states)
    assert 0 < bound <= built
    assert estimate_hidden(hidden, states).nodes >= bound


def test_the_estimate_sees_the_long_sequences() -> None:
    hidden = hidden_game("kn", "red-blue-hackenbush")
    states = hidden.parse(_stalks(40))
    assert estimate_hidden(hidden, states).nodes > 10**15  # the random walks alone: 25,821


def test_a_20_edge_mixed_path_is_analysed_fast(nimlab: Any) -> None:
    # before: 43 s, nearly all of it writing the value (each ^n*m built afresh per subgame)
    graph = _path(20, "GB")
    run: Run = nimlab("analyze", "hackenbush", graph, "--json", timeout=120)
    payload = run.ok_json()
    assert run.cpu < 20, run  # about 1 s (0.15 s of it the value's 9.4 million characters)
    assert payload["value"] == str(brute_value(parse_graph(graph)))  # the brute-force twin
    assert len(payload["value"]) == 9_374_999 and payload["outcome"] == "N"


def test_a_value_too_long_to_write_is_refused_from_its_length(nimlab: Any) -> None:
    run: Run = nimlab("analyze", "hackenbush", _path(28, "GB"), "--json")
    assert run.code == 3 and run.out == ""
    (line,) = run.err.strip().splitlines()
    assert "5,859,374,999 characters" in line and "--limit" in line
    assert run.cpu < 10, run

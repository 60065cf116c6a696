"""Domineering and Hackenbush on a graph in the playground: the partizan play API against the
rulesets' brute-force twins (canonical forms by plain recursion, minimax for who wins)."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.catalogue import make_game
from nimlab.cgt import parse_game
from nimlab.cgt.rulesets import domineering as dom
from nimlab.cgt.rulesets import hackenbush as hb
from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.play.partisan import PARTISAN_GAMES, open_partisan
from nimlab.web import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def test_the_playground_plays_every_partizan_catalogue_game() -> None:
    assert {"domineering", "hackenbush", "red-blue-hackenbush"} <= PARTISAN_GAMES


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from("LR"), st.integers(0, 1000))
def test_domineering_computer_wins_when_it_can(rng: random.Random, side: str, seed: int) -> None:
    board = make_game("domineering").random_position(rng, 9)
    text = dom.format_board(board)
    state = open_partisan("domineering", text, side)
    other = "R" if side == "L" else "L"
    options = state.options()
    assert {o.to for o in options} == {dom.format_board(q) for q, _ in board.moves(side)}
    for option in options:
        assert option.value is dom.brute_value(option.to)
        assert option.winning == (not dom.first_player_wins(option.to, other))
    if not options:
        assert state.over and not dom.first_player_wins(text, side)
        return
    move, after = state.computer_move(random.Random(seed))
    assert after.side == other and after.text == move.to
    if any(o.winning for o in options):
        assert not dom.first_player_wins(move.to, other)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from("LR"), st.integers(0, 1000))
def test_hackenbush_computer_wins_when_it_can(rng: random.Random, side: str, seed: int) -> None:
    graph = make_game("hackenbush").random_position(rng, 6)
    text = hb.format_graph(graph)
    state = open_partisan("hackenbush", text, side)
    other = "R" if side == "L" else "L"
    for option in state.options():
        assert option.value is hb.brute_value(option.to)
        assert option.winning == (not hb.first_player_wins(option.to, other))
    if state.over:
        assert not hb.first_player_wins(text, side)
        return
    move, _ = state.computer_move(random.Random(seed))
    if any(o.winning for o in state.options()):
        assert not hb.first_player_wins(move.to, other)


def test_the_computer_prefers_the_best_stop_among_winning_moves() -> None:
    # .../... for Left: 1 2 leaves 2 (wins); 1 1 and 1 3 leave ±1 (Right then wins).
    state = open_partisan("domineering", ".../...", "L")
    for seed in range(5):
        move, _ = state.computer_move(random.Random(seed))
        assert (move.typed, str(move.value)) == ("1 2", "2")
    # Right on ..../.... : 1 2 and 2 2 leave 0, every other placement {0|-2}.
    right = open_partisan("domineering", "..../....", "R")
    assert {right.computer_move(random.Random(s))[0].typed for s in range(8)} == {"1 2", "2 2"}


def test_domineering_through_the_api(client: TestClient) -> None:
    body = {"game": "domineering", "position": ".../...", "player": "L"}
    state = client.post("/api/partisan/state", json=body).json()
    assert state["player"] == "L" and state["side"] == "L" and not state["over"]
    assert [m["typed"] for m in state["moves"]] == ["1 1", "1 2", "1 3"]
    hint = client.post("/api/partisan/hint", json=body).json()
    assert (hint["value"], hint["outcome"]) == ("{2|-1/2}", "N")
    assert [(m["value"], m["winning"]) for m in hint["moves"]] == [
        ("±1", False),
        ("2", True),
        ("±1", False),
    ]
    assert hint["moves"][0]["verdict"] == "leaves ±1: whoever moves next wins"
    moved = client.post("/api/partisan/move", json={**body, "move": "1 1"}).json()
    assert moved["state"]["position"] == "#../#.." and moved["state"]["player"] == "R"
    assert moved["feedback"]["kind"] == "gave-away"
    assert moved["feedback"]["text"].startswith(
        "That placement leaves ±1: whoever moves next wins — Right, who moves next, can now win."
    )
    by_board = client.post("/api/partisan/move", json={**body, "move": ".#./.#."}).json()
    assert by_board["feedback"] == {
        "kind": "kept",
        "text": "Good placement: it leaves 2, so Left wins, whoever moves next.",
    }
    reply = client.post(
        "/api/partisan/computer", json={**body, "position": "#../#..", "player": "R", "seed": 0}
    ).json()
    assert reply["move"]["winning"] and parse_game(reply["move"]["value"]) <= 0
    assert reply["move"]["typed"] in ("1 2", "2 2")


def test_hackenbush_graph_through_the_api(client: TestClient) -> None:
    body = {"game": "hackenbush", "position": "g-a:B,a-b:R,g-b:G,b-c:R", "player": "R"}
    hint = client.post("/api/partisan/hint", json=body).json()
    assert hint["value"] == str(hb.brute_value(body["position"])) == "1/4*"
    assert [m["typed"] for m in hint["moves"]] == ["edge 2", "edge 3", "edge 4"]
    assert not any(m["winning"] for m in hint["moves"])
    moved = client.post("/api/partisan/move", json={**body, "move": "edge 3"}).json()
    assert moved["state"]["position"] == "g-a:B,a-b:R,b-c:R"
    assert moved["feedback"]["kind"] == "lost-already"
    assert "leaves 1/4: Blue (Left) can now win" in moved["feedback"]["text"]
    # B names Left too (Blue), as for the stalks
    blue = client.post("/api/partisan/state", json={**body, "player": "B"}).json()
    assert blue["player"] == "L" and [m["typed"] for m in blue["moves"]] == ["edge 1", "edge 3"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"position": "../..", "player": "L", "move": "2 2"}, 400, "not both empty cells"),
        ({"position": "../..", "player": "R", "move": "1 2"}, 400, "type the left cell"),
        ({"position": "../..", "player": "L", "move": "9 1"}, 400, "rows 1..2"),
        ({"position": "../.", "player": "L"}, 400, "rectangle"),
        ({"position": "...../...../...../...../.....", "player": "L"}, 413, "about 13 s"),
        ({"position": "." * 65, "player": "L"}, 413, "at most 64"),
        (
            {"game": "hackenbush", "position": "g-a:B,a-b:R", "player": "L", "move": "edge 2"},
            400,
            "is not blue or green",
        ),
        (
            {"game": "hackenbush", "position": "g-a:B,a-b:R", "player": "L", "move": "edge 7"},
            400,
            "edges 1..2",
        ),
        (
            {"game": "hackenbush", "position": "a-b:B", "player": "L"},
            400,
            "not connected to the ground",
        ),
        (
            {
                "game": "hackenbush",
                "position": "g-a:B,a-b:R,b-c:G,c-a:R,a-d:B,d-e:R,e-a:G,g-e:B,b-e:R,c-d:G,"
                "g-c:R,d-b:B,e-c:B",
                "player": "L",
            },
            413,
            "too large to play here",
        ),
    ],
)
def test_partizan_refusals(
    client: TestClient, body: dict[str, str], status: int, words: str
) -> None:
    payload = {"game": "domineering", **body}
    path = "/api/partisan/move" if "move" in body else "/api/partisan/state"
    response = client.post(path, json=payload)
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


def test_the_end_of_play() -> None:
    assert open_partisan("domineering", ".#/#.", "L").over
    assert open_partisan("hackenbush", "g-a:R", "L").over
    assert not open_partisan("hackenbush", "g-a:G", "L").over
    with pytest.raises(InvalidPositionError, match="no move for Right"):
        open_partisan("domineering", "./.", "R").computer_move()
    with pytest.raises(TooLargeError):
        open_partisan("domineering", "....../....../....../....../......", "R")

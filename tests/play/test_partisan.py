"""Red-blue Hackenbush stalks in the playground: the partisan play API against brute force."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.catalogue import make_game
from nimlab.catalogue.red_blue_hackenbush import options
from nimlab.errors import InvalidPositionError
from nimlab.play.partisan import open_partisan
from nimlab.web import create_app

GAME = "red-blue-hackenbush"
stalks = st.lists(st.text(alphabet="BR", min_size=1, max_size=4), min_size=1, max_size=3)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


@settings(max_examples=60, deadline=None)
@given(stalks, st.sampled_from("BR"), st.integers(0, 1000))
def test_computer_plays_an_optimal_move_by_the_brute_force_value(
    position: list[str], player: str, seed: int
) -> None:
    game = make_game(GAME)
    state = open_partisan(GAME, ",".join(position), player)
    found = list(options(tuple(position), player))
    if not found:
        assert state.over
        return
    sign = 1 if player == "B" else -1
    best = max(sign * game.brute_value(q) for q, _ in found)
    move, after = state.computer_move(random.Random(seed))
    assert sign * game.brute_value(game.parse_position(move.to)) == best
    assert after.player == ("R" if player == "B" else "B")
    # A move wins iff the opponent, moving first from it, loses (plain minimax).
    other = "R" if player == "B" else "B"
    for option in state.options():
        q = game.parse_position(option.to)
        opponent_wins = game.brute_outcome(q).value in ("N", other.replace("B", "L"))
        assert option.winning == (not opponent_wins)
        assert option.value == game.brute_value(q)


def test_partisan_play_through_the_api(client: TestClient) -> None:
    body = {"game": GAME, "position": "BBRB,RRB", "player": "B"}
    state = client.post("/api/partisan/state", json=body).json()
    assert state["player"] == "B" and not state["over"]
    assert {m["to"] for m in state["moves"]} == {"RRB", "B,RRB", "BBR,RRB", "BBRB,RR"}
    hint = client.post("/api/partisan/hint", json=body).json()
    assert hint["value"] == "1/4"  # 7/4 - 3/2
    assert [m["to"] for m in hint["moves"] if m["winning"]] == ["BBR,RRB"]
    moved = client.post("/api/partisan/move", json={**body, "move": "BBR,RRB"}).json()
    assert moved["state"]["player"] == "R" and moved["state"]["position"] == "BBR,RRB"
    reply = client.post(
        "/api/partisan/computer", json={**body, "position": "BBR,RRB", "player": "R", "seed": 3}
    ).json()
    assert Fraction(reply["move"]["value"]) == min(
        Fraction(make_game(GAME).value(q)) for q, _ in options(("BBR", "RRB"), "R")
    )
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games[GAME]["playable"] and games[GAME]["partisan"] and not games[GAME]["impartial"]
    assert games["poker-nim"]["playable"] and not games["poker-nim"]["partisan"]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"position": "BR", "player": "R", "move": "BR"}, 400, "not a legal move of Red"),
        ({"position": "BR", "player": "B", "move": "BX"}, 400, "invalid stalk"),
        ({"position": "BR", "player": "G"}, 422, "player"),
        ({"position": "B" * 201, "player": "B"}, 413, "at most 200"),
        ({"game": "nim", "position": "3", "player": "B"}, 422, "nim"),
    ],
)
def test_partisan_errors(
    client: TestClient, body: dict[str, str], status: int, message: str
) -> None:
    path = "/api/partisan/move" if "move" in body else "/api/partisan/state"
    response = client.post(path, json={"game": GAME, **body})
    assert response.status_code == status
    assert message in response.json()["error"]


def test_no_move_left_is_the_end() -> None:
    assert open_partisan(GAME, "B,B", "R").over
    with pytest.raises(InvalidPositionError, match="no move for Red"):
        open_partisan(GAME, "B", "R").computer_move()


def test_typed_cuts(client: TestClient) -> None:
    body = {"game": GAME, "position": "BBRB,RRB", "player": "R"}
    moved = client.post("/api/partisan/move", json={**body, "move": "2 2"}).json()
    assert moved["state"]["position"] == "BBRB,R" and moved["state"]["player"] == "B"
    blue = client.post("/api/partisan/move", json={**body, "move": "1 1"})
    assert blue.status_code == 400 and "is not red" in blue.json()["error"]
    missing = client.post("/api/partisan/move", json={**body, "move": "5 1"})
    assert missing.status_code == 400 and "there is no stalk 5" in missing.json()["error"]
    short = client.post("/api/partisan/move", json={**body, "move": "2 5"})
    assert short.status_code == 400 and "no edge 5 on stalk 2" in short.json()["error"]

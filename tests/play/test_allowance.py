"""Poker Nim and Skip Nim played with their allowances: rules, computer, hints, typed moves,
the API; the closed forms the computer uses are checked against a brute-force search."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from nimlab.catalogue import GameOptions
from nimlab.catalogue.poker_nim import PokerNimState
from nimlab.catalogue.skip_nim import SkipNimState
from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.grundy import GrundySolver
from nimlab.play.allowance import AllowanceGame
from nimlab.play.impartial import PLAY_POKER_CAP, PlayState, open_state
from nimlab.web import create_app

CAP = 4


def _small_states(kind: str) -> list[Any]:
    """Every state with 1 or 2 heaps of 0..3 and allowances 0..2 for each player."""
    make = PokerNimState if kind == "poker" else SkipNimState
    return [
        make(heaps, mover, other)
        for count in (1, 2)
        for heaps in itertools.product(range(4), repeat=count)
        for mover, other in itertools.product(range(3), repeat=2)
    ]


def _poker() -> PlayState:
    return open_state("poker-nim", "0", GameOptions(additions=2, cap=CAP))


def _skip() -> PlayState:
    return open_state("skip-nim", "0", GameOptions(skips=(2, 2)))


@pytest.mark.parametrize(("kind", "opened"), [("poker", _poker), ("skip", _skip)])
def test_the_computer_wins_whenever_brute_force_says_it_can(kind: str, opened: Any) -> None:
    base = opened()
    game = base.game
    assert isinstance(game, AllowanceGame)
    solver: GrundySolver[Any] = GrundySolver(game)  # searches the rules (moves) only
    rng = random.Random(7)
    for position in _small_states(kind):
        state = base.after(position)
        brute = solver.outcome(position).value
        assert game.outcome(position).value == brute, position
        if state.over:
            assert brute == "P"
            continue
        move = state.computer_move(rng)
        assert move.state.position in set(game.moves(position))  # a legal move
        if brute == "N":
            assert move.winning and solver.outcome(move.state.position).value == "P", position
        else:
            assert not move.winning
        winners = {m.to for m in game.winning_moves(position)}
        assert winners == set(solver.winning_moves(position)), position


@pytest.mark.parametrize(
    ("name", "text", "options"),
    [
        ("poker-nim", "1,3;1,2", GameOptions(additions=2, cap=CAP)),
        ("skip-nim", "2,3;1,1", GameOptions(skips=(1, 1))),
    ],
)
def test_hints_colour_every_option_as_brute_force_does(
    name: str, text: str, options: GameOptions
) -> None:
    state = open_state(name, text, options)
    solver: GrundySolver[Any] = GrundySolver(state.game)
    hint = state.hint()
    assert hint["options"] is not None
    for option in hint["options"]:
        position = state.game.parse_position(option["to"])
        assert option["outcome"] == solver.outcome(position).value
        assert option["grundy"] is None  # outcome-only games
    assert hint["analysis"]["grundy"] is None
    assert (hint["analysis"]["outcome"] == "N") == any(o["winning"] for o in hint["options"])


def test_play_terminates_within_the_stated_bound() -> None:
    # Poker Nim: sum(heaps) + 2K(C + 1) moves at most, whoever plays (here both at random).
    rng = random.Random(3)
    for _ in range(20):
        state = open_state("poker-nim", "3,2,1", GameOptions(additions=2, cap=5))
        bound = 6 + 2 * 2 * (5 + 1)
        for played in itertools.count():
            if state.over:
                break
            assert played <= bound
            state = state.after(rng.choice(list(state.game.moves(state.position))))
        skip = open_state("skip-nim", "3,2", GameOptions(skips=(2, 1)))
        for played in itertools.count():
            if skip.over:
                break
            assert played <= 5 + 3
            skip = skip.after(rng.choice(list(skip.game.moves(skip.position))))


def test_positions_and_typed_moves() -> None:
    poker = open_state("poker-nim", "3,4,5", GameOptions(additions=1, cap=7))
    assert poker.text == "3,4,5;1,1"
    assert poker.parse_move("1 2").text == "1,4,5;1,1"  # heaps are numbered from 1
    assert poker.parse_move("add 2 3").text == "3,7,5;1,0"
    assert poker.parse_move("3 +1").text == "3,4,6;1,0"
    assert poker.parse_move("3,4,7").text == "3,4,7;1,0"
    assert poker.parse_move("3,4,1;1,1").text == "3,4,1;1,1"
    with pytest.raises(InvalidPositionError, match="not a legal move"):
        poker.parse_move("add 1 5")  # over the cap 7
    spent = poker.parse_move("add 1 1").parse_move("1 1")  # now the mover has none left
    assert spent.text == "3,4,5;0,1"
    with pytest.raises(InvalidPositionError, match="no additions left"):
        spent.parse_move("add 1 1")
    with pytest.raises(InvalidPositionError, match="no heap 9"):
        poker.parse_move("9 1")
    with pytest.raises(InvalidPositionError, match="only Skip Nim"):
        poker.parse_move("skip")
    skip = open_state("skip-nim", "3,4", GameOptions(skips=(1, 0)))
    assert skip.text == "3,4;1,0"
    assert skip.parse_move("skip").text == "3,4;0,0"
    assert skip.parse_move("3,4").text == "3,4;0,0"
    assert skip.parse_move("pass").parse_move("2 4").text == "3,0;0,0"
    with pytest.raises(InvalidPositionError, match="no skips left"):
        skip.parse_move("skip").parse_move("skip")
    with pytest.raises(InvalidPositionError, match="only Poker Nim"):
        skip.parse_move("add 0 1")
    with pytest.raises(InvalidPositionError, match="heaps;m,o"):
        open_state("skip-nim", "3,4;1", GameOptions(skips=(1, 0)))
    # The skips decide (seed 002): with more skips than the opponent every Nim move wins.
    assert open_state("skip-nim", "3,4;2,1").hint()["analysis"]["outcome"] == "N"
    assert open_state("skip-nim", "0,0;0,0").over


def test_limits_and_the_default_cap() -> None:
    assert (
        open_state("poker-nim", "3,4").game.spec == f"poker-nim(additions=1;cap={PLAY_POKER_CAP})"
    )
    with pytest.raises(InvalidPositionError, match="exceed the cap"):
        open_state("poker-nim", f"3,{PLAY_POKER_CAP + 1}")
    with pytest.raises(TooLargeError, match="cap 5000"):
        open_state("poker-nim", "3,4", GameOptions(cap=5000))
    with pytest.raises(TooLargeError, match="skips 5000"):
        open_state("skip-nim", "3,4", GameOptions(skips=(5000, 0)))


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def test_api_plays_poker_nim_to_the_end(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games["poker-nim"]["playable"] and not games["poker-nim"]["partisan"]
    assert games["poker-nim"]["defaults"] == {"additions": "1", "cap": str(PLAY_POKER_CAP)}
    assert games["skip-nim"]["defaults"] == {"skips": "1,1"}
    body: dict[str, Any] = {"game": "poker-nim", "options": {"additions": 1, "cap": 8}}
    state = client.post("/api/play/state", json={**body, "position": "1,4,6"}).json()
    assert state["allowances"] == {"kind": "additions", "mover": 1, "other": 1, "cap": 8}
    assert state["heaps"] == [1, 4, 6]
    position, mover = state["position"], "you"
    for _ in range(60):
        if mover == "you":
            hint = client.post("/api/play/hint", json={**body, "position": position}).json()
            move = next(o["to"] for o in hint["options"] if o["winning"])
            reply = client.post(
                "/api/play/move", json={**body, "position": position, "move": move}
            ).json()
        else:
            reply = client.post(
                "/api/play/computer", json={**body, "position": position, "seed": 1}
            ).json()
            assert reply["move"]["winning"] is False
        position = reply["state"]["position"]
        if reply["state"]["over"]:
            break
        mover = "computer" if mover == "you" else "you"
    assert mover == "you"  # we made the last move: the computer cannot move and loses


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"game": "poker-nim", "position": "3,4", "options": {"cap": 10**6}}, 413),
        ({"game": "poker-nim", "position": "3,40"}, 400),
        ({"game": "skip-nim", "position": "3,4;x"}, 400),
        ({"game": "skip-nim", "position": "3,4", "options": {"skips": "1"}}, 422),
        ({"game": "skip-nim", "position": "3,4", "options": {"skips": "9999,1"}}, 413),
    ],
)
def test_api_refuses_bad_allowance_games(client: TestClient, body: Any, status: int) -> None:
    response = client.post("/api/play/hint", json=body)
    assert response.status_code == status, response.text
    assert response.json()["error"]

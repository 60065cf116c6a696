"""The playground's JSON API through FastAPI's test client: CLI parity, play, and 4xx errors."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nimlab.web import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def test_health_and_page(client: TestClient) -> None:
    assert client.get("/api/health").json() == {"ok": True}
    page = client.get("/")
    assert page.status_code == 200
    assert "nimlab" in page.text
    assert client.get("/static/app.js").status_code == 200


@pytest.mark.parametrize(
    ("game", "position", "flags", "options"),
    [
        pytest.param("nim", "3,4,5", [], {}, id="nim"),
        pytest.param("nim", "1,1,3", ["--misere"], {"misere": True}, id="nim-misere"),
        pytest.param("wythoff", "3,5", [], {}, id="wythoff"),
        pytest.param("staircase", "0,3,1,4", [], {}, id="staircase"),
        pytest.param("turning-turtles", "THHTTH", [], {}, id="turtles"),
        pytest.param("silver-dollar", "2,5,7,11", [], {}, id="silver-dollar"),
        pytest.param("subtraction", "10,7", ["--set", "1,3,4"], {"set": "1,3,4"}, id="subtract"),
    ],
)
def test_analyze_matches_cli(
    client: TestClient,
    cli: Any,
    game: str,
    position: str,
    flags: list[str],
    options: dict[str, Any],
) -> None:
    expected = cli("analyze", game, position, *flags, "--json").json()
    response = client.post(
        "/api/analyze", json={"game": game, "position": position, "options": options}
    )
    assert response.status_code == 200
    assert response.json() == expected


def test_analyze_accepts_a_list_of_heaps(client: TestClient) -> None:
    response = client.post("/api/analyze", json={"game": "nim", "position": [3, 4, 5]})
    assert response.json()["winning_moves"][0]["to"] == "1,4,5"


def test_scoring_matches_cli(client: TestClient, cli: Any) -> None:
    expected = cli("scoring", "5", "4", "2", "--N", "3", "--json").json()
    response = client.post("/api/scoring", json={"position": [5, 4, 2], "N": "3"})
    assert response.json() == expected
    fraction = client.post("/api/scoring", json={"position": "5,4,2", "N": "-7/2"})
    assert fraction.json() == cli("scoring", "5", "4", "2", "--N=-7/2", "--json").json()


def test_grundy_matches_cli(client: TestClient, cli: Any) -> None:
    expected = cli("grundy", "subtraction", "--upto", "20", "--set", "1,3,4", "--json").json()
    body = {"game": "subtraction", "upto": 20, "options": {"set": "1,3,4"}}
    assert client.post("/api/grundy", json=body).json() == expected


def test_play_hint_colours_every_option(client: TestClient) -> None:
    hint = client.post("/api/play/hint", json={"game": "nim", "position": "3,4,5"}).json()
    assert hint["analysis"]["outcome"] == "N"
    outcomes = {o["to"]: o["outcome"] for o in hint["options"]}
    assert len(outcomes) == 3 + 4 + 5
    assert [to for to, outcome in outcomes.items() if outcome == "P"] == ["1,4,5"]
    assert all(o["grundy"] == 0 for o in hint["options"] if o["outcome"] == "P")
    assert [row["target"] for row in hint["nim"]["rows"]] == [True, False, False]
    assert hint["nim"]["nim_sum_binary"] == "010"


def test_play_move_and_computer_reply(client: TestClient) -> None:
    moved = client.post("/api/play/move", json={"game": "nim", "position": "3,4,5", "move": "1 2"})
    assert moved.json()["state"]["position"] == "1,4,5"
    reply = client.post("/api/play/computer", json={"game": "nim", "position": "1,4,5", "seed": 3})
    assert reply.status_code == 200
    assert reply.json()["move"]["winning"] is False
    winning = client.post("/api/play/computer", json={"game": "nim", "position": "3,4,5"}).json()
    assert winning["move"] == {"to": "1,4,5", "label": "heap 1: 3 -> 1", "winning": True}
    assert winning["state"]["over"] is False


def test_scoring_play_marks_the_optimal_moves(client: TestClient) -> None:
    data = client.post("/api/scoring/play", json={"position": [5, 4, 2], "N": 3}).json()
    assert data["f_N"] == "2"
    assert [o["to"] for o in data["options"] if o["optimal"]] == [[1, 4, 2]]
    assert all(o["gain"] == data["f_N"] for o in data["options"] if o["optimal"])


BAD_REQUESTS = [
    pytest.param("/api/analyze", {"game": "chess", "position": "3"}, 422, id="unknown-game"),
    pytest.param("/api/analyze", {"game": "nim", "position": "3,-4"}, 400, id="negative"),
    pytest.param("/api/analyze", {"game": "nim", "position": "3,x"}, 400, id="bad-token"),
    pytest.param("/api/analyze", {"game": "nim", "position": [3, "4"]}, 422, id="wrong-type"),
    pytest.param("/api/analyze", {"game": "nim", "position": [3, True]}, 422, id="bool-heap"),
    pytest.param("/api/analyze", {"game": "nim"}, 422, id="missing-position"),
    pytest.param("/api/analyze", {"game": "nim", "position": "3", "x": 1}, 422, id="extra-key"),
    pytest.param("/api/analyze", {"game": 5, "position": "3"}, 422, id="game-not-a-string"),
    pytest.param("/api/analyze", [1, 2], 422, id="not-an-object"),
    pytest.param("/api/analyze", {"game": "nim", "position": [10**40]}, 413, id="huge-number"),
    pytest.param("/api/analyze", {"game": "nim", "position": "1," * 1500}, 413, id="long-text"),
    pytest.param(
        "/api/analyze",
        {"game": "domineering", "position": "../..", "options": {"misere": True}},
        400,
        id="option-not-applicable",
    ),
    pytest.param(
        "/api/analyze",
        {"game": "subtraction", "position": "5", "options": {"set": "1,x"}},
        422,
        id="bad-set",
    ),
    pytest.param("/api/grundy", {"game": "kayles", "upto": 10**9}, 413, id="grundy-too-long"),
    pytest.param("/api/grundy", {"game": "nim", "upto": -1}, 422, id="grundy-negative"),
    pytest.param("/api/scoring", {"position": [5, 4, 2], "N": "x"}, 422, id="bad-N"),
    pytest.param("/api/scoring", {"position": [5, 4, 2], "N": 1.5}, 422, id="float-N"),
    pytest.param("/api/scoring", {"position": [60, 60, 60, 60, 60]}, 413, id="scoring-heavy"),
    pytest.param("/api/scoring/play", {"position": [5, 4]}, 422, id="scoring-play-no-N"),
    pytest.param("/api/play/state", {"game": "nim", "position": "1001"}, 413, id="play-big"),
    pytest.param("/api/play/state", {"game": "nim", "position": [1] * 13}, 413, id="play-many"),
    pytest.param(
        "/api/play/state", {"game": "red-blue-hackenbush", "position": "B"}, 422, id="partisan"
    ),
    pytest.param(
        "/api/hidden/new",
        {"variant": "kn", "game": "domineering", "position": "..../..../..../...."},
        413,
        id="hidden-board-too-big",
    ),
    pytest.param(
        "/api/hidden/new",
        {"variant": "kn", "game": "domineering", "position": ".."},
        400,
        id="hidden-board-left-cannot-start",
    ),
    pytest.param(
        "/api/hidden/new",
        {"variant": "kn", "game": "hackenbush", "position": "a-b:B"},
        400,
        id="hidden-graph-off-the-ground",
    ),
    pytest.param(
        "/api/play/move", {"game": "nim", "position": "3,4", "move": "5 1"}, 400, id="no-heap"
    ),
    pytest.param(
        "/api/play/move", {"game": "nim", "position": "3,4", "move": "3,5"}, 400, id="illegal"
    ),
    pytest.param(
        "/api/play/move", {"game": "nim", "position": "3,4", "move": ""}, 400, id="empty-move"
    ),
    pytest.param("/api/play/computer", {"game": "nim", "position": "0,0"}, 400, id="no-move-left"),
    pytest.param(
        "/api/play/hint", {"game": "nim", "position": "0,0", "seed": 1}, 422, id="extra-seed"
    ),
]


@pytest.mark.parametrize(("path", "body", "status"), BAD_REQUESTS)
def test_bad_requests_get_a_clear_4xx(
    client: TestClient, path: str, body: Any, status: int
) -> None:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    payload = response.json()
    assert isinstance(payload["error"], str) and payload["error"]
    assert "Traceback" not in response.text


def test_malformed_json_and_oversized_bodies(client: TestClient) -> None:
    headers = {"content-type": "application/json"}
    broken = client.post("/api/analyze", content=b'{"game": "nim", "position": ', headers=headers)
    assert broken.status_code == 422
    huge_int = b'{"game": "nim", "position": [' + b"9" * 5000 + b"]}"
    assert client.post("/api/analyze", content=huge_int, headers=headers).status_code in (400, 422)
    big = client.post("/api/analyze", content=b" " * 70_000, headers=headers)
    assert big.status_code == 413
    assert "bytes" in big.json()["error"]


def test_unknown_routes_and_methods(client: TestClient) -> None:
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/analyze").status_code == 405
    assert "error" in client.get("/api/nothing").json()


def test_every_game_answers_big_positions_quickly_or_refuses(client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    for game in games:
        example = game["example"]
        for position in (example, example.replace("1", "9" * 17)):
            body = {"game": game["name"], "position": position}
            response = client.post("/api/analyze", json=body)
            assert response.status_code in (200, 400, 413), (game["name"], response.text)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    path=st.sampled_from(["/api/analyze", "/api/play/hint", "/api/play/computer", "/api/scoring"]),
    game=st.sampled_from(["nim", "wythoff", "turning-turtles", "nimble", "??"]),
    position=JSON_VALUES,
    extra=st.dictionaries(st.sampled_from(["options", "N", "seed"]), JSON_VALUES, max_size=2),
)
def test_no_request_gives_a_500(
    client: TestClient, path: str, game: str, position: Any, extra: dict[str, Any]
) -> None:
    body = {"game": game, "position": position, **extra}
    if path == "/api/scoring":
        body.pop("game")
    response = client.post(path, json=body)
    assert response.status_code < 500, (body, response.text)


CONTRACT_SOLVE_KEYS = ("variant", "position", "misere", "value", "exact", "nodes", "infosets")


@pytest.mark.parametrize(
    ("variant", "heaps", "misere"),
    [("sn", [3, 3, 1], False), ("fsn", [2, 2, 1], True), ("kn", [2, 1], False)],
)
def test_solve_matches_cli(
    client: TestClient, cli: Any, variant: str, heaps: list[int], misere: bool
) -> None:
    flags = ["--misere"] if misere else []
    expected = cli("solve", variant, *map(str, heaps), *flags, "--json").json()
    body = {"variant": variant, "position": heaps, "misere": misere}
    got = client.post("/api/solve", json=body).json()
    assert {k: got[k] for k in CONTRACT_SOLVE_KEYS} == {k: expected[k] for k in CONTRACT_SOLVE_KEYS}
    assert isinstance(got["seconds"], float)


def test_solve_refusals(client: TestClient) -> None:
    too_big = client.post("/api/solve", json={"variant": "kn", "position": [5, 5, 5]})
    assert too_big.status_code == 413
    assert "nimlab solve" in too_big.json()["error"]
    unknown = client.post("/api/solve", json={"variant": "chess", "position": [1]})
    assert unknown.status_code == 422
    assert "known variants" in unknown.json()["error"]
    empty = client.post("/api/solve", json={"variant": "sn", "position": [0, 0]})
    assert empty.status_code == 400


def test_hidden_game_session(client: TestClient) -> None:
    # SN(3,3,1) = 1/3 for the first player (seed 000, Fig. 2).
    start = client.post(
        "/api/hidden/new", json={"variant": "sn", "position": "3,3,1", "seed": 4}
    ).json()
    assert start["value_for_L"] == "1/3" and start["exact"] is True
    assert start["knowledge"] == "[3, 3, 1]" and start["you"] == "L"
    assert "history" not in start and "final" not in start
    token = start["id"]
    hint = client.get(f"/api/hidden/{token}/hint").json()
    assert sum(Fraction(a["probability"]) for a in hint["actions"]) == 1
    illegal = client.post(f"/api/hidden/{token}/act", json={"action": "9_9"})
    assert illegal.status_code == 400 and "choose one of" in illegal.json()["error"]
    view = start
    for _ in range(20):
        if view["over"]:
            break
        assert "history" not in view
        view = client.post(f"/api/hidden/{token}/act", json={"action": 0}).json()
    assert view["over"] and view["winner"] in ("you", "computer")
    assert view["history"][0]["before"] == [3, 3, 1] and view["final"] == [0, 0, 0]
    assert client.get(f"/api/hidden/{token}").json()["over"] is True
    after = client.post(f"/api/hidden/{token}/act", json={"action": 0})
    assert after.status_code == 400
    assert client.get("/api/hidden/no-such-game").status_code == 404
    assert client.post("/api/hidden/x/act", json={"action": 0}).status_code == 404


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"variant": "sn", "position": [6, 6, 6, 6]}, 413),
        ({"variant": "kn", "position": [3, 3, 1]}, 413),
        ({"variant": "kn", "position": "6,5", "game": "kayles"}, 413),
        ({"variant": "sn", "position": [2, 1], "first": "nobody"}, 422),
        ({"variant": "xx", "position": [2, 1]}, 422),
        ({"variant": "sn", "position": [2, 1], "misere": "yes"}, 422),
    ],
)
def test_hidden_game_refusals(client: TestClient, body: dict[str, Any], status: int) -> None:
    response = client.post("/api/hidden/new", json=body)
    assert response.status_code == status
    assert response.json()["error"]


def test_heavy_jobs_come_from_the_store(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from nimlab.specs import scoring_task, solve_task
    from nimlab.store import ResultStore, current_version

    path = tmp_path / "results.sqlite"
    monkeypatch.setenv("NIMLAB_STORE", str(path))
    body = {"variant": "kn", "position": [5, 5, 5]}
    assert client.post("/api/solve", json=body).status_code == 413  # no store yet
    task = solve_task("kn", (5, 5, 5))
    heavy = {"position": [58, 60, 59, 60, 60]}
    scoring = scoring_task(heavy["position"])
    record = {  # made-up values of the shape nimlab.store.shapes asks of a stored record
        "position": [60, 60, 60, 59, 58],  # stored as a multiset, largest first
        "breakpoints": [],
        "slope_left": 1,
        "slope_right": 1,
        "value_at_0": "0",
        "intervals": [{"from": None, "to": None, "moves": [[60, 60, 60, 59, 57]]}],
    }
    solved = {
        "variant": "kn",
        "value": "0",
        "exact": True,
        "nodes": 1,
        "infosets": 1,
        "method": "lp",
        "misere": False,
    }
    with ResultStore(path) as store:
        store.put(task.spec, task.method, solved, version=current_version())
        store.put(scoring.spec, scoring.method, record, version=current_version())
    served = client.post("/api/solve", json=body)
    assert served.status_code == 200
    assert served.json() == {**solved, "cached": True, "from_store": True}
    stored = client.post("/api/scoring", json=heavy).json()
    assert stored["cached"] is stored["from_store"] is True
    assert stored["position"] == [58, 60, 59, 60, 60]  # in the order asked for
    assert stored["intervals"][0]["moves"] == [[57, 60, 59, 60, 60]]
    assert client.post("/api/scoring", json={**heavy, "N": 1}).status_code == 413


def test_an_unexpected_error_is_a_json_500_without_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import nimlab.web.api

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internal detail")

    client = TestClient(create_app(), raise_server_exceptions=False)
    monkeypatch.setattr(nimlab.web.api, "analyze", broken)  # after the app's warm-up
    response = client.post("/api/analyze", json={"game": "nim", "position": "3"})
    assert response.status_code == 500
    assert response.json() == {"error": "unexpected RuntimeError; please report it"}
    assert "secret" not in response.text and "Traceback" not in response.text


def test_a_large_solve_is_refused_before_any_work(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The CLI would solve SN(9,9,1) by restricted games, round after round; the playground
    # must refuse it from the size estimate instead, before building anything. (Not from
    # the user's default store, where a user's own `nimlab solve sn 9 9 1` would answer it.)
    monkeypatch.setenv("NIMLAB_STORE", str(tmp_path / "missing.sqlite"))
    import nimlab.hidden.builder as builder
    import nimlab.hidden.oracle as oracle

    def no_rounds(*args: object, **kwargs: object) -> None:
        raise AssertionError("the playground started restricted games")

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("the playground started building the tree")

    monkeypatch.setattr(oracle, "solve_restricted", no_rounds)
    monkeypatch.setattr(builder.Builder, "visit", no_build)
    response = client.post("/api/solve", json={"variant": "sn", "position": [9, 9, 1]})
    assert response.status_code == 413
    assert "500,000" in response.json()["error"]


def test_hidden_play_of_a_catalogue_game(client: TestClient) -> None:
    body = {"variant": "kn", "position": "4,2", "game": "subtraction", "options": {"max": 2}}
    started = client.post("/api/hidden/new", json=body).json()
    assert started["game"] == "subtraction(max=2)" and started["options"] == {"max": 2}
    assert started["actions"][0]["label"] == "try 1_1"
    view = started
    while not view["over"]:
        act = {"action": view["actions"][-1]["index"]}
        view = client.post(f"/api/hidden/{started['id']}/act", json=act).json()
    assert view["final"] == [0, 0] and view["history"][0]["before"] == [4, 2]

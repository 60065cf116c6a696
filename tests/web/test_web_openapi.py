"""The OpenAPI document tells the truth about errors: every operation declares the statuses it
can answer with the one JSON error body, limits are in the request schemas, and a method a path
does not answer gets 405 with ``Allow`` (issue 44, item 5). The generated requests of
``tests/contract/test_openapi_schemathesis.py`` check the same against a live server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from nimlab.web import create_app
from nimlab.web.models import MAX_GRUNDY_UPTO, MAX_NUMBER, MAX_POSITION_CHARS


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def document(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    payload: dict[str, Any] = response.json()
    return payload


def _operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def test_every_operation_declares_its_errors_with_the_error_body(document: dict[str, Any]) -> None:
    computing = {"400", "405", "413", "422", "503"}
    expected = {
        ("/api/health", "get"): {"405", "413"},
        ("/api/games", "get"): {"405", "413"},
        ("/api/hidden/new", "post"): computing | {"429"},
        ("/api/hidden/{token}", "get"): {"400", "404", "405", "413", "422"},
        ("/api/hidden/{token}/act", "post"): {"400", "404", "405", "413", "422"},
        ("/api/hidden/{token}/hint", "get"): {"400", "404", "405", "413", "422"},
    }
    seen = 0
    for path, method, operation in _operations(document):
        errors = {status for status in operation["responses"] if status != "200"}
        assert errors == expected.get((path, method), computing), f"{method} {path}"
        for status in errors:
            content = operation["responses"][status]["content"]["application/json"]
            assert content["schema"] == {"$ref": "#/components/schemas/ErrorBody"}
        seen += 1
    assert seen == 19
    assert "HTTPValidationError" not in document["components"]["schemas"]


def test_the_error_body_and_the_headers_of_405_and_429(document: dict[str, Any]) -> None:
    body = document["components"]["schemas"]["ErrorBody"]
    assert body["required"] == ["error"] and body["additionalProperties"] is False
    new = document["paths"]["/api/hidden/new"]["post"]["responses"]
    assert new["429"]["headers"]["Retry-After"]["schema"]["type"] == "integer"
    assert "Allow" in new["405"]["headers"]


def test_limits_are_in_the_request_schemas(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    text, heaps = schemas["AnalyzeRequest"]["properties"]["position"]["anyOf"]
    assert text["maxLength"] == MAX_POSITION_CHARS
    assert heaps["items"] == {"type": "integer", "minimum": 0, "maximum": MAX_NUMBER}
    assert schemas["GrundyRequest"]["properties"]["upto"]["maximum"] == MAX_GRUNDY_UPTO
    assert "kayles" in schemas["AnalyzeRequest"]["properties"]["game"]["enum"]
    assert schemas["PartisanRequest"]["properties"]["game"]["enum"] == [
        "red-blue-hackenbush",
        "blue-red-hackenbush",
        "domineering",
        "hackenbush",
        "partizan-hackenbush",
        "blue-red-green-hackenbush",
    ]
    assert schemas["SolveRequest"]["properties"]["variant"]["enum"] == [
        "sn",
        "fsn",
        "kn",
        "kn-empty",
    ]
    assert "N" in schemas["ScoringPlayRequest"]["required"]
    options = schemas["OptionsIn"]["properties"]
    assert all("pattern" in options[key]["anyOf"][0] for key in ("set", "skips", "code"))
    seed = schemas["ComputerRequest"]["properties"]["seed"]["anyOf"][0]
    assert seed["maximum"] == 2**63  # an integer, not the float 9.2e18 that admits 2**63 + 1
    token = document["paths"]["/api/hidden/{token}"]["get"]["parameters"][0]["schema"]
    assert token["pattern"] == "^[A-Za-z0-9_-]{1,64}$"


def test_the_options_each_game_takes_are_in_the_schema(
    client: TestClient, document: dict[str, Any]
) -> None:
    branches = document["components"]["schemas"]["AnalyzeRequest"]["anyOf"]
    by_game = {
        name: branch["properties"]["options"]
        for branch in branches
        for name in branch["properties"]["game"]["enum"]
    }
    subtraction, needs = by_game["subtraction"]["allOf"]
    assert "set" not in subtraction["properties"] and subtraction["properties"]["code"]
    assert [one["required"] for one in needs["oneOf"]] == [["set"], ["max"]]
    assert by_game["octal"]["allOf"][1]["required"] == ["code"]
    by_game = {name: options.get("properties") for name, options in by_game.items()}
    assert by_game["domineering"]["misere"] == {"const": False}  # partizan: no misere play
    assert "misere" not in by_game["kayles"]  # impartial: misere play of any of them
    solve = document["components"]["schemas"]["SolveRequest"]["anyOf"][-1]["properties"]
    assert solve["game"] == {"type": "null"} and solve["options"]["properties"]["misere"]
    # what the schema refuses is refused: no option Nim does not take, with or without "game"
    for body in (
        {"variant": "sn", "position": [2, 1], "game": "nim", "options": {"set": "1,2"}},
        {"variant": "sn", "position": [2, 1], "options": {"misere": True}},
    ):
        assert client.post("/api/solve", json=body).status_code == 400, body
    body = {"game": "domineering", "position": "..", "options": {"misere": True}}
    assert client.post("/api/analyze", json=body).status_code == 400


@pytest.mark.parametrize(
    ("body", "status"),
    [
        pytest.param({"game": "nim", "position": [3.0, 4, 5]}, 200, id="whole-float-heap"),
        pytest.param({"game": "nim", "position": [3.5]}, 422, id="fraction-heap"),
        pytest.param({"game": "nim", "position": [2.0**60]}, 422, id="float-past-2**53"),
        pytest.param({"game": "Nim", "position": "3"}, 422, id="name-not-exact"),
        pytest.param({"game": "staircase-nim", "position": "3"}, 200, id="alias"),
        pytest.param(
            {"game": "subtraction", "position": "5", "options": {"set": " 1, 3 "}}, 200, id="set"
        ),
        pytest.param(
            {"game": "subtraction", "position": "5", "options": {"set": "0,3"}}, 422, id="set-0"
        ),
    ],
)
def test_what_the_schema_admits_is_taken(client: TestClient, body: Any, status: int) -> None:
    assert client.post("/api/analyze", json=body).status_code == status


def test_scoring_bonus_follows_its_pattern(client: TestClient) -> None:
    for good in ("3", "-1/2", " 3/4 ", "0.25", ".5", "1e3", "2.0", 7, 7.0):
        response = client.post("/api/scoring/play", json={"position": [2, 1], "N": good})
        assert response.status_code == 200, (good, response.text)
    for bad in ("x", "1/0", "inf", "1_000", "3 / 4", 1.5, True):
        response = client.post("/api/scoring/play", json={"position": [2, 1], "N": bad})
        assert response.status_code == 422, (bad, response.text)
    too_large = client.post("/api/scoring", json={"position": [2, 1], "N": "1e5000"})
    assert too_large.status_code == 413


@pytest.mark.parametrize("method", ["TRACE", "PUT", "DELETE", "PATCH", "OPTIONS"])
@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/api/health", "GET"),
        ("/api/analyze", "POST"),
        ("/api/hidden/abc", "GET"),
        ("/api/hidden/abc/act", "POST"),
    ],
)
def test_undeclared_methods_get_405_with_allow(
    client: TestClient, method: str, path: str, allowed: str
) -> None:
    response = client.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == allowed
    assert response.headers["content-type"] == "application/json"
    assert response.json()["error"] == (
        f"method {method} is not allowed on {path}; allowed: {allowed}"
    )


def test_unknown_paths_get_404_json(client: TestClient) -> None:
    for method in ("GET", "POST", "TRACE"):
        response = client.request(method, "/api/nothing/here")
        assert response.status_code == 404
        assert response.json()["error"] == "nothing at /api/nothing/here"

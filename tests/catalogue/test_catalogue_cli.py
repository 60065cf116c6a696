"""The ``analyze``, ``grundy`` and ``games`` commands against the contract."""

from __future__ import annotations

from typing import Any

import pytest

from nimlab.catalogue import registered_games

# (arguments, grundy, outcome): the contract's notation table, one example per game
EXAMPLES = [
    pytest.param(["nim", "3,4,5"], 2, "N", id="nim"),
    pytest.param(["nim", "1,1,1", "--misere"], 0, "P", id="nim-misere"),
    pytest.param(["wythoff", "3,5"], 0, "P", id="wythoff"),
    pytest.param(["staircase", "0,3,1,4"], 7, "N", id="staircase"),
    pytest.param(["nimble", "1,3,3,6"], 7, "N", id="nimble"),
    pytest.param(["poker-nim", "3,4,5", "--additions", "2"], None, "N", id="poker-nim"),
    pytest.param(["turning-turtles", "THHTTH"], 7, "N", id="turning-turtles"),
    pytest.param(["twins", "THHTTH"], 6, "N", id="twins"),
    pytest.param(["silver-dollar", "2,5,7,11"], 1, "N", id="silver-dollar"),
    pytest.param(["nim2d", "1:2,3:0"], 0, "P", id="nim2d"),
    pytest.param(["prime-power", "56700"], 5, "N", id="prime-power"),
    pytest.param(["subtraction", "10,7", "--set", "1,3,4"], 1, "N", id="subtraction-set"),
    pytest.param(["subtraction", "10,7", "--max", "3"], 1, "N", id="subtraction-max"),
    pytest.param(["octal", "5,9", "--code", "0.07"], 0, "P", id="octal"),
    pytest.param(["kayles", "7,4"], 3, "N", id="kayles"),
    pytest.param(["dawson-kayles", "7,4"], 3, "N", id="dawson-kayles"),
    pytest.param(["grundy-game", "7,4"], 0, "P", id="grundy-game"),
    pytest.param(["skip-nim", "3,4,5", "--skips", "1,1"], None, "N", id="skip-nim"),
    pytest.param(["green-hackenbush", "g-a,a-b,a-c,g-d"], 0, "P", id="green-hackenbush"),
    pytest.param(["red-blue-hackenbush", "BBRB,RRB"], None, "L", id="red-blue-hackenbush"),
    pytest.param(["domineering", "../.."], None, "N", id="domineering"),
    pytest.param(["hackenbush", "g-a:B,a-b:R"], None, "L", id="hackenbush"),
]


@pytest.mark.parametrize(("args", "grundy", "outcome"), EXAMPLES)
def test_analyze_json(cli: Any, args: list[str], grundy: int | None, outcome: str) -> None:
    result = cli("analyze", *args, "--json")
    assert result.code == 0, result.err
    payload = result.json()
    assert payload["position"] == args[1]
    assert payload["grundy"] == grundy
    assert payload["outcome"] == outcome
    assert all(isinstance(move["to"], str) for move in payload["winning_moves"])
    assert bool(payload["winning_moves"]) == (outcome in ("N", "L", "R"))


@pytest.mark.parametrize(("args", "grundy", "outcome"), EXAMPLES)
def test_analyze_human(cli: Any, args: list[str], grundy: int | None, outcome: str) -> None:
    result = cli("analyze", *args)
    assert result.code == 0, result.err
    assert f"{outcome}:" in result.out


def test_every_registered_game_has_a_cli_example() -> None:
    tested = {param.values[0][0] for param in EXAMPLES}  # type: ignore[index]
    assert {cls.name for cls in registered_games()} <= tested


def test_red_blue_value(cli: Any) -> None:
    payload = cli("analyze", "red-blue-hackenbush", "BBRRB", "--json").json()
    assert payload["value"] == "11/8"
    assert payload["outcome"] == "L"
    assert payload["grundy"] is None


def test_nim_moves_name_the_heap(cli: Any) -> None:
    payload = cli("analyze", "nim", "3", "4", "5", "--json").json()
    assert payload["winning_moves"] == [{"to": "1,4,5", "move": "heap 1: 3 -> 1", "heap": 0}]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nim", "3,-4"], "'-4'"),
        (["chess", "1"], "known games"),
        (["nim", "3", "--set", "1"], "--set"),
        (["subtraction", "3"], "set S"),
        (["wythoff", "1,2,3"], "two piles"),
        (["turning-turtles", "THX"], "'X'"),
        (["silver-dollar", "5,2"], "increase"),
        (["nim2d", "1:2,3"], "'3'"),
        (["prime-power", "0"], "'0'"),
        (["green-hackenbush", "g-a,b-c"], "'b-c'"),
        (["green-hackenbush", "g-a,a_b"], "'a_b'"),
        (["red-blue-hackenbush", "BBG"], "'BBG'"),
        (["octal", "3"], "option code"),
        (["octal", "3", "--code", "0.9"], "0.9"),
        (["skip-nim", "3", "--skips", "1"], "skips '1'"),
    ],
)
def test_bad_input_exit_2(cli: Any, args: list[str], message: str) -> None:
    result = cli("analyze", *args, "--json")
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("error:") and message in result.err


def test_too_large_exit_3(cli: Any) -> None:
    result = cli("analyze", "grundy-game", f"{10**30},7", "--json")
    assert result.code == 3
    assert "--limit" in result.err
    assert cli("analyze", "turning-turtles", "H" * 1000, "--limit", "10", "--json").code == 3
    # Wythoff's Grundy value is a table, its outcome a closed form: over the budget, the
    # value is null and the outcome still answered
    small = cli("analyze", "wythoff", "3000,4000", "--limit", "1000000", "--json").json()
    assert small["grundy"] is None and small["outcome"] == "N"
    huge = cli("analyze", "wythoff", f"{10**30},{10**30 + 7}", "--outcome-only", "--json").json()
    assert huge["grundy"] is None and huge["outcome"] == "N"


def test_closed_forms_answer_huge_positions(cli: Any) -> None:
    big = str(10**40)
    assert cli("analyze", "nim", f"{big},{big}", "--json").json()["outcome"] == "P"
    assert cli("analyze", "subtraction", big, "--set", "2,5", "--json").code == 0
    assert cli("analyze", "kayles", big, "--json").json()["grundy"] == 1
    assert cli("analyze", "prime-power", str(2**200 * 3**7), "--json").json()["grundy"] == 200 ^ 7


def test_grundy_json(cli: Any) -> None:
    payload = cli("grundy", "subtraction", "--set", "1,3,4", "--upto", "20", "--json").json()
    assert payload["game"] == "subtraction(S=1,3,4)"
    assert payload["values"][:10] == [0, 1, 0, 1, 2, 3, 2, 0, 1, 0]
    assert (payload["period"], payload["preperiod"]) == (7, 0)


def test_grundy_octal_period(cli: Any) -> None:
    payload = cli("grundy", "kayles", "--upto", "300", "--json").json()
    assert (payload["period"], payload["preperiod"]) == (12, 71)
    short = cli("grundy", "kayles", "--upto", "50", "--json").json()
    assert short["period"] is None and short["preperiod"] is None
    octal = cli("grundy", "octal", "--code", "0.07", "--upto", "200", "--json").json()
    assert octal["game"] == "octal(0.07)" and len(octal["values"]) == 201


def test_grundy_refuses_partisan(cli: Any) -> None:
    result = cli("grundy", "red-blue-hackenbush", "--upto", "5", "--json")
    assert result.code == 2 and "not impartial" in result.err


def test_games_listing(cli: Any) -> None:
    payload = cli("games", "--json").json()
    names = [game["name"] for game in payload["games"]]
    assert "silver-dollar" in names and "kayles" in names
    assert cli("games").code == 0


@pytest.mark.parametrize(("args", "grundy", "outcome"), EXAMPLES)
def test_brute_force_flag_agrees(
    cli: Any, args: list[str], grundy: int | None, outcome: str
) -> None:
    extra = ["--cap", "6"] if args[0] == "poker-nim" else []
    closed = cli("analyze", *args, *extra, "--json").json()
    searched = cli("analyze", *args, *extra, "--brute", "--json").json()
    assert searched["method"] == "brute-force" and closed["method"] == "closed-form"
    for key in ("grundy", "outcome", "value"):
        assert searched.get(key) == closed.get(key)
    moves = {(m.get("player"), m["to"]) for m in closed["winning_moves"]}
    assert {(m.get("player"), m["to"]) for m in searched["winning_moves"]} == moves


def test_brute_force_refuses_big_searches(cli: Any) -> None:
    result = cli("analyze", "nim", "30,40,50", "--brute", "--limit", "1000", "--json")
    assert result.code == 3 and "--limit" in result.err
    assert cli("analyze", "poker-nim", "3,4", "--brute", "--json").code == 3  # no --cap

"""``analyze domineering``, ``analyze hackenbush`` and ``cgt`` as users run them (the console
script in a subprocess): the contract's JSON keys, exact strings, exits 2 and 3."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

PARTIZAN_KEYS = {
    "game",
    "position",
    "grundy",
    "outcome",
    "value",
    "canonical",
    "left_stop",
    "right_stop",
    "mean",
    "temperature",
    "birthday",
    "winning_moves",
    "winning_moves_left",
    "winning_moves_right",
}


def _is_form(node: Any) -> bool:
    return (
        isinstance(node, dict)
        and set(node) == {"L", "R"}
        and all(_is_form(o) for side in ("L", "R") for o in node[side])
    )


def test_analyze_domineering_two_by_two(nimlab: Any) -> None:
    payload = nimlab("analyze", "domineering", "../..", "--json").ok_json()
    assert set(payload) >= PARTIZAN_KEYS
    assert payload["game"] == "domineering" and payload["position"] == "../.."
    assert payload["grundy"] is None
    assert payload["outcome"] == "N"
    assert payload["value"] == "±1"
    assert payload["canonical"] == {
        "L": [{"L": [{"L": [], "R": []}], "R": []}],
        "R": [{"L": [], "R": [{"L": [], "R": []}]}],
    }
    assert (payload["left_stop"], payload["right_stop"]) == ("1", "-1")
    assert (payload["mean"], payload["temperature"], payload["birthday"]) == ("0", "1", 2)
    assert sorted(payload["winning_moves_left"]) == ["#./#.", ".#/.#"]
    assert sorted(payload["winning_moves_right"]) == ["##/..", "../##"]
    assert {m["player"] for m in payload["winning_moves"]} == {"L", "R"}


def test_analyze_domineering_four_by_five_in_ten_seconds(nimlab: Any) -> None:
    board = "/".join(["....."] * 4)
    run = nimlab("analyze", "domineering", board, "--json", timeout=300)
    payload = run.ok_json()
    assert payload["value"] == "1" and payload["outcome"] == "L"
    assert payload["temperature"] == "-1" and payload["canonical"] == {
        "L": [{"L": [], "R": []}],
        "R": [],
    }
    # measured about 1 s alone (start-up included); generous under load
    assert run.seconds < 60


def test_analyze_hackenbush(nimlab: Any) -> None:
    payload = nimlab("analyze", "hackenbush", "g-a:B,a-b:R", "--json").ok_json()
    assert set(payload) >= PARTIZAN_KEYS
    assert (payload["value"], payload["outcome"], payload["mean"]) == ("1/2", "L", "1/2")
    assert payload["temperature"] == "-1/2"
    assert payload["winning_moves_left"] == [""] and payload["winning_moves_right"] == []
    assert _is_form(payload["canonical"])


def test_analyze_hackenbush_zero_and_green(nimlab: Any) -> None:
    zero = nimlab("analyze", "hackenbush", "g-a:B,g-b:R", "--json").ok_json()
    assert (zero["value"], zero["outcome"], zero["winning_moves"]) == ("0", "P", [])
    assert zero["canonical"] == {"L": [], "R": []}
    green = nimlab("analyze", "hackenbush", "g-a,a-b,a-c,g-d", "--json").ok_json()
    assert (green["value"], green["outcome"]) == ("0", "P")  # as green-hackenbush: grundy 0


def test_red_blue_hackenbush_keeps_its_json(nimlab: Any) -> None:
    payload = nimlab("analyze", "red-blue-hackenbush", "BBRRB", "--json").ok_json()
    assert payload["value"] == "11/8" and "canonical" not in payload


def test_analyze_human_output(nimlab: Any) -> None:
    run = nimlab("analyze", "domineering", "../..")
    assert run.code == 0, run.err
    assert "value: ±1" in run.out and "temperature: 1" in run.out and "N:" in run.out


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("analyze", "domineering", "../.", "--json"), 2),
        (("analyze", "domineering", "..x", "--json"), 2),
        (("analyze", "hackenbush", "a-b:B", "--json"), 2),
        (("analyze", "hackenbush", "g-a:Q", "--json"), 2),
        (("analyze", "domineering", "/".join(["." * 7] * 7), "--json"), 3),
        (("cgt", "{1|", "--json"), 2),
        (("cgt", "1/3", "--json"), 2),
    ],
)
def test_bad_input_and_too_large(nimlab: Any, args: tuple[str, ...], code: int) -> None:
    message = nimlab(*args).refused(code)
    if code == 3:
        assert "--limit" in message


def test_cgt_json(nimlab: Any) -> None:
    payload = nimlab("cgt", "{2|-1/2} + ^*", "--json").ok_json()
    assert {"value", "canonical", "outcome", "left_stop", "right_stop", "mean", "temperature"} <= (
        set(payload)
    )
    assert payload["value"] == "{2^*|-1/2^*}"
    assert (payload["outcome"], payload["mean"], payload["temperature"]) == ("N", "3/4", "5/4")
    assert (payload["left_stop"], payload["right_stop"]) == ("2", "-1/2")
    assert _is_form(payload["canonical"])


@pytest.mark.parametrize(
    ("expression", "value", "outcome"),
    [("±1", "±1", "N"), ("^", "^", "L"), ("{0||0|-2}", "{0||0|-2}", "L"), ("*2 + *3", "*", "N")],
)
def test_cgt_values(nimlab: Any, expression: str, value: str, outcome: str) -> None:
    payload = nimlab("cgt", expression, "--json").ok_json()
    assert (payload["value"], payload["outcome"]) == (value, outcome)


def test_cgt_thermograph_file(nimlab: Any, tmp_path: Path) -> None:
    target = tmp_path / "t.svg"
    run = nimlab("cgt", "{2|-1/2}", "--thermograph", str(target))
    assert run.code == 0, run.err
    assert target.read_text(encoding="utf-8").startswith("<svg")
    assert "temperature: 5/4" in run.out
    payload = nimlab("cgt", "{2|-1/2}", "--json").ok_json()
    assert json.dumps(payload["thermograph"]["left_wall"]) == '[["0", "2"], ["5/4", "3/4"]]'


def test_big_values_stay_exact_without_an_exponential_json(nimlab: Any) -> None:
    """A 40-edge alternating stalk is a number whose canonical form, written as a tree, has
    millions of nodes: ``canonical`` is null and ``canonical_nodes`` says how many."""
    stalk = ",".join(f"a{i}-a{i + 1}:{'RB'[i % 2]}" for i in range(1, 40))
    payload = nimlab("analyze", "hackenbush", f"g-a1:B,{stalk}", "--json").ok_json()
    assert payload["canonical"] is None and payload["canonical_nodes"] > 10**5
    assert payload["value"] == payload["mean"] and payload["outcome"] == "L"
    line = nimlab("analyze", "domineering", "." * 40, "--json").ok_json()
    assert (line["value"], line["outcome"]) == ("-20", "R")  # Right alone: no estimate to pay


def test_cgt_refuses_a_number_beyond_its_limit(nimlab: Any) -> None:
    assert "birthday" in nimlab("cgt", "500000", "--json").refused(3)
    assert "--limit" in nimlab("cgt", "{2|-1/2} + ^*", "--limit", "1", "--json").refused(3)

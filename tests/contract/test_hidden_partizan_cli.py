"""``nimlab reproduce hidden-partizan --out DIR`` and the Kriegspiel partizan games from the
console script (issue 40): solve, sweep, store, export-efg, play."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from nimlab.cgt.rulesets import domineering as dom
from nimlab.cgt.rulesets import hackenbush as hb
from tests.contract.conftest import Run


def _perfect(game: str, position: str) -> tuple[int, int]:
    """Left's result with perfect information, Left first and Right first, by plain minimax
    (independent of the canonical forms the report prints)."""
    module = dom if game == "domineering" else hb
    return (
        1 if module.first_player_wins(position, "L") else -1,
        -1 if module.first_player_wins(position, "R") else 1,
    )


def _number(value: str) -> Fraction | None:
    """A canonical form that is a number (``3/2``, ``-2``), else ``None`` (``±1``, ``^*``)."""
    try:
        return Fraction(value)
    except ValueError:
        return None


def test_the_small_report_and_its_claims(nimlab: Any, tmp_path: Path) -> None:
    out = tmp_path / "partizan"
    run: Run = nimlab(
        "reproduce",
        "hidden-partizan",
        "--out",
        str(out),
        "--max-cells",
        "4",
        env={"NIMLAB_PROGRESS_AFTER": "0"},
    )
    assert run.code == 0, run.err
    assert run.out.startswith("report written to")
    text = (out / "report.md").read_text()
    data = json.loads((out / "results.json").read_text())
    results = data["results"]
    assert data["max_cells"] == 4 and len(run.err.strip().splitlines()) == len(results)
    assert "## What carries over, and what breaks" in text
    classes = {(1, 1): "L", (-1, -1): "R", (1, -1): "N", (-1, 1): "P"}
    zeros, numbers = [], []
    for r in results:
        perfect = _perfect(r["game"], r["position"])
        assert r["outcome"] == classes[perfect], r  # the value's class is the minimax one
        pair = (r["kriegspiel_left_first"], r["kriegspiel_right_first"])
        assert None not in pair, r  # small: all within the budget
        values = tuple(Fraction(v) for v in pair)
        assert all(-1 <= v <= 1 for v in values)
        number = _number(r["value"])
        if number == 0:
            zeros.append(values == (-1, 1))
        elif number is not None:
            sign = 1 if number > 0 else -1
            numbers.append(values == (sign, sign))
    rect = {r["position"]: r for r in results if r["family"] == "rectangle"}
    assert rect["../.."]["kriegspiel_left_first"] == "1"  # ±1: whoever starts wins
    assert rect["../.."]["kriegspiel_right_first"] == "-1"
    zero_line = next(line for line in text.splitlines() if line.startswith("* Zero positions"))
    assert ("**holds**" in zero_line) == all(zeros) and f"of {len(zeros)} positions" in zero_line
    number_line = next(line for line in text.splitlines() if line.startswith("* Numbers stay"))
    assert ("**holds**" in number_line) == all(numbers)
    # ^* + v* is in every report's sums: zero, yet not a second-player win when hidden
    (mirror,) = [r for r in results if r["position"] == "g-a:G,a-b:B,g-a2:G,a2-b2:R"]
    assert mirror["value"] == "0" and mirror["kriegspiel_outcome"] == "mixed"


def test_max_cells_is_checked(nimlab: Any, tmp_path: Path) -> None:
    out = tmp_path / "x"
    bad = nimlab("reproduce", "hidden-partizan", "--out", str(out), "--max-cells", "0")
    assert "--max-cells" in bad.refused(2)
    other = nimlab("reproduce", "hidden-games", "--out", str(out), "--max-cells", "3")
    assert "--max-cells" in other.refused(2)
    assert not out.exists()


def test_kriegspiel_domineering_and_hackenbush_from_the_console(
    nimlab: Any, tmp_path: Path
) -> None:
    board = nimlab("solve", "kn", "--game", "domineering", ".../...", "--json").ok_json()
    assert (board["value"], board["exact"], board["game"]) == ("1", True, "domineering")
    graph = nimlab("solve", "kn", "--game", "hackenbush", "g-a:B,a-b:R,g-c:R", "--json").ok_json()
    assert graph["value"] == "-1" and graph["exact"]  # 1/2 - 1 < 0: Right wins
    assert "L has no move" in nimlab("solve", "kn", "--game", "domineering", "..").refused(2)
    big = nimlab("solve", "kn", "--game", "domineering", "..../..../..../....")
    assert "--max-seconds" in big.refused(3) or "--max-memory" in big.err
    store = str(tmp_path / "s.sqlite")
    sweep = nimlab(
        "sweep",
        "solve",
        "kn",
        "--game",
        "domineering",
        "--grid",
        "1..2,2..3",
        "--store",
        store,
        "--json",
    ).ok_json()
    assert (sweep["total"], sweep["failed"]) == (2, 0)  # 1x2 and 1x3: Left cannot start
    shown = nimlab("store", "show", "kn[domineering](.../...)", "--store", store, "--json")
    assert shown.ok_json()["value"] == "1"
    efg = tmp_path / "g.efg"
    assert (
        nimlab("export-efg", "kn", "--game", "hackenbush", "g-a:B,a-b:R,g-c:R", str(efg)).code == 0
    )
    assert '"try cut edge 1"' in efg.read_text()

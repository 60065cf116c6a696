"""``nimlab play GAME --misere``: the hint speaks to a student (the playground's words), not in
codes: who wins, where the answer comes from, each move marked "wins" or "loses" for you."""

from __future__ import annotations

import re

from nimlab.octal import OctalCode
from nimlab.quotients import BruteMisere

from .conftest import run_nimlab


def _hint(*args: str) -> str:
    run = run_nimlab("play", *args, "--misere", stdin="hint\nquit\n", timeout=240)
    assert run.code == 0, run.err
    return run.out.split("your move> hint", 1)[1].split("your move> quit", 1)[0]


def _marks(hint: str) -> dict[str, str]:
    """``leaves`` -> ``wins``/``loses`` from the hint's table of moves."""
    rows = re.findall(r"^ heap \d+: .*?  ([0-9,]+|\(empty\)) +(wins|loses) *$", hint, re.M)
    return dict(rows)


def test_misere_kayles_hint_in_words() -> None:
    hint = _hint("kayles", "3,5")
    words = " ".join(hint.split())
    assert "You can win." in words
    assert "The outcome and the winning moves come from the misère quotient of order" in words
    for code in ("N:", "P:", "P-positions", "N-positions", "|P|"):
        assert code not in words, code
    assert not re.search(r"Grundy value \d|Grundy\s*$", hint, re.M)  # no value, no column
    assert "heap 0" not in hint and "heap 1: 3 -> 1 " in hint  # heaps numbered from 1
    marks = _marks(hint)
    brute = BruteMisere(OctalCode.parse("0.77").heap_options)
    assert len(marks) == 8  # every move from 3,5 (two of them split a heap)
    for leaves, mark in marks.items():
        heaps = tuple(int(h) for h in leaves.split(","))
        assert mark == ("wins" if brute.is_p(heaps) else "loses"), leaves


def test_misere_losing_position_and_search_and_nim() -> None:
    # misère Kayles 1,1,1: three single pins, the player to move takes the last one and loses
    lost = _hint("kayles", "1,1,1")
    assert "You lose if the computer plays perfectly." in lost
    assert set(_marks(lost).values()) == {"loses"}
    searched = _hint("subtraction", "5,6", "--set", "1,2")
    assert "found by search" in " ".join(searched.split()) and "You can win." in searched
    assert _marks(searched) == {"4,6": "wins", "3,6": "loses", "5,5": "wins", "5,4": "loses"}
    nim = _hint("nim", "1,1,3")
    assert "The answer comes from misère Nim's rule." in " ".join(nim.split())
    assert _marks(nim)["1,1,1"] == "wins" and list(_marks(nim).values()).count("wins") == 1

"""``nimlab analyze GAME POSITION --brute`` on a position far too large is refused at once, for
every game of the catalogue (issue 44: such refusals took 11-119 s, the search running until
its budget stopped it): exit 3, one ``error:`` line with the estimate and ``--limit``."""

from __future__ import annotations

import math
from typing import Any

import pytest

from nimlab.catalogue import game_names, make_game

_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29)

#: A position (and options) of each registered game whose search is far over the default
#: budget. A game registered without an entry here fails the coverage test below.
LARGE: dict[str, tuple[str, ...]] = {
    "nim": ("100,100,100,100",),
    "subtraction": ("1000,1000,1000,1000", "--set", "1,3,4"),
    "wythoff": ("1000,1000",),
    "staircase": ("0,30,30,30,30,30,30",),
    "nimble": ("40,40,40,40,40,40,40",),
    "nim2d": ("9:9,9:9,9:9,9:9,9:9,9:9",),
    "poker-nim": ("30,30,30,30", "--additions", "3", "--cap", "40"),
    "skip-nim": ("40,40,40,40", "--skips", "3,3"),
    "turning-turtles": ("H" * 40,),
    "twins": ("H" * 40,),
    "silver-dollar": ("10,20,30,40,50,60,70,80,90,100",),
    "prime-power": (str(math.prod(p**20 for p in _PRIMES)),),
    "green-hackenbush": (",".join(f"g-a{i},a{i}-a{i + 1}" for i in range(40)),),
    "red-blue-hackenbush": (",".join(["BRBRBRBRBRBRBRBRBRBR"] * 8),),
    "domineering": ("/".join(["........"] * 8),),
    "hackenbush": (",".join(f"g-a{i}:{'BRG'[i % 3]}" for i in range(40)),),
    "octal": ("100,100,100", "--code", "0.137"),
    "kayles": ("100,100,100",),
    "dawson-kayles": ("100,100,100",),
    "grundy-game": ("100,100,100",),
}

#: Games whose misère play (``--misere`` without ``--brute``) is searched, not a quotient.
MISERE_SEARCHED = ("silver-dollar", "turning-turtles")


def test_every_registered_game_has_a_large_position() -> None:
    assert set(game_names()) <= set(LARGE)


def _refused_at_once(run: Any) -> str:
    """Exit 3 with one ``error:`` line naming ``--limit``, in processor seconds of a start-up
    (the wall clock too, with room for a loaded machine)."""
    message = run.refused(3)
    assert "--limit" in message and "would take about" in message, message
    assert run.cpu < 2.5, f"{run.args}: {run.cpu:.1f} s of processor time"
    assert run.seconds < 30, f"{run.args}: {run.seconds:.1f} s"
    return message


@pytest.mark.parametrize("name", list(LARGE))
def test_brute_force_is_refused_at_once(nimlab: Any, name: str) -> None:
    position, *options = LARGE[name]
    message = _refused_at_once(nimlab("analyze", name, position, *options, "--brute", "--json"))
    assert "brute-force search" in message


@pytest.mark.parametrize("name", ["kayles", "twins"])
def test_misere_brute_force_is_refused_at_once(nimlab: Any, name: str) -> None:
    position, *options = LARGE[name]
    _refused_at_once(nimlab("analyze", name, position, *options, "--misere", "--brute"))


@pytest.mark.parametrize("name", MISERE_SEARCHED)
def test_misere_search_is_refused_at_once(nimlab: Any, name: str) -> None:
    position, *options = LARGE[name]
    _refused_at_once(nimlab("analyze", name, position, *options, "--misere", "--json"))


def test_the_limit_lifts_the_refusal_of_a_moderate_search(nimlab: Any) -> None:
    """kayles 20 (12,554 positions) is estimated at about a second: refused under --limit
    100000 (0.1 s), answered by search with the default limit."""
    _refused_at_once(nimlab("analyze", "kayles", "20", "--brute", "--limit", "100000"))
    payload = nimlab("analyze", "kayles", "20", "--brute", "--json").ok_json()
    assert payload["method"] == "brute-force"
    assert payload["grundy"] == make_game("kayles").grundy((20,))  # the closed form

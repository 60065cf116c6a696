"""analyze --misere for every impartial catalogue game: the quotient's answers (outcome and
winning moves) against the misère search of the same game."""

from __future__ import annotations

import itertools

import pytest

from nimlab.catalogue import GameOptions, analyze, make_game, registered_games
from nimlab.errors import InvalidPositionError


@pytest.mark.parametrize(
    ("game", "code"), [("kayles", None), ("dawson-kayles", None), ("octal", "0.6")]
)
def test_quotient_agrees_with_search(game: str, code: str | None) -> None:
    entry = make_game(game, GameOptions(misere=True, code=code))
    for heaps in itertools.combinations_with_replacement(range(0, 9), 3):
        quick = analyze(entry, ",".join(map(str, heaps)))
        slow = analyze(entry, ",".join(map(str, heaps)), brute_force=True)
        assert quick.method == "misere-quotient"
        assert quick.outcome == slow.outcome, heaps
        assert {m["to"] for m in quick.winning_moves} == {m["to"] for m in slow.winning_moves}


def test_every_impartial_game_takes_misere() -> None:
    for cls in registered_games():
        if not cls.impartial:
            continue
        options = GameOptions(
            misere=True,
            code="0.07" if cls.name == "octal" else None,
            subtraction_set=(1, 3, 4) if cls.name == "subtraction" else None,
        )
        entry = make_game(cls.name, options)
        position = entry.parse_position(cls.example)
        result = analyze(entry, entry.format_position(position))
        assert result.method in ("misere-quotient", "brute-force", "closed-form"), cls.name
        search = analyze(entry, entry.format_position(position), brute_force=True)
        assert result.outcome == search.outcome, cls.name


def test_partizan_games_still_refuse_misere() -> None:
    partizan = next(cls for cls in registered_games() if not cls.impartial)
    with pytest.raises(InvalidPositionError, match="--misere"):
        make_game(partizan.name, GameOptions(misere=True))


def test_huge_kayles_sum_at_once() -> None:
    entry = make_game("kayles", GameOptions(misere=True))
    result = analyze(entry, "1000,2001,77")
    assert result.method == "misere-quotient" and result.outcome.value == "N"
    # every winning move leads to a P-position by the quotient, and the moves from a
    # P-position found that way are all losing
    for move in result.winning_moves[:5]:
        assert analyze(entry, str(move["to"])).outcome.value == "P"

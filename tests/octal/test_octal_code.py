"""OctalCode: parsing, canonical text, heap options, and the plain reference vs brute force."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nimlab.core import MoveFunctionGame
from nimlab.errors import InvalidPositionError
from nimlab.grundy import GrundySolver
from nimlab.octal import OctalCode
from nimlab.octal.plain import plain_sequence
from nimlab.octal.rules import GRUNDY_GAME_RULES, rules_of

codes = st.builds(
    lambda head, tail: OctalCode.parse(f"{head}." + "".join(map(str, tail))),
    st.sampled_from([0, 4]),
    st.lists(st.integers(0, 7), min_size=0, max_size=4),
)


@pytest.mark.parametrize(
    ("text", "canonical", "digits"),
    [
        ("0.07", "0.07", (0, 0, 7)),
        (".77", "0.77", (0, 7, 7)),
        ("4.7", "4.7", (4, 7)),
        ("0.137", "0.137", (0, 1, 3, 7)),
        (" 0.4000001 ", "0.4000001", (0, 4, 0, 0, 0, 0, 0, 1)),
        ("0.160", "0.16", (0, 1, 6)),
        ("4.", "4.0", (4,)),
        ("0.0", "0.0", (0,)),
    ],
)
def test_parse_and_canonical_text(text: str, canonical: str, digits: tuple[int, ...]) -> None:
    code = OctalCode.parse(text)
    assert str(code) == canonical
    assert code.digits == digits
    assert OctalCode.parse(canonical) == code
    assert hash(code) == hash(OctalCode.parse(canonical))


@pytest.mark.parametrize("text", ["", ".", "0.8", "007", "0,07", "1.7", "2.7", "0.07x", "-0.7"])
def test_bad_codes_are_refused_with_the_text_quoted(text: str) -> None:
    with pytest.raises(InvalidPositionError, match="octal code"):
        OctalCode.parse(text)


def test_direct_construction_is_checked() -> None:
    with pytest.raises(InvalidPositionError):
        OctalCode((0, 7, 0))
    with pytest.raises(InvalidPositionError):
        OctalCode((0, 9))
    with pytest.raises(InvalidPositionError):
        list(OctalCode.parse("0.7").heap_options(-1))


@given(codes)
def test_text_round_trip(code: OctalCode) -> None:
    assert OctalCode.parse(str(code)) == code
    assert OctalCode.parse(str(code).lstrip("0") or "0") == code


def _reference_options(code: OctalCode, n: int) -> set[tuple[int, ...]]:
    """The Guy-Smith rule read literally: remove k, leave 0, 1 or 2 non-empty heaps."""
    options: set[tuple[int, ...]] = set()
    for k, digit in enumerate(code.digits):
        rest = n - k
        if rest < 0 or (k == 0 and n == 0):
            continue
        if digit & 1 and rest == 0 and k > 0:
            options.add(())
        if digit & 2 and rest >= 1 and k > 0:
            options.add((rest,))
        if digit & 4:
            options.update((a, rest - a) for a in range(1, rest) if a <= rest - a)
    return options


@given(codes, st.integers(0, 30))
def test_heap_options_follow_the_digits(code: OctalCode, n: int) -> None:
    listed = list(code.heap_options(n))
    assert len(listed) == len(set(listed))
    assert set(listed) == _reference_options(code, n)
    assert all(sum(option) <= n for option in listed)


def _sum_game(code: OctalCode | None) -> MoveFunctionGame[tuple[int, ...]]:
    """Positions = sorted tuples of heaps; a move plays on one heap (Grundy's game if None)."""

    def heap_moves(h: int) -> Iterator[tuple[int, ...]]:
        if code is not None:
            yield from code.heap_options(h)
        else:
            yield from ((a, h - a) for a in range(1, (h + 1) // 2) if a != h - a)

    def moves(position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for i, h in enumerate(position):
            rest = position[:i] + position[i + 1 :]
            for option in heap_moves(h):
                yield tuple(sorted(rest + option))

    return MoveFunctionGame(moves, name=str(code))


@pytest.mark.parametrize("text", ["0.07", "0.77", "0.137", "4.7", "0.6", "0.51", "0.16", "0.4"])
def test_plain_reference_equals_brute_force(text: str) -> None:
    code = OctalCode.parse(text)
    solver = GrundySolver(_sum_game(code))
    values = plain_sequence(rules_of(code), 24)
    assert values == [solver.grundy_value((n,)) for n in range(25)]
    # Sprague-Grundy: a two-heap position is worth the XOR
    assert all(
        solver.grundy_value((a, b)) == values[a] ^ values[b] for a in range(9) for b in range(a, 9)
    )


@given(codes)
def test_plain_reference_equals_brute_force_for_random_codes(code: OctalCode) -> None:
    solver = GrundySolver(_sum_game(code))
    assert plain_sequence(rules_of(code), 14) == [solver.grundy_value((n,)) for n in range(15)]


def test_grundy_game_plain_equals_brute_force() -> None:
    solver = GrundySolver(_sum_game(None))
    assert plain_sequence(GRUNDY_GAME_RULES, 26) == [solver.grundy_value((n,)) for n in range(27)]

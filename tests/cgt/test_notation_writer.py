"""The memoised writer of canonical forms against the plain one it replaced (each subgame
written afresh, each ``^n*m`` searched by building the candidates), and the length counted
before writing against the text written."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from strategies_cgt import games

from nimlab.cgt import Game, hackenbush, number, parse_game, star, up
from nimlab.cgt.notation import format_game, text_length


def _number_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _plain_infinitesimal(h: Game) -> str | None:
    if h.birthday > 10:
        return None
    for n in range(0, 9):
        for sign in (1, -1) if n else (1,):
            base = up(sign * n)
            for m in range(0, 4):
                if base + star(m) is h:
                    arrows = ""
                    if n:
                        letter = "^" if sign > 0 else "v"
                        arrows = letter * n if n <= 2 else f"{letter}{n}"
                    if n >= 3 and m:
                        return None
                    return arrows + ("" if m == 0 else "*" if m == 1 else f"*{m}")
    return None


def _plain_atomic(g: Game) -> str | None:
    if g.number is not None:
        return _number_text(g.number)
    if g.nimber is not None:
        return "*" if g.nimber == 1 else f"*{g.nimber}"
    if len(g.left) == 1 and len(g.right) == 1:
        a, b = g.left[0].number, g.right[0].number
        if a is not None and b is not None and a > b and a + b == 0:
            return f"±{_number_text((a - b) / 2)}"
    if g.left_stop == g.right_stop:
        x = g.left_stop
        tail = _plain_infinitesimal(g - number(x))
        if tail is not None:
            return tail if x == 0 else _number_text(x) + tail
    return None


def _plain_inner(g: Game) -> tuple[str, int]:
    sides, bars = [], 0
    for options, reverse in ((g.left, False), (g.right, True)):
        ordered = sorted(options, key=_plain_key)
        if reverse and all(o.number is not None for o in ordered):
            ordered = ordered[::-1]
        texts = []
        for o in ordered:
            short = _plain_atomic(o)
            if short is not None:
                texts.append(short)
            elif len(options) == 1:
                text, inner_bars = _plain_inner(o)
                texts.append(text)
                bars = max(bars, inner_bars)
            else:
                texts.append("{" + _plain_inner(o)[0] + "}")
        sides.append(",".join(texts))
    bars += 1
    return sides[0] + "|" * bars + sides[1], bars


def _plain_key(g: Game) -> tuple[int, Fraction, int, str]:
    x = g.number
    return (
        0 if x is not None else 1,
        -(x if x is not None else Fraction(0)),
        g.birthday,
        _plain(g),
    )


def _plain(g: Game) -> str:
    short = _plain_atomic(g)
    return short if short is not None else "{" + _plain_inner(g)[0] + "}"


def _path(edges: int, colours: str) -> str:
    ends = ["g", *(f"v{i}" for i in range(1, edges + 1))]
    return ",".join(f"{ends[i]}-{ends[i + 1]}:{colours[i % len(colours)]}" for i in range(edges))


@settings(max_examples=150, deadline=None)
@given(games)
def test_the_writer_is_the_plain_writer(g: Game) -> None:
    assert format_game(g) == _plain(g)
    assert text_length(g) == len(format_game(g))


def test_deep_hackenbush_values_are_written_as_before() -> None:
    rng = random.Random(44)
    for _ in range(40):
        colours = "".join(rng.choice("BRG") for _ in range(rng.randint(1, 4)))
        value = hackenbush(_path(rng.randint(1, 9), colours))
        assert format_game(value) == _plain(value)
        assert text_length(value) == len(str(value))
        assert parse_game(str(value)) is value


def test_infinitesimals_keep_their_short_names() -> None:
    texts = ["^^^*", "v3*2", "^*", "vv*3", "1/2^*", "-1v*3", "^3", "{0||0|-2}"]
    assert [str(parse_game(t)) for t in texts] == [_plain(parse_game(t)) for t in texts]

"""CGSuite's notation for short games: parse ``{2|-1/2} + ^*`` and write canonical forms.

Accepted: numbers (``-2``, ``3/4``; dyadic only), nimbers (``*``, ``*2``), up and down
(``^``, ``^^``, ``^3``, ``v``, ``vv``, ``v3``, ``↑``, ``↓``), their combinations in that order
(``1/2^*``, ``-1v*3``), switches (``±1``, ``2±1``, ``±{1|0}``), braces with CGSuite's bars
(``{0,*|0}``, ``{0||0|-2}`` = ``{0|{0|-2}}``), parentheses, ``+`` and ``-``.

>>> str(parse_game("{2|-1/2} + ^*"))
'{2^*|-1/2^*}'
>>> [str(parse_game(t)) for t in ("±1", "^^", "↑*", "v", "{0||0|-2}", "3/4", "1/2 + 1/4")]
['±1', '^^', '^*', 'v', '{0||0|-2}', '3/4', '3/4']
>>> parse_game("{1|") # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
nimlab.errors.InvalidPositionError: invalid game '{1|': ...
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from nimlab.cgt.game import ZERO, Game, game, number, set_writer, star, up
from nimlab.errors import InvalidPositionError

__all__ = ["format_game", "parse_game", "text_length"]

_UP = "^↑"
_DOWN = "v↓"


# -- writing ----------------------------------------------------------------------------------
def _number_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _infinitesimal_text(h: Game) -> str | None:
    """``^n*m`` when ``h`` equals it for small n, m (None otherwise): one look-up in
    :func:`_infinitesimals` (games are interned; before, each look built the up to 72
    candidates afresh, 85% of writing a 13-edge green-blue path's value)."""
    if h.birthday > 10:
        return None
    return _infinitesimals().get(h)


_INFINITESIMALS: dict[Game, str | None] = {}


def _infinitesimals() -> dict[Game, str | None]:
    """``^n*m`` for n up to 8 (either sign) and m up to 3, by game, the first text found
    for each (as the search it replaces took them); built once.

    >>> _infinitesimals()[up(2) + star(1)], _infinitesimals()[up(-3)]
    ('^^*', 'v3')
    """
    if _INFINITESIMALS:
        return _INFINITESIMALS
    table: dict[Game, str | None] = {}
    for n in range(0, 9):
        for sign in (1, -1) if n else (1,):
            base = up(sign * n)
            for m in range(0, 4):
                arrows = ""
                if n:
                    letter = "^" if sign > 0 else "v"
                    arrows = letter * n if n <= 2 else f"{letter}{n}"
                stars = "" if m == 0 else "*" if m == 1 else f"*{m}"
                # ``^3*`` would read as ^ + 3*: such a game has no short name
                table.setdefault(base + star(m), None if n >= 3 and m else arrows + stars)
    _INFINITESIMALS.update(table)
    return _INFINITESIMALS


def _atomic(g: Game) -> str | None:
    """The short name of ``g`` (a number, nimber, ``x^n*m``, ``x±y``), or None."""
    if g.number is not None:
        return _number_text(g.number)
    if g.nimber is not None:
        return "*" if g.nimber == 1 else f"*{g.nimber}"
    if len(g.left) == 1 and len(g.right) == 1:
        a, b = g.left[0].number, g.right[0].number
        if a is not None and b is not None and a > b:
            centre, radius = (a + b) / 2, (a - b) / 2
            if centre == 0:
                return f"{_number_text(centre) if centre else ''}±{_number_text(radius)}"
    stops = g._stop_pair()
    if stops[0] == stops[1]:
        x = stops[0]
        tail = _infinitesimal_text(g - number(x))
        if tail is not None:
            return tail if x == 0 else _number_text(x) + tail
    return None


def _option_sort_key(g: Game) -> tuple[int, Fraction, int, str]:
    x = g.number
    return (0 if x is not None else 1, -(x if x is not None else Fraction(0)), g.birthday, str(g))


_BARS: dict[Game, int] = {}
"""The bars between the sides of each compound game written so far (its text, with braces,
is kept by the game itself: ``str(g)``)."""


def _inner(g: Game) -> tuple[str, int]:
    """The text of a compound ``g`` without its braces, and the bars between its sides.

    A compound option is written once (``str(o)``, kept by the game) and its bars looked up:
    before, each occurrence was written afresh, and a value with many shared subgames took
    time in proportion to its text's length times its depth."""
    sides = []
    bars = 0
    for options, reverse in ((g.left, False), (g.right, True)):
        ordered = sorted(options, key=_option_sort_key)
        if reverse:
            ordered = ordered[::-1] if all(o.number is not None for o in ordered) else ordered
        texts = []
        for o in ordered:
            short = _atomic(o)
            if short is not None:
                texts.append(short)
            elif len(options) == 1:
                texts.append(str(o)[1:-1])
                found = _BARS.get(o)
                bars = max(bars, found if found is not None else _inner(o)[1])
            else:
                texts.append(str(o))
        sides.append(",".join(texts))
    bars += 1
    _BARS[g] = bars
    return sides[0] + "|" * bars + sides[1], bars


def format_game(g: Game) -> str:
    """CGSuite's text of a canonical form.

    >>> from nimlab.cgt.game import switch, tiny
    >>> format_game(switch(2, Fraction(-1, 2))), format_game(tiny(2) + tiny(2))
    ('{2|-1/2}', '{0||0,{0|-2}|-2}')
    """
    short = _atomic(g)
    if short is not None:
        return short
    return "{" + _inner(g)[0] + "}"


_LENGTHS: dict[Game, tuple[int, int, int]] = {}
"""Per game: the length of its text, of its text without braces (0 when atomic), and its bars
(0 when atomic)."""


def text_length(g: Game) -> int:
    """The length of :func:`format_game`'s text of ``g``, counted without writing it: one step
    per distinct subgame (games are interned), so a text too long to write is known first.
    The text of a deep game repeats its shared subgames, and grows exponentially with depth
    (a 20-edge green-blue Hackenbush path: 9,374,999 characters; 24 edges: 25 times more).

    >>> from nimlab.cgt.game import switch, tiny
    >>> [text_length(x) == len(format_game(x)) for x in (switch(2, -1), tiny(2) + tiny(2))]
    [True, True]
    """
    stack = [g]
    while stack:  # iterative: deep games would exhaust the stack
        top = stack[-1]
        if top in _LENGTHS:
            stack.pop()
            continue
        short = _atomic(top)
        if short is not None:
            _LENGTHS[top] = (len(short), 0, 0)
            stack.pop()
            continue
        pending = [o for o in (*top.left, *top.right) if o not in _LENGTHS]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        inner, bars = 1, 0  # the bars are counted below, from ``bars``
        for options in (top.left, top.right):
            inner += max(0, len(options) - 1)  # commas
            for o in options:
                whole, without, inner_bars = _LENGTHS[o]
                if len(options) == 1 and without:
                    inner += without
                    bars = max(bars, inner_bars)
                else:
                    inner += whole
        inner += bars  # ``bars + 1`` bars in all
        _LENGTHS[top] = (inner + 2, inner, bars + 1)
    return _LENGTHS[g][0]


# -- reading ----------------------------------------------------------------------------------
class _Parser:
    def __init__(self, text: str, before_add: Callable[[Game, Game], None] | None = None) -> None:
        self.before_add = before_add
        self.text = text
        self.s = text.replace(" ", "").replace("\t", "").replace("\n", "")
        self.i = 0

    def error(self, why: str) -> InvalidPositionError:
        return InvalidPositionError(f"invalid game {self.text!r}: {why}")

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def parse(self) -> Game:
        if not self.s:
            raise self.error("it is empty")
        g = self.expr()
        if self.i != len(self.s):
            raise self.error(f"unexpected {self.s[self.i :]!r}")
        return g

    def expr(self) -> Game:
        sign = 1
        if self.peek() and self.peek() in "+-":
            sign = -1 if self.peek() == "-" else 1
            self.i += 1
        if sign < 0 and self.peek().isdigit():  # ``-1v*`` is (-1) + v + *, as written
            total = self.compound_name(negative=True)
        else:
            total = self.term()
            total = total if sign > 0 else -total
        while self.peek() in ("+", "-") and self.peek():
            op = self.peek()
            self.i += 1
            t = self.term()
            if op == "-":
                t = -t
            if self.before_add is not None:
                self.before_add(total, t)
            total = total + t
        return total

    def digits(self) -> int | None:
        start = self.i
        while self.peek().isdigit() and self.peek().isascii():
            self.i += 1
        return int(self.s[start : self.i]) if self.i > start else None

    def term(self) -> Game:
        c = self.peek()
        if c == "{":
            result = self.braces()
        elif c == "(":
            self.i += 1
            result = self.expr()
            if self.peek() != ")":
                raise self.error("missing ')'")
            self.i += 1
        else:
            result = self.compound_name()
        return result

    def compound_name(self, *, negative: bool = False) -> Game:
        """``x``, ``x^n*m``, ``x±G`` and their parts (at least one); ``negative``: the
        number ``x`` had a leading minus sign."""
        parts: list[Game] = []
        n = self.digits()
        if n is not None and negative:
            n = -n
        if n is not None:
            if self.peek() == "/":
                self.i += 1
                d = self.digits()
                if d is None or d == 0:
                    raise self.error("a fraction needs a positive denominator")
                parts.append(number(Fraction(n, d)))
            else:
                parts.append(number(n))
        c = self.peek()
        if c and c in _UP + _DOWN:
            sign = 1 if c in _UP else -1
            count = 0
            while self.peek() and self.peek() in (_UP if sign > 0 else _DOWN):
                count += 1
                self.i += 1
            if count == 1:
                k = self.digits()
                count = k if k is not None else 1
            parts.append(up(sign * count))
        if self.peek() == "*":
            self.i += 1
            k = self.digits()
            parts.append(star(1 if k is None else k))
        if self.peek() == "±":
            self.i += 1
            g = self.term() if self.peek() == "(" or self.peek() == "{" else self.compound_name()
            base = sum(parts[1:], parts[0]) if parts else ZERO
            return game([base + g], [base - g])
        if not parts:
            found = self.peek() or "the end"
            raise self.error(f"expected a game at {found!r}")
        return sum(parts[1:], parts[0])

    def braces(self) -> Game:
        start = self.i
        depth = 0
        while self.i < len(self.s):
            c = self.s[self.i]
            if c in "{(":
                depth += 1
            elif c in "})":
                depth -= 1
                if depth == 0:
                    break
            self.i += 1
        if depth != 0 or self.i >= len(self.s) or self.s[self.i] != "}":
            raise self.error("unbalanced braces")
        self.i += 1
        return self.options_game(self.s[start + 1 : self.i - 1])

    def options_game(self, inner: str) -> Game:
        runs = _bar_runs(inner)
        if not runs:
            raise self.error(f"no '|' in {{{inner}}}")
        longest = max(length for _, length in runs)
        tops = [(at, length) for at, length in runs if length == longest]
        if len(tops) != 1:
            raise self.error(f"ambiguous bars in {{{inner}}}")
        at, length = tops[0]
        return game(self.side(inner[:at]), self.side(inner[at + length :]))

    def side(self, text: str) -> list[Game]:
        """The options on one side of a run of bars: a side with bars of its own is one
        game (``0,*|-2`` in ``{0,*|-2||-2}`` is ``{0,*|-2}``: commas bind inside the bars),
        otherwise the options separated by commas.

        >>> str(parse_game("{0,*|-2||-2}")), str(parse_game("{2||1|0,*}"))
        ('{0,*|-2||-2}', '{2||1|0,*}')
        """
        if not text:
            return []
        if _bar_runs(text):
            return [self.options_game(text)]
        result = []
        for item in _split_commas(text):
            if not item:
                raise self.error("an empty option")
            sub = _Parser(item, self.before_add)
            sub.text = self.text
            result.append(sub.parse())
        return result


def _bar_runs(text: str) -> list[tuple[int, int]]:
    """``(start, length)`` of each run of ``|`` outside braces and parentheses."""
    runs = []
    depth = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c in "{(":
            depth += 1
        elif c in "})":
            depth -= 1
        elif c == "|" and depth == 0:
            j = i
            while j < len(text) and text[j] == "|":
                j += 1
            runs.append((i, j - i))
            i = j
            continue
        i += 1
    return runs


def _split_commas(text: str) -> list[str]:
    items = []
    depth = 0
    start = 0
    for i, c in enumerate(text):
        if c in "{(":
            depth += 1
        elif c in "})":
            depth -= 1
        elif c == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return items


def parse_game(text: str, before_add: Callable[[Game, Game], None] | None = None) -> Game:
    """The canonical form of a game written in CGSuite's notation (see the module docstring).

    ``before_add(a, b)`` is called before each sum ``a + b`` is formed (a budget may refuse it).

    >>> g = parse_game("{0,*|0}")
    >>> str(g), parse_game(str(g)) is g
    ('^*', True)
    """
    return _Parser(text, before_add).parse()


set_writer(format_game)
